analyze bad-shift.json

analyze bad-fraction.json

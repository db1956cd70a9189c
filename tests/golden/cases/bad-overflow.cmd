analyze bad-overflow.json

analyze bad-name-xor.json

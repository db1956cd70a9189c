analyze bad-name-int4.json

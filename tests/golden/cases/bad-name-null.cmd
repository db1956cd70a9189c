analyze bad-name-null.json

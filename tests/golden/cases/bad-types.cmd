analyze bad-types.json

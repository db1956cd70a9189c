analyze bad-deep.json

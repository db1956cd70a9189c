analyze bad-empty-object.json

analyze bad-empty-file.json

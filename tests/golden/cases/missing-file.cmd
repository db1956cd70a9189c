analyze missing-file.json

analyze bad-missing.json

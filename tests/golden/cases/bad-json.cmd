analyze bad-json.json

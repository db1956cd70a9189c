analyze bad-inject-name.json

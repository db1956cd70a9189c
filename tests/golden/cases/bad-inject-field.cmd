analyze bad-inject-field.json

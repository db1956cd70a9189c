analyze hostile-names.json --json

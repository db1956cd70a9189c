analyze hostile-names.json

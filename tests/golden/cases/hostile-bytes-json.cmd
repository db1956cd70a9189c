analyze hostile-bytes.json --json

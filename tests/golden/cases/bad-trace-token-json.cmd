analyze bad-trace-token-json.json --json

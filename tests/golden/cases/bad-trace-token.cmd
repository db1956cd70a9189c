analyze bad-trace-token.json --summary

analyze bad-trace-key.json --summary

analyze bad-trace-truncated.json --summary

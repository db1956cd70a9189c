analyze bad-trace-deep.json --summary

analyze bad-trace-huge.json --summary

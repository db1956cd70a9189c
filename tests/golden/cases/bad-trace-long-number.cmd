analyze bad-trace-long-number.json --summary

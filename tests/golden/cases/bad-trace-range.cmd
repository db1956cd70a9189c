analyze bad-trace-range.json

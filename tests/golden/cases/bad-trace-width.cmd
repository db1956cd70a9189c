analyze bad-trace-width.json

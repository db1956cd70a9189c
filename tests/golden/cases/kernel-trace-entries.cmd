kernel kernel-trace-entries.json

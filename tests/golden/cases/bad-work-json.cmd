analyze work-limit.json --json

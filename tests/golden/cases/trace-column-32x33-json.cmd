analyze trace-column-32x33.json --json

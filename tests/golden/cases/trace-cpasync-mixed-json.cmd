analyze trace-cpasync-mixed.json --json

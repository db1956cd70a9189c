analyze trace-column-32x32.json

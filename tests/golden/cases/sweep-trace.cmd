sweep trace-column-32x32.json

analyze trace-cpasync-mixed.json

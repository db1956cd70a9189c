analyze trace-cpasync-mixed.json --arch sm_75

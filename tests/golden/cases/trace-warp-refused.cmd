analyze trace-column-32x32.json --warp 1

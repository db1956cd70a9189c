analyze trace-arch-after.json --summary

analyze scan

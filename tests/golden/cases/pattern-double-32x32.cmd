analyze double-32x32

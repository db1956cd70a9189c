analyze double-32x33

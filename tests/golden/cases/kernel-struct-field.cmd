kernel struct-mixed --access 1

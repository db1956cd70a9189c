kernel kernel-arith-64-1.json --access 1

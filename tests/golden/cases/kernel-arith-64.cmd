kernel kernel-arith-64.json

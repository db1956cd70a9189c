analyze arith-64.json

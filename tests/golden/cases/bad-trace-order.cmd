analyze bad-trace-order.json --summary

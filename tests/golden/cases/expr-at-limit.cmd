analyze expr-at-limit.json --summary

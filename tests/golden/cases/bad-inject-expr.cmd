analyze bad-inject-expr.json

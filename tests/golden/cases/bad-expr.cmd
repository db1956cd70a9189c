analyze bad-expr.json

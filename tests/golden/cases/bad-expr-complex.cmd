analyze bad-expr-complex.json

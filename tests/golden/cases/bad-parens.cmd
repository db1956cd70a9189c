analyze bad-parens.json

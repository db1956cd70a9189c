analyze conditional.json

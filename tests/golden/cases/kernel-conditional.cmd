kernel conditional.json --access 1

analyze loop-outside.json

analyze loop-outside-nest.json

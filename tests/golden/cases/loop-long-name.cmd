analyze loop-long-name.json --summary

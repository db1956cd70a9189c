analyze bad-loop-long-name.json

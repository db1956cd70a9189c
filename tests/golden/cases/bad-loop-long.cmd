analyze bad-loop-long.json

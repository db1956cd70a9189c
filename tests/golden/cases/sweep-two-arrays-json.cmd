sweep sweep-two-arrays.json --max-pad 2 --json

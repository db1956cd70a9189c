sweep sweep-two-arrays.json --max-pad 4

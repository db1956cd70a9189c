sweep sweep-swizzled-64b.json --max-pad 8

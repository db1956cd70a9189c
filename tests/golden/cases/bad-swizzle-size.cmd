analyze bad-swizzle-size.json

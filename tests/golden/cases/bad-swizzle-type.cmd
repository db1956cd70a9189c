analyze bad-swizzle-type.json

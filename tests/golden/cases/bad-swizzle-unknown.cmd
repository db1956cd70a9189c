analyze bad-swizzle-unknown.json

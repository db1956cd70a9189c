analyze bad-swizzle-base.json

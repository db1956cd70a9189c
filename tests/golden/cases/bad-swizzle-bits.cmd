analyze bad-swizzle-bits.json

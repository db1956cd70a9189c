analyze bad-swizzle-pow2.json

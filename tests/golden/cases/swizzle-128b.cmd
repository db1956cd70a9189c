analyze swizzle-128b.json

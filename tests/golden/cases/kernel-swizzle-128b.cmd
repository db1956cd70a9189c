kernel swizzle-128b.json

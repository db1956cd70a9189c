kernel kernel-swizzle-cute.json

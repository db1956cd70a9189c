kernel swizzle-wide-struct.json

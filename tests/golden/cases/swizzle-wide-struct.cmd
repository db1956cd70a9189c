analyze swizzle-wide-struct.json

analyze swizzle-short-rows.json

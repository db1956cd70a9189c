analyze swizzle-cute-float4.json

analyze float4-32x36

analyze float4-32x32

sweep float4-32x32 --json --max-pad 8

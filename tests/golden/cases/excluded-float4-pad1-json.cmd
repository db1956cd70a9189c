analyze excluded-float4-pad1.json --json

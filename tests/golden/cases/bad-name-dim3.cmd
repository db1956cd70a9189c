analyze bad-name-dim3.json

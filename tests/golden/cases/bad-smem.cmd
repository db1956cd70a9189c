analyze bad-smem.json

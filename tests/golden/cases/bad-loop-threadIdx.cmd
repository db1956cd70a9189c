analyze bad-loop-threadIdx.json

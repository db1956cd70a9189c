analyze bad-matrices.json

analyze bad-vector.json

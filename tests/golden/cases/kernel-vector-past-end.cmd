kernel kernel-vector-past-end.json

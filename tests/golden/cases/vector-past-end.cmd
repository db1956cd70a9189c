analyze vector-past-end.json

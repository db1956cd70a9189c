analyze bad-negative.json

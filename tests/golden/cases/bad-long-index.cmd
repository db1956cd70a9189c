analyze bad-long-index.json

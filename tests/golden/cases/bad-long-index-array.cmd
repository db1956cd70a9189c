analyze bad-long-index-array.json

analyze bad-keyword.json

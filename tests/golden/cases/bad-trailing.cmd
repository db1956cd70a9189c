analyze bad-trailing.json

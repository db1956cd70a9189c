analyze bad-dims-huge.json

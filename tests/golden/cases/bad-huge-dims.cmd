analyze bad-huge-dims.json

analyze bad-trans-load.json

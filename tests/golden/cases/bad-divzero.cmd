analyze bad-divzero.json

analyze tensor-hist.json

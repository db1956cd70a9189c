analyze tensor-trace.json

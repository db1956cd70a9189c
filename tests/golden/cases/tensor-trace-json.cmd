analyze --json tensor-trace.json

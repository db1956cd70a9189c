analyze bad-dup-trace-arch.json --json

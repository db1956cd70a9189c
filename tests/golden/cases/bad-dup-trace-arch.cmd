analyze bad-dup-trace-arch.json --summary

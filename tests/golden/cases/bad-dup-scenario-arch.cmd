analyze bad-dup-scenario-arch.json

analyze bad-trace-arch-after.json --summary

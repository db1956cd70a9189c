#!/bin/sh
# Benchmark (not a test: prints timings, asserts nothing): `analyze --summary` of a scenario of
# 393216 warp-instructions (block 1024 x 3 accesses x 4096 iterations, tests/bench/scenario-393k.json),
# best of 3 runs for each binary given (default ./bankscope), so that two builds can be compared:
#   tests/bench/bench_scenario.sh ./bankscope /path/to/older/bankscope
here=$(cd "$(dirname "$0")" && pwd)
file=${BENCH_SCENARIO:-$here/scenario-393k.json}
[ $# -gt 0 ] || set -- ./bankscope
now() { date +%s.%N; }
for bin in "$@"; do
    best=
    for run in 1 2 3; do
        t0=$(now)
        "$bin" analyze "$file" --summary > /dev/null || { echo "$bin: failed"; exit 1; }
        t=$(echo "$(now) - $t0" | bc -l)
        if [ -z "$best" ] || [ "$(echo "$t < $best" | bc -l)" -eq 1 ]; then best=$t; fi
    done
    echo "$bin: analyze --summary $(basename "$file") (393216 warp-instructions): best of 3 $(printf '%.3f' "$best") s"
done

#!/bin/sh
# Benchmark (not a test: prints timings, asserts nothing): `analyze --summary` of a scenario of
# 393216 warp-instructions (block 1024 x 3 accesses x 4096 iterations, tests/bench/scenario-393k.json),
# for each binary given (default ./bankscope), so that two builds can be compared:
#   tests/bench/bench_scenario.sh ./bankscope /path/to/older/bankscope
# Reports the best of RUNS (default 5) runs, as CPU time (user + system, which a busy machine
# inflates less than wall time) and wall time.
here=$(cd "$(dirname "$0")" && pwd)
file=${BENCH_SCENARIO:-$here/scenario-393k.json}
runs=${RUNS:-5}
[ $# -gt 0 ] || set -- ./bankscope
tmp=$(mktemp) || exit 1
trap 'rm -f "$tmp"' EXIT
for bin in "$@"; do
    best_cpu=; best_wall=
    i=0
    while [ $i -lt "$runs" ]; do
        /usr/bin/time -f "%U %S %e" -o "$tmp" "$bin" analyze "$file" --summary > /dev/null || { echo "$bin: failed"; exit 1; }
        read -r user sys wall < "$tmp"
        cpu=$(echo "$user + $sys" | bc -l)
        if [ -z "$best_cpu" ] || [ "$(echo "$cpu < $best_cpu" | bc -l)" -eq 1 ]; then best_cpu=$cpu; fi
        if [ -z "$best_wall" ] || [ "$(echo "$wall < $best_wall" | bc -l)" -eq 1 ]; then best_wall=$wall; fi
        i=$((i + 1))
    done
    echo "$bin: analyze --summary $(basename "$file") (393216 warp-instructions): best of $runs: CPU $(printf '%.2f' "$best_cpu") s, wall $(printf '%.2f' "$best_wall") s"
done

#!/bin/sh
# Benchmark (not a test: prints timings, asserts nothing): `analyze --summary` of a scenario of
# 393216 warp-instructions (block 1024 x 3 accesses x 4096 iterations, tests/bench/scenario-393k.json),
# for each binary given (default ./bankscope), so that two builds can be compared:
#   tests/bench/bench_scenario.sh ./bankscope /path/to/older/bankscope
# then its floor, tests/bench/bench_scenario_ref (the same warp-instructions built by the
# scenario's address expressions written as C, each analysed by banks_analyze: the same engine),
# and each binary's CPU time over the floor's; the totals of each must equal the floor's.
# Reports the best of RUNS (default 5) runs, as CPU time (user + system, which a busy machine
# inflates less than wall time) and wall time.
here=$(cd "$(dirname "$0")" && pwd)
file=${BENCH_SCENARIO:-$here/scenario-393k.json}
runs=${RUNS:-5}
ref="$here/bench_scenario_ref"
[ $# -gt 0 ] || set -- ./bankscope
tmp=$(mktemp) || exit 1
trap 'rm -f "$tmp" "$tmp.out"' EXIT
best() {  # best COMMAND...: the best CPU and wall seconds of $runs runs into $best_cpu, $best_wall
    best_cpu=; best_wall=
    i=0
    while [ $i -lt "$runs" ]; do
        /usr/bin/time -f "%U %S %e" -o "$tmp" "$@" > "$tmp.out" || { echo "$1: failed"; exit 1; }
        read -r user sys wall < "$tmp"
        cpu=$(echo "$user + $sys" | bc -l)
        if [ -z "$best_cpu" ] || [ "$(echo "$cpu < $best_cpu" | bc -l)" -eq 1 ]; then best_cpu=$cpu; fi
        if [ -z "$best_wall" ] || [ "$(echo "$wall < $best_wall" | bc -l)" -eq 1 ]; then best_wall=$wall; fi
        i=$((i + 1))
    done
}
floor_cpu=
if [ -x "$ref" ] || make -s tests/bench/bench_scenario_ref >/dev/null 2>&1; then
    best "$ref" "$file"
    floor_cpu=$best_cpu
    want=$(sed -n 's/^total: \([0-9]*\) warp-instructions, \([0-9]*\) wavefronts (ideal \([0-9]*\)), \([0-9]*\) bank conflicts.*/\1 \2 \3 \4/p' "$tmp.out")
    echo "floor (bench_scenario_ref: the expressions as C, banks_analyze): best of $runs: CPU $(printf '%.3f' "$best_cpu") s, wall $(printf '%.3f' "$best_wall") s"
else
    echo "tests/bench/bench_scenario_ref could not be built: no floor"
fi
for bin in "$@"; do
    best "$bin" analyze "$file" --summary
    ratio=
    [ -n "$floor_cpu" ] && ratio=", $(printf '%.2f' "$(echo "$best_cpu / $floor_cpu" | bc -l)")x the floor's CPU time"
    echo "$bin: analyze --summary $(basename "$file") (393216 warp-instructions): best of $runs: CPU $(printf '%.3f' "$best_cpu") s, wall $(printf '%.3f' "$best_wall") s$ratio"
    got=$(sed -n 's/^total: \([0-9]*\) warp-instructions, \([0-9]*\) wavefronts (ideal \([0-9]*\)), \([0-9]*\) bank conflicts.*/\1 \2 \3 \4/p' "$tmp.out")
    [ -z "$floor_cpu" ] || [ "$got" = "$want" ] || echo "$bin: totals differ from the floor's: '$got', floor '$want'"
done

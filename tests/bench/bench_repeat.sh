#!/bin/sh
# Benchmark (not a test: prints timings, asserts nothing): work that repeats itself.
# `analyze --summary` of tests/bench/scenario-invariant-33m.json (block 1024 x 256 accesses that
# read no loop variable x 4096 iterations: 33,554,432 warp-instructions, 16 distinct requests)
# for each binary given (default ./bankscope), so that a build with the shortcuts (each
# loop-invariant instruction built once, identical requests answered from a table) can be
# compared with one without:
#   tests/bench/bench_repeat.sh ./bankscope /path/to/older/bankscope
# Best of RUNS (default 3) runs: CPU time (user + system) and wall time. The totals printed by
# each binary are compared too: the shortcuts must not change a single figure.
here=$(cd "$(dirname "$0")" && pwd)
file=${BENCH_SCENARIO:-$here/scenario-invariant-33m.json}
runs=${RUNS:-3}
[ $# -gt 0 ] || set -- ./bankscope
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
n=0
for bin in "$@"; do
    n=$((n + 1))
    best_cpu=; best_wall=
    i=0
    while [ $i -lt "$runs" ]; do
        /usr/bin/time -f "%U %S %e" -o "$tmp/time" "$bin" analyze "$file" --summary > "$tmp/out$n" ||
            { echo "$bin: failed"; exit 1; }
        read -r user sys wall < "$tmp/time"
        cpu=$(echo "$user + $sys" | bc -l)
        if [ -z "$best_cpu" ] || [ "$(echo "$cpu < $best_cpu" | bc -l)" -eq 1 ]; then best_cpu=$cpu; fi
        if [ -z "$best_wall" ] || [ "$(echo "$wall < $best_wall" | bc -l)" -eq 1 ]; then best_wall=$wall; fi
        i=$((i + 1))
    done
    echo "$bin: analyze --summary $(basename "$file"): best of $runs: CPU $(printf '%.2f' "$best_cpu") s, wall $(printf '%.2f' "$best_wall") s"
    if [ $n -gt 1 ] && ! cmp -s "$tmp/out1" "$tmp/out$n"; then
        echo "$bin: its output differs from $1's:"
        diff "$tmp/out1" "$tmp/out$n" | head -10
    fi
done

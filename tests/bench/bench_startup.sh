#!/bin/sh
# Start-up cost of a small no-GPU run: `bankscope analyze default`, BENCH_RUNS times (300), for
# each binary given (default ./bankscope): CPU time per run (perf stat's task-clock, else wall
# time of a loop), wall time per run, peak memory (GNU time). Compare a CUDA build with one
# configured --without-cuda: they should cost the same, as no CUDA library is loaded.
runs=${BENCH_RUNS:-300}
[ $# -gt 0 ] || set -- ./bankscope
printf '%-40s %12s %12s %10s\n' binary "CPU ms/run" "wall ms/run" "peak KB"
for b in "$@"; do
    cpu=-
    wall=-
    if command -v perf > /dev/null 2>&1; then
        out=$(perf stat -r "$runs" -x, -e task-clock "$b" analyze default 2>&1 > /dev/null)
        cpu=$(echo "$out" | awk -F, '/task-clock/ {printf "%.2f", $1}')
    fi
    start=$(date +%s%N)
    i=0
    while [ $i -lt "$runs" ]; do
        "$b" analyze default > /dev/null
        i=$((i + 1))
    done
    wall=$(awk -v s="$start" -v e="$(date +%s%N)" -v n="$runs" 'BEGIN {printf "%.2f", (e - s) / 1e6 / n}')
    peak=-
    [ -x /usr/bin/time ] && peak=$(/usr/bin/time -f %M "$b" analyze default 2>&1 > /dev/null | tail -1)
    printf '%-40s %12s %12s %10s\n' "$b" "$cpu" "$wall" "$peak"
done

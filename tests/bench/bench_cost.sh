#!/bin/sh
# Benchmark (not a test: prints timings, asserts nothing): what a warp-instruction of a scenario
# costs, split into a fixed part per warp-instruction and a part per expression node, the two
# prices a work estimate needs. Scenarios of block 1024 x 3 accesses x ITER iterations (default
# 4096: 393,216 warp-instructions) whose indexes read the loop variable (so no instruction repeats)
# and hold M extra terms "+ (i ^ C)" (4 nodes each) for M in 0 4 16 32; `analyze --summary` of
# each, best of RUNS (default 3) CPU times; then a least-squares line through (nodes per
# instruction, CPU per warp-instruction): the intercept is the fixed cost, the slope the cost of
# one lane-node (one lane evaluating one node, 32 per node of one warp-instruction).
# Each point also prints what work.h's estimate prices it at, max(WORK_NS_INSTR, WORK_NS_NODE x
# nodes), and the ratio of the two: an honest estimate is at or above the measured time, never
# far below, and the ratio the same for every point.
#   tests/bench/bench_cost.sh [./bankscope]
bin=${1:-./bankscope}
iter=${ITER:-4096}
runs=${RUNS:-3}
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
for m in 0 4 16 32; do
    extra=""
    c=1
    while [ $c -le $m ]; do extra="$extra + (i ^ $c)"; c=$((c + 1)); done
    cat > "$tmp/m$m.json" <<JSON
{ "name": "cost: $m extra terms", "block": [32, 32], "loop": { "var": "i", "from": 0, "to": $iter },
  "arrays": [ { "name": "t", "type": "float", "dims": [64, 64], "pad": 1 } ],
  "accesses": [
    { "op": "load", "array": "t", "index": ["threadIdx.y", "(threadIdx.x + i$extra) % 64"] },
    { "op": "store", "array": "t", "index": ["(threadIdx.x + i$extra) % 64", "threadIdx.y"] },
    { "op": "load", "array": "t", "index": ["(lane + i$extra) % 32", "warp"] } ] }
JSON
    best=
    r=0
    while [ $r -lt "$runs" ]; do
        /usr/bin/time -f "%U %S" -o "$tmp/time" "$bin" analyze "$tmp/m$m.json" --summary --force > /dev/null ||
            { echo "$bin: failed on $m terms"; exit 1; }
        read -r u s < "$tmp/time"
        cpu=$(echo "$u + $s" | bc -l)
        if [ -z "$best" ] || [ "$(echo "$cpu < $best" | bc -l)" -eq 1 ]; then best=$cpu; fi
        r=$((r + 1))
    done
    # nodes per access: one index "y" (1 node), the other "(x + i ... ) % 64" (5 + 4m)
    nodes=$((6 + 4 * m))
    echo "$m $nodes $best" >> "$tmp/points"
    est=$((55 * nodes)); [ $est -lt 600 ] && est=600
    ns=$(echo "$best / (3 * 32 * $iter) * 1000000000" | bc -l)
    printf '%2d extra terms: %3d nodes per instruction, best of %d: %.2f s CPU, %4.0f ns per warp-instruction; the estimate prices it at %d ns (%.2fx)\n' \
        "$m" "$nodes" "$runs" "$best" "$ns" "$est" "$(echo "$est / $ns" | bc -l)"
done
instr=$((3 * 32 * iter))
awk -v n="$instr" '{ x[NR] = $2; y[NR] = $3 / n * 1e9; sx += x[NR]; sy += y[NR] }
END {
    mx = sx / NR; my = sy / NR
    for (i = 1; i <= NR; i++) { sxy += (x[i] - mx) * (y[i] - my); sxx += (x[i] - mx) ^ 2 }
    b = sxy / sxx; a = my - b * mx
    printf "per warp-instruction: fixed %.0f ns, per node %.1f ns (%.2f ns per lane-node)\n", a, b, b / 32
    printf "the fixed cost is worth %.0f nodes of one instruction (%.0f lane-nodes)\n", a / b, a / b * 32
}' "$tmp/points"

#!/bin/sh
# Benchmark (not a test: prints timings, asserts nothing): what a warp-instruction of a scenario
# costs, split into a fixed part per warp-instruction and a part per expression node, the two
# prices a work estimate needs. Scenarios of block 1024 x 3 accesses x ITER iterations (default
# 4096: 393,216 warp-instructions) whose indexes read the loop variable (so no instruction repeats)
# and hold M extra terms "+ (i ^ C)" (4 nodes each) for M in 0 4 16 32; `analyze --summary` of
# each, best of RUNS (default 3) CPU times; then a least-squares line through (nodes per
# instruction, CPU per warp-instruction): the intercept is the fixed cost, the slope the cost of
# one lane-node (one lane evaluating one node, 32 per node of one warp-instruction).
# Each point also prints what work.h's estimate prices it at, WORK_NS_INSTR + WORK_NS_NODE x
# nodes (the constants read from src/io/work.h), and the ratio of the two: an honest estimate is
# at or above the measured time, never far below, and the ratio the same for every point.
# Then two more prices: a repeat of a per-slot access (its indexes read the loop only through
# "i % 32", so analyze builds 32 instructions per access and warp and hands them out again), the
# price WORK_NS_REPEAT; and `sweep` of the 0-term scenario (ITER_SWEEP iterations, default 256),
# which analyses it once per padding up to MAX_PAD (default 64) and searches layouts once
# (SWEEP_LAYOUTS layouts in all, 94 with --max-pad 64); its estimate is work.h's sweep prices.
#   tests/bench/bench_cost.sh [./bankscope]
bin=${1:-./bankscope}
work_h=$(dirname "$0")/../../src/io/work.h
ns_instr=$(awk '/^#define WORK_NS_INSTR /{print $3}' "$work_h")
ns_node=$(awk '/^#define WORK_NS_NODE /{print $3}' "$work_h")
ns_repeat=$(awk '/^#define WORK_NS_REPEAT /{print $3}' "$work_h")
iter=${ITER:-4096}
runs=${RUNS:-3}
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
# best: the least CPU time (user + system) of RUNS runs of bankscope with these arguments
best_of() {
    best=
    r=0
    while [ $r -lt "$runs" ]; do
        /usr/bin/time -f "%U %S" -o "$tmp/time" "$bin" "$@" > /dev/null || { echo "$bin $*: failed"; exit 1; }
        read -r u s < "$tmp/time"
        cpu=$(echo "$u + $s" | bc -l)
        if [ -z "$best" ] || [ "$(echo "$cpu < $best" | bc -l)" -eq 1 ]; then best=$cpu; fi
        r=$((r + 1))
    done
}
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
    best_of analyze "$tmp/m$m.json" --summary --force
    # nodes per access: one index "y" (1 node), the other "(x + i ... ) % 64" (5 + 4m)
    nodes=$((6 + 4 * m))
    echo "$m $nodes $best" >> "$tmp/points"
    est=$((ns_instr + ns_node * nodes))
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

# per-slot: the three accesses with "i % 4" for "i", 8 times over (24 accesses; a loop runs at
# most 4,096 times): 4 keys per access and warp, built once (3,072 instructions at the full
# price), every other warp-instruction a repeat
{
    echo '{ "name": "cost: per-slot", "block": [32, 32], "loop": { "var": "i", "from": 0, "to": '"$iter"' },'
    echo '  "arrays": [ { "name": "t", "type": "float", "dims": [64, 64], "pad": 1 } ], "accesses": ['
    c=0
    while [ $c -lt 8 ]; do
        [ $c -gt 0 ] && echo ','
        echo '{ "op": "load", "array": "t", "index": ["threadIdx.y", "(threadIdx.x + i % 4) % 64"] },'
        echo '{ "op": "store", "array": "t", "index": ["(threadIdx.x + i % 4) % 64", "threadIdx.y"] },'
        echo '{ "op": "load", "array": "t", "index": ["(lane + i % 4) % 32", "warp"] }'
        c=$((c + 1))
    done
    echo '] }'
} > "$tmp/slot.json"
best_of analyze "$tmp/slot.json" --summary --force
full=$(awk -v n="$instr" '$1 == 0 { print $3 / n * 1e9 }' "$tmp/points")
built=$((3 * 32 * 32))
sl=$((8 * instr))
rep=$(echo "($best * 1000000000 - $built * $full) / ($sl - $built)" | bc -l)
est=$(echo "($built * ($ns_instr + $ns_node * 8) + ($sl - $built) * $ns_repeat) / $sl" | bc -l)
printf 'per-slot: %d warp-instructions, best of %d: %.2f s CPU, %.0f ns per repeat (%.0f ns per warp-instruction; the estimate prices it at %.0f ns, %.2fx)\n' \
    "$sl" "$runs" "$best" "$rep" "$(echo "$best / $sl * 1000000000" | bc -l)" "$est" \
    "$(echo "$est / ($best / $sl * 1000000000)" | bc -l)"

# sweep: the 0-term scenario with fewer iterations, analysed once per layout
layouts=${SWEEP_LAYOUTS:-94}
pad=${MAX_PAD:-64}
iter_sweep=${ITER_SWEEP:-256}
sed "s/\"to\": $iter }/\"to\": $iter_sweep }/" "$tmp/m0.json" > "$tmp/sweep.json"
best_of sweep "$tmp/sweep.json" --force --max-pad "$pad"
sinstr=$((3 * 32 * iter_sweep))
ns_pad=$(awk '/^#define WORK_NS_SWEEP_PAD /{print $3}' "$work_h")
ns_pad_node=$(awk '/^#define WORK_NS_SWEEP_PAD_NODE /{print $3}' "$work_h")
ns_search=$(awk '/^#define WORK_NS_SWEEP_SEARCH /{print $3}' "$work_h")
ns_search_node=$(awk '/^#define WORK_NS_SWEEP_SEARCH_NODE /{print $3}' "$work_h")
est=$(echo "$sinstr * (($pad + 3) * ($ns_pad + $ns_pad_node * 6) + $ns_search + $ns_search_node * 6) / 1000000000" | bc -l)
printf 'sweep: %d warp-instructions x %d layouts, best of %d: %.2f s CPU, %.0f ns per warp-instruction and layout; the estimate prices it at %.2f s (%.2fx)\n' \
    "$sinstr" "$layouts" "$runs" "$best" "$(echo "$best / ($sinstr * $layouts) * 1000000000" | bc -l)" "$est" \
    "$(echo "$est / $best" | bc -l)"

#!/bin/sh
# Benchmark of the analysis path (not a test: prints timings, asserts nothing).
#  1. a trace of N (default 100000) random warp-instructions of mixed widths, analyze --json
#  2. a 1024-thread block with a 32-step loop and two accesses, analyze --json
# Usage: tests/bench/bench_analyze.sh [BANKSCOPE] [N]
bin=${1:-./bankscope}
n=${2:-100000}
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
sh "$(dirname "$0")/gen_trace.sh" "$n" > "$tmp/trace.json"
cat > "$tmp/block.json" <<'JSON'
{ "name": "bench block", "block": [32, 32],
  "loop": { "var": "i", "from": 0, "to": 32 },
  "arrays": [ { "name": "tile", "type": "float", "dims": [64, 64], "pad": 1 } ],
  "accesses": [
    { "op": "load", "array": "tile", "index": ["(threadIdx.x + i) % 64", "threadIdx.y * 2"] },
    { "op": "store", "array": "tile", "index": ["threadIdx.y + i", "threadIdx.x ^ i"] } ] }
JSON
now() { date +%s.%N; }
run() {  # run NAME FILE ARGS: time one analyze and report warp-instructions per second
    name=$1; file=$2; shift 2
    t0=$(now)
    "$bin" analyze "$file" "$@" > "$tmp/out" || { echo "$name: failed"; return; }
    t1=$(now)
    count=$(grep -o '"instructions": [0-9]*' "$tmp/out" | awk '{print $2}')
    [ -n "$count" ] || count=$(sed -n 's/^total: \([0-9]*\) warp-instruction.*/\1/p' "$tmp/out")
    echo "$name ($*): $count warp-instructions in $(echo "$t1 - $t0" | bc -l | cut -c1-6) s" \
         "= $(echo "$count / ($t1 - $t0)" | bc) per second (file parse and output included)"
}
echo "trace file: $(du -h "$tmp/trace.json" | cut -f1)"
run "trace $n" "$tmp/trace.json" --json
run "trace $n" "$tmp/trace.json" --summary
run "block 1024 threads x 32 iterations x 2 accesses" "$tmp/block.json" --json
run "block 1024 threads x 32 iterations x 2 accesses" "$tmp/block.json" --summary
"$bin" analyze "$tmp/block.json" > /dev/null && t0=$(now) && "$bin" analyze "$tmp/block.json" > /dev/null && t1=$(now) &&
    echo "block, text report: $(echo "$t1 - $t0" | bc -l | cut -c1-6) s"

#!/bin/sh
# Benchmark of streamed traces (not a test: prints figures, asserts nothing). For traces of 100k
# and 1M random warp-instructions of mixed widths (the layout of bench_analyze.sh), prints the
# wall time, user CPU time (less disturbed by a busy machine) and peak memory (maximum resident
# set, /usr/bin/time -v) of
#   analyze --summary, analyze --json > /dev/null, and tests/bench/bench_trace_ref (the floor: a
#   one-pass reference that maps the file, parses the numbers and calls banks_analyze, nothing
#   else),
# each the best of RUNS (default 3) runs, then the user time of analyze --summary over the
# reference's, and checks that the reference's totals equal analyze's.
# Usage: tests/bench/bench_trace.sh [BANKSCOPE] [SIZES]   (SIZES default "100000 1000000";
# traces are kept in $BENCH_DIR when it is set, so that later runs skip generating them)
bin=${1:-./bankscope}
sizes=${2:-"100000 1000000"}
here=$(cd "$(dirname "$0")" && pwd)
ref="$here/bench_trace_ref"
[ -x "$ref" ] || make -s tests/bench/bench_trace_ref >/dev/null 2>&1 || { echo "build tests/bench/bench_trace_ref first"; exit 1; }
[ -x /usr/bin/time ] || { echo "/usr/bin/time (Debian package time) is needed"; exit 1; }
dir=${BENCH_DIR:-$(mktemp -d)} || exit 1
[ -n "$BENCH_DIR" ] || trap 'rm -rf "$dir"' EXIT
mkdir -p "$dir"
gen() {  # gen N FILE
    sh "$here/gen_trace.sh" "$1" > "$2"
}
measure() {  # measure LABEL COMMAND...: wall seconds, user seconds and peak memory, best of RUNS runs
    label=$1
    shift
    wall=; user=; rss=
    i=0
    while [ $i -lt "${RUNS:-3}" ]; do
        /usr/bin/time -v "$@" > "$dir/out" 2> "$dir/time" || { echo "$label: failed"; cat "$dir/time"; return 1; }
        w=$(sed -n 's/.*Elapsed (wall clock) time (h:mm:ss or m:ss): //p' "$dir/time" | awk -F: '{ print $(NF-1) * 60 + $NF }')
        r=$(sed -n 's/.*Maximum resident set size (kbytes): //p' "$dir/time")
        u=$(sed -n 's/.*User time (seconds): //p' "$dir/time")
        if [ -z "$user" ] || [ "$(echo "$u < $user" | bc -l)" -eq 1 ]; then user=$u; fi
        if [ -z "$wall" ] || [ "$(echo "$w < $wall" | bc -l)" -eq 1 ]; then wall=$w; fi
        if [ -z "$rss" ] || [ "$r" -lt "$rss" ]; then rss=$r; fi
        i=$((i + 1))
    done
    printf '%-44s %8.2f s wall %8.2f s user %9.1f MB peak\n' "$label" "$wall" "$user" "$(echo "$rss / 1024" | bc -l)"
}
for n in $sizes; do
    f="$dir/trace-$n.json"
    [ -s "$f" ] || gen "$n" "$f"
    echo "trace of $n instructions: $(du -m "$f" | cut -f1) MB"
    measure "  reference (bench_trace_ref)" "$ref" "$f"
    want=$(cat "$dir/out")
    ref_user=$user
    measure "  analyze --summary" "$bin" analyze "$f" --summary
    [ "$(echo "$ref_user > 0" | bc -l)" -eq 1 ] &&
        printf '  analyze --summary / reference: %.2fx user time\n' "$(echo "$user / $ref_user" | bc -l)"
    got=$(sed -n 's/^total: \([0-9]*\) warp-instructions, \([0-9]*\) wavefronts (ideal \([0-9]*\)), \([0-9]*\) bank conflicts.*/\1 \2 \3 \4/p' "$dir/out")
    [ "$got" = "$(echo "$want" | sed 's/^total: \([0-9]*\) warp-instructions, \([0-9]*\) wavefronts (ideal \([0-9]*\)), \([0-9]*\) bank conflicts.*/\1 \2 \3 \4/')" ] ||
        echo "  totals differ: analyze '$got', reference '$want'"
    measure "  analyze --json > /dev/null" sh -c "\"$bin\" analyze \"$f\" --json > /dev/null"
done

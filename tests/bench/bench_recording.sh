#!/bin/sh
# Benchmark of a recording's analysis (not a test: prints figures, asserts nothing). A recording
# is read once: `analyze --summary` streams it once (its members, its trace, the report and the
# per-line table from one pass); `analyze` and `analyze --json` twice (the checking pass every
# trace gets, which reads the recording and predicts its lines, then the report). For
# recordings of SIZES warp-instructions made from a real one (tests/data/record/
# modern-histogram256.json, recorded on an H100: its trace repeated, each line's trace indexes
# extended to the copies, its PCs, kinds and measured counts kept), prints the wall time, CPU
# time (user + system: reading the file is system time) and peak memory (/usr/bin/time -v) of
#   analyze --summary, analyze > /dev/null, analyze --json > /dev/null,
# each the best of RUNS (default 3) runs, for BANKSCOPE and, when given, for BEFORE (another
# build, say the one before a change) side by side, and checks that both print the same.
# Usage: tests/bench/bench_recording.sh [BANKSCOPE] [BEFORE] [SIZES]   (SIZES default "100000
# 400000"; recordings are kept in $BENCH_DIR when it is set, so that later runs skip making them)
bin=${1:-./bankscope}
before=$2
sizes=${3:-"100000 400000"}
here=$(cd "$(dirname "$0")" && pwd)
real="$here/../data/record/modern-histogram256.json"
[ -x /usr/bin/time ] || { echo "/usr/bin/time (Debian package time) is needed"; exit 1; }
command -v python3 > /dev/null 2>&1 || { echo "python3 is needed to make the recordings"; exit 1; }
dir=${BENCH_DIR:-$(mktemp -d)} || exit 1
[ -n "$BENCH_DIR" ] || trap 'rm -rf "$dir"' EXIT
mkdir -p "$dir"
gen() {  # gen N FILE: the real recording, its trace repeated to N entries
    python3 - "$real" "$1" "$2" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
n, trace = int(sys.argv[2]), d["trace"]
k = len(trace)
d["trace"] = [trace[i % k] for i in range(n)]
for l in d["lines"]:  # entry i of the copy c is entry i + c * k
    idx = l.get("instructions") or []
    l["instructions"] = sorted(i + c * k for c in range((n + k - 1) // k) for i in idx if i + c * k < n)
d["executed"] = d["captured"] = n
with open(sys.argv[3], "w") as f:
    json.dump(d, f, separators=(",", ":"))
PY
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
        u=$(echo "$u + $(sed -n 's/.*System time (seconds): //p' "$dir/time")" | bc -l)
        if [ -z "$user" ] || [ "$(echo "$u < $user" | bc -l)" -eq 1 ]; then user=$u; fi
        if [ -z "$wall" ] || [ "$(echo "$w < $wall" | bc -l)" -eq 1 ]; then wall=$w; fi
        if [ -z "$rss" ] || [ "$r" -lt "$rss" ]; then rss=$r; fi
        i=$((i + 1))
    done
    printf '%-44s %8.2f s wall %8.2f s CPU %9.1f MB peak\n' "$label" "$wall" "$user" "$(echo "$rss / 1024" | bc -l)"
}
for n in $sizes; do
    f="$dir/recording-$n.json"
    [ -s "$f" ] || gen "$n" "$f"
    echo "recording of $n warp-instructions: $(du -m "$f" | cut -f1) MB"
    for form in "--summary" "" "--json"; do
        for b in "$before" "$bin"; do
            [ -n "$b" ] || continue
            tag=$([ "$b" = "$bin" ] && echo "" || echo " (before)")
            measure "  analyze ${form:-(text)}$tag" sh -c "\"$b\" analyze \"$f\" $form > \"$dir/$(basename "$b").txt\"" || continue
        done
        if [ -n "$before" ] && ! cmp -s "$dir/$(basename "$before").txt" "$dir/$(basename "$bin").txt"; then
            echo "  the outputs of analyze ${form:-(text)} differ"
        fi
    done
done

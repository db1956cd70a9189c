#!/bin/sh
# The count-pass files and Nsight Compute source pages kept from one H100 run of
# tests/gpu/measured.sh (tests/data/measured/ncu) still compare equal, instruction by instruction,
# and so do the recordings of the same launches (tests/data/measured/rec) line by line (77
# without python3).
srcdir=${srcdir:-.}
command -v python3 >/dev/null || exit 77
d=$srcdir/tests/data/measured/ncu
n=0
for csv in "$d"/*.ncu.csv; do
    python3 "$srcdir/tests/gpu/measured_compare.py" "$csv" "${csv%.ncu.csv}.count.txt" "$(basename "${csv%.ncu.csv}")" || exit 1
    n=$((n + 1))
done
[ "$n" -ge 2 ] || { echo "measured_data: no kept ncu pages in $d"; exit 1; }
# the recordings `bankscope record` wrote in that session: each line's measured numbers are the
# sums of ncu's per-instruction counts over the line's pcs, and every line agrees
r=$srcdir/tests/data/measured/rec
for k in naive padded; do
    python3 "$srcdir/tests/gpu/measured_recording.py" "$r/h100-$k.record.json" "$d/transpose-transpose_$k-0.ncu.csv" || exit 1
done
# analyze shows them: the text table (golden files) and --json's source_lines, equal to the lines
top_builddir=${top_builddir:-.}
"$top_builddir/bankscope" analyze "$r/h100-naive.record.json" --json --summary > "${TMPDIR:-/tmp}/measured_data.$$.json" || exit 1
python3 - "$r/h100-naive.record.json" "${TMPDIR:-/tmp}/measured_data.$$.json" <<'PY' || { rm -f "${TMPDIR:-/tmp}/measured_data.$$.json"; exit 1; }
import json, sys
rec, out = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
got = [(l["measured"], l["agree"]) for l in out["source_lines"]]
want = [(l["measured"], l["agree"]) for l in rec["lines"]]
assert got == want, (got, want)
assert out["measured"]["duration_ns"] == rec["measured"]["duration_ns"]
print("analyze --json: %d source lines, measured as recorded" % len(got))
PY
rm -f "${TMPDIR:-/tmp}/measured_data.$$.json"

#!/bin/sh
# The what-if on recordings, without a GPU, on recordings made on one (tests/data/record): the
# sweep of the naive transpose predicts, line by line, what the padded kernel's recording predicts
# and what the hardware measured for it (per block), for the recordings with "arrays" from the
# cubin (whatif-*.json, H200) and for those of the older form without them (transpose-*.json,
# H100; tests/data/measured/rec for the measured numbers); the declaration to write; a -G build's
# arrays named from the cubin; nothing to gain said as such; diff; bad input exits 2.
srcdir=${srcdir:-.}
top_builddir=${top_builddir:-.}
bin="$(cd "$top_builddir" && pwd)/bankscope"
rec="$srcdir/tests/data/record"
meas="$srcdir/tests/data/measured/rec"
src="$srcdir/tests/gpu/record"
tmp=$(mktemp -d) || exit 99
trap 'rm -rf "$tmp"' EXIT
command -v python3 >/dev/null 2>&1 || { echo "python3 not found: skipped"; exit 77; }
pass=0
fail=0
check() { # check NAME STATUS MESSAGE
    if [ "$2" -eq 0 ]; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL $1: $3"; fi
}
has() { # has NAME FILE TEXT
    grep -qF -- "$3" "$2"
    check "$1" $? "no '$3' in: $(head -c 3000 "$2")"
}

# the what-if of A predicts B: every line of B, predicted and (when measured) measured / blocks
predicts() { # predicts NAME SWEEP.json B.json [MEASURED-B.json]
    python3 - "$2" "$3" "${4:-$3}" <<'PY'
import json, sys
sweep, b, m = (json.load(open(p)) for p in sys.argv[1:4])
lay = next(l for r in sweep["recording_layouts"] for l in r["layouts"] if l["kind"] == "padding")
assert lay["declaration"] == "__shared__ float tile[32][33]" or lay["declaration"].startswith("recorded window"), lay["declaration"]
assert (lay["pitch"], lay["pad"], lay["extra_bytes"]) == (128, 4, 128), lay
def key(f, t):
    return ((f or "").rsplit("/", 1)[-1], (t or "").strip())
after = {key(l["file"], l["text"]): l for l in lay["lines"]}
measured = {key(l["file"], l["text"]): l.get("measured") for l in m["lines"]}
blocks = (m.get("measured") or {}).get("blocks")
n = 0
for line in b["lines"]:
    w = after[key(line["file"], line["text"])]
    assert line["predicted"]["wavefronts"] == w["after"], (line["line"], line["predicted"], w)
    mm = measured.get(key(line["file"], line["text"]))
    if mm and blocks:
        assert mm["wavefronts"] == w["after"] * blocks, (line["line"], mm, w, blocks)
        n += 1
print("ok: %d lines predicted as recorded, %d as measured" % (len(b["lines"]), n))
PY
    check "$1" $? "the what-if does not predict the padded recording"
}

# recordings with arrays from the cubin (H200)
"$bin" sweep "$rec/whatif-naive.json" --source "$src" > "$tmp/s.txt" 2> "$tmp/err"
check "sweep whatif-naive" $? "$(cat "$tmp/err")"
has "the cubin's region" "$tmp/s.txt" "arrays (the recording's, from the cubin): static shared memory (4096 B at 1024)"
has "named from the source" "$tmp/s.txt" "tile (the static shared memory: the source declares this one __shared__ array)"
has "the assumption" "$tmp/s.txt" "assumption: the kernel's indexing follows the declared layout"
has "the swizzle first" "$tmp/s.txt" "best: Swizzle<5,2,5> on the byte offsets of tile = CuTe Swizzle<5,0,5>"
has "its C form" "$tmp/s.txt" "= tile[r][c ^ (r & 31)] (rows of 32 elements)"
has "the declaration" "$tmp/s.txt" "cheapest padding: __shared__ float tile[32][33] (+128 B)"
has "the read line" "$tmp/s.txt" "1024 -> 32 *"
has "the total" "$tmp/s.txt" "1056 -> 64"
"$bin" sweep "$rec/whatif-naive.json" --source "$src" --json > "$tmp/s.json"
check "sweep --json" $? "exit status"
predicts "whatif: naive -> padded" "$tmp/s.json" "$rec/whatif-padded.json"
# without the source at hand: no type, no name from it
"$bin" sweep "$rec/whatif-naive.json" > "$tmp/s2.txt"
has "no source: the region's name" "$tmp/s2.txt" "static shared memory: 4096 bytes at 1024, 4-byte elements"
has "no source: T" "$tmp/s2.txt" "__shared__ T smem[32][33]"
# -G: the cubin names the tile
"$bin" sweep "$rec/whatif-naive-G.json" > "$tmp/g.txt"
has "-G arrays" "$tmp/g.txt" "arrays (the recording's, from the cubin): tile (4096 B at 1024)"
has "-G region" "$tmp/g.txt" "tile: 4096 bytes at 1024"
# nothing to gain
"$bin" sweep "$rec/whatif-padded.json" > "$tmp/p.txt"
has "nothing to gain" "$tmp/p.txt" "nothing to gain: no recorded instruction has a bank conflict (64 wavefronts = ideal)"

# recordings of the older form, without arrays (H100): the recorded window is one region
"$bin" sweep "$rec/transpose-naive.json" --source "$src" --json > "$tmp/o.json"
check "sweep transpose-naive" $? "exit status"
"$bin" sweep "$rec/transpose-naive.json" > "$tmp/o.txt"
has "older form" "$tmp/o.txt" "arrays: none in the recording: the recorded window is one region"
predicts "old form: naive -> padded" "$tmp/o.json" "$rec/transpose-padded.json"
"$bin" sweep "$meas/h100-naive.record.json" --source "$src" --json > "$tmp/m.json"
predicts "H100 measured: naive -> padded" "$tmp/m.json" "$meas/h100-padded.record.json"

# diff
"$bin" diff "$rec/whatif-naive.json" "$rec/whatif-padded.json" > "$tmp/d.txt"
check "diff" $? "exit status"
has "diff line 25" "$tmp/d.txt" "transpose_pad.cu:25    transpose_pad.cu:25          1024         32    -992      1048576        32768   -1015808"
"$bin" diff "$rec/whatif-naive.json" "$rec/whatif-padded.json" --json > "$tmp/d.json"
python3 - "$tmp/d.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
assert d["format"] == "bankscope-diff/1"
assert [l["matched_by"] for l in d["lines"]] == ["text", "text"], d["lines"]
assert [l["measured_change"] for l in d["lines"]] == [0, -1015808]
assert d["total"] == {"a_predicted": 1056, "b_predicted": 64, "a_measured": 1081344, "b_measured": 65536}
PY
check "diff --json" $? "unexpected diff"
# other files: nothing matched, each line on its side alone
"$bin" diff "$meas/h100-naive.record.json" "$rec/whatif-padded.json" --json > "$tmp/d2.json"
python3 -c "
import json
d = json.load(open('$tmp/d2.json'))
assert all(l['matched_by'] == 'none' for l in d['lines']) and len(d['lines']) == 4, d['lines']
"
check "diff of other files: nothing matched" $? "unexpected matches"
# the same file with its lines' text changed (an edited source, made here from the kept one):
# matched by line number
python3 - "$rec/transpose-padded.json" "$tmp/edited.json" <<'PY'
import sys
t = open(sys.argv[1]).read().replace("tile[threadIdx.x][threadIdx.y + j]", "tile[threadIdx.x][j + threadIdx.y]")
open(sys.argv[2], "w").write(t)
PY
"$bin" diff "$rec/transpose-naive.json" "$tmp/edited.json" --json > "$tmp/d3.json"
python3 -c "
import json
d = json.load(open('$tmp/d3.json'))
assert [l['matched_by'] for l in d['lines']] == ['text', 'line'], d['lines']
assert [l['predicted_change'] for l in d['lines']] == [0, -992], d['lines']
"
check "diff: matched by line number when the text changed" $? "unexpected matches"

# bad input: exit 2 with file and position
python3 - "$rec/whatif-naive.json" "$tmp/bad.json" <<'PY'
import sys
t = open(sys.argv[1]).read().replace('"bytes": 4096}', '"bytes": -4}', 1)
open(sys.argv[2], "w").write(t)
PY
"$bin" sweep "$tmp/bad.json" > /dev/null 2> "$tmp/err"
[ $? -eq 2 ] && grep -q "bad.json:[0-9]*:[0-9]*: an array needs" "$tmp/err"
check "bad arrays" $? "$(cat "$tmp/err")"
"$bin" diff "$rec/whatif-naive.json" > /dev/null 2> "$tmp/err"
[ $? -eq 2 ]
check "diff with one file" $? "$(cat "$tmp/err")"
"$bin" diff "$rec/whatif-naive.json" "$tmp/nonexistent.json" > /dev/null 2> "$tmp/err"
[ $? -eq 2 ] && grep -q nonexistent "$tmp/err"
check "diff with a missing file" $? "$(cat "$tmp/err")"
echo "whatif: $pass passed, $fail failed"
[ $fail -eq 0 ]

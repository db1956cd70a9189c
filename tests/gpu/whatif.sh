#!/bin/sh
# GPU check of the what-if on recordings (skipped, exit 77, without a GPU or nvcc): record the
# naive transpose (tests/gpu/record/transpose_pad.cu), take the sweep's padding, build the same
# source with -D PAD=<that padding in floats>, record it, and hold the new recording's prediction
# and its measurement (per line: measured wavefronts = predicted x blocks) equal to what the
# what-if predicted for every line; diff of the two agrees. A -G build of the naive kernel is
# recorded too: its "arrays" name the tile from the cubin's symbols. WHATIF_KEEP=DIR keeps the
# recordings (tests/data/record/whatif-*.json hold those of one run). Run from the source root:
#   BANKSCOPE=./bankscope sh tests/gpu/whatif.sh
set -u
bin=${BANKSCOPE:-./bankscope}
srcroot=${srcdir:-.}
command -v nvidia-smi >/dev/null 2>&1 && nvidia-smi -L >/dev/null 2>&1 || { echo "no GPU: skipped"; exit 77; }
NVCC=${NVCC:-nvcc}
command -v "$NVCC" >/dev/null 2>&1 || NVCC=/usr/local/cuda/bin/nvcc
[ -x "$NVCC" ] || command -v "$NVCC" >/dev/null 2>&1 || { echo "no nvcc: skipped"; exit 77; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail=0
src=./tests/gpu/record/transpose_pad.cu # "./": the recording names it ..././tests/..., which sweep finds from here
cd "$srcroot" || exit 1
case $bin in /*) ;; *) bin=$OLDPWD/$bin ;; esac

"$NVCC" -arch=native -lineinfo -O3 -o "$work/naive" "$src" || { echo "FAIL: the naive build"; exit 1; }
"$bin" record -o "$work/whatif-naive.json" -- "$work/naive" > "$work/naive.out" 2>&1 ||
    { echo "FAIL: record naive: $(cat "$work/naive.out")"; exit 1; }
"$bin" sweep "$work/whatif-naive.json" --source tests/gpu/record > "$work/sweep.txt" 2>&1 || { echo "FAIL: sweep"; fail=1; }
"$bin" sweep "$work/whatif-naive.json" --source tests/gpu/record --json > "$work/sweep.json" || { echo "FAIL: sweep --json"; exit 1; }
cat "$work/sweep.txt"
# the advice: the cheapest padding the what-if ranks (its pad in bytes, as floats)
pad=$(python3 - "$work/sweep.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
for r in d["recording_layouts"]:
    for l in r["layouts"]:
        if l["kind"] == "padding":
            print(l["pad"] // 4, l["pitch"], l["declaration"].replace(" ", "_"))
            sys.exit(0)
sys.exit(1)
PY
) || { echo "FAIL: the sweep advises no padding"; exit 1; }
set -- $pad
echo "advice: rows of $2 bytes padded by $1 float(s): $3"
[ "$2" = 128 ] || { echo "FAIL: the row pitch advised is $2, not the tile's 128 bytes"; fail=1; }
"$NVCC" -arch=native -lineinfo -O3 -D PAD="$1" -o "$work/padded" "$src" || { echo "FAIL: the padded build"; exit 1; }
"$bin" record -o "$work/whatif-padded.json" -- "$work/padded" > "$work/padded.out" 2>&1 ||
    { echo "FAIL: record padded: $(cat "$work/padded.out")"; exit 1; }
sed -n '/^line /,/^kernel time/p' "$work/padded.out"
"$bin" diff "$work/whatif-naive.json" "$work/whatif-padded.json" | tee "$work/diff.txt"
"$bin" diff "$work/whatif-naive.json" "$work/whatif-padded.json" --json > "$work/diff.json" || fail=1
python3 - "$work/sweep.json" "$work/whatif-padded.json" "$work/diff.json" <<'PY' || fail=1
import json, sys
sweep, padded, diff = (json.load(open(p)) for p in sys.argv[1:4])
lay = next(l for r in sweep["recording_layouts"] for l in r["layouts"] if l["kind"] == "padding")
blocks = padded["measured"]["blocks"] if padded.get("measured") else None
bad = 0
def key(f, t):
    return (f.rsplit("/", 1)[-1] if f else None, (t or "").strip())
after = {key(l["file"], l["text"]): l for l in lay["lines"]}
for line in padded["lines"]:
    w = after.get(key(line["file"], line["text"]))
    if w is None:
        print("FAIL: line %s:%s of the padded recording is not in the what-if" % (line["file"], line["line"]))
        bad += 1
        continue
    pred = line["predicted"]["wavefronts"]
    meas = line["measured"]["wavefronts"] if line.get("measured") else None
    ok = pred == w["after"] and (meas is None or blocks is None or meas == w["after"] * blocks)
    print("%s line %s: what-if %d -> %d, padded recording predicts %d, measured %s over %s blocks (%s per block)" % (
        "ok" if ok else "FAIL", line["line"], w["before"], w["after"], pred, meas, blocks,
        meas // blocks if meas is not None and blocks else "-"))
    bad += not ok
    if meas is None:
        print("FAIL: line %s not measured: %s" % (line["line"], padded.get("measured_why")))
        bad += 1
arr = padded.get("arrays") or []
total = sum(a["bytes"] for a in arr if a["kind"] == "static")
want = next(r for r in sweep["recording_layouts"])["bytes"] + lay["extra_bytes"]
print("%s the padded kernel's static shared memory (cubin): %d bytes, the what-if's %d" % (
    "ok" if total == want else "FAIL", total, want))
bad += total != want
for r in diff["lines"]:
    if r["predicted_change"] is None:
        print("FAIL: diff left a line unmatched: %s" % r)
        bad += 1
sys.exit(1 if bad else 0)
PY
# device debug information keeps the variables' names in the cubin
"$NVCC" -arch=native -G -o "$work/naive_g" "$src" || { echo "FAIL: the -G build"; exit 1; }
"$bin" record -o "$work/whatif-naive-G.json" -- "$work/naive_g" > "$work/naive_g.out" 2>&1 ||
    { echo "FAIL: record -G: $(cat "$work/naive_g.out")"; fail=1; }
python3 - "$work/whatif-naive-G.json" <<'PY' || fail=1
import json, sys
d = json.load(open(sys.argv[1]))
names = [(a["name"], a["symbol"], a["offset"], a["bytes"]) for a in d.get("arrays", [])]
ok = any(n == "tile" and s and b == 4096 for n, s, o, b in names)
print(("ok" if ok else "FAIL") + " -G build: arrays %s" % names)
sys.exit(0 if ok else 1)
PY
"$bin" sweep "$work/whatif-naive-G.json" --source tests/gpu/record | sed -n '1,8p'
if [ -n "${WHATIF_KEEP:-}" ]; then
    cp "$work/whatif-naive.json" "$work/whatif-padded.json" "$work/whatif-naive-G.json" "$work/sweep.json" \
        "$work/diff.txt" "$WHATIF_KEEP/" 2>/dev/null
fi
[ $fail -eq 0 ] && echo "whatif: all checks passed" || echo "whatif: FAILED"
exit $fail

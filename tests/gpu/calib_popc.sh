#!/bin/sh
# GPU test (77 without a GPU): the atomic.popc kind (atomicAdd(&s[i], 1u) with the result unused,
# ATOMS.POPC.INC) calibrated against the hardware counters: bankscope measure runs every pattern
# of tests/gpu/modern/popc_patterns.json (one word, 32 banks, 8 and 32 words in a bank, pairs,
# mixed, lanes off; and red.add on the same addresses, which counts every lane) and the counters
# must equal the prediction on every access; the generated kernel must compile to ATOMS.POPC.INC
# (checked with cuobjdump when the toolkit has it).
srcdir=${srcdir:-.}
top_builddir=${top_builddir:-.}
bin=$top_builddir/bankscope
command -v nvidia-smi >/dev/null && nvidia-smi -L >/dev/null 2>&1 || exit 77
[ -x "$bin" ] || exit 77
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
f=$srcdir/tests/gpu/modern/popc_patterns.json
"$bin" measure "$f" --json > "$tmp/m.json" 2> "$tmp/err"
rc=$?
[ $rc -eq 3 ] && exit 77 # no GPU usable
[ $rc -eq 0 ] || { echo "calib_popc: measure failed ($rc): $(cat "$tmp/err")"; exit 1; }
python3 - "$tmp/m.json" <<'PY' || exit 1
import json, sys
d = json.load(open(sys.argv[1]))
rows = d["accesses"]
bad = [r for r in rows if r["agree"]["counters"] is not True]
for r in rows:
    print("access %d %s: predicted %s measured %s" % (r["access"], r.get("form", r.get("atomic")),
          r["predicted"]["wavefronts"], r["measured"]["wavefronts"]))
print("calib_popc: %d of %d accesses equal to the counters" % (len(rows) - len(bad), len(rows)))
sys.exit(1 if bad or len(rows) != 10 else 0)
PY
if command -v ptxas >/dev/null && command -v cuobjdump >/dev/null; then
    "$bin" kernel "$f" --ptx --access 2 > "$tmp/k.ptx" 2>/dev/null
    if ptxas -arch=sm_90 -o "$tmp/k.cubin" "$tmp/k.ptx" 2>/dev/null; then
        cuobjdump -sass "$tmp/k.cubin" | grep -q "ATOMS.POPC.INC" ||
            { echo "calib_popc: the generated kernel has no ATOMS.POPC.INC"; exit 1; }
        echo "calib_popc: the generated kernel compiles to ATOMS.POPC.INC"
    fi
fi
exit 0

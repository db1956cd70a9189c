#!/bin/sh
# The recordings of modern kernels kept in tests/data/record/modern-*.json (made by
# tests/gpu/record_modern.sh on an NVIDIA H200, CUDA 13.0, 2026-11-28, never written by hand) hold
# what a user reads: per PC, the count run's numbers equal Nsight Compute's source page of the
# same launch (tests/data/record/ncu, compared by tests/gpu/modern/compare_pcs.py); the CuTe-style
# kernel's 19 KB name is whole in the file and in analyze --json, its ldmatrix is on the kernel's
# own line with its inline chain, its HGMMA a measured-only row counted in the measured total;
# the histogram's ATOMS.POPC.INC is predicted merged. Runs without a GPU.
srcdir=${srcdir:-.}
top_builddir=${top_builddir:-.}
bin="$(cd "$top_builddir" && pwd)/bankscope"
d=$srcdir/tests/data/record
command -v python3 >/dev/null 2>&1 || { echo "python3 not found: skipped"; exit 77; }
tmp=$(mktemp -d) || exit 99
trap 'rm -rf "$tmp"' EXIT
fail=0
for n in tile_gemm histogram256 calib_forms triton_softmax; do
    python3 "$srcdir/tests/gpu/modern/compare_pcs.py" "$d/modern-$n.json" "$d/ncu/modern-$n.ncu.csv" "$n" || fail=1
done
"$bin" analyze "$d/modern-tile_gemm.json" --json > "$tmp/t.json" || fail=1
"$bin" analyze "$d/modern-histogram256.json" --json > "$tmp/h.json" || fail=1
python3 - "$d/modern-tile_gemm.json" "$tmp/t.json" "$tmp/h.json" <<'PY' || fail=1
import json, sys
rec, a, h = (json.load(open(p)) for p in sys.argv[1:4])
ok = True
def need(c, what):
    global ok
    if not c:
        print("FAIL: " + what)
        ok = False
need(len(rec["kernel"]["name"]) > 4096 and a["name"] == rec["name"], "the long name is not whole")
rows = {r["pc"]: r for r in a["sass"]}
ldsm = [r for r in a["sass"] if r["sass"].startswith("LDSM")]
need(ldsm and ldsm[0]["file"].endswith("tile_gemm.cu") and len(ldsm[0]["chain"]) == 3
     and ldsm[0]["chain"][0]["file"].endswith("tile_style.hpp"), "ldmatrix: line or chain")
hg = [r for r in a["sass"] if r["sass"].startswith("HGMMA")]
need(hg and hg[0]["measured_only"] and hg[0]["predicted"] is None and hg[0]["kind"] == "wgmma"
     and hg[0]["measured"]["wavefronts"] == 144, "HGMMA: a measured-only row")
tot = sum(l["measured"]["wavefronts"] for l in a["source_lines"] if l.get("measured"))
need(tot == sum(r["measured"]["wavefronts"] for r in a["sass"]) == 704, "measured total %d" % tot)
cg = [r for r in a["sass"] if r["kind"] == "cp.async.cg"]
need(len(cg) == 4, "four cp.async.cg rows")
popc = [r for r in h["sass"] if r["sass"].startswith("ATOMS.POPC")]
need(popc and all(r["predicted"] for r in popc), "POPC predicted")
need(len({i["warp"] for i in h["accesses"]}) == 8, "the histogram's 8 warps")
print("record_modern_data: what a user reads %s" % ("checked" if ok else "FAILED"))
sys.exit(0 if ok else 1)
PY
exit $fail

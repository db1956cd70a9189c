#!/bin/sh
# GPU test (77 without a GPU, nvcc, ncu or the recording library): bankscope record on modern
# kernels, each compared per PC with Nsight Compute's source page of the same launch
# (tests/gpu/modern/compare_pcs.py: wavefronts, ideal and instructions equal at every PC):
#   tile_gemm      a CuTe-style kernel (tests/gpu/modern/tile_style.hpp): a 19 KB demangled name,
#                  inline chains, cp.async.cg, ldmatrix and a wgmma (HGMMA, measured only)
#   histogram256   a skewed 256-bin histogram: ATOMS.POPC.INC (predicted merged, equal to the
#                  counters) and a float atomicAdd (ATOMS.CAST.SPIN, not modelled)
#   calib_forms    one pattern per line: cp.async.cg, ATOMS.POPC.INC, ATOMS.ADD, ATOMS.CAST.SPIN
#   triton_softmax, triton_matmul   Triton kernels (skipped without torch and triton)
#   torch_sort     PyTorch's own sort (CUB onesweep, no line info)
# and checks what a user reads: analyze and --sass open every recording, the long name is whole
# in the JSON, the CuTe-style ldmatrix is on the kernel's line with its chain, the HGMMA is a
# measured-only row whose wavefronts count in the measured total. RECORD_KEEP=DIR keeps every
# recording, ncu page and record output there.
srcdir=${srcdir:-.}
top_builddir=${top_builddir:-.}
bin=$top_builddir/bankscope
lib=$top_builddir/libbankscope-record.so
command -v nvidia-smi >/dev/null && nvidia-smi -L >/dev/null 2>&1 || exit 77
command -v nvcc >/dev/null && command -v ncu >/dev/null && command -v python3 >/dev/null || exit 77
[ -x "$bin" ] && [ -f "$lib" ] || exit 77
M=$srcdir/tests/gpu/modern
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
keep=${RECORD_KEEP:-}
[ -n "$keep" ] && mkdir -p "$keep"
fail=0
bad() { echo "record_modern: $*"; fail=1; }
nvcc -arch=sm_90a -lineinfo -O3 -o "$tmp/tile_gemm" "$M/tile_gemm.cu" &
nvcc -arch=sm_90 -lineinfo -O3 -o "$tmp/histogram256" "$M/histogram256.cu" &
nvcc -arch=sm_90 -lineinfo -O3 -o "$tmp/calib_forms" "$M/calib_forms.cu" &
wait
for p in tile_gemm histogram256 calib_forms; do [ -x "$tmp/$p" ] || { echo "record_modern: $p did not build"; exit 1; }; done
py=0
python3 -c "import torch, triton" 2>/dev/null && py=1
# case NAME KERNEL-REGEX PROGRAM...: record, ncu, compare per PC; with SEQ=1 also a recording
# whose runs went one after another (--sequential), compared with the same ncu page, so that the
# runs side by side (the default) are shown to count exactly what they count one at a time
case_run() {
    n=$1 k=$2
    shift 2
    "$bin" record --force --kernel "$k" -o "$tmp/$n.json" -- "$@" > "$tmp/$n.record.txt" 2>&1 ||
        { bad "$n: record failed: $(tail -3 "$tmp/$n.record.txt")"; return; }
    launch=$(python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['launch'])" "$tmp/$n.json")
    ncu --kernel-name-base mangled -k "regex:$k" --launch-skip "$launch" -c 1 --section SourceCounters -f \
        -o "$tmp/$n" "$@" > "$tmp/$n.ncu.out" 2>&1 || { bad "$n: ncu failed"; return; }
    ncu -i "$tmp/$n.ncu-rep" --page source --csv --print-source sass > "$tmp/$n.ncu.csv" 2>&1
    python3 "$M/compare_pcs.py" "$tmp/$n.json" "$tmp/$n.ncu.csv" "$n" || fail=1
    if [ "${SEQ:-}" = 1 ]; then
        "$bin" record --sequential --force --kernel "$k" -o "$tmp/$n.seq.json" -- "$@" > "$tmp/$n.seq.txt" 2>&1 ||
            bad "$n: record --sequential failed: $(tail -3 "$tmp/$n.seq.txt")"
        python3 "$M/compare_pcs.py" "$tmp/$n.seq.json" "$tmp/$n.ncu.csv" "$n (--sequential)" || fail=1
    fi
    "$bin" analyze "$tmp/$n.json" --sass > "$tmp/$n.analyze.txt" 2>&1 || bad "$n: analyze --sass failed"
    "$bin" analyze "$tmp/$n.json" --json > "$tmp/$n.analyze.json" 2>&1 || bad "$n: analyze --json failed"
    if [ -n "$keep" ]; then
        for f in json record.txt ncu.csv analyze.txt; do cp "$tmp/$n.$f" "$keep/$n.$f"; done
    fi
}
SEQ=1 case_run tile_gemm tile_gemm "$tmp/tile_gemm"
case_run histogram256 histogram256 "$tmp/histogram256"
case_run calib_forms calib_forms "$tmp/calib_forms"
if [ $py = 1 ]; then
    case_run triton_softmax softmax_kernel python3 "$M/triton_softmax.py"
    case_run triton_matmul matmul_kernel python3 "$M/triton_matmul.py"
    SEQ=1 case_run torch_sort '[Oo]nesweep' python3 "$M/torch_sort.py"
else
    echo "record_modern: no torch/triton: the Python programs are skipped"
fi
python3 - "$tmp" <<'PY' || fail=1
import json, os, sys
d = sys.argv[1]
ok = True
def need(c, what):
    global ok
    if not c:
        print("record_modern: " + what)
        ok = False
t = json.load(open(os.path.join(d, "tile_gemm.json")))
need(len(t["kernel"]["name"]) > 4096, "the CuTe-style name is not whole (%d bytes)" % len(t["kernel"]["name"]))
pcs = [(l, p) for l in t["lines"] for p in l["pcs"]]
ldsm = [(l, p) for l, p in pcs if p["sass"].startswith("LDSM")]
need(ldsm and ldsm[0][0]["file"].endswith("tile_gemm.cu"), "ldmatrix not on the kernel's line")
need(ldsm and len(ldsm[0][1].get("chain", [])) >= 3 and ldsm[0][1]["chain"][0]["file"].endswith("tile_style.hpp"),
     "ldmatrix without its inline chain")
hg = [(l, p) for l, p in pcs if "GMMA" in p["sass"]]
need(hg and hg[0][1].get("measured_only") and hg[0][1]["measured"]["wavefronts"] > 0, "no measured-only HGMMA")
a = json.load(open(os.path.join(d, "tile_gemm.analyze.json")))
tot = sum(l["measured"]["wavefronts"] for l in a["source_lines"] if l.get("measured"))
need(tot == sum(p["measured"]["wavefronts"] for l, p in pcs), "the measured total leaves PCs out")
h = json.load(open(os.path.join(d, "histogram256.json")))
popc = [p for l in h["lines"] for p in l["pcs"] if "POPC" in p["sass"]]
need(popc, "no ATOMS.POPC.INC in the histogram")
print("record_modern: checks of what a user reads %s" % ("passed" if ok else "FAILED"))
sys.exit(0 if ok else 1)
PY
[ $fail = 0 ] && echo "record_modern: every check passed"
exit $fail

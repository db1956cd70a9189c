#!/bin/sh
# Benchmark (not a test): wall time of measuring a launch per instruction with bankscope's
# recording library against Nsight Compute, on the tiled SGEMM (tests/bench/sgemm_tiled.cu, 4096^2)
# and the naive transpose (tests/gpu/record/transpose.cu, 1024^2), each kernel's first launch:
#   the program alone; the library's "count" pass (per-instruction wavefronts, ideal wavefronts,
#   executions) and "time" pass (the clean duration); `bankscope record` when the build has it;
#   ncu --section SourceCounters (the same per-instruction counters); ncu --set full.
# The count pass is checked equal to ncu's source page (tests/gpu/measured_compare.py).
# usage: tests/bench/bench_record.sh [BUILDDIR]   (on a GPU machine with nvcc and ncu)
srcdir=$(cd "$(dirname "$0")/../.." && pwd)
build=$(cd "${1:-.}" && pwd)
lib=$build/libbankscope-record.so
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
nvcc -arch=sm_90 -lineinfo -O3 -o "$tmp/sgemm" "$srcdir/tests/bench/sgemm_tiled.cu" || exit 1
nvcc -arch=sm_90 -lineinfo -O3 -I"$srcdir/tests/gpu/record" -o "$tmp/transpose" "$srcdir/tests/gpu/record/transpose.cu" || exit 1
# wall seconds of a command (its output discarded)
wall() {
    t0=$(date +%s.%N)
    "$@" > "$tmp/last.log" 2>&1 || { echo "failed: $*" >&2; cat "$tmp/last.log" >&2; }
    t1=$(date +%s.%N)
    echo "$t0 $t1" | awk '{printf "%.2f", $2 - $1}'
}
printf '%-10s %-16s %8s\n' program what seconds
for pk in "sgemm sgemm_tiled" "transpose transpose_naive"; do
    set -- $pk
    p=$1 k=$2 d=$tmp/work-$p
    mkdir -p "$d"
    printf '%-10s %-16s %8s\n' "$p" alone "$(wall "$tmp/$p")"
    for pass in count time; do
        printf '%-10s %-16s %8s\n' "$p" "$pass pass" "$(wall env CUDA_INJECTION64_PATH="$lib" BANKSCOPE_RECORD_PASS=$pass \
            BANKSCOPE_RECORD_DIR="$d" BANKSCOPE_RECORD_KERNEL="^$k(\(|$)" BANKSCOPE_RECORD_LAUNCH=0 "$tmp/$p")"
    done
    if [ -x "$build/bankscope" ] && "$build/bankscope" record --help > /dev/null 2>&1; then
        printf '%-10s %-16s %8s\n' "$p" "bankscope record" "$(wall "$build/bankscope" record --kernel "^$k(\(|$)" -o "$d/rec.json" -- "$tmp/$p")"
    fi
    printf '%-10s %-16s %8s\n' "$p" "ncu SourceCount." "$(wall ncu -k "regex:^$k\$" -c 1 --section SourceCounters -f -o "$d/src" "$tmp/$p")"
    printf '%-10s %-16s %8s\n' "$p" "ncu --set full" "$(wall ncu -k "regex:^$k\$" -c 1 --set full -f -o "$d/full" "$tmp/$p")"
    ncu -i "$d/src.ncu-rep" --page source --csv --print-source sass > "$d/src.csv"
    python3 "$srcdir/tests/gpu/measured_compare.py" "$d/src.csv" "$d/count.txt" "$p" | tail -1
    sed -n 's/^duration_ns	/  duration (time pass, ns): /p' "$d/time.txt"
done

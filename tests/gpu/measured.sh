#!/bin/sh
# GPU test (77 without a GPU, nvcc, ncu or the recording library): the "count" pass of
# libbankscope-record.so against Nsight Compute's source page on the same launches of the record
# test programs (tests/gpu/record, built with -lineinfo): L1 Wavefronts Shared, ... Ideal and
# Instructions Executed equal at every instruction (tests/gpu/measured_compare.py); the "time" pass
# gives a duration. Then `bankscope record` end to end on the transpose: every line's measured
# numbers equal the sums of ncu's over the line's instructions, and every line agrees
# (tests/gpu/measured_recording.py). With MEASURED_KEEP=DIR, every count.txt, time.txt, ncu page
# and recording is kept there.
srcdir=${srcdir:-.}
top_builddir=${top_builddir:-.}
lib=$top_builddir/libbankscope-record.so
command -v nvidia-smi >/dev/null && nvidia-smi -L >/dev/null 2>&1 || exit 77
command -v nvcc >/dev/null && command -v ncu >/dev/null && command -v python3 >/dev/null || exit 77
[ -f "$lib" ] || exit 77
lib=$(cd "$(dirname "$lib")" && pwd)/$(basename "$lib")
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
keep=${MEASURED_KEEP:-}
fail=0
# program kernel launch (the kernel as an extended regular expression on the demangled name)
cases="transpose transpose_naive 0
transpose transpose_padded 0
histogram histogram 0
atomics shared_atomics 0
cpasync cpasync_fill 0
ldmatrix ldmatrix_tile 0
tma bulk_copy 0
twice strided 0
twice strided 1"
for p in transpose histogram atomics cpasync ldmatrix tma twice; do
    nvcc -arch=sm_90 -lineinfo -O3 -I"$srcdir/tests/gpu/record" -o "$tmp/$p" "$srcdir/tests/gpu/record/$p.cu" ||
        { echo "measured: cannot build $p"; exit 1; }
done
echo "$cases" | while read -r p k n; do
    d=$tmp/$p-$k-$n
    mkdir -p "$d"
    for pass in count time; do
        CUDA_INJECTION64_PATH=$lib BANKSCOPE_RECORD_PASS=$pass BANKSCOPE_RECORD_DIR=$d BANKSCOPE_RECORD_KERNEL="^$k(\(|$)" \
            BANKSCOPE_RECORD_LAUNCH=$n "$tmp/$p" > "$d/$pass.out" 2>&1 || { echo "measured: $p failed in the $pass pass"; exit 1; }
        [ -f "$d/$pass.txt" ] || { echo "measured: $p $k $n: no $pass.txt"; exit 1; }
    done
    grep -q '^duration_ns	[1-9]' "$d/time.txt" || { echo "measured: $p $k $n: no duration"; cat "$d/time.txt"; exit 1; }
    mangled=$(sed -n 's/^kernel	//p' "$d/count.txt")
    ncu --kernel-name-base mangled -k "$mangled" --launch-skip "$n" -c 1 --section SourceCounters -f -o "$d/ncu" \
        "$tmp/$p" > "$d/ncu.out" 2>&1 || { echo "measured: ncu failed on $p"; cat "$d/ncu.out"; exit 1; }
    ncu -i "$d/ncu.ncu-rep" --page source --csv --print-source sass > "$d/ncu.csv" || exit 1
    python3 "$srcdir/tests/gpu/measured_compare.py" "$d/ncu.csv" "$d/count.txt" "$p $k launch $n" || exit 1
    if [ -n "$keep" ]; then
        mkdir -p "$keep" && for f in count.txt time.txt ncu.csv; do cp "$d/$f" "$keep/$p-$k-$n.$f"; done
    fi
done || fail=1
# bankscope record end to end (skipped when the build has no record command)
bin=$top_builddir/bankscope
if [ "$fail" = 0 ] && [ -x "$bin" ] && "$bin" record --help > /dev/null 2>&1; then
    for k in transpose_naive transpose_padded; do
        d=$tmp/transpose-$k-0
        "$bin" record --kernel "^$k(\(|$)" -o "$d/rec.json" -- "$tmp/transpose" > "$d/record.out" 2>&1 ||
            { echo "measured: bankscope record failed on $k"; cat "$d/record.out"; exit 1; }
        python3 "$srcdir/tests/gpu/measured_recording.py" "$d/rec.json" "$d/ncu.csv" || exit 1
        [ -n "$keep" ] && cp "$d/rec.json" "$keep/transpose-$k-0.record.json"
    done
fi
exit $fail

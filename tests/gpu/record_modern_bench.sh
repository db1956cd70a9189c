#!/bin/sh
# Benchmark, not a test: wall time of the program alone, of bankscope record (the default: the
# capture, count and time runs side by side; and with --no-time), with --verbose's time of each
# run, and of Nsight Compute's source counters for the same launch (ncu --section SourceCounters
# --page source), on the modern programs of tests/gpu/modern (a CuTe-style kernel, a Triton kernel,
# a PyTorch op) and the classic transpose. Each program runs once first to warm the caches
# (Triton's kernel cache, the driver's). Times in ms; "record/ncu" is the ratio of the two.
#   BANKSCOPE=./bankscope sh tests/gpu/record_modern_bench.sh [NAME...]
# NAMEs (transpose tile_gemm triton_softmax triton_matmul torch_sort) limit it to those programs.
srcdir=${srcdir:-.}
bin=${BANKSCOPE:-./bankscope}
M=$srcdir/tests/gpu/modern
only=" $* "
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
ms() { date +%s%N; }
el() { echo $((($(ms) - $1) / 1000000)); }
want() { [ "$only" = "  " ] || case $only in *" $1 "*) return 0 ;; *) return 1 ;; esac; }
want tile_gemm && nvcc -arch=sm_90a -lineinfo -O3 -o "$tmp/tile_gemm" "$M/tile_gemm.cu" &
want transpose && nvcc -arch=sm_90 -lineinfo -O3 -o "$tmp/transpose" "$srcdir/tests/gpu/record/transpose.cu" &
wait
nvidia-smi --query-gpu=name --format=csv,noheader
printf '%-15s %9s %9s %10s %9s %10s  %s\n' program alone_ms record_ms no_time_ms ncu_ms record/ncu \
    "runs: capture/count/time s"
bench() { # NAME KERNEL PROGRAM...
    n=$1 k=$2
    shift 2
    want "$n" || return 0
    "$@" > /dev/null 2>&1 # warm the caches
    t=$(ms); "$@" > /dev/null 2>&1; a=$(el $t)
    t=$(ms); "$bin" record -v --force --kernel "$k" -o "$tmp/r.json" -- "$@" > /dev/null 2> "$tmp/v"; rc=$?; r=$(el $t)
    [ $rc -eq 0 ] || r="failed($rc)"
    runs=$(sed -n 's/^record: \(capture\|count\|time\) run: \([0-9.]*\) s$/\2/p' "$tmp/v" | tr '\n' '/')
    t=$(ms); "$bin" record --no-time --force --kernel "$k" -o "$tmp/r.json" -- "$@" > /dev/null 2>&1; nt=$(el $t)
    t=$(ms)
    ncu --kernel-name-base mangled -k "regex:$k" -c 1 --section SourceCounters --page source --csv \
        --print-source sass "$@" > /dev/null 2>&1
    c=$(el $t)
    ratio=$(awk -v r="$r" -v c="$c" 'BEGIN { if (r + 0 > 0 && c > 0) printf "%.2f", r / c; else print "-" }')
    printf '%-15s %9s %9s %10s %9s %10s  %s\n' "$n" "$a" "$r" "$nt" "$c" "$ratio" "${runs%/}"
    [ -n "${BENCH_KEEP:-}" ] && cp "$tmp/v" "$BENCH_KEEP/$n.verbose.txt"
}
bench transpose transpose_naive "$tmp/transpose"
bench tile_gemm tile_gemm "$tmp/tile_gemm"
if python3 -c "import torch, triton" 2> /dev/null; then
    bench triton_softmax softmax_kernel python3 "$M/triton_softmax.py"
    bench triton_matmul matmul_kernel python3 "$M/triton_matmul.py"
    bench torch_sort '[Oo]nesweep' python3 "$M/torch_sort.py"
fi

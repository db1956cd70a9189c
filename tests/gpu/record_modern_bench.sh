#!/bin/sh
# Benchmark, not a test: wall time of the program alone, of bankscope record (every run, with
# --verbose's time per run) and of Nsight Compute's source counters for the same launch, on the
# modern programs of tests/gpu/modern (a CuTe-style kernel, a Triton kernel, a PyTorch op) and the
# classic transpose. BANKSCOPE=./bankscope sh tests/gpu/record_modern_bench.sh
srcdir=${srcdir:-.}
bin=${BANKSCOPE:-./bankscope}
M=$srcdir/tests/gpu/modern
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
ms() { date +%s%N; }
el() { echo $((($(ms) - $1) / 1000000)); }
nvcc -arch=sm_90a -lineinfo -O3 -o "$tmp/tile_gemm" "$M/tile_gemm.cu" || exit 1
nvcc -arch=sm_90 -lineinfo -O3 -o "$tmp/transpose" "$srcdir/tests/gpu/record/transpose.cu" || exit 1
nvidia-smi --query-gpu=name --format=csv,noheader
printf '%-16s %10s %10s %28s %10s\n' program alone_ms record_ms "capture/count/time_ms" ncu_ms
bench() { # NAME KERNEL PROGRAM...
    n=$1 k=$2
    shift 2
    "$@" > /dev/null 2>&1 # warm the caches (Triton's kernel cache, the driver's)
    t=$(ms); "$@" > /dev/null 2>&1; a=$(el $t)
    t=$(ms); "$bin" record -v --force --kernel "$k" -o "$tmp/r.json" -- "$@" > /dev/null 2> "$tmp/v"; r=$(el $t)
    runs=$(sed -n 's/^record: \(capture\|count\|time\) run: \([0-9.]*\) s$/\2/p' "$tmp/v" | tr '\n' '/')
    t=$(ms)
    ncu --kernel-name-base mangled -k "regex:$k" -c 1 --section SourceCounters --page source --csv \
        --print-source sass "$@" > /dev/null 2>&1
    c=$(el $t)
    printf '%-16s %10s %10s %28s %10s\n' "$n" "$a" "$r" "$runs" "$c"
}
bench transpose transpose_naive "$tmp/transpose"
bench tile_gemm tile_gemm "$tmp/tile_gemm"
if python3 -c "import torch, triton" 2>/dev/null; then
    bench triton_softmax softmax_kernel python3 "$M/triton_softmax.py"
    bench triton_matmul matmul_kernel python3 "$M/triton_matmul.py"
    bench torch_sort '[Oo]nesweep' python3 "$M/torch_sort.py"
fi

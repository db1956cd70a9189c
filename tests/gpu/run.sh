#!/bin/sh
# GPU checks for a machine with an NVIDIA GPU and no build tools: run from the source root with
# the binaries built elsewhere (./bankscope, tests/gpu/test_calibration) and libcjson beside
# them (LD_LIBRARY_PATH). Prints the measurement of the library's classic cases, the full
# calibration table, and the speed of measure (new and cached) against ncu.
set -u
export srcdir=${srcdir:-.}
bin=./bankscope
export XDG_CACHE_HOME=$(mktemp -d)
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm --format=csv,noheader 2>/dev/null
echo "== measure: classic cases"
for p in default transpose-padded char-32x129 double-32x32 float4-32x36 aos-vec3; do
    $bin measure "$p" || echo "measure $p failed: $?"
done
echo "== speed: a new scenario (NVRTC compile included), then the same again (cached CUBIN)"
for i in 1 2; do
    t0=$(date +%s%N); $bin measure stride-8 >/dev/null; t1=$(date +%s%N)
    echo "measure stride-8 run $i: $(( (t1 - t0) / 1000000 )) ms wall (process start, CUDA init, measure)"
done
$bin measure stride-8 --json | grep -E '"compile_ms"|"total_ms"' | head -2
if command -v ncu >/dev/null 2>&1; then
    m="l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum"
    t0=$(date +%s%N)
    ncu --metrics "$m" -k bs_once $bin measure stride-8 > ncu.log 2>&1
    t1=$(date +%s%N)
    echo "ncu --metrics (same kernel, same counters): $(( (t1 - t0) / 1000000 )) ms wall"
    grep -E "bank_conflicts|wavefronts" ncu.log | head -4
fi
echo "== TUI with the GPU"
sh tests/gpu/tui_gpu.sh
echo "== calibration"
./tests/gpu/test_calibration

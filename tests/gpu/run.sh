#!/bin/sh
# GPU checks for a machine with an NVIDIA GPU and no build tools: run from the source root with
# the binaries built elsewhere (./bankscope, tests/gpu/test_calibration) and libcjson beside
# them (LD_LIBRARY_PATH). Prints the measurement of the library's classic cases, the full
# calibration table, and the speed of measure (new and cached) against ncu; exits 1 naming the
# checks that failed (swizzle, tui_gpu, random, measured, calibration).
set -u
export srcdir=${srcdir:-.}
bin=./bankscope
export XDG_CACHE_HOME=$(mktemp -d)
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm --format=csv,noheader 2>/dev/null
echo "== measure: classic cases"
for p in default transpose-padded char-32x129 double-32x32 float4-32x36 aos-vec3; do
    $bin measure "$p" || echo "measure $p failed: $?"
done
echo "== speed: struct-mixed has 4 accesses; access 0 opens CUDA and CUPTI, 1-3 are new kernels"
echo "   with CUDA up (NVRTC compile included); the second run hits the CUBIN cache"
for i in 1 2; do
    t0=$(date +%s%N)
    $bin measure struct-mixed | grep -E "^access|ms:"
    t1=$(date +%s%N)
    echo "   run $i: $(( (t1 - t0) / 1000000 )) ms for the whole process"
done
if command -v ncu >/dev/null 2>&1; then
    m="l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum"
    t0=$(date +%s%N)
    ncu --metrics "$m" -k bs_once $bin measure stride-8 > ncu.log 2>&1
    t1=$(date +%s%N)
    echo "ncu --metrics, the same counters of the same kernel: $(( (t1 - t0) / 1000000 )) ms wall"
    grep -E "shared_op_ld" ncu.log | head -2
    t0=$(date +%s%N)
    $bin measure stride-8 | grep -E "wavefronts|ms:"
    t1=$(date +%s%N)
    echo "bankscope measure stride-8: $(( (t1 - t0) / 1000000 )) ms wall (process start and CUDA init included)"
fi
echo "== swizzled arrays: addresses checked against the model, counters against the prediction"
failed=""
# check NAME COMMAND...: run a check; its failure is remembered and named at the end
check() {
    name=$1
    shift
    "$@" || failed="$failed $name"
}
check swizzle sh tests/gpu/swizzle.sh
echo "== TUI with the GPU"
check tui_gpu sh tests/gpu/tui_gpu.sh
echo "== register data path (cycles per warp-instruction per SM, predicted / measured)"
sh tests/gpu/data-path.sh
echo "== new patterns: 2000 random warp-instructions, counters against the model"
sh tests/gpu/random.sh 2000 1 > random.log 2>&1 || failed="$failed random"
tail -40 random.log
echo "== recording, measured side: the count pass against ncu's source page, every instruction"
top_builddir=. check measured sh tests/gpu/measured.sh
echo "== what-if on a recording: the advised padding recorded again"
BANKSCOPE=./bankscope check whatif sh tests/gpu/whatif.sh
echo "== calibration"
check calibration ./tests/gpu/test_calibration
if [ -n "$failed" ]; then
    echo "run.sh: failed:$failed"
    exit 1
fi
echo "run.sh: every check passed"

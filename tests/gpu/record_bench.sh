#!/bin/sh
# Benchmark (not a test) of `bankscope record`'s overhead: wall time of the program alone, of
# `bankscope record` on it (the capture run: two blocks of one launch captured, every block
# patched; then the count and time runs), with each run's share (--verbose), of
# `compute-sanitizer --tool memcheck` on the same program, and of Nsight Compute's source
# counters (`ncu --section SourceCounters`) and `ncu --set full` on the recorded launch, for the
# 4096x4096 tiled SGEMM and the 1024x1024 transpose (20 launches of each kernel). Run from the
# source root on a GPU machine:
#   BANKSCOPE=./bankscope sh tests/gpu/record_bench.sh
set -u
bin=${BANKSCOPE:-./bankscope}
src=${srcdir:-.}/tests/gpu/record
NVCC=${NVCC:-nvcc}
command -v "$NVCC" >/dev/null 2>&1 || NVCC=/usr/local/cuda/bin/nvcc
CS=${CS:-compute-sanitizer}
command -v "$CS" >/dev/null 2>&1 || CS=/usr/local/cuda/compute-sanitizer/compute-sanitizer
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$NVCC" -arch=native -lineinfo -o "$work/sgemm" "$src/sgemm.cu" &
"$NVCC" -arch=native -lineinfo -o "$work/transpose" "$src/transpose.cu" &
wait
nvidia-smi --query-gpu=name --format=csv,noheader
# wall LABEL COMMAND...: the wall time in ms (timeout 300 s)
wall() {
    label=$1
    shift
    t0=$(date +%s%N)
    timeout -s KILL 300 "$@" > "$work/out" 2>&1
    rc=$?
    t1=$(date +%s%N)
    printf '%-44s %9d ms  (exit %d) %s\n' "$label" $(( (t1 - t0) / 1000000 )) $rc "$(grep -E '^sgemm|checksum|ERROR SUMMARY' "$work/out" | head -1)"
}
# The floor of the patching: the capture run with patches that return at once for every thread
# (record_patch.cu built with RECORD_PATCH_FLOOR), so only the calls themselves cost.
libdir=${BANKSCOPE_RECORD_LIBDIR:-$(cd "$(dirname "$bin")" && pwd)}
san=${BANKSCOPE_SANITIZER_LIB:-/usr/local/cuda/compute-sanitizer/libsanitizer-public.so}
floor() {
    "$NVCC" --fatbin --compile-as-tools-patch -arch=native -DRECORD_PATCH_FLOOR -I"${srcdir:-.}/src/record" \
        -o "$work/floor.fatbin" "${srcdir:-.}/src/record/record_patch.cu" || return
    mkdir -p "$work/floor"
    # the launch the recording chose (its kernel and launch index), so that the floor arms it alone
    set -- "$@" "$(python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['kernel']['mangled'])" "$work/rec.json")" \
        "$(python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['launch'])" "$work/rec.json")"
    wall "$1 capture run, patches that return at once" env BANKSCOPE_RECORD_PASS=capture \
        BANKSCOPE_RECORD_DIR="$work/floor" BANKSCOPE_RECORD_PATCH="$work/floor.fatbin" BANKSCOPE_RECORD_SANITIZER="$san" \
        BANKSCOPE_RECORD_EXACT="$3" BANKSCOPE_RECORD_LAUNCH="$4" \
        CUDA_INJECTION64_PATH="$libdir/libbankscope-record.so" "$work/$1" ${2:-}
}
for p in "sgemm" "transpose 20"; do
    set -- $p
    wall "$1 alone" "$work/$1" ${2:-}
    wall "$1 alone (again)" "$work/$1" ${2:-}
    wall "$1 under bankscope record" "$bin" record --force --verbose -o "$work/rec.json" -- "$work/$1" ${2:-}
    grep '^record: ' "$work/out" | sed 's/^/    /'
    floor "$1" "${2:-}"
    wall "$1 under compute-sanitizer memcheck" "$CS" --tool memcheck "$work/$1" ${2:-}
    if command -v ncu >/dev/null 2>&1; then
        k=$(python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['kernel']['mangled'])" "$work/rec.json" 2>/dev/null)
        wall "$1 under ncu --section SourceCounters" ncu --section SourceCounters --kernel-name-base mangled -k "regex:^${k:-.}\$" -c 1 -f -o "$work/ncu" "$work/$1" ${2:-}
        wall "$1 under ncu --set full" ncu --set full --kernel-name-base mangled -k "regex:^${k:-.}\$" -c 1 -f -o "$work/ncu" "$work/$1" ${2:-}
    fi
done

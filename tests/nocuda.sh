#!/bin/sh
# The CUDA toolkit's libraries are loaded only when a measurement asks for them:
#  1. the program does not link NVRTC, CUPTI, the CUDA runtime or the driver;
#  2. `analyze` loads none of them (LD_DEBUG=files);
#  3. with the toolkit hidden (a private mount namespace: an empty tmpfs over the toolkit's lib
#     folder and no ld.so.cache), `analyze` prints the same as with it, `kernel --ptx` and
#     `measure` fail with one line naming the missing library (measure: exit 3), also with a
#     stand-in libcuda.so.1 that reports a device, so that NVRTC is the missing piece.
# Part 3 is skipped (said so) where no mount namespace can be made.
top_builddir=${top_builddir:-.}
bin="$top_builddir/bankscope"
case $bin in /*) ;; *) bin="$PWD/$bin" ;; esac
pass=0
fail=0
ok() { pass=$((pass + 1)); }
bad() { echo "FAIL: $*"; fail=$((fail + 1)); }
cuda_libs='libnvrtc|libcupti|libcudart|libcuda\.'

if [ "${BANKSCOPE_NOCUDA_INNER:-}" = 1 ]; then
    # Inside the namespace: hide the toolkit, then check. $1: expected analyze output, $2: tmp dir.
    libdir=$(sed -n 's/^#define BANKSCOPE_CUDA_LIBDIR "\(.*\)"$/\1/p' "$top_builddir/config.h")
    [ -n "$libdir" ] && [ -d "$libdir" ] && mount -t tmpfs none "$(readlink -f "$libdir")" || exit 77
    mount --bind /dev/null /etc/ld.so.cache || exit 77
    unset LD_LIBRARY_PATH
    if "$bin" kernel default --ptx > /dev/null 2> "$2/ptx.err"; then
        echo "the toolkit is still found (installed in a system folder?)"
        exit 77
    fi
    grep -q 'libnvrtc\.so\.[0-9]* not found' "$2/ptx.err" && ok || bad "kernel --ptx: $(cat "$2/ptx.err")"
    "$bin" analyze default > "$2/hidden.out" 2>&1 && cmp -s "$1" "$2/hidden.out" && ok ||
        bad "analyze without the toolkit differs or fails"
    out=$("$bin" measure default 2> "$2/measure.err")
    rc=$?
    if [ $rc -eq 3 ] && [ -z "$out" ] && [ "$(wc -l < "$2/measure.err")" -eq 1 ] &&
        grep -q 'lib[a-z]*\.so\.[0-9]* not found' "$2/measure.err"; then ok; else
        bad "measure without the toolkit: exit $rc, $(cat "$2/measure.err")"
    fi
    if [ -f "$2/fake/libcuda.so.1" ]; then
        out=$(LD_LIBRARY_PATH="$2/fake" "$bin" measure default 2> "$2/fake.err")
        rc=$?
        if [ $rc -eq 3 ] && [ -z "$out" ] && [ "$(wc -l < "$2/fake.err")" -eq 1 ] &&
            grep -q 'libnvrtc\.so\.[0-9]* not found' "$2/fake.err"; then ok; else
            bad "measure with a driver but no NVRTC: exit $rc, $(cat "$2/fake.err")"
        fi
    fi
    echo "hidden toolkit: $pass passed, $fail failed"
    [ $fail -eq 0 ]
    exit
fi

tmp=$(mktemp -d) || exit 99
trap 'rm -rf "$tmp"' EXIT

# 1. Nothing of CUDA among the libraries the program needs.
needed=$(readelf -d "$bin" 2> /dev/null | grep NEEDED) || needed=$(ldd "$bin")
echo "$needed" | grep -Eq "$cuda_libs" && bad "linked: $(echo "$needed" | grep -E "$cuda_libs")" || ok

# 2. analyze loads none of them.
LD_DEBUG=files "$bin" analyze default > /dev/null 2> "$tmp/ld.log"
grep -E "file=.*($cuda_libs)" "$tmp/ld.log" | head -3 | grep . && bad "analyze loaded a CUDA library" || ok
"$bin" analyze default > "$tmp/analyze.out" 2>&1 || bad "analyze default failed"

# 3. The toolkit hidden.
if grep -q '^#define HAVE_CUDA 1' "$top_builddir/config.h" 2> /dev/null; then
    mkdir "$tmp/fake"
    cat > "$tmp/fake/cuda.c" << 'EOF'
/* A stand-in driver: one device, no kernels. */
int cuInit(unsigned f) { (void)f; return 0; }
int cuDeviceGetCount(int *n) { *n = 1; return 0; }
int cuDeviceGet(int *d, int i) { *d = i; return 0; }
int cuDeviceGetName(char *s, int n, int d) { (void)d; if (n > 4) { s[0] = 'f'; s[1] = 'a'; s[2] = 'k'; s[3] = 'e'; s[4] = 0; } return 0; }
int cuDeviceGetAttribute(int *v, int a, int d) { (void)a; (void)d; *v = 9; return 0; }
int cuDevicePrimaryCtxRetain(void **c, int d) { (void)d; *c = 0; return 0; }
int cuCtxSetCurrent(void *c) { (void)c; return 0; }
#define STUB(f) int f(void) { return 1; }
STUB(cuCtxSynchronize) STUB(cuModuleLoadData) STUB(cuModuleUnload) STUB(cuModuleGetFunction)
STUB(cuFuncSetAttribute) STUB(cuOccupancyMaxActiveBlocksPerMultiprocessor) STUB(cuMemAlloc_v2)
STUB(cuMemFree_v2) STUB(cuMemcpyDtoH_v2) STUB(cuMemcpyHtoD_v2) STUB(cuMemsetD8_v2) STUB(cuLaunchKernel)
STUB(cuEventCreate) STUB(cuEventRecord) STUB(cuEventSynchronize) STUB(cuEventElapsedTime_v2)
STUB(cuEventElapsedTime) STUB(cuEventDestroy_v2) STUB(cuGetErrorString)
EOF
    ${CC:-cc} -shared -fPIC -o "$tmp/fake/libcuda.so.1" "$tmp/fake/cuda.c" 2> /dev/null ||
        echo "no C compiler: the stand-in driver check is skipped"
    if unshare -m true 2> /dev/null; then ns="unshare -m"; elif unshare -rm true 2> /dev/null; then ns="unshare -rm"; else ns=; fi
    if [ -n "$ns" ]; then
        BANKSCOPE_NOCUDA_INNER=1 top_builddir="$top_builddir" $ns sh "$0" "$tmp/analyze.out" "$tmp"
        rc=$?
        case $rc in 0) ok ;; 77) echo "hidden-toolkit checks skipped" ;; *) bad "hidden-toolkit checks" ;; esac
    else
        echo "no mount namespace (unshare): hidden-toolkit checks skipped"
    fi
else
    echo "built without CUDA: hidden-toolkit checks skipped"
fi

echo "nocuda: $pass passed, $fail failed"
[ $fail -eq 0 ]

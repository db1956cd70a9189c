#!/bin/sh
# Import costs what the file holds: finding an access's line, and asking which variables the
# code changes, must not rescan the file or the function for every access. The inputs are made
# here: 100,000 stores in a row (used to take minutes, rescanning the file from its start for
# each), and 10,000 loads inside a loop (used to run out of memory). Each must import within a
# generous --timeout (a hang check, not a timing), every access imported or listed. Inlining
# that doubles at every level is stopped by a budget with a positioned message.
# Skipped (77) in a build without libclang.
top_builddir=${top_builddir:-.}
bin="$(cd "$top_builddir" && pwd)/bankscope"
tmp=$(mktemp -d) || exit 99
trap 'rm -rf "$tmp"' EXIT
"$bin" import /dev/null --block 32 2>"$tmp/probe"
if [ $? -eq 1 ] && grep -q "built without libclang" "$tmp/probe"; then
    echo "SKIP: built without libclang"
    exit 77
fi
pass=0
fail=0
check() { # check WHAT OK(1/0)
    if [ "$2" -eq 1 ]; then pass=$((pass + 1)); else echo "FAIL: $1"; fail=$((fail + 1)); fi
}
# gen N BODY-BEFORE BODY-AFTER LINE: a kernel with N lines LINE (i is the line's number)
gen() {
    awk -v n="$1" -v pre="$2" -v post="$3" -v line="$4" 'BEGIN {
        print "__global__ void k(float *o)"
        print "{"
        print "    __shared__ float t[64];"
        print "    int p = threadIdx.x;"
        if (pre != "") print pre
        at = index(line, "@")
        for (i = 0; i < n; i++) print substr(line, 1, at - 1) i substr(line, at + 1)
        if (post != "") print post
        print "}"
    }'
}
gen 100000 '' '' '    t[p] = @;' >"$tmp/row.cu"
gen 10000 '    for (int i = 0; i < 4; i++) {' '    }' '        o[@] = t[p + i];' >"$tmp/loop.cu"
# imports NAME ACCESSES FIRST-LINE: all imported or listed, the listed ones from FIRST-LINE on
imports() {
    (cd "$tmp" && "$bin" import "$1.cu" --block 32 --timeout 20 -o "$1.json") 2>"$tmp/$1.err"
    rc=$?
    listed=$(grep -c "^$1.cu:[0-9]*:[0-9]*: skipped .*: more than 256 accesses" "$tmp/$1.err")
    first=$(grep -m1 "skipped" "$tmp/$1.err" | cut -d: -f2)
    check "$1: exit $rc, $listed listed from line $first: $(head -c 300 "$tmp/$1.err")" \
        "$([ $rc -eq 0 ] && [ "$listed" -eq $(($2 - 256)) ] && [ "$first" = "$3" ] && echo 1 || echo 0)"
}
imports row 100000 261
imports loop 10000 262

# A template that calls itself twice per level inlines 2^N copies: the walk's budget stops it
# with a message at the kernel's call (exit 2), where it used to fill 4 GB and end "out of
# memory" (exit 1); the same for a one-line function whose value doubles per level.
cat >"$tmp/twice.cu" <<'CU'
template <int N> __device__ float f(float *t)
{
    if (N == 0)
        return t[threadIdx.x];
    return f<N - 1>(t) + f<N - 1>(t);
}
template <> __device__ float f<-1>(float *t) { return 0; }
__global__ void k(float *o)
{
    __shared__ float t[64];
    t[threadIdx.x] = 1;
    o[threadIdx.x] = f<18>(t);
}
CU
{
    echo '__device__ int g0(int x) { return x; }'
    i=1
    while [ $i -le 24 ]; do echo "__device__ int g$i(int x) { return g$((i - 1))(x) + g$((i - 1))(x); }"; i=$((i + 1)); done
    echo '__global__ void k(float *o) { __shared__ float t[64]; t[g24(threadIdx.x) & 63] = 1; }'
} >"$tmp/value.cu"
# stopped NAME POSITION
stopped() {
    (cd "$tmp" && "$bin" import "$1.cu" --block 32 --timeout 120 -o "$1.json") 2>"$tmp/$1.err"
    rc=$?
    check "$1: exit $rc: $(head -c 300 "$tmp/$1.err")" \
        "$([ $rc -eq 2 ] && grep -q "^$1.cu:$2: error: the import stopped after [0-9]* steps of its walk" "$tmp/$1.err" &&
            [ ! -e "$tmp/$1.json" ] && echo 1 || echo 0)"
}
stopped twice 12:22
stopped value 26:57
echo "import_scale: $pass passed, $fail failed"
[ $fail -eq 0 ]

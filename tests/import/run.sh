#!/bin/sh
# bankscope import: every tests/import/NAME.cu (imported with the options in NAME.args) must
# give the same `analyze --json` results as the hand-written NAME.json: the same instructions,
# wavefronts, conflicts and lanes (names and labels aside). Hostile sources must fail cleanly
# (exit 2, a file:line:col or a clear message). Skipped (77) in a build without libclang.
srcdir=${srcdir:-.}
top_builddir=${top_builddir:-.}
bin="$(cd "$top_builddir" && pwd)/bankscope"
dir="$(cd "$srcdir/tests/import" && pwd)"
tmp=$(mktemp -d) || exit 99
trap 'rm -rf "$tmp"' EXIT
"$bin" import /dev/null --block 32 2>"$tmp/probe"
if [ $? -eq 1 ] && grep -q "built without libclang" "$tmp/probe"; then
    echo "SKIP: built without libclang"
    exit 77
fi
pass=0
fail=0
ok() { pass=$((pass + 1)); }
bad() { echo "FAIL: $*"; fail=$((fail + 1)); }
# The analysed instructions and the summary, without names or labels.
results() { "$bin" analyze "$1" --json | grep -E '^ *\{"seq"|"summary"'; }

for cu in "$dir"/*.cu; do
    name=$(basename "$cu" .cu)
    # shellcheck disable=SC2046
    (cd "$dir" && "$bin" import "$name.cu" $(cat "$name.args") -o "$tmp/$name.json") 2>"$tmp/$name.err"
    rc=$?
    [ $rc -eq 0 ] || { bad "$name: import exit $rc: $(cat "$tmp/$name.err")"; continue; }
    results "$tmp/$name.json" >"$tmp/$name.got" || { bad "$name: analyze of the import failed"; continue; }
    results "$dir/$name.json" >"$tmp/$name.want" || { bad "$name: analyze of the hand-written scenario failed"; continue; }
    if [ -s "$tmp/$name.want" ] && cmp -s "$tmp/$name.got" "$tmp/$name.want"; then ok; else
        bad "$name: imported and hand-written results differ"
        diff "$tmp/$name.want" "$tmp/$name.got" | head -5 | cut -c1-200
    fi
    # every imported access keeps its source position as its label (in NAME.cuh for a kernel that
    # NAME.cu includes)
    grep -q "\"label\": \"$name.cuh*:[0-9]*:[0-9]*\", \"source\": \"" "$tmp/$name.json" && ok || bad "$name: no file:line:col label and source line"
done

grep -q '"source": "out\[y \* n + x\] = tile\[threadIdx.x\]\[threadIdx.y\];"' "$tmp/transpose-naive.json" && ok || bad "transpose-naive: source line"

# Kernels in an extern "C" block are found too (libclang names the block an unexposed declaration).
(cd "$dir" && "$bin" import extern-c.cu --block 64) 2>"$tmp/ec.err" >/dev/null
grep -q '^extern-c.cu: 2 kernels (reverse, stride2): choose one with --kernel NAME' "$tmp/ec.err" && ok || bad "extern C block: $(cat "$tmp/ec.err")"

# A shared address handed to a function bankscope has no body of is listed as a use, never
# dropped; inline PTX whose address is not a shared array's start plus bytes is listed too.
printf '__device__ void keep(float *);\n__global__ void k(const float *g, float *o)\n{\n    __shared__ float s[256];\n    keep(&s[threadIdx.x]);\n    unsigned a = (unsigned)__cvta_generic_to_shared(&s[threadIdx.x * 4]);\n    asm volatile("st.shared.f32 [%%0], %%1;" ::"r"(a * 2), "f"(1.0f));\n    o[threadIdx.x] = s[threadIdx.x];\n}\n' >"$tmp/cv.cu"
(cd "$tmp" && "$bin" import cv.cu --block 64 -o cv.json) 2>"$tmp/cv.err"
grep -q "^cv.cu:5:5: skipped use of 's': its address is handed to 'keep', which bankscope does not follow" "$tmp/cv.err" &&
    grep -q "^cv.cu:7:5: skipped store of 'shared memory': inline PTX whose address is not the start of a shared array plus an offset" "$tmp/cv.err" &&
    [ "$(grep -c '"op"' "$tmp/cv.json")" -eq 1 ] && ok || bad "shared address handed on: $(cat "$tmp/cv.err")"
# ...but the value of a shared scalar handed to one is a plain load: nothing listed.
(cd "$dir" && "$bin" import scalar-value-call.cu --block 64 -o "$tmp/svc.json") 2>"$tmp/svc.err"
grep -q "skipped" "$tmp/svc.err" && bad "shared scalar value handed to __expf: $(cat "$tmp/svc.err")" || ok
# A shared access through an address the walk cannot follow is listed, never lost; references to
# a pointer or an array into one are followed.
printf '__device__ void fill(float *const &r) { r[threadIdx.x] = 2.0f; }\n__device__ void fill2(float (&r)[64]) { r[threadIdx.x] = 3.0f; }\n__global__ void k(float *o, float *g, float *h)\n{\n    __shared__ float s[64];\n    __shared__ int f;\n    (threadIdx.x & 1 ? s : s + 32)[threadIdx.x / 2] = 1.0f;\n    (f ? g : h)[threadIdx.x] = 2.0f;\n    fill(s);\n    fill2(s);\n    o[threadIdx.x] = s[threadIdx.x];\n}\n' >"$tmp/sn.cu"
(cd "$tmp" && "$bin" import sn.cu --block 64 -o sn.json) 2>"$tmp/sn.err"
grep -q "^sn.cu:7:5: skipped store of 's': an address into a shared array made in a way bankscope cannot follow" "$tmp/sn.err" &&
    [ "$(grep -c skipped "$tmp/sn.err")" -eq 1 ] && [ "$(grep -c '"op": "store", "array": "s"' "$tmp/sn.json")" -eq 2 ] &&
    ok || bad "shared address not followed, references: $(cat "$tmp/sn.err")"
printf '__global__ void k(float *o)\n{\n    __shared__ float s[64];\n    float x;\n    asm volatile("ld.volatile.f32 %%0, [%%1];" : "=f"(x) : "l"(&s[threadIdx.x]));\n    o[threadIdx.x] = x + s[0];\n}\n' >"$tmp/gp.cu"
(cd "$tmp" && "$bin" import gp.cu --block 32 -o gp.json) 2>"$tmp/gp.err"
grep -q "^gp.cu:5:5: skipped use of 's': a pointer into it is handed to inline PTX" "$tmp/gp.err" && ok ||
    bad "generic shared pointer in inline PTX: $(cat "$tmp/gp.err")"

# a '!=' bound that a halving variable reaches from below (a negative start) is not counted as
# its '>' (which would run no iteration): the loop's accesses are listed
printf '__global__ void k(float *o, int m)\n{\n    __shared__ float s[64];\n    int i = -m;\n    while (i != 0) {\n        s[threadIdx.x - i] = 1;\n        i /= 2;\n    }\n}\n' >"$tmp/ng.cu"
(cd "$tmp" && "$bin" import ng.cu --block 32 -D m=8 -o ng.json) 2>"$tmp/ng.err"
grep -q "^ng.cu:6:9: skipped store of 's': 'i' is changed at 7:9" "$tmp/ng.err" && ok || bad "negative halving: $(cat "$tmp/ng.err")"

# The label reaches the SVG too.
"$bin" export "$tmp/transpose-naive.json" --svg "$tmp/t.svg" --access 1 2>/dev/null
grep -q '(transpose-naive.cu:13:22)' "$tmp/t.svg" && ok || bad "svg: no source position"

# What is skipped is said, with its position and reason.
(cd "$dir" && "$bin" import histogram.cu --block 256) 2>"$tmp/h.err" >/dev/null
grep -q '^histogram.cu:10:9: skipped atomic of .hist.: depends on data' "$tmp/h.err" && ok || bad "histogram: skip message: $(cat "$tmp/h.err")"
# A bin read from a texture depends on data.
printf '__global__ void k(cudaTextureObject_t t, int *o)\n{\n    __shared__ int h[256];\n    h[threadIdx.x] = 0;\n    __syncthreads();\n    unsigned char v = tex2D<unsigned char>(t, threadIdx.x, 0);\n    atomicAdd(&h[v], 1);\n    o[threadIdx.x] = h[threadIdx.x];\n}\n' >"$tmp/tx.cu"
(cd "$tmp" && "$bin" import tx.cu --block 256 -o tx.json) 2>"$tmp/tx.err"
grep -q "^tx.cu:7:5: skipped atomic of 'h': depends on data: reads memory through 'tex2D'" "$tmp/tx.err" && ok ||
    bad "texture read: $(cat "$tmp/tx.err")"

# A for loop that declares several variables is counted on the one its condition compares; the
# others are changed by the loop. Without the kernel parameter that decides its bound, what the
# loop holds is listed naming it, and a note says once which -D settles it.
printf '__global__ void k(float *o, int n)\n{\n    __shared__ float s[64];\n    for (int a = 0, b = 1; a < n; a += 32, b += 2) {\n        s[threadIdx.x + a %% 32] = 1;\n        s[b %% 64] = 2;\n    }\n    o[0] = s[threadIdx.x];\n}\n' >"$tmp/sv.cu"
(cd "$tmp" && "$bin" import sv.cu --block 32 -D n=64 -o sv.json) 2>"$tmp/sv.err"
rc=$?
[ $rc -eq 0 ] && grep -q "^sv.cu:6:9: skipped store of 's': 'b' is changed by the increment of the loop at 4:5" "$tmp/sv.err" &&
    [ "$(grep -c '"op"' "$tmp/sv.json")" -eq 2 ] && grep -q '"var": "a", "from": 0, "to": 64, "step": 32' "$tmp/sv.json" &&
    ok || bad "several loop variables: exit $rc: $(cat "$tmp/sv.err")"
(cd "$tmp" && "$bin" import sv.cu --block 32 -o sv2.json) 2>"$tmp/sv2.err"
[ "$(grep -c "skipped store of 's': .*depends on the kernel parameter 'n' (give -D n=VALUE)" "$tmp/sv2.err")" -eq 2 ] &&
    [ "$(grep -c "^sv.cu: note: .* wait" "$tmp/sv2.err")" -eq 1 ] &&
    grep -q "^sv.cu: note: 2 listed accesses wait on 'n', which the file does not give: give -D n=VALUE" "$tmp/sv2.err" &&
    ok || bad "several loop variables, n unknown: $(cat "$tmp/sv2.err")"

# A flag a loop with an unknown bound changes (Rodinia hotspot's 'computed'): an access under it
# names the loop and the parameter that decides it.
printf '__global__ void k(float *o, int n)\n{\n    __shared__ float s[64];\n    bool done = false;\n    for (int i = 0; i < n; i++) {\n        done = false;\n        if (threadIdx.x < i)\n            done = true;\n    }\n    if (done)\n        o[0] = s[threadIdx.x];\n}\n' >"$tmp/fl.cu"
(cd "$tmp" && "$bin" import fl.cu --block 32 -o fl.json) 2>"$tmp/fl.err"
grep -q "^fl.cu:11:16: skipped load of 's': under the condition at 10:9, which cannot be expressed: 'done' is changed at 6:9, inside the loop at 5:5, whose iterations are not counted: .*'n' (give -D n=VALUE)" "$tmp/fl.err" &&
    grep -q "^fl.cu: note: 1 listed access waits on 'n'" "$tmp/fl.err" && ok || bad "flag after a loop: $(cat "$tmp/fl.err")"

# A return under a condition on the grid's size: what follows it is listed with that condition's
# reason, naming gridDim.x and the -D that settles it; with it, everything imports.
printf '__global__ void k(float *o)\n{\n    __shared__ float s[40];\n    int i = threadIdx.x + blockDim.x * blockIdx.x;\n    s[threadIdx.x] = 1;\n    if (i >= gridDim.x * blockDim.x - 4)\n        return;\n    o[i] = s[threadIdx.x + 1];\n}\n' >"$tmp/rg.cu"
(cd "$tmp" && "$bin" import rg.cu --block 32 -o rg.json) 2>"$tmp/rg.err"
grep -q "^rg.cu:8:12: skipped load of 's': after the return at 7:9, under the condition at 6:9, which cannot be expressed: .*gridDim.x.*(give -D gridDim.x=N)" "$tmp/rg.err" &&
    ok || bad "return under a grid condition: $(cat "$tmp/rg.err")"
(cd "$tmp" && "$bin" import rg.cu --block 32 -D gridDim.x=4 -o rg2.json) 2>"$tmp/rg2.err"
[ "$(grep -c '"op"' "$tmp/rg2.json")" -eq 2 ] && ok || bad "return under a grid condition, -D gridDim.x: $(cat "$tmp/rg2.err")"

# A loop left by a break is listed with the break's position; a recursive function's accesses are
# listed, never inlined one level; an index that reads memory says record captures it.
(cd "$dir" && "$bin" import loop-continue.cu --block 32) 2>"$tmp/lc.err" >/dev/null
grep -q "^loop-continue.cu:14:9: skipped store of 't': .*left early.*(the break at 13:13)" "$tmp/lc.err" && ok ||
    bad "loop with break: $(cat "$tmp/lc.err")"
printf '__device__ float f(float *t, int n)\n{\n    if (n <= 0)\n        return t[threadIdx.x];\n    return t[threadIdx.x * 2] + f(t, n - 1);\n}\n__global__ void k(float *o)\n{\n    __shared__ float t[64];\n    t[threadIdx.x] = 1;\n    o[threadIdx.x] = f(t, 3);\n}\n' >"$tmp/rec.cu"
(cd "$tmp" && "$bin" import rec.cu --block 32 -o rec.json) 2>"$tmp/rec.err"
rc=$?
[ $rc -eq 0 ] && grep -q "^rec.cu:4:16: skipped load of 't': in the recursive function 'f'" "$tmp/rec.err" &&
    grep -q "^rec.cu:5:12: skipped load of 't': in the recursive function 'f'" "$tmp/rec.err" &&
    [ "$(grep -c '"op"' "$tmp/rec.json")" -eq 1 ] && ok || bad "recursion: exit $rc: $(cat "$tmp/rec.err")"

# A loop analysed for its first iteration lists what uses its variable, with the loop's reason
# (a count read from memory does not make the index depend on data); the branch a uniform
# condition does not take is listed; a member of a value read from memory depends on data.
(cd "$dir" && "$bin" import loop-first-iteration.cu --block 128) 2>"$tmp/fi.err" >/dev/null
grep "^loop-first-iteration.cu:25:9: skipped store of 'tile': 'k' is changed .* whose iterations are not counted" "$tmp/fi.err" |
    grep -qv "depends on data" && ok || bad "first iteration: $(cat "$tmp/fi.err")"
(cd "$dir" && "$bin" import uniform-if.cu --block 64) 2>"$tmp/ui.err" >/dev/null
grep -q "^uniform-if.cu:14:28: skipped load of 's': under the condition at 11:9, which the analysis takes as true" "$tmp/ui.err" &&
    grep -q "^uniform-if.cu:7:5: note: .*takes it as false" "$tmp/ui.err" && ok || bad "uniform if: $(cat "$tmp/ui.err")"
printf 'struct P {\n    int x, y;\n};\n__global__ void k(const P *p)\n{\n    __shared__ float s[64];\n    P v = p[threadIdx.x];\n    s[v.x] = 1;\n}\n' >"$tmp/dm.cu"
(cd "$tmp" && "$bin" import dm.cu --block 32) 2>"$tmp/dm.err" >/dev/null
grep -q "^dm.cu:8:5: skipped store of 's': depends on data" "$tmp/dm.err" && ok || bad "member of data: $(cat "$tmp/dm.err")"

# Loops past the scenario's limits: the one whose variable the fewest accesses use is left out;
# the accesses that use it are analysed at its first iteration, with a note naming the loop.
printf '__global__ void k(float *o)\n{\n    __shared__ float s[256];\n    for (int a = 0; a < 64; a++) {\n        s[threadIdx.x + a] = 1;\n        s[threadIdx.x * 2 + a] = 2;\n    }\n    for (int b = 0; b < 64; b++)\n        o[b] = s[b];\n    for (int c = 0; c < 64; c++)\n        s[c] = s[c + 1] + s[c + 2];\n}\n' >"$tmp/lc3.cu"
(cd "$tmp" && "$bin" import lc3.cu --block 32 -o lc3.json) 2>"$tmp/lc3.err"
[ "$(grep -c 'skipped' "$tmp/lc3.err")" -eq 0 ] && [ "$(grep -c '"op"' "$tmp/lc3.json")" -eq 6 ] &&
    grep -q "^lc3.cu:8: note: the loop over 'b' is left out of the scenario's loop nest .*at its first iteration where they use it ('b' = 0; choose the loop with --loop 8)" "$tmp/lc3.err" &&
    grep -q '"index": \["0"\]' "$tmp/lc3.json" && ok || bad "loop left out: $(cat "$tmp/lc3.err")"

# In a loop analysed for its first iteration, a variable that a condition reading memory changes
# depends on data (a binary search's position).
printf '__device__ int search(const int *data, int val, int stride)\n{\n    int pos = 0;\n    for (; stride > 0; stride >>= 1) {\n        int np = pos + stride;\n        if (data[np - 1] <= val)\n            pos = np;\n    }\n    return pos;\n}\n__global__ void k(int *out)\n{\n    __shared__ int s[64];\n    out[threadIdx.x] = search(s, threadIdx.x, threadIdx.x %% 4 + 1);\n}\n' >"$tmp/bs.cu"
(cd "$tmp" && "$bin" import bs.cu --block 32 -o bs.json) 2>"$tmp/bs.err"
grep -q "^bs.cu:6:13: skipped load of 's': depends on data" "$tmp/bs.err" && ok || bad "binary search: $(cat "$tmp/bs.err")"

# In a counted loop, a variable changed under a condition that reads memory depends on data.
printf '__global__ void k(const int *d, int v)\n{\n    __shared__ int s[64];\n    int pos = 0;\n    for (int st = 16; st > 0; st >>= 1) {\n        if (d[pos + st] <= v)\n            pos += st;\n        s[pos] = 1;\n    }\n}\n' >"$tmp/cd.cu"
(cd "$tmp" && "$bin" import cd.cu --block 32 -o cd.json) 2>"$tmp/cd.err"
grep -q "^cd.cu:8:9: skipped store of 's': depends on data" "$tmp/cd.err" && ok || bad "counted loop, data: $(cat "$tmp/cd.err")"

# Loops that cannot be counted, three deep: a variable the innermost sets back each iteration is
# known in all of them.
printf '__global__ void k(const int *c)\n{\n    __shared__ float s[64];\n    int w = threadIdx.x;\n    for (int a = 0; a < c[0]; a++)\n        for (int b = 0; b < c[1]; b++)\n            for (int d = 0; d < c[2]; d++) {\n                s[w] = 1;\n                w = threadIdx.x;\n            }\n}\n' >"$tmp/n3.cu"
(cd "$tmp" && "$bin" import n3.cu --block 32 -o n3.json) 2>"$tmp/n3.err"
grep -q '"index": \["threadIdx.x"\], "label": "n3.cu:8:17"' "$tmp/n3.json" && ! grep -q ': skipped ' "$tmp/n3.err" && ok ||
    bad "nested first iterations: $(cat "$tmp/n3.err")"

# A variable a loop gives back only at its first iteration's values (x + k with k 0) changes.
printf '__global__ void k(const int *c)\n{\n    __shared__ float s[256];\n    int x = threadIdx.x;\n    for (int k = 0; k < c[0]; k++) {\n        s[x] = 1;\n        x = x + k;\n    }\n}\n' >"$tmp/inv.cu"
(cd "$tmp" && "$bin" import inv.cu --block 32 -o inv.json) 2>"$tmp/inv.err"
grep -q "^inv.cu:6:9: skipped store of 's': 'x' is changed at 7:9" "$tmp/inv.err" && ok || bad "not kept: $(cat "$tmp/inv.err")"

# A do-while loop runs its first iteration for every lane that reaches it.
printf '__global__ void k(const int *c)\n{\n    __shared__ float s[64];\n    int i = 0;\n    do {\n        s[threadIdx.x] = 1;\n        i += 32;\n    } while (c[i] > 0);\n}\n' >"$tmp/dw.cu"
(cd "$tmp" && "$bin" import dw.cu --block 32 -o dw.json) 2>"$tmp/dw.err"
grep -q '"index": \["threadIdx.x"\], "label": "dw.cu:6:9"' "$tmp/dw.json" && grep -q "^dw.cu:5:5: note: the do-while loop" "$tmp/dw.err" &&
    ok || bad "do-while: $(cat "$tmp/dw.err")"

# A skipped struct copy is listed once per piece nvcc copies it in (four doubles: four lines).
printf 'typedef struct {\n    double v, x, y, z;\n} V;\n__global__ void k(const V *p, const int *f)\n{\n    __shared__ V s[32];\n    if (f[threadIdx.x])\n        s[threadIdx.x] = p[threadIdx.x];\n}\n' >"$tmp/sc.cu"
(cd "$tmp" && "$bin" import sc.cu --block 32 -o sc.json) 2>"$tmp/sc.err"
[ "$(grep -c "^sc.cu:8:9: skipped store of 's\.[vxyz]': .*depends on data" "$tmp/sc.err")" -eq 4 ] && ok ||
    bad "skipped struct copy: $(cat "$tmp/sc.err")"
grep -q "depends on data: .*(bankscope record captures it)" "$tmp/h.err" && ok || bad "data dependence: $(cat "$tmp/h.err")"
(cd "$dir" && "$bin" import reference-param.cu --block 64) 2>"$tmp/rp.err" >/dev/null
grep -q "^reference-param.cu:8:9: skipped store of 'key': .*depends on data: reads shared memory through the reference 'a'" "$tmp/rp.err" &&
    ok || bad "reference parameter: $(cat "$tmp/rp.err")"
(cd "$dir" && "$bin" import template-call.cu --block 64 -D S=1) 2>"$tmp/tc.err" >/dev/null
grep -q "^template-call.cu: note: blockIdx.x is taken as 0" "$tmp/tc.err" && [ "$(wc -l <"$tmp/tc.err")" -eq 1 ] &&
    ok || bad "blockIdx note: $(cat "$tmp/tc.err")"
(cd "$dir" && "$bin" import launch-values.cu --block 128) 2>"$tmp/lv.err" >/dev/null
grep -q "^launch-values.cu:13:5: note: template parameter 'BS' is 128, as the kernel is launched here" "$tmp/lv.err" &&
    ok || bad "launch values: $(cat "$tmp/lv.err")"

# explicit instantiations (not seen as cursors by libclang) give template values no launch gives:
# the first wins, the others are named; a launch wins over them
(cd "$dir" && "$bin" import explicit-instantiation.cu --block 32) 2>"$tmp/ei.err" >/dev/null
grep -q "^explicit-instantiation.cu:11:1: note: template parameter 'N' is 32, from the explicit instantiation here; others give 33 at line 12 (-D N=VALUE chooses)$" "$tmp/ei.err" &&
    [ "$(wc -l <"$tmp/ei.err")" -eq 1 ] && ok || bad "explicit instantiation: $(cat "$tmp/ei.err")"
printf 'template <int N> __global__ void k(float *o)\n{\n    __shared__ float s[N];\n    s[threadIdx.x] = 1;\n}\ntemplate __global__ void k<32>(float *);\nvoid run(float *o) { k<64><<<1, 32>>>(o); }\n' >"$tmp/instlaunch.cu"
(cd "$tmp" && "$bin" import instlaunch.cu --block 32) 2>"$tmp/err" | grep -q '"dims": \[64\]' &&
    grep -q "^instlaunch.cu:7:22: note: template parameter 'N' is 64, as the kernel is launched here" "$tmp/err" && ok ||
    bad "launch over instantiation: $(cat "$tmp/err")"

# without --block, the block of the kernel's launch (constant arguments) is used, with a note;
# --block given wins; a block the launch does not give as constants keeps the request for --block
(cd "$dir" && "$bin" import launch-block.cu) 2>"$tmp/lb.err" >/dev/null
grep -q "^launch-block.cu:14:5: note: block 32,8 from the launch here (no --block given)$" "$tmp/lb.err" &&
    [ "$(wc -l <"$tmp/lb.err")" -eq 1 ] && ok || bad "block from the launch: $(cat "$tmp/lb.err")"
(cd "$dir" && "$bin" import launch-block.cu --block 64) 2>"$tmp/lb.err" | grep -q '"block": \[64, 1, 1\]' &&
    [ ! -s "$tmp/lb.err" ] && ok || bad "--block over the launch: $(cat "$tmp/lb.err")"
printf 'template <int BS> __global__ void kk(float *o)\n{\n    __shared__ float s[BS];\n    s[threadIdx.x] = 1;\n}\nvoid run(float *o)\n{\n    kk<256><<<1, 256>>>(o);\n    kk<256><<<1, 128>>>(o);\n}\n' >"$tmp/lb2.cu"
(cd "$tmp" && "$bin" import lb2.cu) 2>"$tmp/lb.err" | grep -q '"block": \[256, 1, 1\]' &&
    grep -q "^lb2.cu:8:5: note: block 256 from the launch here (no --block given); other launches: 128 at line 9 (--block chooses)$" "$tmp/lb.err" &&
    ok || bad "launches with different blocks: $(cat "$tmp/lb.err")"

# a loop bound that is not known names the variable and the -D that gives it
printf '__global__ void k(float *o, int n)\n{\n    __shared__ float s[256];\n    for (int i = 0; i < n; i++)\n        s[threadIdx.x + i] = 1;\n}\n' >"$tmp/bound.cu"
(cd "$tmp" && "$bin" import bound.cu --block 32) >/dev/null 2>"$tmp/err"
grep -q "^bound.cu:5:9: skipped store of 's': .*its bound .*kernel parameter 'n' (give -D n=VALUE)" "$tmp/err" &&
    (cd "$tmp" && "$bin" import bound.cu --block 32 -D n=64) 2>/dev/null | grep -q '"loop"' && ok ||
    bad "unknown bound: $(cat "$tmp/err")"

# The CUDA samples' matrixMul without -D wA: the loop's two induction variables start from and
# run to values of wA, the same for every thread, so its first iteration is analysed for every
# lane and all four accesses import (they used to be listed, nothing imported).
cat >"$tmp/mmu.cu" <<'CU'
#define BLOCK_SIZE 32
__global__ void mm(float *C, float *A, float *B, int wA, int wB)
{
    int bx = blockIdx.x, by = blockIdx.y, tx = threadIdx.x, ty = threadIdx.y;
    int aBegin = wA * BLOCK_SIZE * by;
    int aEnd = aBegin + wA - 1;
    int aStep = BLOCK_SIZE;
    int bBegin = BLOCK_SIZE * bx;
    int bStep = BLOCK_SIZE * wB;
    float Csub = 0;
    for (int a = aBegin, b = bBegin; a <= aEnd; a += aStep, b += bStep) {
        __shared__ float As[BLOCK_SIZE][BLOCK_SIZE];
        __shared__ float Bs[BLOCK_SIZE][BLOCK_SIZE];
        As[ty][tx] = A[a + wA * ty + tx];
        Bs[ty][tx] = B[b + wB * ty + tx];
        __syncthreads();
        for (int k = 0; k < BLOCK_SIZE; ++k)
            Csub += As[ty][k] * Bs[k][tx];
        __syncthreads();
    }
    C[wB * BLOCK_SIZE * by + BLOCK_SIZE * bx + wB * ty + tx] = Csub;
}
CU
(cd "$tmp" && "$bin" import mmu.cu --block 32,32 -o mmu.json) 2>"$tmp/mmu.err"
rc=$?
[ $rc -eq 0 ] && [ "$(grep -c '"op"' "$tmp/mmu.json")" -eq 4 ] && ! grep -q ': skipped ' "$tmp/mmu.err" &&
    grep -q "^mmu.cu:11:5: note: the loop is not a simple counted loop (.*kernel parameter 'wA'" "$tmp/mmu.err" && ok ||
    bad "matrixMul without -D wA: exit $rc: $(cat "$tmp/mmu.err")"

# An error in the kernel lists every access (those the parser kept with their op, the uses in
# what it dropped as uses), never none.
printf '__global__ void k(float *o)\n{\n    __shared__ float t[64];\n    t[threadIdx.x] = 1;\n    undeclared_fn(3);\n    o[0] = t[threadIdx.x ^ 1] + t[o[1]];\n}\n' >"$tmp/broken.cu"
(cd "$tmp" && "$bin" import broken.cu --block 32 -o broken.json) 2>"$tmp/br.err"
rc=$?
[ $rc -eq 2 ] && grep -q "^broken.cu:5:5: error: use of undeclared identifier 'undeclared_fn'" "$tmp/br.err" &&
    grep -q "^broken.cu:4:5: skipped store of 't': not imported: the kernel does not parse (the error at 5:5)" "$tmp/br.err" &&
    grep -q "^broken.cu:6:12: skipped use of 't': not imported: in code that does not parse (the error at 5:5)" "$tmp/br.err" &&
    grep -q "^broken.cu:6:33: skipped use of 't'" "$tmp/br.err" && ok || bad "error in a kernel: exit $rc: $(cat "$tmp/br.err")"

# Hostile sources: exit 2 with a message naming the place.
expect2() {  # expect2 NAME PATTERN FILE ARGS...
    n=$1 pat=$2
    shift 2
    (cd "$tmp" && "$bin" import "$@") >/dev/null 2>"$tmp/err"
    rc=$?
    if [ $rc -eq 2 ] && grep -qE "$pat" "$tmp/err"; then ok; else bad "$n: exit $rc, stderr: $(head -3 "$tmp/err")"; fi
}
printf '__global__ void k() {\n  __shared__ float t[32];\n  t[threadIdx.x] = 1.0f\n}\n' >"$tmp/syntax.cu"
expect2 syntax-error '^syntax.cu:3:24: error: ' syntax.cu --block 32
# a missing include is a note: the file is parsed without it
printf '#include "nothere.h"\n#include <cooperative_groups.h>\n#include <cublas_v2.h>\n#include <mma.h>\n#include <cuda_profiler_api.h>\n#include <math.h>\nnamespace cg = cooperative_groups;\n__global__ void k(float *o) {\n  __shared__ float s[64];\n  cg::thread_block b = cg::this_thread_block();\n  s[threadIdx.x] = -INFINITY + __powf(2.0f, 1.0f);\n  cg::sync(b);\n  atomicAdd(&s[threadIdx.x + 1], 1);\n  o[0] = __ldcs(o + 1) + NAN;\n}\nvoid host(void) { cublasHandle_t h; cublasCreate(&h); undeclared_host_call(); }\n' >"$tmp/include.cu"
(cd "$tmp" && "$bin" import include.cu --block 32 -o include.json) >/dev/null 2>"$tmp/err"
rc=$?
[ $rc -eq 0 ] && grep -q "^include.cu:1:10: note: 'nothere.h' not found: parsed without it" "$tmp/err" &&
    grep -q "^include.cu:16:.*(outside the kernel: ignored)" "$tmp/err" && [ "$(grep -c '"op"' "$tmp/include.json")" -eq 2 ] &&
    ok || bad "missing include and stand-in headers: exit $rc: $(head -3 "$tmp/err")"
printf '#include "nothere.h"\n__global__ void k() {}\n' >"$tmp/include2.cu"
expect2 missing-include-no-array "^include2.cu:1:10: note: 'nothere.h' not found" include2.cu --block 32
{ echo '#define X0 x'; i=1; while [ $i -le 40 ]; do echo "#define X$i X$((i - 1)) X$((i - 1))"; i=$((i + 1)); done
  echo '__global__ void k() { __shared__ int x[32]; int v[] = {X40}; x[threadIdx.x] = v[0]; }'; } >"$tmp/macro.cu"
expect2 macro-explosion 'macro.cu: parsing took longer than 3 s|macro.cu: the parser stopped|error' macro.cu --block 32 --timeout 3
printf '#define X X + 1\n__global__ void k() { __shared__ int s[32]; s[threadIdx.x] = X; }\n' >"$tmp/selfmacro.cu"
expect2 self-referencing-macro '^selfmacro.cu:2:[0-9]+: error: ' selfmacro.cu --block 32
head -c 5000000 /dev/zero | tr '\0' ' ' >"$tmp/huge.cu"
expect2 huge-file 'huge.cu: 5000000 bytes: larger than' huge.cu --block 32
printf '__global__ void k(float *o) { o[threadIdx.x] = 1.0f; }\n' >"$tmp/noshared.cu"
expect2 no-shared-array 'has no __shared__ array' noshared.cu --block 32
printf '__global__ void k(const int *in) { __shared__ int s[32]; s[in[threadIdx.x]] = 1; }\n' >"$tmp/datadep.cu"
expect2 nothing-importable 'datadep.cu:1:[0-9]+: skipped store of .s.: depends on data.*|no shared-memory access' datadep.cu --block 32
expect2 no-block 'give the block shape' syntax.cu
printf '__global__ void k(float *o, int n)\n{\n    __shared__ float s[64];\n    s[threadIdx.x] = 1;\n}\nvoid r(float *o, int n) { k<<<1, n>>>(o, n); }\n' >"$tmp/nb.cu"
expect2 block-not-constant 'give the block shape with --block' nb.cu
# a --loop line past the end of the file is refused, not ignored
expect2 loop-past-end '^bankscope: --loop 99: bound.cu has 6 lines$' bound.cu --block 32 --loop 99
# an error in the host code around the kernel is noted, not fatal
printf '__global__ void k() { __shared__ int s[32]; s[threadIdx.x] = 1; }\nint main(void) { launch_it(); }\n' >"$tmp/host.cu"
(cd "$tmp" && "$bin" import host.cu --block 32) >/dev/null 2>"$tmp/err"
rc=$?
[ $rc -eq 0 ] && grep -q "^host.cu:2:18: error: .*(outside the kernel: ignored)" "$tmp/err" && ok || bad "host error: exit $rc: $(head -2 "$tmp/err")"
# `bankscope FILE.cu` imports before it opens the view: bad input never reaches the terminal
(cd "$tmp" && "$bin" syntax.cu --block 32 </dev/null) >/dev/null 2>"$tmp/err"
rc=$?
[ $rc -eq 2 ] && grep -q '^syntax.cu:3:24: error: ' "$tmp/err" && ok || bad "view of a bad .cu: exit $rc: $(head -2 "$tmp/err")"
expect2 missing-file 'nosuch.cu: No such file' nosuch.cu --block 32
# a refusal of the imported scenario names the place in the .cu (the array's declaration), never
# a position in the generated JSON
printf '__global__ void k() { __shared__ float t[100000]; t[threadIdx.x] = 1; }\n' >"$tmp/big.cu"
expect2 refused-scenario '^big.cu:1:23: the imported scenario is refused: arrays\[0\]\.dims: array needs 400000 bytes' big.cu --block 32
[ "$(grep -c '^big.cu:' "$tmp/err")" -eq 1 ] && ok || bad "refused scenario: another position: $(cat "$tmp/err")"
# a struct or loop the model refuses is named at the array that holds it, at the loop
printf 'struct S { float __x; float y; };\n__global__ void k()\n{\n    __shared__ S t[64];\n    t[threadIdx.x].y = 1;\n}\n' >"$tmp/rs.cu"
expect2 refused-struct '^rs.cu:4:5: the imported scenario is refused: structs\[0\]\.fields\[0\]: reserved in CUDA code' rs.cu --block 32
v=iiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiii
printf '__global__ void k()\n{\n    __shared__ float t[64];\n    for (int %s = 0; %s < 4; %s++)\n        t[threadIdx.x + %s] = 1;\n}\n' $v $v $v $v >"$tmp/longvar.cu"
expect2 refused-loop '^longvar.cu:4:5: the imported scenario is refused: loops\[0\]\.var: ' longvar.cu --block 32
# a limit of the file format (loop bounds within 2^40) is checked too, and named at the loop
printf '__global__ void k()\n{\n    __shared__ float t[64];\n    for (long long i = 0; i < (1LL << 41); i += (1LL << 40))\n        t[threadIdx.x + (i >> 40)] = 1;\n}\n' >"$tmp/bigloop.cu"
expect2 refused-loop-bound '^bigloop.cu:4:5: the imported scenario is refused: loop.to: out of range' bigloop.cu --block 32
# a value that doubles its own text 40 times is refused as too long at once, not after the
# parser child has run out of memory
{ printf '__global__ void k()\n{\n    __shared__ float t[64];\n    int i = threadIdx.x;\n'
  i=0; while [ $i -lt 40 ]; do echo '    i = i + (i >> 1);'; i=$((i + 1)); done
  printf '    t[i & 63] = 1;\n}\n'; } >"$tmp/blow.cu"
expect2 shared-tree "^blow.cu:45:5: skipped store of 't': expression longer than 4096 characters" blow.cu --block 32 --timeout 20
# a loop variable that is a word of expressions (swizzle) is renamed, as tx or lane are
printf '__global__ void k()\n{\n    __shared__ float t[64];\n    for (int swizzle = 0; swizzle < 4; swizzle++)\n        t[threadIdx.x + swizzle] = 1;\n}\n' >"$tmp/sw.cu"
(cd "$tmp" && "$bin" import sw.cu --block 32 -o sw.json) >/dev/null 2>"$tmp/err"
rc=$?
[ $rc -eq 0 ] && grep -q '"index": \["threadIdx.x + loop_var"\]' "$tmp/sw.json" && ok || bad "loop named swizzle: exit $rc: $(cat "$tmp/err")"
# past a scenario's 64 arrays, the others and their accesses are listed, the rest imported
{ printf '__global__ void k()\n{\n'
  i=0; while [ $i -le 64 ]; do echo "    __shared__ float a$i[32];"; i=$((i + 1)); done
  i=0; while [ $i -le 64 ]; do echo "    a$i[threadIdx.x] = 1;"; i=$((i + 1)); done
  printf '}\n'; } >"$tmp/many.cu"
(cd "$tmp" && "$bin" import many.cu --block 32 -o many.json) >/dev/null 2>"$tmp/err"
rc=$?
[ $rc -eq 0 ] && [ "$(grep -c '"op"' "$tmp/many.json")" -eq 64 ] &&
    grep -q "^many.cu:67:5: skipped the array 'a64': more than 64 arrays" "$tmp/err" &&
    grep -q "^many.cu:132:5: skipped store of 'a64': its array is left out" "$tmp/err" && ok ||
    bad "more than 64 arrays: exit $rc: $(cat "$tmp/err")"
# an access the model refuses (here its index divides by zero) is listed at its place in the .cu,
# in line order among the walker's own skipped accesses, and the others are imported
printf '__global__ void k(const int *in)\n{\n    __shared__ int t[64];\n    t[threadIdx.x] = 1;\n    t[32 / (threadIdx.x - threadIdx.x)] = 2;\n    t[in[threadIdx.x]] = 3;\n}\n' >"$tmp/refuse.cu"
(cd "$tmp" && "$bin" import refuse.cu --block 32 -o refuse.json) >/dev/null 2>"$tmp/err"
rc=$?
[ $rc -eq 0 ] && [ "$(grep -c '"op"' "$tmp/refuse.json")" -eq 1 ] &&
    [ "$(sed -n 1p "$tmp/err")" = "refuse.cu:5:5: skipped store of 't': division by zero for thread (0,0,0)" ] &&
    sed -n 2p "$tmp/err" | grep -q "^refuse.cu:6:5: skipped store of 't': depends on data" && ok ||
    bad "access refused by the model: exit $rc: $(cat "$tmp/err")"
# the view's options may come before the source, as before a scenario: the import runs, then the
# view (here without a terminal) says what it needs
(cd "$dir" && "$bin" --no-gpu transpose-naive.cu --block 32,32 -o "$tmp/first.json" </dev/null) >/dev/null 2>"$tmp/err"
rc=$?
[ $rc -eq 2 ] && grep -q 'needs a terminal' "$tmp/err" && [ -s "$tmp/first.json" ] && ok ||
    bad "options before the source: exit $rc: $(head -2 "$tmp/err")"

# a pointer into a shared array that cannot be followed (a ?: of two) is still one: what the
# callee does through it is listed, never dropped
printf '__device__ void put(float *t, int i) { t[i] = 1.0f; }\n__global__ void k(float *o)\n{\n    __shared__ float s[128];\n    put(threadIdx.x < 16 ? s : s + 64, threadIdx.x);\n    o[0] = s[threadIdx.x];\n}\n' >"$tmp/pq.cu"
(cd "$tmp" && "$bin" import pq.cu --block 32 -o pq.json) 2>"$tmp/err"
rc=$?
[ $rc -eq 0 ] && grep -q "^pq.cu:1:40: skipped store of 't': 't' is a pointer into a shared array made in a way bankscope cannot follow" "$tmp/err" &&
    [ "$(grep -c '"op"' "$tmp/pq.json")" -eq 1 ] && ok || bad "unfollowed shared pointer: exit $rc: $(cat "$tmp/err")"

# a condition that compares two floats read from shared memory (the clock sample's minimum)
# depends on data, whatever the values' type
printf '__global__ void k(const float *in)\n{\n    __shared__ float s[64];\n    s[threadIdx.x] = in[threadIdx.x];\n    float f0 = s[threadIdx.x];\n    float f1 = s[threadIdx.x + 32];\n    if (f1 < f0)\n        s[threadIdx.x] = f1;\n}\n' >"$tmp/fm.cu"
(cd "$tmp" && "$bin" import fm.cu --block 32 -o fm.json) 2>"$tmp/err"
rc=$?
[ $rc -eq 0 ] && grep -q "^fm.cu:8:9: skipped store of 's': .*depends on data: reads memory" "$tmp/err" && ok ||
    bad "float condition read from memory: exit $rc: $(cat "$tmp/err")"

# a value changed under a condition that can turn true again (the bound grows) is not followed
printf '__global__ void k(float *o)\n{\n    __shared__ float s[256];\n    unsigned active = 8;\n    for (unsigned i = 0; i < 4; ++i) {\n        if (threadIdx.x < active) {\n            s[threadIdx.x] = 1;\n            active = active + 4;\n        }\n    }\n}\n' >"$tmp/mg.cu"
(cd "$tmp" && "$bin" import mg.cu --block 32 -o mg.json) 2>"$tmp/err"
grep -q "^mg.cu:7:13: skipped store of 's': .*'active' is changed at 8:13, inside a loop" "$tmp/err" && ok ||
    bad "growing bound under its own condition: $(cat "$tmp/err")"

# accesses waiting on the grid's size: one note says which -D settles them
printf '__global__ void k(float *o)\n{\n    __shared__ float s[64];\n    if (blockIdx.x == gridDim.x - 1)\n        s[threadIdx.x] = 1;\n    else {\n        s[threadIdx.x] = 2;\n        s[threadIdx.x + 32] = 3;\n    }\n}\n' >"$tmp/gd.cu"
(cd "$tmp" && "$bin" import gd.cu --block 32 -o gd.json) 2>"$tmp/err"
[ "$(grep -c "note: .* wait on 'gridDim.x'" "$tmp/err")" -eq 1 ] &&
    grep -q "^gd.cu: note: 2 listed accesses wait on 'gridDim.x', which the file does not give: give -D gridDim.x=VALUE" "$tmp/err" &&
    ok || bad "grid size note: $(cat "$tmp/err")"

# an access in a branch no thread takes is imported with no active lane, and a note says why
# (not that the threads have left)
printf '__global__ void k(float *o, int nf)\n{\n    __shared__ float s[64];\n    if (nf == 512)\n        s[threadIdx.x] = 1;\n    s[threadIdx.x + 1] = 2;\n}\n' >"$tmp/nb.cu"
(cd "$tmp" && "$bin" import nb.cu --block 32 -D nf=28 -o nb.json) 2>"$tmp/err"
grep -q "^nb.cu:5:9: note: store of 's' never runs with the values given (no thread takes the branch or loop it is in): imported with no active lane" "$tmp/err" &&
    ! grep -q skipped "$tmp/err" && grep -q '"when": "0", "label": "nb.cu:5:9"' "$tmp/nb.json" && ok ||
    bad "branch no thread takes: $(cat "$tmp/err")"

# a kernel that does not parse: what a helper does through the array it is handed is listed at
# the helper's lines, and the call's argument is not listed again as a 'use'
printf '__device__ void add(float *t, int i) { t[i] += t[i + 32]; }\n__global__ void k(float *o)\n{\n    __shared__ float s[64];\n    undeclared_t x;\n    add(s, threadIdx.x);\n}\n' >"$tmp/bk.cu"
(cd "$tmp" && "$bin" import bk.cu --block 32 -o bk.json) 2>"$tmp/err"
[ "$(grep -c 'skipped' "$tmp/err")" -eq 3 ] && ! grep -q 'skipped use' "$tmp/err" &&
    grep -q "^bk.cu:1:40: skipped load of 's': not imported: the kernel does not parse" "$tmp/err" && ok ||
    bad "helper of a kernel that does not parse: $(cat "$tmp/err")"
# the device side of <curand_kernel.h>: a kernel that draws from a curandState parses
printf '#include <curand_kernel.h>\n__global__ void k(curandState *st, float *o)\n{\n    __shared__ float s[64];\n    curandState l = st[threadIdx.x];\n    s[threadIdx.x] = curand_normal(&l);\n    o[0] = s[threadIdx.x];\n}\n' >"$tmp/cr.cu"
(cd "$tmp" && "$bin" import cr.cu --block 32 -o cr.json) 2>"$tmp/err"
rc=$?
[ $rc -eq 0 ] && [ "$(grep -c '"op"' "$tmp/cr.json")" -eq 2 ] && ok || bad "curand: exit $rc: $(cat "$tmp/err")"

# a float computed in steps from values read from memory (srad's diffusion coefficient) decides
# a condition that depends on data
printf '__global__ void k(const float *g)\n{\n    __shared__ float t[64];\n    float jc, den, c;\n    t[threadIdx.x] = g[threadIdx.x];\n    jc = t[threadIdx.x];\n    den = (jc - 0.5f) / 2.0f;\n    c = 1.0f / (1.0f + den);\n    if (c < 0)\n        t[threadIdx.x] = 0;\n}\n' >"$tmp/sd.cu"
(cd "$tmp" && "$bin" import sd.cu --block 32 -o sd.json) 2>"$tmp/err"
grep -q "^sd.cu:10:9: skipped store of 't': .*depends on data: reads memory" "$tmp/err" && ok ||
    bad "float computed from memory in steps: $(cat "$tmp/err")"

# a member function called on a shared object (a cuda::barrier, a struct with methods) is listed,
# and never crashes the parser
printf '#include <cuda/barrier>\nstruct B {\n    unsigned long long st;\n    __device__ void go();\n};\n__global__ void k(float *o)\n{\n    __shared__ cuda::barrier<cuda::thread_scope_block> bar;\n    __shared__ B b;\n    __shared__ float s[64];\n    if (threadIdx.x == 0)\n        init(&bar, blockDim.x);\n    b.go();\n    s[threadIdx.x] = 1;\n    auto t = bar.arrive();\n    bar.wait(std::move(t));\n    o[0] = s[threadIdx.x];\n}\n' >"$tmp/mf.cu"
(cd "$tmp" && "$bin" import mf.cu --block 32 -o mf.json) 2>"$tmp/err"
rc=$?
[ $rc -eq 0 ] && [ "$(grep -c '"op"' "$tmp/mf.json")" -eq 2 ] &&
    grep -q "^mf.cu:13:5: skipped load of 'b': the member function 'go' called on a shared object" "$tmp/err" &&
    grep -q "^mf.cu:15:14: skipped load of 'bar': the member function 'arrive'" "$tmp/err" && ok ||
    bad "member function of a shared object: exit $rc: $(cat "$tmp/err")"
# a static shared array of a helper template instantiated twice: two arrays, named apart
printf 'template <int N>\n__device__ void put(int i)\n{\n    __shared__ float t[64];\n    t[i] = N;\n}\n__global__ void k()\n{\n    put<1>(threadIdx.x);\n    put<2>(threadIdx.x);\n}\n' >"$tmp/ta.cu"
(cd "$tmp" && "$bin" import ta.cu --block 32 -o ta.json) 2>"$tmp/err"
rc=$?
[ $rc -eq 0 ] && grep -q '"name": "t_2"' "$tmp/ta.json" && grep -q "note: 't' is declared again" "$tmp/err" && ok ||
    bad "a template's static array twice: exit $rc: $(cat "$tmp/err")"

echo "import: $pass passed, $fail failed"
[ $fail -eq 0 ]

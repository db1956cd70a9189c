#!/bin/sh
# The import benchmark's own test: tests/import/coverage.sh on a one-kernel corpus written
# here (an access in an inlined helper, a `+=`, a data-dependent load; a cp.async and an ldmatrix,
# counted as a store and a load) counts imported, listed,
# silent and wrong accesses as it should, and --check fails on a silent drop and on a wrong op.
# Skipped (77) in a build without libclang.
srcdir=${srcdir:-.}
top_builddir=${top_builddir:-.}
bin="$(cd "$top_builddir" && pwd)/bankscope"
script="$(cd "$srcdir/tests/import" && pwd)/coverage.sh"
tmp=$(mktemp -d) || exit 99
trap 'rm -rf "$tmp"' EXIT
pass=0
fail=0
ok() { pass=$((pass + 1)); }
bad() { echo "FAIL: $*"; fail=$((fail + 1)); }

c="$tmp/corpus"
mkdir "$c"
cat >"$c/01-k.cu" <<'EOF'
#define N 64
__device__ void put(float *s, int i, float v) { s[i] = v; }
__global__ void k(const float *in, float *out, const int *idx)
{
    __shared__ float s[N];
    put(s, threadIdx.x, in[threadIdx.x]);
    __syncthreads();
    s[threadIdx.x] += 1.0f;
    out[threadIdx.x] = s[idx[threadIdx.x]];
}
EOF
printf 'file\tkernel\toptions\taccesses\tdata_dependent\theld_out\tlicence\trepo\tcommit\tpath\n' >"$c/MANIFEST.tsv"
printf '01-k.cu\tk\t--kernel k --block 64\t4\t1\tno\t-\t-\t-\t-\n' >>"$c/MANIFEST.tsv"
printf '01-k.cu k\n' >"$c/CHECKED"
expect() {  # the hand count, one "WHERE OP DEP" per argument
    printf 'file\tkernel\twhere\top\tarray\tdep\n' >"$c/EXPECTED.tsv"
    for a in "$@"; do
        set -- $a
        printf '01-k.cu\tk\t%s\t%s\ts\t%s\n' "$1" "$2" "$3" >>"$c/EXPECTED.tsv"
    done
}
run() { BANKSCOPE="$bin" BANKSCOPE_CORPUS_DIR="$c" sh "$script" "$@" >"$tmp/out" 2>&1; }

# the right hand count: whole, nothing silent or wrong, --check passes
expect "2|6 store known" "8 load known" "8 store known" "9 load data"
run
if grep -q "built without libclang" "$tmp/out"; then
    echo "SKIP: built without libclang"
    exit 77
fi
grep -qE '^01-k.cu:k +4 +3 +1 +3 +1 +1 +0 +0 +yes ' "$tmp/out" && ok || bad "table: $(cat "$tmp/out")"
grep -qE '^total .* 1/1 whole; 100.0% of index-known imported' "$tmp/out" && ok || bad "totals: $(cat "$tmp/out")"
grep -q '^whole: *01-k.cu:k' "$tmp/out" && ok || bad "whole list: $(cat "$tmp/out")"
run --check && grep -q 'check: 1 kernels correct, 0 wrong or silent' "$tmp/out" && ok || bad "check of a right count: $(tail -3 "$tmp/out")"

# one more load on line 8 than the importer reports: silent, and --check fails
expect "2|6 store known" "8 load known" "8 load known" "8 store known" "9 load data"
run --check
[ $? -eq 1 ] && grep -q '^FAIL: 01-k.cu:k: exit 0, 1 silent, 0 wrong' "$tmp/out" && ok || bad "silent drop: $(cat "$tmp/out")"

# an op the source does not have there: the imported store matches nothing
expect "2|6 store known" "8 load known" "8 atomic known" "9 load data"
run --check
[ $? -eq 1 ] && grep -q '^FAIL: 01-k.cu:k: exit 0, 1 silent, 1 wrong: imported@8/store' "$tmp/out" && ok || bad "wrong op: $(cat "$tmp/out")"

# the helper's store reported at a line the count does not allow: wrong
expect "6 store known" "8 load known" "8 store known" "9 load data"
run --check
[ $? -eq 1 ] && grep -q 'wrong: imported@2/store' "$tmp/out" && ok || bad "wrong line: $(cat "$tmp/out")"

# an access the count says depends on data, imported as if its index were known: wrong
expect "2|6 store known" "8 load data" "8 store known" "9 load data"
run --check
[ $? -eq 1 ] && grep -q 'wrong: imported-data-dependent@8/load' "$tmp/out" && ok || bad "data-dependent imported: $(cat "$tmp/out")"

# --verbose names what is silent
expect "2|6 store known" "8 load known" "8 load known" "8 store known" "9 load data"
run --verbose
grep -q '^    silent: load at 8 (index known)' "$tmp/out" && ok || bad "verbose: $(cat "$tmp/out")"

# the manifest's count disagrees with EXPECTED.tsv: said, and --check fails
expect "2|6 store known" "8 load known" "8 store known" "9 load data"
head -1 "$c/MANIFEST.tsv" >"$tmp/m" && printf '01-k.cu\tk\t--kernel k --block 64\t5\t1\tno\t-\t-\t-\t-\n' >>"$tmp/m"
mv "$tmp/m" "$c/MANIFEST.tsv"
run --check
[ $? -eq 1 ] && grep -q 'MANIFEST.tsv says 5 accesses, 1 data-dependent; EXPECTED.tsv has 4, 1' "$tmp/out" && ok || bad "manifest: $(cat "$tmp/out")"

# a kernel not in CHECKED is measured, not checked; the sources missing: skipped
: >"$c/CHECKED"
run --check && ok || bad "unchecked kernel failed the check"
rm "$c/01-k.cu"
run --check
[ $? -eq 77 ] && grep -q 'get.sh' "$tmp/out" && ok || bad "absent sources: $(cat "$tmp/out")"

# a corpus that is all held out, with no source in place: skipped too, not a vacuous pass
head -1 "$c/MANIFEST.tsv" >"$tmp/m" && printf '01-k.cu\tk\t--kernel k --block 64\t4\t1\tyes\t-\t-\t-\t-\n' >>"$tmp/m"
mv "$tmp/m" "$c/MANIFEST.tsv"
run --check
[ $? -eq 77 ] && grep -q 'get.sh' "$tmp/out" && ok || bad "all held out, absent sources: $(cat "$tmp/out")"

# the kinds that move data into shared memory count as stores (cp.async), ldmatrix as a load
c2="$tmp/corpus2"
mkdir "$c2"
cat >"$c2/02-k.cu" <<'EOF'
#include <cuda_pipeline.h>
__global__ void k(const float *in)
{
    __shared__ float s[512];
    __pipeline_memcpy_async(&s[threadIdx.x * 4], &in[threadIdx.x * 4], 16);
    unsigned a = __cvta_generic_to_shared(&s[(threadIdx.x % 8) * 8]), r;
    asm volatile("ldmatrix.sync.aligned.m8n8.x1.shared.b16 {%0}, [%1];" : "=r"(r) : "r"(a));
}
EOF
printf 'file\tkernel\toptions\taccesses\tdata_dependent\theld_out\tlicence\trepo\tcommit\tpath\n' >"$c2/MANIFEST.tsv"
printf '02-k.cu\tk\t--kernel k --block 32\t2\t0\tno\t-\t-\t-\t-\n' >>"$c2/MANIFEST.tsv"
printf 'file\tkernel\twhere\top\tarray\tdep\n02-k.cu\tk\t5\tstore\ts\tknown\n02-k.cu\tk\t7\tload\ts\tknown\n' >"$c2/EXPECTED.tsv"
printf '02-k.cu k\n' >"$c2/CHECKED"
BANKSCOPE="$bin" BANKSCOPE_CORPUS_DIR="$c2" sh "$script" >"$tmp/out" 2>&1
grep -qE '^02-k.cu:k +2 +2 +0 +2 +0 +0 +0 +0 +yes ' "$tmp/out" && ok || bad "cp.async and ldmatrix: $(cat "$tmp/out")"

echo "coverage self-test: $pass passed, $fail failed"
[ $fail -eq 0 ]

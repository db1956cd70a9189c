#!/bin/sh
# The generated kernels compile with NVRTC (no GPU needed) and do exactly the access width the
# model analyses: ld/st.volatile.shared of 1, 2, 4, 8 or 16 bytes. Skips (77) without CUDA.
top_builddir=${top_builddir:-.}
bin="$top_builddir/bankscope"
out=$(mktemp) || exit 99
trap 'rm -f "$out"' EXIT
pass=0
fail=0
check() {  # check PATTERN ACCESS EXPECTED-OPCODE
    if ! "$bin" kernel "$1" --ptx --access "$2" > "$out" 2>&1; then
        grep -q "without CUDA support" "$out" && { echo "built without CUDA: skipped"; exit 77; }
        echo "FAIL $1: $(head -3 "$out")"; fail=$((fail + 1)); return
    fi
    ops=$(grep -oE "(ld|st)\.volatile\.shared\.[a-z0-9.]+" "$out" | sort -u | tr '\n' ' ')
    if [ "$ops" = "$3 " ]; then pass=$((pass + 1)); else echo "FAIL $1 access $2: '$ops', expected '$3'"; fail=$((fail + 1)); fi
}
check default 0 ld.volatile.shared.u32
check char-32x129 0 ld.volatile.shared.u8
check double-32x33 0 ld.volatile.shared.v2.u32
check float4-32x36 0 ld.volatile.shared.v4.u32
check struct-mixed 3 ld.volatile.shared.u16
check transpose-naive 0 st.volatile.shared.u32
# the model's 64-bit checked arithmetic and the whole-vector bound compile too
cases=${srcdir:-.}/tests/golden/cases
check "$cases/kernel-arith-64.json" 0 ld.volatile.shared.u32
check "$cases/kernel-arith-64.json" 1 ld.volatile.shared.u32
check "$cases/kernel-vector-past-end.json" 0 ld.volatile.shared.v4.u32
# the conditional operator (c ? a : b in indices and in a 'when')
check "$cases/conditional.json" 0 ld.volatile.shared.u32
check "$cases/conditional.json" 1 st.volatile.shared.u32
check "$cases/conditional.json" 2 ld.volatile.shared.u32
# swizzled arrays: the address is the swizzled byte offset, the width unchanged
check "$cases/swizzle-128b.json" 0 ld.volatile.shared.u32
check "$cases/swizzle-wide-struct.json" 0 ld.volatile.shared.v4.u32
# every kernel has the entry that measure uses to check the lanes' addresses against the model
if "$bin" kernel "$cases/kernel-arith-64.json" --ptx > "$out" 2>&1 && grep -q "\.entry bs_addresses" "$out"; then
    pass=$((pass + 1))
elif grep -q "without CUDA support" "$out"; then
    echo "built without CUDA: skipped"; exit 77
else
    echo "FAIL: no bs_addresses entry in the PTX"; fail=$((fail + 1))
fi
# the CUDA source of swizzled arrays also compiles with nvcc (when installed; no GPU needed)
nvcc=$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)
if [ -x "$nvcc" ]; then
    for p in tma-128b-ldmatrix "$cases/swizzle-wide-struct.json" "$cases/kernel-swizzle-cute.json"; do
        if "$bin" kernel "$p" > "$out.cu" 2>&1 && "$nvcc" -arch=sm_90 -c "$out.cu" -o "$out.o" > "$out.log" 2>&1; then
            pass=$((pass + 1))
        else
            echo "FAIL nvcc $p: $(head -5 "$out.log" "$out.cu" 2>/dev/null)"; fail=$((fail + 1))
        fi
    done
    rm -f "$out.cu" "$out.o" "$out.log"
fi
echo "ptx: $pass passed, $fail failed"
[ $fail -eq 0 ]

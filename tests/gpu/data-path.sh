#!/bin/sh
# Cycles per phase of shared-memory accesses on the GPU (the numbers behind banks_issue_cycles
# in src/model/banks.c): for loads, stores of the zero register (what bankscope measures) and
# stores of register data (kernels/measure.cu with BS_STORE_REGISTER_DATA 1), the cycles per
# warp-instruction per SM of one active lane, one half-warp ("half", 8-byte loads: 1 wavefront,
# 2 phases) and a full conflict-free warp, for 4, 8 and 16 bytes. Run from the source root with ./bankscope
# built (see tests/gpu/run.sh); prints a table. Exit 77 without a GPU.
set -u
bin=./bankscope
tmp=$(mktemp -d) || exit 99
trap 'rm -rf "$tmp"' EXIT
export XDG_CACHE_HOME="$tmp"
sed 's/^#define BS_STORE_REGISTER_DATA 0/#define BS_STORE_REGISTER_DATA 1/' kernels/measure.cu > "$tmp/data.cu"
grep -q '^#define BS_STORE_REGISTER_DATA 1' "$tmp/data.cu" || { echo "kernels/measure.cu has no BS_STORE_REGISTER_DATA"; exit 99; }

trace() {  # trace FILE OP WIDTH LANES: one warp-instruction; lanes "one" (lane 6), "half" (0-15) or "all"
    addrs=""
    for l in $(seq 0 31); do
        if [ "$4" = all ] || { [ "$4" = half ] && [ "$l" -lt 16 ]; }; then a=$((l * $3))
        elif [ "$4" = one ] && [ "$l" -eq 6 ]; then a=256; else a=null; fi
        addrs="$addrs${addrs:+, }$a"
    done
    printf '{"name": "%s", "trace": [{"op": "%s", "width": %d, "addresses": [%s]}]}\n' \
        "$2-$3-$4" "$2" "$3" "$addrs" > "$1"
}
cycles() {  # cycles FILE [TEMPLATE]: "predicted measured" of bankscope measure
    BANKSCOPE_KERNEL_TEMPLATE=${2:-} $bin measure "$1" > "$tmp/out" 2>&1
    awk '/cycles per warp-access per SM/ {print $6, $7}' "$tmp/out"
}

trace "$tmp/probe.json" load 4 all
$bin measure "$tmp/probe.json" > "$tmp/out" 2>&1
[ $? -eq 3 ] && { cat "$tmp/out"; exit 77; }
printf '%-6s %-5s %-9s %-17s %-17s %s\n' width lanes "" "load" "store (zero)" "store (data)"
for w in 4 8 16; do
    for lanes in one half all; do
        trace "$tmp/ld.json" load $w $lanes
        trace "$tmp/st.json" store $w $lanes
        set -- $(cycles "$tmp/ld.json") $(cycles "$tmp/st.json") $(cycles "$tmp/st.json" "$tmp/data.cu")
        printf '%-6s %-5s %-9s %-17s %-17s %s\n' "$w B" "$lanes" "pred/meas" "$1 / $2" "$3 / $4" "- / $6"
    done
done

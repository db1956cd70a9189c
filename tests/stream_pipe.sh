#!/bin/sh
# A piped trace streams as a file does: `gen | bankscope analyze /dev/stdin --summary` (and `-`)
# with 1100000 instructions, more than a trace held in memory may have (1048576), exits 0 within
# 64 MB of peak memory (the maximum resident set reported by /usr/bin/time; that check is skipped
# without it). Also: a piped scenario loads, an "arch" after a piped trace is refused with its
# position (the instructions were read with another model), and a byte-order mark is skipped.
srcdir=${srcdir:-.}
top_builddir=${top_builddir:-.}
bin="$top_builddir/bankscope"
tmp=$(mktemp -d) || exit 99
trap 'rm -rf "$tmp"' EXIT
pass=0
fail=0
check() {  # check NAME CONDITION...: count, and say what failed
    name=$1; shift
    if "$@"; then pass=$((pass + 1)); else echo "FAIL: $name"; fail=$((fail + 1)); fi
}
entry='{"op": "load", "width": 4, "addresses": [0, 4, 8, 12, 16, 20, 24, 28, 32, 36, 40, 44, 48, 52, 56, 60, 64, 68, 72, 76, 80, 84, 88, 92, 96, 100, 104, 108, 112, 116, 120, 124]}'
gen() {  # gen N [HEAD]: a trace of N instructions on stdout
    printf '%s{"name": "piped", "arch": "sm_90", "trace": [\n' "${2:-}"
    [ "$1" -gt 1 ] && yes "$entry," | head -n $(($1 - 1))
    echo "$entry"
    echo ']}'
}
if [ -x /usr/bin/time ]; then
    gen 1100000 | /usr/bin/time -f '%M' -o "$tmp/rss" "$bin" analyze /dev/stdin --summary > "$tmp/out" 2> "$tmp/err"
    rc=$?
    peak=$(tail -n 1 "$tmp/rss")
    echo "piped 1100000 instructions: exit $rc, peak $peak KB"
    check "1.1 M piped instructions exit 0" [ "$rc" -eq 0 ]
    check "all of them counted" grep -q '^total: 1100000 warp-instructions' "$tmp/out"
    check "peak memory under 64 MB (got $peak KB)" [ "${peak:-999999}" -lt 65536 ]
else
    gen 1100000 | "$bin" analyze /dev/stdin --summary > "$tmp/out"
    check "1.1 M piped instructions exit 0" [ $? -eq 0 ]
    check "all of them counted" grep -q '^total: 1100000 warp-instructions' "$tmp/out"
fi
gen 3 "$(printf '\357\273\277')" | "$bin" analyze - --summary > "$tmp/out" 2>&1
check "'-' with a byte-order mark" grep -q '^total: 3 warp-instructions' "$tmp/out"
gen 3 | "$bin" analyze - --json > "$tmp/out" 2>&1
check "'-' with --json (held in memory)" grep -q '"instructions": 3' "$tmp/out"
printf '{"trace": [%s],\n "arch": "sm_80"}\n' "$entry" | "$bin" analyze - --summary > "$tmp/out" 2> "$tmp/err"
rc=$?
check "an arch after a piped trace: exit 2" [ "$rc" -eq 2 ]
check "an arch after a piped trace: its position" grep -q '^bankscope: -:2:10: arch: a trace read from a pipe' "$tmp/err"
printf '{"trace": [%s],\n "arch": "sm_80"}\n' "$entry" | "$bin" analyze - --summary --arch sm_80 > "$tmp/out" 2>&1
check "an arch after a piped trace with --arch" grep -q 'sm_80 model' "$tmp/out"
"$bin" analyze default --json > /dev/null 2>&1 # warm
sed -n '1,$p' "$srcdir/patterns/transpose-naive.json" | "$bin" analyze /dev/stdin --summary > "$tmp/out" 2>&1
check "a piped scenario" grep -q '32-way' "$tmp/out"
echo "stream_pipe: $pass passed, $fail failed"
[ $fail -eq 0 ]

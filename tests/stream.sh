#!/bin/sh
# Streamed traces stay in bounded memory: analyze --summary of a trace of 300000 instructions
# (about 45 MB) must peak within 16 MB of the peak for a one-instruction trace (holding the
# instructions would take 80 MB or more, a tree of the file gigabytes). Peak memory is the
# maximum resident set reported by /usr/bin/time (skipped without it); no times are asserted.
srcdir=${srcdir:-.}
top_builddir=${top_builddir:-.}
bin="$top_builddir/bankscope"
[ -x /usr/bin/time ] || { echo "/usr/bin/time not found: skipped"; exit 77; }
tmp=$(mktemp -d) || exit 99
trap 'rm -rf "$tmp"' EXIT
entry='{"op": "load", "width": 4, "addresses": [0, 4, 8, 12, 16, 20, 24, 28, 32, 36, 40, 44, 48, 52, 56, 60, 64, 68, 72, 76, 80, 84, 88, 92, 96, 100, 104, 108, 112, 116, 120, 124]}'
{ echo '{"name": "big", "arch": "sm_90", "trace": ['; yes "$entry," | head -n 299999; echo "$entry"; echo ']}'; } > "$tmp/big.json"
{ echo '{"name": "small", "arch": "sm_90", "trace": ['; echo "$entry"; echo ']}'; } > "$tmp/small.json"
peak() {  # peak KB of analyze FILE --summary
    /usr/bin/time -f '%M' -o "$tmp/rss" "$bin" analyze "$1" --summary > "$tmp/out" || return 1
    tail -n 1 "$tmp/rss"
}
small=$(peak "$tmp/small.json") || { echo "analyze of the small trace failed"; exit 1; }
big=$(peak "$tmp/big.json") || { echo "analyze of the big trace failed"; exit 1; }
grep -q '^total: 300000 warp-instructions' "$tmp/out" || { echo "wrong total:"; cat "$tmp/out"; exit 1; }
echo "peak memory: $small KB for 1 instruction, $big KB for 300000 ($(du -k "$tmp/big.json" | cut -f1) KB file)"
[ $((big - small)) -lt 16384 ] || { echo "FAIL: the big trace took $((big - small)) KB more"; exit 1; }
echo "stream: 1 passed, 0 failed"

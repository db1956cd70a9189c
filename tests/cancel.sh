#!/bin/sh
# Long work stops on a signal: analyze --summary of a scenario of 16 million warp-instructions
# (above the work limit, run with --force) gets SIGTERM, SIGINT or SIGHUP after a moment and must exit
# with 128 + the signal's number, say "interrupted (SIGxxx)" on stderr and print no summary. It
# must be gone within 10 seconds of the signal (a hang check, not a timing). Also: without
# --force the same work is refused before it starts (exit 2, the bound named).
srcdir=${srcdir:-.}
top_builddir=${top_builddir:-.}
bin="$top_builddir/bankscope"
tmp=$(mktemp -d) || exit 99
trap 'rm -rf "$tmp"' EXIT
idx='(threadIdx.x * 3 + i + (i % 7) * (i % 11) + (threadIdx.x % 13) * (i % 17) + (i / 3) % 5 + (threadIdx.x % 19) * (i % 23) + (threadIdx.x % 29) * (i % 31) + (threadIdx.x % 37) * (i % 41)) % 8192'
{
    echo '{"name": "long", "block": [1024], "loop": {"var": "i", "from": 0, "to": 4096},'
    echo ' "arrays": [{"name": "a", "type": "float", "dims": [8192]}], "accesses": ['
    for k in $(seq 127); do
        echo "  {\"op\": \"load\", \"array\": \"a\", \"index\": \"$idx\"},"
    done
    echo "  {\"op\": \"load\", \"array\": \"a\", \"index\": \"$idx\"}]}"
} > "$tmp/long.json"
pass=0
fail=0
check() {  # check WHAT OK
    if [ "$2" -eq 1 ]; then pass=$((pass + 1)); else echo "FAIL: $1"; fail=$((fail + 1)); fi
}
"$bin" analyze "$tmp/long.json" --summary > "$tmp/out" 2> "$tmp/err"
rc=$?
check "refused without --force (exit $rc: $(cat "$tmp/err"))" "$([ $rc -eq 2 ] && grep -q -- '--force' "$tmp/err" && echo 1 || echo 0)"
for sig in TERM INT HUP; do
    case $sig in TERM) want=143 ;; INT) want=130 ;; HUP) want=129 ;; esac
    "$bin" analyze "$tmp/long.json" --summary --force > "$tmp/out" 2> "$tmp/err" &
    pid=$!
    sleep 1
    kill -s "$sig" "$pid"
    n=0
    while kill -0 "$pid" 2>/dev/null && [ $n -lt 100 ]; do
        sleep 0.1
        n=$((n + 1))
    done
    if kill -0 "$pid" 2>/dev/null; then
        check "SIG$sig: still running 10 s after the signal" 0
        kill -9 "$pid"
        wait "$pid"
        continue
    fi
    wait "$pid"
    rc=$?
    check "SIG$sig: exit $rc, expected $want" "$([ $rc -eq $want ] && echo 1 || echo 0)"
    check "SIG$sig: message (got: $(cat "$tmp/err"))" "$(grep -q "interrupted (SIG$sig)" "$tmp/err" && echo 1 || echo 0)"
    check "SIG$sig: no summary printed" "$([ ! -s "$tmp/out" ] && echo 1 || echo 0)"
done
echo "cancel: $pass passed, $fail failed"
[ $fail -eq 0 ]

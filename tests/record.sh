#!/bin/sh
# Recordings made by `bankscope record` on an H100 (tests/data/record, written by
# tests/gpu/record.sh, never by hand) read as traces by every command: analyze's total equals the
# sum of the recording's source lines, the view (--snapshot, and in tmux) opens each with the same
# totals as analyze, export draws it, measure without a GPU exits 3. Runs without a GPU.
srcdir=${srcdir:-.}
top_builddir=${top_builddir:-.}
bin="$(cd "$top_builddir" && pwd)/bankscope"
tmp=$(mktemp -d) || exit 99
trap 'rm -rf "$tmp"; tmux -L bsrec kill-server 2>/dev/null' EXIT
pass=0
fail=0
check() { # check NAME CONDITION-STATUS MESSAGE
    if [ "$2" -eq 0 ]; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL $1: $3"; fi
}
num() { # num KEY LINE: the integer after "KEY":
    printf '%s\n' "$2" | sed -n "s/.*\"$1\": \([0-9-]*\).*/\1/p"
}
n=0
for f in "$srcdir"/tests/data/record/*.json; do
    b=$(basename "$f" .json)
    n=$((n + 1))
    "$bin" analyze "$f" --summary > "$tmp/sum" 2> "$tmp/err"
    check "$b" $? "analyze --summary: $(cat "$tmp/err")"
    # "total: N warp-instructions, W wavefronts (ideal I)" against the lines' "total N W I"
    t=$(sed -n 's/^total: \([0-9]*\) warp-instructions, \([0-9]*\) wavefronts (ideal \([0-9]*\)).*/\1 \2 \3/p' "$tmp/sum")
    l=$(awk '$1 == "total" && NF == 4 {print $2, $3, $4}' "$tmp/sum")
    [ -n "$t" ] && [ "$t" = "$l" ]
    check "$b" $? "analyze total ($t) is not the sum of the lines ($l)"
    "$bin" analyze "$f" --json > "$tmp/a" 2> "$tmp/err"
    check "$b" $? "analyze --json: $(cat "$tmp/err")"
    "$bin" --snapshot "$f" > "$tmp/s" 2> "$tmp/err"
    check "$b" $? "--snapshot: $(cat "$tmp/err")"
    sum=$(grep '"summary"' "$tmp/a")
    tot=$(grep '"totals"' "$tmp/s")
    for k in instructions wavefronts ideal_wavefronts; do
        [ "$(num $k "$sum")" = "$(num $k "$tot")" ]
        check "$b" $? "$k: analyze $(num $k "$sum"), view $(num $k "$tot")"
    done
    "$bin" export "$f" --svg "$tmp/$b.svg" > /dev/null 2> "$tmp/err" && grep -q '<svg' "$tmp/$b.svg"
    check "$b" $? "export --svg: $(cat "$tmp/err")"
done
[ $n -ge 8 ]
check "tests/data/record" $? "only $n recordings"
# the interactive view opens a recording (80x24, in tmux when it is installed)
if command -v tmux > /dev/null 2>&1; then
    f="$srcdir/tests/data/record/transpose-naive.json"
    tmux -L bsrec -f /dev/null new-session -d -x 80 -y 24 \
        "env LANG=C.UTF-8 TERM=xterm-256color NCURSES_NO_UTF8_ACS=1 '$bin' --no-gpu '$f'"
    ok=1
    for i in $(seq 1 100); do
        tmux -L bsrec capture-pane -p > "$tmp/screen" 2> /dev/null
        grep -q "transpose_naive" "$tmp/screen" && { ok=0; break; }
        sleep 0.1
    done
    check "view" $ok "the view did not show the recording: $(head -5 "$tmp/screen")"
    tmux -L bsrec send-keys q 2> /dev/null
fi
echo "record: $pass passed, $fail failed"
echo "$pass passed, $fail failed"
[ $fail -eq 0 ]

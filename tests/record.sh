#!/bin/sh
# Recordings made by `bankscope record` on an H100 (tests/data/record, written by
# tests/gpu/record.sh, never by hand) read as traces by every command: analyze's total equals the
# sum of the recording's source lines, the view (--snapshot) opens each with the same totals as
# analyze and (in tmux) on the source view with the lines' numbers, export draws it. Runs without
# a GPU.
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
    l=$(awk '$1 == "total" && NF == 4 {print $2, $3, $4; exit}' "$tmp/sum") # the lines' table (a measured recording's own follows)
    [ -n "$t" ] && [ "$t" = "$l" ]
    check "$b" $? "analyze total ($t) is not the sum of the lines ($l)"
    # with another model (--arch sm_30: 8-byte banks where it has them), each line is predicted
    # again: the lines still add up to analyze's total (a recording whose kinds sm_30 lacks is
    # refused, exit 2)
    if "$bin" analyze "$f" --arch sm_30 --summary > "$tmp/sum30" 2> /dev/null; then
        t=$(sed -n 's/^total: \([0-9]*\) warp-instructions, \([0-9]*\) wavefronts (ideal \([0-9]*\)).*/\1 \2 \3/p' "$tmp/sum30")
        l=$(awk '$1 == "total" && NF == 4 {print $2, $3, $4; exit}' "$tmp/sum30")
        [ -n "$t" ] && [ "$t" = "$l" ]
        check "$b --arch sm_30" $? "analyze total ($t) is not the sum of the lines ($l)"
    fi
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
# sm_30 predicts the naive transpose differently from sm_90 (the file's numbers): the table
# shows sm_30's
"$bin" analyze --arch sm_30 --summary "$srcdir/tests/data/record/transpose-naive.json" > "$tmp/sum30" 2>&1
awk '$1 == "total" && NF == 4' "$tmp/sum30" | grep -qv " 1056 "
check "lines with --arch sm_30" $? "$(cat "$tmp/sum30")"
# a truncated recording says so loudly beside the verdict (text and JSON), and what was seen
# but not recorded is named with its count
tr="$srcdir/tests/data/record/transpose-truncated.json"
"$bin" analyze "$tr" > "$tmp/t" 2>&1 && grep -q "^TRUNCATED: 10 of 64 warp-instructions captured (truncated)" "$tmp/t"
check "truncated text" $? "$(tail -5 "$tmp/t")"
"$bin" analyze --summary "$tr" > "$tmp/t" 2>&1 && grep -q "^TRUNCATED: 10 of 64" "$tmp/t"
check "truncated --summary" $? "$(tail -5 "$tmp/t")"
"$bin" analyze --json "$tr" > "$tmp/t" 2>&1 && grep -q '"warning": "10 of 64 warp-instructions captured (truncated)"' "$tmp/t"
check "truncated json" $? "$(grep capture "$tmp/t")"
"$bin" analyze "$srcdir/tests/data/record/transpose-naive.json" > "$tmp/t" 2>&1 && ! grep -q "TRUNCATED" "$tmp/t"
check "complete recording" $? "says truncated"
tma="$srcdir/tests/data/record/tma.json"
"$bin" analyze "$tma" > "$tmp/t" 2>&1 && grep -q "^not recorded: 1 x cp.async.bulk" "$tmp/t"
check "tma text" $? "$(grep "not " "$tmp/t")"
"$bin" analyze --json "$tma" > "$tmp/t" 2>&1 &&
    grep -q '"not_recorded_kinds": \[{ *"kind": "cp.async.bulk", *"count": 1' "$tmp/t"
check "tma json" $? "$(grep not_recorded "$tmp/t")"
[ $n -ge 8 ]
check "tests/data/record" $? "only $n recordings"
# the interactive view opens a recording on its source view, line 22 marked 1024/32 32-way (80x24,
# in tmux when it is installed)
if command -v tmux > /dev/null 2>&1; then
    f="$srcdir/tests/data/record/transpose-naive.json"
    tmux -L bsrec -f /dev/null new-session -d -x 80 -y 24 \
        "env LANG=C.UTF-8 TERM=xterm-256color NCURSES_NO_UTF8_ACS=1 '$bin' --no-gpu '$f'"
    ok=1
    for i in $(seq 1 100); do
        tmux -L bsrec capture-pane -p > "$tmp/screen" 2> /dev/null
        grep -q "1024/32 32-way" "$tmp/screen" && grep -q "SOURCE" "$tmp/screen" && { ok=0; break; }
        sleep 0.1
    done
    check "view" $ok "the view did not show the recording: $(head -5 "$tmp/screen")"
    tmux -L bsrec send-keys q 2> /dev/null
fi
# a --kernel pattern that does not compile is an error of the options (exit 2, regerror's text),
# never "every kernel"; the program does not run
"$bin" record --kernel '(' -o "$tmp/x.json" -- sh -c "touch '$tmp/ran'" > /dev/null 2> "$tmp/err"
rc=$?
[ $rc -eq 2 ] && grep -q "record: --kernel '(': " "$tmp/err" && [ ! -e "$tmp/ran" ]
check "record --kernel '('" $? "exit $rc, $(cat "$tmp/err")"
# -o never replaces an existing file without --force, nor the program itself (even with it, even
# through a symbolic link): exit 2 before the program runs, the file untouched
cp "$(command -v env)" "$tmp/prog" && echo keep > "$tmp/old.json" && ln -s prog "$tmp/link"
for args in "-o $tmp/old.json" "-o $tmp/prog" "--force -o $tmp/prog" "--force -o $tmp/link"; do
    # shellcheck disable=SC2086 # the options are words
    "$bin" record $args -- "$tmp/prog" > /dev/null 2> "$tmp/err"
    rc=$?
    [ $rc -eq 2 ] && [ "$(cat "$tmp/old.json")" = keep ] && cmp -s "$tmp/prog" "$(command -v env)"
    check "record $args" $? "exit $rc, $(cat "$tmp/err")"
done
! grep -q "give --force" "$tmp/err"
check "record --force -o PROGRAM" $? "$(cat "$tmp/err")"
# the recording library (when built, and not built with a sanitizer runtime that cannot be
# preloaded) leaves its reason in error.txt for an unknown pass, a bad configuration and a
# --kernel pattern that does not compile (never "every kernel"); record prints that line
lib="$top_builddir/libbankscope-record.so"
if [ -f "$lib" ] && ! nm -D "$lib" 2> /dev/null | grep -q __asan; then
    for case in "nope||an unknown pass: nope" "capture|a (|a --kernel pattern that does not compile: a\\x20(" \
        "capture||a bad configuration"; do
        lpass=${case%%|*} rest=${case#*|}
        kernel=${rest%%|*} want=${rest#*|}
        mkdir -p "$tmp/lib" && rm -f "$tmp/lib/error.txt"
        BANKSCOPE_RECORD_PASS=$lpass BANKSCOPE_RECORD_KERNEL=$kernel BANKSCOPE_RECORD_DIR="$tmp/lib" \
            BANKSCOPE_RECORD_LAUNCH=$([ "$want" = "a bad configuration" ] && echo x || echo -1) \
            BANKSCOPE_RECORD_PRELOAD=1 LD_PRELOAD="$lib" "$(command -v env)" true
        grep -qF "error $want" "$tmp/lib/error.txt" 2> /dev/null
        check "library error.txt ($lpass)" $? "$(cat "$tmp/lib/error.txt" 2> /dev/null)"
    done
fi
# without a GPU (or without CUDA support), record exits 3 before the program starts
if ! nvidia-smi -L > /dev/null 2>&1; then
    "$bin" record -o "$tmp/x.json" -- sh -c "touch '$tmp/ran'" > /dev/null 2> "$tmp/err"
    rc=$?
    [ $rc -eq 3 ] && [ ! -e "$tmp/ran" ] && [ ! -e "$tmp/x.json" ]
    check "record without a GPU" $? "exit $rc, $(cat "$tmp/err"), the program ran: $([ -e "$tmp/ran" ] && echo yes || echo no)"
fi
echo "record: $pass passed, $fail failed"
echo "$pass passed, $fail failed"
[ $fail -eq 0 ]

#!/bin/sh
# Golden CLI tests: each tests/golden/cases/NAME.cmd holds one bankscope command line (arguments
# only; files relative to tests/golden/cases). Its stdout must equal NAME.out, its stderr
# NAME.err (when present) and its exit status NAME.rc (default 0).
# BANKSCOPE_UPDATE_GOLDEN=1 rewrites the expected files from the current output.
srcdir=${srcdir:-.}
top_builddir=${top_builddir:-.}
bin="$(cd "$top_builddir" && pwd)/bankscope"
dir="$(cd "$srcdir/tests/golden/cases" && pwd)"
tmp=$(mktemp -d) || exit 99
trap 'rm -rf "$tmp"' EXIT
# the outputs must not depend on the user's patterns, the installed ones or the terminal
XDG_DATA_HOME="$tmp/xdg" BANKSCOPE_DATADIR="$tmp/none" COLUMNS=80
export XDG_DATA_HOME BANKSCOPE_DATADIR COLUMNS
pass=0
fail=0
for cmd in "$dir"/*.cmd; do
    name=$(basename "$cmd" .cmd)
    want_rc=0
    [ -f "$dir/$name.rc" ] && want_rc=$(cat "$dir/$name.rc")
    (cd "$dir" && eval "\"$bin\" $(cat "$cmd")") >"$tmp/out" 2>"$tmp/err"
    rc=$?
    if [ -n "$BANKSCOPE_UPDATE_GOLDEN" ]; then
        cp "$tmp/out" "$dir/$name.out"
        [ -s "$tmp/err" ] && cp "$tmp/err" "$dir/$name.err"
        [ "$rc" -ne 0 ] && echo "$rc" >"$dir/$name.rc"
    fi
    ok=1
    [ "$rc" -eq "$want_rc" ] || { echo "$name: exit $rc, expected $want_rc"; ok=0; }
    cmp -s "$tmp/out" "$dir/$name.out" || { echo "$name: stdout differs:"; diff "$dir/$name.out" "$tmp/out" | head -20; ok=0; }
    if [ -f "$dir/$name.err" ]; then
        cmp -s "$tmp/err" "$dir/$name.err" || { echo "$name: stderr differs:"; diff "$dir/$name.err" "$tmp/err" | head -5; ok=0; }
    fi
    if [ $ok -eq 1 ]; then pass=$((pass + 1)); else fail=$((fail + 1)); fi
done
echo "golden: $pass passed, $fail failed"
[ $fail -eq 0 ]

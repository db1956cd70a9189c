#!/bin/sh
# What `record` and the readers of recordings do with costly or odd input, before anything runs
# (no GPU needed): a --kernel pattern whose repetition counts multiply (compiling
# '((a{1000}){1000}){1000}' took gigabytes and half a minute) is refused at once with exit 2;
# -o into a folder that does not exist is refused before the program runs (exit 2); a recording
# whose line text is longer than the readers accept says so ("string longer than 1048576 bytes").
srcdir=${srcdir:-.}
top_builddir=${top_builddir:-.}
bin="$(cd "$top_builddir" && pwd)/bankscope"
tmp=$(mktemp -d) || exit 99
trap 'rm -rf "$tmp"' EXIT
pass=0
fail=0
check() { # check NAME STATUS MESSAGE
    if [ "$2" -eq 0 ]; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL $1: $3"; fi
}

# memory bounded to 2 GB where the build allows it (a sanitized build reserves terabytes of shadow
# address space and cannot run under ulimit -v)
vm=2000000
(ulimit -v $vm; "$bin" --version) > /dev/null 2>&1 || vm=unlimited
for re in '((a{1000}){1000}){1000}' '(a|b){200}{200}' "$(printf 'a%.0s' $(seq 5000))"; do
    (ulimit -v $vm; timeout 20 "$bin" record --kernel "$re" -- "$tmp/ran" > /dev/null 2> "$tmp/err")
    rc=$?
    [ $rc -eq 2 ] && grep -q "too costly a pattern" "$tmp/err" && [ ! -e "$tmp/ran" ]
    check "--kernel $(printf '%.30s' "$re")" $? "exit $rc: $(head -c 200 "$tmp/err")"
done
# an ordinary pattern passes the check (and then needs a GPU: exit 3 here, 0 or 2 there)
timeout 20 "$bin" record --kernel 'transpose_(naive|padded).*' -- true > /dev/null 2> "$tmp/err"
rc=$?
! grep -q "too costly" "$tmp/err"
check "--kernel ordinary" $? "exit $rc: $(cat "$tmp/err")"

printf '#!/bin/sh\ntouch "%s/ran"\n' "$tmp" > "$tmp/prog"
chmod +x "$tmp/prog"
timeout 20 "$bin" record -o "$tmp/no/such/folder/x.json" -- "$tmp/prog" > /dev/null 2> "$tmp/err"
rc=$?
[ $rc -eq 2 ] && grep -q "folder does not exist; nothing was run\|/no/such/folder does not exist; nothing was run" "$tmp/err" &&
    [ ! -e "$tmp/ran" ]
check "-o into a missing folder" $? "exit $rc: $(cat "$tmp/err")"
: > "$tmp/file"
timeout 20 "$bin" record -o "$tmp/file/x.json" -- "$tmp/prog" > /dev/null 2> "$tmp/err"
rc=$?
[ $rc -eq 2 ] && grep -q "is not a folder; nothing was run" "$tmp/err"
check "-o under a file" $? "exit $rc: $(cat "$tmp/err")"

# a line text longer than the readers accept: its own message, at its position
if command -v python3 > /dev/null 2>&1; then
    python3 - "$srcdir/tests/data/record/transpose-naive.json" "$tmp/long.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
r["lines"][0]["text"] = "x" * (1048576 + 1)
json.dump(r, open(sys.argv[2], "w"))
PY
    "$bin" analyze "$tmp/long.json" --summary > /dev/null 2> "$tmp/err"
    rc=$?
    [ $rc -eq 2 ] && grep -q "long.json:1:[0-9]*: lines\[0\].text: string longer than 1048576 bytes" "$tmp/err"
    check "a text too long" $? "exit $rc: $(cat "$tmp/err")"
fi

echo "record_inputs: $pass passed, $fail failed"
[ $fail -eq 0 ]

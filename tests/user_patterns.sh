#!/bin/sh
# User and installed patterns: files in $XDG_DATA_HOME/bankscope/patterns and
# $BANKSCOPE_DATADIR/patterns join the built-in library; list says where each came from and
# when one shadows a built-in; analyze, lessons and `bankscope NAME` find them by name.
srcdir=${srcdir:-.}
top_builddir=${top_builddir:-.}
bin="$(cd "$top_builddir" && pwd)/bankscope"
tmp=$(mktemp -d) || exit 99
trap 'rm -rf "$tmp"' EXIT
user="$tmp/xdg/bankscope/patterns"
inst="$tmp/share/patterns"
mkdir -p "$user" "$inst"
XDG_DATA_HOME="$tmp/xdg" BANKSCOPE_DATADIR="$tmp/share" COLUMNS=80
export XDG_DATA_HOME BANKSCOPE_DATADIR COLUMNS
cat > "$user/course-stride2.json" <<'JSON'
{ "name": "Course: stride 2", "description": "Each lane reads every second float: 2-way.",
  "block": [32], "arrays": [{"name": "a", "type": "float", "dims": [64]}],
  "accesses": [{"op": "load", "array": "a", "index": "2 * threadIdx.x"}] }
JSON
cat > "$user/broadcast.json" <<'JSON'
{ "name": "My broadcast", "block": [32], "arrays": [{"name": "a", "type": "float", "dims": [32]}],
  "accesses": [{"op": "load", "array": "a", "index": "0"}] }
JSON
cat > "$user/course-lesson.json" <<'JSON'
{ "lesson": "Course lesson", "steps": [ { "pattern": "course-stride2", "text": "Stride two." } ] }
JSON
cp "$srcdir/patterns/stride-8.json" "$inst/"            # an installed copy of a built-in
sed 's/"name": "[^"]*"/"name": "Installed only"/' "$srcdir/patterns/stride-8.json" > "$inst/site-stride.json"
pass=0
fail=0
check() {  # check WHAT COMMAND...: the command must succeed
    what=$1; shift
    if "$@" > "$tmp/out" 2> "$tmp/err"; then pass=$((pass + 1)); else
        echo "FAIL: $what"; cat "$tmp/out" "$tmp/err" | head -5; fail=$((fail + 1)); fi
}
"$bin" list > "$tmp/list" || fail=$((fail + 1))
check "list shows the user pattern and its folder" grep -q "user: $user/course-stride2.json" "$tmp/list"
check "list says the user file shadows the built-in" grep -q "user: $user/broadcast.json (shadows" "$tmp/list"
check "list shows the installed pattern" grep -q "installed: $inst/site-stride.json" "$tmp/list"
check "an installed copy of a built-in stays built-in" sh -c "! grep -q 'installed: $inst/stride-8.json' '$tmp/list'"
check "list shows the user lesson" grep -q "^course-lesson .*lesson *Course lesson (1 step)" "$tmp/list"
check "list counts the sources" grep -q "from $user" "$tmp/list"
check "analyze finds a user pattern by name" sh -c "'$bin' analyze course-stride2 | grep -q '2-way'"
check "the user file replaces the built-in" sh -c "'$bin' analyze broadcast | head -1 | grep -q 'My broadcast'"
check "list --names has the user pattern" sh -c "'$bin' list --names | grep -qx course-stride2"
"$bin" list --json > "$tmp/json" || fail=$((fail + 1))
check "list --json gives source and kind" python3 -c "
import json, sys
d = json.load(open('$tmp/json'))
p = {x['name']: x for x in d['patterns']}
assert d['format'] == 'bankscope-list/1'
assert p['course-stride2']['source'] == 'user' and p['course-stride2']['kind'] == 'pattern'
assert p['broadcast']['shadows'] and p['course-lesson']['kind'] == 'lesson'
assert p['site-stride']['source'] == 'installed' and p['stride-8']['source'] == 'built-in'
assert p['transpose-naive']['arch'] == 'sm_90' and p['transpose-naive']['description']
"
# `bankscope NAME` accepts a user pattern (the TUI then asks for a terminal)
"$bin" course-stride2 < /dev/null > /dev/null 2> "$tmp/tui-err"
check "bankscope NAME opens a user pattern" grep -q "needs a terminal" "$tmp/tui-err"
# a relative XDG_DATA_HOME is ignored (XDG rule)
check "relative XDG_DATA_HOME ignored" sh -c "cd '$tmp' && XDG_DATA_HOME=xdg HOME=/nonexistent '$bin' list --names | grep -vq course-stride2"
echo "user patterns: $pass passed, $fail failed"
[ $fail -eq 0 ]

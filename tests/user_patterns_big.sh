#!/bin/sh
# Memory does not grow with the user pattern folder: with 300 files of 1 MiB there, `list
# --names` (what shell completion runs), `list`, `list --json`, the interactive view's start
# (--snapshot) and `analyze NAME` each peak under 32 MB (they read names, titles and
# descriptions by streaming each file's top-level members, and a pattern's body only when it is
# used; a file malformed in those members is marked broken with the position). `list` does not load what a lesson names (a lesson naming a slow pattern made it take
# tens of seconds): it shows the lesson, title and description included. Peak memory is the
# maximum resident set reported by /usr/bin/time (skipped without it); no times are asserted.
srcdir=${srcdir:-.}
top_builddir=${top_builddir:-.}
bin="$(cd "$top_builddir" && pwd)/bankscope"
[ -x /usr/bin/time ] || { echo "/usr/bin/time not found: skipped"; exit 77; }
tmp=$(mktemp -d) || exit 99
trap 'rm -rf "$tmp"' EXIT
user="$tmp/xdg/bankscope/patterns"
mkdir -p "$user"
XDG_DATA_HOME="$tmp/xdg" BANKSCOPE_DATADIR="$tmp/none" COLUMNS=80
# under AddressSanitizer, freed memory waits in its quarantine and would count as the program's
ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}quarantine_size_mb=0"
export XDG_DATA_HOME BANKSCOPE_DATADIR COLUMNS ASAN_OPTIONS
# one file of 1 MiB (a valid scenario whose title comes last, after 1 MiB of its body), linked
# under 300 names: every name is a file of 1 MiB to read
{
    printf '{"description": "A large pattern.", "block": [32],\n'
    printf ' "arrays": [{"name": "a", "type": "float", "dims": [64]}],\n "accesses": ['
    i=0
    while [ $i -lt 255 ]; do printf '{"op": "load", "array": "a", "index": "2 * threadIdx.x"},\n'; i=$((i + 1)); done
    printf '{"op": "load", "array": "a", "index": "2 * threadIdx.x"}],\n'
} > "$tmp/body"
pad=$((1048576 - $(wc -c < "$tmp/body") - 40))
{ cat "$tmp/body"; head -c "$pad" /dev/zero | tr '\0' ' '; printf '\n "name": "Big pattern"}\n'; } > "$user/big-0.json"
i=1
while [ $i -lt 300 ]; do ln "$user/big-0.json" "$user/big-$i.json"; i=$((i + 1)); done
cat > "$user/course-lesson.json" <<'JSON'
{ "lesson": "Course lesson", "description": "Two steps of a course.",
  "steps": [ { "pattern": "big-1", "text": "One." }, { "pattern": "no-such-pattern", "text": "Two." } ] }
JSON
printf '{"name": "One",\n "arrays": [], "name": "Two"}\n' > "$user/two-names.json"
pass=0
fail=0
check() {  # check NAME COMMAND...: the command must succeed
    name=$1; shift
    if "$@"; then pass=$((pass + 1)); else echo "FAIL: $name"; fail=$((fail + 1)); fi
}
peak() {  # peak WHAT ARGS...: run bankscope ARGS, check exit 0 and peak memory under 32 MB
    what=$1; shift
    /usr/bin/time -f '%M' -o "$tmp/rss" "$bin" "$@" > "$tmp/out" 2> "$tmp/err" < /dev/null
    rc=$?
    kb=$(tail -n 1 "$tmp/rss")
    echo "$what: exit $rc, peak $kb KB"
    check "$what exits 0" [ "$rc" -eq 0 ]
    check "$what peaks under 32 MB" [ "${kb:-999999}" -lt 32768 ]
}
check "the folder holds 300 files of 1 MiB" [ "$(find "$user" -name 'big-*.json' -size 1024k | wc -l)" -eq 300 ]
peak "list --names" list --names
check "list --names names them" grep -qx big-299 "$tmp/out"
peak "list" list
check "list shows the title that ends a file" grep -q "^big-7 .*Big pattern" "$tmp/out"
check "list shows the lesson (its steps are not loaded)" grep -q "^course-lesson .*lesson *Course lesson (2 steps)" "$tmp/out"
check "list shows the lesson's description" grep -q "^    Two steps of a course" "$tmp/out"
check "list: a title given twice, at its position" grep -q "^two-names .*(broken: two-names.json:2:16: name: this key is given twice)" "$tmp/out"
peak "list --json" list --json
check "list --json: the lesson's description" grep -q '"description": "Two steps of a course."' "$tmp/out"
peak "the view's start" --snapshot big-3
check "the view shows the pattern" grep -q '"source": "big-3"' "$tmp/out"
peak "analyze NAME" analyze big-5 --summary
check "analyze NAME analyses it" grep -q '^total: 256 warp-instructions' "$tmp/out"
echo "user patterns (big folder): $pass passed, $fail failed"
[ $fail -eq 0 ]

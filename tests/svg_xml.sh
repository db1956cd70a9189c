#!/bin/sh
# Every exported SVG is well-formed XML: each library pattern, each golden scenario (hostile
# names with control characters, invalid UTF-8 and markup included), parsed by an XML parser
# (python3's xml.etree; xmllint when python3 is missing). The "1 wavefront" wording is checked too.
srcdir=${srcdir:-.}
top_builddir=${top_builddir:-.}
bin="$(cd "$top_builddir" && pwd)/bankscope"
if command -v python3 >/dev/null 2>&1; then
    parse() { python3 -c 'import sys, xml.etree.ElementTree as E; E.parse(sys.argv[1])' "$1"; }
    # parse_all FILE...: each file that does not parse, "FILE: why" a line; one interpreter for all
    parse_all() {
        python3 -c 'import sys, xml.etree.ElementTree as E
for f in sys.argv[1:]:
    try:
        E.parse(f)
    except Exception as e:
        print("%s: %s" % (f, e))' "$@"
    }
elif command -v xmllint >/dev/null 2>&1; then
    parse() { xmllint --noout "$1"; }
    parse_all() { for f in "$@"; do xmllint --noout "$f" 2>/dev/null || echo "$f: not well-formed"; done; }
else
    echo "no XML parser (python3 or xmllint): skipped"; exit 77
fi
tmp=$(mktemp -d) || exit 99
trap 'rm -rf "$tmp"' EXIT
pass=0
fail=0
names=$("$bin" list --names) || { echo "bankscope list --names failed"; exit 1; }
k=0
svgs=
for p in $names "$srcdir"/tests/golden/cases/hostile-*.json "$srcdir"/tests/golden/cases/excluded-*.json \
         "$srcdir"/tests/golden/cases/trace-*.json "$srcdir"/tests/golden/cases/swizzle-*.json; do
    k=$((k + 1))
    "$bin" export "$p" --svg "$tmp/out$k.svg" 2> "$tmp/err" || {
        grep -q "lesson" "$tmp/err" && continue # lessons have no single picture
        echo "FAIL export $p: $(cat "$tmp/err")"; fail=$((fail + 1)); continue; }
    if grep -q '[^0-9]1 wavefronts' "$tmp/out$k.svg"; then
        echo "FAIL $p: '1 wavefronts'"; fail=$((fail + 1))
    else
        svgs="$svgs $tmp/out$k.svg"
        echo "$tmp/out$k.svg $p" >> "$tmp/names"
    fi
done
# every picture parsed, by one interpreter
parse_all $svgs > "$tmp/bad"
for f in $svgs; do
    if grep -q "^$f: " "$tmp/bad"; then
        echo "FAIL $(grep "^$f " "$tmp/names" | cut -d' ' -f2-): $(grep "^$f: " "$tmp/bad" | head -3)"; fail=$((fail + 1))
    else
        pass=$((pass + 1))
    fi
done
# XML 1.0 forbids U+FFFE and U+FFFF (raw UTF-8 or JSON escapes) in names, descriptions and labels
printf '{"name": "n\357\277\276\357\277\277 \\ufffe", "description": "d\\uffff\357\277\277",
 "arrays": [{"name": "a", "type": "float", "dims": [32]}],
 "accesses": [{"op": "load", "array": "a", "index": "lane", "label": "l\\ufffe\\uffff\357\277\276"}]}\n' >"$tmp/nonchar.json"
if "$bin" export "$tmp/nonchar.json" --svg "$tmp/nonchar.svg" 2>"$tmp/err" && parse "$tmp/nonchar.svg" 2>>"$tmp/err" &&
    grep -q 'n\\ufffe\\uffff \\ufffe' "$tmp/nonchar.svg" && grep -q 'l\\ufffe\\uffff\\ufffe' "$tmp/nonchar.svg"; then
    pass=$((pass + 1))
else
    echo "FAIL U+FFFE/U+FFFF: $(head -3 "$tmp/err")"; fail=$((fail + 1))
fi
# a map larger than 40x32 cells is cut with a mark and a line saying what is left out; a smaller one is not
"$bin" export cpasync-fill-16 --svg "$tmp/cut.svg" && "$bin" export transpose-naive --svg "$tmp/whole.svg" &&
    grep -q '>+24 columns<' "$tmp/cut.svg" &&
    grep -q 'map cut (dashed red edge): rows 0-31 of 64 and columns 0-39 of 64 drawn; 12 active lanes of the warp fall outside it' "$tmp/cut.svg" &&
    ! grep -q 'map cut' "$tmp/whole.svg" &&
    pass=$((pass + 1)) || { echo "FAIL the cut of a large array map is not marked"; fail=$((fail + 1)); }
# a loop's picture names its iteration: the worst of reduction-strided is warp 0 at s = 4 (8-way)
"$bin" export reduction-strided --svg "$tmp/loop.svg" && grep -q 'warp 0, s = 4: load sdata' "$tmp/loop.svg" &&
    pass=$((pass + 1)) || { echo "FAIL loop value in the SVG title"; fail=$((fail + 1)); }
# the view's E draws the warp on show, also one that the file's "warps" leaves out (default: [0])
(cd "$tmp" && "$bin" default --snapshot --keys 'wwE\b\b\b\b\b\b\b\b\b\b\b\b\b\b\b\b\b\b\bw2.svg\n') >"$tmp/snap" &&
    grep -q '"seq": null' "$tmp/snap" && grep -q '>warp 2: load tile' "$tmp/w2.svg" &&
    pass=$((pass + 1)) || { echo "FAIL E of warp 2 outside the file's warps"; fail=$((fail + 1)); }
# a swizzled array is drawn in storage order: row 1 of the 128B-swizzled tile holds columns 4-7 first
"$bin" export "$srcdir"/tests/golden/cases/swizzle-128b.json --svg "$tmp/swz.svg" &&
    grep -q 'in storage order (128B swizzle)' "$tmp/swz.svg" &&
    python3 - "$tmp/swz.svg" <<'PY' || { echo "FAIL swizzled map"; fail=$((fail + 1)); }
import re, sys
t = open(sys.argv[1]).read()
cells = re.findall(r'<text x="\d+" y="(\d+)"[^>]*>(c\d+|\d+)</text>', t[t.find('array map'):])
rows = {}
for y, v in cells:
    rows.setdefault(int(y), []).append(v)
row1 = rows[sorted(rows)[1]]
sys.exit(0 if row1[1:9] == ['c4', 'c5', 'c6', 'c7', '1', 'c1', 'c2', 'c3'] else 1)
PY
echo "svg: $pass well-formed, $fail failed"
[ $fail -eq 0 ] && [ $pass -gt 0 ]

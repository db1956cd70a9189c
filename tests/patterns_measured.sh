#!/bin/sh
# Every measured figure a pattern or lesson quotes says where it was measured: a screen that says
# "no GPU: predicted only" must not show a bare "measured 32.03 cycles" as if measured here. In
# each JSON string of patterns/*.json, "measured" is "measured on an <GPU>" (or "not measured"),
# and a string that quotes cycles with decimals ("32.03 cycles") says "measured on an".
srcdir=${srcdir:-.}
fail=0
for f in "$srcdir"/patterns/*.json; do
    awk -v file="$(basename "$f")" '
        { n = split($0, part, "\"")
          for (i = 2; i <= n; i += 2) {  # the inside of each string on the line
              s = part[i]; low = tolower(s)
              t = low
              while ((k = index(t, "measured")) > 0) {
                  before = substr(t, 1, k - 1); after = substr(t, k + 8)
                  if (before !~ /not $/ && after !~ /^ on an /) {
                      printf "%s:%d: \"measured\" without where: %s\n", file, NR, s; bad = 1 }
                  t = after
              }
              if (s ~ /[0-9]+\.[0-9]+ cycles/ && low !~ /measured on an /) {
                  printf "%s:%d: cycles quoted without where they were measured: %s\n", file, NR, s; bad = 1 }
          } }
        END { exit bad }' "$f" || fail=1
done
[ $fail -eq 0 ] && echo "patterns: every measured figure says where it was measured"
exit $fail

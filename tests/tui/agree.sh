#!/bin/sh
# For every pattern of the library, the numbers the interactive view shows (its headline
# instruction and its totals, dumped headless by --snapshot from the same state the screen draws)
# equal what `bankscope analyze --json` prints: wavefronts, ideal, conflicts, degree, and the
# summary over every warp-instruction, the idle ones (no lane issues) counted apart as the
# result panel shows them. The recordings of tests/data/record are checked too. Lessons are
# skipped (analyze takes scenarios). Both take their totals from the core's one walk
# (core/analysis.c): a regression check of the two front ends' paths to it.
# Runs without a terminal.
srcdir=${srcdir:-.}
top_builddir=${top_builddir:-.}
bin="$(cd "$top_builddir" && pwd)/bankscope"
tmp=$(mktemp -d) || exit 99
trap 'rm -rf "$tmp"' EXIT
num() {  # num KEY LINE: the integer after "KEY":
    printf '%s\n' "$2" | sed -n "s/.*\"$1\": \([0-9-]*\).*/\1/p"
}
same() {  # same WHAT KEYS A B: each integer "KEY": (the last in the line) of A equals B's; one
    # line per difference ("WHAT KEY: analyze X, TUI Y"); one process for all the keys
    awk -v what="$1" -v keys="$2" -v a="$3" -v b="$4" '
        function num(s, k,   i, t, p) {
            t = "\"" k "\": "; p = 0
            while ((i = index(s, t)) > 0) { p = 1; s = substr(s, i + length(t)) }
            if (!p) return ""
            match(s, /^[0-9-]*/)
            return substr(s, 1, RLENGTH)
        }
        BEGIN {
            n = split(keys, K, " "); bad = 0
            for (j = 1; j <= n; j++)
                if (num(a, K[j]) != num(b, K[j])) { print what " " K[j] ": analyze " num(a, K[j]) ", TUI " num(b, K[j]); bad = 1 }
            exit bad
        }'
}
pass=0
fail=0
# and a scenario with more warp-instructions (262144) than the view ever capped its totals at
for p in $("$bin" list | awk '{print $1}') "$srcdir/tests/tui/many-instructions.json" "$srcdir"/tests/data/record/*.json; do
    # the view first (it also shows lessons, which analyze refuses: those are skipped)
    snap_rc=
    "$bin" --snapshot "$p" > "$tmp/s" 2>/dev/null || snap_rc=$?
    seq=$(num seq "$(grep '"selection"' "$tmp/s")")
    # only the two lines compared are kept of analyze's output, which for the large scenario runs
    # to a gigabyte: read as it is written, never stored (its exit status on a line of its own)
    { "$bin" analyze "$p" --json 2>/dev/null; echo "analyze-exit=$?"; } |
        grep -F -e "{\"seq\": $seq," -e "\"summary\"" -e "analyze-exit=" > "$tmp/a"
    grep -qx "analyze-exit=0" "$tmp/a" || continue
    [ -z "$snap_rc" ] || { echo "FAIL $p: --snapshot failed"; fail=$((fail + 1)); continue; }
    inst=$(grep "^    {\"seq\": $seq," "$tmp/a")
    snap=$(grep '"instruction"' "$tmp/s")
    sum=$(grep '"summary"' "$tmp/a")
    tot=$(grep '"totals"' "$tmp/s")
    ok=1
    d=$(same "instruction $seq" "wavefronts ideal_wavefronts bank_conflicts conflict_degree active_lanes" "$inst" "$snap") &&
        d=$(same summary "instructions issued_instructions idle_instructions wavefronts ideal_wavefronts bank_conflicts worst_conflict_degree" "$sum" "$tot") ||
        { printf '%s\n' "$d" | sed "s|^|FAIL $p: |"; ok=0; }
    if [ $ok = 1 ]; then pass=$((pass + 1)); else fail=$((fail + 1)); fi
done
echo "agree: $pass patterns equal analyze, $fail differ"
[ $fail -eq 0 ] && [ $pass -gt 20 ]

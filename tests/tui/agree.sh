#!/bin/sh
# For every pattern of the library, the numbers the interactive view shows (its headline
# instruction and its totals, dumped headless by --snapshot from the same state the screen draws)
# equal what `bankscope analyze --json` prints: wavefronts, ideal, conflicts, degree, and the
# summary over every warp-instruction, the idle ones (no lane issues) counted apart as the
# result panel shows them. The recordings of tests/data/record are checked too. Lessons are
# skipped (analyze takes scenarios).
# Runs without a terminal.
srcdir=${srcdir:-.}
top_builddir=${top_builddir:-.}
bin="$(cd "$top_builddir" && pwd)/bankscope"
tmp=$(mktemp -d) || exit 99
trap 'rm -rf "$tmp"' EXIT
num() {  # num KEY LINE: the integer after "KEY":
    printf '%s\n' "$2" | sed -n "s/.*\"$1\": \([0-9-]*\).*/\1/p"
}
pass=0
fail=0
# and a scenario with more warp-instructions (262144) than the view ever capped its totals at
for p in $("$bin" list | awk '{print $1}') "$srcdir/tests/tui/many-instructions.json" "$srcdir"/tests/data/record/*.json; do
    "$bin" analyze "$p" --json > "$tmp/a" 2>/dev/null || continue
    "$bin" --snapshot "$p" > "$tmp/s" || { echo "FAIL $p: --snapshot failed"; fail=$((fail + 1)); continue; }
    seq=$(num seq "$(grep '"selection"' "$tmp/s")")
    inst=$(grep "^    {\"seq\": $seq," "$tmp/a")
    snap=$(grep '"instruction"' "$tmp/s")
    sum=$(grep '"summary"' "$tmp/a")
    tot=$(grep '"totals"' "$tmp/s")
    ok=1
    for k in wavefronts ideal_wavefronts bank_conflicts conflict_degree active_lanes; do
        [ "$(num $k "$inst")" = "$(num $k "$snap")" ] || { echo "FAIL $p: instruction $seq $k: analyze $(num $k "$inst"), TUI $(num $k "$snap")"; ok=0; }
    done
    for k in instructions issued_instructions idle_instructions wavefronts ideal_wavefronts bank_conflicts worst_conflict_degree; do
        [ "$(num $k "$sum")" = "$(num $k "$tot")" ] || { echo "FAIL $p: summary $k: analyze $(num $k "$sum"), TUI $(num $k "$tot")"; ok=0; }
    done
    if [ $ok = 1 ]; then pass=$((pass + 1)); else fail=$((fail + 1)); fi
done
echo "agree: $pass patterns equal analyze, $fail differ"
[ $fail -eq 0 ] && [ $pass -gt 20 ]

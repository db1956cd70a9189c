#!/bin/sh
# What an edit key costs in the TUI: tests/bench/bench_edit (built here) opens a file and presses
# keys through the same calls the interactive loop makes (the edit on a copy, its validation, the
# modified mark, the view of the instruction on show, the background totals started), printing
# per key the median and worst wall time of the key itself, the time until the background totals
# are in, the heap the key leaves held (the undo history included) and the peak memory it added.
# Two inputs: a 200,000-instruction trace (tests/bench/gen_trace.sh, generated in a temporary
# folder) with the keys that edit a trace (r/R architecture, u/U undo/redo, F reset), and the
# largest admitted scenario (tests/bench/scenario-393k.json) with every edit key of the main
# view. BENCH_TRACE=N changes the trace's length, BENCH_REPEATS the presses per key (5).
# Prints numbers, asserts nothing.
srcdir=${srcdir:-.}
top_builddir=${top_builddir:-.}
n=${BENCH_TRACE:-200000}
reps=${BENCH_REPEATS:-5}
make -s -C "$top_builddir" tests/bench/bench_edit || exit 1
bench="$top_builddir/tests/bench/bench_edit"
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
sh "$srcdir/tests/bench/gen_trace.sh" "$n" > "$tmp/trace.json"
echo "== a trace of $n warp-instructions"
"$bench" "$tmp/trace.json" rRruUF "$reps"
echo "== the largest admitted scenario"
"$bench" "$srcdir/tests/bench/scenario-393k.json" "+-tab<>{}grRuUF" "$reps"

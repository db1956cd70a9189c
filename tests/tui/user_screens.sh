#!/bin/sh
# Screens as the three users meet them (a teacher's demo, a student without a GPU, an engineer
# with a recording), at the sizes they use, checked for what they would not accept: a line drawn
# over another, a view that says nothing where analyze says something. Each check names the size
# and what was wrong. Screens are polled (tests/tui/lib.sh), never waited for with a fixed sleep.
# Skips (77) without tmux.
command -v tmux >/dev/null 2>&1 || { echo "tmux not found: skipped"; exit 77; }
srcdir=${srcdir:-.}
top_builddir=${top_builddir:-.}
bin="$(cd "$top_builddir" && pwd)/bankscope"
root="$(cd "$srcdir" && pwd)"
sock="bankscope-user-$$"
tmp=$(mktemp -d) || exit 99
T() { tmux -L "$sock" -f /dev/null "$@"; }
trap 'T kill-server 2>/dev/null; rm -rf "$tmp"' EXIT
fail=0
pass=0
n=0
sess=""
start() { # start COLS ROWS ARGS...: a new session (before the old one goes: the server stays up)
    cols=$1 rows=$2
    shift 2
    old=$sess
    n=$((n + 1))
    sess="u$n"
    tui_before="(new session)"
    for try in 1 2 3; do
        T new-session -d -s "$sess" -x "$cols" -y "$rows" \
            "cd '$root/patterns' && env LANG=C.UTF-8 TERM=xterm-256color TMPDIR='$tmp' $bin --no-gpu $*; echo EXIT=\$?; sleep 60" &&
            T has-session -t "=$sess" 2>/dev/null && break
        sleep 0.2
    done
    [ -n "$old" ] && T kill-session -t "=$old" 2>/dev/null
}
. "$root/tests/tui/lib.sh" # wait_for: polls the screen until TEXT shows
keys() { tui_capture; tui_before=$tui_screen; T send-keys -t "$sess" "$@"; }
expect() { # expect NAME TEXT
    if wait_for "$2"; then
        pass=$((pass + 1))
    else
        echo "FAIL $1: no '$2' on the screen:"
        cat "$tmp/screen"
        fail=$((fail + 1))
    fi
}
line_is() { # line_is NAME TEXT ERE: the screen's line holding TEXT matches ERE as a whole
    if grep -F -- "$2" "$tmp/screen" | grep -qE -- "$3"; then
        pass=$((pass + 1))
    else
        echo "FAIL $1: the line with '$2' is not /$3/:"
        grep -F -- "$2" "$tmp/screen"
        fail=$((fail + 1))
    fi
}

# a teacher compares a conflict-free row write: the compare says why it has nothing to show, on
# a line of its own (the why text used to show through after it, and at 160x48 it replaced the
# why panel's top border)
for size in "80 24" "100 30" "160 48" "220 60"; do
    start $size transpose-naive
    expect "transpose-naive opens ($size)" "PREDICTED"
    keys c
    expect "compare without a better padding ($size)" "compare: no other padding is better"
    line_is "the compare's line alone ($size)" "compare: no other padding is better" \
        '(^|│ ?)compare: no other padding is better *│?$'
    grep -q "┌─ why" "$tmp/screen" || [ "${size%% *}" -lt 160 ] ||
        { echo "FAIL the why panel lost its frame ($size)"; fail=$((fail + 1)); }
done

# an engineer opens two recordings side by side: the line diff shows its largest change at
# every size (at 80x24 and 100x30 it showed its head line and no line under it)
rec="$root/tests/data/record"
for size in "80 24" "100 30" "160 48"; do
    start $size "$rec/transpose-naive.json" "$rec/transpose-padded.json"
    expect "two recordings in compare ($size)" "COMPARE"
    expect "the diff's largest change ($size)" "transpose.cu:22  1024 -> 32"
done

# an engineer at 80x24 reads the SASS view: the instruction's text is on screen without scrolling
# sideways (the wavefront columns were 13 cells wide for "2/2", and pushed it off)
start 80 24 "$rec/histogram.json"
expect "histogram opens on its source" " SOURCE │"
keys D
expect "the SASS view at 80x24" " SASS │"
line_is "the SASS of pc 0xa0 shows at 80x24" "0xa0 " 'histogram.cu:13 STS \[R2\], RZ'

# under a what-if the SASS view still lists every instruction of the recording (the ones without
# recorded lanes too) with what was measured at each
start 160 40 "$rec/modern-calib_forms.json"
expect "calib_forms opens" " SOURCE │"
keys Escape
expect "its grid" "trace[0/720]"
keys v
expect "the advisor on calib_forms" "advisor on the recording"
keys Enter
expect "a what-if on calib_forms" "(what-if)"
keys D
expect "the SASS view of the what-if: every instruction" "102 instructions of the recorded block"
expect "with the measured column" " measured line"

# a line the second recording makes worse is red, as one it makes better is green (it was drawn
# as a line that did not change)
start 100 34 "$rec/twice-0.json" "$rec/twice-1.json"
expect "twice-0 against twice-1" "twice.cu:10  4 -> 16"
T capture-pane -p -e -t "$sess" > "$tmp/colours"
grep -a "twice.cu:10  4 -> 16" "$tmp/colours" | grep -aq "$(printf '\033')\[[0-9;]*31[0-9;]*mtwice.cu:10" &&
    pass=$((pass + 1)) || { echo "FAIL the line made worse is not red"; fail=$((fail + 1)); }

# the result panel of a one-block launch says "1 block" (it said "1 blocks")
start 160 48 "$rec/modern-calib_forms.json"
expect "calib_forms opens on its source" " SOURCE │"
keys Escape
expect "the line's measured numbers, one block" "line 35, 1 block:"

# colour never says more than the words: a line the model has no rule for (cp.async.cg) is not
# drawn in the conflict-free green (it was), as skipped accesses are not
start 100 30 "$rec/modern-tile_gemm.json"
expect "tile_gemm opens on its source" "not modelled: cp.async.cg"
T capture-pane -p -e -t "$sess" > "$tmp/colours"
if grep -a "not modelled: cp.async.cg" "$tmp/colours" | grep -aq "$(printf '\033')\[32m *0/0 not modelled"; then
    echo "FAIL a line not modelled is green (conflict-free's colour):"
    grep -a "not modelled" "$tmp/colours" | head -2 | cat -v
    fail=$((fail + 1))
else
    pass=$((pass + 1))
fi
grep -a "16/16 conflict-free" "$tmp/colours" | grep -aq "$(printf '\033')\[32m 16/16 conflict-free" &&
    pass=$((pass + 1)) || { echo "FAIL the conflict-free line 25 is not green"; fail=$((fail + 1)); }

# a what-if applied, the SASS view says so as the source view does: its rows are predicted on
# the remapped addresses (it showed them as the recording's own)
meas="$root/tests/data/measured/rec"
for size in "80 24" "100 30"; do
    start $size "$meas/h100-naive.record.json"
    expect "h100-naive opens ($size)" " SOURCE │"
    keys Escape
    expect "its grid ($size)" "trace[0/63]"
    keys v
    expect "the advisor on the recording ($size)" "advisor on the recording"
    keys Enter
    expect "the what-if applied ($size)" "(what-if)"
    keys D
    expect "the SASS view says what-if ($size)" " SASS │ what-if: "
done

# below 100 columns the source view's gutter stays narrow: a line not modelled says so without
# its kind (the line under the text names it), so the source text keeps its room
start 80 24 "$rec/modern-calib_forms.json"
expect "calib_forms at 80x24" " SOURCE │"
line_is "a line not modelled, narrow" "cg16(sm + 16 * l" '^38 +0/0 not modelled +4/4. +cg16'
keys Down
expect "the line under the text names the kind" "line 38: 1 warp-instr., 0 wavefronts (ideal 0), not modelled: cp.async.cg"

# in monochrome the selected lane stands out of the reversed conflict cells around it: bold and
# underlined (it was bold only, on reverse like its neighbours)
for term in xterm-mono; do
    n=$((n + 1))
    old=$sess
    sess="u$n"
    T new-session -d -s "$sess" -x 80 -y 24 \
        "cd '$root/patterns' && env LANG=C.UTF-8 TERM=$term $bin --no-gpu; echo EXIT=\$?; sleep 60"
    [ -n "$old" ] && T kill-session -t "=$old" 2>/dev/null
    tui_before="(new session)"
    expect "default in $term" "PREDICTED"
    keys Right
    expect "lane 0 selected ($term)" "lane 0 selected"
    T capture-pane -p -e -t "$sess" > "$tmp/colours"
    if sed -n 5p "$tmp/colours" | grep -aq "$(printf '\033')\[[0-9;]*4[0-9;]*m 0"; then pass=$((pass + 1)); else
        echo "FAIL the selected lane 0 is not underlined in $term:"
        sed -n 5p "$tmp/colours" | cat -v | cut -c1-80
        fail=$((fail + 1))
    fi
done

echo "user_screens: $pass checks passed, $fail failed"
[ $fail -eq 0 ]

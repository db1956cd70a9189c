#!/bin/sh
# End-to-end TUI tests: bankscope runs in a detached tmux at a fixed size; keys are sent, the
# screen is polled (never a fixed sleep) until an expected text shows, then captured and compared
# with tests/tui/screens/NAME.txt. BANKSCOPE_UPDATE_SCREENS=1 rewrites the stored screens.
# Skips (77) without tmux.
command -v tmux >/dev/null 2>&1 || { echo "tmux not found: skipped"; exit 77; }
srcdir=${srcdir:-.}
top_builddir=${top_builddir:-.}
bin="$(cd "$top_builddir" && pwd)/bankscope"
screens="$(cd "$srcdir/tests/tui/screens" && pwd)"
cases="$(cd "$srcdir/tests/golden/cases" && pwd)"
sock="bankscope-test-$$"
tmp=$(mktemp -d) || exit 99
T() { tmux -L "$sock" -f /dev/null "$@"; }
trap 'T kill-server 2>/dev/null; rm -rf "$tmp"' EXIT
pass=0
fail=0
sess=""
n_sess=0

start() {  # start COLS ROWS ARGS...: a fresh session running bankscope, then an exit marker
    cols=$1 rows=$2
    shift 2
    [ -n "$sess" ] && T kill-session -t "$sess" 2>/dev/null
    n_sess=$((n_sess + 1))
    sess="s$n_sess"
    T new-session -d -s "$sess" -x "$cols" -y "$rows" \
        "cd '$cases' && env LANG=C.UTF-8 TERM=xterm-256color NCURSES_NO_UTF8_ACS=1 $bin $*; echo EXIT=\$?; sleep 30"
}
wait_for() {  # wait_for TEXT: poll the screen for up to 10 s until TEXT shows and the screen is still
    i=0
    while [ $i -lt 200 ]; do
        T capture-pane -p -t "$sess" > "$tmp/screen" 2>/dev/null
        if grep -qF -- "$1" "$tmp/screen"; then
            sleep 0.1
            T capture-pane -p -t "$sess" > "$tmp/again" 2>/dev/null
            cmp -s "$tmp/screen" "$tmp/again" && return 0
        fi
        i=$((i + 1))
        sleep 0.05
    done
    return 1
}
check() {  # check NAME TEXT: the screen shows TEXT, and equals the stored screen NAME
    name=$1
    if ! wait_for "$2"; then
        echo "FAIL $name: '$2' never appeared; screen was:"; cat "$tmp/screen"; fail=$((fail + 1)); return
    fi
    if [ -n "$BANKSCOPE_UPDATE_SCREENS" ]; then cp "$tmp/screen" "$screens/$name.txt"; fi
    if cmp -s "$tmp/screen" "$screens/$name.txt"; then
        pass=$((pass + 1))
    else
        echo "FAIL $name: screen differs from tests/tui/screens/$name.txt:"
        diff "$screens/$name.txt" "$tmp/screen" | head -20
        fail=$((fail + 1))
    fi
}
expect() {  # expect NAME TEXT: only wait for TEXT
    if wait_for "$2"; then pass=$((pass + 1)); else echo "FAIL $1: '$2' missing:"; cat "$tmp/screen"; fail=$((fail + 1)); fi
}

start 80 24 --no-gpu
check default-80x24 "32-way conflict"
T send-keys -t "$sess" +
check pad1-80x24 "conflict-free"
T send-keys -t "$sess" -
expect unpad-80x24 "32-way conflict"
T send-keys -t "$sess" t
check type-double-80x24 "double tile[32][32]"
T send-keys -t "$sess" '?'
check help-80x24 "this help (Esc closes)"
T send-keys -t "$sess" Escape
expect help-closed "32 wavefronts"
T resize-window -t "$sess" -x 40 -y 10
check tiny-40x10 "terminal too small"
T resize-window -t "$sess" -x 80 -y 24
expect resized-back "PREDICTED"
T send-keys -t "$sess" q
expect quit "EXIT=0"

start 80 24 --no-gpu aos-vec3
T send-keys -t "$sess" c
check compare-aos-soa-80x24 "variant: SoA"
T send-keys -t "$sess" c s Space Space
check step-80x24 "step 2/4"
T send-keys -t "$sess" e
expect edit-open "index 1 of 1"
T send-keys -t "$sess" BSpace BSpace BSpace "tod"
check edit-error-80x24 "unknown identifier 'tod'"
T send-keys -t "$sess" BSpace BSpace "id * 2"
expect edit-live "p[tid * 2].x"
T send-keys -t "$sess" Enter q
expect quit2 "EXIT=0"

start 160 48 --no-gpu transpose-naive
check transpose-160x48 "row write"
T send-keys -t "$sess" x
expect transpose-read-160x48 "-way conflict"
T send-keys -t "$sess" +
check transpose-pad-160x48 "conflict-free"
T send-keys -t "$sess" q
expect quit3 "EXIT=0"

start 80 24 bad-expr.json
check broken-file "EXIT=2"

start 80 24 --no-gpu --no-color legacy-stride4
check legacy-mono-80x24 "4-way conflict"

start 100 34 --no-gpu transpose-naive
T send-keys -t "$sess" x v
check advisor-100x34 "smallest conflict-free padding: 1"
T send-keys -t "$sess" Enter
expect advisor-applied "float tile[32][32+1]"

start 100 30 --no-gpu struct-mixed
T send-keys -t "$sess" o
check struct-100x30 "sizeof 64, alignof 16"
T send-keys -t "$sess" R
expect struct-reordered "sizeof 64 -> 32"

start 100 30 --no-gpu lesson-padding
T send-keys -t "$sess" n n n
check lesson-100x30 "4/8 Padding a char tile"

# with the GPU worker on: a machine without a GPU says so, and keys still answer at once
start 80 24 default
expect no-gpu-status "no GPU: predicted only"
T send-keys -t "$sess" +
expect no-gpu-keys "conflict-free"
T send-keys -t "$sess" q
expect quit4 "EXIT=0"

echo "tui: $pass passed, $fail failed"
[ $fail -eq 0 ]

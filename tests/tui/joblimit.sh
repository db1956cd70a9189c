#!/bin/sh
# The work limit in the interactive view, as a user meets it in tmux: a background job whose
# estimate is over the limit (the totals, the advisor's sweep, the compare variant) is not
# started; its panel says what it would cost and that ! (or --force) starts it; ! starts it, it
# shows its progress and stays cancellable (Esc, q: the view leaves at once, never a hang).
# Scenarios: tests/golden/cases/work-limit-summary.json (the totals over the limit),
# tests/bench/scenario-invariant-33m.json (totals within it, the sweep over it) and a generated
# one whose single access is too dear to analyse 34 times. No test here waits on a time.
# Skips (77) without tmux.
command -v tmux >/dev/null 2>&1 || { echo "tmux not found: skipped"; exit 77; }
srcdir=${srcdir:-.}
top_builddir=${top_builddir:-.}
bin="$(cd "$top_builddir" && pwd)/bankscope"
root="$(cd "$srcdir" && pwd)"
sock="bankscope-joblimit-$$"
tmp=$(mktemp -d) || exit 99
T() { tmux -L "$sock" -f /dev/null "$@"; }
trap 'T kill-server 2>/dev/null; rm -rf "$tmp"' EXIT
fail=0
n=0
sess=""
start() { # start COLS ROWS ARGS...: a new session (before the old one goes: the server stays up)
    cols=$1 rows=$2
    shift 2
    old=$sess
    n=$((n + 1))
    sess="j$n"
    tui_before="(new session)"
    T new-session -d -s "$sess" -x "$cols" -y "$rows" \
        "cd '$root' && env LANG=C.UTF-8 TERM=xterm-256color TMPDIR='$tmp' $bin --no-gpu $*; echo EXIT=\$?; sleep 30"
    [ -n "$old" ] && T kill-session -t "$old" 2>/dev/null
}
. "$root/tests/tui/lib.sh" # wait_for: polls the screen until TEXT shows
expect() { # expect NAME TEXT
    if wait_for "$2"; then
        echo "ok: $1"
    else
        echo "FAIL: $1: no '$2' on the screen:"
        cat "$tmp/screen"
        fail=1
    fi
}
absent() { # absent NAME TEXT: poll until the screen lacks TEXT (the hang guard of lib.sh)
    i=0
    while [ $i -lt $tui_guard ]; do
        tui_capture
        case $tui_screen in
        *"$2"*) ;;
        *) echo "ok: $1"; return 0 ;;
        esac
        i=$((i + 1))
        sleep $tui_poll_s
    done
    tui_save
    echo "FAIL: $1: '$2' on the screen"
    cat "$tmp/screen"
    fail=1
}
keys() { T send-keys -t "$sess" "$@"; }

big=tests/golden/cases/work-limit-summary.json
for size in "80 24" "100 30" "160 48" "220 60"; do
    start $size "$big"
    case $size in # the panel's width decides the words: the whole sentence, or the key and the limit
    "80 24") said="all: over work limit, !" ;;
    "100 30") said="all: over the work limit (! computes)" ;;
    "160 48") said="all instr.: over the work limit, ! computes them" ;;
    *) said="! computes them anyway (or --force)" ;;
    esac
    expect "totals refused ($size)" "$said"
    absent "no progress for a job not started ($size)" "computing"
    keys v
    expect "sweep refused ($size)" "The sweep was not started"
    expect "the key said ($size)" "Press !"
    keys Escape
    expect "advisor closed ($size)" "$said"
done
# the whole sentence where the panel has room: the cost in analyze's words
expect "the cost said (220x60)" "all instr.: not computed, about 16777216 warp-instructions, about 27 s"
keys '!'
expect "! starts the totals" "all instr.: computing"
keys v
expect "! starts every job from then on: the sweep" "paddings 0..32 and layouts over every warp-instruction"
keys Escape
expect "the sweep is cancelled with the advisor" "all instr.: computing"
keys q
expect "q leaves at once while the totals are computed" "EXIT=0"

start 100 30 --force "$big"
expect "--force: the totals start" "all instr.: computing"
absent "--force: nothing refused" "over the work limit"
keys q
expect "--force: q leaves at once" "EXIT=0"

start 100 30 tests/bench/scenario-invariant-33m.json
expect "the loop-invariant 33 M: totals admitted and computed" "wf, ideal"
absent "its totals are not refused" "over the work limit"
keys v
expect "its sweep is refused" "The sweep was not started"
keys Escape q
expect "leaves" "EXIT=0"

# one access, every index node reading the loop: its 34 analyses are over the limit, its totals not
idx="(i"
t=1
while [ $t -le 150 ]; do idx="$idx+(threadIdx.x*$t+i)%7"; t=$((t + 1)); done
cat > "$tmp/variant.json" << EOF
{"name": "variant over the limit", "block": [1024], "loop": {"var": "i", "from": 0, "to": 4096},
 "arrays": [{"name": "a", "type": "float", "dims": [8192]}],
 "accesses": [{"op": "load", "array": "a", "index": "$idx) % 8192"}]}
EOF
start 160 48 "$tmp/variant.json"
expect "totals admitted and computed" "wf, ideal"
keys c
expect "the variant is refused" "compare: the variant was not computed: about"
expect "the key is said" "! computes it anyway"
keys '!'
expect "! starts the variant" "compare: computing the variant"
keys c
absent "c closes compare and cancels it" "compare: computing"
keys q
expect "q leaves at once" "EXIT=0"

[ $fail -eq 0 ] && echo "joblimit: all passed"
exit $fail

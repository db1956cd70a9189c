#!/bin/sh
# The advisor on a recording in the interactive view, as a user drives it in tmux: v lists the
# layouts tried on the recorded addresses, Enter applies one as a what-if (the grid, the lanes
# and the source view say "what-if: ..." and predict it), u returns to the recording as
# measured; `bankscope A.json B.json` opens the two recordings in compare with their line diff.
# Skips (77) without tmux.
command -v tmux >/dev/null 2>&1 || { echo "tmux not found: skipped"; exit 77; }
srcdir=${srcdir:-.}
top_builddir=${top_builddir:-.}
bin="$(cd "$top_builddir" && pwd)/bankscope"
root="$(cd "$srcdir" && pwd)" # the recordings' source, tests/gpu/record/transpose.cu, is found from here
rec="$root/tests/data/record"
meas="$(cd "$srcdir/tests/data/measured/rec" && pwd)"
sock="bankscope-whatif-$$"
tmp=$(mktemp -d) || exit 99
T() { tmux -L "$sock" -f /dev/null "$@"; }
trap 'T kill-server 2>/dev/null; rm -rf "$tmp"' EXIT
fail=0
n=0
w=""
start() { # start COLS ROWS ARGS...: a new session (before the old one goes: the server stays up)
    cols=$1 rows=$2
    shift 2
    old=$w
    n=$((n + 1))
    w="w$n"
    T new-session -d -s "$w" -x "$cols" -y "$rows" \
        "cd '$root' && env LANG=C.UTF-8 TERM=xterm-256color TMPDIR='$tmp' $bin --no-gpu --source $root/tests/gpu/record $*; echo EXIT=\$?; sleep 30"
    [ -n "$old" ] && T kill-session -t "$old" 2>/dev/null
}
wait_for() { # wait_for TEXT: up to 10 s for the screen to show TEXT
    i=0
    while [ $i -lt 200 ]; do
        T capture-pane -p -t "$w" > "$tmp/screen" 2>/dev/null
        grep -qF -- "$1" "$tmp/screen" && return 0
        i=$((i + 1))
        sleep 0.05
    done
    return 1
}
expect() { # expect NAME TEXT
    if wait_for "$2"; then
        echo "ok: $1"
    else
        echo "FAIL: $1: no '$2' on the screen:"
        cat "$tmp/screen"
        fail=1
    fi
}
absent() { # absent NAME TEXT: the screen (as last captured, after a short settle) lacks TEXT
    sleep 0.3
    T capture-pane -p -t "$w" > "$tmp/screen"
    if grep -qF -- "$2" "$tmp/screen"; then
        echo "FAIL: $1: '$2' still on the screen"
        cat "$tmp/screen"
        fail=1
    else
        echo "ok: $1"
    fi
}
keys() { T send-keys -t "$w" "$@"; }

for size in "80 24" "100 30" "160 48"; do
    start $size "$rec/transpose-naive.json"
    expect "opens on the source ($size)" "1024/32"
    keys Escape
    expect "main view ($size)" "trace[0/63]"
    keys v
    expect "advisor on a recording ($size)" "advisor on the recording"
    expect "the swizzle ranks first ($size)" "tile Swizzle<5,2,5>"
    expect "the chosen row per line ($size)" "line 22: 1024 -> 32; total 1056 -> 64 wavefronts"
    keys j
    expect "the padding's declaration ($size)" "write: __shared__ float tile[32][33]"
    keys Enter
    expect "applied ($size)" "what-if: tile rows 128+4 B"
    grep -qF "(what-if)" "$tmp/screen" || { echo "FAIL: the title bar does not say what-if ($size)"; fail=1; }
    grep -q "what-if: tile rows 128+4 B.*lanes" "$tmp/screen" || [ "$size" = "80 24" ] ||
        { echo "FAIL: the lane table's title does not say what-if ($size)"; fail=1; }
    keys V
    expect "source view predicts the what-if ($size)" "32/32"
    grep -qF "1024/32" "$tmp/screen" && { echo "FAIL: line 22 still 1024 in the what-if ($size)"; fail=1; }
    grep -qF "what-if" "$tmp/screen" || { echo "FAIL: the source view does not say what-if ($size)"; fail=1; }
    keys Escape
    expect "back in the grid ($size)" "what-if: tile"
    keys u
    expect "undone ($size)" "undone"
    absent "back to the recording as measured ($size)" "what-if: tile"
done

# a recording without conflicts: nothing to gain, said as such
start 100 30 "$meas/h100-padded.record.json"
expect "opens" "32/32"
keys Escape
expect "main" "trace[0/63]"
keys v
expect "nothing to gain" "nothing to gain"

# two recordings: compare with the line diff
start 160 48 "$meas/h100-naive.record.json" "$meas/h100-padded.record.json"
expect "compare opens" "COMPARE"
expect "the diff's line 21" "1024 -> 32 (1048576 -> 32768)"
exit $fail

#!/bin/sh
# Key storm: bankscope in tmux receives 600 random keys (letters, digits, arrows, Tab, Enter,
# Esc, Backspace, F1, punctuation; never q) with a random resize every 25 keys, including sizes
# below the minimum. It must still be running afterwards and quit cleanly with exit 0.
# Then the pickers (L: patterns, A: architectures): a filter that matches nothing followed by every
# moving key and Enter, and storms of 200 keys (fixed seeds) weighted to the pickers and the
# views they open. Under the sanitized build a read outside a list stops the program: the test
# sees no clean exit.
# Runs in a temporary folder (S and E may write files there). Skips (77) without tmux.
command -v tmux >/dev/null 2>&1 || { echo "tmux not found: skipped"; exit 77; }
top_builddir=${top_builddir:-.}
bin="$(cd "$top_builddir" && pwd)/bankscope"
tmp=$(mktemp -d) || exit 99
sock="bankscope-storm-$$"
T() { tmux -L "$sock" -f /dev/null "$@"; }
trap 'T kill-server 2>/dev/null; rm -rf "$tmp"' EXIT
srcdir=${srcdir:-.}
. "$(cd "$srcdir/tests/tui" && pwd)/lib.sh"
rc=0
old=""
# send_storm SESSION KEYS: every key of KEYS (one a line: KEY:NAME, RESIZE:X:Y or a literal) in
# order, each by its own send-keys (or resize-window) command, the commands between two resizes
# given to one tmux client (commands joined by ';'), so that 600 keys cost 25 clients, not 600
send_storm() {
    ss=$1
    ks=$2
    set --
    set -f # the keys * and ? are sent as themselves, not as the names of the files they match
    for k in $ks; do
        case $k in
            RESIZE:*)
                [ $# -gt 0 ] && T "$@"
                set --
                x=$(echo "$k" | cut -d: -f2); y=$(echo "$k" | cut -d: -f3)
                T resize-window -t "$ss" -x "$x" -y "$y" ;;
            KEY:*) [ $# -gt 0 ] && set -- "$@" ';'; set -- "$@" send-keys -t "$ss" "${k#KEY:}" ;;
            *) [ $# -gt 0 ] && set -- "$@" ';'; set -- "$@" send-keys -t "$ss" -l "$k" ;;
        esac
    done
    set +f
    if [ $# -gt 0 ]; then T "$@"; fi
}
# first_frame SESSION: poll until the program has drawn its first screen (the pane stays blank
# until then): a key sent before the terminal is set up would be read by the line discipline
# (echoed, Backspace erasing the key before it), not by the program
first_frame() {
    i=0
    while [ $i -lt $tui_guard ] && ! T capture-pane -p -t "$1" | grep -q "[^ ]"; do i=$((i + 1)); sleep $tui_poll_s; done
}
# quit_clean SESSION: Esc until the main view, then q, and y when asked "quit without saving"; true
# when the program exited 0. Each key is chosen from the screen and then waits for the screen to
# change: a program still reading the storm shows screens it will leave (a main view seen then
# does not mean the storm's last keys left it there), so one look never decides; at most 100 keys.
quit_clean() {
    n=0
    while [ $n -lt 100 ]; do
        scr=$(T capture-pane -p -t "$1")
        case $scr in
        *EXIT=*) break ;;
        *"quit without saving"*) T send-keys -t "$1" y ;;
        *"q quit"*) T send-keys -t "$1" q ;;
        *) T send-keys -t "$1" Escape ;;
        esac
        n=$((n + 1))
        i=0
        while [ $i -lt $tui_guard ] && [ "$(T capture-pane -p -t "$1")" = "$scr" ]; do i=$((i + 1)); sleep $tui_poll_s; done
    done
    T capture-pane -p -t "$1" | grep -q "EXIT=0"
}
for start in default struct-mixed lesson-padding reduction-strided; do
    # Each start gets its own session, made before the last one is killed: killing the only
    # session ends the tmux server, and a client arriving while it shuts down fails.
    s="storm-$start"
    T new-session -d -s "$s" -x 80 -y 24 \
        "cd '$tmp' && env LANG=C.UTF-8 TERM=xterm-256color TMPDIR='$tmp' $bin --no-gpu $start; echo EXIT=\$?; sleep 30"
    seed=$(echo "$start" | cksum | cut -d' ' -f1)
    keys=$(awk -v seed="$seed" 'BEGIN {
        srand(seed);
        n = split("a b c d e f g h i j k l m n o p r s t u v w x y z A B E I R S W X + - = _ ? 0 1 5 9 [ ] ( ) ^ * / %", K, " ");
        split("Up Down Left Right Tab Enter Escape BSpace F1 Space PageUp Home PageDown End", S, " ");
        for (i = 1; i <= 600; i++) {
            if (i % 25 == 0) { printf "RESIZE:%d:%d\n", 10 + int(rand() * 190), 5 + int(rand() * 55); continue }
            if (rand() < 0.3) printf "KEY:%s\n", S[1 + int(rand() * 14)]; else printf "%s\n", K[1 + int(rand() * n)];
        }
    }')
    first_frame "$s"
    send_storm "$s" "$keys"
    # the storm ends with a resize, maybe below the minimum size, where keys do nothing (Esc
    # included): the quit starts once the terminal is 80x24 again
    T resize-window -t "$s" -x 80 -y 24
    tty_size "$s" 80 24
    if quit_clean "$s"; then
        echo "storm $start: survived 600 keys and 24 resizes, quit cleanly"
    else
        echo "FAIL storm $start:"; T capture-pane -p -S -200 -t "$s" | grep -v "^$" | tail -40; rc=1
    fi
    [ -n "$old" ] && T kill-session -t "$old"
    old=$s
done

for picker in A L; do # an empty list, then every key that moves or chooses
    s="empty-$picker"
    T new-session -d -s "$s" -x 100 -y 30 \
        "cd '$tmp' && env LANG=C.UTF-8 TERM=xterm-256color TMPDIR='$tmp' $bin --no-gpu; echo EXIT=\$?; sleep 30"
    first_frame "$s"
    T send-keys -t "$s" "$picker"
    i=0
    while [ $i -lt $tui_guard ] && ! T capture-pane -p -t "$s" | grep -q "filter:"; do i=$((i + 1)); sleep $tui_poll_s; done
    T send-keys -t "$s" -l "zqzqzq"
    T send-keys -t "$s" Down PageDown End Up PageUp Home Enter Down Enter
    i=0
    while [ $i -lt $tui_guard ] && ! T capture-pane -p -t "$s" | grep -q "nothing matches"; do i=$((i + 1)); sleep $tui_poll_s; done
    if T capture-pane -p -t "$s" | grep -q "nothing matches" && quit_clean "$s"; then
        echo "picker $picker: a filter matching nothing, then moves and Enter: still running, quit cleanly"
    else
        echo "FAIL picker $picker with nothing shown:"; T capture-pane -p -S -200 -t "$s" | grep -v "^$" | tail -40; rc=1
    fi
    [ -n "$old" ] && T kill-session -t "$old"
    old=$s
done
for seed in 1 2 3 4 5 6 7 8; do # storms over the pickers and what they open
    s="pick-$seed"
    T new-session -d -s "$s" -x 80 -y 24 \
        "cd '$tmp' && env LANG=C.UTF-8 TERM=xterm-256color TMPDIR='$tmp' $bin --no-gpu; echo EXIT=\$?; sleep 30"
    keys=$(awk -v seed="$seed" 'BEGIN {
        srand(seed);
        n = split("L A L A z x w k j e r t v b u i o p s 1 0 - _", K, " ");
        split("Down PageDown End Up PageUp Home Enter BSpace Escape Tab", S, " ");
        for (i = 1; i <= 200; i++)
            if (rand() < 0.45) printf "KEY:%s\n", S[1 + int(rand() * 10)]; else printf "%s\n", K[1 + int(rand() * n)];
    }')
    first_frame "$s"
    send_storm "$s" "$keys"
    if quit_clean "$s"; then
        echo "picker storm $seed: survived 200 keys, quit cleanly"
    else
        echo "FAIL picker storm $seed:"; T capture-pane -p -S -200 -t "$s" | grep -v "^$" | tail -40; rc=1
    fi
    [ -n "$old" ] && T kill-session -t "$old"
    old=$s
done
exit $rc

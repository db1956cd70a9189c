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
rc=0
old=""
# send_storm SESSION KEYS: every key of KEYS (one a line: KEY:NAME, RESIZE:X:Y or a literal) in
# order, each by its own send-keys (or resize-window) command, the commands between two resizes
# given to one tmux client (commands joined by ';'), so that 600 keys cost 25 clients, not 600
send_storm() {
    ss=$1
    ks=$2
    set --
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
    if [ $# -gt 0 ]; then T "$@"; fi
}
# on_main SESSION: poll (every 10 ms) until the main view is on top (only its bar offers "q quit"),
# for at most 30 polls (no less than the 0.3 s the Escapes were given before)
on_main() {
    j=0
    while [ $j -lt 30 ] && ! T capture-pane -p -t "$1" | grep -q "q quit"; do j=$((j + 1)); sleep 0.01; done
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
    send_storm "$s" "$keys"
    T resize-window -t "$s" -x 80 -y 24
    # keys typed below the minimum size do nothing, Esc included, so more views may be open
    # than a storm where every key acted: Esc until the main view
    T send-keys -t "$s" Escape Escape Escape Escape Escape Escape
    on_main "$s"
    T send-keys -t "$s" Escape Escape Escape Escape
    T send-keys -t "$s" q
    # after edits q asks "quit without saving? (y/n)": poll (a sanitizer build is slow to draw)
    # for the question or the exit, answering y once
    i=0
    answered=""
    while [ $i -lt 2000 ] && ! T capture-pane -p -t "$s" | grep -q "EXIT="; do
        if [ -z "$answered" ] && T capture-pane -p -t "$s" | grep -q "quit without saving"; then
            T send-keys -t "$s" y
            answered=1
        fi
        i=$((i + 1)); sleep 0.01
    done
    if T capture-pane -p -t "$s" | grep -q "EXIT=0"; then
        echo "storm $start: survived 600 keys and 24 resizes, quit cleanly"
    else
        echo "FAIL storm $start:"; T capture-pane -p -S -200 -t "$s" | grep -v "^$" | tail -40; rc=1
    fi
    [ -n "$old" ] && T kill-session -t "$old"
    old=$s
done

# quit: Escape until the main view, q, y when asked; "ok" when the program exited 0
quit_clean() {
    T send-keys -t "$1" Escape Escape Escape
    on_main "$1"
    T send-keys -t "$1" Escape q
    i=0
    answered=""
    while [ $i -lt 2000 ] && ! T capture-pane -p -t "$1" | grep -q "EXIT="; do
        if [ -z "$answered" ] && T capture-pane -p -t "$1" | grep -q "quit without saving"; then
            T send-keys -t "$1" y
            answered=1
        fi
        i=$((i + 1)); sleep 0.01
    done
    T capture-pane -p -t "$1" | grep -q "EXIT=0"
}
for picker in A L; do # an empty list, then every key that moves or chooses
    s="empty-$picker"
    T new-session -d -s "$s" -x 100 -y 30 \
        "cd '$tmp' && env LANG=C.UTF-8 TERM=xterm-256color TMPDIR='$tmp' $bin --no-gpu; echo EXIT=\$?; sleep 30"
    i=0 # the first frame before the first key (a sanitized build starts slowly)
    while [ $i -lt 2000 ] && ! T capture-pane -p -t "$s" | grep -q "q quit"; do i=$((i + 1)); sleep 0.01; done
    T send-keys -t "$s" "$picker"
    i=0
    while [ $i -lt 1000 ] && ! T capture-pane -p -t "$s" | grep -q "filter:"; do i=$((i + 1)); sleep 0.01; done
    T send-keys -t "$s" -l "zqzqzq"
    T send-keys -t "$s" Down PageDown End Up PageUp Home Enter Down Enter
    i=0
    while [ $i -lt 1000 ] && ! T capture-pane -p -t "$s" | grep -q "nothing matches"; do i=$((i + 1)); sleep 0.01; done
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

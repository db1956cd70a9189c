# Shared helpers of the tmux-driven TUI tests (sourced; needs T, $sess and $tmp from the caller).
# A screen is polled, never waited for with a fixed sleep: every 10 ms until the expected text
# (or stored screen) shows, with a hang guard of 2000 polls (20 s of sleeps, more with the
# captures). Screens are compared in the shell, so a poll costs one tmux client and no other
# process. A captured screen keeps its trailing blank lines (the "." sentinel), so "equals the
# stored screen" means every row.
tui_poll_s=0.01
tui_settle_s=0.05 # a screen matched on its text alone stays the same this long
tui_guard=2000

# tui_capture: the current screen of $sess, sentinel included, in $tui_screen
tui_capture() { tui_screen=$(T capture-pane -p -t "$sess" 2>/dev/null; echo .); }

# tui_save: write the last captured screen to $tmp/screen (for messages and stored screens)
tui_save() { printf '%s' "${tui_screen%.}" > "$tmp/screen"; }

wait_for() {  # wait_for TEXT [FILE]: poll until the screen differs from the one before the last
    # keys, shows TEXT and equals FILE if given; a screen matched on TEXT alone must also stay
    # the same for $tui_settle_s (a frame half drawn may already show the text)
    tui_want=""
    [ -n "$2" ] && tui_want=$(cat "$2" 2>/dev/null; echo .)
    i=0
    while [ $i -lt $tui_guard ]; do
        tui_capture
        if [ "$tui_screen" != "$tui_before" ]; then
            case $tui_screen in
            *"$1"*)
                if [ -n "$2" ]; then
                    [ "$tui_screen" = "$tui_want" ] && { tui_save; return 0; }
                else
                    tui_first=$tui_screen
                    sleep $tui_settle_s
                    tui_capture
                    [ "$tui_screen" = "$tui_first" ] && { tui_save; return 0; }
                fi
                ;;
            esac
        fi
        i=$((i + 1))
        sleep $tui_poll_s
    done
    tui_save
    return 1
}
keys() {  # keys KEY...: remember the screen as it is, then send the keys
    tui_capture
    tui_before=$tui_screen
    T send-keys -t "$sess" "$@"
}
# tty_size SESSION COLS ROWS: poll until the terminal of SESSION's pane has COLS x ROWS (a
# resize that follows another within 250 ms reaches the program up to 250 ms after resize-window
# returns, tmux batches them: a key sent meanwhile is read at the old size, where below the
# minimum it does nothing). False when the size never came.
tty_size() {
    tui_tty=$(T display-message -p -t "$1" '#{pane_tty}')
    i=0
    while [ $i -lt $tui_guard ]; do
        [ "$(stty -F "$tui_tty" size 2>/dev/null)" = "$3 $2" ] && return 0
        i=$((i + 1))
        sleep $tui_poll_s
    done
    return 1
}
resize() {  # resize COLS ROWS: as keys, for the window size, returning once the program's terminal has it
    tui_capture
    tui_before=$tui_screen
    T resize-window -t "$sess" -x "$1" -y "$2"
    tty_size "$sess" "$1" "$2"
}
check() {  # check NAME TEXT: the screen shows TEXT, and equals the stored screen NAME
    name=$1
    if [ -n "$BANKSCOPE_UPDATE_SCREENS" ]; then
        wait_for "$2" && cp "$tmp/screen" "$screens/$name.txt"
    fi
    if wait_for "$2" "$screens/$name.txt"; then
        pass=$((pass + 1))
    elif ! grep -qF -- "$2" "$tmp/screen"; then
        echo "FAIL $name: '$2' never appeared; screen was:"; cat "$tmp/screen"; fail=$((fail + 1))
    else
        echo "FAIL $name: screen differs from tests/tui/screens/$name.txt:"
        diff "$screens/$name.txt" "$tmp/screen" | head -20
        fail=$((fail + 1))
    fi
}
gone() {  # gone NAME TEXT: wait until TEXT is no longer on the screen
    i=0
    while [ $i -lt $tui_guard ]; do
        tui_capture
        case $tui_screen in
        *"$2"*) ;;
        *) tui_save; pass=$((pass + 1)); return 0 ;;
        esac
        i=$((i + 1))
        sleep $tui_poll_s
    done
    tui_save
    echo "FAIL $1: '$2' still on the screen:"; cat "$tmp/screen"; fail=$((fail + 1))
}
expect() {  # expect NAME TEXT: only wait for TEXT
    if wait_for "$2"; then pass=$((pass + 1)); else echo "FAIL $1: '$2' missing:"; cat "$tmp/screen"; fail=$((fail + 1)); fi
}

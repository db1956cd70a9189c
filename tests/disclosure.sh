#!/bin/sh
# A file sent by someone else never makes bankscope read or show a file the user did not choose.
# Recordings made from a real one (tests/data/record/transpose-naive.json) with their lines
# naming /etc/passwd, /proc/self/environ, a secret beside the recording's folder (../secret.cu,
# with texts that match it), a symbolic link to it, /proc/kmsg (size 0, a read blocks), a FIFO
# and /dev/tty are opened in the TUI (tmux): the view comes up, shows the recording's own lines
# and says in one line why the file was not opened; the terminal is given back. A file beside
# the recording whose lines hold the recorded texts is shown; one without texts to check it
# against is not. A lesson step naming /dev/tty or a file outside the lesson's folder is refused
# with a message, never waits. Skips (77) without tmux or python3.
command -v tmux >/dev/null 2>&1 || { echo "tmux not found: skipped"; exit 77; }
command -v python3 >/dev/null 2>&1 || { echo "python3 not found: skipped"; exit 77; }
srcdir=${srcdir:-.}
top_builddir=${top_builddir:-.}
bin="$(cd "$top_builddir" && pwd)/bankscope"
rec="$(cd "$srcdir/tests/data/record" && pwd)/transpose-naive.json"
src="$(cd "$srcdir/tests/gpu/record" && pwd)/transpose.cu"
tmp=$(mktemp -d) || exit 99
sock="bankscope-disc-$$"
T() { tmux -L "$sock" -f /dev/null "$@"; }
trap 'T kill-server 2>/dev/null; rm -rf "$tmp"' EXIT
pass=0
fail=0
ok() { pass=$((pass + 1)); }
bad() { echo "FAIL $*"; fail=$((fail + 1)); }

# mk OUT NAME [TEXT...]: the recording with every line's file NAME; with texts, line i + 1 and
# text i (round robin); "-": no texts at all
mk() {
    python3 - "$rec" "$@" <<'EOF'
import json, sys
src, out, name, texts = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:]
r = json.load(open(src))
for i, l in enumerate(r["lines"]):
    if l.get("file"):
        l["file"] = name
        if texts == ["-"]:
            l.pop("text", None)
        elif texts:
            l["line"] = i + 1
            l["text"] = texts[i % len(texts)]
json.dump(r, open(out, "w"))
EOF
}

mkdir "$tmp/dl" "$tmp/ok"
printf 'int secret_a = 1;\nint secret_b = 2;\nPASSWORD=hunter2\n' > "$tmp/secret.cu"
mk "$tmp/dl/passwd.json" /etc/passwd -
mk "$tmp/dl/passwd1.json" /etc/passwd "$(head -n 1 /etc/passwd)"
mk "$tmp/dl/environ.json" /proc/self/environ -
mk "$tmp/dl/up.json" ../secret.cu "int secret_a = 1;" "int secret_b = 2;"
mk "$tmp/dl/abs.json" "$tmp/secret.cu" "int secret_a = 1;" "int secret_b = 2;"
ln -s ../secret.cu "$tmp/dl/link.cu"
mk "$tmp/dl/link.json" link.cu "int secret_a = 1;" "int secret_b = 2;"
mk "$tmp/dl/kmsg.json" /proc/kmsg -
mkfifo "$tmp/dl/fifo.cu"
mk "$tmp/dl/fifo.json" fifo.cu "int secret_a = 1;"
mk "$tmp/dl/tty.json" /dev/tty -
cp "$src" "$tmp/ok/transpose.cu"
mk "$tmp/ok/beside.json" transpose.cu
mk "$tmp/ok/notext.json" transpose.cu -
mkdir "$tmp/ok/inner"
cp "$tmp/ok/beside.json" "$tmp/ok/inner/elsewhere.json"

# shellcheck source=tests/tui/lib.sh
. "$srcdir/tests/tui/lib.sh"
nview=0
# view NAME FILE [ARGS]: open FILE in the TUI (80x24) in FILE's folder; poll (lib.sh) for the
# source view; the screen in $tmp/NAME.screen; q quits, and the shell's marker shows the exit
view() {
    name=$1 file=$2
    shift 2
    # the new session first: killing the only session ends the server, and a client that
    # arrives while it shuts down fails
    old=v$nview
    nview=$((nview + 1))
    T new-session -d -s v$nview -x 80 -y 24 \
        "cd '$(dirname "$file")' && env LANG=C.UTF-8 TERM=xterm-256color '$bin' --no-gpu '$file' $* </dev/tty; echo EXIT=\$?; sleep 30"
    T kill-session -t "$old" 2>/dev/null
    sess=v$nview
    tui_before=""
    wait_for "one block of one launch" # and the frame settled: its message line drawn
    cp "$tmp/screen" "$tmp/$name.screen"
    T send-keys -t v$nview q q
    i=0
    while [ $i -lt $tui_guard ]; do
        T capture-pane -p -t v$nview > "$tmp/$name.after" 2>/dev/null
        grep -q "^EXIT=" "$tmp/$name.after" && break
        i=$((i + 1))
        sleep $tui_poll_s
    done
}
# shows NAME TEXT: the screen of NAME has TEXT; hides NAME TEXT: it has not
shows() { grep -qF -- "$2" "$tmp/$1.screen" && ok || { bad "$1: '$2' not on the screen:"; cat "$tmp/$1.screen"; }; }
hides() { grep -qF -- "$2" "$tmp/$1.screen" && { bad "$1: '$2' is on the screen:"; cat "$tmp/$1.screen"; } || ok; }
ended() { grep -q "^EXIT=0" "$tmp/$1.after" && ok || { bad "$1: the view did not end (status 0):"; cat "$tmp/$1.after"; }; }

view passwd "$tmp/dl/passwd.json"
shows passwd "source not opened, outside the recording's folder: /etc/passwd"
hides passwd "root:"
ended passwd
view passwd1 "$tmp/dl/passwd1.json" # its first line quoted: still not the file
hides passwd1 "daemon:"
shows passwd1 "source not opened, outside the recording's folder: /etc/passwd"
view environ "$tmp/dl/environ.json"
shows environ "source not opened, a system file: /proc/self/environ"
hides environ "LANG="
view up "$tmp/dl/up.json"
shows up "source not opened, outside the recording's folder: ../secret.cu"
hides up "hunter2"
view abs "$tmp/dl/abs.json"
hides abs "hunter2"
view link "$tmp/dl/link.json"
shows link "source not opened, outside the recording's folder: link.cu"
hides link "hunter2"
view kmsg "$tmp/dl/kmsg.json"
shows kmsg "source not opened, a system file: /proc/kmsg"
ended kmsg
view fifo "$tmp/dl/fifo.json"
shows fifo "source not opened, not a regular file: fifo.cu"
ended fifo
view tty "$tmp/dl/tty.json"
shows tty "source not opened, a system file: /dev/tty"
ended tty
# the user's own file beside the recording is shown; without texts to check it, it is not
view beside "$tmp/ok/beside.json"
shows beside "__syncthreads();"
view notext "$tmp/ok/notext.json"
shows notext "source not opened: the recording's lines carry no text to check transpose.cu"
hides notext "__syncthreads();"
# elsewhere, --source DIR names the folder of the user's sources
view elsewhere "$tmp/ok/inner/elsewhere.json"
shows elsewhere "transpose.cu not found"
view elsewhere-dir "$tmp/ok/inner/elsewhere.json" --source "$tmp/ok"
shows elsewhere-dir "__syncthreads();"
view elsewhere-out "$tmp/ok/inner/elsewhere.json" --source "$tmp/ok/inner"
hides elsewhere-out "__syncthreads();"
# the terminal is given back after each: the shell's marker is on a line of its own
grep -q "^EXIT=0" "$tmp/beside.after" && ok || bad "beside: no EXIT=0 line"

# analyze prints the recording's own texts, never a file's: the secret stays unread
for f in passwd up link kmsg fifo tty; do
    timeout 20 "$bin" analyze "$tmp/dl/$f.json" --summary > "$tmp/an.out" 2>&1
    rc=$?
    [ $rc -eq 0 ] && ! grep -q "hunter2\|root:" "$tmp/an.out" && ok || { bad "analyze $f: status $rc"; head -5 "$tmp/an.out"; }
done

# a lesson step naming /dev/tty, a file outside the lesson's folder or a FIFO: refused, at once
mkdir "$tmp/les"
printf '{"name": "own", "block": [32], "arrays": [{"name": "a", "type": "float", "dims": [32]}], "accesses": [{"op": "load", "array": "a", "index": "tid"}]}\n' > "$tmp/les/own.json"
cp "$tmp/les/own.json" "$tmp/outside.json"
mkfifo "$tmp/les/pipe.json"
for step in /dev/tty ../outside.json "$tmp/outside.json" pipe.json /proc/self/environ; do
    printf '{"lesson": "L", "steps": [{"pattern": "own.json", "text": "a"}, {"pattern": "%s", "text": "b"}]}\n' "$step" > "$tmp/les/l.json"
    timeout 10 "$bin" "$tmp/les/l.json" --snapshot < /dev/null > "$tmp/les.out" 2>&1
    rc=$?
    if [ $rc -eq 2 ] && grep -q "steps\[1\].pattern: .*not opened" "$tmp/les.out"; then ok; else
        bad "lesson step $step: status $rc:"; head -3 "$tmp/les.out"; fi
done
printf '{"lesson": "L", "steps": [{"pattern": "own.json", "text": "a"}, {"pattern": "default", "text": "b"}]}\n' > "$tmp/les/l.json"
timeout 10 "$bin" "$tmp/les/l.json" --snapshot < /dev/null > "$tmp/les.out" 2>&1 && ok || {
    bad "a lesson of its own file and a library pattern: status $?"; head -3 "$tmp/les.out"; }

echo "disclosure: $pass passed, $fail failed"
[ $fail -eq 0 ]

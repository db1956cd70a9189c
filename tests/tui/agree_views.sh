#!/bin/sh
# What the screen shows equals what `bankscope analyze --json` prints for the same file, read off
# the screen as a user reads it (tmux, 220x60), not from the state behind it (tests/tui/agree.sh
# does that): for every recording of tests/data, the source view's gutter (per line: predicted
# wavefronts/ideal, worst degree or "not modelled: KIND" / "measured only", the launch's measured
# wavefronts/ideal and its agreement mark) against analyze's "source_lines", the line under the
# text for every line the cursor visits (its counts, measured excess, predicted x blocks and why
# they differ), and the SASS view's rows, every page (pc, executions, wavefronts/ideal, worst
# degree, measured) against its "sass", each row listed once and no row missing; for patterns of
# the library (160x48), the header's verdict and the result panel's wavefronts against the
# instruction on show in analyze's "accesses", and its totals line against analyze's "summary".
# Screens are polled (tests/tui/lib.sh), never waited for with a fixed sleep.
# Skips (77) without tmux or python3.
command -v tmux >/dev/null 2>&1 || { echo "tmux not found: skipped"; exit 77; }
command -v python3 >/dev/null 2>&1 || { echo "python3 not found: skipped"; exit 77; }
srcdir=${srcdir:-.}
top_builddir=${top_builddir:-.}
bin="$(cd "$top_builddir" && pwd)/bankscope"
root="$(cd "$srcdir" && pwd)"
sock="bankscope-views-$$"
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
    sess="v$n"
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
bad() { echo "FAIL $*"; fail=$((fail + 1)); }

# The comparison, in one place: MODE (source, sass or result), analyze's JSON, the screens.
cat > "$tmp/cmp.py" << 'EOF'
import json, re, sys
mode, ajson, screens = sys.argv[1], sys.argv[2], sys.argv[3:]
a = json.load(open(ajson))
rows = []
for s in screens:
    rows += open(s, encoding="utf-8").read().split("\n")
bad = []
def deg_text(d):
    return "conflict-free" if d <= 1 else "%d-way" % d
def mark(agree):
    return {True: "=", False: "≠", None: "?"}[agree]
if mode == "source":
    seen = {}
    # a line of the file starts with its number; a line of another file (an inlined header) says
    # FILE:LINE: after the gutter
    pat = re.compile(r"^\s*(\d+)? +(?:(\d+)/(\d+) +)?(conflict-free|\d+-way|not modelled: \S+|measured only)"
                     r"(?: +(\d+)/(\d+)([=≠?]))?(?: +([^ :]+):(\d+):)?")
    for r in rows[2:]:
        m = pat.match(r)
        if m and m.group(1):
            seen.setdefault(int(m.group(1)), []).append(m.groups()[1:7])
        elif m and m.group(8):
            seen.setdefault(("x", m.group(8).split("/")[-1], int(m.group(9))), []).append(m.groups()[1:7])
    for l in a["source_lines"]:
        got = seen.pop(l["line"], None) or seen.pop(("x", l["file"].split("/")[-1], l["line"]), None)
        if got is None:
            bad.append("line %d: on analyze's list, not on the screen" % l["line"])
            continue
        if len(got) > 1:
            bad.append("line %d: %d rows on the screen" % (l["line"], len(got)))
        g = got[0]
        p = l["predicted"]
        if l["instructions"] == 0:
            want = (None, None, "measured only")
        elif l["instructions"] == l["not_modelled"] and p["conflict_degree"] == 0:
            want = (str(p["wavefronts"]), str(p["ideal_wavefronts"]), "not modelled: ")
        else:
            want = (str(p["wavefronts"]), str(p["ideal_wavefronts"]), deg_text(p["conflict_degree"]))
        if g[0:2] != want[0:2] or not g[2].startswith(want[2]):
            bad.append("line %d: screen %s/%s %s, analyze %s/%s %s" % ((l["line"],) + tuple(g[0:3]) + want))
        ms = l["measured"]
        wm = (str(ms["wavefronts"]), str(ms["ideal_wavefronts"]), mark(l["agree"])) if ms else (None, None, None)
        if tuple(g[3:6]) != wm:
            bad.append("line %d: measured on screen %s, analyze %s" % (l["line"], g[3:6], wm))
    for line in seen:
        bad.append("line %d: on the screen, not on analyze's list" % line)
elif mode == "sass":
    seen, page = {}, set()
    pat = re.compile(r"^\s*\d+  0x([0-9a-f]+) +(\d+) +(-|\d+/\d+) (conflict-free|\d+-way|not modelled: \S+|measured only)"
                     r" +(?:(-|\d+/\d+) +)?(?:\S+:\d+|\(no line info\)) ")
    measured = any(s["measured"] for s in a["sass"])
    for r in rows:
        if r.startswith(" SASS "): # a page: the last one may show rows of the one before
            page = set()
        m = pat.match(r)
        if m:
            pc = int(m.group(1), 16)
            if pc in page or (pc in seen and seen[pc] != m.groups()[1:]):
                bad.append("pc 0x%x: twice on the screen" % pc)
            page.add(pc)
            seen[pc] = m.groups()[1:]
    for s in a["sass"]:
        g = seen.pop(s["pc"], None)
        if g is None:
            bad.append("pc 0x%x (%s): on analyze's list, not on the screen" % (s["pc"], s["sass"]))
            continue
        p = s["predicted"]
        if p:
            want = (str(s["executions"]), "%d/%d" % (p["wavefronts"], p["ideal_wavefronts"]), deg_text(p["conflict_degree"]))
        else:
            want = (str(s["executions"]), "-", "measured only" if s["measured_only"] else "not modelled: " + (s["kind"] or ""))
        if g[0:3] != want:
            bad.append("pc 0x%x: screen %s, analyze %s" % (s["pc"], g[0:3], want))
        ms = s["measured"]
        wm = ("%d/%d" % (ms["wavefronts"], ms["ideal_wavefronts"]) if ms else "-") if measured else None
        if g[3] != wm:
            bad.append("pc 0x%x: measured on screen %s, analyze %s" % (s["pc"], g[3], wm))
    for pc in seen:
        bad.append("pc 0x%x: on the screen, not on analyze's list" % pc)
    if not a["sass"]:
        bad.append("analyze lists no SASS instruction")
elif mode == "status":
    # the line under the source view, for each line the cursor visited: its numbers in words
    seen = {}
    pat = re.compile(r"^ line (\d+): (?:(\d+) warp-instr\.[^,;]*, (\d+) wavefronts? \(ideal (\d+)\)[^;]*|measured only[^;]*)"
                     r"(?:; measured (\d+)/(\d+), excess (-?\d+); pred x blocks (\d+)(?:: (.*))?)?$")
    for r in rows:
        m = pat.match(r.rstrip())
        if m:
            seen[int(m.group(1))] = m.groups()[1:]
    for l in a["source_lines"]:
        g = seen.get(l["line"])
        if g is None:
            bad.append("line %d: the cursor's line never said its numbers" % l["line"])
            continue
        p = l["predicted"]
        if l["instructions"] and g[0:3] != (str(l["instructions"]), str(p["wavefronts"]), str(p["ideal_wavefronts"])):
            bad.append("line %d: status %s, analyze %s" % (l["line"], g[0:3], (l["instructions"], p["wavefronts"], p["ideal_wavefronts"])))
        ms = l["measured"]
        if ms:
            want = (str(ms["wavefronts"]), str(ms["ideal_wavefronts"]), str(ms["excess"]), str(ms["predicted_launch"]),
                    l["agree_why"] if l["agree"] is not True else None)
            got = tuple(g[3:8])
            if got[4] is not None and want[4] is not None and got[4].endswith("…") and want[4].startswith(got[4][:-1]):
                got = got[:4] + (want[4],) # cut by the screen's width, said with an ellipsis
            if got != want:
                bad.append("line %d: status measured %s, analyze %s" % (l["line"], got, want))
        elif g[3] is not None:
            bad.append("line %d: status says measured, analyze does not" % l["line"])
elif mode == "result":
    snap = json.load(open(screens[-1] + ".snap"))
    seq = snap["selection"]["seq"]
    x = next(i for i in a["accesses"] if i["seq"] == seq)
    head = rows[0]
    verdict = deg_text(x["conflict_degree"])
    if not head.rstrip().endswith(verdict):
        bad.append("header %r does not end with analyze's %s" % (head.rstrip(), verdict))
    wf = "%d wavefront%s (ideal %d)" % (x["wavefronts"], "" if x["wavefronts"] == 1 else "s", x["ideal_wavefronts"])
    if not any(wf in r for r in rows):
        bad.append("result panel lacks %r" % wf)
    # the degree in words (its number may be drawn big, in block characters, before "-way")
    if x["conflict_degree"] > 1 and not any(("-way conflict") in r for r in rows):
        bad.append("result panel lacks '-way conflict'")
    # the totals line, over every warp-instruction (shown when there are several)
    su = a["summary"]
    tot = [m for m in (re.search(r"│ (?:all|warp \d+): ([^│]*?) *│", r) for r in rows) if m]
    if su["instructions"] > 1 and not tot:
        bad.append("no totals line for %d warp-instructions" % su["instructions"])
    for m in tot[:1]:
        t = m.group(1)
        checks = [(r"(\d+) wf", su["wavefronts"]), (r"ideal (\d+)", su["ideal_wavefronts"]),
                  (r"(\d+) instr\.", su["issued_instructions"]), (r"\+(\d+) idle", su["idle_instructions"]),
                  (r"(?<![+\d])(\d+) idle", su["idle_instructions"])]
        for rx, want in checks:
            g = re.search(rx, t)
            if g and int(g.group(1)) != want:
                bad.append("totals %r: %s is %s, analyze %d" % (t, rx, g.group(1), want))
        g = re.search(r"worst (\S+)", t)
        if g and g.group(1) != deg_text(su["worst_conflict_degree"]):
            bad.append("totals %r: worst %s, analyze %s" % (t, g.group(1), deg_text(su["worst_conflict_degree"])))
for b in bad:
    print(b)
sys.exit(1 if bad else 0)
EOF

# ---- recordings: the source view and the SASS view, every row ----
for rec in "$root"/tests/data/record/*.json "$root"/tests/data/measured/rec/*.json; do
    name=$(basename "$rec")
    "$bin" analyze "$rec" --json > "$tmp/a.json" 2>/dev/null || continue
    start 220 60 "$rec"
    # a recording with line info opens on the source view, one without on the SASS view
    i=0
    while [ $i -lt $tui_guard ]; do
        tui_capture
        case $tui_screen in *" SOURCE │"*"line "* | *" SASS │"*"lines "*) break ;; esac
        i=$((i + 1))
        sleep $tui_poll_s
    done
    tui_save
    case $tui_screen in
    *" SOURCE │"*)
        cp "$tmp/screen" "$tmp/src.txt"
        if out=$(python3 "$tmp/cmp.py" source "$tmp/a.json" "$tmp/src.txt"); then
            pass=$((pass + 1))
        else
            printf '%s\n' "$out" | sed "s|^|$name source view: |" | while read -r l; do echo "FAIL $l"; done
            fail=$((fail + 1))
        fi
        # the cursor through every line: the line under the text says its numbers in words
        nl=$(python3 -c 'import json,sys; print(len(json.load(open(sys.argv[1]))["source_lines"]))' "$tmp/a.json")
        : > "$tmp/status.txt"
        k=0
        while [ $k -le $((nl + 4)) ]; do
            grep '^ line [0-9]*:' "$tmp/screen" >> "$tmp/status.txt"
            k=$((k + 1))
            [ "$(sort -u "$tmp/status.txt" | wc -l)" -ge "$nl" ] && break
            keys Down
            wait_for "" || break # the cursor at the end: the screen stays
        done
        if out=$(python3 "$tmp/cmp.py" status "$tmp/a.json" "$tmp/status.txt"); then
            pass=$((pass + 1))
        else
            printf '%s\n' "$out" | sed "s|^|$name source view's status line: |" | while read -r l; do echo "FAIL $l"; done
            fail=$((fail + 1))
        fi
        keys D
        wait_for " SASS │" || { bad "$name: D did not open the SASS view"; continue; }
        ;;
    *" SASS │"*) ;;
    *) bad "$name: opened on neither the source nor the SASS view:"; cat "$tmp/screen"; continue ;;
    esac
    # every page of the SASS view, until the status says "(end)"
    p=0
    : > "$tmp/sass.txt"
    while :; do
        p=$((p + 1))
        cat "$tmp/screen" >> "$tmp/sass.txt"
        case $tui_screen in *"(end)"* | *" of 1"[!0-9]*) break ;; esac
        [ $p -lt 100 ] || { bad "$name: the SASS view never reached its end"; break; }
        last=$(grep -o 'lines [0-9]*-[0-9]* of [0-9]*' "$tmp/screen")
        keys NPage
        wait_for "lines " || { bad "$name: NPage did not page"; break; }
        [ "$(grep -o 'lines [0-9]*-[0-9]* of [0-9]*' "$tmp/screen")" != "$last" ] || { bad "$name: NPage stayed on $last"; break; }
    done
    if out=$(python3 "$tmp/cmp.py" sass "$tmp/a.json" "$tmp/sass.txt"); then
        pass=$((pass + 1))
    else
        printf '%s\n' "$out" | sed "s|^|$name SASS view: |" | while read -r l; do echo "FAIL $l"; done
        fail=$((fail + 1))
    fi
done

# ---- patterns: the header's verdict and the result panel with its totals, at 160x48 ----
for p in default transpose-padded float4-32x36 aos-vec3 broadcast reduction-strided reduction-sequential histogram-skewed \
    gemm-bf16-swizzled char-32x129 scan conv3x3-34x34; do
    f="$root/patterns/$p.json"
    "$bin" analyze "$f" --json > "$tmp/a.json" 2>/dev/null || { bad "$p: analyze failed"; continue; }
    start 160 48 "$f"
    wait_for "PREDICTED" || { bad "$p: no PREDICTED on the screen"; continue; }
    cp "$tmp/screen" "$tmp/res.txt"
    "$bin" --snapshot "$f" > "$tmp/res.txt.snap" 2>/dev/null || { bad "$p: --snapshot failed"; continue; }
    if out=$(python3 "$tmp/cmp.py" result "$tmp/a.json" "$tmp/res.txt"); then
        pass=$((pass + 1))
    else
        printf '%s\n' "$out" | sed "s|^|$p: |" | while read -r l; do echo "FAIL $l"; done
        fail=$((fail + 1))
    fi
done
echo "agree_views: $pass views equal analyze, $fail differ"
[ $fail -eq 0 ] && [ $pass -gt 20 ]

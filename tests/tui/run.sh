#!/bin/sh
# End-to-end TUI tests: bankscope runs in a detached tmux at a fixed size; keys are sent, the
# screen is polled (never a fixed sleep, tests/tui/lib.sh) until an expected text shows, then
# compared with tests/tui/screens/NAME.txt. BANKSCOPE_UPDATE_SCREENS=1 rewrites the stored screens.
# The journeys run as eight parts at once (part1 .. part8 below, each with its own tmux server,
# folder and counts): the test waits on the screen far more than it computes, so the parts
# overlap their waits; each part's messages are printed in order at the end.
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
parts="1 2 3 4 5 6 7 8"
trap 'for k in $parts; do tmux -L "$sock-$k" -f /dev/null kill-server 2>/dev/null; done; rm -rf "$tmp"' EXIT
pass=0
fail=0
sess=""
n_sess=0

start() {  # start COLS ROWS ARGS...: a fresh session running bankscope, then an exit marker
    cols=$1 rows=$2
    shift 2
    old=$sess
    n_sess=$((n_sess + 1))
    sess="s$n_sess"
    tui_before="(new session)"
    # The new session first: killing the only session ends the server, and a client that
    # arrives while it shuts down fails ("server exited unexpectedly").
    # A server whose last session has just ended may be shutting down as the new session asks
    # for it: the session is then missing, and is asked for again.
    for try in 1 2 3; do
        T new-session -d -s "$sess" -x "$cols" -y "$rows" \
            "cd '$cases' && env LANG=C.UTF-8 TERM=xterm-256color NCURSES_NO_UTF8_ACS=1 TMPDIR='$tmp' $bin $*; echo EXIT=\$?; sleep 60" &&
            T has-session -t "=$sess" 2>/dev/null && break
        sleep 0.2
    done
    [ -n "$old" ] && T kill-session -t "=$old" 2>/dev/null
    # keys go to a program that has drawn its first frame: a key read before it knows the
    # terminal's size is taken on a too-small screen, where only q acts (slow sanitized starts)
    i=0
    while [ $i -lt 500 ]; do
        tui_capture
        case $tui_screen in *│* | *EXIT=*) break ;; esac
        i=$((i + 1))
        sleep $tui_poll_s
    done
}
. "$(cd "$srcdir/tests/tui" && pwd)/lib.sh"


# ---- every mode at four sizes: it opens, survives a resize, and Esc (or q) closes it ----
mode() {  # mode NAME SOURCE KEYS TEXT: open SOURCE, press KEYS, expect TEXT at each size
    name=$1 src=$2 k=$3 text=$4
    for size in 80x24 100x30 160x48 220x60; do
        start ${size%x*} ${size#*x} --no-gpu $src
        expect "$name-start-$size" "PREDICTED"
        [ -n "$k" ] && keys $k
        expect "$name-$size" "$text"
        if [ $size = 80x24 ]; then resize 100 30; else resize 80 24; fi
        expect "$name-resized-$size" "$text"
        keys Escape
        gone "$name-closed-$size" "$text"
    done
}

part1() {
# ---- stored screens of the main journeys ----
start 80 24 --no-gpu
check default-80x24 "32-way conflict"
keys +
check pad1-80x24 "conflict-free"
keys -
expect unpad-80x24 "32-way conflict"
keys t
check type-double-80x24 "double tile[32][32]"
keys '?'
check help-80x24 "keys of the main view"
keys Escape
expect help-closed "32 wavefronts"
resize 40 10
check tiny-40x10 "terminal too small"
resize 80 24
expect resized-back "PREDICTED"
keys q
expect quit-asks "quit without saving? (y/n"
keys n
expect quit-cancelled "double tile[32][32]"
keys q y
expect quit "EXIT=0"

start 80 24 --no-gpu aos-vec3
keys c
check compare-aos-soa-80x24 "SoA: float p_x[32]"
keys c s Space Space
check step-80x24 "step 2 of 4 wf"
keys Escape e
expect edit-open "index 1 of 1"
keys BSpace BSpace BSpace "tod"
check edit-error-80x24 "unknown identifier 'tod'"
keys BSpace BSpace "id * 2"
expect edit-live "p[tid * 2].x"
keys Enter q
expect quit2-asks "quit without saving?"
keys y
expect quit2 "EXIT=0"

start 160 48 --no-gpu transpose-naive
check transpose-160x48 "row write"
keys x
expect transpose-read-160x48 "-way conflict"
keys +
check transpose-pad-160x48 "conflict-free"

start 80 24 bad-expr.json
check broken-file "EXIT=2"

start 80 24 --no-gpu --no-color legacy-stride4
check legacy-mono-80x24 "4-way conflict"

start 100 34 --no-gpu transpose-naive
keys x v
check advisor-100x34 "smallest conflict-free padding: 1"
keys m
expect advisor-no-gpu "no GPU (--no-gpu): the sweep is predicted only"
keys Enter
expect advisor-applied "float tile[32][32+1]"

# the layout search: the cheapest conflict-free layout of a bf16 GEMM tile, applied with s, undone
start 80 24 --no-gpu gemm-bf16-tile
keys v
check advisor-layout-80x24 "CU_TENSOR_MAP_SWIZZLE_128B"
expect advisor-predicted-80x24 "no GPU: predicted only"
keys s
expect advisor-layout-applied '"swizzle": "128B" applied'
expect advisor-layout-conflict-free "conflict-free"
keys u
expect advisor-layout-undone "undone (0 more to undo"
keys v
expect advisor-layout-again 's applies "swizzle": "128B"'
start 160 48 --no-gpu gemm-bf16-tile
keys v
check advisor-layout-160x48 "A[r][c ^ ((r & 7) << 3)]"
keys Escape s
expect advisor-layout-key-step "Space reveals wavefront"
# two arrays with conflicts: the swept one's layout, and a line for the other
start 100 34 --no-gpu sweep-two-arrays.json
keys x v
check advisor-two-arrays-100x34 'array T: "swizzle": "Swizzle<5,0,5>"'

start 100 30 --no-gpu struct-mixed
keys o
check struct-100x30 "sizeof 64, alignof 16"
keys R
expect struct-reordered "sizeof 64 -> 32"

# a 16-byte store of three active quarter-warps: 3 wavefronts, but a cycle for each of 4 phases
start 160 48 --no-gpu trace-inactive-lanes.json
expect cycles-per-phase "4 cycles: one per phase"
start 80 24 --no-gpu trace-inactive-lanes.json
expect cycles-per-phase-small "3 wavefronts, 4 cycles"
expect cycles-status-small "no GPU: predicted only"

# the architecture keys skip the architectures that lack an access kind, and say why; a kind the
# model does not cover (cp.async.cg) is "not modelled", never a verdict
start 160 48 --no-gpu tensor-trace.json
keys R
expect arch-skips-kind "(6 skipped: ldmatrix exists from sm_75, not on sm_13)"
start 160 48 --no-gpu kinds-cg.json
expect not-modelled "not modelled: cp.async.cg bypasses L1"
expect not-modelled-caption "banks: trace[0] cp.async.cg, 16 B"

start 100 30 --no-gpu lesson-padding
keys n n n
check lesson-100x30 "lesson 4/8 │ Padding"

# with the GPU worker on: a machine without a GPU says so, and keys still answer at once
start 80 24 default
expect no-gpu-status "no GPU: predicted only"
keys +
expect no-gpu-keys "conflict-free"
keys v m
expect no-gpu-sweep "no GPU: the sweep is predicted only"



mode help default '?' "keys of the main view"
mode why default y "why (Esc or q closes)"
mode edit default e "index 1 of 2"
}

part2() {
mode prompt default S "save as: default.json_"
mode advisor transpose-naive "x v" "smallest conflict-free padding: 1"
mode structs struct-mixed o "structs: i declare, t type"
mode compare default c "COMPARE"
mode pin default "P +" "pinned: float tile[32][32]"
}

part3() {
mode step default "s Space" "step 1 of 32 wf"
mode lesson lesson-padding "" "lesson 1/8"
mode present default z "PRESENT"
mode quiz default Q "predict first"
mode arch-picker default A "(type to filter, Enter chooses, Esc closes)"
mode pattern-picker default L "(type to filter, Enter opens, Esc closes)"
}

part4() {


# ---- pinned sm_90 beside a 16-bank cc 1.x at 80x24: the cells fit the 32 banks (banks 17-31 and
# the frame were cut off) ----
start 80 24 --no-gpu
expect pin16-start "32-way conflict"
keys P R
expect pin16-banks "│wf   01234567890123456789012345678901 │"

# ---- a lane line too long for "base + offset" still says that its word is shared (char row read:
# lanes 1-3 read lane 0's word) ----
start 100 30 --no-gpu
expect shared-start "32-way conflict"
keys t t a
expect shared-said "lane  1: tile[0][1]  = 1 B → word 0 → bank 0 (shared)"

# ---- step mode narrates each wavefront in the model's words (explain_wavefront): the bottom line
# has the first line, the why panel all of it; a cut message ends in an ellipsis ----
start 100 30 --no-gpu
expect narrate-start "32-way conflict"
keys s Space Space
expect narrate-bottom "wavefront 1 (2 of 32; phase 0, 2 of its 32): bank 0 serves word 32 to lane 1"
expect narrate-why "lanes 2-31 of phase 0 still wait: their banks serve one word per wavefront"
start 80 24 --no-gpu aos-vec3
keys s Space Space
expect narrate-cut "one word each to lane…"

# ---- modes opened from the presentation keep its picture: step, quiz (with the answer's
# verdict) and compare draw no main-view panel over it ----
start 100 30 --no-gpu
expect present-start "32-way conflict"
keys z s Space
expect present-step "step 1 of 32 wf"
gone present-step-clean "PREDICTED"
keys Escape Q 3 Enter
expect present-quiz "you predicted 3: not quite"
gone present-quiz-clean "PREDICTED"
keys Escape Escape c z
expect present-over-compare "best padding: float tile[32][32+1]"

# ---- the presentation's grid says which instruction it is (lesson-tensor opens on the cp.async
# fill while the banner speaks of ldmatrix) ----
start 100 30 --no-gpu --present lesson-tensor
expect present-caption "A[64][64]: warp 0 cp.async (int4, 16 B)"
keys x
expect present-caption-next "A[64][64]: warp 0 ldmatrix.x4 (__nv_bfloat16, 16 B)"

# ---- colour roles (capture-pane -e): a 16-way conflict whose cells share words is red, not
# yellow; the selected lane is reversed on top of its red ----
start 100 30 --no-gpu
expect colours-start "32-way conflict"
keys e BSpace BSpace BSpace BSpace BSpace BSpace BSpace BSpace BSpace BSpace BSpace "lane / 2" Tab \
    BSpace BSpace BSpace BSpace BSpace BSpace BSpace BSpace BSpace BSpace BSpace 0 Enter
expect colours-16-way "16-way conflict"
keys Right Right # the first arrow selects lane 0, the second lane 1
expect colours-selected "lane 1 selected"
T capture-pane -e -p -t "$sess" > "$tmp/colour"
row0=$(sed -n 4p "$tmp/colour") # title, frame, bank numbers (one line: 3-column cells), row 0
if printf '%s' "$row0" | grep -q '41m' && ! printf '%s' "$row0" | grep -q '43m' &&
    printf '%s' "$row0" | grep -q '7m'; then pass=$((pass + 1)); else
    echo "FAIL colour roles: row 0 should be red (41) with a reversed selection (7), never yellow (43):"
    printf '%s\n' "$row0" | cat -v; fail=$((fail + 1)); fi

# ---- the mouse: SGR sequences written to the terminal select the lane under the click at 80x24
# (default: lane r sits in bank 0 at wavefront row r; the grid's rows start on screen line 5) ----
start 80 24 --no-gpu
expect mouse-start "32-way conflict"
gone mouse-no-selection "selected" # no lane is selected before one is chosen
T send-keys -t "$sess" -l "$(printf '\033[<0;40;%dM\033[<0;40;%dm' 19 19)" # the lane table's line of lane 2
expect mouse-lane-table "lane 2 selected"
for r in 0 3 6; do
    y=$((5 + r)) # 1-based screen line of wavefront row r
    T send-keys -t "$sess" -l "$(printf '\033[<0;7;%dM\033[<0;7;%dm' $y $y)"
    expect "mouse-row-$r" "lane $r selected"
done

# ---- n/p ask before throwing edits away; a save that would not load back is refused ----
start 80 24 --no-gpu
keys + n
expect next-asks "open the next pattern without saving your edits? (y/n"
keys n
expect next-cancelled "float tile[32][32+1]"
# an expression that fails for a lane is refused as the loader refuses it (same message), and
# the text stays in the prompt to be fixed: Enter does not throw it away
keys e BSpace BSpace BSpace BSpace BSpace BSpace BSpace BSpace BSpace BSpace BSpace "32/(threadIdx.x-3)"
check edit-div-zero-80x24 "division by zero for thread (3,0,0)"
keys Enter BSpace BSpace BSpace "+3)" Enter # Enter on a refused text keeps it in the prompt
expect div-zero-fixed "tile[32/(threadIdx.x+3)]"
expect div-zero-kept "e edit c compare" # the prompt closed (the preview showed the text before)
keys S BSpace BSpace BSpace BSpace BSpace BSpace BSpace BSpace BSpace BSpace BSpace BSpace "$tmp/div.json" Enter
expect div-fixed-saved "saved $tmp/div.json"
"$bin" analyze "$tmp/div.json" > /dev/null 2>&1 && pass=$((pass + 1)) ||
    { echo "FAIL div-fixed-saved: $tmp/div.json does not load"; fail=$((fail + 1)); }

# ---- a file saved after edits does not present the description of the state before them as
# its own: the name says "(edited)", the description is marked as the one before the edits ----
start 80 24 --no-gpu
expect save-edited-start "32-way conflict" # keys sent before the view is up would reach the shell
keys + S BSpace BSpace BSpace BSpace BSpace BSpace BSpace BSpace BSpace BSpace BSpace BSpace "$tmp/edited.json" Enter
expect save-edited "saved $tmp/edited.json"
if grep -q '"name": "Transpose column read, float tile\[32\]\[32\] (the default) (edited)"' "$tmp/edited.json" &&
    grep -q '"description": "Before the edits saved here: Warp 0 of a 32x32' "$tmp/edited.json"; then
    pass=$((pass + 1)); else echo "FAIL save-edited: name or description not marked:"; head -4 "$tmp/edited.json"; fail=$((fail + 1)); fi

# ---- a two-line warning headline never pushes the GPU status out of the result panel ----
for size in "80 24" "100 30"; do
    start $size --no-gpu float4-32x32
    expect "excluded-start-${size% *}" "8-way"
    keys +
    expect "excluded-status-${size% *}" "no GPU: predicted only"
done

# ---- Ctrl-C with unsaved edits asks first, as q does; a second Ctrl-C quits (130) ----
start 80 24 --no-gpu
expect ctrlc-start "32-way conflict"
keys +
expect ctrlc-edited "conflict-free"
keys C-c
expect ctrlc-asks "quit without saving? (y/n"
keys n
expect ctrlc-kept "float tile[32][32+1]"
keys C-c
expect ctrlc-asks-again "quit without saving? (y/n"
keys C-c
expect ctrlc-quit "EXIT=130"
expect ctrlc-kept "unsaved edits kept in"
rm -f "$tmp"/bankscope-unsaved-*.json # the view's TMPDIR is $tmp

# ---- lanes left out in another instruction are said at 80x24 too, where the totals line has no
# room: warp 0 is clean, warp 1 has 24 lanes out of bounds ----
start 80 24 --no-gpu excluded-elsewhere.json
expect elsewhere-clean "conflict-free"
expect elsewhere-said "24 lanes left out overall"
expect elsewhere-status "no GPU: predicted only"

# ---- the terminal is restored however the view ends: a fatal signal (SIGSEGV, as a sanitizer
# report would end it) and SIGTERM both leave the alternate screen ----
for sig in SEGV TERM; do
    start 80 24 --no-gpu
    expect "signal-$sig-start" "32-way conflict"
    shell=$(T list-panes -t "$sess" -F '#{pane_pid}')
    pid=$(pgrep -P "$shell" bankscope)
    kill -$sig "$pid"
    expect "signal-$sig-exit" "EXIT="
    gone "signal-$sig-restored" "PREDICTED"
done

# ---- swizzles: g cycles the TMA modes, G types any; the map is drawn in storage order (each cell
# the column of the element stored there, the warp's lanes where their elements landed); undo and
# redo restore the swizzle, and a save keeps it ----
start 80 24 --no-gpu swizzle-128b.json
check swizzle-80x24 "float tile[32][32] swizzle 128B"
keys g
expect swizzle-none "32-way conflict"
keys g
expect swizzle-32b "tile: swizzle 32B"
expect swizzle-32b-degree "16-way conflict"
keys u
expect swizzle-undo "32-way conflict"
keys U
expect swizzle-redo "(float, 4 B, swizzle 32B)"
keys G BSpace BSpace BSpace "Swizzle<3,2,3>" Enter
expect swizzle-typed "tile: swizzle Swizzle<3,2,3>"
expect swizzle-typed-degree "4-way conflict"
keys S BSpace BSpace BSpace BSpace BSpace BSpace BSpace BSpace BSpace BSpace BSpace BSpace BSpace BSpace BSpace \
    BSpace BSpace BSpace BSpace "$tmp/swz.json" Enter
expect swizzle-saved "saved"
if grep -q '"swizzle": "Swizzle<3,2,3>"' "$tmp/swz.json" 2>/dev/null &&
    "$bin" analyze "$tmp/swz.json" | grep -q 'swizzle Swizzle<3,2,3> (Swizzle<3,4,3> on bytes)'; then
    pass=$((pass + 1)); else echo "FAIL swizzle-save: the saved file lost the swizzle"; fail=$((fail + 1)); fi
keys G "x" Enter
expect swizzle-bad "arrays[0].swizzle: unknown swizzle"
keys G BSpace BSpace BSpace BSpace BSpace BSpace BSpace BSpace BSpace BSpace BSpace BSpace BSpace BSpace BSpace Enter
expect swizzle-cleared "tile: no swizzle"
start 160 48 --no-gpu swizzle-128b.json
check swizzle-160x48 "cell = column stored there"
# colours: in the map's row 1, the cell of lane 1 (element [1][0], stored at column 4) is
# highlighted (cyan, 46) and the four cells before it (columns 4-7 stored there) are not
T capture-pane -p -t "$sess" > "$tmp/plain"
T capture-pane -e -p -t "$sess" > "$tmp/colour"
line=$(grep -n '│  1  4  5  6  7  1  1  2  3' "$tmp/plain" | head -1 | cut -d: -f1)
if [ -n "$line" ] && sed -n "${line}p" "$tmp/colour" | python3 -c '
import re, sys
t = sys.stdin.read()
bg, out = None, []
for m in re.finditer(r"\x1b\[([0-9;]*)m|([^\x1b])", t):
    if m.group(2) is not None:
        out.append((m.group(2), bg))
        continue
    for c in (m.group(1) or "0").split(";"):
        if c in ("0", "49", ""): bg = None
        elif c.startswith("4") and len(c) == 2: bg = c
text = "".join(c for c, _ in out)
at = text.index("  1  4  5  6  7  1") + 5
cells = [out[at + 3 * k + 1][1] for k in range(6)]
sys.exit(0 if cells[4] == "46" and "46" not in cells[:4] else 1)'; then pass=$((pass + 1)); else
    echo "FAIL swizzle colours: lane 1 should be highlighted at stored column 4 of row 1"; fail=$((fail + 1)); fi

# ---- the kernel view (K): the text `bankscope kernel` prints, scrolled to the end, closed ----
# same_text FIRST COUNT WIDTH NAME: screen rows FIRST.. (COUNT of them, text after the line numbers
# at column 6) equal the first COUNT lines of `bankscope kernel NAME`, cut to WIDTH characters; a
# line longer than that shows WIDTH - 1 of them and an ellipsis that says it goes on
same_text() {
    (cd "$cases" && "$bin" kernel "$4") | head -n "$2" |
        awk -v w="$3" '{ if (length($0) > w) print substr($0, 1, w - 1) "…"; else print }' | sed 's/ *$//' > "$tmp/want"
    sed -n "$1,$(($1 + $2 - 1))p" "$tmp/screen" | cut -c6- | sed 's/ *$//' > "$tmp/got"
    if cmp -s "$tmp/want" "$tmp/got"; then pass=$((pass + 1)); else
        echo "FAIL kernel text of $4: the view differs from bankscope kernel:"; diff "$tmp/want" "$tmp/got" | head -10
        fail=$((fail + 1)); fi
}
start 80 24 --no-gpu transpose-naive
expect kernel-main "row write"
keys K
check kernel-80x24 "viewing it needs no GPU"
same_text 3 20 75 transpose-naive
n=$(cd "$cases" && "$bin" kernel transpose-naive | wc -l)
keys NPage
expect kernel-pgdn "lines 21-40 of $n"
keys G
expect kernel-end "lines $((n - 19))-$n of $n (end)"
grep -qF "$n  }" "$tmp/screen" && pass=$((pass + 1)) || { echo "FAIL kernel-end: line $n not shown"; fail=$((fail + 1)); }
keys g
expect kernel-home "lines 1-20 of $n"
keys -l "$(printf '\033[<65;10;10M')"
expect kernel-wheel "lines 4-23 of $n"
keys -l "$(printf '\033[<64;10;10M')"
expect kernel-wheel-up "lines 1-20 of $n"
keys Tab
expect kernel-tab "reinterpret_cast<float (*)[32]>"
keys / bs_table Enter
expect kernel-search "'bs_table': line"
resize 60 15
expect kernel-small "terminal too small"
resize 80 24
expect kernel-resized "viewing it needs no GPU"
resize 220 60
expect kernel-wide "as \`bankscope kernel transpose-naive\` prints it"
keys g
expect kernel-wide-top "lines 1-56 of $n"
same_text 3 56 215 transpose-naive
resize 80 24
expect kernel-narrow-again "lines 1-20 of $n"
keys Escape
expect kernel-closed "row write"
keys + K Tab
expect kernel-edited "reinterpret_cast<float (*)[33]>"
expect kernel-edited-said "access 0: lines 115-125 highlighted"
keys q
expect kernel-closed2 "float tile[32][32+1]"
keys x s K
expect kernel-access1 "// ==== transpose-naive, access 1,"
expect kernel-access1-said "access 1: lines"
keys Escape
expect kernel-back-to-step "STEP"

start 160 48 --no-gpu tma-128b-ldmatrix
expect kernel-tensor-main "ldmatrix"
keys K
check kernel-tensor-160x48 "viewing it needs no GPU"
same_text 3 44 155 tma-128b-ldmatrix
keys '?'
expect kernel-help "keys of the kernel view"
keys Escape Escape
expect kernel-tensor-closed "PREDICTED"

start 80 24 --no-gpu trace-column-32x33.json
keys K
expect kernel-trace "a trace: lane addresses come in bs_table"
same_text 3 20 75 trace-column-32x33.json

# ---- a signal that ends the view with unsaved edits (SIGHUP: the SSH session closed) keeps them
# in a new file and says where ----
start 80 24 --no-gpu
expect unsaved-start "32-way conflict"
keys + + +
expect unsaved-edited "float tile[32][32+3]"
shell=$(T list-panes -t "$sess" -F '#{pane_pid}')
kill -HUP "$(pgrep -P "$shell" bankscope)"
expect unsaved-said "unsaved edits kept in"
# the view's TMPDIR is $tmp, where the sessions killed before kept theirs too: find this one
kept=$(grep -l '"pad": \[0, 3\]' "$tmp"/bankscope-unsaved-*.json 2>/dev/null | head -1)
if [ -n "$kept" ]; then pass=$((pass + 1)); else
    echo "FAIL unsaved-kept: no file in $tmp holds the edit"; ls "$tmp"; fail=$((fail + 1)); fi

# rows shorter than the swizzle's line: row 8 of a 128B-swizzled float[32][16] holds row 9's
# first half (lane 9's element, then columns 1-15 of row 9, drawn dim)
start 160 48 --no-gpu swizzle-short-rows.json
expect swizzle-short-start "rows are 64 B"
keys Tab Tab j j j j j j j j
expect swizzle-short-rows "│  8  9  1  2  3  4  5  6  7  8  9 10 11 12 13 14 15"

}

part5() {
# ---- the source view (V) of an imported kernel: each line of the .cu with its accesses'
# wavefronts / ideal and worst degree (equal to analyze's sums); S sorts by cost; Enter goes to the
# grid of the line's first access; its file (named ../../import/..., outside the scenario's folder)
# is opened under the folder --source names ----
start 100 30 --no-gpu source-view.json --source ../../import
expect source-start "PREDICTED"
expect source-keybar "V source"
keys V
check source-100x30 "SOURCE │ reduction-interleaved.cu │ file order"
expect source-line-12 "12 141/36 8-way"
# colours: the gutter of a line with a conflict is red (41), of a conflict-free line not
T capture-pane -e -p -t "$sess" > "$tmp/colour"
if grep '141/36' "$tmp/colour" | grep -q '41m' && grep ' 8/8 ' "$tmp/colour" | grep -qv '41m'; then
    pass=$((pass + 1)); else echo "FAIL source-colours: line 12's gutter should be red, line 7's not"
    grep '141/36\| 8/8 ' "$tmp/colour" | cat -v; fail=$((fail + 1)); fi
keys S
expect source-sorted "by cost (S: file order)"
keys Enter
expect source-grid "load sdata[2 * s * threadIdx.x]"
expect source-said "line 12: access 1"
n=$("$bin" analyze "$cases/source-view.json" --json | python3 -c '
import json, sys
d = json.load(sys.stdin)
ins = [i for i in d["accesses"] if i["access"] in (1, 2, 3)] # the accesses on line 12
print("%d/%d" % (sum(i["wavefronts"] for i in ins), sum(i["ideal_wavefronts"] for i in ins)))' 2>/dev/null)
[ "$n" = "141/36" ] && pass=$((pass + 1)) || { echo "FAIL source-agree: analyze sums line 12 to '$n', the view to 141/36"; fail=$((fail + 1)); }
for size in "80 24" "160 48" "220 60"; do
    start $size --no-gpu source-view.json --source ../../import
    expect "source-start-${size% *}" "PREDICTED"
    keys V
    expect "source-${size% *}" "sdata[index] += sdata[index + s];"
    keys Escape
    expect "source-closed-${size% *}" "PREDICTED"
done

# ---- a recording opens on its source lines (the texts it carries when the file is not here):
# line 22's column read is 32-way (1024 wavefronts over its 32 warp-instructions, ideal 32) ----
start 100 30 --no-gpu "$(cd "$srcdir/tests/data/record" && pwd)/transpose-naive.json"
expect record-source "SOURCE │"
expect record-line-22 "22 1024/32 32-way"
expect record-text "out[(y + j) * N + x] = tile[threadIdx.x][threadIdx.y + j];"
keys S Enter
expect record-grid "line 22: instruction 32"
expect record-grid-verdict "32-way conflict"

# ---- a pattern without source lines has no V in the key bar, and V says why ----
start 80 24 --no-gpu
expect nosource-start "32-way conflict"
keys V
expect nosource-said "no source: "

# ---- the source view of `bankscope FILE.cu` (the import's .cu, found through the path given):
# 80x24 and 160x48, the gutter coloured by degree as the grid's cells (red 41 for a conflict,
# green 32 for none), S, Enter to the grid and back, a resize; the access the importer skipped
# (its message on stderr) listed under its line and after the file ----
if "$bin" import "$cases/../../import/histogram.cu" --block 256 2>&1 | grep -q "built without libclang"; then
    echo "source-import: built without libclang: skipped"
else
    start 80 24 --no-gpu ../../import/histogram.cu --block 256
    expect source-import-start "PREDICTED"
    keys V
    check source-import-80x24 "SOURCE │ histogram.cu │ file order"
    expect source-import-skipped "10    skipped          atomicAdd(&hist[in[i]], 1u);"
    expect source-import-list "histogram.cu:10:9: skipped atomic of 'hist': depends on data: re…"
    keys G Enter # the list's entry leads to its line
    expect source-import-list-enter "line 10: the import skipped its access (see below)"
    T capture-pane -e -p -t "$sess" > "$tmp/colour"
    hot=$(grep -m1 '^.*11.*64/8' "$tmp/colour") free=$(grep -m1 '^.*12.*8/8' "$tmp/colour")
    if printf '%s' "$hot" | grep -q '41m' && printf '%s' "$free" | grep -q '32m' &&
        ! printf '%s' "$free" | grep -q '41m'; then pass=$((pass + 1)); else
        echo "FAIL source-colours: line 11 (8-way) should be red (41), line 12 (free) green (32):"
        printf '%s\n%s\n' "$hot" "$free" | cat -v; fail=$((fail + 1)); fi
    keys S
    check source-import-sorted-80x24 "by cost (S: file order)"
    keys Enter
    expect source-import-grid "line 11: access 1, the first of 1 on the line"
    expect source-import-grid-verdict "8-way conflict"
    keys V
    expect source-import-back "11 64/8 8-way"
    resize 160 48
    check source-import-160x48 "SOURCE │ histogram.cu │ file order"
    keys Escape
    expect source-import-closed "PREDICTED"
fi

# ---- a recording (made on an H100 by bankscope record) opens on its source view: one block of
# one launch said first; its file found through --source; S puts the 32-way line first; Enter
# shows that line's first instruction in the grid; V comes back; the sizes ----
rec=../../data/record/transpose-naive.json
start 80 24 --no-gpu $rec --source ../../gpu/record/transpose.cu
check source-record-80x24 "one block of one launch, for this input"
expect source-record-line-22 "22 1024/32 32-way"
keys S
expect source-record-sorted "lines with accesses by cost"
keys Enter
expect source-record-grid "line 22: instruction 32, the costliest of 32 on the line"
expect source-record-verdict "32-way conflict"
keys V
expect source-record-back "one block of one launch"
resize 160 48
check source-record-160x48 "block (0,0,0) of launch 0 of transpose_naive(float*, float const*)"
n=$("$bin" analyze "$cases/$rec" --json | python3 -c '
import json, sys
d, r = json.load(sys.stdin), json.load(open(sys.argv[1]))
on = [l for l in r["lines"] if l["line"] == 22][0]["instructions"] # the instructions of line 22
ins = [i for i in d["accesses"] if i["seq"] in on]
print("%d/%d" % (sum(i["wavefronts"] for i in ins), sum(i["ideal_wavefronts"] for i in ins)))' "$cases/$rec" 2>/dev/null)
[ "$n" = "1024/32" ] && pass=$((pass + 1)) || {
    echo "FAIL source-record-agree: analyze sums line 22 to '$n', the view to 1024/32"; fail=$((fail + 1)); }
# ... in monochrome the 32-way line's numbers are reversed (the grid's conflict cells are too)
start 80 24 --no-gpu --no-color $rec --source ../../gpu/record/transpose.cu
expect source-record-mono "22 1024/32 32-way"
T capture-pane -e -p -t "$sess" > "$tmp/colour"
hot=$(grep -m1 '1024/32' "$tmp/colour")
if printf '%s' "$hot" | grep -q '7m' && ! printf '%s' "$hot" | grep -q '4[0-7]m'; then pass=$((pass + 1)); else
    echo "FAIL source-record-mono: line 22's numbers should be reversed, without colour:"
    printf '%s\n' "$hot" | cat -v; fail=$((fail + 1)); fi
# ... a recording with the hardware's counts (made on an H100 by bankscope record, measured over
# the launch): each line's measured wavefronts beside the prediction, = (green) where they equal
# predicted x blocks, ? where block invariance is not established (the data-dependent atomics,
# inlined from a toolkit header: a line of another file); the file moved away, so its own lines
sed 's#"/[^"]*/histogram.cu#"/nonexistent/histogram.cu#g' "$cases/../../data/measured/rec/h100-hist.record.json" \
    > "$tmp/measured.json"
start 160 48 --no-gpu "$tmp/measured.json"
check source-measured-160x48 "measured wavefronts/ideal over the launch: = pred x blocks"
T capture-pane -e -p -t "$sess" > "$tmp/colour"
same=$(grep -m1 '^.*12.*128/128=' "$tmp/colour") open=$(grep -m1 '8188/4096?' "$tmp/colour")
if printf '%s' "$same" | grep -q '32m' && [ -n "$open" ]; then pass=$((pass + 1)); else
    echo "FAIL source-measured-marks: line 12 should read 128/128= in green, the atomics' line 8188/4096?:"
    printf '%s\n%s\n' "$same" "$open" | cat -v; fail=$((fail + 1)); fi
keys G
expect source-measured-why "measured 8188/4096, excess 4092; pred x blocks 8192"
# ... where its file is not at hand: the lines the recording carries
sed 's#"/[^"]*/transpose.cu#"/nonexistent/transpose.cu#g' "$cases/$rec" > "$tmp/moved.json"
start 80 24 --no-gpu "$tmp/moved.json"
check source-record-carried-80x24 "source not opened, outside the recording's folder: /nonexistent/transpose.cu (…"

# ---- the save prompt replaces its proposed name (never appends); Ctrl-A, Ctrl-E, Ctrl-W, Ctrl-U ----
start 80 24 --no-gpu
expect lineedit-start "32-way conflict"
keys S "x.json"
expect lineedit-replaced "save as: x.json_"
keys C-a "a" C-e "z"
expect lineedit-ends "save as: ax.jsonz_"
keys C-w
expect lineedit-word "save as: ax._"
keys C-u
expect lineedit-cleared "save as: _"
keys Escape

# ---- a broadcast cell counts every lane sharing the word (0+31, never capped at 9) ----
start 220 60 --no-gpu
expect broadcast-start "PREDICTED"
keys a a a a a a a a
expect broadcast-preset "broadcast"
expect broadcast-count "0+31"

# ---- a stride preset grows the array while shown and says so; the next a restores it ----
start 80 24 --no-gpu
expect stride-start "32-way conflict"
keys a a a a
expect stride-grown "grown for this stride while shown"
expect stride-2-dims "float tile[32][63]"
keys a a a a a
expect stride-restored "float tile[32][32]"
expect stride-column "32-way conflict"

# ---- "(modified)" goes when the scenario equals its file again; a lesson step's edits are the
# exercise: n moves on without asking ----
start 80 24 --no-gpu
expect modified-start "32-way conflict"
keys +
expect modified-set "(modified)"
keys -
gone modified-cleared "(modified)"
start 100 30 --no-gpu lesson-padding
expect lesson-edit-start "lesson 1/8"
keys + n
expect lesson-edit-next "lesson 2/8"

# ---- a trace: the mark follows the file, not the history: r then R, or r then u, is the file
# again; saved, the new file is the reference (u past the save is modified, F comes back to it) ----
sh "$srcdir/tests/bench/gen_trace.sh" 40 > "$tmp/mark-trace.json"
start 120 30 --no-gpu "'$tmp/mark-trace.json'"
expect trace-mark-start "trace[0/39]"
keys r
expect trace-mark-set "mark-trace.json (modified)"
keys R
gone trace-mark-back "(modified)"
keys r
expect trace-mark-again "(modified) │ sm_89"
keys u
gone trace-mark-undone "(modified)"
keys r S Enter
expect trace-mark-overwrite "exists: overwrite?"
keys y
expect trace-mark-saved "saved $tmp/mark-trace.json"
gone trace-mark-saved-clean "(modified)"
keys u
expect trace-mark-before-save "(modified) │ sm_90"
keys U
gone trace-mark-redone "(modified)"
keys u F
expect trace-mark-reset "back to the file as opened or saved"
expect trace-mark-reset-arch "mark-trace.json │ sm_89"

# ---- the quiz hides the lane table's banks (only the byte addresses show) until the answer ----
start 80 24 --no-gpu
expect quiz-start "32-way conflict"
keys Q
expect quiz-lanes "lane  1: tile[1][0] = 128 B"
gone quiz-no-banks "→ bank"
keys 3 2 Enter
expect quiz-answered "you predicted 32: right"
expect quiz-banks-back "→ bank 0"

# ---- the header at 80 columns gives way by priority: the name is shortened, "warp 0/31" stays whole ----
start 80 24 --no-gpu transpose-naive
expect header-start "row write"
keys +
expect header-modified "tr… (modified) │ float tile[32][32+1] │ block 32x32"
expect header-warp "│ warp 0/31"
keys u # unmodified again: nothing to keep when the session ends
gone header-undone "(modified)"

# ---- the totals at 80x24: which warps they cover (the file's "warps": [0], while w shows warp 1),
# and the warp-instructions of idle warps (issued ones counted apart, as analyze counts them) ----
start 80 24 --no-gpu
expect totals-start "32-way conflict"
keys w
expect totals-warps "warp 1 not in totals"
start 80 24 --no-gpu reduction-sequential
expect totals-idle "all: 36 wf, 156 idle"
start 160 48 --no-gpu reduction-sequential
expect totals-idle-long "all: 36 instr. (+156 idle), 36 wf, ideal 36"
start 220 60 --no-gpu reduction-sequential
expect totals-idle-wide "all: 36 instr. (+156 idle), 36 wf, ideal 36, worst conflict-free"

# ---- the pattern list (L): titles and arch, type to filter (fuzzy), Home/End, Enter opens ----
start 100 30 --no-gpu
expect picker-start "32-way conflict"
keys L
expect picker-titles "broadcast              Every lane reads the same float"
keys t r n s p
expect picker-filtered "pattern library: 7 of"
keys End
expect picker-end "> histogram-skewed-popc"
keys Home
expect picker-home "> transpose-naive"
keys Down Enter
expect picker-opened "transpose-padded │ sm_90"
# the exact name first (Enter opens it), a long title cut with an ellipsis, its arch still shown
start 80 24 --no-gpu
expect picker-rank-start "32-way conflict"
keys L s c a n
expect picker-rank-exact "> scan                  Work-efficient scan (Blelloch up-sweep)…     sm_90"
keys Enter
expect picker-rank-opened " scan │ float temp[512] │ block 256x1"

}

part6() {
# ---- F resets the pattern to its file, as one undoable edit ----
start 80 24 --no-gpu
expect reset-start "32-way conflict"
keys + + t
expect reset-edited "double tile[32][32+2]"
keys F
expect reset-done "back to the file as opened or saved"
expect reset-file "float tile[32][32]"
gone reset-unmodified "(modified)"
keys u
expect reset-undone "double tile[32][32+2]"
keys F
expect reset-again "float tile[32][32]"

# ---- texts at 80x24 shorten to whole words: the quiz's question in the result panel ----
start 80 24 --no-gpu
expect short-start "32-way conflict"
keys Q
expect short-quiz "│ predict first: degree?    │"

# ---- the key bar shows the keys that act: an imported loop's i/I and x/X, a lesson's w/W (32x32
# block), no m in the advisor without a GPU ----
start 80 24 --no-gpu "'$(cd "$srcdir/tests/import" && pwd)/float4-tile.cu'" --block 32
expect bar-import-iter "i/I iter"
start 100 30 --no-gpu "'$(cd "$srcdir/tests/import" && pwd)/float4-tile.cu'" --block 32
expect import-name " float4-tile.cu │ sm_90"
gone import-no-tmp "bankscope-import-"
expect bar-import-access "x/X access"
start 80 24 --no-gpu lesson-padding
expect bar-lesson-warp "w/W warp"
start 80 24 --no-gpu transpose-naive
expect bar-advisor-start "transpose-naive │"
keys v
expect bar-advisor "advisor"
gone bar-advisor-no-measure "m measure"

}

part7() {
# ---- the title keeps the mode, the block, the warp and the verdict at every size: a long name
# is shortened with an ellipsis instead; the verdict is the result panel's, in its words; a quiz
# hides it; the lane table's lines take one form (its title says what it leaves out) ----
cp "$cases/../../../patterns/gemm-bf16-swizzled.json" \
    "$tmp/a-pattern-with-a-name-much-too-long-for-any-title-line-of-the-view-even-on-a-terminal-two-hundred-and-twenty-columns-wide-as-a-projector-in-class-may-well-be.json"
for size in "80 24" "100 30" "160 48" "220 60"; do
    set -- $size
    start $1 $2 --no-gpu "$tmp/a-pattern-with-a-name-much-too-long-for-any-title-line-of-the-view-even-on-a-terminal-two-hundred-and-twenty-columns-wide-as-a-projector-in-class-may-well-be.json"
    expect title-$1x$2 "PREDICTED"
    head -n 1 "$tmp/screen" > "$tmp/title"
    if grep -q "block 128x1 │ warp 0/3 │ k=0 (0/3) │ conflict-free" "$tmp/title" && grep -q "…" "$tmp/title" &&
        grep -q "^ $(printf %.5s "$tmp")" "$tmp/title"; then
        pass=$((pass + 1)); else echo "FAIL title-$1x$2: the block, warp, iteration or verdict is missing, or the name is not shortened:"; cat "$tmp/title"; fail=$((fail + 1)); fi
    T capture-pane -e -p -t "$sess" | head -n 1 > "$tmp/colour"
    if grep -q '46m' "$tmp/colour"; then pass=$((pass + 1)); else
        echo "FAIL title-colour-$1x$2: the title line should be on the title colour (cyan):"; cat -v "$tmp/colour"; fail=$((fail + 1)); fi
done
start 80 24 --no-gpu lesson-tensor
expect title-lesson "lesson 1/13 │ Tensor-core… │ block 128x1 │ warp 0/3 │ k=0 (0/3) │ conflict-free"
# the step number is never cut, even where a swizzled declaration crowds the line
keys n n n n n n
expect title-lesson-swizzle " lesson 7/13 │ Tensor-core tiles │ block 128x1 │ warp 0/3 │ conflict-free"
start 80 24 --no-gpu aos-vec3
expect title-verdict " bankscope │ aos-vec3 │ sm_90 │ Vec3 p[32] │ block 32x1 │ warp 0/0 │ 4-way"
keys c
expect title-compare " COMPARE │ aos-ve… │ Vec3 p[32] │ block 32x1 │ warp 0/0 │ 4-way vs conflict-free"
keys Escape Q
expect title-quiz "QUIZ │ aos-vec3 │ Vec3 p[32] │ block 32x1 │ warp 0/0 │ degree: predict first"
gone title-quiz-hidden "4-way"
# every lane line in one form: at 80x24 the default's widest line (lane 31) needs the short form,
# so every line takes it, the title says so, and the columns line up
start 80 24 --no-gpu
expect lanes-form "lanes (addresses, no word)"
expect lanes-aligned "lane  0: tile[0][0]  = 0 B → bank 0"
expect lanes-aligned-2 "lane  5: tile[5][0]  = 640 B → bank 0"
# ... and an element too long for any form is cut at its start, every one to one width, so its
# indices stay and the "=" still lines up
sed 's/"items"/"a_rather_long_array_name_for_items"/g' "$cases/../../../patterns/struct-mixed.json" > "$tmp/longel.json"
start 80 24 --no-gpu "$tmp/longel.json"
expect lanes-cut-title "lanes (addresses, no word, elements cut)"
expect lanes-cut-0 "lane  0: …e_for_items[0].d = 8 B → bank 2-3"
expect lanes-cut-1 "lane  1: …e_for_items[1].d = 72 B → bank 18-19"
start 100 30 --no-gpu
expect lanes-full "─ lanes ─"
expect lanes-full-line "lane  1: tile[1][0]  = base + 128 B → word 32 → bank 0"

# the advisor's answer at 80 columns says its verdict and cost whole (the array's name gives way)
start 80 24 --no-gpu transpose-naive
expect advisor-short-start "row write"
keys v
expect advisor-short 's applies "swizzle": "Swizzle<5,0,5>": conflict-free, 0 B'

# a panel's title too long for its frame ends in an ellipsis (the grid's caption with its label)
start 80 24 --no-gpu source-view.json
expect caption-cut "(int, 4 B) - ../../import/reduction…─┐"

# a shared word's count that would fill its cell beside another cell's text gives way to "n+",
# so two cells never read as one number ("8+110+1"): the 2-byte stores of a recording
start 220 60 --no-gpu ../../data/record/ldmatrix.json
expect cells-apart-source "one block of one launch"
keys Escape
expect cells-apart "│  0 ┤ 0+1 2+1 4+1 6+1 8+1 10+ 12+ 14+ 16+ 18+ 20+ 22+ 24+ 26+ 28+ 30+   ·"

# a source line scrolled sideways (l) says with an ellipsis that it goes on to the left too
start 80 24 --no-gpu ../../data/record/histogram.json
expect sideways-start "one block of one launch"
keys l
expect sideways-left "13    2/2 free   …adIdx.x] = 0; ADDR_LOG(&bins[threadIdx.x]);"

# every recording's source view (220x60) says, line by line, the numbers and the words of the
# per-line table of `analyze` on the same file: wavefronts/ideal and the worst degree. Both take
# their sums from the one walk (core/line_sums.h) over the one reader's lines (io/recording.h), so
# this is a regression check of the view's columns, not the glue between two copies
for rec in "$cases"/../../data/record/*.json; do
    name=$(basename "$rec" .json)
    grep -q '"line_info": false' "$rec" && continue # no line info: it opens on the grid
    # the first table (the prediction), its rows with instructions (a line holding only a
    # measured-only wgmma shows "measured only" and no prediction), not the "N not modelled: KIND" lines under them
    "$bin" analyze "$rec" --summary 2>/dev/null | sed -n '/^line /,/^total/{p;/^total/q}' |
        grep -v '^line \|^total\|^ ' | awk '$2 != 0 { sub(/.*:/, "", $1); print $1, $3 "/" $4, $5 }' > "$tmp/want"
    [ -s "$tmp/want" ] || continue
    start 220 60 --no-gpu "'$rec'"
    expect gutter-$name "one block of one launch"
    grep -E '^ *[0-9]+ +[0-9]+/[0-9]+ ' "$tmp/screen" | awk '{ print $1, $2, $3 }' > "$tmp/got"
    if cmp -s "$tmp/want" "$tmp/got"; then pass=$((pass + 1)); else
        echo "FAIL gutter-agree-$name: the source view's gutter differs from analyze's per-line table:"
        diff "$tmp/want" "$tmp/got" | head -10; fail=$((fail + 1)); fi
done

# ---- the SASS view: a recording without line info (PyTorch's sort) opens on it; S sorts by
# cost, Enter opens the grid of the costliest execution of the instruction, whose caption names
# the warp and the SASS; D opens it from the grid of a recording with lines too ----
start 120 30 --no-gpu ../../data/record/modern-torch_sort.json
expect sass-open "SASS │ 209 instructions of the recorded block │ by pc (S: by cost)"
keys S
expect sass-sorted "  1  0x8840      12     76/24 4-way         14420/4704 (no line info) STS.64 [R43], R72"
keys Enter
expect sass-grid "pc 0x8840: instruction 1575, the costliest of its 12 executions"
expect sass-caption "banks: trace[1575] (no line info), warp 0: STS.64 [R43], R72"
start 120 30 --no-gpu ../../data/record/modern-tile_gemm.json
expect sass-source "SOURCE │ tile_gemm.cu"
keys Escape D
expect sass-from-grid "0x130        4         - not modelled   128/128 tile_gemm.cu:17"

# ---- the moment of the fix, small screens and the struct explorer ----
# a lesson on a projector: after the edit the step asks for, the banner says what is on screen
# now, in the model's words (the gcd sentence), not the step's text about the grid before it
for size in "80 24" "160 48"; do
    set -- $size
    start $1 $2 --no-gpu lesson-padding --present
    expect present-lesson-$1 "every lane hits bank 0"
    keys +
    check present-lesson-fixed-$1x$2 "Now: consecutive lanes are 132 B = 33 words apart; gcd(33, 32) = 1"
    keys -
    expect present-lesson-undone-$1 "every lane hits bank 0"
done
# help: PgDn scrolls a page (the frame's height less one line), End goes to the last
start 80 24 --no-gpu
keys '?'
expect help-page-start "lines 1-20 of"
keys NPage
expect help-page-down "lines 20-39 of"
keys End
expect help-page-end "Keys that do nothing here: V f i/I x/X ]/[ D ! m."
# a trace's help lists the keys that act on it and names the others in one line
start 80 24 --no-gpu ../../data/record/histogram.json
expect help-trace-source "one block of one launch"
keys Escape '?'
expect help-trace-start "keys of the main view"
if grep -qF "padding of the innermost" "$tmp/screen"; then
    echo "FAIL help-trace: a trace's help lists padding"; fail=$((fail + 1)); else pass=$((pass + 1)); fi
keys End
check help-trace-80x24 "Keys that do nothing here (a trace: its addresses were recorded"
# the struct editor: Home / End select the first / last field
start 100 30 --no-gpu aos-vec3
keys o End
expect struct-end ">    float pad;"
keys Home
expect struct-home ">    float x;"

# compare on a projector (z): both grids big, each under its declaration and verdict; with step
# mode each grid steps through its own wavefronts; at 160x48 the 2-column cells of the pinned
# grid write lanes 10-31 as a-v, so "910111213" never appears
start 160 48 --no-gpu
keys + P -
expect pin-letters "0 1 2 3 4 5 6 7 8 9 a b c d e f g h i j k l m n o p q r s t u v"
if grep -qF "910111213" "$tmp/screen"; then
    echo "FAIL pin-letters: lanes run together"; fail=$((fail + 1)); else pass=$((pass + 1)); fi
keys z
check present-compare-160x48 "= conflict-free  1 wf, ideal 1"
T capture-pane -p -e -t "$sess" | sed -n 3,7p > "$tmp/colour"
if grep -q '31m' "$tmp/colour" && grep -q '32m' "$tmp/colour"; then pass=$((pass + 1)); else
    echo "FAIL present-compare-colour: the big verdicts should be red (32-way) and green (conflict-free):"
    cat -v "$tmp/colour"; fail=$((fail + 1)); fi
keys s Space Space Space
expect present-compare-step "step 1 of 1 wf, done"
expect present-compare-step-left "step 3 of 32 wf"
for size in "80 24" "100 30" "220 60"; do
    set -- $size
    start $1 $2 --no-gpu
    keys c z
    check present-compare-$1x$2 "best padding: float tile[32][32+1]"
done

# the advisor on a 1-D array of structs: one sentence that padding cannot change the banks (not
# 65 identical rows), then the layout changes that do: struct of arrays, fields by alignment
start 100 30 --no-gpu struct-mixed
keys v
check advisor-struct-100x30 "or fields by alignment (R in the struct editor), sizeof 64 -> 32"
start 80 24 --no-gpu aos-vec3
keys v
check advisor-aos-80x24 "or struct of arrays (c compares it): 1 wavefront, conflict-free"
if grep -qF "closest swizzle" "$tmp/screen"; then
    echo "FAIL advisor-aos: a closest swizzle no better than none"; fail=$((fail + 1)); else pass=$((pass + 1)); fi

# the struct explorer: a struct starts in a scenario that has none, typed or pasted as C and laid
# out as the compiler does; a mistake puts an arrow over its column; deleting a field an access
# reads says so and, asked again, moves the access (a 12-byte Vec3: conflict-free, gcd(3, 32) = 1)
for size in "80 24" "100 30" "160 48" "220 60"; do
    set -- $size
    start $1 $2 --no-gpu
    keys o
    expect struct-none-$1 "No struct yet."
    keys i
    keys -l 'struct P { float3 pos float m; }'
    keys Enter
    check struct-decl-error-$1x$2 "column 23: expected ';' after the field"
    keys '\;' Enter # the cursor waits on the error's column
    check struct-decl-$1x$2 "struct P added: sizeof 16, alignof 4"
done
# a paste of several lines arrives whole (Enter before the closing brace goes on), a // comment
# on one of its lines ending there
start 100 30 --no-gpu
keys o i
T set-buffer "$(printf 'struct Particle {\n    float3 pos;   // position\n    float  mass;\n    int    id;\n}\\;')"
T paste-buffer -t "$sess"
expect struct-paste-line "/* position */     float  mass;     int    id; };"
keys Enter
expect struct-paste "struct Particle added: sizeof 20, alignof 4"
start 100 30 --no-gpu aos-vec3
keys o d
expect struct-delete-asks "x is read by access 0: d again deletes it and the access reads y"
keys d
expect struct-delete-moved "removed x; access 0 reads y now; sizeof Vec3 = 12"
keys Escape
expect struct-delete-grid "load p[tid].y (float, 4 B)"
start 100 30 --no-gpu aos-vec3
keys o i
keys -l 'typedef struct { float x, y, z; } Vec3'
keys Enter Escape
check struct-vec3-12-100x30 "gcd(3, 32) = 1"

# totals and the verdict speak of the same warps and say which: warp 2 of default's char tile
# [32][33] is 2-way, the file's "warps" total only warp 0
start 100 30 --no-gpu
keys t t + w w
expect totals-other-warp "warp 2 is not in the totals (warp 0)"
expect totals-other-warp-verdict "2-way conflict"

# the last step of lesson-tensor contrasts the two forms of a shared atomic add, in the model's
# numbers: ATOMS.POPC.INC merges the lanes on one word, the other forms do not
start 100 30 --no-gpu lesson-tensor
keys n n n n n n n n n n n n
expect lesson-atomics-last "lesson 13/13"
keys p
expect lesson-atomics-adds "Skewed data with that form: 16 lanes on bin 0 cost 16 wavefronts or more"
keys n
expect lesson-atomics-popc "12 wavefronts for 8 warps instead of 132"
expect lesson-atomics-kind "atomic.popc bins["

}

# ---- what a user found, size by size (each with the screen it had before its fix) ----
part8() {
# a presented compare at 80x24 has half the screen per side: the verdict's numbers go short
# rather than being cut silently ("32-way conflict  (32 wavefronts, ideal" lost the 1)
start 80 24 --no-gpu
keys + c z
expect present-compare-short-80x24 "32-way conflict  (32 wf, ideal 1)"
start 80 24 --no-gpu aos-vec3
keys c z
expect present-compare-aos-80x24 "4-way conflict  (4 wf, ideal 1)"

# a struct declaration naming a field with a reserved word is refused at its column, the message
# cut with an ellipsis where the line is short (it said "structs[0].fields[1]: reserved in CUDA
# code (a C/C++ keyword, a CUDA built-in, type or macro, or a" and stopped)
start 80 24 --no-gpu
keys o i C-u
keys -l 'struct B { float yy; int int; };'
keys Enter
expect struct-reserved-80x24 "column 26: 'int' is reserved in CUDA code (a keyword, a built-in, or a bs_ or…"

# an instruction the model does not cover (cp.async.cg) has active lanes: the empty grid says it is
# not modelled, not "no active lane" above a lane table that lists them
start 80 24 --no-gpu ../../data/record/modern-tile_gemm.json
expect gemm-source-80x24 "tile::copy(&sB[t], &B[t]);"
keys j Enter
expect gemm-not-modelled-80x24 "not modelled: no wavefronts predicted, the lanes are listed"

# the SASS view's column names stay over their columns when h/l scroll the rows sideways (they
# stayed put, so at 80 columns "sass" was over the line numbers); ? lists its keys, and those
# of the advisor on a recording
start 80 24 --no-gpu ../../data/record/modern-triton_matmul.json
expect sass80-source "SOURCE │ triton_matmul.py"
keys Escape D
expect sass80-open "    pc       execs predicted worst"
keys l l l l l l l l
expect sass80-scrolled "LDGSTS.E.BYPASS.128 [R17], desc[UR16][R18.64], P0"
head_col=$(sed -n 2p "$tmp/screen" | awk '{ print index($0, "sass   (") }')
row_col=$(sed -n 3p "$tmp/screen" | awk '{ print index($0, "LDGSTS") }')
if [ "$head_col" -gt 0 ] && [ "$head_col" = "$row_col" ]; then pass=$((pass + 1)); else
    echo "FAIL sass80-head-aligned: 'sass' at $head_col, the SASS text at $row_col:"; cat "$tmp/screen"
    fail=$((fail + 1)); fi
keys '?'
expect sass80-help "keys of the SASS view"
keys Escape Escape v
expect whatif80-open "advisor on the recording"
keys '?'
expect whatif80-help "keys of the advisor on a recording"

# a recording without line info (PyTorch's sort): the result panel shows what was measured at the
# instruction's own PC (analyze --sass: pc 0x8840, 14420 measured, ideal 4704), not the lump of
# every instruction without a line; at 80 columns the numbers come before the label
start 160 48 --no-gpu ../../data/record/modern-torch_sort.json
keys S Enter
expect sort-measured-160x48 "pc 0x8840, 196 blocks:"
expect sort-measured-pc-160x48 "14420 wavefronts (ideal 4704)"
start 80 24 --no-gpu ../../data/record/modern-torch_sort.json
keys S Enter
expect sort-measured-80x24 "14420/4704 wf, 196…"

# the index editor's message ends in an ellipsis or is shown whole, never cut silently ("integer
# literal too larg"): a long text leaves room for it
start 80 24 --no-gpu
keys e C-u
keys -l 'threadIdx.x * 99999999999999999999'
expect edit-long-literal-80x24 "  integer literal too large"

# below the minimum size no key changes the view unseen: '+' and 't' wait, q with edits asks on
# the small screen and y quits (keys acted invisibly, and "q quits" asked a question not shown)
start 80 24 --no-gpu
keys +
expect small-edited "(modified)"
resize 30 8
expect small-q-quits "q quits"
keys t t y
keys q
expect small-asks "quit without saving? (y/n)"
keys n
expect small-cancelled "q quits"
resize 80 24
expect small-unchanged "float tile[32][32+1]"
resize 30 8
expect small-again "q quits"
keys q y
expect small-quit "EXIT=0"

# a header whose parts that are never shortened still do not fit ends in an ellipsis (it was cut
# at the edge, "vs 16 lan")
start 80 24 --no-gpu
keys e C-u
keys -l 'threadIdx.x * 2'
expect header-long-edit "16 lanes left out"
keys Enter z c
expect header-long-80x24 "│ warp 0/31 │ 16 lanes left out vs 16…"

# R reorders the fields: the selection follows its field (it stayed on the index, so d then
# deleted x, not the y it was on)
start 80 24 --no-gpu aos-vec3
expect struct-reorder-main "aos-vec3"
keys o
expect struct-reorder-open "sizeof 16"
keys Down t
expect struct-reorder-type "Vec3.y is now double"
keys R
expect struct-reorder "fields by alignment, sizeof 24 -> 24"
keys d
expect struct-reorder-delete "removed y; sizeof Vec3 = 12"

# a recording presented: the grid is captioned with the instruction (its line, warp and SASS), as
# in the main view, not "trace of 64 instructions"
start 80 24 --no-gpu --present ../../data/record/transpose-naive.json
expect present-trace-caption "─ banks: trace[0] transpose.cu:16, warp 4: STS [R18], R3 ─"
keys x
expect present-trace-next "─ banks: trace[1] transpose.cu:16, warp 7: STS [R18], R3 ─"

# D opens the SASS view from the source view a recording opens on (it did nothing there); Esc
# then goes to the grid, and the source view's help lists D. Its 6 rows are analyze --sass's:
# the wgmma (HGMMA) measured only is one
start 80 24 --no-gpu ../../data/record/modern-tile_gemm.json
expect sass-from-source-open "SOURCE │ tile_gemm.cu"
keys D
expect sass-from-source "SASS │ 6 instructions of the recorded block"
keys Escape
expect sass-from-source-back "banks: trace[0] tile_gemm.cu:17"
keys V '?'
expect sass-from-source-help "D           a recording: its SASS instructions"

# side by side at 72 columns the grids did not fit their halves (banks 30-31 cut, the right box
# drawn over): the compare says the size it needs, and Esc closes it
start 72 20 --no-gpu
expect cmp72-open "32-way"
keys c
expect cmp72-small "bankscope needs 79x20 (now 72x20)"
expect cmp72-esc "Esc closes the compare"
keys +
keys Escape
expect cmp72-closed "float tile[32][32] │ block 32x32"
resize 79 20
keys c
expect cmp79 "│  0 ┤0123456789abcdefghijklmnopqrstuv│"

# the advisor on a recording at 72 columns: the layout names give way, the numbers stay (the
# occupancy column was cut off silently)
start 72 20 --no-gpu ../../data/record/modern-histogram256.json
expect whatif72-source "SOURCE │ histogram256.cu"
keys Escape v
expect whatif72-rows "> Swizzle<1,5,4>            959    793 4-way              +0  100%"
}

# each part in a subshell of its own: its server ($sock-K), folder ($tmp/pK), sessions and counts
# (tui_part: a name no journey uses)
top=$tmp
for tui_part in $parts; do
    (
        sock="$sock-$tui_part" tmp="$top/p$tui_part" sess="" n_sess=0 pass=0 fail=0
        trap 'T kill-server 2>/dev/null' EXIT # its own server only (not the test's folder)
        mkdir -p "$tmp" || exit 99
        "part$tui_part"
        echo "$pass $fail" > "$top/result$tui_part"
    ) > "$top/out$tui_part" 2>&1 &
done
wait
pass=0
fail=0
for tui_part in $parts; do
    cat "$top/out$tui_part"
    if [ -s "$top/result$tui_part" ]; then
        read -r p f < "$top/result$tui_part"
        pass=$((pass + p)) fail=$((fail + f))
    else
        echo "FAIL part $tui_part ended early"; fail=$((fail + 1))
    fi
done
tmp=$top
echo "tui: $pass passed, $fail failed"
[ $fail -eq 0 ]

#!/bin/sh
# A recording is checked, not trusted: variants of a real recording (tests/data/measured/rec),
# each breaking one rule, made here at test time. Every count within what a real recording can
# hold, the lines a partition of the trace, indexes bounded by its length (never an allocation
# sized by an index), and the derived numbers (predicted x blocks, excess, agree, time share)
# computed from the trace, never printed from the file. A broken rule is an error at its
# position (FILE:LINE:COL), exit 2. Skips (77) without python3.
srcdir=${srcdir:-.}
top_builddir=${top_builddir:-.}
command -v python3 >/dev/null 2>&1 || { echo "python3 not found: skipped"; exit 77; }
bin="$top_builddir/bankscope"
rec="$srcdir/tests/data/measured/rec/h100-naive.record.json"
tmp=$(mktemp -d) || exit 99
trap 'rm -rf "$tmp"' EXIT
fail=0
# variant NAME PYTHON: the recording with PYTHON applied to d (its JSON), into $tmp/NAME.json
variant() {
    python3 - "$rec" "$tmp/$1.json" "$2" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
exec(sys.argv[3])
with open(sys.argv[2], "w") as f:
    f.write(json.dumps(d, indent=1))
PY
}
# 1 GB of address space is plenty for these (an index sized the memory before: 3e8 asked for 1.2 GB);
# a sanitized build reserves terabytes of shadow at start, so it runs without the cap
cap=""
if (ulimit -v 1000000 && "$bin" --version) >/dev/null 2>&1; then cap=1; fi
# refused NAME PYTHON TEXT: analyze exits 2 naming the file with a position and TEXT, prints nothing
refused() {
    variant "$1" "$2"
    (if [ -n "$cap" ]; then ulimit -v 1000000; fi; "$bin" analyze "$tmp/$1.json" --summary > "$tmp/out" 2> "$tmp/err")
    rc=$?
    if [ $rc -eq 2 ] && [ ! -s "$tmp/out" ] && grep -q "$1.json:[0-9]*:[0-9]*: .*$3" "$tmp/err"; then
        echo "refused $1: $(cat "$tmp/err")"
    else
        echo "FAIL $1: exit $rc, expected 2 with '$3' at a position; stderr:"; head -c 600 "$tmp/err"; echo
        head -5 "$tmp/out"
        fail=1
    fi
}
refused index-3e8 'd["lines"][1]["instructions"].append(300000000)' "past the trace's end"
refused index-1e12 'd["lines"][1]["instructions"][0] = 10**12' "instructions: expected an integer from 0 to"
refused index-negative 'd["lines"][1]["instructions"][0] = -1' "instructions: expected an integer"
refused overlap 'd["lines"].append(dict(d["lines"][1]))' "is also in line 2"
refused gap 'd["lines"][1]["instructions"].pop()' "is in no line"
refused wavefronts-2e63 'd["lines"][0]["measured"]["wavefronts"] = 2**63 - 1' "wavefronts: expected an integer from 0 to 1000000000000000"
refused blocks-negative 'd["measured"]["blocks"] = -3' "blocks: expected an integer from 1"
refused blocks-not-grid 'd["measured"]["blocks"] = 7' "blocks: 7 is not the launch's grid (1024 blocks)"
refused sms-zero 'd["measured"]["sms"] = 0' "sms: expected an integer from 1"
refused ideal-over 'd["lines"][0]["measured"]["ideal_wavefronts"] = 10**15' "ideal_wavefronts is more than wavefronts"
refused grid-huge 'd["grid"] = [1, 70000, 1]' "grid: expected an integer from 1 to 65535"
# the per-PC counts the SASS page prints are checked as the lines' are (a recording that keeps them)
rec="$srcdir/tests/data/record/modern-histogram256.json"
refused pc-wavefronts-9e18 'd["lines"][0]["pcs"][0]["measured"]["wavefronts"] = 9 * 10**18' "wavefronts: expected an integer from 0 to 1000000000000000"
refused pc-negative 'd["lines"][0]["pcs"][0]["pc"] = -16' "pc: expected an integer from 0"
refused pc-ideal-over 'd["lines"][0]["pcs"][0]["measured"]["ideal_wavefronts"] = 10**15' "ideal_wavefronts is more than wavefronts"
rec="$srcdir/tests/data/measured/rec/h100-naive.record.json"
# forged conclusions: the file says "yes" and 5 x blocks beside a measurement of 1048576; what
# is printed is computed from the trace and the measured counts
variant forged 'l = d["lines"][1]; l["measured"].update(predicted_launch=5, excess=-7); l["agree"] = False; l["agree_why"] = "forged"; d["lines"][0]["measured"]["wavefronts"] = 40000; d["lines"][0]["agree"] = True; d["measured"]["excess_wavefronts"] = 3; d["measured"]["time_share_upper_bound"] = 99.0'
"$bin" analyze "$tmp/forged.json" --summary > "$tmp/out" 2>&1
if grep -q "transpose.cu:15 *40000 *32768 *7232 *32768  NO" "$tmp/out" &&
    grep -q "transpose.cu:21 *1048576 *32768 *1015808 *1048576  yes" "$tmp/out" &&
    grep -q "excess (1023040 wavefronts)" "$tmp/out" && grep -q "computed from the trace with the sm_90 model" "$tmp/out" &&
    ! grep -q "forged" "$tmp/out"; then
    echo "forged conclusions: recomputed (NO beside a forged yes, 1048576 beside a forged 5)"
else
    echo "FAIL forged conclusions printed from the file:"; cat "$tmp/out"; fail=1
fi
# --arch predicts again: the lines and predicted x blocks with the model named
"$bin" analyze "$rec" --summary --arch sm_35 > "$tmp/out" 2>&1
if grep -q "transpose.cu:21 *1048576 *32768 *1015808 *524288  NO" "$tmp/out" && grep -q "with the sm_35 model" "$tmp/out"; then
    echo "--arch sm_35: predicted x blocks predicted again (524288), agree computed"
else
    echo "FAIL --arch sm_35 kept the recording's numbers:"; cat "$tmp/out"; fail=1
fi
"$bin" analyze "$tmp/forged.json" --json > "$tmp/out.json" 2>&1 || { echo "FAIL --json of forged"; fail=1; }
python3 - "$tmp/out.json" <<'PY' || fail=1
import json, sys
o = json.load(open(sys.argv[1]))
l = o["source_lines"]
assert l[0]["agree"] is False and l[1]["agree"] is True, [x["agree"] for x in l]
assert l[1]["measured"]["predicted_launch"] == 1048576 and l[1]["measured"]["excess"] == 1015808
assert o["measured"]["excess_wavefronts"] == 1023040 and o["measured"]["computed_with"] == "sm_90"
print("--json: agree, predicted_launch, excess computed")
PY
# the source view computes the same: a forged "yes" beside 40000 measured is shown as not
# agreeing, and a recording whose lines overlap is refused with the position
command -v tmux >/dev/null 2>&1 || { echo "tmux not found: the source view is not checked"; exit $fail; }
sock="bankscope-checked-$$"
T() { tmux -L "$sock" -f /dev/null "$@"; }
trap 'T kill-server 2>/dev/null; rm -rf "$tmp"' EXIT
# screen NAME FILE TEXT: the view of FILE shows TEXT (polled for up to 20 s)
screen() {
    T new-session -d -s "$1" -x 120 -y 20 "env LANG=C.UTF-8 TERM=xterm-256color $bin --no-gpu '$2'; sleep 30"
    i=0
    while [ $i -lt 200 ] && ! T capture-pane -p -t "$1" | grep -qF -- "$3"; do i=$((i + 1)); sleep 0.1; done
    if T capture-pane -p -t "$1" | grep -qF -- "$3"; then
        echo "source view $1: '$3'"
    else
        echo "FAIL source view $1: '$3' never appeared:"; T capture-pane -p -t "$1"; fail=1
    fi
}
screen forged "$tmp/forged.json" "40000/32768≠"
screen forged2 "$tmp/forged.json" "1048576/32768="
screen overlap "$tmp/overlap.json" "overlap.json:"
screen overlap2 "$tmp/overlap.json" "instructions: trace entry 32 is also in line 2"
exit $fail

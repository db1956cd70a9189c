#!/bin/sh
# GPU checks of `bankscope record` (skipped, exit 77, without a GPU or nvcc): the test programs of
# tests/gpu/record/ are built with nvcc -lineinfo and recorded; every recorded address must equal
# what the program computes (each prints its own, check.py compares per source line), `bankscope
# measure` of each recording must give the predicted counters, and every fault must exit as the
# README says with nothing written. RECORD_KEEP=DIR keeps the recordings there (tests/data/record/
# holds those of one run, read by make check). Run from the source root:
#   BANKSCOPE=./bankscope sh tests/gpu/record.sh
set -u
bin=${BANKSCOPE:-./bankscope}
src=${srcdir:-.}/tests/gpu/record
command -v nvidia-smi >/dev/null 2>&1 && nvidia-smi -L >/dev/null 2>&1 || { echo "no GPU: skipped"; exit 77; }
NVCC=${NVCC:-nvcc}
command -v "$NVCC" >/dev/null 2>&1 || NVCC=/usr/local/cuda/bin/nvcc
[ -x "$NVCC" ] || command -v "$NVCC" >/dev/null 2>&1 || { echo "no nvcc: skipped"; exit 77; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail=0
sh "${srcdir:-.}/tests/gpu/record_abi.sh" || [ $? -eq 77 ] || fail=1
progs="transpose histogram ldmatrix cpasync atomics twice tma faults"
for p in $progs; do
    "$NVCC" -arch=native -lineinfo -o "$work/$p" "$src/$p.cu" &
done
"$NVCC" -arch=native -o "$work/transpose_nolines" "$src/transpose.cu" &
wait
for p in $progs transpose_nolines; do [ -x "$work/$p" ] || { echo "FAIL: $p did not build"; exit 1; }; done

# record NAME TAG [OPTIONS] -- PROGRAM ARGS: record, then compare with the program's addresses
record() {
    name=$1 tag=$2
    shift 2
    "$bin" record -o "$work/$name.json" "$@" > "$work/$name.out" 2> "$work/$name.err"
    rc=$?
    if [ $rc -ne 0 ]; then
        echo "FAIL $name: exit $rc: $(cat "$work/$name.err")"
        fail=1
        return
    fi
    python3 "$src/check.py" "$work/$name.json" "$work/$name.out" "$tag" || fail=1
    if [ -n "${MEASURE_REFUSES:-}" ]; then # a kind measure has no kernel for: refused, said why
        "$bin" measure "$work/$name.json" --json > "$work/$name.measure" 2> "$work/$name.merr"
        rc=$?
        if [ $rc -eq 2 ] && grep -q -- "$MEASURE_REFUSES" "$work/$name.merr"; then
            echo "ok $name: measure refuses: $(cat "$work/$name.merr")"
        else
            echo "FAIL $name: measure exit $rc: $(head -3 "$work/$name.merr")"
            fail=1
        fi
        [ -n "${RECORD_KEEP:-}" ] && cp "$work/$name.json" "$RECORD_KEEP/$name.json"
        sed -n '/^line /,/^wrote/p' "$work/$name.out"
        return
    fi
    "$bin" measure "$work/$name.json" --json > "$work/$name.measure" 2> "$work/$name.merr" || {
        echo "FAIL $name: measure exit $?: $(head -3 "$work/$name.merr")"; fail=1; return; }
    python3 - "$work/$name.measure" "$name" <<'PY' || fail=1
import json, sys
d = json.load(open(sys.argv[1]))
acc = d["accesses"]
bad = [a["access"] for a in acc if a["agree"]["counters"] is not True]
print(("FAIL" if bad else "ok") + " %s: measure: %d of %d instructions with counters equal to the prediction%s"
      % (sys.argv[2], len(acc) - len(bad), len(acc), (" (differ: %s)" % bad[:10]) if bad else ""))
sys.exit(1 if bad else 0)
PY
    [ -n "${RECORD_KEEP:-}" ] && cp "$work/$name.json" "$RECORD_KEEP/$name.json"
    sed -n '/^line /,/^wrote/p' "$work/$name.out"
}
record transpose-naive transpose_naive -- "$work/transpose"
record transpose-padded transpose_padded --kernel padded -- "$work/transpose"
record histogram histogram -- "$work/histogram"
record ldmatrix ldmatrix_tile -- "$work/ldmatrix"
# LDGSTS.E.BYPASS (cp.async.cg) is kept in the trace as "cache": "cg" and not modelled
MEASURE_REFUSES="cp.async.cg is not modelled"
record cpasync cpasync_fill -- "$work/cpasync"
MEASURE_REFUSES=
python3 -c "
import json,sys; d=json.load(open('$work/cpasync.json'))
cg = [t for t in d['trace'] if t.get('cache') == 'cg']
l14 = [l for l in d['lines'] if 'cp.async.cg' in (l['text'] or '')]
ok = len(cg) == 8 and all('BYPASS' in t['sass'] for t in cg) and l14 and l14[0]['not_modelled'] == 8
print(('ok' if ok else 'FAIL') + ' cpasync: %d cp.async.cg entries in the trace, not modelled on their line' % len(cg))
sys.exit(0 if ok else 1)" || fail=1
record atomics shared_atomics -- "$work/atomics"
record twice-0 strided0 -- "$work/twice"
record twice-1 strided1 --launch 1 -- "$work/twice"
record tma bulk_copy -- "$work/tma"
grep -q '"sass": "UBLKCP' "$work/tma.json" && echo "ok tma: the bulk copy is named as not visible" ||
    { echo "FAIL tma: the bulk copy is not named"; fail=1; }

# expect NAME RC PATTERN [OPTIONS] -- PROGRAM ARGS: exit status and message, nothing written
expect() {
    name=$1 want=$2 pat=$3
    shift 3
    rm -f "$work/x.json"
    "$bin" record -o "$work/x.json" "$@" > "$work/$name.out" 2> "$work/$name.err"
    rc=$?
    if [ $rc -ne "$want" ] || ! grep -q -- "$pat" "$work/$name.err" || [ -e "$work/x.json" ]; then
        echo "FAIL $name: exit $rc (want $want), stderr: $(cat "$work/$name.err")"
        fail=1
    else
        echo "ok $name: exit $rc: $(cat "$work/$name.err")"
    fi
}
expect crash 1 "killed by signal 11" -- "$work/faults" crash
expect fail 1 "exited with status 3" -- "$work/faults" fail
expect nolaunch 1 "launched no CUDA kernel" -- "$work/faults" nolaunch
expect notcuda 1 "launched no CUDA kernel" -- /bin/true
expect nomatch 2 "no kernel matches" --kernel nomatch -- "$work/twice"
expect nolaunch5 2 "no launch 5" --launch 5 -- "$work/twice"
expect outside 2 "outside the grid" --block-index 5 -- "$work/twice"
expect notfound 2 "program not found" -- "$work/no-such-program"
BANKSCOPE_SANITIZER_LIB=/nonexistent expect nosanitizer 3 "libsanitizer-public.so" -- "$work/faults" ok
grep -q started "$work/nosanitizer.out" && { echo "FAIL nosanitizer: the program ran"; fail=1; }

# -o -: stdout is only the recording, the program's own output goes to stderr
"$bin" record --kernel naive -o - -- "$work/transpose" > "$work/stdout.json" 2> "$work/stdout.err"
python3 -c "import json; json.load(open('$work/stdout.json'))" && grep -q checksum "$work/stdout.err" &&
    echo "ok stdout: valid JSON, the program's output on stderr" || { echo "FAIL stdout: $(head -c 300 "$work/stdout.json")"; fail=1; }
# a signal to bankscope is passed on to the program; bankscope exits 128 + N, nothing written
for sig in TERM:143 INT:130; do
    want=${sig#*:} sig=${sig%:*}
    rm -f "$work/x.json"
    # (a background job of sh ignores SIGINT, and so would the program: env gives it back)
    env --default-signal=INT "$bin" record -o "$work/x.json" -- sleep "3$want" > /dev/null 2> "$work/sig.err" &
    pid=$!
    sleep 2
    kill -$sig $pid
    wait $pid
    rc=$?
    if [ $rc -eq $want ] && [ ! -e "$work/x.json" ] && ! pgrep -f -x "sleep 3$want" > /dev/null; then
        echo "ok SIG$sig: exit $rc"
    else
        echo "FAIL SIG$sig: exit $rc (want $want): $(cat "$work/sig.err")"
        fail=1
    fi
done

# truncation and a program without line info
"$bin" record --max-instructions 10 -o "$work/trunc.json" -- "$work/transpose" > "$work/trunc.out" 2>&1
python3 -c "
import json,sys; d=json.load(open('$work/trunc.json'))
ok = d['truncated'] and d['captured'] == 10 and len(d['trace']) == 10 and d['executed'] == 64
print(('ok' if ok else 'FAIL') + ' trunc: truncated %s, %d of %d kept' % (d['truncated'], len(d['trace']), d['executed']))
sys.exit(0 if ok else 1)" || fail=1
grep -q "^truncated" "$work/trunc.out" || { echo "FAIL trunc: not said"; fail=1; }
"$bin" record -o "$work/nolines.json" -- "$work/transpose_nolines" > "$work/nolines.out" 2>&1
grep -q "no line info" "$work/nolines.out" && grep -q '"line_info": false' "$work/nolines.json" &&
    echo "ok nolines: said, PCs and SASS kept" || { echo "FAIL nolines"; fail=1; }
[ -n "${RECORD_KEEP:-}" ] && cp "$work/trunc.json" "$RECORD_KEEP/transpose-truncated.json"
exit $fail

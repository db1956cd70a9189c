#!/bin/sh
# How `bankscope record` runs the program, without a GPU: a stand-in driver (libcuda.so.1 that
# reports one device) and a stand-in program that acts as each run's recording library would,
# from the environment the command gives it (BANKSCOPE_RECORD_PASS, _DIR, _SYNC). Checked:
#   - the capture, count and time runs go side by side: the count and time runs have started
#     while the capture run is still going, told to wait for its verdicts (BANKSCOPE_RECORD_SYNC=1);
#   - --no-time starts no time run; --sequential, and a GPU in exclusive-process mode, run one
#     after another (no count run before the capture run has ended);
#   - the capture run's failure, or a capture that chose no launch, ends the other runs at once;
#   - SIGTERM, SIGINT and SIGHUP reach every run; bankscope exits 128 + N, writes nothing;
#   - --verbose says how the runs go and each run's wall time;
#   - the private folder is removed every time, no run is left behind.
# Skipped (77) in a build without CUDA support or without a C compiler.
top_builddir=${top_builddir:-.}
bin="$(cd "$top_builddir" && pwd)/bankscope"
grep -q '^#define HAVE_CUDA 1' "$top_builddir/config.h" 2> /dev/null || { echo "built without CUDA: skipped"; exit 77; }
tmp=$(mktemp -d) || exit 99
trap 'rm -rf "$tmp"' EXIT
pass=0
fail=0
check() { # check NAME STATUS MESSAGE
    if [ "$2" -eq 0 ]; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL $1: $3"; fi
}
cat > "$tmp/cuda.c" << 'EOF'
/* A stand-in driver: one device, its compute mode from STANDIN_COMPUTE_MODE. */
#include <stdlib.h>
int cuInit(unsigned f) { (void)f; return 0; }
int cuDeviceGetCount(int *n) { *n = 1; return 0; }
int cuDeviceGet(int *d, int i) { *d = i; return 0; }
int cuDeviceGetAttribute(int *v, int a, int d)
{
    const char *m = getenv("STANDIN_COMPUTE_MODE");
    (void)d;
    *v = a == 20 && m ? atoi(m) : 0;
    return 0;
}
EOF
${CC:-cc} -shared -fPIC -o "$tmp/libcuda.so.1" "$tmp/cuda.c" 2> /dev/null || { echo "no C compiler: skipped"; exit 77; }
mkdir "$tmp/lib" "$tmp/s" "$tmp/t"
: > "$tmp/lib/libbankscope-record.so"
: > "$tmp/lib/bankscope-record-patch.fatbin"
# The stand-in program: notes that its run started (and with which sync), waits as told, notes
# the signals it gets. The capture run waits (up to STUB_WINDOW tenths of a second, 30 unless
# told) for the other runs to start (the count run only with STUB_NOTIME) and notes which had;
# then fails, goes on forever, or writes a capture that chose no launch.
cat > "$tmp/prog" << 'EOF'
#!/bin/sh
s=$STUB p=$BANKSCOPE_RECORD_PASS
echo "$BANKSCOPE_RECORD_SYNC" > "$s/started-$p"
for sig in TERM INT HUP; do trap "touch '$s/got-$p-$sig'; exit 0" $sig; done
if [ "$p" = capture ]; then
    n=0
    while [ $n -lt "${STUB_WINDOW:-30}" ] && ! { [ -e "$s/started-count" ] && { [ -n "$STUB_NOTIME" ] || [ -e "$s/started-time" ]; }; }; do
        sleep 0.1
        n=$((n + 1))
    done
    ls "$s" | grep started- | tr '\n' ' ' > "$s/seen"
    case $STUB_CAPTURE in
    fail) exit 3 ;;
    wait) while :; do sleep 0.1; done ;;
    esac
    printf 'bankscope-capture 1\nnone\nlaunched 1 1 k k\n' > "$BANKSCOPE_RECORD_DIR/capture.txt"
    exit 0
fi
while :; do sleep 0.1; done
EOF
chmod +x "$tmp/prog"
# rec [OPTIONS]: bankscope record OPTIONS -- the stand-in program, in the background; its pid in $pid
rec() {
    rm -f "$tmp/s/"* "$tmp/out.json"
    STUB="$tmp/s" TMPDIR="$tmp/t" LD_LIBRARY_PATH="$tmp" BANKSCOPE_SANITIZER_LIB="$tmp/cuda.c" \
        BANKSCOPE_RECORD_LIBDIR="$tmp/lib" env --default-signal=INT "$bin" record -o "$tmp/out.json" "$@" -- \
        "$tmp/prog" > "$tmp/out" 2> "$tmp/err" &
    pid=$!
}
# finish NAME: wait for bankscope (at most 20 s: a hang check) into $rc; then no run of the
# program may be left and the private folder must be gone
finish() {
    n=0
    while kill -0 "$pid" 2> /dev/null && [ $n -lt 200 ]; do
        sleep 0.1
        n=$((n + 1))
    done
    kill -0 "$pid" 2> /dev/null && { kill -9 "$pid"; check "$1" 1 "still running 20 s on"; }
    wait "$pid"
    rc=$?
    n=0 # the runs' last moments (polled, at most 0.3 s)
    while pgrep -f "$tmp/prog" > /dev/null && [ $n -lt 3 ]; do
        sleep 0.1
        n=$((n + 1))
    done
    ! pgrep -f "$tmp/prog" > /dev/null
    check "$1: no run left" $? "$(pgrep -af "$tmp/prog")"
    [ -z "$(ls "$tmp/t")" ]
    check "$1: private folder removed" $? "$(ls "$tmp/t")"
    [ ! -e "$tmp/out.json" ]
    check "$1: nothing written" $? "out.json exists"
}

# side by side (the default): the count and time runs start while the capture run goes on, told
# to wait for its verdicts; the capture chose no launch, so they are ended
rec -v
finish "side by side"
[ $rc -eq 1 ] && grep -q "no launch executed a shared-memory instruction" "$tmp/err"
check "side by side: exit" $? "exit $rc: $(cat "$tmp/err")"
[ "$(cat "$tmp/s/seen")" = "started-capture started-count started-time " ]
check "side by side: runs started together" $? "the capture run saw: $(cat "$tmp/s/seen")"
[ "$(cat "$tmp/s/started-count" "$tmp/s/started-time")" = "1
1" ]
check "side by side: told to wait for the verdicts" $? "BANKSCOPE_RECORD_SYNC not 1"
grep -q "^record: the runs go side by side" "$tmp/err" && grep -q "^record: capture run: [0-9.]* s$" "$tmp/err"
check "side by side: --verbose" $? "$(cat "$tmp/err")"

# --no-time: no time run
STUB_NOTIME=1 rec --no-time
finish "--no-time"
[ -e "$tmp/s/started-count" ] && [ ! -e "$tmp/s/started-time" ]
check "--no-time: no time run" $? "$(ls "$tmp/s")"

# --sequential and an exclusive-process GPU: one after another; the capture chose no launch, so
# no other run ever starts (the capture run gives them 1 s, where side by side they start at once)
STUB_WINDOW=10 rec --sequential -v
finish "--sequential"
[ $rc -eq 1 ] && [ "$(cat "$tmp/s/seen")" = "started-capture " ] && [ "$(cat "$tmp/s/started-capture")" = 0 ]
check "--sequential: one run at a time" $? "exit $rc, the capture run saw: $(cat "$tmp/s/seen")"
STUB_WINDOW=10 STANDIN_COMPUTE_MODE=3 rec -v
finish "exclusive-process"
[ $rc -eq 1 ] && [ "$(cat "$tmp/s/seen")" = "started-capture " ] && grep -q "one after another (a GPU in exclusive-process mode)" "$tmp/err"
check "exclusive-process: one run at a time" $? "exit $rc, the capture run saw: $(cat "$tmp/s/seen"); $(cat "$tmp/err")"

# the capture run fails: the other runs are ended, its failure said
STUB_CAPTURE=fail rec
finish "capture fails"
[ $rc -eq 1 ] && grep -q "exited with status 3; nothing written" "$tmp/err"
check "capture fails: exit" $? "exit $rc: $(cat "$tmp/err")"

# a signal reaches every run; exit 128 + N
for sig in TERM:143 INT:130 HUP:129; do
    want=${sig#*:} sig=${sig%:*}
    STUB_CAPTURE=wait rec
    n=0
    while [ ! -e "$tmp/s/seen" ] && [ $n -lt 100 ]; do
        sleep 0.1
        n=$((n + 1))
    done
    kill -s "$sig" "$pid"
    finish "SIG$sig"
    [ $rc -eq "$want" ] && grep -q "stopped by signal" "$tmp/err"
    check "SIG$sig: exit" $? "exit $rc (want $want): $(cat "$tmp/err")"
    [ -e "$tmp/s/got-capture-$sig" ] && [ -e "$tmp/s/got-count-$sig" ] && [ -e "$tmp/s/got-time-$sig" ]
    check "SIG$sig: every run got it" $? "$(ls "$tmp/s")"
done

echo "record_runs: $pass passed, $fail failed"
[ $fail -eq 0 ]

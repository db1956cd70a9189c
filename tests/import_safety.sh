#!/bin/sh
# Import never destroys its input, never replaces a file unasked, and never leaks its parser.
# -o: an output that is the input (the same name, a hard link, a symbolic link) is refused with
# exit 2 and the source left byte for byte, --force or not; an existing file is replaced only
# with --force; the same holds for `bankscope FILE.cu ... -o`. -D with an integer that does not
# fit in 64 bits is refused (exit 2). Signals: the import's parser child never outlives the import: SIGTERM, SIGHUP or SIGKILL to
# `bankscope import` of a parser bomb (a macro that expands exponentially) must leave no child
# running, and the child stops on its own at --timeout even when its parent cannot act (stopped
# with SIGSTOP). Limits are generous (a hang check: the child used to run on for minutes).
# Budgets: 100,000 accesses import in linear time; a template inlined exponentially stops at
# the walk's budget (exit 2); an #include of a device, FIFO or /proc file is refused (exit 2).
# Skipped (77) in a build without libclang, or without /proc to find the child.
srcdir=${srcdir:-.}
top_builddir=${top_builddir:-.}
bin="$(cd "$top_builddir" && pwd)/bankscope"
tmp=$(mktemp -d) || exit 99
trap 'rm -rf "$tmp"' EXIT
"$bin" import /dev/null --block 32 2>"$tmp/probe"
if [ $? -eq 1 ] && grep -q "built without libclang" "$tmp/probe"; then
    echo "SKIP: built without libclang"
    exit 77
fi
[ -d /proc/self ] || { echo "SKIP: no /proc"; exit 77; }
pass=0
fail=0
check() {  # check WHAT OK(1/0)
    if [ "$2" -eq 1 ]; then pass=$((pass + 1)); else echo "FAIL: $1"; fail=$((fail + 1)); fi
}
cp "$srcdir/tests/import/transpose-naive.cu" "$tmp/k.cu"
cp "$tmp/k.cu" "$tmp/k.orig"
ln "$tmp/k.cu" "$tmp/hard.cu"
ln -s k.cu "$tmp/sym.cu"
# refused (exit 2, the message matching PATTERN) with the source intact: refused PATTERN ARGS...
refused() {
    pat=$1
    shift
    (cd "$tmp" && "$bin" "$@" </dev/null) >/dev/null 2>"$tmp/err"
    rc=$?
    check "$* -> exit $rc, $(head -c 300 "$tmp/err")" \
        "$([ $rc -eq 2 ] && grep -q -- "$pat" "$tmp/err" && cmp -s "$tmp/k.cu" "$tmp/k.orig" && echo 1 || echo 0)"
}
refused 'the output k.cu is the input k.cu' import k.cu --block 32,32 -o k.cu
refused 'the output k.cu is the input k.cu' import k.cu --block 32,32 -o k.cu --force
refused 'the output ./k.cu is the input k.cu' import k.cu --block 32,32 -o ./k.cu
refused 'the output hard.cu is the input k.cu' import k.cu --block 32,32 -o hard.cu --force
refused 'the output sym.cu is the input k.cu' import k.cu --block 32,32 -o sym.cu --force
refused 'the output k.cu is the input k.cu' k.cu --block 32,32 -o k.cu
refused 'the output k.cu is the input sym.cu' import sym.cu --block 32,32 -o k.cu --force
# a new file is written; an existing one only with --force
(cd "$tmp" && "$bin" import k.cu --block 32,32 -o new.json) 2>"$tmp/err"
check "new -o file: $(cat "$tmp/err")" "$([ $? -eq 0 ] && [ -s "$tmp/new.json" ] && echo 1 || echo 0)"
echo keep >"$tmp/old.json"
refused 'old.json exists: give --force' import k.cu --block 32,32 -o old.json
check "an existing file was replaced without --force" "$(grep -qx keep "$tmp/old.json" && echo 1 || echo 0)"
refused 'old.json exists: give --force' k.cu --block 32,32 -o old.json
(cd "$tmp" && "$bin" import k.cu --block 32,32 -o old.json --force) 2>"$tmp/err"
check "--force replaces: $(cat "$tmp/err")" "$([ $? -eq 0 ] && cmp -s "$tmp/old.json" "$tmp/new.json" && echo 1 || echo 0)"
(cd "$tmp" && "$bin" import k.cu --block 32,32 -o /dev/null) 2>"$tmp/err"
check "-o /dev/null: $(cat "$tmp/err")" "$([ $? -eq 0 ] && echo 1 || echo 0)"
# -D integers that do not fit in 64 bits
refused '-D n=99999999999999999999: 99999999999999999999 does not fit in a 64-bit integer' \
    import k.cu --block 32,32 -D n=99999999999999999999
refused '-D n=0x10000000000000000: .* does not fit' import k.cu --block 32,32 -Dn=0x10000000000000000
refused 'does not fit' import k.cu --block 32,32 -D n=-9223372036854775809
(cd "$tmp" && "$bin" import k.cu --block 32,32 -D n=-9223372036854775808) >/dev/null 2>"$tmp/err"
check "-D INT64_MIN is taken: $(cat "$tmp/err")" "$([ $? -eq 0 ] && echo 1 || echo 0)"

{
    echo '#define X0 x'
    i=1
    while [ $i -le 40 ]; do echo "#define X$i X$((i - 1)) X$((i - 1))"; i=$((i + 1)); done
    echo '__global__ void k() { __shared__ int x[32]; int v[] = {X40}; x[threadIdx.x] = v[0]; }'
} >"$tmp/bomb.cu"

# The child of process $1 (waits up to 10 s for the fork).
child_of() {
    n=0
    while [ $n -lt 100 ]; do
        for s in /proc/[0-9]*/stat; do
            # field 4 of /proc/PID/stat is the parent's id (the name in field 2 has no blanks here)
            { read -r cpid _ _ ppid _ <"$s"; } 2>/dev/null || continue
            [ "$ppid" = "$1" ] && { echo "$cpid"; return 0; }
        done
        sleep 0.1
        n=$((n + 1))
    done
    return 1
}
# True once process $1 is gone (or a zombie), within $2 seconds.
gone_within() {
    n=0
    while [ $n -lt $(($2 * 10)) ]; do
        [ -d "/proc/$1" ] || return 0
        grep -q '^State:[[:space:]]*Z' "/proc/$1/status" 2>/dev/null && return 0
        sleep 0.1
        n=$((n + 1))
    done
    return 1
}

for sig in TERM HUP KILL; do
    (cd "$tmp" && exec "$bin" import bomb.cu --block 32 --timeout 300) >/dev/null 2>&1 &
    parent=$!
    child=$(child_of $parent) || { echo "FAIL $sig: no parser child seen"; fail=$((fail + 1)); kill -KILL $parent; continue; }
    sleep 0.3 # the child is parsing (its expansion takes far longer)
    kill -$sig $parent
    wait $parent 2>/dev/null
    if gone_within "$child" 10; then pass=$((pass + 1)); else
        echo "FAIL SIG$sig: the parser child $child still runs after its parent ended"
        kill -KILL "$child" 2>/dev/null
        fail=$((fail + 1))
    fi
done

# --timeout bounds the child on its own: the parent is stopped and cannot kill it.
(cd "$tmp" && exec "$bin" import bomb.cu --block 32 --timeout 2) >/dev/null 2>"$tmp/err" &
parent=$!
child=$(child_of $parent)
kill -STOP $parent
if [ -n "$child" ] && gone_within "$child" 20; then pass=$((pass + 1)); else
    echo "FAIL: with its parent stopped, the parser child $child outlived --timeout 2"
    kill -KILL "$child" 2>/dev/null
    fail=$((fail + 1))
fi
kill -CONT $parent
wait $parent
rc=$?
# (it may also reach the parser's memory limit first)
if [ $rc -eq 2 ] && grep -qE 'bomb.cu: (parsing took longer than 2 s|the parser stopped|libclang could not parse)' "$tmp/err"; then pass=$((pass + 1)); else
    echo "FAIL: after the child's own limit: exit $rc, $(cat "$tmp/err")"
    fail=$((fail + 1))
fi

# Cost linear in the file: 100,000 accesses (50,000 lines) import well inside a generous limit
# (a hang check: finding each access's line used to scan the file from its start, 40 s here).
awk 'BEGIN { print "__global__ void big(float *out)\n{\n    __shared__ float s[1024];\n    float a = 0;"
             for (i = 0; i < 50000; i++) printf "    a += s[%d]; s[1] = a;\n", i % 512
             print "    out[threadIdx.x] = a;\n}" }' >"$tmp/big.cu"
(cd "$tmp" && "$bin" import big.cu --block 32 --timeout 25 -o big.json) 2>"$tmp/err"
rc=$?
check "100,000 accesses: exit $rc, $(grep -v 'more than 256 accesses' "$tmp/err" | head -c 300)" \
    "$([ $rc -eq 0 ] && grep -q 'big.cu:50004:[0-9]*: skipped store' "$tmp/err" && echo 1 || echo 0)"
# A template that calls itself twice per level: the walk's budget stops it at the kernel's call,
# exit 2 (it used to take all memory). In a sanitizer build the memory watch may stop it first.
cat >"$tmp/twice.cu" <<'EOF2'
template <int N> __device__ float f(float *s) { return f<N - 1>(s) + f<N - 1>(s + 1); }
template <> __device__ float f<0>(float *s) { return s[threadIdx.x]; }
__global__ void k(float *out)
{
    __shared__ float s[1024];
    out[threadIdx.x] = f<18>(s);
}
EOF2
(cd "$tmp" && "$bin" import twice.cu --block 32 --timeout 60 -o twice.json) 2>"$tmp/err"
rc=$?
check "exponential inlining: exit $rc, $(head -c 300 "$tmp/err")" \
    "$([ $rc -eq 2 ] && grep -qE "twice.cu:6:24: error: the import stopped after [0-9]+ steps of its walk, inlining the call of 'f'|twice.cu: the parser used more than" "$tmp/err" && echo 1 || echo 0)"
# Includes that are not regular files are refused at their line, before the parser reads them:
# a device, a FIFO without a writer, a link into /proc.
mkfifo "$tmp/fifo.h" 2>/dev/null
ln -s /proc/self/environ "$tmp/env.h"
for inc in /dev/zero fifo.h env.h; do
    printf '// a kernel\n  #include "%s"\n__global__ void k(float *o) { __shared__ float s[32]; o[0] = s[threadIdx.x]; }\n' \
        "$inc" >"$tmp/inc.cu"
    (cd "$tmp" && "$bin" import inc.cu --block 32 --timeout 20 -o inc.json) 2>"$tmp/err"
    rc=$?
    check "#include \"$inc\": exit $rc, $(head -c 300 "$tmp/err")" \
        "$([ $rc -eq 2 ] && grep -q "^inc.cu:2:3: error: #include \"$inc\" names .*, not a regular source file: refused\$" "$tmp/err" &&
            [ "$(wc -l <"$tmp/err")" -eq 1 ] && echo 1 || echo 0)"
done

echo "import_safety: $pass passed, $fail failed"
[ $fail -eq 0 ]

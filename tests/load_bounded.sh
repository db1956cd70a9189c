#!/bin/sh
# Loading is bounded by what it evaluates, not by the file's instruction count: scenarios whose
# expressions are long and may fail (so the load-time error check must evaluate them), from 16 KB
# to the 16 MiB a scenario file may have, and a lesson of 200 steps that names such a pattern,
# must each answer (a result, or a refusal with its reason) within a generous limit: a hang
# check that catches the tens of seconds or minutes these took, not a timing.
srcdir=${srcdir:-.}
top_builddir=${top_builddir:-.}
bin="$(cd "$top_builddir" && pwd)/bankscope"
tmp=$(mktemp -d) || exit 99
trap 'rm -rf "$tmp"' EXIT
command -v timeout >/dev/null 2>&1 || { echo "no timeout(1): skipped"; exit 77; }
limit=15
pass=0
fail=0

# An expression of about N characters that the prover cannot clear of a division by zero.
expr_of() {
    awk -v n="$1" 'BEGIN { t = "tid/((tid^i)|1)+"; s = ""; while (length(s) + length(t) < n) s = s t; print s "0" }'
}
# scenario NACCESSES EXPR_CHARS [BLANK_BYTES]: a 1024-thread block, 4096 iterations.
scenario() {
    e=$(expr_of "$2")
    printf '{"name": "bounded",'
    [ "${3:-0}" -gt 0 ] && head -c "$3" /dev/zero | tr '\0' ' '
    printf ' "block": [1024], "loop": {"var": "i", "from": 0, "to": 4096},\n'
    printf ' "arrays": [{"name": "a", "type": "float", "dims": [1024]}], "accesses": [\n'
    k=1
    while [ $k -le "$1" ]; do
        [ $k -gt 1 ] && printf ',\n'
        printf '  {"op": "load", "array": "a", "index": "(%s) %% 1024", "when": "(%s) >= 0"}' "$e" "$e"
        k=$((k + 1))
    done
    printf ']}\n'
}
# bounded WHAT WANT_RC FILE CMD...: CMD ends within the limit with WANT_RC (a list: "0 2").
bounded() {
    what=$1 want=$2
    shift 2
    timeout $limit "$@" >"$tmp/out" 2>"$tmp/err" </dev/null
    rc=$?
    case " $want " in
    *" $rc "*) pass=$((pass + 1)) ;;
    *)
        if [ $rc -eq 124 ]; then echo "FAIL $what: still running after $limit s"; else
            echo "FAIL $what: exit $rc: $(head -c 300 "$tmp/err")"; fi
        fail=$((fail + 1))
        ;;
    esac
}

scenario 2 3900 >"$tmp/s16k.json"      # 16 KB: the old check evaluated 200 000 instructions of it
scenario 256 4000 >"$tmp/max.json"     # 256 accesses of the longest expressions: about 2 MB
scenario 256 4000 14000000 >"$tmp/16m.json" # the same with blanks: just under 16 MiB
for f in s16k max 16m; do
    bounded "analyze $f --summary" "0 2" "$bin" analyze "$tmp/$f.json" --summary
    # the refusal names the bound (the work estimate), not a crash or a silent stop
    [ $rc -eq 0 ] || grep -q -- '--force\|--warp' "$tmp/err" || { echo "FAIL $f: $(head -c 300 "$tmp/err")"; fail=$((fail + 1)); }
    bounded "analyze $f --warp 0" "0 2" "$bin" analyze "$tmp/$f.json" --summary --warp 0
done
# The error check still finds an error within its budget, with its position.
printf '{"name": "e", "block": [64], "arrays": [{"name": "a", "type": "float", "dims": [64]}],
 "accesses": [{"op": "load", "array": "a", "index": "tid / (tid - 40)"}]}\n' >"$tmp/div.json"
bounded "division by zero found" "2" "$bin" analyze "$tmp/div.json" --summary
grep -q 'div.json:2:[0-9]*: accesses\[0\].index\[0\]: .*division by zero for thread (40,0,0)' "$tmp/err" && pass=$((pass + 1)) || {
    echo "FAIL division by zero message: $(cat "$tmp/err")"; fail=$((fail + 1)); }

# A lesson of 200 steps, each naming the 2 MB scenario: loaded (and refused for want of a terminal).
{
    printf '{"lesson": "bounded", "steps": [\n'
    k=1
    while [ $k -le 200 ]; do
        [ $k -gt 1 ] && printf ',\n'
        printf '  {"pattern": "%s", "text": "step %d"}' "$tmp/max.json" $k
        k=$((k + 1))
    done
    printf ']}\n'
} >"$tmp/lesson.json"
bounded "lesson of 200 steps" "2" "$bin" "$tmp/lesson.json"
grep -q 'needs a terminal' "$tmp/err" && pass=$((pass + 1)) || { echo "FAIL lesson: $(head -c 300 "$tmp/err")"; fail=$((fail + 1)); }

echo "load_bounded: $pass passed, $fail failed"
[ $fail -eq 0 ]

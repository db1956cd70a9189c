#!/bin/sh
# Without a usable GPU, the GPU commands exit 3 with one clear line on stderr (the reason depends
# on the build: no driver, or built without CUDA). Skips (77) on a machine with a GPU.
top_builddir=${top_builddir:-.}
bin="$top_builddir/bankscope"
err=$(mktemp) || exit 99
trap 'rm -f "$err"' EXIT
pass=0
fail=0
for args in "measure default" "measure transpose-naive --json" "sweep transpose-naive --measure"; do
    # shellcheck disable=SC2086
    out=$("$bin" $args 2> "$err")
    rc=$?
    [ $rc -eq 0 ] && { echo "a GPU is present: skipped"; exit 77; }
    if [ $rc -eq 3 ] && [ -z "$out" ] && [ "$(wc -l < "$err")" -eq 1 ] && grep -q "no usable GPU" "$err"; then
        pass=$((pass + 1))
    else
        echo "FAIL bankscope $args: exit $rc, stderr: $(cat "$err")"; fail=$((fail + 1))
    fi
done
echo "nogpu: $pass passed, $fail failed"
[ $fail -eq 0 ]

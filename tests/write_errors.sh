#!/bin/sh
# Write errors are never silent: every command that prints its result exits 1 with a message on
# stderr when stdout cannot be written (/dev/full: "no space left on device").
top_builddir=${top_builddir:-.}
bin="$top_builddir/bankscope"
[ -w /dev/full ] || { echo "/dev/full missing: skipped"; exit 77; }
err=$(mktemp) || exit 99
trap 'rm -f "$err"' EXIT
pass=0
fail=0
for args in "analyze default" "analyze default --json" "analyze default --summary" "sweep default" \
            "sweep default --json" "kernel default" "list" "list --json" "list --names"; do
    # shellcheck disable=SC2086
    "$bin" $args > /dev/full 2> "$err"
    rc=$?
    if [ $rc -eq 1 ] && grep -q "cannot write the output" "$err"; then
        pass=$((pass + 1))
    else
        echo "FAIL bankscope $args > /dev/full: exit $rc, stderr: $(cat "$err")"; fail=$((fail + 1))
    fi
done
echo "write errors: $pass passed, $fail failed"
[ $fail -eq 0 ]

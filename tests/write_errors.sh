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
            "sweep default --json" "kernel default" "list" "list --json" "list --names" "list --archs" \
            "--help" "--version" "default --snapshot"; do
    # shellcheck disable=SC2086
    "$bin" $args > /dev/full 2> "$err"
    rc=$?
    if [ $rc -eq 1 ] && grep -q "cannot write the output" "$err"; then
        pass=$((pass + 1))
    else
        echo "FAIL bankscope $args > /dev/full: exit $rc, stderr: $(cat "$err")"; fail=$((fail + 1))
    fi
done
# import prints the scenario on stdout (only where the build can import)
srcdir=${srcdir:-.}
if "$bin" import "$srcdir/tests/import/stencil.cu" --block 32,8 > /dev/null 2>&1; then
    "$bin" import "$srcdir/tests/import/stencil.cu" --block 32,8 > /dev/full 2> "$err"
    rc=$?
    if [ $rc -eq 1 ] && grep -q "cannot write the output" "$err"; then
        pass=$((pass + 1))
    else
        echo "FAIL bankscope import > /dev/full: exit $rc, stderr: $(cat "$err")"; fail=$((fail + 1))
    fi
fi
echo "write errors: $pass passed, $fail failed"
[ $fail -eq 0 ]

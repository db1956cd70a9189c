#!/bin/sh
# The command-line paths under valgrind: no invalid access, no leak. Skips (77) without valgrind
# or when the build uses AddressSanitizer (the two do not mix). Inlined frames are left out of the
# stack traces (--read-inline-info=no): the same errors and leaks found, valgrind starts faster.
command -v valgrind >/dev/null 2>&1 || { echo "valgrind not found: skipped"; exit 77; }
top_builddir=${top_builddir:-.}
srcdir=${srcdir:-.}
bin="$top_builddir/bankscope"
ldd "$bin" 2>/dev/null | grep -q asan && { echo "sanitizer build: skipped"; exit 77; }
out=$(mktemp -d) || exit 99
trap 'rm -rf "$out"' EXIT
cases="$srcdir/tests/golden/cases"
fail=0
pass=0
while read -r args; do
    [ -n "$args" ] || continue
    # shellcheck disable=SC2086
    valgrind -q --read-inline-info=no --leak-check=full --show-leak-kinds=definite,indirect \
        --errors-for-leak-kinds=definite,indirect \
        --error-exitcode=99 "$bin" $args > /dev/null 2> "$out/log"
    if [ $? -eq 99 ]; then
        echo "FAIL valgrind: bankscope $args"; head -30 "$out/log"; fail=$((fail + 1))
    else
        pass=$((pass + 1))
    fi
done <<EOF2
analyze default
analyze struct-mixed --json
analyze reduction-strided --all
analyze $cases/trace-column-32x32.json --json
analyze $cases/bad-divzero.json
analyze $cases/bad-deep.json
analyze $cases/bad-inject-field.json
sweep transpose-naive --max-pad 8
sweep struct-mixed --json
kernel struct-mixed
export transpose-naive --svg $out/t.svg
list
measure default
--help
EOF2
echo "valgrind: $pass passed, $fail failed"
[ $fail -eq 0 ]

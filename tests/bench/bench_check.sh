#!/bin/sh
# Benchmark (not a test: prints timings, asserts nothing): what each test of `make check` costs.
# Builds the check programs (`make check TESTS=`), then runs every test of `make check`'s TESTS
# alone, one after the other, in the environment automake gives it (srcdir and top_builddir
# exported, unit tests with TAP output), and prints each one's wall and CPU seconds (children
# included), sorted, then the sums and the load average before and after (the sum follows the
# machine's load: run it on an idle machine, or twice in turn with the build compared against).
# Run it from the build tree:
#   tests/bench/bench_check.sh [TEST...]      (default: every test of `make check`)
# A test's exit status is printed beside it (77 = skipped, as automake counts it).
make=${MAKE:-make}
top=$(pwd)
srcdir=$(sed -n 's/^abs_top_srcdir = //p' Makefile 2>/dev/null)
[ -n "$srcdir" ] || { echo "bench_check.sh: run it from a configured build tree" >&2; exit 2; }
if [ $# -eq 0 ]; then
    # shellcheck disable=SC2046
    set -- $(printf 'print-tests:\n\t@echo $(TESTS)\n' | $make -s -f Makefile -f - print-tests)
fi
$make -s -j2 check TESTS= > /dev/null || { echo "bench_check.sh: build failed" >&2; exit 1; }
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
load0=$(cut -d' ' -f1-3 /proc/loadavg)
for t in "$@"; do
    [ -x "$t" ] || t2="$srcdir/$t"
    exe=${t2:-$t}
    t2=
    /usr/bin/time -f "%e %U %S" -o "$tmp/time" env srcdir="$srcdir" top_builddir="$top" \
        CMOCKA_MESSAGE_OUTPUT=TAP "$exe" > "$tmp/log" 2>&1
    rc=$?
    read -r wall user sys < "$tmp/time" 2>/dev/null || { wall=0 user=0 sys=0; }
    # /usr/bin/time writes "Command exited with non-zero status N" first when the test fails
    case $wall in Command*) read -r wall user sys <<EOF
$(tail -n 1 "$tmp/time")
EOF
    ;; esac
    printf '%s %s %s %s\n' "$wall" "$(echo "$user + $sys" | bc -l)" "$rc" "$t" >> "$tmp/rows"
    printf '%8.2f s  %s (exit %s)\n' "$wall" "$t" "$rc" >&2
    # a failure's last lines, since its log is not kept
    case $rc in 0 | 77) ;; *) tail -n 8 "$tmp/log" | sed 's/^/    | /' >&2 ;; esac
done
load1=$(cut -d' ' -f1-3 /proc/loadavg)
echo "wall s   cpu s  exit  test"
sort -rn "$tmp/rows" | awk '{ printf "%7.2f %7.2f  %4d  %s\n", $1, $2, $3, $4 }'
awk -v l0="$load0" -v l1="$load1" '{ w += $1; c += $2; n++ }
END { printf "sum: %.1f s wall, %.1f s CPU, %d tests (load average %s before, %s after)\n", w, c, n, l0, l1 }' "$tmp/rows"

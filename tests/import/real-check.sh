#!/bin/sh
# make check's part of the import benchmark: correctness only (nothing dropped silently,
# no wrong op) for the kernels listed in the CHECKED file of each corpus, the project's own
# (tests/import/real) and the outside ones (tests/import/outside, outside2, outside3, outside4, outside5); a
# corpus whose sources are not in place (its get.sh) is skipped, and so is the test (77) when none is, or without libclang.
srcdir=${srcdir:-.}
rc=77
for corpus in real outside outside2 outside3 outside4 outside5; do
    echo "== tests/import/$corpus"
    BANKSCOPE_CORPUS_DIR="$srcdir/tests/import/$corpus" sh "$srcdir/tests/import/coverage.sh" --check
    case $? in
    0) [ $rc -eq 77 ] && rc=0 ;;
    77) ;;
    *) rc=1 ;;
    esac
done
exit $rc

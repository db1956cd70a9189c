#!/bin/sh
# make check's part of the import benchmark: correctness only (nothing dropped silently,
# no wrong op) for the corpus kernels listed in tests/import/real/CHECKED; skipped (77) when
# the corpus sources are not in place (tests/import/real/get.sh) or without libclang.
srcdir=${srcdir:-.}
exec sh "$srcdir/tests/import/coverage.sh" --check

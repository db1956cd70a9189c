#!/bin/sh
# Fuzzing with libFuzzer (clang, ASan + UBSan): builds the two harnesses in build-fuzz/, seeds
# the loader from patterns/ and the hostile golden inputs, and runs each for SECONDS (default
# 30). A crash is copied into tests/fuzz/regressions/ (replayed by make check from then on)
# and the run fails. Longer runs: tests/fuzz/run.sh 3600.
set -u
secs=${1:-30}
top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top" || exit 1
command -v clang >/dev/null 2>&1 || { echo "clang not found: fuzzing skipped"; exit 77; }
[ -f src/embedded_patterns.c ] || { echo "build bankscope first (src/embedded_patterns.c)"; exit 1; }
out=build-fuzz
mkdir -p "$out/corpus-load" "$out/corpus-expr" "$out/crashes"
flags="-g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all -D_GNU_SOURCE -Isrc -I. $(pkg-config --cflags libcjson ncursesw)"
libs="$(pkg-config --libs libcjson ncursesw) -lpthread -lm"
# every model and I/O source and the core's analysis (the program without the TUI, the CLI and the GPU)
srcs="src/util.c src/core/analysis.c $(ls src/model/*.c src/io/*.c | grep -v -e cache.c) src/embedded_patterns.c src/embedded_kernels.c"
for h in load expr; do
    clang $flags -o "$out/fuzz_$h" tests/fuzz/fuzz_$h.c $srcs $libs || exit 1
done
cp patterns/*.json tests/golden/cases/*.json tests/fuzz/regressions/* "$out/corpus-load/" 2>/dev/null
for f in patterns/*.json; do grep -o '"index": "[^"]*"' "$f" | sed 's/"index": "//; s/"$//' ; done |
    awk '{ print > ("'"$out"'/corpus-expr/seed" NR) }'
cp tests/fuzz/regressions/expr-* "$out/corpus-expr/" 2>/dev/null
rc=0
for h in load expr; do
    echo "== fuzz_$h for $secs s"
    "./$out/fuzz_$h" -max_total_time="$secs" -max_len=65536 -timeout=10 -rss_limit_mb=2048 \
        -artifact_prefix="$out/crashes/$h-" "$out/corpus-$h" 2>&1 | grep -E "^#[0-9]+ +DONE|ERROR|SUMMARY|Done" | tail -3
done
for c in "$out"/crashes/*; do
    [ -f "$c" ] || continue
    echo "crash: $c (saved to tests/fuzz/regressions/)"
    cp "$c" tests/fuzz/regressions/
    rc=1
done
[ $rc -eq 0 ] && echo "fuzz: 2 passed, 0 failed" || echo "fuzz: 0 passed, 1 failed"
exit $rc

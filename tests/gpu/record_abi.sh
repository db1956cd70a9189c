#!/bin/sh
# The Compute Sanitizer declarations of src/record/sanitizer_api.h against the toolkit's own
# headers (on a machine that has them, e.g. the GPU machine): tests/gpu/record/abi.c prints the
# offsets and enumerator values the capture pass relies on, compiled both ways; the two outputs
# must be equal. Skipped (77) without the headers.
set -u
src=${srcdir:-.}
cuda=${CUDA_HOME:-/usr/local/cuda}
inc="$cuda/compute-sanitizer/include"
[ -f "$inc/sanitizer.h" ] || { echo "no $inc/sanitizer.h: skipped"; exit 77; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cc -DHAVE_SANITIZER_H -I"$inc" -I"$cuda/include" -I"$src/src/record" -o "$work/real" "$src/tests/gpu/record/abi.c" &&
    cc -I"$cuda/include" -I"$src/src/record" -o "$work/decl" "$src/tests/gpu/record/abi.c" || exit 1
"$work/real" > "$work/real.txt" && "$work/decl" > "$work/decl.txt" || exit 1
if diff "$work/real.txt" "$work/decl.txt"; then
    echo "ok: the declarations match the toolkit's headers ($(wc -l < "$work/real.txt") values)"
else
    echo "FAIL: the declarations differ from the toolkit's headers (above: < headers, > declarations)"
    exit 1
fi

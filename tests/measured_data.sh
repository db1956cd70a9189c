#!/bin/sh
# The count-pass files and Nsight Compute source pages kept from one H100 run of
# tests/gpu/measured.sh (tests/data/measured/ncu) still compare equal, instruction by instruction
# (77 without python3).
srcdir=${srcdir:-.}
command -v python3 >/dev/null || exit 77
d=$srcdir/tests/data/measured/ncu
n=0
for csv in "$d"/*.ncu.csv; do
    python3 "$srcdir/tests/gpu/measured_compare.py" "$csv" "${csv%.ncu.csv}.count.txt" "$(basename "${csv%.ncu.csv}")" || exit 1
    n=$((n + 1))
done
[ "$n" -ge 2 ] || { echo "measured_data: no kept ncu pages in $d"; exit 1; }

#!/bin/sh
# The import benchmark: `bankscope import` on every kernel of the real-kernel corpus
# (tests/import/real/MANIFEST.tsv, each with its options), compared access by access with the
# hand count (tests/import/real/EXPECTED.tsv: one row per shared-memory load, store or atomic
# of the source, an inlined function's once per call, with the line(s) it may be reported at,
# its op and whether its index or condition reads memory).
#
#   sh tests/import/coverage.sh            the table: per kernel hand count, imported, listed
#                                          as skipped, silent, wrong, whole, import time (ms);
#                                          totals, the held-out subset apart
#   sh tests/import/coverage.sh --verbose  also the silent accesses (op, lines) and the wrong ones
#   sh tests/import/coverage.sh --check    correctness only, for the kernels named in
#                                          tests/import/real/CHECKED (all of them when
#                                          BANKSCOPE_CORPUS_ALL=1): exit 1 when one drops an
#                                          access without a message (silent), reports an op
#                                          the source does not have there (wrong), or fails
#
# Reported accesses: the scenario's accesses (`op` and `label` FILE:LINE:COL; the kinds that
# move data into shared memory, cp.async and stmatrix, count as stores, ldmatrix as a load) and the stderr
# lines `FILE:LINE:COL: skipped OP of 'ARRAY': REASON`; a listed one counts as data-dependent
# when REASON says "depends on data" or "data-dependent". A reported access matches a hand-
# counted one of the same op at one of its lines; what matches nothing is wrong (and so is a
# data-dependent access imported as if its index were known), what is left unmatched is silent.
# A kernel is whole when every index-known access is imported, every data-dependent one is
# listed as such, and nothing is wrong.
# The corpus sources are not in the repository: tests/import/real/get.sh puts them in place.
# BANKSCOPE_IMPORT_OPTIONS are added to every import (say, -I DIR of stand-in headers).
# BANKSCOPE_CORPUS_DIR names another corpus folder (the same files). Exit 77 (skipped) without
# the sources or without libclang.
srcdir=${srcdir:-.}
top_builddir=${top_builddir:-.}
bin=${BANKSCOPE:-"$(cd "$top_builddir" && pwd)/bankscope"}
dir="$(cd "${BANKSCOPE_CORPUS_DIR:-$srcdir/tests/import/real}" && pwd)"
check=0
verbose=0
for a in "$@"; do
    case $a in
    --check) check=1 ;;
    --verbose) verbose=1 ;;
    *) echo "usage: sh coverage.sh [--check] [--verbose]" >&2; exit 2 ;;
    esac
done
tmp=$(mktemp -d) || exit 99
trap 'rm -rf "$tmp"' EXIT
: >"$tmp/passed"
: >"$tmp/failed"

"$bin" import /dev/null --block 32 2>"$tmp/probe"
if [ $? -eq 1 ] && grep -q "built without libclang" "$tmp/probe"; then
    echo "SKIP: built without libclang"
    exit 77
fi
# which kernels --check looks at
if [ "${BANKSCOPE_CORPUS_ALL:-0}" = 1 ]; then
    tail -n +2 "$dir/MANIFEST.tsv" | cut -f1,2 >"$tmp/checked"
else
    grep -v '^#' "$dir/CHECKED" 2>/dev/null | awk 'NF >= 2 { print $1 "\t" $2 }' >"$tmp/checked"
fi
# the sources must be in place, but for those of held-out kernels (get.sh --no-held-out)
absent=0
for f in $(awk -F'\t' 'NR > 1 && $6 != "yes" { print $1 }' "$dir/MANIFEST.tsv" | sort -u); do
    [ -f "$dir/$f" ] || absent=$((absent + 1))
done
# and at least one must be (a corpus that is all held out has no development files)
present=0
for f in $(tail -n +2 "$dir/MANIFEST.tsv" | cut -f1 | sort -u); do
    [ -f "$dir/$f" ] && present=$((present + 1))
done
if [ $absent -gt 0 ] || [ $present -eq 0 ]; then
    echo "SKIP: corpus sources are not in place (sh $dir/get.sh GITDIR)"
    exit 77
fi

# reported FILE KERNEL JSON ERR: one line per reported access: KIND LOC OP DD, where KIND is
# imported or listed, LOC is LINE (in FILE) or BASENAME:LINE (in another file), DD is 1 for a
# listed access whose reason says it depends on data.
reported() {
    tr '{}' '\n\n' <"$3" | awk -v f="$1" '
        /"op": *"/ && /"label": *"/ {
            op = $0; sub(/.*"op": *"/, "", op); sub(/".*/, "", op)
            lb = $0; sub(/.*"label": *"/, "", lb); sub(/".*/, "", lb)
            n = split(lb, p, ":"); file = p[1]; for (i = 2; i < n - 1; i++) file = file ":" p[i]
            sub(/.*\//, "", file)
            if (op ~ /^cp\.async/ || op == "stmatrix") op = "store"; else if (op == "ldmatrix") op = "load"
            print "imported", (file == f ? p[n - 1] : file ":" p[n - 1]), op, 0
        }'
    awk -v f="$1" '
        match($0, /^[^ ]*:[0-9]+:[0-9]+: skipped [a-z.]+ of /) {
            head = substr($0, 1, RLENGTH)
            n = split(head, p, ":"); file = p[1]; for (i = 2; i < n - 2; i++) file = file ":" p[i]
            sub(/.*\//, "", file)
            op = head; sub(/.*: skipped /, "", op); sub(/ of $/, "", op)
            if (op ~ /^cp\.async/ || op == "stmatrix") op = "store"; else if (op == "ldmatrix") op = "load"
            dd = ($0 ~ /depends on data|data-dependent/) ? 1 : 0
            print "listed", (file == f ? p[n - 2] : file ":" p[n - 2]), op, dd
        }' "$4"
}

# now_ms: the wall clock in milliseconds, or -1 where date has no %N (the time is then "-").
now_ms() {
    n=$(date +%s%N 2>/dev/null)
    case "$n" in *N* | "") echo -1 ;; *) echo $((n / 1000000)) ;; esac
}

printf '%-50s %4s %4s %4s %5s %4s %4s %6s %5s %5s %s\n' KERNEL hand idx dd imp lst ldd silent wrong whole ms
tail -n +2 "$dir/MANIFEST.tsv" | while IFS='	' read -r file kernel options hand ndd held rest; do
    name="$file:$kernel"
    if [ ! -f "$dir/$file" ]; then
        echo "$name (held out): not measured, its source is not in place"
        continue
    fi
    rm -f "$tmp/out.json"
    t0=$(now_ms)
    # shellcheck disable=SC2086
    (cd "$dir" && "$bin" import "$file" $options ${BANKSCOPE_IMPORT_OPTIONS:-} -o "$tmp/out.json") 2>"$tmp/err" >/dev/null
    rc=$?
    ms=$(( $(now_ms) - t0 ))
    [ "$t0" -ge 0 ] || ms=-
    [ $rc -eq 0 ] || : >"$tmp/out.json"
    reported "$file" "$kernel" "$tmp/out.json" "$tmp/err" >"$tmp/rep"
    awk -F'\t' -v f="$file" -v k="$kernel" '$1 == f && $2 == k' "$dir/EXPECTED.tsv" >"$tmp/exp"
    # match reported accesses against the hand count; one result line
    res=$(awk -v rc=$rc -v detail="$tmp/detail" '
        FNR == NR { split($0, c, "\t"); ne++; where[ne] = c[3]; op[ne] = c[4]; dd[ne] = (c[6] == "data"); next }
        {
            hit = 0
            for (i = 1; i <= ne && !hit; i++) {
                if (used[i] || op[i] != $3) continue
                n = split(where[i], alt, "|")
                for (j = 1; j <= n; j++) if (alt[j] == $2) { hit = i; break }
            }
            if (!hit) { wrong++; bad = bad " " $1 "@" $2 "/" $3; next }
            used[hit] = 1
            if ($1 == "imported") { imp++; if (dd[hit]) { wrong++; bad = bad " imported-data-dependent@" $2 "/" $3 } } else { lst++; if ($4) ldd++; if (dd[hit] && $4) okdd++ }
            if ($1 == "imported" && !dd[hit]) okidx++
        }
        END {
            for (i = 1; i <= ne; i++) {
                if (dd[i]) nd++
                if (!used[i]) { silent++; printf "    silent: %s at %s (%s)\n", op[i], where[i], dd[i] ? "data-dependent" : "index known" >detail }
            }
            whole = (rc == 0 && wrong + 0 == 0 && okidx + 0 == ne - nd && okdd + 0 == nd) ? "yes" : "no"
            printf "%d %d %d %d %d %d %d %d %s %d%s\n", ne, ne - nd, nd, imp, lst, ldd, silent, wrong, whole, okidx, bad
        }' "$tmp/exp" "$tmp/rep")
    badlist=$(echo "$res" | cut -d" " -f11-)
    # shellcheck disable=SC2086
    set -- $res
    mark=""
    [ "$held" = "yes" ] && mark=" (held out)"
    printf '%-50s %4s %4s %4s %5s %4s %4s %6s %5s %5s %s\n' "$name$mark" "$1" "$2" "$3" "$4" "$5" "$6" "$7" "$8" "$9" "$ms"
    [ $rc -eq 0 ] || echo "    exit $rc: $(grep -v ': skipped ' "$tmp/err" | head -1 | cut -c1-150)"
    if [ "$hand" != "$1" ] || [ "$ndd" != "$3" ]; then
        echo "    MANIFEST.tsv says $hand accesses, $ndd data-dependent; EXPECTED.tsv has $1, $3"
    fi
    [ $verbose -eq 0 ] || { [ -f "$tmp/detail" ] && cat "$tmp/detail"; [ -z "$badlist" ] || echo "    wrong: $badlist"; }
    rm -f "$tmp/detail"
    echo "$held $name $1 $2 $3 $4 $5 $6 $7 $8 $9 ${10}" >>"$tmp/sums"
    if [ $check -eq 1 ] && grep -q "^$file	$kernel\$" "$tmp/checked"; then
        if [ $rc -ne 0 ] || [ "$7" != 0 ] || [ "$8" != 0 ] || [ "$hand" != "$1" ] || [ "$ndd" != "$3" ]; then
            nsilent=$7 nwrong=$8
            shift 10
            echo "FAIL: $name: exit $rc, $nsilent silent, $nwrong wrong${*:+: $*}"
            echo fail >>"$tmp/failed"
        else
            echo ok >>"$tmp/passed"
        fi
    fi
done
# totals: all, then without the held-out kernels, then the held-out ones
awk '
    function line(t, s) {
        printf "%-50s %4d %4d %4d %5d %4d %4d %6d %5d %d/%d whole; %.1f%% of index-known imported\n",
            t, s["n"], s["i"], s["d"], s["imp"], s["l"], s["ld"], s["s"], s["w"], s["whole"], s["k"],
            s["i"] ? 100 * s["ok"] / s["i"] : 0
    }
    {
        for (g = 1; g <= 3; g++) {
            if (g == 2 && $1 == "yes") continue
            if (g == 3 && $1 != "yes") continue
            T[g, "n"] += $3; T[g, "i"] += $4; T[g, "d"] += $5; T[g, "imp"] += $6; T[g, "l"] += $7
            T[g, "ld"] += $8; T[g, "s"] += $9; T[g, "w"] += $10; T[g, "whole"] += ($11 == "yes"); T[g, "k"]++
            T[g, "ok"] += $12
        }
    }
    END {
        split("total|developed on|held out", name, "|")
        for (g = 1; g <= 3; g++) { for (x in T) { split(x, p, SUBSEP); if (p[1] == g) s[p[2]] = T[x] } line(name[g], s); delete s }
    }' "$tmp/sums"
echo "whole: $(awk '$11 == "yes" { printf " %s", $2 }' "$tmp/sums")"
if [ $check -eq 1 ]; then
    npass=$(wc -l <"$tmp/passed")
    nfail=$(wc -l <"$tmp/failed")
    echo
    echo "import corpus check: $npass kernels correct, $nfail wrong or silent"
    [ "$nfail" -eq 0 ]
    exit
fi
echo

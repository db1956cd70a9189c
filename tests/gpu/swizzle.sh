#!/bin/sh
# Swizzled arrays on the GPU: `measure` runs the generated kernel of each swizzled scenario
# (the library's TMA tiles read by ldmatrix.x4 and the golden swizzle cases), which first checks
# every thread's address against the model (an address that differs is an error, not a
# measurement), then compares the counters with the prediction. Prints one line per access;
# fails when a measure fails or its counters disagree. Exit 77 without a GPU.
srcdir=${srcdir:-.}
top_builddir=${top_builddir:-.}
bin="$top_builddir/bankscope"
cases="$srcdir/tests/golden/cases"
command -v python3 >/dev/null 2>&1 || { echo "python3 missing: skipped"; exit 77; }
tmp=$(mktemp -d) || exit 99
trap 'rm -rf "$tmp"' EXIT
pass=0
fail=0
for p in tma-128b-ldmatrix tma-64b-ldmatrix tma-32b-ldmatrix "$cases/swizzle-128b.json" \
         "$cases/swizzle-wide-struct.json" "$cases/kernel-swizzle-cute.json"; do
    "$bin" measure "$p" --json > "$tmp/out.json" 2> "$tmp/err"
    rc=$?
    if [ $rc -eq 3 ]; then
        echo "no GPU: skipped ($(cat "$tmp/err"))"
        exit 77
    fi
    if [ $rc -ne 0 ]; then
        echo "FAIL $p: measure exited $rc: $(cat "$tmp/err")"
        fail=$((fail + 1))
        continue
    fi
    if python3 - "$tmp/out.json" "$(basename "$p")" <<'PY'; then pass=$((pass + 1)); else fail=$((fail + 1)); fi
import json, sys
d = json.load(open(sys.argv[1]))
ok = True
for a in d["accesses"]:
    p, m = a["predicted"], a["measured"]
    agree = a.get("agree", {})
    print("%-28s access %d: %s addresses checked, predicted %s wf / %s conflicts, measured %s / %s, %.2f cycles"
          % (sys.argv[2], a["access"], m.get("addresses_checked", "?"), p["wavefronts"], p["bank_conflicts"],
             m.get("wavefronts"), m.get("bank_conflicts"), m["cycles_per_access"]))
    if agree.get("counters") is False:
        print("FAIL %s access %d: counters differ from the model" % (sys.argv[2], a["access"]))
        ok = False
sys.exit(0 if ok else 1)
PY
done
echo "swizzle on the GPU: $pass passed, $fail failed"
[ $fail -eq 0 ]

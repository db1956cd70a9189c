#!/usr/bin/env python3
"""compare_pcs: a recording's measured numbers per PC (lines[].pcs[].measured, the count run of
bankscope record) against Nsight Compute's source page of the same launch (ncu -i REPORT --page
source --csv --print-source sass): L1 Wavefronts Shared, ... Ideal and Instructions Executed equal
at every PC the recording lists, and every PC where ncu counts shared wavefronts is one the
recording lists (recorded, not modelled or measured only). Prints one line per difference and a
summary; exit 1 on any difference.

usage: compare_pcs.py REC.json NCU.csv [LABEL]"""
import csv
import json
import sys


def ncu_rows(path):
    rows = list(csv.reader(open(path, newline="")))
    head = next(i for i, r in enumerate(rows) if r and r[0] == "Address")
    h = rows[head]
    col = {n: h.index(n) for n in ("Address", "Source", "L1 Wavefronts Shared", "L1 Wavefronts Shared Ideal",
                                   "Instructions Executed")}
    out, base = {}, None
    for r in rows[head + 1:]:
        if len(r) < len(h) or not r[col["Address"]].startswith("0x"):
            continue
        a = int(r[col["Address"]], 16)
        base = a if base is None else base
        num = lambda k: int(r[col[k]] or 0)
        out[a - base] = (num("L1 Wavefronts Shared"), num("L1 Wavefronts Shared Ideal"), num("Instructions Executed"),
                         r[col["Source"]].strip())
    return out


def main():
    rec = json.load(open(sys.argv[1]))
    ncu = ncu_rows(sys.argv[2])
    label = sys.argv[3] if len(sys.argv) > 3 else sys.argv[1]
    mine, spin = {}, set()
    for line in rec["lines"]:
        # a compare-and-swap loop (a float atomicAdd: ATOMS.CAST.SPIN) runs as often as the lanes
        # happen to collide in that run: its line's counts differ from run to run
        loop = any((p["sass"] or "").lstrip("@!P0123456789T ").startswith("ATOMS.CAST") for p in line["pcs"])
        for p in line["pcs"]:
            mine[p["pc"]] = p
            if loop:
                spin.add(p["pc"])
    # what other blocks executed and the recorded one did not: the recording's "unrecorded"
    for u in ((rec.get("measured") or {}).get("unrecorded") or []):
        mine.setdefault(u["pc"], {"sass": "(not recorded)", "measured": u})
    bad = same = varies = 0
    for pc, p in sorted(mine.items()):
        m = p.get("measured")
        if m is None:
            print("%s: pc 0x%x has no measured numbers" % (label, pc))
            bad += 1
            continue
        want = ncu.get(pc, (0, 0, 0, "?"))
        got = (m["wavefronts"], m["ideal_wavefronts"], m["instructions"])
        if got != want[:3] and pc in spin:
            print("%s: pc 0x%x %s: recording %s, ncu %s (a compare-and-swap loop: varies from run to run)"
                  % (label, pc, p.get("sass"), got, want[:3]))
            varies += 1
        elif got != want[:3]:
            print("%s: pc 0x%x %s: recording %s, ncu %s" % (label, pc, p.get("sass"), got, want[:3]))
            bad += 1
        else:
            same += 1
    for pc, (w, i, e, sass) in sorted(ncu.items()):
        if w and pc not in mine:
            print("%s: pc 0x%x %s: ncu %d wavefronts, not in the recording" % (label, pc, sass, w))
            bad += 1
    print("%s: %d PCs equal to ncu, %d differ, %d in a compare-and-swap loop" % (label, same, bad, varies))
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""measured_recording: a recording written by `bankscope record` against Nsight Compute's source
page of the same kernel and launch (ncu -i REPORT --page source --csv --print-source sass): every
line's measured wavefronts, ideal wavefronts and instructions equal the sums of ncu's per-instruction
L1 Wavefronts Shared, ... Ideal and Instructions Executed over the line's pcs; and agree is true on
every line. Exit 0 when so, 1 with the differences printed.

usage: measured_recording.py REC.json NCU.csv"""
import json
import sys

sys.path.insert(0, __file__.rsplit("/", 1)[0])
from measured_compare import ncu_rows  # noqa: E402


def main():
    rec = json.load(open(sys.argv[1]))
    ncu = {pc: (w, i, e) for pc, w, i, e, _ in ncu_rows(sys.argv[2])}
    if rec.get("measured") is None:
        print(f"{sys.argv[1]}: measured is null: {rec.get('measured_why')}")
        return 1
    bad = 0
    for line in rec["lines"]:
        pcs = {p["pc"] for p in line["pcs"]}
        want = [sum(ncu.get(pc, (0, 0, 0))[k] for pc in pcs) for k in range(3)]
        m = line["measured"]
        got = [m["wavefronts"], m["ideal_wavefronts"], m["instructions"]]
        where = f"{line['file'].rsplit('/', 1)[-1]}:{line['line']}"
        if got != want:
            bad += 1
            print(f"{where}: recording {got}, ncu {want}")
        if line["agree"] is not True:
            bad += 1
            print(f"{where}: agree is {line['agree']} ({line['agree_why']})")
    print(f"{sys.argv[1].rsplit('/', 1)[-1]}: {len(rec['lines'])} lines equal to ncu" if not bad else f"{bad} differ")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())

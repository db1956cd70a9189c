#!/usr/bin/env python3
"""measured_compare: the count pass of libbankscope-record.so (DIR/count.txt) against Nsight
Compute's source page of the same launch (ncu -i REPORT --page source --csv --print-source sass),
instruction by instruction: L1 Wavefronts Shared, L1 Wavefronts Shared Ideal and Instructions
Executed must be equal at every address (ncu's addresses are absolute: the first row is the
function's first instruction, pc 0). Instructions the count pass does not list (the padding after
the last EXIT) must be all zero in ncu. Exit 0 when equal, 1 with the differences printed.

usage: measured_compare.py NCU.csv COUNT.txt [LABEL]"""
import csv
import sys


def ncu_rows(path):
    """(pc, wavefronts, ideal, executed, sass) per instruction of ncu's source page."""
    rows = list(csv.reader(open(path, newline="")))
    head = next(i for i, r in enumerate(rows) if r and r[0] == "Address")
    h = rows[head]
    col = {name: h.index(name) for name in ("Address", "Source", "L1 Wavefronts Shared",
                                              "L1 Wavefronts Shared Ideal", "Instructions Executed")}
    out, base = [], None
    for r in rows[head + 1:]:
        if len(r) < len(h) or not r[col["Address"]].startswith("0x"):
            continue
        addr = int(r[col["Address"]], 16)
        base = addr if base is None else base
        out.append((addr - base, int(r[col["L1 Wavefronts Shared"]]), int(r[col["L1 Wavefronts Shared Ideal"]]),
                    int(r[col["Instructions Executed"]]), r[col["Source"]].strip()))
    return out


def count_rows(path):
    """pc -> (wavefronts, ideal, executed) of the count pass; fails on an error record."""
    got = {}
    for line in open(path):
        f = line.rstrip("\n").split("\t")
        if f[0] == "error":
            sys.exit("count pass failed: " + f[1])
        if f[0] == "pc":
            got[int(f[1], 16)] = (int(f[3]), int(f[4]), int(f[5]))
    return got


def main():
    ncu, mine = ncu_rows(sys.argv[1]), count_rows(sys.argv[2])
    label = sys.argv[3] if len(sys.argv) > 3 else sys.argv[2]
    bad = shared = 0
    for pc, w, i, e, sass in ncu:
        got = mine.get(pc, (0, 0, 0) if (w, i, e) == (0, 0, 0) else None)
        if got != (w, i, e):
            bad += 1
            print(f"{label}: pc {pc:#x} {sass}: ncu {(w, i, e)}, bankscope {got}")
        elif w or i:
            shared += 1
    print(f"{label}: {len(ncu)} instructions, {shared} with shared wavefronts, {bad} differ")
    return 1 if bad or not ncu else 0


if __name__ == "__main__":
    sys.exit(main())

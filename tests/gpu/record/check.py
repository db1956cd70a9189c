#!/usr/bin/env python3
"""check: compare a recording (bankscope record) with what the test program printed.

usage: check.py RECORDING.json PROGRAM_OUTPUT TAG
For every source line the program logged under TAG ("addr TAG LINE TID OFFSET", one per thread
and access, tests/gpu/record/addrlog.cuh), the multiset of (thread, address) pairs of the
recording's entries at that line must equal the logged one. Also checks that the lines
partition the trace and that each line's predicted numbers add up. Prints one line; exit 1 on
a difference."""
import collections
import json
import sys

rec = json.load(open(sys.argv[1]))
tag = sys.argv[3]
want = collections.defaultdict(collections.Counter)
for l in open(sys.argv[2], errors="replace"):
    f = l.split()
    if len(f) == 5 and f[0] == "addr" and f[1] == tag:
        want[int(f[2])][(int(f[3]), int(f[4]))] += 1
got = collections.defaultdict(collections.Counter)
for e in rec["trace"]:
    if not e.get("source"):
        continue
    line = int(e["source"].rsplit(":", 1)[1])
    for lane, a in enumerate(e["addresses"]):
        if a is not None:
            got[line][(e["warp"] * 32 + lane, a)] += 1
bad = []
if not want:
    bad.append("the program logged nothing under %s" % tag)
for line, w in sorted(want.items()):
    if got[line] != w:
        bad.append("line %d: %d logged, %d recorded, %d missing, %d extra" % (
            line, sum(w.values()), sum(got[line].values()), sum((w - got[line]).values()),
            sum((got[line] - w).values())))
seen = sorted(i for l in rec["lines"] for i in l["instructions"])
if seen != list(range(len(rec["trace"]))):
    bad.append("the lines do not partition the trace")
if bad:
    print("FAIL %s: %s" % (sys.argv[1], "; ".join(bad)))
    sys.exit(1)
print("ok %s: %d lines, %d thread-accesses equal to the program's" % (
    sys.argv[1], len(want), sum(sum(w.values()) for w in want.values())))

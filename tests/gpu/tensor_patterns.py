#!/usr/bin/env python3
"""Warp-instruction patterns for the tensor-era access kinds, in the calibration table's columns
(id op width wavefronts bank_conflicts cycles addresses; the measured columns are -1).

  tensor_patterns.py calib            the calibration set (tests/gpu/calib_tensor.cu measures it)
  tensor_patterns.py random N SEED    N random instructions of the new kinds (tests/gpu/random.sh)

ldmatrix/stmatrix: lane l gives the row address of matrix l // 8; lanes past 8 x matrices are
written -1 (the instruction ignores them). Patterns: bf16 tiles read as GEMM fragments (A and
B/.trans lane orders) with row pitches and paddings, XOR swizzles, CuTe Swizzle<B,M,S> on byte and
element offsets, TMA 32B/64B/128B swizzled tiles, strides, random and repeated rows.
Atomics: strides, one address, 256-bin histograms (uniform, skewed), shared addresses per lane
group, one bank, random words, partial masks. cp.async: contiguous, strided, tile fills with
padding and swizzles, random chunks, partial masks."""
import random
import sys

LDST = [(f, n, t) for f in ("ldmatrix", "stmatrix") for n in (1, 2, 4) for t in (False, True)]
ATOMS = [(k, w, r) for k in ("add", "min", "max", "and", "or", "xor") for w in (4, 8) for r in (True, False)]
ATOMS += [("exch", 4, True), ("exch", 8, True), ("cas", 4, True), ("cas", 8, True), ("inc", 4, True), ("inc", 4, False)]
CPA = [("ca", 4), ("ca", 8), ("ca", 16), ("cg", 16)]
LIMIT = 96 * 1024  # largest byte offset used (the harness keeps copies of the region per warp)


def swz(b, m, s, x):
    """CuTe Swizzle<B,M,S>: XOR bits [M, M+B) of x with bits [M+S, M+S+B)."""
    mask = ((1 << b) - 1) << (m + s)
    return x ^ ((x & mask) >> s)


def tma(mode, off):
    """TMA/wgmma swizzle of a byte offset: 32B = Swizzle<1,4,3>, 64B = <2,4,3>, 128B = <3,4,3>."""
    return swz({32: 1, 64: 2, 128: 3}[mode], 4, 3, off)


def row(op, addrs, name, width):
    return (name, op, width, addrs)


def mat_op(f, n, t):
    return "%s.x%d%s" % (f, n, ".trans" if t else "")


def mat_rows(n, fn):
    """Row addresses for the 8n lanes that give them: fn(matrix, row) -> byte offset."""
    return [fn(l // 8, l % 8) if l < 8 * n else -1 for l in range(32)]


def gen_matrix(rng, f, n, t, count, tag):
    op = mat_op(f, n, t)
    out = []
    k = 0

    def add(name, addrs):
        nonlocal k
        if any(a >= LIMIT for a in addrs):
            return
        out.append(row(op, addrs, "%s%04d_%s" % (tag, k, name), 16))
        k += 1

    # A-fragment order (lanes 0-15 rows, 16-31 the next 8 columns) and B order (matrices 0,1 down
    # the rows, 2,3 the next columns), and side by side (matrix m at columns 8m)
    orders = {
        "a": lambda m, r: ((m % 2) * 8 + r, (m // 2) * 8),
        "b": lambda m, r: ((m % 2) * 8 + r, (m // 2) * 8),
        "s": lambda m, r: (r, 8 * m),
        "d": lambda m, r: (8 * m + r, 0),
    }
    orders["b"] = lambda m, r: (((m >> 1) & 1) * 8 + r, (m & 1) * 8)
    for cols in (8, 16, 24, 32, 40, 48, 64, 72, 96, 128, 136, 256):
        for pad in (0, 8) if cols % 8 == 0 else (0,):
            pitch = (cols + pad) * 2
            for o, fn in orders.items():
                if max(fn(m, r)[1] for m in range(n) for r in range(8)) + 8 > cols + pad:
                    continue
                r0 = rng.choice((0, 8, 16)) if cols >= 16 else 0
                c0 = rng.choice(range(0, max(1, cols - 8 * (2 if n > 1 else 1) + 1), 8))
                addrs = mat_rows(n, lambda m, r: (r0 + fn(m, r)[0]) * pitch + (c0 + fn(m, r)[1]) * 2)
                if max(fn(m, r)[1] + c0 for m in range(n) for r in range(8)) + 8 > cols + pad:
                    addrs = mat_rows(n, lambda m, r: (r0 + fn(m, r)[0]) * pitch + fn(m, r)[1] * 2)
                add("tile%d_pad%d_%s" % (cols, pad, o), addrs)
    # XOR swizzle of 16-byte chunks by row, in rows of 64/128/256 bytes
    for rb in (64, 128, 256):
        for o, fn in orders.items():
            for xr in (1, 2, 4, 8):
                nchunk = rb // 16
                addrs = mat_rows(n, lambda m, r: fn(m, r)[0] * rb + (((fn(m, r)[1] // 8) ^ ((fn(m, r)[0] // xr) % nchunk)) % nchunk) * 16)
                add("xor%d_r%d_%s" % (rb, xr, o), addrs)
    # CuTe Swizzle<B,M,S> on byte offsets of a row-major tile (M=4: 16-byte units) and on bf16
    # element offsets (M=3)
    for b in (1, 2, 3):
        for s in (3, 4, 5):
            for rb in (64, 128, 256):
                o = rng.choice("abs")
                fn = orders[o]
                addrs = mat_rows(n, lambda m, r: swz(b, 4, s, fn(m, r)[0] * rb + fn(m, r)[1] * 2))
                add("cute%d%d%d_b_%d_%s" % (b, 4, s, rb, o), addrs)
                addrs = mat_rows(n, lambda m, r: 2 * swz(b, 3, s, fn(m, r)[0] * (rb // 2) + fn(m, r)[1]))
                add("cute%d%d%d_e_%d_%s" % (b, 3, s, rb, o), addrs)
    # TMA swizzled boxes: inner dimension = the swizzle span (32/64/128 B), or unswizzled
    for mode in (32, 64, 128):
        for o, fn in orders.items():
            span = mode
            if max(fn(m, r)[1] for m in range(n) for r in range(8)) * 2 + 16 > span:
                continue
            r0 = rng.choice((0, 8, 16, 24))
            addrs = mat_rows(n, lambda m, r: tma(mode, (r0 + fn(m, r)[0]) * span + fn(m, r)[1] * 2))
            add("tma%d_%s" % (mode, o), addrs)
            addrs = mat_rows(n, lambda m, r: (r0 + fn(m, r)[0]) * span + fn(m, r)[1] * 2)
            add("tma%dnone_%s" % (mode, o), addrs)
    # strides between consecutive rows, 16-byte units
    for st in list(range(0, 18)) + [24, 31, 32, 33, 48, 64, 65]:
        add("stride%d" % st, mat_rows(n, lambda m, r: (m * 8 + r) * st * 16))
    # random rows in regions of 128 B .. 16 KB; few distinct rows
    while len(out) < count:
        kind = rng.randrange(4)
        if kind == 0:
            reg = rng.choice((128, 256, 512, 1024, 4096, 16384))
            addrs = mat_rows(n, lambda m, r: rng.randrange(reg // 16) * 16)
            add("rand%d" % reg, addrs)
        elif kind == 1:
            pool = [rng.randrange(256) * 16 for _ in range(rng.choice((1, 2, 3, 4, 8)))]
            add("few%d" % len(pool), mat_rows(n, lambda m, r: rng.choice(pool)))
        elif kind == 2:
            pitch = rng.choice((16, 32, 48, 64, 80, 96, 112, 128, 144, 160, 192, 208, 240, 256, 272, 384))
            perm = list(range(8 * n))
            rng.shuffle(perm)
            add("perm_p%d" % pitch, mat_rows(n, lambda m, r: perm[m * 8 + r] * pitch))
        else:
            base = rng.randrange(64) * 16
            dup = rng.choice((2, 4, 8))
            add("dup%d" % dup, mat_rows(n, lambda m, r: base + ((m * 8 + r) // dup) * 128))
    return out


def mask_lanes(rng, addrs, m):
    """Partial masks: 0 full, 1 random half, 2 sparse, 3 lanes 0-15, 4 one lane, 5 even lanes."""
    res = []
    one = rng.randrange(32)
    for l, a in enumerate(addrs):
        on = True
        if m == 1:
            on = rng.random() < 0.5
        elif m == 2:
            on = rng.random() < 0.15
        elif m == 3:
            on = l < 16
        elif m == 4:
            on = l == one
        elif m == 5:
            on = l % 2 == 0
        res.append(a if on else -1)
    return res


def atom_patterns(rng, w):
    """(name, addrs) candidates for a width-w shared atomic."""
    pats = []
    for s in (1, 2, 3, 4, 8, 16, 17, 32, 33):
        pats.append(("stride%d" % s, [l * s * w for l in range(32)]))
    pats.append(("same", [0] * 32))
    pats.append(("same_b", [rng.randrange(64) * w] * 32))
    pats.append(("hist_uniform", [rng.randrange(256) * w for _ in range(32)]))
    pats.append(("hist_uniform", [rng.randrange(256) * w for _ in range(32)]))
    skew = [0 if rng.random() < 0.5 else rng.randrange(256) * w for _ in range(32)]
    pats.append(("hist_skew50", skew))
    zipf = [min(255, int(rng.paretovariate(1.2)) - 1) * w for _ in range(32)]
    pats.append(("hist_zipf", zipf))
    pats.append(("hist_skew90", [0 if rng.random() < 0.9 else rng.randrange(256) * w for _ in range(32)]))
    for g in (2, 4, 8, 16):
        pats.append(("group%d" % g, [(l // g) * w for l in range(32)]))
        pats.append(("groupmod%d" % g, [(l % g) * w for l in range(32)]))
    pats.append(("bank0", [l * 128 for l in range(32)]))
    pats.append(("bank0_8", [(l % 8) * 128 for l in range(32)]))
    pats.append(("rand", [rng.randrange(2048) * w for _ in range(32)]))
    pats.append(("rand32", [rng.randrange(32) * w for _ in range(32)]))
    return pats


def gen_atomic(rng, kind, w, ret, count, tag):
    op = ("atom." if ret else "red.") + kind
    out = []
    pats = atom_patterns(rng, w)
    k = 0
    while len(out) < count:
        name, addrs = pats[k % len(pats)] if k < len(pats) else rng.choice(atom_patterns(rng, w))
        m = 0 if k < len(pats) else rng.randrange(6)
        out.append(row(op, mask_lanes(rng, addrs, m), "%s%04d_%s_m%d" % (tag, k, name, m), w))
        k += 1
    return out


def gen_cpasync(rng, cache, w, count, tag):
    op = "cp.async." + cache
    out = []
    pats = []
    pats.append(("contig", [l * w for l in range(32)]))
    for s in (1, 2, 3, 4, 5, 8, 9, 16, 17, 32, 33):
        pats.append(("stride%d" % s, [l * s * w for l in range(32)]))
    # tile fills: rows of rb bytes (+pad), lanes fill consecutive w-byte pieces
    for rb in (32, 64, 128, 256):
        for pad in (p for p in (0, 4, 8, 16, 32) if p % w == 0):
            per = rb // w
            pats.append(("fill%d_pad%d" % (rb, pad), [(l // per) * (rb + pad) + (l % per) * w for l in range(32)]))
    for rb in (64, 128):
        per = rb // 16
        if w == 16:
            pats.append(("fillxor%d" % rb, [(l // per) * rb + (((l % per) ^ (l // per)) % per) * 16 for l in range(32)]))
            for mode in (32, 64, 128):
                pats.append(("tma%d" % mode, [tma(mode, l * 16) for l in range(32)]))
    # column-major fill: each lane one row
    for rb in (16, 32, 64, 128, 144):
        pats.append(("colfill%d" % rb, [l * rb for l in range(32)]))
    pats.append(("same", [0] * 32))
    k = 0
    while len(out) < count:
        if k < len(pats):
            name, addrs = pats[k]
            m = 0
        else:
            kind = rng.randrange(3)
            if kind == 0:
                reg = rng.choice((512, 4096))
                name, addrs = "rand%d" % reg, [rng.randrange(reg // w) * w for _ in range(32)]
            elif kind == 1:
                name, addrs = pats[rng.randrange(len(pats))]
            else:
                perm = list(range(32))
                rng.shuffle(perm)
                st = rng.choice((1, 2, 3, 4, 8, 9))
                name, addrs = "perm_s%d" % st, [perm[l] * st * w for l in range(32)]
            m = rng.randrange(6)
        out.append(row(op, mask_lanes(rng, addrs, m), "%s%04d_%s_m%d" % (tag, k, name, m), w))
        k += 1
    return out


def emit(rows):
    print("id\top\twidth\twavefronts\tbank_conflicts\tcycles\taddresses")
    for name, op, width, addrs in rows:
        print("%s\t%s\t%d\t-1\t-1\t-1\t%s" % (name, op, width, " ".join(str(a) for a in addrs)))


def calib():
    rng = random.Random(12)
    rows = []
    for f, n, t in LDST:
        rows += gen_matrix(rng, f, n, t, 110, "%s%d%s_" % (f[:2], n, "t" if t else ""))
    for kind, w, ret in ATOMS:
        rows += gen_atomic(rng, kind, w, ret, 34, "%s%s%d_" % ("at" if ret else "rd", kind, w))
    for cache, w in CPA:
        rows += gen_cpasync(rng, cache, w, 80, "cp%s%d_" % (cache, w))
    emit(rows)


def randomset(n, seed):
    """Only what the model covers (8-byte atomics: exch and cas; cp.async written as the model
    names it), grouped by the counters that count them (one CUPTI configuration per group)."""
    rng = random.Random(seed)
    rows = []
    atoms = [a for a in ATOMS if a[1] == 4 or a[0] in ("exch", "cas")]
    for i in range(n):
        fam = rng.random()
        if fam < 0.45:
            f, nm, t = rng.choice(LDST)
            rows += [(("r%05d_" % i) + r[0], r[1], r[2], r[3]) for r in [rng.choice(gen_matrix(rng, f, nm, t, 1, ""))]]
        elif fam < 0.8:
            kind, w, ret = rng.choice(atoms)
            pats = atom_patterns(rng, w)
            name, addrs = rng.choice(pats)
            base = rng.randrange(16) * 128 + rng.randrange(4) * w * (rng.random() < 0.3)
            addrs = [a + base for a in addrs]
            m = rng.randrange(6)
            rows.append(("r%05d_%s_m%d" % (i, name, m), ("atom." if ret else "red.") + kind, w, mask_lanes(rng, addrs, m)))
        else:
            cache, w = rng.choice(CPA[:3])
            r = rng.choice(gen_cpasync(rng, cache, w, 60, ""))
            rows.append(("r%05d_%s" % (i, r[0]), "cp.async", r[2], r[3]))
    group = {"ldmatrix": 0, "stmatrix": 0, "atom": 1, "red": 1, "cp": 2}
    rows.sort(key=lambda r: group[r[1].split(".")[0]])
    emit(rows)


if __name__ == "__main__":
    if len(sys.argv) >= 2 and sys.argv[1] == "calib":
        calib()
    elif len(sys.argv) >= 2 and sys.argv[1] == "random":
        randomset(int(sys.argv[2]) if len(sys.argv) > 2 else 2000, int(sys.argv[3]) if len(sys.argv) > 3 else 1)
    else:
        sys.stderr.write(__doc__)
        sys.exit(2)

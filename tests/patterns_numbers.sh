#!/bin/sh
# Every number a pattern's description or a lesson step's text states about its pattern is the
# model's: each "N-way" is the conflict degree of some warp-instruction of that pattern (`analyze
# --json`), each "N wavefronts" the wavefronts (or ideal wavefronts) of one, of one access across
# the block's warps, or of the whole scenario; so is each "N (bank) conflicts". A count stated "per
# block", "of a block" or "for (the) N warps" must be the whole scenario's (every warp, every loop
# step), one stated "per k step" one loop step's (summed over the warps). A sentence about the
# layout without the pattern's swizzle ("Without it ...", "the unswizzled tile ...") is checked
# against the pattern with its arrays' "swizzle" removed. Skipped (77) without python3.
srcdir=${srcdir:-.}
top_builddir=${top_builddir:-.}
bin="$(cd "$top_builddir" && pwd)/bankscope"
command -v python3 >/dev/null 2>&1 || { echo "no python3: skipped"; exit 77; }
tmp=$(mktemp -d) || exit 99
trap 'rm -rf "$tmp"' EXIT
python3 - "$bin" "$srcdir/patterns" "$tmp" <<'PY'
import glob, json, os, re, subprocess, sys

bin_, pdir, tmp = sys.argv[1:4]
cache = {}


def model(name, unswizzled):
    """Degrees and wavefront counts of pattern name (optionally without its swizzle)."""
    key = (name, unswizzled)
    if key in cache:
        return cache[key]
    src = name
    if unswizzled:
        d = json.load(open(os.path.join(pdir, name + '.json')))
        for a in d.get('arrays', []):
            a.pop('swizzle', None)
        src = os.path.join(tmp, name + '-unswizzled.json')
        json.dump(d, open(src, 'w'))
    out = subprocess.run([bin_, 'analyze', src, '--json'], capture_output=True, text=True)
    if out.returncode != 0:
        sys.exit('%s: analyze failed: %s' % (src, out.stderr))
    d = json.loads(out.stdout)
    live = [a for a in d['accesses'] if a['active_lanes'] > 0]
    deg = {a['conflict_degree'] for a in live}
    summ = d['summary']
    # Totals of one access across the block's warps in one loop step, of all accesses in one
    # step, and of one access over the whole scenario (every warp, every step).
    step, stepall, whole = {}, {}, {}
    for a in d['accesses']:
        for tot, k in ((step, (a['access'], a['iteration'])), (stepall, a['iteration']),
                       (whole, a['access'])):
            w, c = tot.get(k, (0, 0))
            tot[k] = (w + a['wavefronts'], c + a['bank_conflicts'])
    ideal = {a['ideal_wavefronts'] for a in live}
    scen = {(summ['wavefronts'], summ['bank_conflicts'])}
    sets = {}
    for col, field in ((0, 'wavefronts'), (1, 'bank_conflicts')):
        one = {a[field] for a in live} | (ideal if col == 0 else set())
        blk = {t[col] for t in whole.values()} | {t[col] for t in scen}
        stp = {t[col] for t in step.values()} | {t[col] for t in stepall.values()}
        sets[field] = {'any': one | blk | stp, 'block': blk, 'step': stp}
    cache[key] = (deg, sets)
    return cache[key]


# A count stated "per block", "for the N warps" or "of the block" is the whole scenario's (every
# warp, every loop step); one stated per step ("per k step", "per loop step", "per iteration") is
# one step's, summed over the block's warps.
STEP = re.compile(r'\b(?:per|each|of a|of one|in a|in one) (?:\w+ )?(?:loop )?step\b|\bper iteration\b',
                  re.I)
BLOCK = re.compile(r'\bper block\b|\bfor (?:the |all )?(?:\d+ )?warps\b|\bof (?:the|a) block\b|'
                   r"\ba block's\b|\bblock-wide\b", re.I)


def scope(sent, pos):
    """'step', 'block' or 'any': what the count at pos in sent is stated for."""
    lo = max(sent.rfind(c, 0, pos) for c in ':;(') + 1
    his = [i for i in (sent.find(c, pos) for c in ':;)') if i >= 0]
    seg = sent[lo:min(his) if his else len(sent)]
    if STEP.search(seg):
        return 'step'
    if BLOCK.search(seg):
        return 'block'
    return 'any'


bad = checked = 0
for f in sorted(glob.glob(os.path.join(pdir, '*.json'))):
    d = json.load(open(f))
    base = os.path.basename(f)[:-5]
    if 'lesson' in d:
        texts = [(s['pattern'], 'steps[%d].text' % i, s['text']) for i, s in enumerate(d['steps'])]
    else:
        texts = [(base, 'description', d.get('description', ''))]
    for pat, where, text in texts:
        for sent in re.split(r'(?<=[.;])\s+', text):
            unswz = re.search(r'\bwithout it\b|\bunswizzled\b', sent, re.I) is not None
            deg, sets = model(pat, unswz)
            what = pat + (' without its swizzle' if unswz else '')
            for m in re.finditer(r'\b(\d+)-way\b', sent):
                checked += 1
                if int(m.group(1)) not in deg:
                    print('FAIL %s %s: "%s-way", but the model of %s gives %s-way: %s'
                          % (base, where, m.group(1), what, ', '.join(map(str, sorted(deg))), sent))
                    bad += 1
            for rx, field in ((r'\b(\d+) wavefronts?\b', 'wavefronts'),
                              (r'\b(\d+) (?:bank )?conflicts?\b', 'bank_conflicts')):
                for m in re.finditer(rx, sent):
                    checked += 1
                    sc = scope(sent, m.start())
                    ok = sets[field][sc]
                    if int(m.group(1)) not in ok:
                        print('FAIL %s %s: "%s" (%s), but the model of %s gives %s: %s'
                              % (base, where, m.group(0), {'any': 'any count', 'block':
                                 'whole block, all steps', 'step': 'one step of the block'}[sc],
                                 what, ', '.join(map(str, sorted(ok))), sent))
                        bad += 1
print('patterns: %d stated numbers checked against the model, %d wrong' % (checked, bad))
sys.exit(1 if bad else 0)
PY

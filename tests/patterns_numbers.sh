#!/bin/sh
# Every number a pattern's description or a lesson step's text states about its pattern is the
# model's: each "N-way" is the conflict degree of some warp-instruction of that pattern (`analyze
# --json`), each "N wavefronts" the wavefronts (or ideal wavefronts) of one, of one access across
# the block's warps, or of the whole scenario. A sentence about the layout without the pattern's
# swizzle ("Without it ...", "the unswizzled tile ...") is checked against the pattern with its
# arrays' "swizzle" removed. Skipped (77) without python3.
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
    wf = {a['wavefronts'] for a in live} | {a['ideal_wavefronts'] for a in live}
    wf |= {d['summary']['wavefronts'], d['summary']['ideal_wavefronts']}
    block = {}
    for a in d['accesses']:
        k = (a['access'], a['iteration'])
        block[k] = block.get(k, 0) + a['wavefronts']
    wf |= set(block.values())
    cache[key] = (deg, wf)
    return cache[key]


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
            deg, wf = model(pat, unswz)
            what = pat + (' without its swizzle' if unswz else '')
            for m in re.finditer(r'\b(\d+)-way\b', sent):
                checked += 1
                if int(m.group(1)) not in deg:
                    print('FAIL %s %s: "%s-way", but the model of %s gives %s-way: %s'
                          % (base, where, m.group(1), what, ', '.join(map(str, sorted(deg))), sent))
                    bad += 1
            for m in re.finditer(r'\b(\d+) wavefronts?\b', sent):
                checked += 1
                if int(m.group(1)) not in wf:
                    print('FAIL %s %s: "%s wavefronts", but the model of %s gives %s: %s'
                          % (base, where, m.group(1), what, ', '.join(map(str, sorted(wf))), sent))
                    bad += 1
print('patterns: %d stated numbers checked against the model, %d wrong' % (checked, bad))
sys.exit(1 if bad else 0)
PY

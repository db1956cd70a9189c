#!/bin/sh
# The walls between layers, at include level and at link level. A layer may use only the layers
# below it:
#   model  (pure rules)                  uses nothing of ours
#   io     (codecs, files)               model
#   gpu    (CUDA, toolkit discovery)     model (its disk cache is given by the core)
#   import (libclang)                    io, model
#   core   (document, analysis, plans,   gpu, import, io, model
#           the recording's host side)
#   cli, tui (front ends)                everything below; never each other
# record/ is the library loaded into a recorded program (not linked into bankscope); the host side
# (core/recording_*: the capture read back, the book, the recording written and read) is the one
# layer that may include its wire header (record_dev.h).
# Include level: every '#include "LAYER/..."' in src/LAYER2 names an allowed layer. Link level:
# every symbol an object of a layer uses (nm -u) that is defined by one of our objects is
# defined by an object of an allowed layer (or its own); the same for the layers' libraries as
# the program links them (libbsmodel.a ... libbscli.a), where io and gpu use nothing of each
# other, and libbsmodel.a needs only the C library and libm (and the compiler's own runtime:
# libgcc, the sanitizers). Skips (77) without python3 or nm, or when the objects are not built.
# One analysis: the model's engine (banks_analyze, banks_memo_analyze) is called only by the model,
# the core's walks (core/analysis, core/line_sums, and the measurement plan of one access) and the
# TUI's view of the one instruction on show; every other number comes from the core's analysis.
command -v python3 >/dev/null 2>&1 || { echo "python3 not found: skipped"; exit 77; }
command -v nm >/dev/null 2>&1 || { echo "nm not found: skipped"; exit 77; }
srcdir=${srcdir:-.}
top_builddir=${top_builddir:-.}
exec python3 - "$srcdir/src" "$top_builddir/src" "$top_builddir" "${CC:-cc}" <<'PY'
import os, re, subprocess, sys
src, build, top, cc = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4]
ALLOWED = {
    'model': set(),
    'io': {'model'},
    'gpu': {'model'},
    'import': {'io', 'model'},
    'record': {'io', 'model'},
    'core': {'gpu', 'import', 'io', 'model', 'record'},
    'cli': {'core', 'gpu', 'import', 'io', 'model'},
    'tui': {'core', 'gpu', 'import', 'io', 'model'},
}
# Known crossings by file, each with its reason (none may be added without one):
#   cli_tui.c is the command that opens the TUI (its options, then tui_main).
EXCEPTIONS = {('cli_tui', 'tui')}
def stem(f):
    return re.sub(r'^lib\w+_a-', '', f).rsplit('.', 1)[0]
fail = []
for layer in ALLOWED:
    d = os.path.join(src, layer)
    if not os.path.isdir(d):
        continue
    for f in sorted(os.listdir(d)):
        if not f.endswith(('.c', '.h', '.cpp', '.cu')):
            continue
        text = open(os.path.join(d, f), encoding='utf-8', errors='replace').read()
        for inc in re.findall(r'^\s*#\s*include "(\w+)/', text, re.M):
            if inc != layer and inc in ALLOWED and inc not in ALLOWED[layer] and (stem(f), inc) not in EXCEPTIONS:
                fail.append('src/%s/%s includes %s/ (a %s file may use only %s)' %
                            (layer, f, inc, layer, ', '.join(sorted(ALLOWED[layer])) or 'the C library'))
# link level
defined, undefined = {}, {}
nobj = 0
for layer in ALLOWED:
    d = os.path.join(build, layer)
    if not os.path.isdir(d):
        continue
    for f in sorted(os.listdir(d)):
        if not f.endswith('.o') or not f.startswith('lib'):
            continue
        nobj += 1
        out = subprocess.run(['nm', os.path.join(d, f)], capture_output=True, text=True).stdout
        for line in out.splitlines():
            parts = line.split()
            if len(parts) == 2 and parts[0] == 'U':
                undefined.setdefault((layer, f), set()).add(parts[1])
            elif len(parts) == 3 and parts[1] in 'TDBRC':
                defined.setdefault(parts[2], layer)
if nobj == 0:
    print('no objects built under %s: skipped' % build)
    sys.exit(77)
for layer in ('model', 'io', 'gpu', 'core', 'import', 'tui', 'cli'):
    if not any(l == layer for l, f in undefined) and not any(v == layer for v in defined.values()):
        fail.append('no objects of src/%s/ named lib*_a-*.o: nothing of it was checked' % layer)
for (layer, f), syms in sorted(undefined.items()):
    for s in sorted(syms):
        owner = defined.get(s)
        if owner and owner != layer and owner not in ALLOWED[layer] and (stem(f), owner) not in EXCEPTIONS:
            fail.append('%s/%s uses %s, defined in %s/' % (layer, f, s, owner))
ENGINE = {'banks_analyze', 'banks_memo_analyze'}
ENGINE_CALLERS = {('core', 'analysis'), ('core', 'line_sums'), ('core', 'measure_plan'), ('tui', 'view')}
for (layer, f), syms in sorted(undefined.items()):
    if layer != 'model' and (layer, stem(f)) not in ENGINE_CALLERS:
        for s in sorted(syms & ENGINE):
            fail.append('%s/%s calls %s: take the numbers from core/analysis.h or core/line_sums.h' % (layer, f, s))
# library level
LIBS = {'model': 'libbsmodel.a', 'io': 'libbsio.a', 'gpu': 'libbsgpu.a', 'core': 'libbscore.a',
        'import': 'libbsimport.a', 'tui': 'libbstui.a', 'cli': 'libbscli.a'}
def symbols(path, dynamic=False):
    """(defined, undefined) external symbols of an archive or shared library."""
    args = ['nm', '-D', '--defined-only', path] if dynamic else ['nm', path]
    d, u = set(), set()
    for line in subprocess.run(args, capture_output=True, text=True).stdout.splitlines():
        parts = line.split()
        if len(parts) == 2 and parts[0] == 'U':
            u.add(parts[1])
        elif len(parts) == 3 and parts[1] in 'TDBRCVWi':
            d.add(parts[2].split('@')[0])
    return d, u
libdef, libund = {}, {}
for layer, name in LIBS.items():
    path = os.path.join(top, name)
    if not os.path.exists(path):
        fail.append('%s is not built' % name)
        continue
    libdef[layer], libund[layer] = symbols(path)
owner = {}
for layer, d in libdef.items():
    for s in d:
        owner.setdefault(s, layer)
for layer, u in sorted(libund.items()):
    used = {}
    for s in u - libdef[layer]:
        o = owner.get(s)
        if o and o != layer and o not in ALLOWED[layer] and not (layer == 'cli' and s == 'tui_main'):
            used.setdefault(o, []).append(s)
    for o, syms in sorted(used.items()):
        fail.append('%s uses %s of %s (%s)' % (LIBS[layer], ', '.join(sorted(syms)[:5]), LIBS[o],
                                                'a layer may use only those below it'))
for a, b in (('io', 'gpu'), ('gpu', 'io')):
    if a in libund and b in libdef and (libund[a] - libdef[a]) & libdef[b]:
        fail.append('%s depends on %s' % (LIBS[a], LIBS[b]))
# the model library needs the C library and libm only
def runtime(name):
    out = subprocess.run([cc, '-print-file-name=' + name], capture_output=True, text=True).stdout.strip()
    return out if os.path.isabs(out) and os.path.exists(out) else None
system = set()
for name in ('libc.so.6', 'libm.so.6'):
    path = runtime(name)
    if path:
        system |= symbols(path, dynamic=True)[0]
gcc = subprocess.run([cc, '-print-libgcc-file-name'], capture_output=True, text=True).stdout.strip()
if os.path.exists(gcc):
    system |= symbols(gcc)[0]
if 'model' in libund and system:
    rest = sorted(s for s in libund['model'] - libdef['model'] - system
                  if not re.match(r'^(__asan_|__ubsan_|__sanitizer_|__lsan_|_GLOBAL_OFFSET_TABLE_|__stack_chk_fail)', s))
    if rest:
        fail.append('libbsmodel.a needs more than libc and libm: %s' % ', '.join(rest[:10]))
for m in fail:
    print('FAIL', m)
print('walls: %d objects, %d libraries, %d violations' % (nobj, len(libdef), len(fail)))
sys.exit(1 if fail else 0)
PY

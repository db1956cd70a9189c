#!/bin/sh
# The walls between layers, at include level and at link level. A layer may use only the layers
# below it:
#   model  (pure rules)                  uses nothing of ours
#   io     (codecs, files)               model
#   gpu    (CUDA, toolkit discovery)     io, model
#   import (libclang)                    io, model
#   core   (document, analysis, plans,   gpu, import, io, model
#           the recording's host side)
#   cli, tui (front ends)                everything below; never each other
# record/ is the library loaded into a recorded program (not linked into bankscope); the host side
# (core/recording_*: the capture read back, the book, the recording written and read) is the one
# layer that may include its wire header (record_dev.h).
# Include level: every '#include "LAYER/..."' in src/LAYER2 names an allowed layer. Link level:
# every symbol an object of a layer uses (nm -u) that is defined by one of our objects is
# defined by an object of an allowed layer (or its own). Skips (77) without python3 or nm, or
# when the objects are not built.
# One analysis: the model's engine (banks_analyze, banks_memo_analyze) is called only by the model,
# the core's walks (core/analysis, core/line_sums, and the measurement plan of one access) and the
# TUI's view of the one instruction on show; every other number comes from the core's analysis.
command -v python3 >/dev/null 2>&1 || { echo "python3 not found: skipped"; exit 77; }
command -v nm >/dev/null 2>&1 || { echo "nm not found: skipped"; exit 77; }
srcdir=${srcdir:-.}
top_builddir=${top_builddir:-.}
exec python3 - "$srcdir/src" "$top_builddir/src" <<'PY'
import os, re, subprocess, sys
src, build = sys.argv[1], sys.argv[2]
ALLOWED = {
    'model': set(),
    'io': {'model'},
    'gpu': {'io', 'model'},
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
for m in fail:
    print('FAIL', m)
print('walls: %d objects, %d violations' % (nobj, len(fail)))
sys.exit(1 if fail else 0)
PY

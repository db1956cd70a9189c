#!/bin/sh
# The TUI's layers: no include cycle among src/tui's files (a module's .c and .h are one node),
# and the view layer (crt, draw, layout, lineedit, pager, view, panel_*) neither includes the
# application's header (tui/app.h) nor calls anything of the application above it (the symbols
# its objects use, read with nm, are never defined by an application object). Skips (77) without
# python3 or nm.
command -v python3 >/dev/null 2>&1 || { echo "python3 not found: skipped"; exit 77; }
command -v nm >/dev/null 2>&1 || { echo "nm not found: skipped"; exit 77; }
srcdir=${srcdir:-.}
top_builddir=${top_builddir:-.}
exec python3 - "$srcdir/src/tui" "$top_builddir/src/tui" <<'PY'
import os, re, subprocess, sys
src, build = sys.argv[1], sys.argv[2]
LOWER = re.compile(r'^(crt|draw|layout|lineedit|pager|view|panel_\w+)$')
fail = []
graph = {}
for f in sorted(os.listdir(src)):
    if not f.endswith(('.c', '.h')):
        continue
    node = f[:-2]
    text = open(os.path.join(src, f), encoding='utf-8').read()
    for inc in re.findall(r'^#include "tui/(\w+)\.h"', text, re.M):
        if inc != node:
            graph.setdefault(node, set()).add(inc)
        if inc == 'app' and LOWER.match(node):
            fail.append('%s (view layer) includes tui/app.h' % f)
    graph.setdefault(node, set())
# cycles: depth-first search with colours
state, stack = {}, []
def visit(n):
    state[n] = 1
    stack.append(n)
    for m in sorted(graph.get(n, ())):
        if state.get(m) == 1:
            fail.append('include cycle: ' + ' -> '.join(stack[stack.index(m):] + [m]))
        elif m not in state:
            visit(m)
    stack.pop()
    state[n] = 2
for n in sorted(graph):
    if n not in state:
        visit(n)
# symbols: what each object defines and uses
objs = {}
for f in sorted(os.listdir(build)):
    m = re.match(r'^libbstui_a-(\w+)\.o$', f)
    if m:
        objs[m.group(1)] = os.path.join(build, f)
if not objs:
    print('no objects in %s: build first' % build)
    sys.exit(99)
defined, used = {}, {}
for name, path in objs.items():
    out = subprocess.run(['nm', path], capture_output=True, text=True).stdout
    for line in out.splitlines():
        parts = line.split()
        if len(parts) == 3 and parts[1] in 'TDBR':
            defined[parts[2]] = name
        elif len(parts) == 2 and parts[0] == 'U':
            used.setdefault(name, set()).add(parts[1])
for name in sorted(objs):
    if not LOWER.match(name):
        continue
    for sym in sorted(used.get(name, ())):
        owner = defined.get(sym)
        if owner and not LOWER.match(owner):
            fail.append('%s (view layer) uses %s of %s' % (name, sym, owner))
for f in fail:
    print('FAIL ' + f)
print('tui layers: %d modules, %d objects, %d problems' % (len(graph), len(objs), len(fail)))
sys.exit(1 if fail else 0)
PY

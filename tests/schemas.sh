#!/bin/sh
# The JSON Schemas in schemas/ describe the real outputs: every library pattern's
# `analyze --json` and `sweep --json`, the golden JSON inputs (traces, hostile names, excluded
# lanes), `list --json`, `measure --json` (run here when a GPU is present, and as recorded on an
# H200 in tests/data/h200-json) and `sweep --json --measure` (recorded), and the recordings of
# tests/data/record (bankscope record on an H100). Each schema is checked
# against the metaschema first. Skips (77) only when python3-jsonschema is missing.
srcdir=${srcdir:-.}
top_builddir=${top_builddir:-.}
bin="$(cd "$top_builddir" && pwd)/bankscope"
py=
# an interpreter with python3-fastjsonschema too validates in a fifth of the time
for p in python3 /usr/bin/python3; do
    if "$p" -c 'import jsonschema, fastjsonschema' 2>/dev/null; then py=$p; break; fi
done
[ -n "$py" ] || for p in python3 /usr/bin/python3; do
    if "$p" -c 'import jsonschema' 2>/dev/null; then py=$p; break; fi
done
[ -n "$py" ] || { echo "python3-jsonschema missing: skipped (apt-get install python3-jsonschema)"; exit 77; }
tmp=$(mktemp -d) || exit 99
trap 'rm -rf "$tmp"' EXIT
cases="$srcdir/tests/golden/cases"
n=0
out() {  # out FILE COMMAND...: save one output for validation
    f=$1; shift
    "$bin" "$@" > "$tmp/$f" 2> /dev/null || { rm -f "$tmp/$f"; return 1; }
    n=$((n + 1))
}
# a loop nest (scenario version 2): loop_values
out "analyze.nest.json" analyze "$srcdir/tests/import/values.json" --json
for p in $("$bin" list --names); do
    out "analyze.$p.json" analyze "$p" --json || continue # lessons have no analysis
    out "sweep.$p.json" sweep "$p" --json --max-pad 8 || true # traces have no sweep
done
for f in "$cases"/trace-*.json "$cases"/hostile-*.json "$cases"/excluded-*.json "$cases"/swizzle-*.json "$cases"/sweep-*.json "$cases"/stencil-*.json "$cases"/kinds-cg*.json; do
    b=$(basename "$f" .json)
    out "analyze.golden-$b.json" analyze "$f" --json
    out "sweep.golden-$b.json" sweep "$f" --json --max-pad 4 || true
done
out "list.all.json" list --json
out "measure.default.json" measure default --json || true
# recordings made by bankscope record on an H100 (tests/gpu/record.sh), validated everywhere
for f in "$srcdir"/tests/data/record/*.json "$srcdir"/tests/data/measured/rec/*.json; do
    [ -e "$f" ] && cp "$f" "$tmp/record.$(basename "$f")"
done
# sweep --json of a recording is its what-if; diff --json compares two
for f in "$srcdir"/tests/data/record/*.json "$srcdir"/tests/data/measured/rec/*.json; do
    out "sweep.recording-$(basename "$f")" sweep "$f" --json
done
out "diff.transpose.json" diff "$srcdir/tests/data/record/whatif-naive.json" "$srcdir/tests/data/record/whatif-padded.json" --json
out "diff.measured.json" diff "$srcdir/tests/data/measured/rec/h100-naive.record.json" "$srcdir/tests/data/measured/rec/h100-hist.record.json" --json
# analyze --json of a recording adds its source lines, predicted and measured
for f in "$srcdir"/tests/data/measured/rec/*.json; do
    out "analyze.recording-$(basename "$f")" analyze "$f" --json --summary
done
# outputs of measure and sweep --measure recorded on an H200 (2026-11-21), validated everywhere
for f in "$srcdir"/tests/data/h200-json/*.json; do
    cp "$f" "$tmp/$(basename "$f" .json).h200.json"
done
"$py" - "$srcdir/schemas" "$tmp" <<'PY'
import glob, json, os, sys
from jsonschema import Draft202012Validator
try:  # compiles each schema to Python: the same verdicts, five times faster
    import fastjsonschema
except ImportError:
    fastjsonschema = None
schemas, outs = sys.argv[1], sys.argv[2]
fail = 0
count = 0
for kind in ("analyze", "sweep", "measure", "list", "record", "diff"):
    path = os.path.join(schemas, "bankscope-%s-1.schema.json" % kind)
    schema = json.load(open(path))
    Draft202012Validator.check_schema(schema)
    v = Draft202012Validator(schema)
    fast = fastjsonschema.compile(schema) if fastjsonschema else None
    for f in sorted(glob.glob(os.path.join(outs, kind + ".*.json"))):
        doc = json.load(open(f, encoding="utf-8"))
        count += 1
        if fast:
            try:
                fast(doc)
                continue
            except fastjsonschema.JsonSchemaException as e:
                fast_err = "%s (fastjsonschema)" % e.message[:200]
        # a document rejected (or no fast validator): jsonschema's verdict and messages
        errs = [(e.message[:200], list(e.absolute_path)) for e in v.iter_errors(doc)]
        if fast and not errs:
            errs = [(fast_err, [])]
        for msg, where in errs[:3]:
            print("FAIL %s: %s at %s" % (os.path.basename(f), msg, where))
        fail += bool(errs)
print("schemas: %d outputs valid, %d invalid%s" % (count - fail, fail, "" if fastjsonschema else " (jsonschema only: apt-get install python3-fastjsonschema for speed)"))
sys.exit(1 if fail or count == 0 else 0)
PY

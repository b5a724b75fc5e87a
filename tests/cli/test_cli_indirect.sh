# test_cli_indirect.sh — indirect transfers on the SASS model against the GPU's counts:
# every variant of tests/gpu/indirect.spec (calls through function pointers, BRX, returns to
# several call sites, the warp's lanes split over 1-4 targets) gives the kernel totals an
# H200 measured (tests/gpu/indirect-h200.txt: warp- and thread-instructions, branch targets,
# divergent targets), which count each further target as a pass of its own.
# Usage: sh test_cli_indirect.sh PATH/TO/warpscope
ws="$1"
. "$(dirname "$0")/cli_lib.sh"
src=${WS_SOURCE_DIR:-$(cd "$(dirname "$0")/../.." && pwd)}

if ! "$ws" sim "$src/tests/gpu/indirect.spec" --model sass --no-db --json --quiet \
    >"$tmp/ind.json" 2>"$tmp/ind.err"; then
  if grep -q "nvdisasm" "$tmp/ind.err"; then
    echo "test_cli_indirect: skipped: no nvdisasm ($(head -n 1 "$tmp/ind.err"))"
    exit 0
  fi
  bad "indirect.spec on the SASS model: $(head -n 1 "$tmp/ind.err")"
fi
python3 - "$tmp/ind.json" "$src/tests/gpu/indirect-h200.txt" >"$tmp/diff" 2>&1 <<'PY'
import json, sys
names = ('smsp__inst_executed.sum', 'smsp__thread_inst_executed.sum',
         'smsp__sass_branch_targets.sum', 'smsp__sass_branch_targets_threads_divergent.sum')
runs = {r['variant']: r for r in json.load(open(sys.argv[1])).get('runs', [])}
bad = 0
want = [l.split() for l in open(sys.argv[2]) if l.strip() and not l.startswith('#')]
for v, *gpu in want:
    r = runs.get(v)
    got = [round(r['metrics'].get(n, -1)) for n in names] if r else None
    if got != [int(x) for x in gpu]:
        bad += 1
        print('%s: GPU %s, model %s' % (v, ' '.join(gpu), got))
print('%d of %d variants equal' % (len(want) - bad, len(want)))
sys.exit(1 if bad or len(want) < 50 else 0)
PY
rc=$?
check '[ $rc -eq 0 ]' "SASS model totals differ from the H200's: $(cat "$tmp/diff")"
check 'grep -q "^50 of 50 variants equal" "$tmp/diff"' "all 50 variants compared: $(tail -n 1 "$tmp/diff")"
echo "test_cli_indirect: $pass passed, $fail failed"
[ $fail -eq 0 ]

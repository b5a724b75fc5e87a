#!/bin/sh
# test_cli_metrics_doc.sh — every metric the simulator and its timing model store is
# explained in docs/metrics.md (a new metric without a line there fails this test).
# usage: test_cli_metrics_doc.sh PATH/TO/warpscope
ws=$1
. "$(dirname "$0")/cli_lib.sh"
src=${WS_SOURCE_DIR:-$(dirname "$0")/../..}
doc=$src/docs/metrics.md

# A CAS loop (atomics, contention, the CAS bound) and a branchy kernel (divergence).
$ws sim histogram -D N=4096 -D TOTAL_THREADS=2048 --variant double_cas --timing --no-db --quiet --json \
    > "$tmp/h.json" 2>"$tmp/err" || bad "sim histogram: $(cat "$tmp/err")"
$ws sim branch_unification --variant before --timing --no-db --quiet --json \
    > "$tmp/b.json" 2>"$tmp/err" || bad "sim branch_unification: $(cat "$tmp/err")"
python3 - "$tmp/h.json" "$tmp/b.json" > "$tmp/names" <<'PY' || bad "reading the runs' metrics"
import json, sys
names = set()
for path in sys.argv[1:]:
    for line in open(path):
        if line.strip().startswith("{"):
            names.update(json.loads(line)["metrics"])
print("\n".join(sorted(names)))
PY
check '[ "$(wc -l < "$tmp/names")" -ge 50 ]' "expected 50 or more metric names, got $(wc -l < "$tmp/names")"
while read -r name; do
    check 'grep -qF "\`$name\`" "$doc"' "metric $name is not in docs/metrics.md"
done < "$tmp/names"

echo "cli_metrics_doc: $pass passed, $fail failed"
[ "$fail" -eq 0 ]

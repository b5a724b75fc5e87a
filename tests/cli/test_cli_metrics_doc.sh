#!/bin/sh
# test_cli_metrics_doc.sh — the metric table (core/metrics.def) is the one list of metric
# names: docs/metrics.md is exactly what `warpscope metrics --markdown` prints from it, every
# metric a simulator run stores is a row of it, and no production source spells a metric
# name outside it. usage: test_cli_metrics_doc.sh PATH/TO/warpscope
ws=$1
. "$(dirname "$0")/cli_lib.sh"
src=${WS_SOURCE_DIR:-$(dirname "$0")/../..}
doc=$src/docs/metrics.md

# The doc is generated from the table (regenerate: warpscope metrics --markdown > docs/metrics.md).
$ws metrics --markdown > "$tmp/doc.md" 2>"$tmp/err" || bad "metrics --markdown: $(cat "$tmp/err")"
check 'cmp -s "$tmp/doc.md" "$doc"' \
      "docs/metrics.md differs from 'warpscope metrics --markdown': $(diff "$tmp/doc.md" "$doc" | head -5)"
$ws metrics > "$tmp/table" || bad "metrics"
$ws metrics --json | python3 -c 'import json,sys; print("\n".join(m["name"] for m in json.load(sys.stdin)))' \
    > "$tmp/table_names" || bad "metrics --json"
check '[ "$(wc -l < "$tmp/table_names")" -ge 60 ]' "expected 60 or more metrics in the table"
check '$ws metrics --markdown --json 2>&1 | grep -q "metrics: --markdown or --json, not both"' \
      "--markdown with --json is a usage error"

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
    check 'grep -qxF "$name" "$tmp/table_names"' "metric $name is not in core/metrics.def"
    check 'grep -qF "\`$name\`" "$doc"' "metric $name is not in docs/metrics.md"
done < "$tmp/names"

# No production source spells a table name in a string: they say WS_M(ID). (store/schema.sql's
# summary view is SQL and names its few metrics there.)
while read -r name; do
    grep -rnF "\"$name\"" "$src/core" "$src/sim" "$src/cli" "$src/backend" "$src/profiler" \
        "$src/store" "$src/viewer" --include='*.c' --include='*.h' >> "$tmp/literals"
done < "$tmp/table_names"
check '[ ! -s "$tmp/literals" ]' "metric names spelled outside core/metrics.def: $(head -3 "$tmp/literals")"
# The names the SQL view reads are rows of the table too.
for name in $(grep -o "m.name = '[^']*'" "$src/store/schema.sql" | sed "s/m.name = '//; s/'//"); do
    check 'grep -qxF "$name" "$tmp/table_names"' "store/schema.sql reads $name, not in core/metrics.def"
done

echo "cli_metrics_doc: $pass passed, $fail failed"
[ "$fail" -eq 0 ]

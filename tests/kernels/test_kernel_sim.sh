#!/bin/sh
# test_kernel_sim.sh — one workload of kernels/ through `warpscope sim`, on the PTX model and
# on the SASS model: every variant of the spec runs, checks its outputs and matches the CPU
# reference; with `better A B`, variant B's execution rate is above variant A's (PTX model).
# usage: test_kernel_sim.sh PATH/TO/warpscope WORKLOAD [-D NAME=VALUE]... [better A B]
ws=$1 w=$2
shift 2
defs= better=
while [ $# -gt 0 ]; do
  case $1 in
    -D) defs="$defs -D $2"; shift 2 ;;
    better) better="$2 $3"; shift 3 ;;
    *) echo "test_kernel_sim.sh: unknown argument $1" >&2; exit 2 ;;
  esac
done
. "$WS_SOURCE_DIR/tests/cli/cli_lib.sh"
spec=$WS_SOURCE_DIR/kernels/$w.spec
variants=$(awk '$1 == "variant" {print $2}' "$spec" | tr '\n' ' ')

for model in ptx sass; do
  out=$tmp/$model.json
  # shellcheck disable=SC2086
  if ! $ws sim "$spec" $defs --model $model --json --no-db --threads 1 --quiet >"$out" 2>"$tmp/err"; then
    bad "$w --model $model$defs: $(cat "$tmp/err")"
    continue
  fi
  ok
  python3 - "$out" "$variants" "$better" "$model" <<'PY' || bad "$w --model $model$defs: see above"
import json, sys
runs = json.load(open(sys.argv[1]))["runs"]
want, better, model = sys.argv[2].split(), sys.argv[3].split(), sys.argv[4]
errors = []
ran = [r["variant"] for r in runs]
if sorted(ran) != sorted(want):
    errors.append("variants run %s, the spec has %s" % (ran, want))
for r in runs:
    msg = r.get("check_message", "")
    if not (r["outputs_checked"] and r["outputs_match"] and "CPU reference" in msg):
        errors.append("%s: outputs not checked equal to the CPU reference: %s" % (r["variant"], msg))
if better and model == "ptx":
    rate = {r["variant"]: r["metrics"]["sim__execution_rate"] for r in runs}
    a, b = better
    if not rate.get(b, 0) > rate.get(a, 1):
        errors.append("execution rate of %s (%s) not above %s (%s)" % (b, rate.get(b), a, rate.get(a)))
for e in errors:
    print("FAIL:", e, file=sys.stderr)
sys.exit(1 if errors else 0)
PY
  [ $? -eq 0 ] && ok
done
echo "test_kernel_sim $w$defs: $pass passed, $fail failed"
[ $fail -eq 0 ]

#!/bin/sh
# test_calibrate.sh — bench/calibrate.sh's fitting arithmetic on the CPU: the simulator
# with a preset whose keys were moved away from h100.gpu's stands in for the GPU; fitting
# h100.gpu to its times must recover the moved values, and each fitted key's source must
# name its benchmark. usage: test_calibrate.sh BUILD_DIR
build=$1
src=$(cd "$(dirname "$0")/../.." && pwd)
. "$src/tests/cli/cli_lib.sh"   # tmp (removed on exit), bad, fail

# Move eight keys away from h100.gpu's values (whatever they are) in the stand-in.
v='[0-9.e+-]*'
sed -e "s/^latency.alu = $v/latency.alu = 9/; s/^issue.fp64 = $v/issue.fp64 = 3/" \
    -e "s/^mem.l2_latency = $v/mem.l2_latency = 300/; s/^latency.branch = $v/latency.branch = 10/" \
    -e "s/^atom.l2_same_cycles = $v/atom.l2_same_cycles = 2/; s/^latency.bar = $v/latency.bar = 28/" \
    -e "s/^warp.group_cycles = $v/warp.group_cycles = 100/; s/^launch_overhead_ns = $v/launch_overhead_ns = 3000/" \
    "$src/sim/presets/h100.gpu" > "$tmp/true.gpu"
keys=latency.alu,issue.fp64,mem.l2_latency,latency.branch,atom.l2_same_cycles,latency.bar,warp.group_cycles,launch_overhead_ns
[ "$(diff "$src/sim/presets/h100.gpu" "$tmp/true.gpu" | grep -c '^>')" = 8 ] || bad "eight keys moved in the stand-in"
# Every key a benchmark fits names that benchmark in h100.gpu's source line.
python3 - "$src" <<'PY' || bad "h100.gpu's sources name their bench/calib benchmarks"
import sys
sys.path.insert(0, sys.argv[1] + "/bench")
import calibrate
text = open(sys.argv[1] + "/sim/presets/h100.gpu").read().split("\n")
for key, variant, *_ in calibrate.BENCHES:
    src = [l for l in text if l.split()[:2] == ["source", key]]
    if not src or ("bench/calib " + variant) not in src[0] and ("calib.spec " + variant) not in src[0]:
        print("%s: source does not name bench/calib %s: %s" % (key, variant, src))
        sys.exit(1)
PY
# On the PTX model, where each of these keys moves its benchmark.
bash "$src/bench/calibrate.sh" "$build" "$tmp/fit.gpu" --stand-in "$tmp/true.gpu" --keys "$keys" \
    --model ptx > "$tmp/log" 2>&1 || { cat "$tmp/log"; bad "calibrate.sh"; }
grep -q "^model = ptx " "$tmp/fit.gpu" || bad "the fitted preset records its model: $(grep '^model' "$tmp/fit.gpu")"
for kv in latency.alu=9 issue.fp64=3 mem.l2_latency=300 latency.branch=10 atom.l2_same_cycles=2 \
          latency.bar=28 warp.group_cycles=100 launch_overhead_ns=3000; do
    k=${kv%%=*} want=${kv#*=}
    got=$(sed -n "s/^$k = \([0-9.e+-]*\).*/\1/p" "$tmp/fit.gpu")
    python3 -c "import sys; sys.exit(0 if abs($got / $want - 1) < 0.02 else 1)" 2>/dev/null ||
        bad "$k fitted to '$got', the stand-in has $want"
    grep -Eq "^source $k bench/calib/calib.spec [a-z_0-9]+, [A-Z]+ [0-9]+( -> [0-9]+)?: " "$tmp/fit.gpu" ||
        bad "$k has no bench source: $(grep "^source $k " "$tmp/fit.gpu")"
done
# Keys it was not asked to fit keep h100.gpu's value.
mul=$(grep '^latency.mul = ' "$src/sim/presets/h100.gpu")
grep -q "^${mul%% *} = ${mul#*= }" "$tmp/fit.gpu" || bad "latency.mul kept ($mul)"
# The fit again from the recorded times alone (no timing): the same preset.
bash "$src/bench/calibrate.sh" "$build" "$tmp/again.gpu" --records "$tmp/fit.gpu.records.json" \
    --keys "$keys" --model ptx > "$tmp/log2" 2>&1 || { cat "$tmp/log2"; bad "calibrate.sh --records"; }
cmp -s "$tmp/fit.gpu" "$tmp/again.gpu" || bad "--records gives the same preset"
# A key no benchmark fits: one line naming it.
bash "$src/bench/calibrate.sh" "$build" "$tmp/x.gpu" --records "$tmp/fit.gpu.records.json" \
    --keys nosuch.key > "$tmp/log3" 2>&1 && bad "an unknown key fails"
grep -q "calibrate: no benchmark fits nosuch.key (known: latency.alu" "$tmp/log3" || bad "unknown key message: $(cat "$tmp/log3")"
# A base preset without the `model` key the fit writes: one line naming it.
grep -v "^model *=" "$src/sim/presets/h100.gpu" > "$tmp/nomodel.gpu"
bash "$src/bench/calibrate.sh" "$build" "$tmp/y.gpu" --records "$tmp/fit.gpu.records.json" \
    --keys latency.alu --base "$tmp/nomodel.gpu" > "$tmp/log4" 2>&1 && bad "a base without 'model' fails"
grep -q "calibrate: the base preset has no key 'model'" "$tmp/log4" || bad "no model key: $(tail -2 "$tmp/log4")"
# A whole-number key whose every candidate gives the model the same time is not fitted: on
# the SASS model sched.window does not move its benchmark, so the base value stands.
if "$build/warpscope" sim divergence_examples --model sass --no-db --variant tid_eq_0 --quiet >/dev/null 2>&1; then
    sed "s/^sched.window = $v/sched.window = 7/" "$src/sim/presets/h100.gpu" > "$tmp/win.gpu"
    bash "$src/bench/calibrate.sh" "$build" "$tmp/z.gpu" --stand-in "$tmp/true.gpu" --base "$tmp/win.gpu" \
        --keys sched.window --model sass > "$tmp/log5" 2>&1 || { cat "$tmp/log5"; bad "calibrate.sh sched.window"; }
    grep -q "calibrate: sched.window does not move the model's time of op_fp32 (REPS 16 -> 32): not fitted" \
        "$tmp/log5" || bad "a key that moves nothing: $(tail -2 "$tmp/log5")"
    grep -q "^sched.window = 7" "$tmp/z.gpu" || bad "the base's sched.window stands: $(grep '^sched.window' "$tmp/z.gpu")"
else
    echo "calibrate: the SASS model part skipped: no nvdisasm"
fi
[ $fail = 0 ] && echo "calibrate: ok" || { echo "calibrate: $fail failed"; exit 1; }

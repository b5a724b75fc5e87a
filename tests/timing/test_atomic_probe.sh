#!/bin/sh
# test_atomic_probe.sh — bench/atomic_probe.py on the CPU: the simulator with the tests'
# preset stands in for the GPU on the chain and lanes groups; reported against the same
# preset every point reads 1.00, against one with a slower atomic round trip the chain points
# read slow; a missing argument prints the usage. usage: test_atomic_probe.sh BUILD_DIR
build=$1
src=$(cd "$(dirname "$0")/../.." && pwd)
ws=$build/warpscope
. "$src/tests/cli/cli_lib.sh"   # tmp (removed on exit), bad, fail
probe=$src/bench/atomic_probe.py
preset=$src/tests/timing/mech.gpu

python3 "$probe" measure "$ws" "$tmp/rec.json" --groups chain,lanes --stand-in "$preset" \
    >"$tmp/measure.log" 2>&1 || bad "measure --stand-in: $(tail -1 "$tmp/measure.log")"
python3 "$probe" report "$ws" "$tmp/rec.json" "$preset" --groups chain,lanes >"$tmp/same.txt" 2>&1 ||
    bad "report: $(tail -1 "$tmp/same.txt")"
rows=$(grep -cE '^(chain|lanes) ' "$tmp/same.txt")
[ "$rows" -eq 9 ] || bad "report against the same preset: $rows rows, want 9"
grep -E '^(chain|lanes) ' "$tmp/same.txt" | awk '$NF != "1.00" {exit 1}' ||
    bad "a point does not read 1.00 against the preset that measured it"
sed 's/^atom.l2_latency = .*/atom.l2_latency = 900/' "$preset" > "$tmp/slow.gpu"
python3 "$probe" report "$ws" "$tmp/rec.json" "$tmp/slow.gpu" --groups chain >"$tmp/slow.txt" 2>&1 ||
    bad "report (slow): $(tail -1 "$tmp/slow.txt")"
grep -E '^chain .*one warp, 1 lane' "$tmp/slow.txt" | awk '$NF <= 1.5 {exit 1}' ||
    bad "a 3x slower round trip does not read slow on the one-lane chain"
python3 "$probe" measure >"$tmp/usage.txt" 2>&1 && bad "no arguments: exit 0"
grep -q "atomic_probe.py measure WARPSCOPE" "$tmp/usage.txt" || bad "no arguments: no usage"
[ $fail -eq 0 ] && echo "atomic probe: ok"
exit $fail

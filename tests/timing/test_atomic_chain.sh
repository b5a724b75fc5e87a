#!/bin/sh
# test_atomic_chain.sh — on the SASS model, an atomic's result register waits for its round
# trip: a chain of atomicAdds, each address taken from the last one's result (bench/calib
# atomic_chain; `ATOMG PT, Rd, [addr]` names its predicate result first), costs at least
# atom.l2_latency a trip. usage: test_atomic_chain.sh BUILD_DIR
build=$1
src=$(cd "$(dirname "$0")/../.." && pwd)
ws=$build/warpscope
. "$src/tests/cli/cli_lib.sh"   # tmp (removed on exit), bad, fail
preset=$src/tests/timing/mech.gpu
for r in 16 32; do
    "$ws" sim "$src/bench/calib/calib.spec" --variant atomic_chain -D REPS=$r --timing \
        --preset "$preset" --model sass --no-db --no-races --json --quiet >"$tmp/$r.json" 2>"$tmp/$r.err" || {
        if grep -q nvdisasm "$tmp/$r.err"; then echo "atomic chain: skipped: no nvdisasm"; exit 0; fi
        echo "FAIL: sim REPS=$r: $(tail -1 "$tmp/$r.err")"; exit 1; }
done
python3 - "$tmp/16.json" "$tmp/32.json" "$preset" <<'PY' && echo "atomic chain: ok"
import json, sys
c = [json.load(open(f))["metrics"]["sim__cycles"] for f in sys.argv[1:3]]
lat = [float(l.split("=")[1].split("#")[0]) for l in open(sys.argv[3]) if l.startswith("atom.l2_latency")][0]
trip = (c[1] - c[0]) / 16
print("atomic chain: %.1f cycles a trip (atom.l2_latency %g)" % (trip, lat))
if trip < lat:
    print("FAIL: the next atomic did not wait for the last one's result")
    sys.exit(1)
PY

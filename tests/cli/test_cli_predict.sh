#!/bin/sh
# test_cli_predict.sh — `warpscope predict` end to end: the after/before verdict and its
# reason on the seed workloads (at small sizes), --json's ratios, and a bad preset as one
# line and a non-zero exit. usage: test_cli_predict.sh PATH/TO/warpscope
ws=$1
. "$(dirname "$0")/cli_lib.sh"
src=${WS_SOURCE_DIR:-$(dirname "$0")/../..}

check '$ws predict --help | grep -q -- "--preset NAME"' "predict help"

# Branch unification at the seed's launch shape: after is slower, too few warps for the GPU.
$ws predict branch_unification --quiet > "$tmp/bu.txt" 2>&1 || bad "predict branch_unification"
# The model it runs: the one the preset was fitted on (h100: SASS where nvdisasm is found,
# as scripts/setup.sh installs it; fermi: PTX).
check 'head -1 "$tmp/bu.txt" | grep -q "^branch_unification on h100 (timing model on the SASS model)$"' \
      "predict names its model: $(head -1 "$tmp/bu.txt")"
check 'grep -Eq "after is [0-9.]+x slower than before: 256 warps cannot fill 132 SMs" "$tmp/bu.txt"' \
      "branch_unification verdict: $(tail -1 "$tmp/bu.txt")"

# How sure: the limiter of each variant and where its preset keys came from.
check 'grep -Eq "^  confidence, after: set by dependent-latency chains; of its 21 preset keys [0-9]+ measured by bench/calib, [0-9]+ fitted to the validation workloads( \([a-z.0-9_, ]+\))?; error on kernels they were not fitted to: (not measured yet|on the validation set, [0-9]+ of [0-9]+ launches it bounds within 1.5x \(predicted/measured median [0-9.]+, 90% within [0-9.]+x, worst [0-9.]+x\))" "$tmp/bu.txt"' \
      "confidence line: $(grep "confidence, after" "$tmp/bu.txt")"
$ws predict branch_unification --preset fermi --quiet > "$tmp/buf.txt" 2>&1 || bad "predict on fermi"
check 'head -1 "$tmp/buf.txt" | grep -q "(timing model on the PTX model)$"' "fermi runs the PTX model"
check 'grep -Eq "^  confidence, before: set by .*, [0-9]+ with no source; " "$tmp/buf.txt"' \
      "fermi's keys have no source: $(grep "confidence, before" "$tmp/buf.txt")"

# The SASS model's caveats beside the confidence: a CAS loop four warps fail in (double_cas)
# has them, a plain atomicAdd none.
$ws predict histogram -D N=1280 -D TOTAL_THREADS=128 --quiet > "$tmp/ph.txt" 2>&1 || bad "predict histogram"
check 'grep -q "^  double_cas, model caveat: CAS retry loop at histogram.cu:[0-9]* (SASS 0x[0-9a-f]*) failed [0-9]* compares in a launch of 4 warps" "$tmp/ph.txt" &&
       ! grep -q "^  atomic, model caveat" "$tmp/ph.txt"' "predict's caveat lines: $(grep caveat "$tmp/ph.txt" | cut -c1-200)"

# Progress on a terminal (script(1) gives a pty), none with --quiet.
script -qec "$ws predict tree_reduction" /dev/null > "$tmp/tty.txt" 2>&1
check 'grep -Eq "simulating sequential: [0-9]+ / [0-9]+ CTAs" "$tmp/tty.txt"' "progress on a terminal"
script -qec "$ws predict tree_reduction --quiet" /dev/null > "$tmp/tty-quiet.txt" 2>&1
check '! grep -q "CTAs (" "$tmp/tty-quiet.txt" && grep -q "sequential" "$tmp/tty-quiet.txt"' "--quiet: no progress"

# Bounds that overlap only in part: bench/calib local_spill at 8 warps an SM, where its
# chains and the L2's store input take about as long, names what the overlap added.
cat > "$tmp/spill.spec" <<EOF
workload spill
source $src/bench/calib/calib.cu
const REPS = 16
const ITERS = 16
buffer out i64 132*256 zero
variant alone
  kernel local_spill
  grid 132
  block 32
  args out 0
variant knee
  kernel local_spill
  grid 132
  block 256
  args out 0
EOF
$ws predict "$tmp/spill.spec" --preset h200 --quiet > "$tmp/spill.txt" 2>&1 || bad "predict spill"
check 'grep -Eq "knee is [0-9.]+x slower than alone: .*, its bounds overlap only in part \([0-9]+% of its cycles beyond the largest\)" "$tmp/spill.txt"' \
      "predict names the partial overlap: $(grep "slower" "$tmp/spill.txt")"

# Histogram at 1 bin: atomicAddW beats atomicAdd because 32 lanes share one address.
$ws predict histogram -D N=20000 -D TOTAL_THREADS=4096 --quiet > "$tmp/h1.txt" 2>&1 || bad "predict histogram"
check 'grep -Eq "warp_shfl is [0-9.]+x faster than atomic: atomic serialization on one L2 line bound the base" "$tmp/h1.txt"' \
      "1 bin: warp_shfl faster, serialization named"
check 'grep -q "lanes per address in one atomic warp-instruction 32.0 -> 1.0" "$tmp/h1.txt"' \
      "1 bin: lanes per address 32 -> 1"
check 'grep -Eq "double_cas is [0-9.]+x slower than atomic: CAS retries and lock hand-offs on contended words" "$tmp/h1.txt"' \
      "1 bin: the CAS loop's retries named"
check 'grep -q "up to 4096 threads on one word, 50% of them retrying per success in one wave" "$tmp/h1.txt"' \
      "1 bin, one wave: every thread on the word, half retrying"
check '! grep -q "atomics already spread" "$tmp/h1.txt"' "1 bin: atomics not called spread"
# More blocks than fit (fermi: 14 SMs x 8 blocks of 128): the waves keep them contending.
$ws predict histogram -D N=65536 -D TOTAL_THREADS=65536 --preset fermi --quiet > "$tmp/hw.txt" 2>&1 || bad "predict histogram in waves"
check 'grep -Eq "up to 14.3k threads on one word, 89% of them retrying per success over 4.6 waves of blocks" "$tmp/hw.txt"' \
      "waves: $(grep "double_cas is" "$tmp/hw.txt")"

# At 10^4 bins: no gain, the atomics are already spread.
$ws predict histogram -D N=20000 -D TOTAL_THREADS=4096 -D BINS=10000 --quiet > "$tmp/h4.txt" 2>&1 || bad "predict histogram 10^4"
check 'grep -Eq "warp_smem is [0-9.]+x slower than atomic: .*atomics already spread" "$tmp/h4.txt"' \
      "10^4 bins: no gain, atomics already spread"

# SASS control flow: the spin loop's YIELD and BSYNC hold the atomic loop back.
$ws predict "$src/bench/control_flow/control_flow.spec" --quiet > "$tmp/cf.txt" 2>&1 || bad "predict control_flow"
check 'grep -Eq "static is [0-9.]+x faster than atomic: .*control flow \(taken branches, BSYNC, spin-loop YIELD\) [0-9]+% -> [0-9]+% of stall cycles" "$tmp/cf.txt"' \
      "control flow named in the reason: $(grep static "$tmp/cf.txt")"

# --json: per variant the metrics with sim__time_ns and sim__stall_branch_cycles, and the ratio.
$ws predict tree_reduction --json --quiet > "$tmp/tr.json" 2>"$tmp/tr.err" || bad "predict --json"
check 'python3 - "$tmp/tr.json" <<PY
import json, sys
d = json.load(open(sys.argv[1]))
v = {x["name"]: x["metrics"] for x in d["variants"]}
r = d["ratios"][0]
assert all(m["sim__time_ns"] > 0 and "sim__stall_branch_cycles" in m for m in v.values())
# the SASS model issues by ptxas's stall counts: some of every variant's cycles are theirs
assert all(m["sim__stall_wait_cycles"] > 0 for m in v.values()), v
assert abs(r["time_ratio"] / (v[r["variant"]]["sim__time_ns"] / v[r["base"]]["sim__time_ns"]) - 1) < 1e-5
assert r["verdict"].startswith(r["variant"] + " is ")
PY' "--json ratios and metrics"

# A preset that does not exist: one line naming it, exit non-zero.
$ws predict tree_reduction --preset nosuch --quiet > "$tmp/e.out" 2> "$tmp/e.err"
rc=$?
check '[ $rc -ne 0 ] && [ $(wc -l < "$tmp/e.err") -eq 1 ] && grep -q "no GPU preset .nosuch." "$tmp/e.err"' \
      "bad preset: rc $rc, $(cat "$tmp/e.err")"

# --no-db, as sim and run take it: accepted, and nothing is stored anywhere.
(cd "$tmp" && WARPSCOPE_DB= $ws predict tree_reduction --no-db --quiet > "$tmp/n.out" 2> "$tmp/n.err")
rc=$?
check '[ $rc -eq 0 ] && grep -q "sequential" "$tmp/n.out" && [ ! -e "$tmp/warpscope.db" ]' \
      "predict --no-db: rc $rc, $(head -c 300 "$tmp/n.err")"

echo "cli_predict: $pass passed, $fail failed"
[ $fail -eq 0 ]

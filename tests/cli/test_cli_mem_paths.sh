# test_cli_mem_paths.sh — two data paths of the timing model on the SASS model, with the
# timing tests' preset (tests/timing/mech.gpu: one wavefront a cycle, 11 cycles a further
# constant word):
# - a warp's shared-memory accesses are served in order: three loads back to back whose 32
#   lanes fall on one bank (32 wavefronts each) wait for each other's wavefronts, so a trip
#   of them costs at least 64 cycles more than conflict-free (one load's 31 further
#   wavefronts is all the model charged before);
# - a constant load whose lanes name 32 distinct words takes 31 passes more than one whose
#   lanes share a word, mem.const_address_cycles each;
# - a global load whose lanes touch 32 lines of L1 takes each further line
#   mem.l1_line_cycles (bench/calib chase_global with SPREAD=1, the key at 1 and at 5).
# Usage: sh test_cli_mem_paths.sh PATH/TO/warpscope
ws="$1"
. "$(dirname "$0")/cli_lib.sh"
src=${WS_SOURCE_DIR:-$(cd "$(dirname "$0")/../.." && pwd)}
spec=$src/tests/timing/timing_kernels.spec

cycles() { # cycles VARIANT: sim__cycles of a SASS-model run with the timing model
  "$ws" sim "$spec" --variant "$1" --model sass --timing --preset "$src/tests/timing/mech.gpu" \
      --json --no-db --no-races --quiet >"$tmp/$1.json" 2>"$tmp/$1.err" || return 1
  python3 -c 'import json,sys; print(json.loads(open(sys.argv[1]).readline())["metrics"]["sim__cycles"])' \
      "$tmp/$1.json"
}

if ! "$ws" sim "$spec" --variant smem_spread --model sass --no-db --quiet >/dev/null 2>"$tmp/probe.err"; then
  if grep -q nvdisasm "$tmp/probe.err"; then
    echo "test_cli_mem_paths: skipped: no nvdisasm ($(head -n 1 "$tmp/probe.err"))"
    exit 0
  fi
fi
conflict=$(cycles smem_conflict) spread=$(cycles smem_spread)
check '[ -n "$conflict" ] && [ -n "$spread" ]' "both shared variants ran: $(cat "$tmp"/smem_*.err | head -n 2)"
check 'python3 -c "import sys; sys.exit(not ($conflict - $spread >= 256 * 64))"' \
  "three conflicted loads a trip queue behind each other: $conflict cycles against $spread conflict-free (256 trips)"
same=$(cycles const_same) lanes=$(cycles const_lanes)
check '[ -n "$same" ] && [ -n "$lanes" ]' "both constant variants ran: $(cat "$tmp"/const_*.err | head -n 2)"
check 'python3 -c "import sys; d = $lanes - $same; sys.exit(not (abs(d - 256 * 31 * 11) < 0.1 * 256 * 31 * 11))"' \
  "32 distinct constant words a load cost 31 x 11 cycles more: $lanes against $same cycles (256 loads)"
calib=$src/bench/calib/calib.spec
sed 's/^mem.l1_line_cycles = .*/mem.l1_line_cycles = 5/' "$src/tests/timing/mech.gpu" >"$tmp/l1x5.gpu"
chase() { # chase PRESET: sim__cycles of 1024 dependent loads, each on 32 lines of L1
  "$ws" sim "$calib" --variant chase_global -D RING=32 -D STRIDE=16 -D SPREAD=1 -D REPS=16 \
      -D ITERS=64 --model sass --timing --preset "$1" --json --no-db --no-races --quiet \
      >"$tmp/chase.json" 2>"$tmp/chase.err" || return 1
  python3 -c 'import json,sys; print(json.loads(open(sys.argv[1]).readline())["metrics"]["sim__cycles"])' \
      "$tmp/chase.json"
}
one=$(chase "$src/tests/timing/mech.gpu") five=$(chase "$tmp/l1x5.gpu")
check '[ -n "$one" ] && [ -n "$five" ]' "chase_global ran: $(head -n 2 "$tmp/chase.err")"
check 'python3 -c "import sys; d = $five - $one; sys.exit(not (abs(d - 1024 * 31 * 4) < 0.1 * 1024 * 31 * 4))"' \
  "each further line of a load costs mem.l1_line_cycles: $five cycles at 5 against $one at 1 (1024 loads of 32 lines)"
echo "test_cli_mem_paths: $pass passed, $fail failed"
[ $fail -eq 0 ]

# test_cli_placement.sh — bench/placement: a kernel that records, per CTA, the SM it ran on and
# its first and last nanosecond, and bench/placement.py, which tallies CTAs per SM, how many an
# SM held at once and how long CTAs took (docs/results/placement-h200.txt has what an H200 did).
# - the spec simulates (both variants) and its dump tallies to the launch's CTAs;
# - placement.py's tally of a file written by hand: CTAs per SM, the most at once on one SM
#   (two that overlap on SM 0), the span and each CTA's time;
# - without an argument it prints its usage and fails.
# Usage: sh test_cli_placement.sh PATH/TO/warpscope
ws="$1"
. "$(dirname "$0")/cli_lib.sh"
src=${WS_SOURCE_DIR:-$(cd "$(dirname "$0")/../.." && pwd)}

"$ws" sim "$src/bench/placement/placement.spec" -D CTAS=6 -D SPIN=500 -D ITERS=2 --no-db --quiet \
  --dump "$tmp/sim" >"$tmp/sim.out" 2>&1
rc=$?
check '[ $rc -eq 0 ] && [ -s "$tmp/sim/spin.where.bin" ] && [ -s "$tmp/sim/chase.where.bin" ]' \
  "placement.spec simulates and dumps where: $(tail -3 "$tmp/sim.out")"
python3 "$src/bench/placement.py" "$tmp/sim/chase.where.bin" chase >"$tmp/tally" 2>&1
check 'grep -Eq "^chase +6 CTAs on +[0-9]+ SMs" "$tmp/tally"' "tally of the simulator's dump: $(cat "$tmp/tally")"

# SM 0: [0, 10 us] and [5, 20 us] overlap; SM 3: [2, 32 us]
python3 -c "
import struct, sys
open(sys.argv[1], 'wb').write(b''.join(struct.pack('<QQQ', *c) for c in
    [(0, 1000000, 1010000), (0, 1005000, 1020000), (3, 1002000, 1032000)]))
" "$tmp/hand.bin"
python3 "$src/bench/placement.py" "$tmp/hand.bin" hand >"$tmp/hand" 2>&1
check 'grep -Eq "^hand +3 CTAs on +2 SMs +CTAs/SM \{1:1 2:1\} +at once <= 2 +span +32.0 us +CTA us min/med/max 10.0/15.0/30.0$" "$tmp/hand"' \
  "tally of a file written by hand: $(cat "$tmp/hand")"

python3 "$src/bench/placement.py" >"$tmp/usage" 2>&1
rc=$?
check '[ $rc -ne 0 ] && grep -q "^usage: placement.py WHERE.bin" "$tmp/usage"' "usage: $(cat "$tmp/usage")"

echo "test_cli_placement: $pass passed, $fail failed"
[ "$fail" -eq 0 ]

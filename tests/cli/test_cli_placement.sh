# test_cli_placement.sh — bench/placement: a kernel that records, per CTA, the SM it ran on and
# its first and last nanosecond, and bench/placement.py, which tallies CTAs per SM, how many an
# SM held at once and how long CTAs took (docs/results/placement-h200.txt has what an H200 did).
# - the spec simulates (both variants) and its dump tallies to the launch's CTAs;
# - %smid, %nsmid and %nwarpid in both models: CTA i on SM i mod the preset's SMs (132 on
#   h100, 14 on fermi), as an H200's block scheduler spreads a first wave one CTA an SM, and
#   the warps an SM holds: 64 in the SASS model (its SASS is sm_90's), 48 in the PTX model
#   under the fermi preset (compute capability 2.0);
# - placement.py's tally of a file written by hand: CTAs per SM, the most at once on one SM
#   (two that overlap on SM 0), the span and each CTA's time;
# - without an argument it prints its usage and fails;
# - bench/placement.sh with no GPU to run on (none visible) names each shape's failure with
#   its cause and exits 1.
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
check 'grep -Eq "^chase +6 CTAs on +6 SMs" "$tmp/tally"' "tally of the simulator's dump: $(cat "$tmp/tally")"
check 'grep -Eq "nsmid 132  nwarpid 64  SMs of the first CTAs 0 1 2 3 4 5  on the SM of their index: 6 of 6$" "$tmp/tally"' \
  "the SASS model's %smid and %nsmid: $(cat "$tmp/tally")"

# %smid wraps at the preset's SM count, in both models
for mw in sass/64 ptx/48; do
  model=${mw%/*} warps=${mw#*/}
  "$ws" sim "$src/bench/placement/placement.spec" --variant spin -D CTAS=30 -D SPIN=50 --preset fermi \
    --model $model --no-db --quiet --dump "$tmp/$model" >"$tmp/$model.out" 2>&1
  python3 -c "
import struct, sys
d = open(sys.argv[1], 'rb').read()
w = [struct.unpack_from('<Q', d, 24 * i)[0] for i in range(len(d) // 24)]
print(' '.join('%d/%d/%d' % (v & 0xffffffff, v >> 32 & 0xffff, v >> 48) for v in w))
" "$tmp/$model/spin.where.bin" >"$tmp/$model.sm" 2>&1
  want=$(python3 -c "print(' '.join('%d/14/$warps' % (i % 14) for i in range(30)))")
  check '[ "$(cat "$tmp/$model.sm")" = "$want" ]' \
    "$model model: CTA i on SM i mod 14 of $warps warps under the fermi preset: $(cat "$tmp/$model.sm") $(tail -2 "$tmp/$model.out")"
done

# SM 0: [0, 10 us] and [5, 20 us] overlap; SM 3: [2, 32 us]
python3 -c "
import struct, sys
open(sys.argv[1], 'wb').write(b''.join(struct.pack('<QQQ', *c) for c in
    [(0, 1000000, 1010000), (0, 1005000, 1020000), (3, 1002000, 1032000)]))
" "$tmp/hand.bin"
python3 "$src/bench/placement.py" "$tmp/hand.bin" hand >"$tmp/hand" 2>&1
check 'grep -Eq "^hand +3 CTAs on +2 SMs +CTAs/SM \{1:1 2:1\} +at once <= 2 +span +32.0 us +CTA us min/med/max 10.0/15.0/30.0$" "$tmp/hand"' \
  "tally of a file written by hand: $(cat "$tmp/hand")"
# the same with %nsmid 4 in the upper bits: CTA 0 on SM 0 (its index), CTA 1 on SM 0, CTA 2 on 3
python3 -c "
import struct, sys
open(sys.argv[1], 'wb').write(b''.join(struct.pack('<QQQ', *c) for c in
    [(4 << 32 | 64 << 48, 1000000, 1010000), (4 << 32, 1005000, 1020000), (4 << 32 | 3, 1002000, 1032000)]))
" "$tmp/hand4.bin"
python3 "$src/bench/placement.py" "$tmp/hand4.bin" hand4 >"$tmp/hand4" 2>&1
check 'grep -Eq "^hand4 +3 CTAs on +2 SMs" "$tmp/hand4" && grep -Eq "nsmid 4  nwarpid 64  SMs of the first CTAs 0 0 3  on the SM of their index: 1 of 3$" "$tmp/hand4"' \
  "tally with %nsmid: $(cat "$tmp/hand4")"

python3 "$src/bench/placement.py" >"$tmp/usage" 2>&1
rc=$?
check '[ $rc -ne 0 ] && grep -q "^usage: placement.py WHERE.bin" "$tmp/usage"' "usage: $(cat "$tmp/usage")"

CUDA_VISIBLE_DEVICES=-1 bash "$src/bench/placement.sh" "$(dirname "$ws")" "$tmp/pl" >"$tmp/pl.out" 2>&1
rc=$?
check '[ $rc -eq 1 ] && [ "$(grep -c ": run failed: warpscope: " "$tmp/pl.out")" -eq 11 ] &&
       grep -q "^chase CTAS=132 THREADS=128: run failed: warpscope: .*\(GPU\|CUDA\)" "$tmp/pl.out" &&
       grep -q "^placement.sh: 11 of 11 shapes failed$" "$tmp/pl.out"' \
  "placement.sh without a GPU: rc $rc, $(head -n 2 "$tmp/pl.out")"

echo "test_cli_placement: $pass passed, $fail failed"
[ "$fail" -eq 0 ]

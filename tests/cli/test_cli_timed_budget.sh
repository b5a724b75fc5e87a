# test_cli_timed_budget.sh — the timed order of CAS retry loops (docs/spec-format.md) past its
# budget: histogram double_cas at the spec's 2^20 threads on one bin runs 2^25 warp-
# instructions in the timed order, then the rest of the launch one CTA after another; `sim`
# says both (the "CTAs at once" line, the caveat), and the outputs still equal the CPU
# reference. Labelled slow (the budget is half a minute here): the sanitizer stage skips it.
# Usage: sh test_cli_timed_budget.sh PATH/TO/warpscope
ws="$1"
. "$(dirname "$0")/cli_lib.sh"

"$ws" sim histogram -D N=20000 --variant double_cas --model sass --no-db --no-races \
  >"$tmp/b.out" 2>&1
rc=$?
if grep -q "nvdisasm" "$tmp/b.out" && [ $rc -ne 0 ]; then
  echo "test_cli_timed_budget: skipped: no nvdisasm"
  exit 0
fi
check '[ $rc -eq 0 ] && grep -q "outputs match" "$tmp/b.out"' "the run ends, outputs equal: $(tail -n 3 "$tmp/b.out")"
check 'grep -Eq "^  CTAs at once +[0-9]+ of 8192, their warps in turns by a clock of memory round trips" "$tmp/b.out"' \
  "sim names the timed order: $(grep "CTAs at once" "$tmp/b.out")"
check 'grep -Eq "sim__timed_order +1$" "$tmp/b.out"' "sim__timed_order 1"
check 'grep -q "warning: model caveat: the timed order of this CAS retry loop stopped after 33554432 warp-instructions" "$tmp/b.out"' \
  "the budget's caveat: $(grep "caveat: the timed" "$tmp/b.out" | cut -c1-200)"
# A warp's lanes on 1000 bins: its CAS lanes on lines of the far L2 partition are on their way
# (ws_sass_far_lanes) when the budget runs out; they land before the rest runs one CTA
# after another, so every item is still counted.
"$ws" sim histogram -D N=2000000 -D BINS=1000 --variant double_cas --model sass --no-db \
  --no-races >"$tmp/f.out" 2>&1
check '[ $? -eq 0 ] && grep -q "outputs match" "$tmp/f.out" && grep -q "caveat: the timed order of this CAS retry loop stopped" "$tmp/f.out"' \
  "1000 bins past the budget, outputs equal: $(grep -E "outputs|caveat: the timed" "$tmp/f.out" | cut -c1-200)"
# Under the budget (4224 threads, 1.7 M warp-instructions) there is no such caveat.
"$ws" sim histogram -D N=4224 -D TOTAL_THREADS=4224 -D THREADS=32 --variant double_cas --model sass \
  --no-db --no-races >"$tmp/s.out" 2>&1
check 'grep -Eq "sim__timed_order +1$" "$tmp/s.out" && ! grep -q "caveat: the timed order" "$tmp/s.out"' \
  "no budget caveat under the budget: $(grep caveat "$tmp/s.out" | cut -c1-200)"

echo "test_cli_timed_budget: $pass passed, $fail failed"
[ "$fail" -eq 0 ]

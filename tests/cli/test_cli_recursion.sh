# test_cli_recursion.sh — convergence barriers across recursive calls on the SASS model: a
# callee that shares a barrier register with its caller saves the caller's mask, uses the
# register and restores it, while lanes that left early wait at the caller's BSYNC; they
# keep waiting for the caller's mask when the callee's barrier completes (sass_exec.c, join).
#  - tests/gpu/recursion.spec: the 6 variants the H200 equals at every SASS PC
#    (tests/gpu/recursion-h200.txt) equal it, and the two it does not (loop, loop_alu) stay
#    within 10 % of its warp-instructions (releasing the caller's lanes with the callee's
#    put loop 36 % over);
#  - bench/unseen/unseen6 quicksort_local, which deadlocked at a BSYNC under that release,
#    runs to the end with its outputs checked.
# Usage: sh test_cli_recursion.sh PATH/TO/warpscope
ws="$1"
. "$(dirname "$0")/cli_lib.sh"
src=${WS_SOURCE_DIR:-$(cd "$(dirname "$0")/../.." && pwd)}

if ! "$ws" sim "$src/tests/gpu/recursion.spec" --model sass --threads 1 --no-races \
    --db "$tmp/r.db" --quiet >"$tmp/r.out" 2>"$tmp/r.err"; then
  if grep -q "nvdisasm" "$tmp/r.err"; then
    echo "test_cli_recursion: skipped: no nvdisasm ($(head -n 1 "$tmp/r.err"))"
    exit 0
  fi
  bad "recursion.spec on the SASS model: $(head -n 2 "$tmp/r.err")"
fi
python3 "$src/bench/pc_records.py" check "$tmp/r.db" "$src/tests/gpu/recursion-h200.txt" \
    recursion >"$tmp/diff" 2>&1
rc=$?
check '[ $rc -eq 0 ]' "the SASS model differs from the H200 per PC: $(grep -v ' rate ' "$tmp/diff")"
check 'grep -q "^6 of 6 variants equal" "$tmp/diff"' "all 6 recorded variants compared: $(head -n 1 "$tmp/diff")"

# the two misses: the model's warp-instructions against the H200's, within 10 %
for v in loop loop_alu; do
  gpu=$(awk -v v=$v '!/^#/ && $1 == v {n += $3} END {print n + 0}' "$src/tests/gpu/recursion-misses-h200.txt")
  sim=$(sqlite3 "$tmp/r.db" "SELECT SUM(i.issued) FROM instructions i JOIN runs r ON r.id = i.run_id
                             WHERE r.workload = 'recursion' AND r.variant = '$v'")
  check '[ "$gpu" -gt 0 ] && [ "${sim:-0}" -gt 0 ] && [ $((sim * 10)) -ge $((gpu * 9)) ] && [ $((sim * 10)) -le $((gpu * 11)) ]' \
      "$v: the model's $sim warp-instructions are not within 10 % of the H200's $gpu"
done

# the recursive quicksort that deadlocked: runs, outputs match between runs of the model
if "$ws" sim "$src/bench/unseen/unseen6.spec" --variant quicksort_local --model sass --threads 2 \
    --no-races --no-db >"$tmp/q.out" 2>"$tmp/q.err"; then ok; else
  bad "unseen6 quicksort_local on the SASS model: $(head -n 1 "$tmp/q.err")"
fi
check '! grep -q deadlock "$tmp/q.err"' "quicksort_local: $(grep deadlock "$tmp/q.err")"
check 'grep -q "outputs match" "$tmp/q.out"' "quicksort_local's outputs: $(grep outputs "$tmp/q.out")"
echo "test_cli_recursion: $pass passed, $fail failed"
[ $fail -eq 0 ]

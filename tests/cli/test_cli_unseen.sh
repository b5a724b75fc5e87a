# test_cli_unseen.sh — the sets of kernels the model was never tuned to
# (bench/unseen/unseen.spec, unseen2.spec ... unseen9.spec) on the SASS model against the H200's
# per-SASS-PC counts (bench/records/unseen*-pc-h200.txt): every variant the records hold
# (83 of 97; the rest are the misses docs/results/unseen-kernels-h200.txt explains) equals the
# GPU's inst_executed and thread_inst_executed at every PC, and every variant of every set runs
# to the end with its outputs checked. A change to the model that moves any of them fails
# here, without a GPU. The two sets of spin locks (unseen8, unseen9) run to the end with their
# outputs checked.
# Usage: sh test_cli_unseen.sh PATH/TO/warpscope
ws="$1"
. "$(dirname "$0")/cli_lib.sh"
src=${WS_SOURCE_DIR:-$(cd "$(dirname "$0")/../.." && pwd)}

total=0
for w in unseen unseen2 unseen3 unseen4 unseen5 unseen6 unseen7; do
  ok=1
  "$ws" sim "$src/bench/unseen/$w.spec" --model sass --threads 1 --no-races --db "$tmp/u.db" \
      --quiet >"$tmp/$w.out" 2>"$tmp/$w.err" || ok=0
  if [ $ok -eq 0 ]; then
    if grep -q "nvdisasm" "$tmp/$w.err"; then
      echo "test_cli_unseen: skipped: no nvdisasm ($(head -n 1 "$tmp/$w.err"))"
      exit 0
    fi
    bad "$w.spec on the SASS model: $(grep -v '^ *warning' "$tmp/$w.err" | head -n 2)"
  fi
  python3 "$src/bench/pc_records.py" check "$tmp/u.db" "$src/bench/records/$w-pc-h200.txt" "$w" \
      >"$tmp/$w.diff" 2>&1
  rc=$?
  n=$(awk '!/^#/ {print $1}' "$src/bench/records/$w-pc-h200.txt" | sort -u | wc -l)
  total=$((total + n))
  check '[ $rc -eq 0 ]' "$w: the SASS model differs from the H200 per PC: $(grep -v ' rate ' "$tmp/$w.diff")"
  check 'grep -q "^$n of $n variants equal" "$tmp/$w.diff"' "$w: all $n recorded variants compared: $(grep 'variants equal' "$tmp/$w.diff")"
done
check '[ $total -eq 83 ]' "83 variants recorded in all, not $total"
# The two sets of spin locks (bench/unseen/unseen8, unseen9) have no per-PC records (which
# lane takes a lock first follows the GPU's timing): every variant runs to the end with its
# outputs checked.
for w in unseen8 unseen9; do
  "$ws" sim "$src/bench/unseen/$w.spec" --model sass --threads 1 --no-races --no-db --quiet \
      >"$tmp/$w.out" 2>"$tmp/$w.err"
  rc=$?
  n=$(grep -c "outputs: outputs match" "$tmp/$w.out")
  want=$(grep -c "^variant " "$src/bench/unseen/$w.spec")
  check '[ $rc -eq 0 ] && [ "$n" -eq "$want" ]' "$w: $n of $want variants ran with outputs matching (rc $rc): $(grep -v '^ *warning' "$tmp/$w.err" | head -n 2)"
done
echo "test_cli_unseen: $pass passed, $fail failed"
[ $fail -eq 0 ]

# test_cli_unseen.sh — the sets of kernels the model was never tuned to
# (bench/unseen/unseen.spec, unseen2.spec ... unseen25.spec) on the SASS model against the H200's
# per-SASS-PC counts (bench/records/unseen*-pc-h200.txt): every variant the records hold
# (163 of 203; the rest are the misses docs/results/unseen-kernels-h200.txt explains) equals the
# GPU's inst_executed and thread_inst_executed at every PC, and every variant of every set runs
# to the end with its outputs checked. A change to the model that moves any of them fails
# here, without a GPU. The two sets of spin locks (unseen8, unseen9) run to the end with their
# outputs checked. The kernels whose CTAs take work from one global queue (unseen10
# persistent_smid, unseen11 warp_queue and guided_queue) land within 1.5x of the H200's time, and
# so do the two that print (unseen2 printf_few, unseen12 printf_warn: the printf.* keys).
# Usage: sh test_cli_unseen.sh PATH/TO/warpscope
ws="$1"
. "$(dirname "$0")/cli_lib.sh"
src=${WS_SOURCE_DIR:-$(cd "$(dirname "$0")/../.." && pwd)}

total=0
for w in unseen unseen2 unseen3 unseen4 unseen5 unseen6 unseen7 unseen10 unseen11 unseen12 unseen13 \
         unseen14 unseen15 unseen16 unseen17 unseen18 unseen19 unseen20 unseen21 unseen22 unseen24 unseen25; do
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
check '[ $total -eq 163 ]' "163 variants recorded in all, not $total"
# One-warp loops whose lanes leave at their own trip (bench/bsync/: trips.spec, the exit
# patterns; history.spec, the same after a split of the warp on purpose; seq.spec, groups of
# given sizes, 2 to 5; pipes.spec, two other loop bodies; many.spec, 6 to 8 groups): the
# variants where the H200 issues the loop's BSYNC as often as the model.
for w in trips:74 history:14 seq:166 pipes:44 many:102; do
  n=${w#*:}; w=${w%:*}
  "$ws" sim "$src/bench/bsync/$w.spec" --model sass --threads 1 --no-races --db "$tmp/u.db" \
      --quiet >"$tmp/$w.out" 2>"$tmp/$w.err" || bad "$w.spec on the SASS model: $(head -n 2 "$tmp/$w.err")"
  python3 "$src/bench/pc_records.py" check "$tmp/u.db" "$src/bench/records/bsync-$w-pc-h200.txt" \
      "bsync_$w" >"$tmp/$w.diff" 2>&1
  check 'grep -q "^$n of $n variants equal" "$tmp/$w.diff"' "bsync_$w: the SASS model differs from the H200 per PC: $(grep -v ' rate ' "$tmp/$w.diff" | head -n 3)"
done
# bench/bsync/rules.py: the model's own rule (no deferral) against the 362 probe loops, and
# its two errors: no rule, and a rule that is not a Python expression.
python3 "$src/bench/bsync/rules.py" 'False' >"$tmp/rules.out" 2>&1
check 'grep -q "^317 of 362 loops right" "$tmp/rules.out"' "rules.py 'False': $(tail -n 1 "$tmp/rules.out")"
python3 "$src/bench/bsync/rules.py" >"$tmp/rules0.out" 2>&1
rc=$?
check '[ $rc -ne 0 ] && grep -q "^usage: rules.py RULE" "$tmp/rules0.out"' "rules.py without a rule: $(head -n 1 "$tmp/rules0.out")"
python3 "$src/bench/bsync/rules.py" 'last >' >"$tmp/rules1.out" 2>&1
rc=$?
check '[ $rc -eq 2 ] && [ $(wc -l <"$tmp/rules1.out") -eq 1 ] && grep -q "^rules.py: bad rule .last >." "$tmp/rules1.out"' "rules.py with a bad rule: rc $rc, $(head -n 2 "$tmp/rules1.out")"
# The two sets of spin locks (bench/unseen/unseen8, unseen9) and the set of CAS updates
# (unseen23) have no per-PC records (which lane takes a lock or wins a CAS first follows the
# GPU's timing): every variant runs to the end with its outputs checked.
for w in unseen8 unseen9 unseen23; do
  "$ws" sim "$src/bench/unseen/$w.spec" --model sass --threads 1 --no-races --no-db --quiet \
      >"$tmp/$w.out" 2>"$tmp/$w.err"
  rc=$?
  n=$(grep -c "outputs: outputs match" "$tmp/$w.out")
  want=$(grep -c "^variant " "$src/bench/unseen/$w.spec")
  check '[ $rc -eq 0 ] && [ "$n" -eq "$want" ]' "$w: $n of $want variants ran with outputs matching (rc $rc): $(grep -v '^ *warning' "$tmp/$w.err" | head -n 2)"
done
# Kernels whose CTAs take items from one global queue run resident together (sim says so),
# so their predicted times land within 1.5x of the H200's at 8 and 528 CTAs: unseen10 persistent_smid
# (it read 8.4x and 272x while the first CTA took every item), and unseen11 warp_queue and
# guided_queue, written after the rule (8.1x and 172x, 6.4x and 313x without it). The kernels
# that print are priced by bench/calib printf_lanes alone (printf_few read 0.11 and 0.01 before,
# printf_warn 0.035 and 0.0009).
"$ws" sim "$src/bench/unseen/unseen10.spec" --variant persistent_smid --no-db --quiet >"$tmp/q.out" 2>&1
check 'grep -q "^  CTAs at once        8 of 8, their warps interleaved" "$tmp/q.out"' \
  "sim says the persistent kernel's CTAs ran at once: $(grep -i 'at once' "$tmp/q.out")"
for wv in unseen10/persistent_smid unseen11/warp_queue unseen11/guided_queue unseen2/printf_few \
          unseen12/printf_warn; do
  w=${wv%/*} v=${wv#*/}
  for b in 8 528; do
    "$ws" sim "$src/bench/unseen/$w.spec" --variant $v -D BLOCKS=$b --timing --preset h200 \
      --no-db --quiet --json --no-races >"$tmp/q-$v-$b.json" 2>/dev/null
  done
  check 'python3 - "$tmp/q-$v-8.json" "$tmp/q-$v-528.json" "$src/bench/records/validate-unseen-h200.records.json" $w $v <<PY
import json, sys
rec = json.load(open(sys.argv[3]))
w, v = sys.argv[4], sys.argv[5]
gpu = {p["size"]: p["times_ns"][v] for p in rec["points"] if p["workload"].endswith("/%s.spec" % w)}
qs = []
for path, size in ((sys.argv[1], "-"), (sys.argv[2], "BLOCKS=528")):
    r = json.loads(open(path).read())
    r = r.get("runs", [r])[0]
    qs.append(r["metrics"]["sim__time_ns"] / gpu[size])
print("%s %s model/GPU %.2f at 8 CTAs, %.2f at 528" % (w, v, qs[0], qs[1]))
assert all(1 / 1.5 <= q <= 1.5 for q in qs), qs
PY' "$w $v within 1.5x of the H200's at 8 and 528 CTAs"
done
echo "test_cli_unseen: $pass passed, $fail failed"
[ $fail -eq 0 ]

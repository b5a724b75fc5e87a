#!/bin/sh
# test_validate.sh — bench/validate.sh and bench/validate.py report on the CPU: the
# simulator with a preset stands in for the GPU on a few small points; reported against the
# same preset every pair and launch must agree (PASS), against a preset with slower ALU
# latency and launch the misses must be named (FAIL); and each error message of the
# scripts. usage: test_validate.sh BUILD_DIR
build=$1
src=$(cd "$(dirname "$0")/../.." && pwd)
ws=$build/warpscope
. "$src/tests/cli/cli_lib.sh"   # tmp (removed on exit), bad, fail

cat > "$tmp/points.txt" <<'PTS'
# a small validation set: one seed workload, two of bench/validation
tree_reduction                     BLOCKS=8                    2
bench/validation/val_cas_f64.spec  ADDRS=4,N=2048,BLOCKS=2     2
bench/validation/val_hist.spec     N=4096,BLOCKS=4,BINS=8      2   skip=sort
PTS
bash "$src/bench/validate.sh" "$build" "$tmp/rec.json" --points "$tmp/points.txt" --calib-keys latency.atom \
    --stand-in "$src/sim/presets/h100.gpu" > "$tmp/m.log" 2>&1 || { cat "$tmp/m.log"; bad "validate.sh --stand-in"; }
# The calibration points of the keys asked for, beside the records.
grep -q '"atomic_shared CTAS=1 ITERS=64 REPS=16 SPREAD=1 THREADS=32": [0-9]' "$tmp/rec.calib.json" ||
    bad "validate.sh --calib-keys: $(cat "$tmp/rec.calib.json")"
python3 - "$tmp/rec.json" <<'PY' || bad "records: a time per timed variant, null for the skipped"
import json, sys
r = json.load(open(sys.argv[1]))
assert r["source"].startswith("stand-in "), r["source"]
p = {(x["workload"], x["size"]): x for x in r["points"]}
assert len(p) == 3
h = p[("bench/validation/val_hist.spec", "N=4096,BLOCKS=4,BINS=8")]
assert h["times_ns"]["sort"] is None and h["times_ns"]["leader"] > 0 and h["base"] == "atomic"
assert all(t > 0 for t in p[("tree_reduction", "BLOCKS=8")]["times_ns"].values())
PY
# A report of the same name from before is gone as soon as a report starts (here one that
# fails at once: no such records), so it is never read as the new one.
echo "validation: PASS (an old report)" > "$tmp/stale.txt"
python3 "$src/bench/validate.py" report "$ws" "$tmp/no-such-records.json" "$src/sim/presets/h100.gpu" \
    "$tmp/stale.txt" > /dev/null 2>&1 && bad "a report on missing records succeeded"
[ -e "$tmp/stale.txt" ] && bad "an old report outlived the start of a new one"
# The same preset that stood in: every ratio and time equal, the validation passes.
python3 "$src/bench/validate.py" report "$ws" "$tmp/rec.json" "$src/sim/presets/h100.gpu" "$tmp/same.txt" \
    --jobs 2 > "$tmp/r1.log" 2>&1 || { cat "$tmp/r1.log"; bad "report against the stand-in's preset"; }
grep -Eq "^val_cas_f64 +ADDRS=4,N=2048,BLOCKS=2 +cas / native +[0-9.e+]+ +[0-9.e+]+ +yes +yes +yes$" "$tmp/same.txt" ||
    bad "the CAS pair row: $(grep 'cas / native' "$tmp/same.txt")"
grep -q "^validation: PASS$" "$tmp/same.txt" || bad "same preset: $(grep -E '^(PASS|FAIL|validation)' "$tmp/same.txt")"
grep -q "^ratio pred/meas: *median 1.00, 90th pct 1.00 (as a factor: 1.00x), worst 1.00$" "$tmp/same.txt" || bad "same preset: ratio distribution"
grep -q "^# Pairs outside 1.5x or in the wrong direction (0)$" "$tmp/same.txt" || bad "same preset: no misses"
grep -q "^# Not timed (1): val_hist N=4096,BLOCKS=4,BINS=8 sort$" "$tmp/same.txt" || bad "the skipped variant listed"
grep -Eq "^PASS direction right +100.0% \(needs >= 95%\)$" "$tmp/same.txt" || bad "direction line"
# --errors: the error per bound beside a preset, quoted by predict's confidence line.
cp "$src/sim/presets/h100.gpu" "$tmp/h.gpu"
"$ws" predict tree_reduction -D BLOCKS=8 --preset "$tmp/h.gpu" --quiet > "$tmp/p0.txt" 2>&1
grep -q "^  confidence, sequential: set by dependent-latency chains; .*error on kernels they were not fitted to: not measured yet (no validation file beside the preset: bench/validate.py report --errors)$" "$tmp/p0.txt" ||
    bad "predict without a validation file: $(grep 'confidence, seq' "$tmp/p0.txt")"
python3 "$src/bench/validate.py" report "$ws" "$tmp/rec.json" "$tmp/h.gpu" "$tmp/h.txt" --jobs 2 \
    --errors "$tmp/h.validation" > /dev/null 2>&1 || bad "report --errors"
grep -Eq "^absolute latency [0-9]+ [0-9]+ 1.000 1.000 1.000$" "$tmp/h.validation" || bad "h.validation: $(cat "$tmp/h.validation")"
grep -Eq "^ratio all 4 4 1.000 1.000 1.000$" "$tmp/h.validation" || bad "h.validation ratios: $(cat "$tmp/h.validation")"
"$ws" predict tree_reduction -D BLOCKS=8 --preset "$tmp/h.gpu" --quiet > "$tmp/p1.txt" 2>&1
grep -Eq "^  confidence, sequential: set by dependent-latency chains; .*error on kernels they were not fitted to: on the validation set, ([0-9]+) of \1 launches it bounds within 1.5x \(predicted/measured median 1.00, 90% within 1.00x, worst 1.0x\), [0-9]+ of [0-9]+ time ratios within 1.5x" "$tmp/p1.txt" ||
    bad "predict with a validation file: $(grep 'confidence, seq' "$tmp/p1.txt")"
# --unseen-errors: the launches' error as the file's unseen rows, the other rows kept, and
# predict quotes them after the validation set's; a later --errors keeps the unseen rows.
python3 "$src/bench/validate.py" report "$ws" "$tmp/rec.json" "$tmp/h.gpu" "$tmp/hu.txt" --jobs 2 \
    --unseen-errors "$tmp/h.validation" > /dev/null 2>&1 || bad "report --unseen-errors"
grep -Eq "^unseen latency [0-9]+ [0-9]+ 1.000 1.000 1.000$" "$tmp/h.validation" &&
    grep -Eq "^absolute latency [0-9]+ [0-9]+ 1.000 1.000 1.000$" "$tmp/h.validation" &&
    ! grep -q "^unseen.* ratio" "$tmp/h.validation" || bad "h.validation with unseen rows: $(cat "$tmp/h.validation")"
"$ws" predict tree_reduction -D BLOCKS=8 --preset "$tmp/h.gpu" --quiet > "$tmp/p3.txt" 2>&1
grep -Eq "^  confidence, sequential: .*time ratios within 1.5x \(90% within 1.00x\); on the unseen kernels, ([0-9]+) of \1 launches it bounds within 1.5x \(median 1.00, worst 1.0x\)" "$tmp/p3.txt" ||
    bad "predict quotes the unseen rows: $(grep 'confidence, seq' "$tmp/p3.txt")"
python3 "$src/bench/validate.py" report "$ws" "$tmp/rec.json" "$tmp/h.gpu" "$tmp/h.txt" --jobs 2 \
    --errors "$tmp/h.validation" > /dev/null 2>&1 || bad "report --errors again"
[ "$(grep -c "^unseen " "$tmp/h.validation")" -ge 2 ] && [ "$(grep -c "^absolute all" "$tmp/h.validation")" -eq 1 ] ||
    bad "--errors keeps the unseen rows once: $(cat "$tmp/h.validation")"
grep -v "^absolute latency" "$tmp/h.validation" > "$tmp/h2" && mv "$tmp/h2" "$tmp/h.validation"
"$ws" predict tree_reduction -D BLOCKS=8 --preset "$tmp/h.gpu" --quiet > "$tmp/p2.txt" 2>&1
grep -Eq "not fitted to: not measured for it \(no validation launch is latency-bound\); on the unseen kernels, ([0-9]+) of \1 launches it bounds within 1.5x" "$tmp/p2.txt" ||
    bad "predict, a bound the validation file lacks (the unseen rows quoted): $(grep 'confidence, seq' "$tmp/p2.txt")"
# A preset with 3x the ALU latency and 4x the launch overhead: absolute times miss by name.
sed -e 's/^latency.alu = [0-9.]*/latency.alu = 18/; s/^launch_overhead_ns = [0-9.]*/launch_overhead_ns = 40000/' \
    "$src/sim/presets/h100.gpu" > "$tmp/slow.gpu"
python3 "$src/bench/validate.py" report "$ws" "$tmp/rec.json" "$tmp/slow.gpu" "$tmp/slow.txt" \
    --jobs 2 > "$tmp/r2.log" 2>&1 || { cat "$tmp/r2.log"; bad "report against another preset"; }
grep -q "^FAIL absolute time within 1.5x" "$tmp/slow.txt" || bad "slow preset: absolute times fail"
grep -q "^validation: FAIL$" "$tmp/slow.txt" || bad "slow preset: the validation fails"
grep -Eq "^  tree_reduction BLOCKS=8 interleaved \(pred/meas [0-9.]+\)$" "$tmp/slow.txt" || bad "slow preset: the missed launch named"
# Records of several trials a point (--trials): the GPU's own spread is listed, and a missed
# launch says how far its trials spread.
python3 - "$tmp/rec.json" "$tmp/rec3.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
for p in r["points"]:
    p["trials"] = 3
    p["spread_ns"] = {v: [t, t * (1.6 if v == "interleaved" else 1.1)] for v, t in p["times_ns"].items() if t}
json.dump(r, open(sys.argv[2], "w"))
PY
python3 "$src/bench/validate.py" report "$ws" "$tmp/rec3.json" "$tmp/slow.gpu" "$tmp/slow3.txt" \
    --jobs 2 > /dev/null 2>&1 || bad "report of records with trials"
grep -Eq "^# The GPU against itself: each launch timed in 3 separate processes \(median used above\); 1 of [0-9]+ launches span more than 1.25x across them, the widest tree_reduction BLOCKS=8 interleaved \(1.60x\)$" "$tmp/slow3.txt" ||
    bad "the GPU's spread: $(grep -A2 'against itself' "$tmp/slow3.txt")"
grep -Eq "^  tree_reduction BLOCKS=8 interleaved \(pred/meas [0-9.]+; the GPU's 3 trials span 1.60x\)$" "$tmp/slow3.txt" ||
    bad "a missed launch with its spread: $(grep 'interleaved (pred' "$tmp/slow3.txt")"
# Errors, one line each.
printf 'tree_reduction BLOCKS=8\n' > "$tmp/bad1.txt"
python3 "$src/bench/validate.py" measure "$ws" "$tmp/bad1.txt" "$tmp/x.json" > "$tmp/e1" 2>&1 && bad "a short points line fails"
grep -q "^validate: $tmp/bad1.txt:1: want 'WORKLOAD SIZE REPEAT \[skip=V,...\] \[base=V\]'$" "$tmp/e1" || bad "short line: $(cat "$tmp/e1")"
printf 'tree_reduction - 2 skip=nosuch\n' > "$tmp/bad2.txt"
python3 "$src/bench/validate.py" measure "$ws" "$tmp/bad2.txt" "$tmp/x.json" > "$tmp/e2" 2>&1 && bad "an unknown variant fails"
grep -q "^validate: $tmp/bad2.txt:1: tree_reduction has no variant 'nosuch' (interleaved sequential)$" "$tmp/e2" || bad "unknown variant: $(cat "$tmp/e2")"
printf 'no_such_workload - 2\n' > "$tmp/bad3.txt"
python3 "$src/bench/validate.py" measure "$ws" "$tmp/bad3.txt" "$tmp/x.json" > "$tmp/e3" 2>&1 && bad "an unknown workload fails"
grep -q "^validate: no spec 'no_such_workload' (looked for .*kernels/no_such_workload.spec)$" "$tmp/e3" || bad "unknown workload: $(cat "$tmp/e3")"
printf 'tree_reduction - 2 frob=1\n' > "$tmp/bad4.txt"
python3 "$src/bench/validate.py" measure "$ws" "$tmp/bad4.txt" "$tmp/x.json" > "$tmp/e4" 2>&1 && bad "an unknown point option fails"
grep -q "^validate: $tmp/bad4.txt:1: unknown option 'frob=1' (skip=, base=)$" "$tmp/e4" || bad "unknown point option: $(cat "$tmp/e4")"
python3 "$src/bench/validate.py" report "$ws" "$tmp/rec.json" > "$tmp/e5" 2>&1 && bad "report without its arguments fails"
grep -q "^validate: usage: validate.py measure" "$tmp/e5" || bad "usage: $(cat "$tmp/e5")"
python3 "$src/bench/validate.py" report "$ws" "$tmp/rec.json" x y --frob 1 > "$tmp/e6" 2>&1 && bad "an unknown option fails"
grep -q "^validate: unknown option '--frob'" "$tmp/e6" || bad "unknown option: $(cat "$tmp/e6")"
bash "$src/bench/validate.sh" "$build" "$tmp/x.json" --frob > "$tmp/e7" 2>&1 && bad "validate.sh: an unknown option fails"
grep -q "^validate.sh: unknown option '--frob'$" "$tmp/e7" || bad "validate.sh unknown option: $(cat "$tmp/e7")"
# The shipped points list parses (every workload, variant and option exists).
python3 -c "import sys; sys.path.insert(0, '$src/bench'); import validate; p = validate.read_points('$src/bench/validation/points.txt'); assert len(p) >= 40, len(p)" ||
    bad "bench/validation/points.txt parses"
[ $fail = 0 ] && echo "validate: ok" || { echo "validate: $fail failed"; exit 1; }

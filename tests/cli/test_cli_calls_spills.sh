# test_cli_calls_spills.sh — what calls and spills cost in the timing model.
# Each SASS CALL and RET holds the warp branch.call_cycles (fitted to one warp's
# bench/calib call_chain): four of them add four holds. Stores go through L1 to the L2
# (local ones too: a spill, a call's saved registers) as write requests, and enter it in
# 64-byte beats, each line's written sectors in twos; the timing model bounds them by the
# L2's rate for those (mem.l2_write_beats_per_cycle, fitted to bench/calib local_spill alone):
# - the write requests and beats, counted by hand from the lanes and the per-lane interleave
#   of local memory, are sim__l2_write_requests and sim__l2_write_beats: a 4-byte STL of one
#   word of up to 32 lanes' frames is one request and two beats, and 20 lanes' STL.128 (in
#   quarter warps) three requests and eight beats;
# - a spill-bound launch is limited by that bound;
# - on local_scatter (each STL a sector of 32 lines) and local_sparse (one lane a warp: a
#   sector of one line), which the fit never saw, the model's time at 132 CTAs of 1024 is
#   within 10 % of an H200's; when the bound counted one request for up to 4 lines they
#   read 0.5 and 1.9;
# - on call_chain (a recursion: five STL and five LDL a call), which the fit never saw, the
#   model's time at 528 CTAs of 128 is within 15 % of an H200's
#   (bench/records/calib-local-h200.txt); it was 0.23 of it before stores were bounded;
# - the write requests equal Nsight Compute's L1 store wavefronts on saved H200 outputs
#   (bench/store_requests.py on bench/records/ncu-stalls-unseen-h200.tar.xz) within 15 % for
#   eight unseen kernels that store in different shapes: doubles, strided and divergent
#   stores, warp-per-row results; and the script rejects a bad option.
# Usage: sh test_cli_calls_spills.sh PATH/TO/warpscope
ws="$1"
. "$(dirname "$0")/cli_lib.sh"
src=${WS_SOURCE_DIR:-$(cd "$(dirname "$0")/../.." && pwd)}
spec=$src/bench/calib/calib.spec

# metric NAME FILE: one metric of a `sim --json` run.
metric() {
  python3 -c 'import json,sys; print(json.loads(open(sys.argv[2]).readline())["metrics"][sys.argv[1]])' "$1" "$2" 2>/dev/null
}
sim() { # sim OUT PRESET VARIANT DEFINES...
  o=$1 p=$2 v=$3; shift 3
  "$ws" sim "$spec" --variant "$v" "$@" --model sass --timing --preset "$p" --json --no-db \
      --no-races --quiet >"$o" 2>"$o.err"
}

# One warp, two calls and two returns: branch.call_cycles 0 -> 100 adds four holds of the
# warp, less what they overlap (each is at least 90 % a branch stall).
for v in 0 100; do
  sed "s/^branch.call_cycles = .*/branch.call_cycles = $v/" "$src/tests/timing/mech.gpu" >"$tmp/call$v.gpu"
  sim "$tmp/k$v.json" "$tmp/call$v.gpu" call_chain -D ITERS=1 -D REPS=1
done
d=$(python3 -c 'import sys; print(float(sys.argv[2]) - float(sys.argv[1]))' \
    "$(metric sim__stall_branch_cycles "$tmp/k0.json")" "$(metric sim__stall_branch_cycles "$tmp/k100.json")" 2>/dev/null)
check 'python3 -c "import sys; sys.exit(not 360 <= float(sys.argv[1]) <= 400)" "$d"' \
  "four CALL/RET holds of 100 cycles: the branch stall grew by ${d:-nothing} $(head -c 200 "$tmp/k100.json.err")"

# One warp, one call of depth 1 (two calls): 10 STL of 32 lanes x 4 bytes (a line each) and
# the result's STG (one line): 11 requests, 22 beats, and 44 sectors of 32 bytes.
sim "$tmp/c.json" "$src/tests/timing/mech.gpu" call_chain -D ITERS=1 -D REPS=1
check '[ "$(metric sim__l2_write_requests "$tmp/c.json")" = "11" ] && [ "$(metric sim__l2_write_beats "$tmp/c.json")" = "22" ] && [ "$(metric sim__l2_bytes "$tmp/c.json")" = "1408" ]' \
  "call_chain, one warp: write requests $(metric sim__l2_write_requests "$tmp/c.json") (want 11), beats $(metric sim__l2_write_beats "$tmp/c.json") (want 22), L2 bytes $(metric sim__l2_bytes "$tmp/c.json") (want 1408) $(head -c 200 "$tmp/c.json.err")"

# 20 lanes, local memory as the hardware lays it out (word k of lane l's frame at
# k x 128 + l x 4): the ring's 8 STL.128 (a lane's four words on four lines; lanes 0-7,
# 8-15 and 16-19 a sector of each: 12 sectors; a request for each quarter warp: 3; each
# line's 3 sectors two beats: 8), 6 STL of 4 bytes (one line, 3 sectors, one request, two
# beats) and the STG of 80 bytes (one line, 3 sectors): 31 requests, 78 beats and 117
# sectors.
sim "$tmp/s.json" "$src/tests/timing/mech.gpu" local_spill -D THREADS=20 -D ITERS=2 -D REPS=3
check '[ "$(metric sim__l2_write_requests "$tmp/s.json")" = "31" ] && [ "$(metric sim__l2_write_beats "$tmp/s.json")" = "78" ] && [ "$(metric sim__l2_bytes "$tmp/s.json")" = "3744" ]' \
  "local_spill, 20 lanes: write requests $(metric sim__l2_write_requests "$tmp/s.json") (want 31), beats $(metric sim__l2_write_beats "$tmp/s.json") (want 78), L2 bytes $(metric sim__l2_bytes "$tmp/s.json") (want 3744) $(head -c 200 "$tmp/s.json.err")"

# Spills from 32 warps on each SM: the L2's input is the limiter, and the bound is the
# stores' beats at mem.l2_write_beats_per_cycle (the time that, and what the SM's bound adds
# where the two overlap only in part: bound.overlap).
sim "$tmp/b.json" h200 local_spill -D CTAS=132 -D THREADS=1024 -D ITERS=4 -D REPS=16
check 'python3 - "$tmp/b.json" "$src/sim/presets/h200.gpu" <<PY
import json, re, sys
m = json.loads(open(sys.argv[1]).readline())["metrics"]
rate = float(re.search(r"^mem.l2_write_beats_per_cycle = ([0-9.]+)", open(sys.argv[2]).read(), re.M).group(1))
want = m["sim__l2_write_beats"] / rate
others = [v for k, v in m.items() if k.startswith("sim__bound_") and k not in
          ("sim__bound_l2_cycles", "sim__bound_overlap_cycles")]
# the time is that bound, and what the other bounds add where they overlap only in part
sys.exit(not (abs(m["sim__bound_l2_cycles"] / want - 1) < 1e-6 and
              m["sim__bound_l2_cycles"] > max(others) and
              abs(m["sim__cycles"] - m["sim__bound_overlap_cycles"] - m["sim__bound_l2_cycles"]) <
              1e-6 * m["sim__cycles"]))
PY' "local_spill at 132 x 1024: the L2 write bound is not the limiter: $(head -c 300 "$tmp/b.json.err")"

# Held out: local_scatter (each STL a sector of each of 32 lines) and local_sparse (one lane a
# warp: each STL one sector of one line) at 132 CTAs of 1024 against the H200's times: a
# beat a line, where local_spill's whole lines are 2.
for v in local_scatter local_sparse; do
  gpu=$(awk -v v=$v '$1 == v && $2 == "CTAS=132" && $3 == "THREADS=1024" && $5 == "REPS=16" {print $6}' \
        "$src/bench/records/calib-local-h200.txt")
  sim "$tmp/x.json" h200 $v -D CTAS=132 -D THREADS=1024 -D ITERS=64 -D REPS=16
  pred=$(metric sim__time_ns "$tmp/x.json")
  check 'python3 -c "import sys; sys.exit(abs(float(sys.argv[1]) / float(sys.argv[2]) - 1) > 0.10)" "$pred" "$gpu"' \
    "$v at 132 x 1024: model ${pred:-none} ns, H200 ${gpu:-none} ns $(head -c 200 "$tmp/x.json.err")"
  echo "$v at 132 x 1024: model $pred ns, H200 $gpu ns"
done

# Held out: call_chain at 528 CTAs of 128 threads against the H200's time.
gpu=$(awk '$1 == "call_chain" && $2 == "CTAS=528" && $3 == "THREADS=128" && $5 == "REPS=8" {print $6}' \
      "$src/bench/records/calib-local-h200.txt")
sim "$tmp/h.json" h200 call_chain -D CTAS=528 -D THREADS=128 -D ITERS=64 -D REPS=8
pred=$(metric sim__time_ns "$tmp/h.json")
check 'python3 -c "import sys; sys.exit(abs(float(sys.argv[1]) / float(sys.argv[2]) - 1) > 0.15)" "$pred" "$gpu"' \
  "call_chain at 528 x 128: model ${pred:-none} ns, H200 ${gpu:-none} ns $(head -c 200 "$tmp/h.json.err")"
echo "call_chain at 528 x 128: model $pred ns, H200 $gpu ns"

# Write requests against Nsight Compute's store wavefronts.
tar xJf "$src/bench/records/ncu-stalls-unseen-h200.tar.xz" -C "$tmp"
python3 "$src/bench/store_requests.py" "$ws" "$tmp" h200 -D BLOCKS=528 \
    --only '^(rle_expand|nbody|ddiv_sqrt|blelloch_scan|bfs_expand|spmv_warp|newton_sqrt|transpose_tile)$' \
    >"$tmp/r" 2>&1
rc=$?
check '[ $rc -eq 0 ] && grep -q "^8 kernels: 8 store on both sides" "$tmp/r" && [ $(grep -c "model/ncu [0-9]" "$tmp/r") -eq 8 ] &&
       awk "/model\/ncu [0-9]/ { r = \$NF; if (r < 0.85 || r > 1.15) bad = 1 } END { exit bad }" "$tmp/r"' \
  "store requests against Nsight Compute: rc $rc, $(cat "$tmp/r")"
cat "$tmp/r"
python3 "$src/bench/store_requests.py" "$ws" "$tmp" h200 --bogus >"$tmp/e" 2>&1
check '[ $? -eq 1 ] && grep -q "^store_requests: unknown option .--bogus." "$tmp/e"' "a bad option: $(cat "$tmp/e")"
# --only matching nothing: no kernel with both counts, one line saying so and exit 1
python3 "$src/bench/store_requests.py" "$ws" "$tmp" h200 --only '^no_such_kernel$' >"$tmp/n" 2>&1
check '[ $? -eq 1 ] && grep -q "^store_requests: no kernel with both counts under " "$tmp/n"' \
  "no kernel matched: $(cat "$tmp/n")"

echo "test_cli_calls_spills: $pass passed, $fail failed"
[ $fail -eq 0 ]

# test_cli_ncu_stalls.sh — bench/ncu_stalls.sh without a GPU: the summary line of saved
# Nsight Compute output (bench/records/ncu-stalls-h200.tgz, an H200's) is what
# docs/results/validation-h200.txt quotes; a file with no kernel section, a bad command line
# and a run where ncu is missing or cannot profile each fail with one line naming why; the
# SASS model's wait a warp-instruction (ptxas's stall counts) is within 15 % of theirs
# (52 more kernels: test_cli_stall_wait.sh).
# Usage: sh test_cli_ncu_stalls.sh PATH/TO/warpscope
ws="$1"
. "$(dirname "$0")/cli_lib.sh"
src=${WS_SOURCE_DIR:-$(cd "$(dirname "$0")/../.." && pwd)}
sh_=$src/bench/ncu_stalls.sh

tar xzf "$src/bench/records/ncu-stalls-h200.tgz" -C "$tmp"
bash "$sh_" --summary "$tmp/ncu-early_exit_search.txt" early_exit_search >"$tmp/s" 2>&1
check '[ $? -eq 0 ] && grep -q "^early_exit_search early_exit_search: duration 88.58 us, 13.34 cycles/issue (long sb 5.15, wait 6.28, short sb 0.03), 3.32 warps/scheduler" "$tmp/s"' \
  "summary of early_exit_search: $(cat "$tmp/s")"
bash "$sh_" --summary "$tmp/ncu-nbody.txt" nbody >"$tmp/s" 2>&1
check 'grep -q "wait 3.14, short sb 1.58), 1.00 warps/scheduler, L1 hits: global loads 11.11 %" "$tmp/s"' \
  "summary of nbody: $(cat "$tmp/s")"

# The SASS model's "wait" (ptxas's stall counts, sim__stall_wait_cycles a warp-instruction)
# against Nsight Compute's on the same five launches, within 15 %: the control bits are read
# and priced as the hardware spends them.
for k in "unseen local_sort BLOCKS=528" "unseen early_exit_search BLOCKS=528" \
         "unseen recurse BLOCKS=528" "unseen3 curand_pi BLOCKS=528" "unseen4 nbody BLOCKS=8"; do
  set -- $k
  bash "$sh_" --summary "$tmp/ncu-$2.txt" "$2" >"$tmp/s" 2>&1
  gpu=$(sed -n 's/.*, wait \([0-9.]*\),.*/\1/p' "$tmp/s")
  "$ws" sim "$src/bench/unseen/$1.spec" --variant "$2" -D "$3" --model sass --timing \
      --preset h200 --json --no-db --no-races --quiet >"$tmp/m.json" 2>"$tmp/m.err"
  model=$(python3 -c 'import json,sys; m=json.loads(open(sys.argv[1]).readline())["metrics"]
print("%.2f" % (m["sim__stall_wait_cycles"] / m["smsp__inst_executed.sum"]))' "$tmp/m.json" 2>/dev/null)
  check 'python3 -c "import sys; g, m = float(sys.argv[1]), float(sys.argv[2]); sys.exit(abs(m / g - 1) > 0.15)" "$gpu" "$model"' \
    "$2: wait cycles a warp-instruction, model ${model:-none} ($(head -c 200 "$tmp/m.err")), Nsight Compute ${gpu:-none}"
  echo "$2: wait a warp-instruction: model $model, Nsight Compute $gpu"
done

: >"$tmp/empty"
bash "$sh_" --summary "$tmp/empty" x >"$tmp/e" 2>&1
check '[ $? -eq 1 ] && grep -q "^ncu_stalls: no kernel section in" "$tmp/e" && [ $(wc -l <"$tmp/e") -eq 1 ]' \
  "a file without a kernel: $(cat "$tmp/e")"
bash "$sh_" >"$tmp/u" 2>&1
check '[ $? -eq 2 ] && grep -q "^usage: bench/ncu_stalls.sh" "$tmp/u"' "no arguments: $(cat "$tmp/u")"

# No GPU here: ncu is missing, or it runs and cannot profile; either is one line, exit 1.
bash "$sh_" "$(dirname "$ws")" "$tmp/out" "$src/bench/unseen/unseen.spec" local_sort >"$tmp/g" 2>&1
rc=$?
if [ -e /dev/nvidiactl ]; then
  echo "test_cli_ncu_stalls: a GPU is present; the no-GPU error is not checked here"
else
  check '[ $rc -eq 1 ] && grep -Eq "^ncu_stalls: (no ncu \(Nsight Compute\) found|ncu failed on local_sort)" "$tmp/g" && [ $(wc -l <"$tmp/g") -eq 1 ]' \
    "the run without a GPU: rc $rc, $(cat "$tmp/g")"
fi
echo "test_cli_ncu_stalls: $pass passed, $fail failed"
[ $fail -eq 0 ]

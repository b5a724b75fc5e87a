# test_cli_ncu_stalls.sh — bench/ncu_stalls.sh without a GPU: the summary line of saved
# Nsight Compute output (bench/records/ncu-stalls-h200.tgz, an H200's) is what
# docs/results/validation-h200.txt quotes; a file with no kernel section, a bad command line
# and a run where ncu is missing or cannot profile each fail with one line naming why.
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

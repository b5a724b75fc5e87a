# test_cli_stall_wait.sh — bench/stall_wait.py without a GPU: the SASS model's wait a
# warp-instruction (ptxas's stall counts, sim__stall_wait_cycles) against Nsight Compute's
# Stall Wait on 52 kernels that played no part in the control-bit work (unseen2, unseen4,
# unseen5 at 528 CTAs; the H200's outputs in bench/records/ncu-stalls-unseen-h200.tar.xz):
# the median ratio within 0.85-1.1 and at least 45 within 25 %; and the script's usage, bad
# option and empty-directory errors.
# Labelled slow (57 simulations of 528 CTAs): the sanitizer stage skips it.
# Usage: sh test_cli_stall_wait.sh PATH/TO/warpscope
ws="$1"
. "$(dirname "$0")/cli_lib.sh"
src=${WS_SOURCE_DIR:-$(cd "$(dirname "$0")/../.." && pwd)}

mkdir -p "$tmp/unseen" && tar xJf "$src/bench/records/ncu-stalls-unseen-h200.tar.xz" -C "$tmp/unseen"
python3 "$src/bench/stall_wait.py" "$ws" "$tmp/unseen" h200 -D BLOCKS=528 >"$tmp/sw" 2>&1
rc=$?
grep "kernels:" "$tmp/sw"
check '[ $rc -eq 0 ] && python3 - "$tmp/sw" <<PY
import re, sys
m = re.search(r"^(\d+) kernels: model/ncu wait median ([\d.]+) .*within 25 %: (\d+)$", open(sys.argv[1]).read(), re.M)
n, med, w25 = int(m.group(1)), float(m.group(2)), int(m.group(3))
sys.exit(not (n == 52 and 0.85 <= med <= 1.1 and w25 >= 45))
PY' "stall_wait.py on the unseen kernels: rc $rc, $(grep "kernels:" "$tmp/sw")"
python3 "$src/bench/stall_wait.py" "$ws" "$tmp/unseen" >"$tmp/su" 2>&1
check '[ $? -ne 0 ] && grep -q "^usage: bench/stall_wait.py" "$tmp/su"' "stall_wait.py usage: $(cat "$tmp/su")"
python3 "$src/bench/stall_wait.py" "$ws" "$tmp/unseen" h200 --bogus >"$tmp/so" 2>&1
check '[ $? -ne 0 ] && grep -q "^stall_wait: unknown option .--bogus." "$tmp/so"' "stall_wait.py bad option: $(head -1 "$tmp/so")"
mkdir -p "$tmp/none"
python3 "$src/bench/stall_wait.py" "$ws" "$tmp/none" h200 >"$tmp/sn" 2>&1
check '[ $? -ne 0 ] && grep -q "^stall_wait: no kernel with both figures under" "$tmp/sn"' "stall_wait.py on no outputs: $(cat "$tmp/sn")"

echo "test_cli_stall_wait: $pass passed, $fail failed"
[ $fail -eq 0 ]

# test_cli_fchk.sh — bench/fchk.py against the SASS model: the model's dump of
# bench/fchk/fchk.spec (2^19 divisions over every pair of exponent fields; its clock counts
# issued instructions, so the slow path shows) agrees with the H200's records
# (bench/records/fchk-h200.txt) in every uniform cell; a records file with one cell changed
# makes `compare` exit 1 naming that cell; a bad command line prints the usage and fails.
# Usage: sh test_cli_fchk.sh PATH/TO/warpscope
ws="$1"
. "$(dirname "$0")/cli_lib.sh"
src=${WS_SOURCE_DIR:-$(cd "$(dirname "$0")/../.." && pwd)}
rec="$src/bench/records/fchk-h200.txt"

if ! "$ws" sim "$src/bench/fchk/fchk.spec" --model sass --no-db --dump "$tmp/d" --quiet \
    >"$tmp/sim.out" 2>"$tmp/sim.err"; then
  if grep -q "nvdisasm" "$tmp/sim.err"; then
    echo "test_cli_fchk: skipped: no nvdisasm ($(head -n 1 "$tmp/sim.err"))"
    exit 0
  fi
  bad "fchk.spec on the SASS model: $(head -n 2 "$tmp/sim.err")"
fi
python3 "$src/bench/fchk.py" compare "$rec" "$tmp/d" >"$tmp/cmp" 2>&1
rc=$?
check '[ $rc -eq 0 ]' "the model's FCHK differs from the H200's: $(head -n 3 "$tmp/cmp")"
check 'grep -q "^65533 of 65533 cells as on the GPU" "$tmp/cmp"' "every uniform cell compared: $(tail -n 1 "$tmp/cmp")"
# a zero dividend over a divisor field of 100 is slow on the GPU: record it as fast
sed 's/^0: 0-255$/0: 0-99 101-255/' "$rec" >"$tmp/rec"
check '! cmp -s "$rec" "$tmp/rec"' "the edit changed the records"
python3 "$src/bench/fchk.py" compare "$tmp/rec" "$tmp/d" >"$tmp/cmp2" 2>&1
rc=$?
check '[ $rc -eq 1 ]' "a changed cell fails compare: rc $rc"
check 'grep -q "^cell a 0 b 100: 8 of 8 slow in the model, none on the GPU" "$tmp/cmp2"' "the changed cell is named: $(head -n 1 "$tmp/cmp2")"
python3 "$src/bench/fchk.py" frobnicate >"$tmp/use" 2>&1
rc=$?
check '[ $rc -ne 0 ] && grep -q "fchk.py compare RECORDS DIR" "$tmp/use"' "a bad command prints the usage and fails: rc $rc"
echo "test_cli_fchk: $pass passed, $fail failed"
[ $fail -eq 0 ]

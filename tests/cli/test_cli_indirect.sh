# test_cli_indirect.sh — indirect transfers on the SASS model against the GPU's counts:
# every variant of tests/gpu/indirect.spec (calls through function pointers, BRX, returns to
# several call sites, the warp's lanes split over 1-4 targets) gives the kernel totals an
# H200 measured (tests/gpu/indirect-h200.txt: warp- and thread-instructions, branch targets,
# divergent targets), which count each further target as a pass of its own.
# Usage: sh test_cli_indirect.sh PATH/TO/warpscope
ws="$1"
. "$(dirname "$0")/cli_lib.sh"
src=${WS_SOURCE_DIR:-$(cd "$(dirname "$0")/../.." && pwd)}

if ! "$ws" sim "$src/tests/gpu/indirect.spec" --model sass --no-db --json --quiet \
    >"$tmp/ind.json" 2>"$tmp/ind.err"; then
  if grep -q "nvdisasm" "$tmp/ind.err"; then
    echo "test_cli_indirect: skipped: no nvdisasm ($(head -n 1 "$tmp/ind.err"))"
    exit 0
  fi
  bad "indirect.spec on the SASS model: $(head -n 1 "$tmp/ind.err")"
fi
python3 "$src/bench/pc_records.py" totals-check "$src/tests/gpu/indirect-h200.txt" "$tmp/ind.json" \
    >"$tmp/diff" 2>&1
rc=$?
check '[ $rc -eq 0 ]' "SASS model totals differ from the H200's: $(cat "$tmp/diff")"
check 'grep -q "^50 of 50 variants equal" "$tmp/diff"' "all 50 variants compared: $(tail -n 1 "$tmp/diff")"
echo "test_cli_indirect: $pass passed, $fail failed"
[ $fail -eq 0 ]

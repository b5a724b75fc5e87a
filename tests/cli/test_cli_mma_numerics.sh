# test_cli_mma_numerics.sh — the SASS model's tensor-core sums against an H200's, with no
# GPU: tests/gpu/mma_numerics.spec (64 random tiles each of f16 and bf16 into f32, tf32 into
# f32 and f16 into f16, exponents spread over 2^-15..2^16) dumped by `sim --model sass`, and
# each output buffer's SHA-256 equal to the H200's (tests/gpu/mma-numerics-h200.txt). Summed
# in double and rounded to nearest once, as the model did before, 8065 of the 16384 f16
# outputs differed.
# Usage: sh test_cli_mma_numerics.sh PATH/TO/warpscope
ws="$1"
. "$(dirname "$0")/cli_lib.sh"
src=${WS_SOURCE_DIR:-$(cd "$(dirname "$0")/../.." && pwd)}
if ! "$ws" sim "$src/tests/gpu/mma_numerics.spec" --model sass --no-db --dump "$tmp/d" --quiet \
    >"$tmp/sim.out" 2>"$tmp/sim.err"; then
  if grep -q "nvdisasm" "$tmp/sim.err"; then
    echo "test_cli_mma_numerics: skipped: no nvdisasm ($(head -n 1 "$tmp/sim.err"))"
    exit 0
  fi
  bad "mma_numerics.spec on the SASS model: $(head -n 2 "$tmp/sim.err")"
fi
n=0
while read -r buf want; do
  case $buf in '#'*|'') continue ;; esac
  got=$(sha256sum "$tmp/d/tiles.$buf.bin" 2>/dev/null | cut -d' ' -f1)
  check '[ "$got" = "$want" ]' "$buf: the SASS model's tiles differ from the H200's (sha256 $got)"
  n=$((n + 1))
done < "$src/tests/gpu/mma-numerics-h200.txt"
check '[ $n -eq 4 ]' "four buffers recorded, not $n"
echo "test_cli_mma_numerics: $pass passed, $fail failed"
[ $fail -eq 0 ]

# test_cli_args.sh — the argument and constant forms of workload specs end to end
# (`warpscope sim`, PTX and SASS models): tests/cli/args/args.spec passes in+HALF, a
# struct by value, a real constant, N (a parameter name in args.cu, so -DWS_N only, with
# one warning line) and fills a __constant__ and a __device__ array with `symbol`; its
# output must equal the expected file. Each error is one line naming spec:line.
# Usage: sh test_cli_args.sh PATH/TO/warpscope
ws="$1"
. "$(dirname "$0")/cli_lib.sh"
src="${WS_SOURCE_DIR:-$(dirname "$0")/../..}/tests/cli/args"
cp "$src/args.cu" "$src/args.spec" "$tmp/"
# out[i] = ALPHA * in[HALF+i] * 2.0 + 3 + coef[i%4] + table[i%8] + N + BIAS2*4, i < HALF
python3 -c "
import struct, sys
v = [0.5 * (32 + i) * 2 + 3 + (1 + i % 4) + (10 + i % 8) + 64 + 1 for i in range(32)]
open(sys.argv[1], 'wb').write(struct.pack('<32f', *v))" "$tmp/expected.bin"

verdict() { python3 -c "
import json,sys
d=json.load(open(sys.argv[1])); runs=d.get('runs',[d])
print(' '.join('%s=%s' % (r['variant'], r['outputs_match']) for r in runs))" "$1"; }

models="ptx"
if "$ws" sim divergence_examples --model sass --no-db --variant tid_eq_0 --quiet >/dev/null 2>&1; then
  models="ptx sass"
else
  echo "test_cli_args: the SASS model part skipped: no nvdisasm"
fi
warn="warpscope: warning: $tmp/args.spec:5: constant 'N' is also an identifier in args.cu: passed as -DWS_N only"
for m in $models; do
  "$ws" sim "$tmp/args.spec" --model $m --no-db --json --quiet >"$tmp/$m.json" 2>"$tmp/$m.err"
  check '[ "$(verdict "$tmp/$m.json")" = "main=True" ]' \
    "$m: outputs equal the expected file: $(head -c 300 "$tmp/$m.err") $(verdict "$tmp/$m.json" 2>&1)"
  check '[ "$(cat "$tmp/$m.err")" = "$warn" ]' "$m: one warning line for N: $(cat "$tmp/$m.err")"
  # A real constant reaches the kernel as an argument: another ALPHA, another output.
  "$ws" sim "$tmp/args.spec" --model $m --no-db --json --quiet -D ALPHA=0.25 >"$tmp/$m.json" 2>/dev/null
  check '[ "$(verdict "$tmp/$m.json")" = "main=False" ]' "$m: -D ALPHA=0.25 changes the output"
  # ... and to nvcc as -DBIAS2=0.25 (else BIAS2*4 would add 4, not 1).
  "$ws" sim "$tmp/args.spec" --model $m --no-db --json --quiet -D BIAS2=1.0 >"$tmp/$m.json" 2>/dev/null
  check '[ "$(verdict "$tmp/$m.json")" = "main=False" ]' "$m: -D BIAS2=1.0 changes the output"
done

# expect_error MODEL SED-SCRIPT PATTERN: the spec edited by SED-SCRIPT fails in one line.
n=0
expect_error() {
  n=$((n + 1))
  sed "$2" "$tmp/args.spec" >"$tmp/e$n.spec"
  if "$ws" sim "$tmp/e$n.spec" --model "$1" --no-db >"$tmp/out" 2>&1; then
    bad "no error: $2 ($1)"; return
  fi
  grep -v "^warpscope: warning:" "$tmp/out" >"$tmp/err"
  check '[ "$(wc -l <"$tmp/err")" -eq 1 ] && grep -q -e "$3" "$tmp/err"' \
    "one-line error for '$2' ($1), want '$3': $(cat "$tmp/out")"
}
for m in $models; do
  expect_error $m 's/struct:i32=HALF,f32=2.0,i64=3/struct:i32=HALF,f32=2.0/' \
    "e[0-9]*.spec:21: variant 'main': argument 3 'struct:i32=HALF,f32=2.0' is a struct of 8 bytes (align 4) but kernel _Z7shiftedPfPKf6Paramsfi parameter 2 (_Z7shiftedPfPKf6Paramsfi_param_2) is a struct of 16 bytes (.align 8 .b8 \[16\])"
  expect_error $m 's/struct:i32=HALF,f32=2.0,i64=3/7/' \
    "e[0-9]*.spec:21: variant 'main': argument 3 '7' is a scalar but kernel .* is a struct of 16 bytes .*: pass struct:TYPE=VALUE"
  expect_error $m 's/^buffer c   f32 4 /buffer c f32 8 /' \
    "e[0-9]*.spec:13: symbol 'coef' is 16 bytes in args.cu but buffer 'c' is 32 bytes (8 f32)"
  expect_error $m 's/^symbol table t/symbol tabel t/' \
    "e[0-9]*.spec:14: symbol 'tabel': args.cu has no __constant__ or __device__ variable 'tabel' (variables: coef, table)"
done
expect_error ptx 's/in+HALF/in+N+1/' \
  "e[0-9]*.spec:21: variant 'main': argument 'in+N+1': offset 65 is past the end of buffer 'in' (64 elements)"
expect_error ptx 's/^buffer out f32 N\/2/buffer out f32 ALPHA*2/' \
  "e[0-9]*.spec:9: .*constant 'ALPHA' is the real number 0.5, not an integer"
expect_error ptx 's/^symbol table t/symbol table nobuf/' \
  "e[0-9]*.spec:14: symbol 'table': unknown buffer 'nobuf'"
expect_error ptx 's/struct:i32=HALF,f32=2.0,i64=3/struct:i32=HALF,f16=1/' \
  "e[0-9]*.spec:21: .*field 2 has unknown type 'f16'"

echo "test_cli_args: $pass passed, $fail failed"
[ "$fail" -eq 0 ]

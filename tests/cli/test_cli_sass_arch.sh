# test_cli_sass_arch.sh — `sim --model sass --arch sm_XX` on the architectures before Hopper:
# every seed workload, at a small size, compiled for the target by nvcc (its __CUDA_ARCH__ and
# PTX features), assembled by ptxas and disassembled by nvdisasm, runs to the same output
# verdicts as on sm_90. Turing's SASS addresses global memory as [R2.64+UR4] with a 64-bit
# uniform base (sm_80+ write desc[UR][R2.64]); a wrong address faults or reads wrong data.
# The run records the architecture it used. sm_70 names the toolkit it would need.
# Usage: sh test_cli_sass_arch.sh PATH/TO/warpscope
ws="$1"
. "$(dirname "$0")/cli_lib.sh"

if ! "$ws" sim divergence_examples --model sass --no-db --variant tid_eq_0 >"$tmp/probe" 2>&1 &&
   grep -q "nvdisasm" "$tmp/probe"; then
  echo "test_cli_sass_arch: skipped: no nvdisasm ($(head -n 1 "$tmp/probe"))"
  exit 0
fi

set -- "bfs -D N=1024" "bitonic_sort -D LOG2N=7 -D LOG2S=6 -D THREADS=32" \
       "branch_unification -D LOOP=10 -D BLOCKS=4 -D DPT=4" \
       "byte_histogram" "divergence_examples" \
       "dynamic_assignment -D BLOCKS=4 -D APB=256 -D LOOP_NUM=2 -D TRIP_SCALE=64" \
       "himeno -D IMAX=8 -D JMAX=8 -D KMAX=32 -D THREADS=32" \
       "histogram -D N=20000 -D TOTAL_THREADS=2048 -D BINS=10" \
       "hotspot" "naive_reduction" "needleman_wunsch" "predication" "shuffle_reduction" \
       "tree_reduction"
verdicts() { python3 -c "
import json,sys
d=json.load(open(sys.argv[1])); runs=d.get('runs',[d])
print(' '.join('%s=%s' % (r['variant'], r['outputs_match']) for r in runs))
print(' '.join(sorted({r.get('device', {}).get('arch', '?') for r in runs})))" "$1"; }
for w in "$@"; do
  name=${w%% *}
  # shellcheck disable=SC2086
  "$ws" sim $w --model sass --no-db --json --quiet >"$tmp/90.json" 2>"$tmp/90.err"
  if ! [ -s "$tmp/90.json" ]; then bad "$name sm_90: $(head -n 1 "$tmp/90.err")"; continue; fi
  ref=$(verdicts "$tmp/90.json" | head -n 1)
  check '! echo "$ref" | grep -q "=None"' "$name: the sm_90 run checked no outputs [$ref]"
  for arch in sm_75 sm_80 sm_86 sm_89; do
    # shellcheck disable=SC2086
    "$ws" sim $w --model sass --arch $arch --no-db --json --quiet >"$tmp/a.json" 2>"$tmp/a.err"
    if ! [ -s "$tmp/a.json" ]; then bad "$name $arch: $(head -n 1 "$tmp/a.err")"; continue; fi
    got=$(verdicts "$tmp/a.json")
    v=$(echo "$got" | head -n 1) said=$(echo "$got" | tail -n 1)
    check '[ "$v" = "$ref" ]' \
      "$name $arch: output verdicts [$v] differ from sm_90's [$ref] $(head -c 200 "$tmp/a.err")"
    check '[ "$said" = "$arch" ]' "$name $arch: the run says arch [$said]"
  done
done

# sm_70: CUDA 13 cannot build it; one line that says so and what would.
if "$ws" sim tree_reduction --model sass --arch sm_70 --no-db >"$tmp/out" 2>&1; then
  echo "test_cli_sass_arch: note: this toolkit builds sm_70"
else
  check '[ "$(wc -l <"$tmp/out")" -eq 1 ] && grep -q "sm_70.*CUDA 12" "$tmp/out"' \
    "sm_70 on CUDA 13: one line naming the toolkit: $(cat "$tmp/out")"
fi

echo "test_cli_sass_arch: $pass passed, $fail failed"
[ $fail -eq 0 ]

# test_cli_sass.sh — the SASS model end to end (`warpscope sim --model sass`): every seed
# workload, at a small size, compiled by nvcc and ptxas, disassembled by nvdisasm, runs to
# the same output verdicts as the PTX model (the CPU reference where the spec names one);
# per-instruction rows are SASS; both models find the same races; a bad --model or --arch is a
# one-line usage error.
# Usage: sh test_cli_sass.sh PATH/TO/warpscope
ws="$1"
. "$(dirname "$0")/cli_lib.sh"
export WARPSCOPE_DB="$tmp/sass.db"

if ! "$ws" sim divergence_examples --model sass --no-db --variant tid_eq_0 >"$tmp/probe" 2>&1 &&
   grep -q "nvdisasm" "$tmp/probe"; then
  echo "test_cli_sass: skipped: no nvdisasm ($(head -n 1 "$tmp/probe"))"
  exit 0
fi

# workload and the -D overrides that keep it small
set -- "branch_unification -D LOOP=10 -D BLOCKS=4 -D DPT=4" \
       "dynamic_assignment -D BLOCKS=4 -D APB=256 -D LOOP_NUM=2 -D TRIP_SCALE=64" \
       "tree_reduction" "shuffle_reduction" "naive_reduction" "predication" \
       "divergence_examples" \
       "himeno -D IMAX=8 -D JMAX=8 -D KMAX=32 -D THREADS=32" \
       "histogram -D N=20000 -D TOTAL_THREADS=2048 -D BINS=10" \
       "histogram -D N=20000 -D TOTAL_THREADS=2048 -D BINS=1 -D BIN_T=double"
races() { python3 -c "
import json,sys
d=json.load(open(sys.argv[1]))
print(' '.join('%s=%s' % (r['variant'], r['metrics'].get('sim__races')) for r in d.get('runs',[d])))" "$1"; }
for w in "$@"; do
  name=${w%% *}
  # shellcheck disable=SC2086
  if ! "$ws" sim $w --model sass --no-db --json --quiet >"$tmp/sass.json" 2>"$tmp/sass.err"; then
    bad "sass model failed on $w: $(head -n 1 "$tmp/sass.err")"
    continue
  fi
  # shellcheck disable=SC2086
  "$ws" sim $w --model ptx --no-db --json --quiet >"$tmp/ptx.json" 2>/dev/null
  verdicts() { python3 -c "
import json,sys
d=json.load(open(sys.argv[1])); runs=d.get('runs',[d])
print(' '.join('%s=%s' % (r['variant'], r['outputs_match']) for r in runs))" "$1"; }
  s=$(verdicts "$tmp/sass.json"); p=$(verdicts "$tmp/ptx.json")
  check '[ "$s" = "$p" ]' "$name: output verdicts differ between models: sass [$s] ptx [$p]"
  check '! echo "$s" | grep -q "=None"' "$name: the sass run checked no outputs [$s]"
  # both models find the same races (the SASS model through the same shadows, race.c)
  rs=$(races "$tmp/sass.json"); rp=$(races "$tmp/ptx.json")
  check '[ "$rs" = "$rp" ]' "$name: races per variant differ between models: sass [$rs] ptx [$rp]"
done

# Races on the SASS: the naive reduction's lost update (seed 002) is reported with the SASS
# offsets and the source line of the load and the store; the atomic variant has none.
"$ws" sim naive_reduction --model sass --no-db --json --quiet >"$tmp/naive.json" 2>"$tmp/naive.err"
check '[ "$(races "$tmp/naive.json")" = "racy=2 atomic=0" ]' \
  "naive_reduction --model sass: races per variant [$(races "$tmp/naive.json")] $(head -c 300 "$tmp/naive.err")"
check 'grep -q "race: global\[0x[0-9a-f]*\] written at SASS 0x[0-9a-f]* (naive_reduction.cu:11) .* read at SASS 0x[0-9a-f]* (naive_reduction.cu:11)" "$tmp/naive.json"' \
  "the SASS race warning names the store, the load and their line"
"$ws" sim naive_reduction --model sass --no-races --no-db --json --quiet >"$tmp/naive0.json" 2>/dev/null
check '! grep -q "race:" "$tmp/naive0.json"' "--no-races: no race warning on the SASS"

# The rows are SASS: offsets, opcodes with modifiers, source lines of the .cu.
"$ws" sim branch_unification -D LOOP=10 -D BLOCKS=2 -D DPT=4 --variant after --model sass \
  --quiet >/dev/null 2>&1
check '[ "$(sqlite3 "$WARPSCOPE_DB" "select source from runs order by id desc limit 1")" = "sim:sass" ]' \
  "a SASS run is stored with source sim:sass"
check '[ "$(sqlite3 "$WARPSCOPE_DB" "select count(*) from instructions where text like \"BSSY%\"")" -ge 1 ]' \
  "the stored instructions are SASS (BSSY)"
check '[ "$(sqlite3 "$WARPSCOPE_DB" "select count(*) from instructions where line > 0 and issued > 0")" -ge 5 ]' \
  "SASS instructions carry .cu source lines"

# predict prices the SASS with --model sass and gives its verdict.
"$ws" predict branch_unification -D LOOP=10 -D BLOCKS=4 -D DPT=4 --model sass --json --quiet >"$tmp/p.json" 2>"$tmp/p.err"
check 'python3 -c "import json,sys; d=json.load(open(sys.argv[1])); assert d[\"ratios\"] and d[\"ratios\"][0][\"time_ratio\"] > 0" "$tmp/p.json"' \
  "predict --model sass gives a time ratio: $(head -c 300 "$tmp/p.err")"

# Counting rules measured on the H100 (bench/sass_probe.sh; docs/results/sass-model-h100.txt).
# One warp's CAS retry loop on one word: YIELD takes the retrying lanes out of the loop's
# barrier, so each lane that wins goes on alone through BSYNC, and at each YIELD the groups
# at one PC join. The kernel's totals equal the H100's Range Profiler (5.71 threads a
# warp-instruction, 51.6 % branch efficiency); CUPTI's per-PC counts, taken on instrumented
# code, see fewer joins in the loop (599 ATOMG issues; the model 320) and equal the rest.
"$ws" sim histogram -D N=320 -D TOTAL_THREADS=32 -D THREADS=32 -D BINS=1 --variant double_cas \
  --model sass --threads 1 --db "$tmp/cas.db" --quiet >/dev/null 2>"$tmp/cas.err"
pcs() { sqlite3 "$tmp/cas.db" "select group_concat(issued || '/' || active_threads, ' ') from
  (select issued, active_threads from instructions where text like '$1' order by pc)"; }
totals=$(sqlite3 "$tmp/cas.db" "select printf('%.2f %.1f', 32 * execution_rate, branch_efficiency_pct)
  from kernel_summary order by run_id desc limit 1")
check '[ "$totals" = "5.71 51.6" ] && [ "$(pcs 'ATOMG%')" = "320/5280" ] && [ "$(pcs 'BSYNC%')" = "320/320" ] && [ "$(pcs 'LDG.E.64%')" = "289/320" ] && [ "$(pcs 'EXIT%')" = "1/32 32/32" ]' \
  "one warp's CAS loop: totals as the H100's (5.71 lanes, 51.6 % branch efficiency): $totals; per PC ATOMG 320/5280, BSYNC 320/320, LDG 289/320, EXIT 1/32 32/32: ATOMG $(pcs 'ATOMG%') BSYNC $(pcs 'BSYNC%') LDG $(pcs 'LDG.E.64%') EXIT $(pcs 'EXIT%') $(head -c 200 "$tmp/cas.err")"
# Kernels differential fuzzing found (tests/sim/cu/fuzz_*.cu, bench/fuzz_models.py's
# shape: in, fin, sm, out of 6 words a thread and 16 atomic words): each runs on both
# models with equal outputs. Arguments: KERNEL SEED GRID BLOCK THREADS FIN_LO SM_LO SM_HI
# FIN_HI, what the check is about.
fuzz_fixture() {
  printf 'workload %s\nsource %s/tests/sim/cu/%s.cu\nseed %s\nbuffer in u32 %s random_bits\nbuffer fin f32 %s uniform_real %s %s\nbuffer sm i32 %s uniform_int %s %s\nbuffer out u32 %s zero\ncheck out\nvariant v\n  kernel %s\n  grid %s\n  block %s\n  args in fin sm out %s\n' \
    "$1" "$WS_SOURCE_DIR" "$1" "$2" "$5" "$5" "$6" "$9" "$5" "$7" "$8" $(($5 * 6 + 16)) "$1" "$3" "$4" "$5" > "$tmp/$1.spec"
  fx=$1 # check's eval sees it (its own $1 is the test)
  check '"$ws" sim "$tmp/$fx.spec" --model sass --no-db --dump "$tmp/$fx.sass" > "$tmp/$fx.out" 2>&1 &&
         "$ws" sim "$tmp/$fx.spec" --model ptx --no-db --dump "$tmp/$fx.ptx" >> "$tmp/$fx.out" 2>&1 &&
         cmp -s "$tmp/$fx.sass/v.out.bin" "$tmp/$fx.ptx/v.out.bin" || { tail -3 "$tmp/$fx.out" >&2; false; }' \
        "${10}: runs on both models, outputs equal"
}
# lanes leave a loop straight to a WARPSYNC.ALL (no BREAK) while others wait at the loop
# body's BSYNC: neither waits for the other (it was a deadlock)
fuzz_fixture fuzz_warpsync 1053 1 "16 6" 96 -5000000.0 -20 20 100 "a loop left to WARPSYNC.ALL beside a BSYNC"
# both arms of an if/else use barrier B1, lanes wait at both BSYNCs at once: each group goes
# on at its own PC (it gave wrong values)
fuzz_fixture fuzz_bsync_arms 1058 3 160 480 -5000000.0 -20 20 100 "BSYNCs of one barrier in both arms of an if/else"
# ptxas's `@!P0 RET.REL.NODEC P1, R4` (it was refused)
fuzz_fixture fuzz_ret_pred 223 2 128 256 -1000 -3 3 100 "RET.REL.NODEC P1, R4"
# bench/fuzz_models.py: random kernels run on both models, outputs equal (four seeds).
check 'python3 "$WS_SOURCE_DIR/bench/fuzz_models.py" "$ws" --seed 7 --count 4 --check > "$tmp/fz.out" 2>&1 ||
       { tail -3 "$tmp/fz.out" >&2; false; }' "fuzz_models.py: four random kernels equal on both models"
# Random kernels against the H100 per SASS PC (bench/fuzz_gpu.sh; records of 150 kernels,
# bench/records/fuzz-gpu-h100-9000.tgz): eight whose every PC and output the model equals,
# six of them only since BRA.DIV reads its mask (9002: the REDUX fast path of a
# __reduce_add_sync over __activemask() in a divergent group) and YIELD takes lanes out of
# barriers and joins groups at one PC (9007, 9015, 9025, 9026, 9032).
check 'FUZZ_SEEDS="9000 9002 9007 9015 9025 9026 9032 9052" bash "$WS_SOURCE_DIR/bench/fuzz_gpu.sh" \
         --check "$(dirname "$ws")" "$tmp/fg" "$WS_SOURCE_DIR/bench/records/fuzz-gpu-h100-9000.tgz" > "$tmp/fg.out" 2>&1 ||
       { tail -4 "$tmp/fg.out" >&2; false; }' "eight random kernels per SASS PC as on the H100"
# The wide-type kernels (FUZZ_WIDE=1: double and half arithmetic) against the H200's records
# (bench/records/fuzz-gpu-h200-wide-710000.tgz): four equal at every PC and in outputs.
check 'FUZZ_WIDE=1 FUZZ_SEEDS="710000 710001 710004 710009" bash "$WS_SOURCE_DIR/bench/fuzz_gpu.sh" \
         --check "$(dirname "$ws")" "$tmp/fgw" "$WS_SOURCE_DIR/bench/records/fuzz-gpu-h200-wide-710000.tgz" \
         > "$tmp/fgw.out" 2>&1 || { tail -4 "$tmp/fgw.out" >&2; false; }' "four wide random kernels as on the H200"
# The default generator's held-out kernels against the H200's records
# (bench/records/fuzz-gpu-h200-740000.tgz, docs/results/fuzz-gpu-h200.txt): five equal at
# every PC and in outputs, two of them (740029, 740058) with a YIELD in a diverged warp.
check 'FUZZ_SEEDS="740000 740001 740004 740029 740058" bash "$WS_SOURCE_DIR/bench/fuzz_gpu.sh" \
         --check "$(dirname "$ws")" "$tmp/fgh" "$WS_SOURCE_DIR/bench/records/fuzz-gpu-h200-740000.tgz" \
         > "$tmp/fgh.out" 2>&1 || { tail -4 "$tmp/fgh.out" >&2; false; }' "five held-out random kernels as on the H200"
check '! FUZZ_SEEDS="8999" bash "$WS_SOURCE_DIR/bench/fuzz_gpu.sh" --check "$(dirname "$ws")" "$tmp/fg0" \
         "$WS_SOURCE_DIR/bench/records/fuzz-gpu-h100-9000.tgz" > "$tmp/fg0.out" 2>&1 &&
       grep -q "fz8999: no GPU records in" "$tmp/fg0.out"' "fuzz_gpu.sh --check: a kernel without records is a difference"
check 'python3 "$WS_SOURCE_DIR/bench/fuzz_models.py" --seed 1 > /dev/null 2> "$tmp/fzu.err"; [ $? -eq 2 ] &&
       grep -q "WARPSCOPE is needed unless --write" "$tmp/fzu.err"' "fuzz_models.py without WARPSCOPE or --write: usage error"
# branch_unification/after on one warp, with inputs whose lanes leave the A and B search loops
# in chosen trips (bench/bu_patterns.py): every SASS PC as CUPTI counted it on the H100
# (bench/records/bu-patterns-h100.txt): the not-taken side first, groups joined only at BSYNC.
names=$(python3 "$WS_SOURCE_DIR/bench/bu_patterns.py" write "$tmp/bu" "$WS_SOURCE_DIR/kernels/branch_unification.cu")
for p in $names; do
  case $p in *rand*) continue ;; esac
  "$ws" sim "$tmp/bu/$p.spec" --model sass --threads 1 --db "$tmp/bu.db" --quiet >/dev/null 2>>"$tmp/bu.err"
done
python3 "$WS_SOURCE_DIR/bench/bu_patterns.py" check "$tmp/bu.db" "$WS_SOURCE_DIR/bench/records/bu-patterns-h100.txt" \
  '^d[24]_(?!rand)' >"$tmp/bu.out" 2>&1
bu_rc=$?
check '[ $bu_rc -eq 0 ] && grep -q "^18 of 18 patterns equal" "$tmp/bu.out"' \
  "one-warp branch_unification patterns per PC as on the H100: $(tail -n 3 "$tmp/bu.out") $(head -c 200 "$tmp/bu.err")"
# cp.async and mbarrier objects (tests/gpu/ptx_async.spec): every SASS PC as CUPTI counted
# it on the H100 (bench/records/ptx-async-h100.txt): SYNCS.PHASECHK.TRYWAIT suspends the
# threads until the phase completes, a failed test_wait ends the warp's turn; bulk copies
# (UBLKCP) complete their transaction bytes on the mbarrier.
for v in copies phases primitives parity bulk; do
  "$ws" sim "$WS_SOURCE_DIR/tests/gpu/ptx_async.spec" --variant $v --model sass --threads 1 \
    --db "$tmp/async.db" --quiet >/dev/null 2>>"$tmp/async.err"
done
python3 "$WS_SOURCE_DIR/bench/pc_records.py" check "$tmp/async.db" \
  "$WS_SOURCE_DIR/bench/records/ptx-async-h100.txt" ptx_async >"$tmp/async.out" 2>&1
async_rc=$?
check '[ $async_rc -eq 0 ] && grep -q "^5 of 5 variants equal" "$tmp/async.out"' \
  "ptx_async per SASS PC as on the H100: $(cat "$tmp/async.out") $(head -c 200 "$tmp/async.err")"
# Packed-half min/max (HMNMX2, NaNs and bf16 included): the H100's output, word for word
# (bench/records/half-minmax-h100.txt).
"$ws" sim "$WS_SOURCE_DIR/tests/gpu/sass_forms.spec" --variant half_minmax --model sass --no-db \
  --dump "$tmp/hm" >/dev/null 2>"$tmp/hm.err"
check 'python3 -c "
import struct, sys
want = [int(x, 16) for l in open(sys.argv[1]) if not l.startswith(\"#\") for x in l.split()]
got = list(struct.unpack(\"<192I\", open(sys.argv[2], \"rb\").read()))
sys.exit(got != want)" "$WS_SOURCE_DIR/bench/records/half-minmax-h100.txt" "$tmp/hm/half_minmax.hmo.bin"' \
  "HMNMX2 outputs as the H100's: $(head -c 200 "$tmp/hm.err")"
# WARPSYNC.EXCLUSIVE over k __match_any_sync groups: max(1, k-1) branch targets, k-1 of them
# divergent, and k-1 passes the per-kernel counters count but no PC does (H100: BINS=1, 2, 32).
for want in "1 85293 9375 3125" "2 113418 9375 6250" "32 574026 66951 63826"; do
  bins=${want%% *} h100=${want#* }
  got=$("$ws" sim histogram -D N=100000 -D TOTAL_THREADS=16384 -D BINS=$bins --variant match --model sass \
        --no-db --json --quiet 2>/dev/null | python3 -c "
import json,sys; m=json.load(sys.stdin)['metrics']
print(' '.join('%d' % m[k] for k in ('smsp__inst_executed.sum', 'smsp__sass_branch_targets.sum',
      'smsp__sass_branch_targets_threads_divergent.sum')))")
  check '[ "$got" = "$h100" ]' "match BINS=$bins: inst, targets, divergent [$got], the H100's [$h100]"
done

expect_usage() {
  if "$ws" "$@" >"$tmp/out" 2>&1; then bad "no error: $*"; return; fi
  check '[ "$(wc -l <"$tmp/out")" -eq 1 ] && grep -q -e "$pattern" "$tmp/out"' "one-line error for $*: $(cat "$tmp/out")"
}
pattern="--model is 'sass'.*or 'ptx'"; expect_usage sim tree_reduction --model simt --no-db
pattern="--arch is sm_70 .. sm_90"; expect_usage sim tree_reduction --model sass --arch sm_50 --no-db
# The timing model prices the SASS stream too.
"$ws" sim tree_reduction --variant interleaved --model sass --timing --no-db --json --quiet >"$tmp/t.json" 2>"$tmp/t.err"
check 'python3 -c "import json,sys; m=json.load(open(sys.argv[1]))[\"metrics\"]; assert m[\"sim__time_ns\"] > 0 and m[\"sim__cycles\"] > 0" "$tmp/t.json"' \
  "sim --model sass --timing predicts a time: $(head -c 300 "$tmp/t.err")"

# Simulated faults under the SASS model: one line naming kernel, CTA, warp, lane, the SASS
# offset and instruction, and the source line.
expect_fault() { # SPEC; PATTERN in $pattern
  if "$ws" sim "$1" --model sass --no-db >"$tmp/out" 2>&1; then bad "no error: $1"; return; fi
  check '[ "$(wc -l <"$tmp/out")" -eq 1 ] && grep -q -e "$pattern" "$tmp/out"' "one-line fault for $1: $(cat "$tmp/out")"
}
cat > "$tmp/faults.cu" <<'CU'
__global__ void oob(int *x) { x[(blockIdx.x * blockDim.x + threadIdx.x) * 1000] = 1; }
__global__ void oob_shared(int *x, int k) { __shared__ int s[32]; s[threadIdx.x + k] = 1; __syncthreads(); x[threadIdx.x] = s[threadIdx.x]; }
__global__ void trap(int *x) { if (threadIdx.x == 3) __trap(); x[threadIdx.x] = 1; }
__global__ void deadlock(int *x)
{ if (threadIdx.x < 32) asm volatile("bar.sync 1, 64;"); else asm volatile("bar.sync 2, 64;"); x[threadIdx.x] = 1; }
CU
for k in oob oob_shared trap deadlock; do
  printf 'workload f\nsource faults.cu\nbuffer x i32 64 zero\nvariant a\n  kernel %s\n  grid 2\n  block 64\n  args x%s\n' \
    "$k" "$([ $k = oob_shared ] && echo ' 4096')" > "$tmp/$k.spec"
done
pattern="kernel .*oob.*CTA (0,0,0), warp 0, lane 1, PC [0-9]*, address 0x.*out-of-bounds global store of 4 bytes.*at SASS 0x[0-9a-f]* STG.*faults.cu:1"
expect_fault "$tmp/oob.spec"
pattern="kernel .*oob_shared.*out-of-bounds shared store of 4 bytes at offset [0-9]* (the CTA has [0-9]* bytes of shared memory) at SASS 0x[0-9a-f]* STS"
expect_fault "$tmp/oob_shared.spec"
pattern="kernel .*trap.*lane 3.*the kernel trapped (assert or __trap) at SASS 0x[0-9a-f]* BPT"
expect_fault "$tmp/trap.spec"
pattern="kernel .*deadlock.*deadlock: lanes 0xffffffff of warp [01] wait at a CTA barrier that can never complete (32 of 64 live threads at it) at SASS 0x[0-9a-f]* BAR.SYNC"
expect_fault "$tmp/deadlock.spec"

# bench/pc_records.py compare: a GPU run and a SASS-model run of the same variant, PC by PC
# (a second model run relabelled as the GPU's stands in for CUPTI's counts here).
for i in 1 2; do
  "$ws" sim "$WS_SOURCE_DIR/tests/gpu/ptx_async.spec" --variant copies --model sass --threads 1 \
    --db "$tmp/cmp.db" --quiet >/dev/null 2>&1
done
sqlite3 "$tmp/cmp.db" "update runs set source = 'gpu:stand-in' where id = (select min(id) from runs)"
python3 "$WS_SOURCE_DIR/bench/pc_records.py" compare "$tmp/cmp.db" ptx_async >"$tmp/cmp.out" 2>&1
check 'grep -Eq "^ptx_async / copies: ([0-9]+) of \1 SASS PCs equal to CUPTI.s counts$" "$tmp/cmp.out"' \
  "pc_records compare, equal runs: $(cat "$tmp/cmp.out")"
sqlite3 "$tmp/cmp.db" "update instructions set issued = issued + 1 where id = (select min(id) from instructions)"
python3 "$WS_SOURCE_DIR/bench/pc_records.py" compare "$tmp/cmp.db" ptx_async >"$tmp/cmp.out" 2>&1
check 'grep -Eq "^ptx_async / copies: ([0-9]+) of [0-9]+ SASS PCs equal .*\(e\.g\. pc 0x" "$tmp/cmp.out" &&
       ! grep -Eq "([0-9]+) of \1 " "$tmp/cmp.out"' "pc_records compare, one PC off: $(cat "$tmp/cmp.out")"

# bench/sass_coverage.py: what the tables would refuse, by kind; hints pass everywhere.
cat > "$tmp/cov.sass" <<'SASS'
        /*0000*/                   IADD3 R1, R2, R3, RZ ;
        /*0010*/                   LDG.E.LTC128B.128.STRONG.GPU R4, desc[UR4][R2.64] ;
        /*0020*/                   FROB R1, R2 ;
        /*0030*/                   IADD3.SAT R1, R2, R3, RZ ;
        /*0040*/                   VIMNMX.S32x4 R1, R2, R3, PT ;
SASS
python3 "$WS_SOURCE_DIR/bench/sass_coverage.py" "$tmp/cov.sass" >"$tmp/cov.out" 2>&1
check 'grep -q "^5 instruction lines, 3 that would load as UNKNOWN" "$tmp/cov.out" &&
       grep -q "FROB (opcode not in sim/sass_ops.def)" "$tmp/cov.out" &&
       grep -q "IADD3.SAT (not in the IADD3 row.s list)" "$tmp/cov.out" &&
       grep -q "VIMNMX.S32x4 (modifier not in sim/sass_mods.def)" "$tmp/cov.out"' \
  "sass_coverage: $(cat "$tmp/cov.out")"

# bench/sweep_compare.py: the H100's sweep outputs against themselves (all equal) and
# against the SASS model (integer results equal; tanh.approx is the SFU's, not libm's).
python3 "$WS_SOURCE_DIR/bench/sweep_compare.py" "$WS_SOURCE_DIR/bench/records/sweep-h100" \
  "$WS_SOURCE_DIR/bench/records/sweep-h100" >"$tmp/sw0.out" 2>&1
check 'grep -q "differing from the GPU.s: sweep-h100 0 of 8704" "$tmp/sw0.out"' \
  "sweep_compare, a run against itself: $(tail -n 1 "$tmp/sw0.out")"
"$ws" sim "$WS_SOURCE_DIR/tests/gpu/sweep.spec" --model sass --no-db --quiet \
  --dump "$tmp/sw/sass" >/dev/null 2>"$tmp/sw.err"
python3 "$WS_SOURCE_DIR/bench/sweep_compare.py" "$WS_SOURCE_DIR/bench/records/sweep-h100" \
  "$tmp/sw/sass" >"$tmp/sw1.out" 2>&1
check '! grep -q "^imath" "$tmp/sw1.out" && grep -q "^fmath   fo     15  255, " "$tmp/sw1.out"' \
  "sweep_compare, the SASS model against the H100: $(cat "$tmp/sw1.out" "$tmp/sw.err" | head -c 400)"

# Caveats where the SASS model is known to part from the GPU: a YIELD in a diverged warp
# (one warp's CAS loop), a CAS loop failing compares across several warps; none for a kernel
# without either (the metrics are there at 0).
"$ws" sim predication --variant long_if --model sass --no-db >"$tmp/cav0.out" 2>&1
check 'grep -Eq "sim__diverged_yields +0$" "$tmp/cav0.out" &&
       grep -Eq "sim__cas_failed_lanes +0$" "$tmp/cav0.out" && ! grep -q "model caveat" "$tmp/cav0.out"' \
  "no caveat without YIELD or CAS: $(grep warning "$tmp/cav0.out" | head -c 300)"
"$ws" sim histogram --variant double_cas -D N=320 -D TOTAL_THREADS=32 -D THREADS=32 -D BINS=1 \
  --model sass --no-db --no-races >"$tmp/cav1.out" 2>&1
check 'grep -q "warning: model caveat: YIELD at histogram.cu:[0-9]* (SASS 0x[0-9a-f]*) ran while its warp was diverged" "$tmp/cav1.out" &&
       ! grep -q "warning: model caveat: CAS" "$tmp/cav1.out"' \
  "one warp's CAS loop: the YIELD caveat alone: $(grep warning "$tmp/cav1.out" | head -c 400)"
"$ws" sim histogram --variant double_cas -D N=1280 -D TOTAL_THREADS=128 -D THREADS=128 -D BINS=1 \
  --model sass --no-db --no-races --json --quiet >"$tmp/cav2.json" 2>&1
check 'python3 -c "
import json,sys
r=json.load(open(sys.argv[1])); r=r.get(\"runs\",[r])[0]
assert r[\"metrics\"][\"sim__cas_failed_lanes\"] > 0, r[\"metrics\"]
assert any(w.startswith(\"model caveat: CAS retry loop at histogram.cu:\") and \" a launch of 4 warps: the resident warps took turns by a clock\" in w for w in r[\"warnings\"]), r[\"warnings\"]
" "$tmp/cav2.json"' "four warps' CAS loop: the CAS caveat in the JSON: $(head -c 400 "$tmp/cav2.json")"

# CAS retry loops across CTAs run in the timed order (docs/spec-format.md): 132 one-warp
# CTAs on one word keep each warp's lanes together (the H100: 29-30 lanes a warp-instruction
# at 4224 and 16384 threads, docs/results/cas-loops-h100.txt; the timed order 25.7 and 29.7;
# one CTA after another the model had 6.3 and 7.4), the same counts whatever the host threads, and locks (a CAS
# against 0) keep the one-after-another order.
for t in 1 2; do
  "$ws" sim histogram --variant double_cas -D N=4224 -D TOTAL_THREADS=4224 -D THREADS=32 -D BINS=1 \
    --model sass --no-db --no-races --threads $t --json --quiet >"$tmp/timed$t.json" 2>"$tmp/timed$t.err"
done
check 'python3 -c "
import json,sys
a,b=[json.load(open(f)) for f in sys.argv[1:3]]
a=a.get(\"runs\",[a])[0]; b=b.get(\"runs\",[b])[0]; m=a[\"metrics\"]
assert m[\"sim__timed_order\"]==1 and m[\"sim__ctas_at_once\"]==132, m
assert m[\"smsp__thread_inst_executed_per_inst_executed.ratio\"] > 16, m
assert a[\"outputs_match\"], a[\"check_message\"]
assert m[\"smsp__inst_executed.sum\"]==b[\"metrics\"][\"smsp__inst_executed.sum\"], (m, b[\"metrics\"])
" "$tmp/timed1.json" "$tmp/timed2.json"' "double_cas, 132 warps on one word, timed order: $(head -c 300 "$tmp/timed1.json") $(head -c 200 "$tmp/timed1.err")"
# Warps of 128 CTAs on the same 32 words lane for lane (cas_loops at BINS=1000): the lanes whose
# line lies in the L2 partition far from the warp's SM reach it later (mem.l2_far_cycles), so
# another warp wins some of a warp's words and its lanes part, as on the GPU (8 lanes an
# H100 warp-instruction); with no partitions every warp wins or loses all 32 at once.
sed 's/^mem.l2_far_cycles = .*/mem.l2_far_cycles = 0/' "$WS_SOURCE_DIR/sim/presets/h100.gpu" >"$tmp/nofar.gpu"
for p in h100 "$tmp/nofar.gpu"; do
  "$ws" sim "$WS_SOURCE_DIR/tests/gpu/cas_loops.spec" --variant plain -D BLOCKS=128 -D THREADS=128 \
    -D ITEMS=6 -D BINS=1000 --preset "$p" --model sass --no-db --no-races --json --quiet \
    >"$tmp/far-$(basename "$p").json" 2>&1
done
check 'python3 -c "
import json,sys
a,b=[json.load(open(f)) for f in sys.argv[1:3]]
a=a.get(\"runs\",[a])[0]; b=b.get(\"runs\",[b])[0]
ra=a[\"metrics\"][\"smsp__thread_inst_executed_per_inst_executed.ratio\"]
rb=b[\"metrics\"][\"smsp__thread_inst_executed_per_inst_executed.ratio\"]
assert a[\"outputs_match\"] and b[\"outputs_match\"], (a[\"check_message\"], b[\"check_message\"])
assert ra < 28 and rb == 32, (ra, rb)
" "$tmp/far-h100.json" "$tmp/far-nofar.gpu.json"' "1000 bins: the far partition parts a warp's lanes: $(head -c 300 "$tmp/far-h100.json")"
"$ws" sim "$WS_SOURCE_DIR/bench/unseen/unseen8.spec" --variant leader_lock --model sass --no-db \
  --no-races >"$tmp/lock.out" 2>&1
check 'grep -Eq "sim__timed_order +0$" "$tmp/lock.out" && grep -q "outputs match" "$tmp/lock.out"' \
  "a lock keeps the one-after-another order: $(grep -E "timed_order|outputs" "$tmp/lock.out" | head -c 300)"
# ... and its CAS caveat says so (bucket_insert: 64 locks, a thread on a random one).
"$ws" sim "$WS_SOURCE_DIR/bench/unseen/unseen8.spec" --variant bucket_insert --model sass --no-db \
  --no-races >"$tmp/lock2.out" 2>&1
check 'grep -Eq "sim__timed_order +0$" "$tmp/lock2.out" &&
       grep -q "warning: model caveat: CAS retry loop at unseen8.cu:[0-9]* (SASS 0x[0-9a-f]*) failed [0-9]* compares in a launch of 32 warps: where warps contend for one word the GPU keeps a warp.s failing lanes together and this order lets them leave one by one" "$tmp/lock2.out"' \
  "a lock's CAS caveat names the one-after-another order: $(grep caveat "$tmp/lock2.out" | cut -c1-300)"

# A *_sync over __activemask() in a diverged warp (tests/gpu/activemask.spec): counted in
# every variant that has one, and a caveat only where YIELDs ran in diverged warps too (the
# class where the GPU's grouping, and so the mask, follows its timing).
for v in diverged loop converged; do
  "$ws" sim "$WS_SOURCE_DIR/tests/gpu/activemask.spec" --variant $v --model sass --no-db \
    >"$tmp/am-$v.out" 2>&1
done
check 'grep -Eq "sim__diverged_activemask_syncs +2$" "$tmp/am-diverged.out" &&
       ! grep -q "model caveat" "$tmp/am-diverged.out" &&
       grep -Eq "sim__diverged_activemask_syncs +0$" "$tmp/am-converged.out" &&
       ! grep -q "model caveat" "$tmp/am-converged.out"' \
  "__activemask() *_syncs counted, no caveat without diverged YIELDs: $(grep -h "activemask\|caveat" "$tmp"/am-*.out | head -c 400)"
check 'grep -q "warning: model caveat: the \*_sync at activemask.cu:35 (SASS 0x[0-9a-f]*) takes its mask from __activemask() at activemask.cu:34 and ran [0-9]* times while its warp was diverged" "$tmp/am-loop.out"' \
  "__activemask() caveat after CAS loops: $(grep caveat "$tmp/am-loop.out" | head -c 600)"

# GPU specs whose variants compute different things say `variants independent`: run whole
# (every variant), they report no MISMATCH between variants and exit 0.
for s in cbar activemask; do
  "$ws" sim "$WS_SOURCE_DIR/tests/gpu/$s.spec" --model sass --no-db --quiet >"$tmp/whole-$s.out" 2>&1
  echo $? >"$tmp/whole-$s.rc"
done
check '[ "$(cat "$tmp/whole-cbar.rc")" = 0 ] && [ "$(cat "$tmp/whole-activemask.rc")" = 0 ] &&
       ! grep -q MISMATCH "$tmp/whole-cbar.out" "$tmp/whole-activemask.out"' \
  "whole GPU specs with independent variants: $(grep -h "MISMATCH\|differ" "$tmp"/whole-*.out | head -c 300)"

# tests/gpu/signed_zero.spec on both models: ptxas's FSEL Rd, -RZ, 3, P gives -0.0 for
# fabsf(-0.0f) on the SASS model, as on the H200 (docs/results/fuzz-gpu-h200-wide.txt); the
# PTX model's is +0.0, as C says.
for m in sass ptx; do
  "$ws" sim "$WS_SOURCE_DIR/tests/gpu/signed_zero.spec" --model $m --no-db --quiet \
    --dump "$tmp/sz_$m" >/dev/null 2>"$tmp/sz_$m.err"
done
check 'python3 -c "
import struct,sys
a=struct.unpack(\"128I\", open(sys.argv[1],\"rb\").read())
assert a[0] == 0x40400000 and all(x == 0 for x in a[4:32]), [hex(x) for x in a[:32]]
s=struct.unpack(\"128I\", open(sys.argv[2],\"rb\").read())
assert s[0] == 0x40400000 and all(x == 0x80000000 for x in s[4:32]), [hex(x) for x in s[:32]]
" "$tmp/sz_ptx/v.out.bin" "$tmp/sz_sass/v.out.bin"' \
  "signed_zero.spec on both models: $(cat "$tmp/sz_sass.err" "$tmp/sz_ptx.err" | head -c 300)"

echo "test_cli_sass: $pass passed, $fail failed"
[ $fail -eq 0 ]

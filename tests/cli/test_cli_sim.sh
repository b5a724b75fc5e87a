#!/bin/sh
# test_cli_sim.sh — `warpscope sim` end to end on the seed workloads, and its error paths:
# each error is one line naming what and where, a non-zero exit, and no run in the database.
# usage: test_cli_sim.sh PATH/TO/warpscope
ws=$1
. "$(dirname "$0")/cli_lib.sh"
db=$tmp/w.db

# A JSON field of the run of VARIANT in FILE ("metrics.NAME", "outputs_match", ...).
field() {
  python3 - "$1" "$2" "$3" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
runs = d["runs"] if "runs" in d else [d]
r = [x for x in runs if x["variant"] == sys.argv[2]][0]
v = r
for k in sys.argv[3].split(".", 1) if sys.argv[3].startswith("metrics.") or sys.argv[3].startswith("regions.") else [sys.argv[3]]:
    v = v[k]
print(v)
PY
}

check '$ws --help | grep -q "usage: warpscope COMMAND"' "top-level help"
check '$ws sim --help | grep -q -- "--variant V"' "sim help"
check '$ws list | grep -q "branch_unification"' "list shows the seed workloads"
check '$ws list | grep -q "constants: ROWS=64 COLS=64 CELLS=4096 STEPS=8 CAP=0.1 RX=0.5 RY=0.5 RZ=0.05 AMB=80$"' \
      "list prints float constants as written (hotspot)"

# Every seed workload at a small size: outputs equal the CPU reference.
for spec in "tree_reduction" "shuffle_reduction" "divergence_examples" "predication" \
            "dynamic_assignment -D TRIP_SCALE=256 -D BLOCKS=4" "histogram -D N=20000 -D TOTAL_THREADS=1024" \
            "branch_unification -D LOOP=8 -D BLOCKS=4" "himeno"; do
  name=${spec%% *}
  if $ws sim $spec --db "$db" --json --threads 1 > "$tmp/$name.json" 2> "$tmp/$name.err"; then
    ok
    python3 - "$tmp/$name.json" <<'PY' || bad "$name: outputs differ"
import json, sys
d = json.load(open(sys.argv[1]))
bad = [r["variant"] + ": " + r["check_message"] for r in d["runs"]
       if r["outputs_checked"] and not r["outputs_match"] and r["variant"] != "block_hazard"]
if bad:
    print("\n".join(bad), file=sys.stderr); sys.exit(1)
PY
    [ $? -eq 0 ] && ok
  else
    bad "sim $spec failed: $(cat "$tmp/$name.err")"
  fi
done

# Seed 004: threadIdx.x / 32 == 0 never diverges, threadIdx.x == 0 does.
f=$tmp/divergence_examples.json
check '[ "$(field $f warp_uniform metrics.smsp__sass_branch_targets_threads_divergent.sum)" = 0 ]' \
      "warp_uniform has no divergent branch"
check '[ "$(field $f tid_eq_0 metrics.smsp__sass_branch_targets_threads_divergent.sum)" != 0 ]' \
      "tid_eq_0 has divergent branches"
# Seed 003: the short if/else is predicated (selp), no divergent branch.
f=$tmp/predication.json
check '[ "$(field $f short_if metrics.smsp__sass_branch_targets_threads_divergent.sum)" = 0 ]' \
      "short_if compiles to a predicated select"
check '[ "$(field $f long_if metrics.smsp__sass_branch_targets_threads_divergent.sum)" != 0 ]' \
      "long_if branches"
# Seed 002: the naive reduction loses updates and the race is reported with its line.
$ws sim naive_reduction --variant racy --model ptx --no-db --json > "$tmp/naive.json"
check '[ "$(field $tmp/naive.json racy outputs_match)" = False ]' "naive reduction loses updates"
check 'grep -q "race: global.*naive_reduction.cu:" "$tmp/naive.json"' "race warning names the line"

# redux.sync with a member mask per lane (groups from __match_any_sync) reduces per group.
$ws sim histogram -D N=20000 -D BINS=10000 --variant match --no-db --json > "$tmp/match.json"
check '[ "$(field $tmp/match.json match outputs_match)" = True ]' "match/redux histogram with many bins per warp"

# --variant gives one JSON object with metrics and regions.
$ws sim branch_unification -D LOOP=8 -D BLOCKS=2 --variant after --no-db --json > "$tmp/one.json"
check 'python3 -c "import json,sys; d=json.load(open(sys.argv[1])); assert d[\"variant\"]==\"after\" and \"branch\" in d[\"regions\"] and d[\"metrics\"][\"smsp__inst_executed.sum\"]>0" "$tmp/one.json"' \
      "--variant --json: one object with metrics and regions"

# --dump DIR writes each variant's outputs raw; `check BUF file PATH` compares with such files.
cat > "$tmp/sq.cu" <<'CU'
__global__ void sq(const float *a, float *o, int *n) { int i = threadIdx.x; o[i] = a[i] * a[i]; n[i] = 3 * i; }
CU
sq_spec() { # CHECK-LINES
  printf 'workload sq\nsource sq.cu\nbuffer a f32 32 uniform_real -2 2\nbuffer o f32 32 zero\nbuffer n i32 32 zero\n%b' "$1" > "$tmp/sq.spec"
  printf 'variant v\n  kernel sq\n  grid 1\n  block 32\n  args a o n\n' >> "$tmp/sq.spec"
}
sq_spec ''
$ws sim "$tmp/sq.spec" --no-db --quiet --dump "$tmp/all" > /dev/null
check 'python3 - "$tmp/all" <<PY
import struct, sys
d = sys.argv[1]
a = struct.unpack("<32f", open(d + "/v.a.bin", "rb").read())
o = struct.unpack("<32f", open(d + "/v.o.bin", "rb").read())
n = struct.unpack("<32i", open(d + "/v.n.bin", "rb").read())
assert n == tuple(3 * i for i in range(32)), n
assert o == tuple(struct.unpack("<f", struct.pack("<f", x * x))[0] for x in a), (a, o)
PY' "--dump without checks writes every buffer, raw little-endian"
sq_spec 'check o\ncheck n\n'
$ws sim "$tmp/sq.spec" --no-db --quiet --dump "$tmp/dumped" > /dev/null
check '[ -f "$tmp/dumped/v.o.bin" ] && [ -f "$tmp/dumped/v.n.bin" ] && [ ! -f "$tmp/dumped/v.a.bin" ]' \
      "--dump writes the checked buffers only"
sq_spec 'check o file dumped/v.o.bin tolerance 1e-6\ncheck n file dumped/v.n.bin\n'
$ws sim "$tmp/sq.spec" --no-db --json > "$tmp/sq.json"
check '[ "$(field $tmp/sq.json v outputs_match)" = True ] && grep -q "match the expected files" "$tmp/sq.json"' \
      "check BUF file PATH: equal outputs match"
python3 -c "import sys; p=sys.argv[1]; d=bytearray(open(p,'rb').read()); d[20]^=1; open(p,'wb').write(d)" "$tmp/dumped/v.n.bin"
$ws sim "$tmp/sq.spec" --no-db --json > "$tmp/sq.json"
check '[ "$(field $tmp/sq.json v outputs_match)" = False ] && grep -q "n differs from the expected file v.n.bin at index 5" "$tmp/sq.json"' \
      "check BUF file PATH: a changed element is named"
head -c 8 "$tmp/dumped/v.o.bin" > "$tmp/short.bin"
sq_spec 'check o file short.bin\n'
pattern="check 'o': file .*short.bin holds 8 bytes, the buffer 128 (32 elements of f32)"
expect_error_early() { "$ws" "$@" --no-db > "$tmp/out.txt" 2> "$tmp/err"; rc=$?
  if [ $rc -ne 0 ] && [ "$(wc -l < "$tmp/err")" -eq 1 ] && grep -q -- "$pattern" "$tmp/err"; then ok
  else bad "'$*' (rc $rc) should fail with '$pattern', got: $(cat "$tmp/err")"; fi; }
expect_error_early sim "$tmp/sq.spec"
sq_spec 'check o file missing.bin\n'
pattern="missing.bin"; expect_error_early sim "$tmp/sq.spec"
: > "$tmp/notadir"
pattern="--dump: cannot create .*notadir/x"; expect_error_early sim "$tmp/sq.spec" --dump "$tmp/notadir/x"

runs_before=$(sqlite3 "$db" "select count(*) from runs")

# Errors: one line, non-zero exit, nothing stored.
expect_error() { # ARGS... ; PATTERN in $pattern
  "$ws" "$@" --db "$db" > "$tmp/out" 2> "$tmp/err"
  rc=$?
  if [ $rc -ne 0 ] && [ "$(wc -l < "$tmp/err")" -eq 1 ] && grep -q -- "$pattern" "$tmp/err"; then ok
  else bad "'$*' (rc $rc) should fail with '$pattern', got: $(cat "$tmp/err")"; fi
}
pattern="no workload 'nosuch'"; expect_error sim nosuch
pattern="unknown constant 'NOPE'"; expect_error sim branch_unification -D NOPE=1
pattern="sim: unknown option '--bogus'"; expect_error sim branch_unification --bogus
# One option parser: a missing value and a bad number say which option and what it takes.
pattern="sim: --threads needs a number >= 0, not 'x'"; expect_error sim branch_unification --threads x
pattern="predict: unknown option '--bogus'"; expect_error predict branch_unification --bogus
pattern="compare: --lines needs a number >= 0, not 'many'"; expect_error compare 1 2 --lines many
pattern="occupancy: --threads needs a number >= 0, not '-1'"; expect_error occupancy --cc 9.0 --threads -1
pattern="list: unknown option '--long'"; expect_error list --long
pattern="sim: unexpected argument 'predication'"; expect_error sim branch_unification predication
pattern="no variant"; expect_error sim branch_unification --variant nosuch
# run/profile check their options before touching a GPU (so these fail the same without one).
pattern="no GPU preset 'nosuch'"; expect_error run branch_unification --preset nosuch
# sim without --timing still reads the preset (SMs, the timed order's round trips).
pattern="no GPU preset 'nosuch'"; expect_error sim branch_unification --preset nosuch
printf 'garbage = 1\n' > "$tmp/bad.gpu"
pattern="bad.gpu:1:"; expect_error sim branch_unification --preset "$tmp/bad.gpu"
pattern="--metrics: no metric named"; expect_error profile branch_unification --metrics ,
pattern="run: unknown option '--metrics'"; expect_error run branch_unification --metrics x
pattern="--jit with --model sass"; expect_error run branch_unification --jit --model sass

# A bad spec names file:line.
cp "$WS_SOURCE_DIR/kernels/predication.cu" "$tmp/p.cu"
printf 'workload p\nsource p.cu\nbuffer x i32 16 zero\nvariant a\n  kernel short_if\n  grid 1\n  block 16\n  args x x 16\n  colour blue\n' > "$tmp/bad.spec"
pattern="bad.spec:9:"; expect_error sim "$tmp/bad.spec"

# The kernel's printf goes to stdout (stderr with --json, which keeps stdout for the JSON).
cat > "$tmp/pf.cu" <<'CU'
#include <cstdio>
__global__ void k(int *x) { if (threadIdx.x < 2) printf("lane %d has %d\n", threadIdx.x, x[threadIdx.x]); }
CU
printf 'workload pf\nsource pf.cu\nbuffer x i32 32 iota 7\nvariant a\n  kernel k\n  grid 1\n  block 32\n  args x\n' > "$tmp/pf.spec"
$ws sim "$tmp/pf.spec" --model ptx --no-db > "$tmp/pf.out"
check 'head -2 "$tmp/pf.out" | tr "\n" / | grep -q "^lane 0 has 7/lane 1 has 8/$"' "printf prints what the kernel prints"
$ws sim "$tmp/pf.spec" --model ptx --no-db --json > "$tmp/pf.json" 2> "$tmp/pf.err"
check 'python3 -c "import json,sys; json.load(open(sys.argv[1]))" "$tmp/pf.json" && grep -q "lane 1 has 8" "$tmp/pf.err"' \
      "--json: printf on stderr, JSON intact"

# The SASS model runs printf too (ptxas's CALL of vprintf): the same lines.
if $ws sim "$tmp/pf.spec" --model sass --no-db > "$tmp/pfs.out" 2>&1 || ! grep -q nvdisasm "$tmp/pfs.out"; then
  check 'head -2 "$tmp/pfs.out" | tr "\n" / | grep -q "^lane 0 has 7/lane 1 has 8/$" && grep -q "^  model  *SASS" "$tmp/pfs.out"' \
        "printf on the SASS model: $(head -3 "$tmp/pfs.out" | tr '\n' /)"
fi
# mbarrier objects on the SASS model (SYNCS, ARRIVES; sass_mem.c): the same outputs as the
# PTX model, and its misuse a one-line error naming the SASS instruction (where nvdisasm is).
cat > "$tmp/mb.cu" <<'CU'
// init for `count` arrivals (thread 0), then every thread arrives: its token
__device__ unsigned long long init_arrive(unsigned long long *bar, unsigned count, unsigned tx)
{
    unsigned a = (unsigned)__cvta_generic_to_shared(bar);
    if (threadIdx.x == 0) asm volatile("mbarrier.init.shared.b64 [%0], %1;" :: "r"(a), "r"(count));
    __syncthreads();
    unsigned long long st;
    if (tx == 1) { asm volatile("mbarrier.arrive.shared.b64 _, [%0];" :: "r"(a)); st = 0; } // phase 0's
    else if (tx) asm volatile("mbarrier.arrive.expect_tx.shared.b64 %0, [%1], %2;" : "=l"(st) : "r"(a), "r"(tx));
    else asm volatile("mbarrier.arrive.shared.b64 %0, [%1];" : "=l"(st) : "r"(a));
    return st;
}
__global__ void k(int *x, int more, int tx)
{
    __shared__ unsigned long long bar;
    unsigned long long st = init_arrive(&bar, blockDim.x + more, tx);
    unsigned a = (unsigned)__cvta_generic_to_shared(&bar);
    if (more) asm volatile("{ .reg .pred p; W%=: mbarrier.try_wait.shared.b64 p, [%0], %1; @!p bra W%=; }" :: "r"(a), "l"(st));
    else asm volatile("{ .reg .pred p; W%=: mbarrier.test_wait.shared.b64 p, [%0], %1; @!p bra W%=; }" :: "r"(a), "l"(st));
    x[threadIdx.x] += 1;
}
__global__ void early(int *x)
{
    __shared__ unsigned long long bar;
    unsigned a = (unsigned)__cvta_generic_to_shared(&bar);
    unsigned long long st;
    asm volatile("mbarrier.arrive.shared.b64 %0, [%1];" : "=l"(st) : "r"(a));
    x[threadIdx.x] = (int)st;
}
// transaction bytes announced (expect_tx) and delivered by hand (complete_tx), then the one arrival
__global__ void ct(int *x, int n)
{
    __shared__ unsigned long long bar;
    unsigned a = (unsigned)__cvta_generic_to_shared(&bar);
    if (threadIdx.x == 0) asm volatile("mbarrier.init.shared.b64 [%0], 1;" :: "r"(a));
    __syncthreads();
    if (threadIdx.x == 0) {
        asm volatile("mbarrier.expect_tx.relaxed.cta.shared::cta.b64 [%0], %1;" :: "r"(a), "r"(n));
        asm volatile("mbarrier.complete_tx.relaxed.cta.shared::cta.b64 [%0], %1;" :: "r"(a), "r"(n));
        asm volatile("mbarrier.arrive.shared.b64 _, [%0];" :: "r"(a));
    }
    asm volatile("{ .reg .pred p; W%=: mbarrier.try_wait.parity.shared::cta.b64 p, [%0], 0; @!p bra W%=; }" :: "r"(a));
    x[threadIdx.x] += 1;
}
CU
printf 'workload mb\nsource mb.cu\nbuffer x i32 64 iota 7\ncheck x\nvariant a\n  kernel k\n  grid 1\n  block 64\n  args x 0 0\nvariant early\n  kernel early\n  grid 1\n  block 32\n  args x\nvariant stuck\n  kernel k\n  grid 1\n  block 64\n  args x 64 0\nvariant tx\n  kernel k\n  grid 1\n  block 32\n  args x 0 16\nvariant sink\n  kernel k\n  grid 1\n  block 64\n  args x 0 1\nvariant ct\n  kernel ct\n  grid 1\n  block 64\n  args x 48\n' > "$tmp/mb.spec"
if $ws sim "$tmp/mb.spec" --variant a --model sass --no-db --dump "$tmp/mbs" > "$tmp/mbs.out" 2>&1 ||
   ! grep -q nvdisasm "$tmp/mbs.out"; then
  $ws sim "$tmp/mb.spec" --variant a --model ptx --no-db --dump "$tmp/mbp" > /dev/null 2>&1
  check 'grep -q "^  model  *SASS" "$tmp/mbs.out" && ! grep -q "warning" "$tmp/mbs.out" && cmp -s "$tmp/mbs/a.x.bin" "$tmp/mbp/a.x.bin"' \
        "mbarrier on the SASS model: the PTX model's outputs, no warning: $(grep -E "model|warning|error" "$tmp/mbs.out" | head -3)"
  # the sink `_` (a token nobody reads) on the PTX model: the same outputs
  $ws sim "$tmp/mb.spec" --variant sink --model ptx --no-db --dump "$tmp/mbk" > "$tmp/mbk.out" 2>&1
  check 'cmp -s "$tmp/mbk/sink.x.bin" "$tmp/mbp/a.x.bin"' "mbarrier.arrive into _: $(grep -E "error|warpscope" "$tmp/mbk.out")"
  # expect_tx then complete_tx (SYNCS.ARRIVE.TRANS64.RED.A0TR / .A0TX) leave the phase to the arrival
  $ws sim "$tmp/mb.spec" --variant ct --model sass --no-db --dump "$tmp/mct" > "$tmp/mct.out" 2>&1
  $ws sim "$tmp/mb.spec" --variant ct --model ptx --no-db --dump "$tmp/mcp" > /dev/null 2>&1
  check 'grep -q "outputs match" "$tmp/mct.out" && cmp -s "$tmp/mct/ct.x.bin" "$tmp/mcp/ct.x.bin"' \
        "expect_tx and complete_tx on both models: $(grep -E "outputs|error|warpscope" "$tmp/mct.out" | head -2)"
  pattern="kernel _Z5earlyPi, CTA (0,0,0), warp 0, lane 0, .*mbarrier at shared 0x400 used before its init .* at SASS 0x[0-9a-f]* SYNCS.ARRIVE.TRANS64.A1T0 (mb.cu:27)"
  expect_error sim "$tmp/mb.spec" --variant early --model sass
  # try_wait suspends the threads until the phase completes; one that never can (init for
  # twice the threads that arrive) is a deadlock once the waits have timed out 64 times
  pattern="kernel _Z1kPiii, .*deadlock: lanes 0xffffffff of warp [01] wait for a phase of the mbarrier at shared offset 0x0 that never completes at SASS 0x[0-9a-f]* SYNCS.PHASECHK.TRANS64.TRYWAIT (mb.cu:18)"
  expect_error sim "$tmp/mb.spec" --variant stuck --model sass
  # An expect_tx of bytes no copy delivers keeps the phase open: threads that test_wait
  # for it spin until every warp of the CTA has done nothing else for 1024 rounds, then the
  # run stops with the deadlock, on both models (the PTX model used to spin for ever).
  pattern="kernel _Z1kPiii, .*deadlock: lanes 0xffffffff of warp 0 wait for a phase of the mbarrier at shared offset 0x0 that never completes at SASS 0x[0-9a-f]* SYNCS.PHASECHK.TRANS64 (mb.cu:19)"
  expect_error sim "$tmp/mb.spec" --variant tx --model sass
  pattern="mb-[0-9a-f]*\.ptx:[0-9]*: kernel _Z1kPiii, .*deadlock: lanes 0xffffffff of warp 0 wait for a phase of the mbarrier at shared offset 0x0 that never completes (mb.cu:19)"
  expect_error sim "$tmp/mb.spec" --variant tx --model ptx
  pattern="mb-[0-9a-f]*\.ptx:[0-9]*: kernel _Z1kPiii, .*deadlock: lanes 0xffffffff of warp 1 wait for a phase of the mbarrier at shared offset 0x0 that never completes (mb.cu:18)"
  expect_error sim "$tmp/mb.spec" --variant stuck --model ptx
  # What the SASS model refuses when it runs (__prof_trigger: PMTRIG) goes to the PTX model
  # when no model was asked for; that one refuses it too (pmevent): its one line is the error.
  printf '__global__ void k(int *x) { __prof_trigger(3); x[threadIdx.x] += 1; }\n' > "$tmp/pm.cu"
  printf 'workload pm\nsource pm.cu\nbuffer x i32 32 iota\nvariant a\n  kernel k\n  grid 1\n  block 32\n  args x\n' > "$tmp/pm.spec"
  pattern="pm-[0-9a-f]*\.ptx:[0-9]*: kernel _Z1kPi: unsupported instruction 'pmevent'"
  expect_error sim "$tmp/pm.spec"
  pattern="kernel _Z1kPi, CTA (0,0,0), warp 0, lane 0, PC [0-9]*: unsupported SASS: opcode not in the table (sim/sass_ops.def) at SASS 0x[0-9a-f]* PMTRIG (pm.cu:1)"
  expect_error sim "$tmp/pm.spec" --model sass
fi

# A failed assert() stops the run on both models: one line naming the assertion, the
# function, the thread and the source line; where it holds, the kernel runs on.
cat > "$tmp/as.cu" <<'CU'
#include <cassert>
__global__ void k(int *x) { assert(x[threadIdx.x] >= 0); x[threadIdx.x] += 1; }
CU
# Every CTA fails; the error named is CTA 0's however the host threads interleave.
printf 'workload as\nsource as.cu\nbuffer x i32 64 iota -3\ncheck x\nvariant bad\n  kernel k\n  grid 16\n  block 32\n  args x\nvariant ok\n  kernel k\n  grid 2\n  block 32\n  args x+8\n' > "$tmp/as.spec"
pattern="as-[0-9a-f]*\.ptx:[0-9]*: kernel _Z1kPi, CTA (0,0,0), warp 0, lane 0, PC [0-9]*: assertion \`x\[threadIdx.x\] >= 0' failed in void k(int \*) (as.cu:2)"
for t in 1 2 3 4 5; do expect_error sim "$tmp/as.spec" --variant bad --model ptx --threads 4; done
check '$ws sim "$tmp/as.spec" --variant ok --model ptx --no-db > /dev/null 2>&1' "assert that holds: the PTX model runs on"
if $ws sim "$tmp/as.spec" --variant ok --model sass --no-db > "$tmp/aso" 2>&1 || ! grep -q nvdisasm "$tmp/aso"; then
  pattern="kernel _Z1kPi, CTA (0,0,0), warp 0, lane 0, PC [0-9]*: assertion \`x\[threadIdx.x\] >= 0' failed in void k(int \*) at SASS 0x[0-9a-f]* CALL.ABS.NOINC (as.cu:2)"
  for t in 1 2 3; do expect_error sim "$tmp/as.spec" --variant bad --model sass --threads 4; done
  check 'grep -q "^  model  *SASS" "$tmp/aso"' "assert that holds: the SASS model runs on: $(head -2 "$tmp/aso")"
fi

# Device malloc and free run on both models (sim/heap.c); alloca, which the PTX model does
# not run, names the PTX line and the instruction.
cat > "$tmp/ma.cu" <<'CU'
__global__ void k(int *x) { int *p = (int *)malloc(4); *p = threadIdx.x + 1; x[threadIdx.x] = *p; free(p); }
CU
printf 'workload ma\nsource ma.cu\nbuffer x i32 32 zero\ncheck x file x.bin\nvariant a\n  kernel k\n  grid 1\n  block 32\n  args x\n' > "$tmp/ma.spec"
python3 -c "import struct,sys; open(sys.argv[1],'wb').write(struct.pack('<32i', *range(1, 33)))" "$tmp/x.bin"
check '$ws sim "$tmp/ma.spec" --model ptx --no-db > "$tmp/ma.out" 2>&1' "malloc on the PTX model: $(tail -n 2 "$tmp/ma.out" 2>/dev/null)"
if $ws sim "$tmp/ma.spec" --model sass --no-db > "$tmp/mas.out" 2>&1 || ! grep -q nvdisasm "$tmp/mas.out"; then
  check 'grep -q "outputs match" "$tmp/mas.out"' "malloc on the SASS model: $(grep -E "outputs|warpscope" "$tmp/mas.out" | head -2)"
fi
cat > "$tmp/al.cu" <<'CU'
__global__ void k(int *x, int n) { int *p = (int *)alloca(n * sizeof(int)); for (int i = 0; i < n; i++) p[i] = x[i] * i; x[threadIdx.x] = p[x[threadIdx.x] & (n - 1)]; }
CU
printf 'workload al\nsource al.cu\nbuffer x i32 32 zero\nvariant a\n  kernel k\n  grid 1\n  block 32\n  args x 4\n' > "$tmp/al.spec"
pattern="\.ptx:[0-9]*: kernel _Z1kPii: unsupported instruction 'alloca.u64'"; expect_error sim "$tmp/al.spec" --model ptx

# A simulated out-of-bounds store names kernel, CTA, warp, lane, PC and address.
cat > "$tmp/oob.cu" <<'CU'
__global__ void oob(int *x, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; x[i * 1000] = i; }
CU
printf 'workload oob\nsource oob.cu\nbuffer x i32 64 zero\nvariant a\n  kernel oob\n  grid 2\n  block 64\n  args x 64\n' > "$tmp/oob.spec"
pattern="kernel .*oob.*CTA (0,0,0), warp 0, lane 1, PC [0-9]*, address 0x"; expect_error sim "$tmp/oob.spec"

# Variants that compute different things: a mismatch between them, unless the spec says
# `variants independent`.
cat > "$tmp/ind.cu" <<'CU'
__global__ void put(int *x, int v) { x[threadIdx.x] = v; }
CU
printf 'workload ind\nsource ind.cu\nbuffer x i32 32 zero\ncheck x\nvariant one\n  kernel put\n  grid 1\n  block 32\n  args x 1\nvariant two\n  kernel put\n  grid 1\n  block 32\n  args x 2\n' > "$tmp/ind.spec"
check '! $ws sim "$tmp/ind.spec" --no-db > "$tmp/ind.out" 2>&1 && grep -q "MISMATCH: x differs from the first variant" "$tmp/ind.out" &&
       grep -q "ind: 1 variant(s) with outputs that differ" "$tmp/ind.out"' \
      "variants with different outputs: a mismatch, and sim exits non-zero"
# A variant marked `racy` may differ: reported as expected, exit 0; the first variant that is
# not racy is the base (here `two`, so `one`, racy and first, is compared with nothing).
sed 's/^variant two$/variant two\n  racy/' "$tmp/ind.spec" > "$tmp/racy.spec"
check '$ws sim "$tmp/racy.spec" --no-db > "$tmp/racy.out" 2>&1 &&
       grep -q "differ (racy variant: expected): x differs from the first variant" "$tmp/racy.out"' \
      "a racy variant's difference is expected"
sed 's/^variant one$/variant one\n  racy/' "$tmp/ind.spec" > "$tmp/racy1.spec"
check '$ws sim "$tmp/racy1.spec" --no-db > "$tmp/racy1.out" 2>&1 && ! grep -q "differ" "$tmp/racy1.out"' \
      "a racy first variant is no base"
pattern="expected 'racy' alone on its line"
sed 's/^variant one$/variant one\n  racy yes/' "$tmp/ind.spec" > "$tmp/racy2.spec"
expect_error sim "$tmp/racy2.spec"
sed -i 's/^source ind.cu$/source ind.cu\nvariants independent/' "$tmp/ind.spec"
check '$ws sim "$tmp/ind.spec" --no-db > "$tmp/ind2.out" 2>&1 && ! grep -q MISMATCH "$tmp/ind2.out" ||
       { grep -E "outputs|warpscope" "$tmp/ind2.out" | head -2 >&2; false; }' \
      "variants independent: not compared with each other"

check '[ "$(sqlite3 "$db" "select count(*) from runs")" = "$runs_before" ]' "failed runs store nothing"
check '[ "$(sqlite3 "$db" "pragma integrity_check")" = ok ]' "database intact"

echo "test_cli_sim: $pass passed, $fail failed"
[ $fail -eq 0 ]

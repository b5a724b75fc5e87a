#!/usr/bin/env bash
# tests/gpu/run.sh — the whole GPU check, on a machine with a GPU and an existing build:
# the GPU test executables, `run` of the classic workloads (bfs, needleman_wunsch, hotspot,
# bitonic_sort, byte_histogram), then every workload (kernels/*.spec) and variant at
# scaled-down sizes through `warpscope profile` (GPU + CUPTI + simulator on the same
# inputs, outputs cross-checked, both runs stored) and `warpscope compare`, and a summary
# table on stdout and in $OUT (or BUILD/gpu-check). Exit 0 when every check passed.
# Usage: tests/gpu/run.sh [BUILD_DIR]    (default: build-gpu beside this repo's sources)
#        tests/gpu/run.sh --bundle [BUILD_DIR]: copy warpscope's shared libraries (other than
#        glibc's) into BUILD/lib, for a GPU machine that lacks them (SQLite, Graphviz).
set -u
repo=$(cd "$(dirname "$0")/../.." && pwd)
bundle=0
[ "${1:-}" = --bundle ] && { bundle=1; shift; }
build=$(cd "${1:-$repo/build-gpu}" && pwd) || { echo "run.sh: no build folder" >&2; exit 2; }
ws=$build/warpscope
if [ $bundle = 1 ]; then
    mkdir -p "$build/lib"
    ldd "$ws" | awk '$3 ~ /^\// {print $3}' |
        grep -vE '/(libc|libm|libdl|libpthread|librt|ld-linux[^/]*)\.so' |
        grep -vE 'libcupti|libnvperf|libcuda|libgcc_s|libutil' | xargs -r cp -L -t "$build/lib"
    echo "bundled: $(ls "$build/lib" | tr '\n' ' ')"
    exit 0
fi
[ -d "$build/lib" ] && export LD_LIBRARY_PATH=${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}$build/lib
out=${OUT:-$build/gpu-check}
mkdir -p "$out"
db=$out/gpu-check.db
rm -f "$db"
export WARPSCOPE_DB=$db
export WARPSCOPE_PTX_CACHE=${WARPSCOPE_PTX_CACHE:-$build/ptx-cache}
export WS_TEST_SOURCE_DIR=$repo   # the checkout may sit elsewhere than where it was built
log=$out/run.log
: >"$log"
failures=0

# Scaled-down sizes: each entry is one size (space-separated -D assignments); two sizes
# for the seed-000 pairs. Workloads not named here run with their spec's defaults.
sizes_for() {
    case $1 in
    branch_unification) echo "DPT=4,LOOP=10 DPT=16,LOOP=10" ;;
    dynamic_assignment) echo "LOOP_NUM=4,TRIP_SCALE=4 LOOP_NUM=16,TRIP_SCALE=4,DIST=skewed" ;;
    histogram) echo "N=100000,TOTAL_THREADS=16384" ;;
    bitonic_sort) echo "LOG2N=7,LOG2S=6,THREADS=32" ;;   # 28 launches a variant, each profiled
    *) echo "-" ;;
    esac
}

# WS_GPU_PARTS: a regex of the parts to run (default all): tests inject ptx forms lines indirect fchk sweep args
# classic seeds sass map (and WS_VALIDATION for the validation set), for a re-run of some parts.
part() { echo "$1" | grep -Eq "^(${WS_GPU_PARTS:-.*})\$" || { echo "$1: skipped (WS_GPU_PARTS)" | tee -a "$log"; return 1; }; }

if part tests; then
echo "== GPU test executables" | tee -a "$log"
for t in "$build"/tests/gpu_*test; do
    [ -x "$t" ] || continue
    "$t" >"$out/$(basename "$t").log" 2>&1
    rc=$?
    tail -1 "$out/$(basename "$t").log" | tee -a "$log"
    [ $rc -eq 0 ] || { failures=$((failures + 1)); echo "FAILED: $t (rc $rc)" | tee -a "$log"; }
done
fi

# An unmodified application under `profile -- APP` and `capture -- APP`, every captured
# launch replayed on the simulator (tests/gpu/test_inject.sh).
if part inject; then
echo "== profile/capture -- inject_app" | tee -a "$log"
bash "$repo/tests/gpu/test_inject.sh" "$ws" "$build/tests/inject_app" >"$out/inject.log" 2>&1
rc=$?
tail -1 "$out/inject.log" | tee -a "$log"
[ $rc -eq 0 ] || { failures=$((failures + 1)); echo "FAILED: tests/gpu/test_inject.sh (rc $rc)" | tee -a "$log"; }
fi

# PTX coverage on the GPU (tests/gpu/ptx_*.spec: cp.async, mbarrier, a cooperative grid
# sync, texture and surface objects): each variant profiled, the simulator's outputs equal to the GPU's.
if part ptx; then
for spec in "$repo"/tests/gpu/ptx_*.spec; do
    for v in $(awk '$1 == "variant" {print $2}' "$spec"); do
        if timeout ${WS_GPU_CHECK_TIMEOUT:-120} "$ws" profile "$spec" --variant "$v" --json >>"$log" 2>&1; then
            echo "$(basename "$spec" .spec) / $v: sim and GPU outputs equal" | tee -a "$log"
        else
            failures=$((failures + 1)); echo "FAILED: $(basename "$spec") / $v" | tee -a "$log"
        fi
    done
done
fi

# SASS forms on the GPU (tests/gpu/sass_forms.spec: HMMA/IMMA/DMMA tiles, ldmatrix, generic
# half2 atomics, cp.async zero-fill, EXIT P, ELECT; tests/gpu/intrinsics.spec: IDP, DPX
# min/max, F2FP/HSET2, directed half rounding, calls through pointers, FP8; cluster.spec:
# cluster code in a launch without clusters, generic atomics into shared memory; cbar.spec:
# test_sass_cbar's convergence-barrier cases; recursion.spec: barrier registers saved and
# restored across recursive calls; mma_numerics.spec: the tensor core's sums, bit for bit;
# heap.spec: device malloc and free):
# each variant profiled with the SASS model, the simulator's outputs equal to the GPU's.
if part forms; then
for spec in "$repo/tests/gpu/sass_forms.spec" "$repo/tests/gpu/intrinsics.spec" \
            "$repo/tests/gpu/cluster.spec" "$repo/tests/gpu/signed_zero.spec" \
            "$repo/tests/gpu/cbar.spec" "$repo/tests/gpu/recursion.spec" \
            "$repo/tests/gpu/mma_numerics.spec" "$repo/tests/gpu/heap.spec"; do
name=$(basename "$spec" .spec)
for v in $(awk '$1 == "variant" {print $2}' "$spec"); do
    if timeout ${WS_GPU_CHECK_TIMEOUT:-120} "$ws" profile "$spec" --variant "$v" --model sass \
        --json >>"$log" 2>&1; then
        echo "$name / $v: SASS model and GPU outputs equal" | tee -a "$log"
    else
        failures=$((failures + 1)); echo "FAILED: $name.spec / $v" | tee -a "$log"
    fi
done
# per SASS PC, the model's counts beside CUPTI's (a report: outputs are the check here)
python3 "$repo/bench/pc_records.py" compare "$db" "$(awk '$1 == "workload" {print $2}' "$spec")" \
    2>&1 | tee -a "$out/forms-pc.txt" >>"$log"
done
fi

# Source lines on both sides (tests/gpu/lines.spec, tests/sim/cu/lines.cu: a __forceinline__
# function of the file, __shfl_xor_sync, a cooperative group's reduce, atomicAdd): every
# SASS row of the GPU run on a line of lines.cu (CUPTI places intrinsics in toolkit headers;
# `profile` moves them to the line the SASS model gives, and keeps no header file no row
# names), and each line's warp-instructions and thread-instructions equal to the model's.
if part lines; then
echo "== source lines (tests/gpu/lines.spec)" | tee -a "$log"
if timeout ${WS_GPU_CHECK_TIMEOUT:-120} "$ws" profile "$repo/tests/gpu/lines.spec" --model sass \
    --json >>"$log" 2>&1 && python3 - "$db" >"$out/lines.txt" 2>&1 <<'PY'; then
import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
runs = dict(db.execute("SELECT source LIKE 'gpu:%', MAX(id) FROM runs WHERE workload = 'lines' "
                       "GROUP BY source LIKE 'gpu:%'").fetchall())
def per_line(run):
    return {((p or '?').rsplit('/', 1)[-1], l): (n, t) for p, l, n, t in db.execute(
        "SELECT f.path, i.line, SUM(i.issued), SUM(i.active_threads) FROM instructions i "
        "LEFT JOIN source_files f ON f.id = i.file_id WHERE i.run_id = ? AND i.issued > 0 "
        "GROUP BY f.path, i.line", (run,))}
gpu, sim = per_line(runs[1]), per_line(runs[0])
off = sorted(k for k in gpu if k[0] != 'lines.cu')
diff = sorted(k for k in set(gpu) | set(sim) if gpu.get(k) != sim.get(k))
files = [p for (p,) in db.execute("SELECT path FROM source_files WHERE run_id = ?", (runs[1],))
         if not p.endswith('/lines.cu')]
print("lines: GPU rows outside lines.cu: %s; lines whose counts differ: %s; other source files "
      "the GPU run keeps: %s"
      % (off or "none", ["%s:%s gpu %s sim %s" % (k[0], k[1], gpu.get(k), sim.get(k)) for k in diff] or "none",
         files or "none"))
sys.exit(1 if off or diff or files else 0)
PY
    tee -a "$log" <"$out/lines.txt"
    echo "lines: every GPU row on a line of lines.cu, per-line counts equal to the SASS model's" | tee -a "$log"
else
    tee -a "$log" <"$out/lines.txt" 2>/dev/null
    failures=$((failures + 1)); echo "FAILED: lines.spec (source lines on the GPU)" | tee -a "$log"
fi
fi

# Indirect transfers (tests/gpu/indirect.spec, tests/sim/cu/indirect.cu: calls through
# function pointers, BRX, returns to several call sites, lanes split over 1-4 targets): per
# SASS PC the model's counts and, per kernel, its totals (warp- and thread-instructions,
# branch targets, divergent targets: the Range Profiler counts a pass per further target)
# equal to CUPTI's (bench/pc_records.py compare and totals; tests/gpu/indirect-h200.txt has
# the H200's, which test_cli_indirect holds the model to without a GPU).
if part indirect; then
echo "== indirect transfers (tests/gpu/indirect.spec)" | tee -a "$log"
ind_ok=1
for v in $(awk '$1 == "variant" {print $2}' "$repo/tests/gpu/indirect.spec"); do
    timeout ${WS_GPU_CHECK_TIMEOUT:-120} "$ws" profile "$repo/tests/gpu/indirect.spec" --variant "$v" \
        --model sass --repeat 1 --quiet >>"$out/indirect.log" 2>&1 || { ind_ok=0; echo "FAILED: indirect.spec / $v" | tee -a "$log"; }
done
python3 "$repo/bench/pc_records.py" compare "$db" indirect >"$out/indirect-pc.txt" 2>&1
grep -v "SASS PCs equal" "$out/indirect-pc.txt" | grep -q . && ind_ok=0
grep -q "PCs equal to CUPTI's counts (e.g." "$out/indirect-pc.txt" && ind_ok=0
python3 "$repo/bench/pc_records.py" totals "$db" indirect >"$out/indirect-totals.txt" 2>&1 || ind_ok=0
# the GPU's totals in the form of tests/gpu/indirect-h200.txt, to record another GPU's
python3 "$repo/bench/pc_records.py" totals-dump "$db" indirect >"$out/indirect-records.txt" 2>&1
tail -1 "$out/indirect-totals.txt" | tee -a "$log"
if [ $ind_ok = 1 ]; then
    echo "indirect: every variant's per-PC counts and kernel totals equal to the SASS model's" | tee -a "$log"
else
    cat "$out/indirect-pc.txt" "$out/indirect-totals.txt" >>"$log"
    failures=$((failures + 1)); echo "FAILED: indirect.spec (per-PC counts or kernel totals)" | tee -a "$log"
fi
fi

# FCHK, the test that sends IEEE single division to its slow path (bench/fchk/fchk.spec):
# 2^19 timed divisions over every pair of exponent fields, read as records
# (bench/fchk.py) and required equal to bench/records/fchk-h200.txt, which test_sass_fp
# holds the SASS model to without a GPU. Cells where the two timings disagree are left out.
if part fchk; then
echo "== FCHK (bench/fchk/fchk.spec)" | tee -a "$log"
fchk_ok=1
for k in 1 2; do
    timeout ${WS_GPU_CHECK_TIMEOUT:-120} "$ws" run "$repo/bench/fchk/fchk.spec" --no-sim --no-db \
        --repeat 1 --warmup 0 --dump "$out/fchk$k" --quiet >>"$out/fchk.log" 2>&1 || fchk_ok=0
done
python3 "$repo/bench/fchk.py" records "$out/fchk1" "$out/fchk2" >"$out/fchk-records.txt" 2>>"$out/fchk.log" || fchk_ok=0
diff <(grep -v '^[#m]' "$repo/bench/records/fchk-h200.txt") <(grep -v '^[#m]' "$out/fchk-records.txt") \
    >"$out/fchk-diff.txt" 2>&1 || fchk_ok=0
rm -rf "$out/fchk1" "$out/fchk2"
if [ $fchk_ok = 1 ]; then
    echo "fchk: every exponent pair's slow-path choice as recorded ($(grep -c '^mixed' "$out/fchk-records.txt") mixed cells)" | tee -a "$log"
else
    head -20 "$out/fchk-diff.txt" >>"$log"
    failures=$((failures + 1)); echo "FAILED: fchk (records differ: $out/fchk-diff.txt)" | tee -a "$log"
fi
fi

# The Math API sweep (tests/gpu/sweep.spec, tests/sim/cu/sweep.cu): the GPU's outputs and
# each model's, side by side per result slot (bench/sweep_compare.py, $out/sweep.txt). The
# integer kernel must match the GPU exactly on the SASS model; floats and halves are
# reported in ulps (approximate instructions need not be bit-equal).
if part sweep; then
echo "== Math API sweep (tests/gpu/sweep.spec)" | tee -a "$log"
sw=$out/sweep
rm -rf "$sw"
"$ws" run "$repo/tests/gpu/sweep.spec" --no-sim --no-db --warmup 0 --repeat 1 \
    --dump "$sw/gpu" >>"$log" 2>&1 || { failures=$((failures + 1)); echo "FAILED: run sweep.spec" | tee -a "$log"; }
for m in sass ptx; do
    "$ws" sim "$repo/tests/gpu/sweep.spec" --model $m --no-db --quiet --dump "$sw/$m" >>"$log" 2>&1 ||
        { failures=$((failures + 1)); echo "FAILED: sim --model $m sweep.spec" | tee -a "$log"; }
done
python3 "$repo/bench/sweep_compare.py" "$sw/gpu" "$sw/sass" "$sw/ptx" >"$out/sweep.txt" 2>&1
tail -2 "$out/sweep.txt" | tee -a "$log"
if cmp -s "$sw/gpu/imath.o.bin" "$sw/sass/imath.o.bin" && cmp -s "$sw/gpu/imath.ob.bin" "$sw/sass/imath.ob.bin"; then
    echo "sweep / imath: SASS model and GPU outputs equal" | tee -a "$log"
else
    failures=$((failures + 1)); echo "FAILED: sweep / imath (SASS model against the GPU)" | tee -a "$log"
fi
fi

# `run --warmup 0 --repeat 2` (for kernels of minutes): no untimed launch, two timed ones.
if part args; then
echo "== spec argument forms (tests/cli/args)" | tee -a "$log"
bash "$repo/tests/gpu/test_args.sh" "$ws" "$repo" >"$out/args.log" 2>&1
rc=$?
tail -1 "$out/args.log" | tee -a "$log"
[ $rc -eq 0 ] || { failures=$((failures + 1)); echo "FAILED: tests/gpu/test_args.sh (rc $rc)" | tee -a "$log"; }
# Launch sequences through run and profile (tests/gpu/test_launch.sh), a __device__ counter
# carried through a sequence and restored between profiling passes among them.
bash "$repo/tests/gpu/test_launch.sh" "$ws" >"$out/launch.log" 2>&1
rc=$?
tail -1 "$out/launch.log" | tee -a "$log"
[ $rc -eq 0 ] || { failures=$((failures + 1)); echo "FAILED: tests/gpu/test_launch.sh (rc $rc)" | tee -a "$log"; }

if "$ws" run tree_reduction --variant sequential --warmup 0 --repeat 2 --no-sim --no-db --json 2>>"$log" |
   python3 -c 'import json,sys; g=json.load(sys.stdin)["gpu"]; assert g["ws__event_repeat"] == 2 and g["gpu__time_duration.sum"] > 0' 2>>"$log"; then
    echo "run --warmup 0 --repeat 2: 2 timed launches" | tee -a "$log"
else
    failures=$((failures + 1)); echo "FAILED: run --warmup 0 --repeat 2" | tee -a "$log"
fi

# --jit: the driver compiles the PTX (the default loads ptxas's cubin); --dump: the GPU's
# outputs as files, byte-equal to the simulator's --dump of the same variant.
d=$out/dump
rm -rf "$d"
if "$ws" run tree_reduction --variant sequential --jit --no-db --json --dump "$d/gpu" 2>>"$log" |
   python3 -c 'import json,sys; r=json.load(sys.stdin); assert r["gpu_code"].startswith("the driver") and r["outputs_match"], r' 2>>"$log" &&
   "$ws" sim tree_reduction --variant sequential --no-db --dump "$d/sim" >/dev/null 2>>"$log" &&
   [ -n "$(ls "$d/gpu")" ] && diff -r "$d/gpu" "$d/sim" >>"$log" 2>&1; then
    echo "run --jit --dump: the driver's JIT, outputs written and equal to sim --dump" | tee -a "$log"
else
    failures=$((failures + 1)); echo "FAILED: run --jit --dump" | tee -a "$log"
fi
fi

# The workloads after classic benchmarks (launch sequences, host loops until a device flag
# clears, ping-pong buffers): `run` at their spec's sizes, every variant's GPU outputs equal
# to the simulator's and the CPU reference's. `profile` runs them below with the others.
if part classic; then
for w in bfs needleman_wunsch hotspot bitonic_sort byte_histogram; do
    if timeout 120 "$ws" run "$w" --repeat 3 --no-db --json 2>>"$log" | tee -a "$log" | python3 -c '
import json, sys
runs = [json.loads(l) for l in sys.stdin if l.strip()]
bad = [r.get("variant", "?") + ": " + r.get("check_message", "") for r in runs if not r.get("outputs_match")]
sys.exit(1 if bad or not runs else 0)' 2>>"$log"; then
        echo "run $w: outputs equal on the GPU, the simulator and the reference" | tee -a "$log"
    else
        failures=$((failures + 1)); echo "FAILED: run $w" | tee -a "$log"
    fi
done
fi

rows=$out/rows.jsonl
: >"$rows"
if part seeds; then
for spec in "$repo"/kernels/*.spec; do
    w=$(basename "$spec" .spec)
    for size in $(sizes_for "$w"); do
        defs=()
        [ "$size" = - ] || for kv in ${size//,/ }; do defs+=(-D "$kv"); done
        for v in $(awk '$1 == "variant" {print $2}' "$spec"); do
            echo "== $w / $v [${size}]" >>"$log"
            line=$(timeout ${WS_GPU_CHECK_TIMEOUT:-120} "$ws" profile "$spec" "${defs[@]}" --variant "$v" --json 2>>"$log")
            rc=$?
            echo "$line" >>"$log"
            "$ws" compare --workload "$w" --variant "$v" >>"$log" 2>&1
            printf '{"workload":"%s","variant":"%s","size":"%s","rc":%d,"run":%s}\n' \
                "$w" "$v" "$size" "$rc" "${line:-null}" >>"$rows"
        done
    done
done
# compare names the simulator's caveats beside the numbers: histogram/double_cas's CAS loop
# over 512 warps is where the SASS model is known to be far off
if grep -q "simulator warning: model caveat: CAS retry loop at histogram.cu:" "$log"; then
    echo "compare: the simulator's CAS-loop caveat shown beside double_cas" | tee -a "$log"
else
    failures=$((failures + 1)); echo "FAILED: compare did not show the CAS-loop caveat" | tee -a "$log"
fi
# the timing-model preset says when it stands in for another GPU of its compute capability
# (h100 on a Hopper part with no preset of its own, such as a GH200), and only then: an
# H100 and an H200 get their own (h100.gpu, h200.gpu)
if python3 - "$rows" <<'PY' 2>>"$log" | tee -a "$log"
import json, sys
runs = [json.loads(l)["run"] for l in open(sys.argv[1]) if l.strip()]
runs = [r for r in runs if r and r.get("device")]
dev = runs[0]["device"] if runs else {}
want = dev.get("cc") == "9.0" and not any(w in dev.get("name", "").split() for w in ("H100", "H200"))
got = [any("stands in for" in w for w in r.get("sim_warnings", [])) for r in runs]
assert runs and all(g == want for g in got), (dev, want, got)
print("preset: %s on the %s" % ("warns that h100 stands in" if want else "no stand-in warning",
                                dev["name"]))
PY
then :; else
    failures=$((failures + 1)); echo "FAILED: the preset's stand-in warning (rows.jsonl)" | tee -a "$log"
fi
fi

# The SASS model against CUPTI per SASS PC (every deterministic seed kernel must match
# exactly), with the PTX model, the SASS model and the GPU side by side per kernel.
if part sass; then
if bash "$repo/tests/gpu/sass_check.sh" "$build" "$out" "${WS_SASS_CHECK_ONLY:-.}" >>"$log" 2>&1; then
    tail -1 "$out/sass-vs-gpu.txt" | tee -a "$log"
else
    failures=$((failures + 1)); echo "FAILED: SASS model per PC against CUPTI (sass-vs-gpu.txt)" | tee -a "$log"
fi
fi

# The simulator's run beside the GPU's per .cu line: the map page and its terminal view for
# branch_unification/after (the newest pair in the database).
if ! part map; then
    :
elif ! echo seeds | grep -Eq "^(${WS_GPU_PARTS:-.*})\$"; then
    echo "map: skipped (it draws the seeds part's runs, which WS_GPU_PARTS leaves out)" | tee -a "$log"
else
ids=$(python3 - "$db" <<'EOF' 2>>"$log"
import sqlite3, sys
q = ("select max(id) from runs where workload='branch_unification' and variant='after' "
     "and source like ?")
c = sqlite3.connect(sys.argv[1])
print(*[c.execute(q, (s,)).fetchone()[0] for s in ("sim%", "gpu%")])
EOF
)
if [ -n "${ids// /}" ] && "$ws" map $ids -o "$out/map-sim-gpu.html" >>"$log" 2>&1 &&
   "$ws" map $ids --term >"$out/map-sim-gpu.txt" 2>>"$log" &&
   grep -q "gpu:" "$out/map-sim-gpu.txt" && grep -q "NVIDIA" "$out/map-sim-gpu.html"; then
    echo "map: sim run beside GPU run ($ids) in map-sim-gpu.html / .txt" | tee -a "$log"
else
    failures=$((failures + 1)); echo "FAILED: map of sim beside GPU run ($ids)" | tee -a "$log"
fi
fi

# Predicted (timing model, the GPU's preset: h200 on an H200, else h100) against measured
# time on the validation set
# (bench/validation/points.txt: the seed workloads at several sizes, under-filled and full,
# and bench/validation/'s workloads; no preset key is fitted to any of them): the GPU times
# every point (bench/validate.sh), then the model predicts them on the CPUs
# (bench/validate.py report): per pair and per launch, direction, within 1.25x / 1.5x, the
# distribution of predicted/measured and the verdict against the thresholds, in
# validation.txt. A failed validation is reported, not counted as a failing check.
# WS_VALIDATION=measure times the points only (the report is then run on any machine with
# bench/validate.py report); WS_VALIDATION=0 skips the section.
vpreset=h100
nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | grep -qw H200 && vpreset=h200
if [ "${WS_VALIDATION:-1}" = 0 ]; then
    echo "validation: skipped (WS_VALIDATION=0)" | tee -a "$log"
elif [ "${WS_VALIDATION:-1}" = measure ]; then
    if bash "$repo/bench/validate.sh" "$build" "$out/validation-records.json" >"$out/validate.log" 2>&1; then
        echo "validation: points timed into validation-records.json (report not run here)" | tee -a "$log"
    else
        failures=$((failures + 1)); echo "FAILED: bench/validate.sh (validate.log)" | tee -a "$log"
    fi
elif bash "$repo/bench/validate.sh" "$build" "$out/validation-records.json" >"$out/validate.log" 2>&1 &&
   python3 "$repo/bench/validate.py" report "$ws" "$out/validation-records.json" \
       "$repo/sim/presets/$vpreset.gpu" "$out/validation.txt" >>"$out/validate.log" 2>&1; then
    grep -E "^(PASS|FAIL|validation:|ratio pred|absolute pred)" "$out/validation.txt" | tee -a "$log"
else
    failures=$((failures + 1)); echo "FAILED: bench/validate.sh / validate.py report (validate.log)" | tee -a "$log"
fi

python3 - "$rows" "$out/summary.txt" <<'EOF'
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
R = "smsp__thread_inst_executed_per_inst_executed.ratio"
B = "smsp__sass_average_branch_targets_threads_uniform.pct"
def pct(m, k, scale=1.0):
    return "%7.1f" % (100.0 * m[k] / scale) if m and k in m else "      -"
def br(m):
    return "%7.1f" % m[B] if m and B in m else "      -"
head = "%-20s %-16s %-34s %7s %7s %7s %7s %10s %10s  %s" % (
    "workload", "variant", "size", "sim ER", "GPU ER", "sim BE", "GPU BE", "GPU us", "pred us", "outputs")
lines = [head, "-" * len(head)]
bad = 0
for r in rows:
    run = r["run"] or {}
    g, s = run.get("gpu"), run.get("sim")
    # Variants whose outputs are wrong by design (the seeds' race and barrier hazard): the
    # spec says `racy`.
    racy = run.get("racy", False)
    if not run:
        verdict = "ERROR (see run.log)"
    elif run.get("outputs_match"):
        verdict = "match"
    else:
        verdict = "differ (race/hazard, expected): " + run.get("check_message", "") if racy else "DIFFER: " + run.get("check_message", "")
    if verdict.startswith(("ERROR", "DIFFER")):
        bad += 1
    t = "%10.2f" % (g["gpu__time_duration.sum"] / 1e3) if g and "gpu__time_duration.sum" in g else "         -"
    pt = "%10.2f" % (s["sim__time_ns"] / 1e3) if s and "sim__time_ns" in s else "         -"
    lines.append("%-20s %-16s %-34s %s %s %s %s %s %s  %s" % (
        r["workload"], r["variant"], r["size"], pct(s, R, 32), pct(g, R, 32), br(s), br(g), t, pt, verdict))
lines.append("ER = execution rate (thread-insts / 32 x warp-insts), BE = branch efficiency (%%); "
             "pred = the timing model's time for the GPU's preset; "
             "%d runs, %d problems" % (len(rows), bad))
open(sys.argv[2], "w").write("\n".join(lines) + "\n")
print("\n".join(lines))
sys.exit(1 if bad else 0)
EOF
rc=$?
[ $rc -eq 0 ] || failures=$((failures + 1))
echo "gpu check: $failures failing part(s); logs in $out"
[ $failures -eq 0 ]

#!/usr/bin/env bash
# tests/gpu/run.sh — the whole GPU check, on a machine with a GPU and an existing build:
# the GPU test executables, then every seed workload (kernels/*.spec) and variant at
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
    *) echo "-" ;;
    esac
}

echo "== GPU test executables" | tee -a "$log"
for t in "$build"/tests/gpu_*test; do
    [ -x "$t" ] || continue
    "$t" >"$out/$(basename "$t").log" 2>&1
    rc=$?
    tail -1 "$out/$(basename "$t").log" | tee -a "$log"
    [ $rc -eq 0 ] || { failures=$((failures + 1)); echo "FAILED: $t (rc $rc)" | tee -a "$log"; }
done

# An unmodified application under `profile -- APP` and `capture -- APP`, every captured
# launch replayed on the simulator (tests/gpu/test_inject.sh).
echo "== profile/capture -- inject_app" | tee -a "$log"
bash "$repo/tests/gpu/test_inject.sh" "$ws" "$build/tests/inject_app" >"$out/inject.log" 2>&1
rc=$?
tail -1 "$out/inject.log" | tee -a "$log"
[ $rc -eq 0 ] || { failures=$((failures + 1)); echo "FAILED: tests/gpu/test_inject.sh (rc $rc)" | tee -a "$log"; }

# PTX coverage on the GPU (tests/gpu/ptx_*.spec: cp.async, mbarrier, a cooperative grid
# sync): each variant profiled, the simulator's outputs equal to the GPU's.
for spec in "$repo"/tests/gpu/ptx_*.spec; do
    for v in $(awk '$1 == "variant" {print $2}' "$spec"); do
        if timeout ${WS_GPU_CHECK_TIMEOUT:-120} "$ws" profile "$spec" --variant "$v" --json >>"$log" 2>&1; then
            echo "$(basename "$spec" .spec) / $v: sim and GPU outputs equal" | tee -a "$log"
        else
            failures=$((failures + 1)); echo "FAILED: $(basename "$spec") / $v" | tee -a "$log"
        fi
    done
done

# `run --warmup 0 --repeat 2` (for kernels of minutes): no untimed launch, two timed ones.
echo "== spec argument forms (tests/cli/args)" | tee -a "$log"
bash "$repo/tests/gpu/test_args.sh" "$ws" "$repo" >"$out/args.log" 2>&1
rc=$?
tail -1 "$out/args.log" | tee -a "$log"
[ $rc -eq 0 ] || { failures=$((failures + 1)); echo "FAILED: tests/gpu/test_args.sh (rc $rc)" | tee -a "$log"; }

if "$ws" run tree_reduction --variant sequential --warmup 0 --repeat 2 --no-sim --no-db --json 2>>"$log" |
   python3 -c 'import json,sys; g=json.load(sys.stdin)["gpu"]; assert g["ws__event_repeat"] == 2 and g["gpu__time_duration.sum"] > 0' 2>>"$log"; then
    echo "run --warmup 0 --repeat 2: 2 timed launches" | tee -a "$log"
else
    failures=$((failures + 1)); echo "FAILED: run --warmup 0 --repeat 2" | tee -a "$log"
fi

rows=$out/rows.jsonl
: >"$rows"
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

# The SASS model against CUPTI per SASS PC (every deterministic seed kernel must match
# exactly), with the PTX model, the SASS model and the GPU side by side per kernel.
if bash "$repo/tests/gpu/sass_check.sh" "$build" "$out" "${WS_SASS_CHECK_ONLY:-.}" >>"$log" 2>&1; then
    tail -1 "$out/sass-vs-gpu.txt" | tee -a "$log"
else
    failures=$((failures + 1)); echo "FAILED: SASS model per PC against CUPTI (sass-vs-gpu.txt)" | tee -a "$log"
fi

# The simulator's run beside the GPU's per .cu line: the map page and its terminal view for
# branch_unification/after (the newest pair in the database).
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

# Predicted (timing model, h100 preset) against measured time, per variant pair: the
# workloads at their spec's default sizes (the histogram also at 200000 items, the size of
# bench/histogram_sweep.sh). Each line: workload, size, launches to time, and variants not
# timed (the default histogram's CAS loop at 1 bin: six minutes a launch, which
# bench/cas_waves.sh times on its own). The
# predictions run on the CPUs meanwhile.
pairs=$out/pairs.jsonl
: >"$pairs"
pair_list=$(cat <<'PAIRS'
branch_unification - 20
branch_unification DPT=64 20
dynamic_assignment - 20
dynamic_assignment DIST=skewed 20
tree_reduction - 20
himeno - 20
naive_reduction - 20
predication - 20
histogram - 3 double_cas
histogram BINS=10000 5
histogram N=200000,TOTAL_THREADS=16384,BINS=1 20
histogram N=200000,TOTAL_THREADS=16384,BINS=10000 20
PAIRS
)
defs_of() { [ "$1" = - ] || for kv in ${1//,/ }; do printf -- '-D\n%s\n' "$kv"; done; }
n=0
while read -r w size repeat _; do
    n=$((n + 1))
    mapfile -t defs < <(defs_of "$size")
    timeout 500 "$ws" predict "$w" "${defs[@]}" --json --quiet >"$out/pred-$n.json" 2>>"$log" &
done <<<"$pair_list"
n=0
while read -r w size repeat untimed; do
    n=$((n + 1))
    mapfile -t defs < <(defs_of "$size")
    meas="{"
    for v in $(awk '$1 == "variant" {print $2}' "$repo/kernels/$w.spec"); do
        case ",${untimed:-}," in *",$v,"*) meas="$meas\"$v\": null,"; continue ;; esac
        t=$(timeout 300 "$ws" run "$w" "${defs[@]}" --variant "$v" --no-sim --no-db --json --repeat "$repeat" 2>>"$log" |
            python3 -c 'import json,sys; print(json.load(sys.stdin)["gpu"]["gpu__time_duration.sum"])' 2>>"$log")
        meas="$meas\"$v\": ${t:-null},"
    done
    echo "$w $size $repeat ${meas%,}}" >"$out/meas-$n.txt"
done <<<"$pair_list"
wait
n=0
while read -r w size repeat _; do
    n=$((n + 1))
    pred=$(cat "$out/pred-$n.json" 2>/dev/null)
    read -r _ _ _ meas <"$out/meas-$n.txt"
    printf '{"workload":"%s","size":"%s","repeat":%s,"pred":%s,"meas":%s}\n' "$w" "$size" "$repeat" \
        "${pred:-null}" "${meas:-null}" >>"$pairs"
done <<<"$pair_list"
python3 - "$pairs" "$out/pairs.txt" <<'EOF'
import json, sys
out = []
head = "%-20s %-40s %-26s %9s %9s %6s %7s %11s %11s" % ("workload", "size", "variant / base", "predicted", "measured", "agree", "in 1.5x", "pred us", "meas us")
out += [head, "-" * len(head)]
timed = agreed = close = 0
for l in open(sys.argv[1]):
    r = json.loads(l)
    p, m = r["pred"] or {}, r["meas"] or {}
    for x in p.get("ratios", []):
        mb, mv = m.get(x["base"]), m.get(x["variant"])
        meas = mv / mb if mb and mv else None
        pr = x["time_ratio"]
        # A ratio within 10% of 1 on both sides is the same verdict: no gain.
        tie = meas is not None and max(pr, 1 / pr) <= 1.1 and max(meas, 1 / meas) <= 1.1
        agree = meas is not None and (tie or (pr > 1) == (meas > 1))
        within = meas is not None and max(pr / meas, meas / pr) <= 1.5
        timed, agreed, close = timed + (meas is not None), agreed + agree, close + within
        pt = [v["metrics"] for v in p.get("variants", []) if v.get("name") == x["variant"]]
        pus = "%.1f" % (pt[0]["sim__time_ns"] / 1e3) if pt and "sim__time_ns" in pt[0] else "-"
        out.append("%-20s %-40s %-26s %9.2f %9s %6s %7s %11s %11s" % (r["workload"], r["size"], x["variant"] + " / " + x["base"], pr,
                   "%.2f" % meas if meas else "-", ("yes" if agree else "NO") if meas else "-",
                   ("yes" if within else "no") if meas else "-",
                   pus, "%.1f" % (mv / 1e3) if mv else "-"))
out.append("ratios are time(variant) / time(base); predicted by 'warpscope predict' (h100 preset), measured with 'warpscope run' "
           "(median of 20 launches; of 3 for the default-size histogram at 1 bin, 5 at 10^4 bins); size '-' = the spec's defaults; "
           "'-' measured = not timed here (minutes a launch; bench/cas_waves.sh times it); ratios within 10% of 1 on both sides agree (no gain)")
out.append("timed pairs: %d; direction agrees for %d, within 1.5x for %d" % (timed, agreed, close))
open(sys.argv[2], "w").write("\n".join(out) + "\n")
print("\n".join(out))
EOF

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
    # Variants whose outputs are wrong by design (the seeds' race and barrier hazard).
    racy = (r["workload"], r["variant"]) in (("naive_reduction", "racy"), ("histogram", "block_hazard"))
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

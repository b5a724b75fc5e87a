#!/usr/bin/env bash
# bench/histogram_sweep.sh — the atomics workload (seed 001's histogram) over bin counts:
# the timing model's predicted time per variant beside the GPU's measured time (median of
# 20 launches), and both as ratios to plain atomicAdd. Needs a GPU for the measured side.
# Usage: bench/histogram_sweep.sh [BUILD_DIR] [BINS...]   (env: N, TOTAL_THREADS, BIN_T)
set -u
repo=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "${1:-$repo/build}" && pwd) || exit 2
shift || true
bins=${*:-1 10 100 1000 10000 100000}
ws=$build/warpscope
[ -d "$build/lib" ] && export LD_LIBRARY_PATH=${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}$build/lib
n=${N:-200000} tt=${TOTAL_THREADS:-16384} bt=${BIN_T:-int}
printf '%-7s %-13s %11s %11s %9s %9s\n' bins variant "pred us" "meas us" "pred/atm" "meas/atm"
for b in $bins; do
    defs=(-D N=$n -D TOTAL_THREADS=$tt -D BINS=$b -D BIN_T=$bt)
    pred=$("$ws" predict histogram "${defs[@]}" --json --quiet) || { echo "predict failed ($b bins)"; continue; }
    meas="{"
    for v in $(awk '$1 == "variant" {print $2}' "$repo/kernels/histogram.spec"); do
        t=$("$ws" run histogram "${defs[@]}" --variant "$v" --no-sim --no-db --json --repeat 20 2>/dev/null |
            python3 -c 'import json,sys; print(json.load(sys.stdin)["gpu"]["gpu__time_duration.sum"])' 2>/dev/null)
        meas="$meas\"$v\": ${t:-null},"
    done
    python3 - "$b" "$pred" "${meas%,}}" <<'PY'
import json, sys
b, pred, meas = sys.argv[1], json.loads(sys.argv[2]), json.loads(sys.argv[3])
p = {v["name"]: v["metrics"].get("sim__time_ns") for v in pred["variants"]}
pa, ma = p.get("atomic"), meas.get("atomic")
for v, pt in p.items():
    mt = meas.get(v)
    f = lambda x: "%.1f" % (x / 1e3) if x else "-"
    r = lambda x, y: "%.2f" % (x / y) if x and y else "-"
    print("%-7s %-13s %11s %11s %9s %9s" % (b, v, f(pt), f(mt), r(pt, pa), r(mt, ma)))
PY
done

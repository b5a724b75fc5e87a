#!/usr/bin/env bash
# bench/control_flow.sh — the per-trip cost of SASS control flow (BSSY/BSYNC, YIELD, taken
# branches): bench/control_flow's three loops at LOOP_NUM 1, 4 and 16, the timing model's
# predicted time beside the GPU's (median of 10 launches, when a GPU answers).
# Usage: bench/control_flow.sh [BUILD_DIR] [LOOP_NUM...]
set -u
repo=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "${1:-$repo/build}" && pwd) || exit 2
shift || true
ws=$build/warpscope
spec=$repo/bench/control_flow/control_flow.spec
[ -d "$build/lib" ] && export LD_LIBRARY_PATH=${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}$build/lib
printf '%-9s %-8s %11s %11s %14s\n' LOOP_NUM variant "pred us" "meas us" "branch stall"
for l in ${*:-1 4 16}; do
    pred=$("$ws" predict "$spec" -D LOOP_NUM="$l" --json --quiet) || { echo "predict failed (LOOP_NUM=$l)"; continue; }
    for v in atomic static flag; do
        m=$("$ws" run "$spec" -D LOOP_NUM="$l" --variant "$v" --no-sim --no-db --json --repeat 10 2>/dev/null |
            python3 -c 'import json,sys; print("%.1f" % (json.load(sys.stdin)["gpu"]["gpu__time_duration.sum"] / 1e3))' 2>/dev/null)
        python3 - "$l" "$v" "${m:--}" "$pred" <<'PY'
import json, sys
l, v, m, pred = sys.argv[1], sys.argv[2], sys.argv[3], json.loads(sys.argv[4])
x = [r["metrics"] for r in pred["variants"] if r["name"] == v][0]
share = x["sim__stall_branch_cycles"] / max(1.0, sum(x[k] for k in x if k.startswith("sim__stall_")))
print("%-9s %-8s %11.1f %11s %13.0f%%" % (l, v, x["sim__time_ns"] / 1e3, m, 100 * share))
PY
    done
done

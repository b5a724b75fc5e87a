#!/usr/bin/env bash
# bench/cas_waves.sh — the histogram's CAS loop (hist_double_cas) at 1 bin, where every
# thread resident on the GPU contends for one word: the timing model's predicted time beside
# the GPU's (one launch, no warm-up: these run for seconds to minutes) over grids of one to
# several waves of blocks and a few items a thread.
# Usage: bench/cas_waves.sh [BUILD_DIR] [--no-gpu] [POINT...]
#   POINT: THREADS:ITEMS_PER_THREAD, or THREADS/ITEMS for a total (1048576/10000000 is the
#   spec's default size: over ten minutes a launch on an H100)
#   default points: 262144:2 524288:2 1048576:2 1048576:1 2097152:1
#   --no-gpu as the second argument: predicted side only.
set -u
repo=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "${1:-$repo/build}" && pwd) || exit 2
shift || true
gpu=1
[ "${1:-}" = --no-gpu ] && { gpu=0; shift; }
ws=$build/warpscope
[ -d "$build/lib" ] && export LD_LIBRARY_PATH=${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}$build/lib
printf '%-9s %-6s %-10s %9s %9s\n' threads items/t items "pred s" "meas s"
for pt in ${*:-262144:2 524288:2 1048576:2 1048576:1 2097152:1}; do
    case $pt in
        *:*) t=${pt%%:*} k=${pt##*:} n=$((t * k)) ;;
        */*) t=${pt%%/*} n=${pt##*/} k=$(awk -v n="$n" -v t="$t" 'BEGIN { printf "%.2f", n / t }') ;;
        *) echo "bad point '$pt' (THREADS:ITEMS_PER_THREAD or THREADS/ITEMS)" >&2; exit 2 ;;
    esac
    d=(-D BINS=1 -D N="$n" -D TOTAL_THREADS="$t")
    pred=$("$ws" sim histogram "${d[@]}" --variant double_cas --timing --no-db --no-races --quiet --json 2>/dev/null |
           python3 -c 'import json,sys; print("%.3f" % (json.load(sys.stdin)["metrics"]["sim__time_ns"] / 1e9))' 2>/dev/null)
    meas=-
    if [ "$gpu" = 1 ]; then
        meas=$("$ws" run histogram "${d[@]}" --variant double_cas --warmup 0 --repeat 1 --no-sim --no-db --json 2>/dev/null |
               python3 -c 'import json,sys; print("%.3f" % (json.load(sys.stdin)["gpu"]["gpu__time_duration.sum"] / 1e9))' 2>/dev/null)
    fi
    printf '%-9s %-6s %-10s %9s %9s\n' "$t" "$k" "$n" "${pred:--}" "${meas:--}"
done

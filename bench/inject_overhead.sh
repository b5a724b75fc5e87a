#!/usr/bin/env bash
# bench/inject_overhead.sh — what profiling an unmodified application costs per launch:
# the test application (tests/gpu/inject_app, 7 launches) run plain, under
# `warpscope profile -- APP` (Range Profiler + SASS Metrics + Activity, the default set) and
# `warpscope profile --no-sass`, and under Nsight Compute (`ncu` with the same launches and
# its default section set, when ncu is on $PATH); wall seconds of each, and the overhead per
# profiled launch over the plain run. Needs a GPU.
# Usage: bench/inject_overhead.sh [BUILD_DIR] [ITEMS] [REPEAT]
set -u
repo=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "${1:-$repo/build}" && pwd) || exit 2
items=${2:-5000} repeat=${3:-3}
ws=$build/warpscope app=$build/tests/inject_app
[ -d "$build/lib" ] && export LD_LIBRARY_PATH=${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}$build/lib
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
launches=7

# Median wall seconds of `repeat` runs of the command.
wall() {
    for _ in $(seq "$repeat"); do
        s=$(date +%s.%N)
        "$@" >/dev/null 2>"$tmp/err" || { echo "failed: $* ($(tail -1 "$tmp/err"))" >&2; echo nan; return; }
        e=$(date +%s.%N)
        awk -v s="$s" -v e="$e" 'BEGIN { print e - s }'
    done | sort -g | awk '{ v[NR] = $1 } END { printf "%.3f", v[int((NR + 1) / 2)] }'
}

plain=$(wall "$app" "$items")
printf '%-34s %9s %14s\n' "how" "wall s" "ms per launch"
row() { awk -v n="$1" -v t="$2" -v p="$plain" -v l=$launches 'BEGIN { printf "%-34s %9.3f %14.1f\n", n, t, (t - p) * 1000 / l }'; }
row "plain" "$plain"
row "warpscope profile -- APP" "$(wall "$ws" profile --db "$tmp/w.db" -- "$app" "$items")"
row "warpscope profile --no-sass -- APP" "$(wall "$ws" profile --no-sass --db "$tmp/w.db" -- "$app" "$items")"
row "warpscope capture -- APP" "$(wall "$ws" capture -o "$tmp/a.capture" -- "$app" "$items")"
if command -v ncu >/dev/null; then
    row "ncu -- APP (default sections)" "$(wall ncu -f -o "$tmp/ncu" "$app" "$items")"
    row "ncu --section LaunchStats -- APP" "$(wall ncu -f -o "$tmp/ncu1" --section LaunchStats "$app" "$items")"
else
    echo "ncu: not on PATH"
fi
echo "overhead per launch = (wall - plain) / $launches launches; median of $repeat runs; $items items"

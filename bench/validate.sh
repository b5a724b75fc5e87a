#!/usr/bin/env bash
# bench/validate.sh — times the validation set (bench/validation/points.txt: the seed
# workloads at several sizes and bench/validation/'s workloads) on the GPU and writes the
# measured kernel times as JSON records; `bench/validate.py report` then predicts the same
# points and tables predicted against measured. No preset key is fitted to these points.
# Then it times the bench/calib points of the preset keys added since the last calibration
# run (--calib-keys, "" for none) into OUT.calib.json, for bench/calibrate.sh --records.
# Usage: bench/validate.sh BUILD_DIR OUT.json [--points FILE] [--budget S] [--only REGEX]
#                          [--trials N (each point in N processes, the median; default 1)]
#                          [--calib-keys K,...] [--stand-in PRESET (the simulator in the GPU's place: tests)]
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
[ $# -ge 2 ] || { echo "usage: bench/validate.sh BUILD_DIR OUT.json [--points FILE] [--budget S] [--only REGEX] [--stand-in PRESET]" >&2; exit 2; }
build=$(cd "$1" && pwd) || exit 2
out=$2
shift 2
points=$repo/bench/validation/points.txt
opts=(--budget 330)   # stop starting points after 5.5 minutes: the whole run stays under 7
calib_keys=
calib_opts=()
while [ $# -gt 0 ]; do
    case $1 in
        --points) points=$2; shift 2 ;;
        --budget|--only|--timeout|--jobs|--trials) opts+=("$1" "$2"); shift 2 ;;
        --stand-in) opts+=("$1" "$2"); calib_opts=(--stand-in "$2"); shift 2 ;;
        --calib-keys) calib_keys=$2; shift 2 ;;
        *) echo "validate.sh: unknown option '$1'" >&2; exit 2 ;;
    esac
done
ws=$build/warpscope
[ -x "$ws" ] || { echo "validate.sh: no warpscope in $build" >&2; exit 2; }
[ -d "$build/lib" ] && export LD_LIBRARY_PATH=${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}$build/lib
export WARPSCOPE_PTX_CACHE=${WARPSCOPE_PTX_CACHE:-$build/ptx-cache}
python3 "$repo/bench/validate.py" measure "$ws" "$points" "$out" "${opts[@]}"
if [ -n "$calib_keys" ]; then
    python3 "$repo/bench/calibrate.py" measure "$ws" "${out%.json}.calib.json" --keys "$calib_keys" \
        ${calib_opts[@]+"${calib_opts[@]}"}
fi

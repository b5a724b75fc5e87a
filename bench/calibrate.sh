#!/usr/bin/env bash
# bench/calibrate.sh — regenerates a timing-model preset from the microbenchmarks in
# bench/calib/ alone: times each benchmark's two points on the GPU (`warpscope run --json`),
# then fits every key bench/calibrate.py knows to them, on top of BASE (default
# sim/presets/h100.gpu: the keys no benchmark measures yet keep BASE's value and source).
# The recorded times go to OUT_PRESET.records.json, so the fit can be redone without a GPU.
# Usage: bench/calibrate.sh BUILD_DIR OUT_PRESET [--base BASE.gpu] [--stand-in PRESET]
#                           [--keys K,...] [--records RECORDS.json (fit these, no timing)]
#                           [--model ptx|sass (the model the fit runs; default sass)]
#   --stand-in PRESET: the simulator with PRESET takes the GPU's place (tests, no GPU).
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
[ $# -ge 2 ] || { echo "usage: bench/calibrate.sh BUILD_DIR OUT_PRESET [--base BASE.gpu] [--stand-in PRESET] [--keys K,...] [--records RECORDS.json] [--model ptx|sass]" >&2; exit 2; }
build=$(cd "$1" && pwd) || exit 2
out=$2
shift 2
base=$repo/sim/presets/h100.gpu records= measure=() keys=() model=(--model sass)
while [ $# -gt 0 ]; do
    case $1 in
        --base) base=$2; shift 2 ;;
        --stand-in) measure=(--stand-in "$2"); shift 2 ;;
        --keys) keys=(--keys "$2"); shift 2 ;;
        --records) records=$2; shift 2 ;;
        --model) model=(--model "$2"); shift 2 ;;
        *) echo "calibrate.sh: unknown option '$1'" >&2; exit 2 ;;
    esac
done
ws=$build/warpscope
[ -x "$ws" ] || { echo "calibrate.sh: no warpscope in $build" >&2; exit 2; }
if [ -z "$records" ]; then
    records=$out.records.json
    python3 "$repo/bench/calibrate.py" measure "$ws" "$records" ${measure[@]+"${measure[@]}"} ${keys[@]+"${keys[@]}"} "${model[@]}"
fi
python3 "$repo/bench/calibrate.py" fit "$ws" "$records" "$base" "$out" ${keys[@]+"${keys[@]}"} "${model[@]}"
echo "wrote $out"

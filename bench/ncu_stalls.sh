#!/usr/bin/env bash
# bench/ncu_stalls.sh — Nsight Compute's view of where a variant's warps wait, for the
# timing model's misses: cycles between a warp's issues, the stall reasons that fill them
# (long and short scoreboard, "wait": the fixed stall counts ptxas writes into the control
# bits), warps per scheduler and L1 hit rates. GPU machine with ncu on PATH or in
# /usr/local/cuda/bin. ncu locks the SM clock at base, so its durations are not `run`'s.
# Usage: bench/ncu_stalls.sh BUILD_DIR OUT_DIR SPEC VARIANT [-D NAME=VALUE]...
#          writes OUT_DIR/ncu-VARIANT.txt (the full sections) and prints the summary line
#        bench/ncu_stalls.sh --summary NCU_OUTPUT VARIANT
#          the summary line of a saved output (bench/records/ncu-stalls-h200.tgz)
set -u
usage="usage: bench/ncu_stalls.sh BUILD_DIR OUT_DIR SPEC VARIANT [-D NAME=VALUE]... | --summary NCU_OUTPUT VARIANT"

# The summary line of ncu's output file $1 for variant $2 (the kernel's own sections;
# warpscope's clock-spin kernel comes first).
summary() {
    python3 - "$1" "$2" "$(dirname "$0")" <<'PY'
import sys
sys.path.insert(0, sys.argv[3])
from stall_wait import ncu_kernel_section, ncu_value
try:
    text = open(sys.argv[1]).read()
except OSError as e:
    sys.exit("ncu_stalls: %s" % e)
variant = sys.argv[2]
t = ncu_kernel_section(text)
if t is None:
    sys.exit("ncu_stalls: no kernel section in %s" % sys.argv[1])
def val(name):
    v = ncu_value(t, name)
    return "-" if v is None else v
print("%s %s: duration %s us, %s cycles/issue (long sb %s, wait %s, short sb %s), "
      "%s warps/scheduler, L1 hits: global loads %s %%, local loads %s %%" % (
          variant, t.split(" ")[0], val("Duration"), val("Warp Cycles Per Issued Instruction"),
          val("Stall Long Scoreboard"), val("Stall Wait"), val("Stall Short Scoreboard"),
          val("Active Warps Per Scheduler"), val("L1TEX Hit Rate For Global Loads"),
          val("L1TEX Hit Rate For Local Loads")))
PY
}

if [ "${1:-}" = --summary ]; then
    [ $# -eq 3 ] || { echo "$usage" >&2; exit 2; }
    summary "$2" "$3"
    exit
fi
[ $# -ge 4 ] || { echo "$usage" >&2; exit 2; }
build=$1 out=$2 spec=$3 variant=$4
shift 4
ncu=$(command -v ncu || ls /usr/local/cuda*/bin/ncu 2>/dev/null | head -n 1)
[ -n "$ncu" ] || { echo "ncu_stalls: no ncu (Nsight Compute) found" >&2; exit 1; }
[ -d "$build/lib" ] && export LD_LIBRARY_PATH=${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}$build/lib
export WARPSCOPE_PTX_CACHE=${WARPSCOPE_PTX_CACHE:-$build/ptx-cache}
mkdir -p "$out"
f=$out/ncu-$variant.txt
"$ncu" --section SpeedOfLight --section WarpStateStats --section MemoryWorkloadAnalysis_Tables \
    --section SchedulerStats --section LaunchStats --print-details all \
    "$build/warpscope" run "$spec" "$@" --variant "$variant" --no-sim --no-db --warmup 0 \
    --repeat 1 --quiet >"$f" 2>&1 || { echo "ncu_stalls: ncu failed on $variant (see $f)" >&2; exit 1; }
summary "$f" "$variant"

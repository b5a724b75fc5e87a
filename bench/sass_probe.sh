#!/usr/bin/env bash
# bench/sass_probe.sh — profiles, with CUPTI's per-SASS-PC counts beside the SASS model's, the
# control-flow cases whose counting rule comes from measurement rather than documentation:
#   - histogram/match over 1..1000 bins: WARPSYNC.EXCLUSIVE splits a warp into one group per
#     distinct __match_any_sync mask; how the Range Profiler counts its branch targets;
#   - histogram/double_cas on one bin, from one warp to the whole GPU: which lanes of a CAS
#     retry loop the GPU runs together as the number of contending warps grows;
#   - tests/gpu/cas_loops.spec: the CAS loop as written, with a warp vote inside, and with a
#     carried guess, from one warp to the whole GPU (which lanes regroup after a success);
#   - branch_unification/after: the PCs where the GPU issues fewer warp-instructions than
#     the model for the same thread-instructions (divergent groups it runs together), and
#     tests/gpu/bu_probe.spec, the same kernel from one warp up and with lopsided inputs.
# Usage: bench/sass_probe.sh BUILD_DIR OUT_DIR [REGEX]   (GPU machine; REGEX filters cases)
# Writes OUT_DIR/sass-probe.db (one profile run and its simulator run per case) and a log.
set -u
build=$1 out=$2 only=${3:-.}
ws=$build/warpscope
[ -d "$build/lib" ] && export LD_LIBRARY_PATH=${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}$build/lib
export WARPSCOPE_PTX_CACHE=${WARPSCOPE_PTX_CACHE:-$build/ptx-cache}
mkdir -p "$out"
db=$out/sass-probe.db
log=$out/sass-probe.log
: >"$log"
cases=$(cat <<'CASES'
histogram match N=100000,TOTAL_THREADS=16384,BINS=1
histogram match N=100000,TOTAL_THREADS=16384,BINS=2
histogram match N=100000,TOTAL_THREADS=16384,BINS=4
histogram match N=100000,TOTAL_THREADS=16384,BINS=32
histogram match N=100000,TOTAL_THREADS=16384,BINS=1000
histogram double_cas N=320,TOTAL_THREADS=32,THREADS=32,BINS=1
histogram double_cas N=1280,TOTAL_THREADS=128,THREADS=128,BINS=1
histogram double_cas N=16896,TOTAL_THREADS=4224,THREADS=32,BINS=1
histogram double_cas N=100000,TOTAL_THREADS=16384,BINS=1
histogram double_cas N=100000,TOTAL_THREADS=16384,BINS=1000
branch_unification after DPT=4,LOOP=10
branch_unification after DPT=4,LOOP=100
tests/gpu/bu_probe.spec after DPT=4
tests/gpu/bu_probe.spec after DPT=16
tests/gpu/bu_probe.spec after DPT=64
tests/gpu/bu_probe.spec after DPT=16,DIST=mostlyA
tests/gpu/bu_probe.spec after DPT=16,DIST=mostlyB
tests/gpu/bu_probe.spec after DPT=4,THREADS=128
tests/gpu/bu_probe.spec after DPT=4,THREADS=1024
tests/gpu/bu_probe.spec after DPT=4,BLOCKS=64
tests/gpu/bu_probe.spec after DPT=4,BLOCKS=64,THREADS=128
tests/gpu/bu_probe.spec after DPT=4,BLOCKS=64,THREADS=128,LOOP=1
tests/gpu/cas_loops.spec plain BLOCKS=1,THREADS=32
tests/gpu/cas_loops.spec vote BLOCKS=1,THREADS=32
tests/gpu/cas_loops.spec carry BLOCKS=1,THREADS=32
tests/gpu/cas_loops.spec plain BLOCKS=1,THREADS=128
tests/gpu/cas_loops.spec vote BLOCKS=1,THREADS=128
tests/gpu/cas_loops.spec carry BLOCKS=1,THREADS=128
tests/gpu/cas_loops.spec plain BLOCKS=132,THREADS=32,ITEMS=4
tests/gpu/cas_loops.spec vote BLOCKS=132,THREADS=32,ITEMS=4
tests/gpu/cas_loops.spec carry BLOCKS=132,THREADS=32,ITEMS=4
tests/gpu/cas_loops.spec plain BLOCKS=128,THREADS=128,ITEMS=2
tests/gpu/cas_loops.spec vote BLOCKS=128,THREADS=128,ITEMS=2
tests/gpu/cas_loops.spec plain BLOCKS=128,THREADS=128,ITEMS=6,BINS=1000
CASES
)
n=0
while read -r w v size; do
    echo "$w $v $size" | grep -Eq -- "$only" || continue
    defs=()
    for kv in ${size//,/ }; do defs+=(-D "$kv"); done
    n=$((n + 1))
    echo "== [$n] $w / $v [$size]" | tee -a "$log"
    WARPSCOPE_DB=$db timeout 300 "$ws" profile "$w" "${defs[@]}" --variant "$v" --model sass \
        --repeat 1 --quiet >>"$log" 2>&1 || echo "profile failed: $w / $v [$size]" | tee -a "$log"
done <<<"$cases"
echo "sass_probe: $n cases in $db" | tee -a "$log"

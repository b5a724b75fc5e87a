#!/usr/bin/env bash
# bench/apps/cub/build.sh OUTDIR — builds the CUB/Thrust programs of this folder into OUTDIR:
# each NAME.cu gives the executable OUTDIR/NAME (for `bench/capture_apps.sh capture` on a GPU
# machine), OUTDIR/NAME.ptx (nvcc -ptx) and OUTDIR/NAME.sass (nvcc -cubin, then
# `nvdisasm -gi -c`, the form the SASS model reads), for a survey with bench/sass_coverage.py
# and `warpscope sass`. Every file is compiled for sm_90 with -O3 -lineinfo.
# $NVCC and $NVDISASM name the tools where they are not on PATH.
set -u
[ $# -eq 1 ] || { echo "usage: $0 OUTDIR" >&2; exit 2; }
src=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$1" && out=$(cd "$1" && pwd)
nvcc=${NVCC:-nvcc} nvdisasm=${NVDISASM:-nvdisasm}
flags=(-arch=sm_90 -O3 -lineinfo)
fail=0
for cu in "$src"/*.cu; do
    n=$(basename "$cu" .cu)
    if "$nvcc" "${flags[@]}" -o "$out/$n" "$cu" &&
       "$nvcc" "${flags[@]}" -ptx -o "$out/$n.ptx" "$cu" &&
       "$nvcc" "${flags[@]}" -cubin -o "$out/$n.cubin" "$cu" &&
       "$nvdisasm" -gi -c "$out/$n.cubin" > "$out/$n.sass"; then
        echo "$n: built ($(grep -c '^\.entry\|^\.visible \.entry' "$out/$n.ptx") kernels)"
    else
        echo "$n: FAILED" >&2
        fail=1
    fi
done
exit $fail

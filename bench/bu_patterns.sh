#!/usr/bin/env bash
# bench/bu_patterns.sh — profiles branch_unification/after on one warp with the inputs of
# bench/bu_patterns.py (lanes that leave the A and B search loops in chosen trips) and puts
# CUPTI's per-SASS-PC counts beside the SASS model's. The records it made on the H100 are
# bench/records/bu-patterns-h100.txt; tests/cli/test_cli_sass.sh holds the model to them.
# Usage: bench/bu_patterns.sh BUILD_DIR OUT_DIR [--cuts]   (GPU machine; --cuts: see bu_patterns.py)
# Writes OUT_DIR/bu-patterns.db (a GPU run and a simulator run per pattern), .log and .txt.
set -u
build=$1 out=$2 cuts=${3:-}
here=$(cd "$(dirname "$0")" && pwd)
[ -d "$build/lib" ] && export LD_LIBRARY_PATH=${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}$build/lib
export WARPSCOPE_PTX_CACHE=${WARPSCOPE_PTX_CACHE:-$build/ptx-cache}
mkdir -p "$out"
pat=$(mktemp -d)
trap 'rm -rf "$pat"' EXIT
db=$out/bu-patterns.db log=$out/bu-patterns.log
: >"$log"
names=$(python3 "$here/bu_patterns.py" write "$pat" "$here/../kernels/branch_unification.cu" $cuts) || exit 1
n=0
for p in $names; do
    n=$((n + 1))
    echo "== [$n] $p" | tee -a "$log"
    "$build/warpscope" profile "$pat/$p.spec" --model sass --repeat 1 --db "$db" --quiet \
        >>"$log" 2>&1 || echo "profile failed: $p" | tee -a "$log"
done
python3 "$here/bu_patterns.py" table "$db" | tee "$out/bu-patterns.txt"

#!/usr/bin/env bash
# demo.sh — the main job: set up, build, simulate the seed kernels into warpscope.db and
# draw the branch-unification before/after divergence map into map.html.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PATH:/usr/local/cuda/bin"
bash scripts/setup.sh
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build -j"$(nproc)"
ws=./build/warpscope
db=${WARPSCOPE_DB:-warpscope.db}

$ws list --short
# Seed 000: branch path unification (Table 4, on the PTX model of the seed's era, then on
# the SASS an H100 runs) and dynamic work assignment (Table 1).
$ws sim branch_unification --model ptx --db "$db" >/dev/null && echo "simulated branch_unification (PTX model)"
$ws sim branch_unification --db "$db"
$ws sim dynamic_assignment -D TRIP_SCALE=64 --db "$db"
# Seeds 002-004: reductions, divergence and predication examples.
for w in naive_reduction tree_reduction shuffle_reduction divergence_examples predication; do
  $ws sim "$w" --db "$db" >/dev/null && echo "simulated $w"
done
# The newest before and after runs of branch_unification, side by side.
$ws map branch_unification --db "$db" -o map.html
$ws runs --db "$db"
echo "wrote $db and map.html (open map.html in a browser)"

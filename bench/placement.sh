#!/usr/bin/env bash
# placement.sh — where the GPU's block scheduler puts CTAs (bench/placement): for each launch
# shape, runs bench/placement/placement.spec on the GPU and tallies CTAs per SM, how many an SM
# held at once and how long they took (bench/placement.py). A shape whose run fails is named
# with the run's last line and the others go on; the exit status is 1 if any failed.
# usage: bench/placement.sh BUILD_DIR OUT_DIR
set -euo pipefail
build=${1:?usage: placement.sh BUILD_DIR OUT_DIR}
out=${2:?usage: placement.sh BUILD_DIR OUT_DIR}
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$out"
shapes=(
  "chase CTAS=132 THREADS=128" "chase CTAS=132 THREADS=512" "chase CTAS=132 THREADS=768"
  "chase CTAS=132 THREADS=1024" "chase CTAS=264 THREADS=1024" "chase CTAS=528 THREADS=128"
  "chase CTAS=8 THREADS=128" "spin CTAS=132 THREADS=128" "spin CTAS=132 THREADS=1024"
  "spin CTAS=528 THREADS=128" "spin CTAS=66 THREADS=128"
)
failed=0
for s in "${shapes[@]}"; do
  set -- $s
  v=$1; shift
  defs=(); for d in "$@"; do defs+=(-D "$d"); done
  d="$out/$v-$(echo "$*" | tr ' =' '_-')"
  mkdir -p "$d"
  "$build/warpscope" run "$here/placement/placement.spec" --variant "$v" "${defs[@]}" \
    --no-sim --no-db --warmup 1 --repeat 3 --dump "$d" --quiet > "$d/run.txt" 2>&1 ||
    { echo "$v $*: run failed: $(tail -1 "$d/run.txt")"; failed=$((failed + 1)); continue; }
  python3 "$here/placement.py" "$d/$v.where.bin" "$v $*"
done
if [ $failed -gt 0 ]; then
  echo "placement.sh: $failed of ${#shapes[@]} shapes failed" >&2
  exit 1
fi

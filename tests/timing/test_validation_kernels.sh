#!/bin/sh
# test_validation_kernels.sh — every workload of bench/validation/ on the simulator at small
# sizes (under-filled and several CTAs, few and many bins or words): each variant's outputs
# equal the first variant's (warpscope sim checks between variants), and the histogram's
# bins add up to its item count. usage: test_validation_kernels.sh BUILD_DIR
build=$1
src=$(cd "$(dirname "$0")/../.." && pwd)
ws=$build/warpscope
. "$src/tests/cli/cli_lib.sh"   # tmp (removed on exit), bad, fail
n=0
while read -r w defs; do
    n=$((n + 1))
    set --
    for kv in $defs; do set -- "$@" -D "$kv"; done
    "$ws" sim "$src/bench/validation/$w.spec" "$@" --no-db --json --quiet --dump "$tmp/d$n" > "$tmp/o$n.json" 2>"$tmp/e$n" ||
        { bad "$w $defs: $(tail -1 "$tmp/e$n")"; continue; }
    python3 - "$tmp/o$n.json" "$w $defs" <<'PY' || bad "$w $defs: variants differ"
import json, sys
runs = json.load(open(sys.argv[1]))["runs"]
assert len(runs) >= 2, "fewer than two variants"
for r in runs:
    if not (r["outputs_checked"] and r["outputs_match"]):
        print("%s %s: %s" % (sys.argv[2], r["variant"], r["check_message"]))
        sys.exit(1)
PY
done <<'LIST'
val_hist N=5000 BLOCKS=4 BINS=1
val_hist N=5000 BLOCKS=4 BINS=37
val_hist N=3000 BLOCKS=2 BINS=20000
val_cas_f64 N=3000 BLOCKS=2 ADDRS=1
val_cas_f64 N=3000 BLOCKS=3 ADDRS=50
val_cas_f32 N=3000 BLOCKS=2 ADDRS=3
val_cas_u64 N=3000 BLOCKS=2 ADDRS=3
val_cas_max N=3000 BLOCKS=2 ADDRS=3
val_dyn BLOCKS=3 APB=300 DIST=skewed
val_dyn BLOCKS=2 APB=256 DIST=uniform CHUNK=3
val_branch BLOCKS=2 DPT=5 LA=7 LB=13
val_reduce N=10000 BLOCKS=3
val_reduce N=5000 BLOCKS=2 THREADS=64
LIST
# The histogram's bins hold every item once (N=5000, 37 bins, each variant's dump).
python3 - "$tmp/d2" <<'PY' || bad "val_hist: the bins do not add up to N"
import os, struct, sys
d = sys.argv[1]
for f in sorted(os.listdir(d)):
    b = open(os.path.join(d, f), "rb").read()
    s = sum(struct.unpack("<%di" % (len(b) // 4), b))
    assert len(b) == 37 * 4 and s == 5000, (f, len(b), s)
PY
# A CAS loop that most items leave without a CAS (a max that soon holds) has fewer
# contenders than the threads resident on each word: only threads in the loop contend.
"$ws" sim "$src/bench/validation/val_cas_max.spec" --variant cas --timing --no-db --json --quiet \
    --no-races > "$tmp/max.json" 2>"$tmp/max.err" || bad "val_cas_max with --timing: $(tail -1 "$tmp/max.err")"
python3 - "$tmp/max.json" <<'PY' || bad "CAS-max contenders"
import json, sys
m = json.load(open(sys.argv[1]))["metrics"]
resident_per_word = 264 * 256 / 64  # every thread resident (2 CTAs a SM), 64 words
c = m["sim__atomic_cas_contenders"]
assert 1 < c < 0.5 * resident_per_word, (c, resident_per_word)
PY
[ $fail = 0 ] && echo "validation kernels: ok" || { echo "validation kernels: $fail failed"; exit 1; }

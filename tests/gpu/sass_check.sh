#!/usr/bin/env bash
# tests/gpu/sass_check.sh — the SASS model against the GPU, per SASS instruction: every
# seed workload and variant runs through `warpscope profile --model sass` (the GPU loads the
# cubin ptxas made, CUPTI counts each SASS PC; the simulator runs that same SASS), then
# per PC the simulator's warp-level and thread-level counts are compared with CUPTI's
# inst_executed and thread_inst_executed, and per kernel the threads per warp-instruction
# and branch efficiency of the PTX model, the SASS model and the GPU are tabulated.
# Usage: tests/gpu/sass_check.sh BUILD_DIR OUT_DIR [REGEX]  (called by tests/gpu/run.sh;
#        REGEX keeps only the cases whose "workload defines" line matches)
set -u
repo=$(cd "$(dirname "$0")/../.." && pwd)
build=$1 out=$2 only=${3:-.}
ws=$build/warpscope
db=$out/sass-check.db
rm -f "$db"
log=$out/sass-check.log
: >"$log"
# workload, -D assignments ("-" for none); the racy variants and CAS loops are not
# deterministic per PC and are reported, not required to match (a CAS loop of one warp is).
cases=$(cat <<'CASES'
branch_unification DPT=4,LOOP=10
branch_unification DPT=4,LOOP=100
branch_unification DPT=16,LOOP=100
branch_unification DPT=64,LOOP=100
branch_unification DPT=4,LOOP=1000
branch_unification DPT=16,LOOP=1000
branch_unification DPT=64,LOOP=1000
dynamic_assignment LOOP_NUM=4,TRIP_SCALE=4
dynamic_assignment LOOP_NUM=16,TRIP_SCALE=4,DIST=skewed
tree_reduction -
shuffle_reduction -
naive_reduction -
predication -
divergence_examples -
himeno -
histogram N=100000,TOTAL_THREADS=16384
histogram N=100000,TOTAL_THREADS=16384,BINS=1000
histogram N=320,TOTAL_THREADS=32,THREADS=32,BINS=1
CASES
)
while read -r w size; do
    echo "$w $size" | grep -Eq -- "$only" || continue
    defs=()
    [ "$size" = - ] || for kv in ${size//,/ }; do defs+=(-D "$kv"); done
    for v in $(awk '$1 == "variant" {print $2}' "$repo/kernels/$w.spec"); do
        echo "== $w / $v [$size]" >>"$log"
        WARPSCOPE_DB=$db timeout 300 "$ws" profile "$w" "${defs[@]}" --variant "$v" --model sass \
            --repeat 1 --quiet >>"$log" 2>&1 || echo "profile --model sass failed: $w / $v [$size]" >>"$log"
    done
    WARPSCOPE_DB=$db timeout 300 "$ws" sim "$w" "${defs[@]}" --model ptx --quiet \
        >>"$log" 2>&1 || echo "sim --model ptx failed: $w [$size]" >>"$log"
done <<<"$cases"

python3 - "$db" "$out/sass-vs-gpu.txt" <<'EOF'
import sqlite3, sys
c = sqlite3.connect(sys.argv[1])
R = "smsp__thread_inst_executed_per_inst_executed.ratio"
B = "smsp__sass_average_branch_targets_threads_uniform.pct"
def metric(run, name):
    r = c.execute("select value from metrics where run_id=? and name=?", (run, name)).fetchone()
    return r[0] if r else None
nondet = {("naive_reduction", "racy"), ("histogram", "block_hazard"), ("histogram", "double_cas"),
          ("dynamic_assignment", "after")}
runs = c.execute("select id, workload, variant, params, source from runs order by id").fetchall()
by = {}
for rid, w, v, p, src in runs:
    kind = "gpu" if src.startswith("gpu") else ("sass" if src == "sim:sass" else "ptx")
    by.setdefault((w, v, p), {})[kind] = rid
head = "%-20s %-15s %-30s %6s %6s %6s %6s %6s %6s  %s" % ("workload", "variant", "params", "PTX", "SASS", "GPU",
       "PTX", "SASS", "GPU", "per-PC inst / thread-inst equal")
lines = [head, "%-72s %20s %20s" % ("", "threads/warp-inst", "branch eff. %"), "-" * len(head)]
exact = required = within = total = 0
for (w, v, p), k in sorted(by.items()):
    if "gpu" not in k or "sass" not in k:
        continue
    g, s = k["gpu"], k["sass"]
    rows = c.execute("""select a.pc, a.issued, b.issued, a.active_threads, b.active_threads
        from instructions a join instructions b on a.pc = b.pc and a.function = b.function
        where a.run_id = ? and b.run_id = ?""", (s, g)).fetchall()
    eq_i = sum(1 for r in rows if r[1] == r[2]); eq_t = sum(1 for r in rows if r[3] == r[4])
    # one warp alone: its CAS loop does not race other warps (BSYNC past YIELD decides it)
    det = (w, v) not in nondet or (v == "double_cas" and " TOTAL_THREADS=32 " in " %s " % p)
    ok = rows and eq_i == len(rows) and eq_t == len(rows)
    required += det; exact += det and ok
    rp, rs, rg = (metric(k.get(x), R) if k.get(x) else None for x in ("ptx", "sass", "gpu"))
    bp, bs, bg = (metric(k.get(x), B) if k.get(x) else None for x in ("ptx", "sass", "gpu"))
    total += 1
    within += rs is not None and rg is not None and abs(rs - rg) <= 0.5
    f = lambda x, fmt="%6.2f": fmt % x if x is not None else "     -"
    lines.append("%-20s %-15s %-30s %s %s %s %s %s %s  %d/%d, %d/%d%s" % (w, v, p[:30], f(rp), f(rs), f(rg),
                 f(bp, "%6.1f"), f(bs, "%6.1f"), f(bg, "%6.1f"), eq_i, len(rows), eq_t, len(rows),
                 "" if det else " (not deterministic)"))
lines.append("deterministic kernels with every SASS PC equal to CUPTI's counts: %d of %d; "
             "threads/warp-instruction within 0.5 lanes of the GPU's: %d of %d" % (exact, required, within, total))
open(sys.argv[2], "w").write("\n".join(lines) + "\n")
print("\n".join(lines))
sys.exit(0 if exact == required and required > 0 else 1)
EOF

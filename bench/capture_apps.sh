#!/usr/bin/env bash
# bench/capture_apps.sh — kernels the project has never seen: runs every executable in APPDIR
# (CUDA applications built elsewhere, e.g. NVIDIA's cuda-samples) under `warpscope capture`,
# keeping the first launches of each, and then (on any machine, no GPU needed) replays each
# captured launch on the PTX and the SASS model and reports whether the simulator's memory
# after the launch equals the GPU's, byte for byte.
# `rates` (GPU machine) also profiles each application's launches with CUPTI (`warpscope
# profile -- APP`: Range Profiler metrics and SASS Metrics per instruction), replays the
# captured launches on both models (each into a database of its own), and tabulates per
# launch the threads per warp-instruction and branch efficiency of the GPU and of each
# model, and how many SASS PCs the SASS model has equal to CUPTI's.
# Usage: bench/capture_apps.sh capture BUILD_DIR APPDIR OUT_DIR   (GPU machine)
#        bench/capture_apps.sh replay  BUILD_DIR CAPTURE_DIR [TABLE] (anywhere)
#        bench/capture_apps.sh rates   BUILD_DIR APPDIR OUT_DIR     (GPU machine)
# Captures larger than $WS_APP_MAX_MB MiB (default 64) are dropped (their replays take long);
# $WS_APP_LAUNCHES (default 3) launches of each application are kept.
set -u
mode=$1 build=$(cd "$2" && pwd) dir=$(cd "$3" && pwd)
ws=$build/warpscope
[ -d "$build/lib" ] && export LD_LIBRARY_PATH=${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}$build/lib
# Captures the first LAUNCHES launches of APP into OUT/NAME.capture (log OUT/NAME.log),
# dropping a capture over $WS_APP_MAX_MB MiB.
capture_app() {
    local app=$1 out=$2 launches=$3 n max size
    n=$(basename "$app")
    (cd "$out" && timeout 120 "$ws" capture --launch-count "$launches" -o "$n.capture" \
        -- "$app" > "$n.log" 2>&1)
    echo "$n: capture rc $? $(tail -n 1 "$out/$n.log" | cut -c1-100)"
    max=${WS_APP_MAX_MB:-64}
    size=$(stat -c %s "$out/$n.capture" 2>/dev/null || echo 0)
    if [ "$size" -gt $((max << 20)) ]; then
        rm -f "$out/$n.capture"
        echo "$n: capture over $max MiB, dropped"
    fi
}

case $mode in
capture)
    out=$4
    mkdir -p "$out"
    for app in "$dir"/*; do
        [ -x "$app" ] && [ -f "$app" ] || continue
        capture_app "$app" "$out" "${WS_APP_LAUNCHES:-3}"
    done
    ;;
replay)
    table=${4:-/dev/stdout}
    printf '%-26s %-42s %-8s %-8s %s\n' app launch ptx sass \
        "(memory after the launch equal to the GPU's)" >"$table"
    for cap in "$dir"/*.capture; do
        n=$(basename "$cap" .capture)
        "$ws" sim "$cap" --list 2>/dev/null | awk '/^ *[0-9]+ /{print $1}' | while read -r i; do
            verdict() {
                out=$("$ws" sim "$cap" --launch "$i" --model "$1" --no-db --json --quiet 2>&1)
                if echo "$out" | grep -q '"outputs_match": true'; then echo equal
                elif echo "$out" | grep -q '"outputs_match": false'; then echo DIFFER
                else echo "error: $(echo "$out" | tail -n 1 | cut -c1-160)"; fi
            }
            p=$(verdict ptx) s=$(verdict sass)
            k=$("$ws" sim "$cap" --list 2>/dev/null | awk -v i="$i" '$1 == i {print $2}')
            printf '%-26s %-42s %-8s %s\n' "$n" "$i ${k:0:38}" "${p%%:*}" "$s" >>"$table"
            case $p in error*) echo "  $n #$i ptx: $p" >>"$table" ;; esac
        done
    done
    ;;
rates)
    out=$4
    mkdir -p "$out"
    out=$(cd "$out" && pwd)
    db=$out/rates.db
    rm -f "$db" "$out"/replay-*.db
    n_launch=${WS_APP_LAUNCHES:-2}
    for app in "$dir"/*; do
        [ -x "$app" ] && [ -f "$app" ] || continue
        n=$(basename "$app")
        (cd "$out" && timeout 300 "$ws" profile --launch-count "$n_launch" --db "$db" --quiet \
            -- "$app" > "$n.profile.log" 2>&1)
        echo "$n: profile rc $?"
        capture_app "$app" "$out" "$n_launch"
    done
    # every captured launch on both models, in parallel, each into a database of its own
    for cap in "$out"/*.capture; do
        [ -f "$cap" ] || continue
        "$ws" sim "$cap" --list 2>/dev/null | awk '/^ *[0-9]+ /{print $1}' | while read -r i; do
            for m in sass ptx; do echo "$cap $i $m"; done
        done
    done | xargs -P "${WS_APP_JOBS:-8}" -n 3 sh -c 'timeout 600 "$0" sim "$1" --launch "$2" \
        --model "$3" --threads 1 --quiet \
        --db "$(dirname "$1")/replay-$(basename "$1" .capture)-$2-$3.db" \
        > "$(dirname "$1")/replay-$(basename "$1" .capture)-$2-$3.log" 2>&1' "$ws"
    python3 - "$db" "$out" <<'PYEOF'
import glob, os, sqlite3, sys
db, out = sys.argv[1], sys.argv[2]
R = "smsp__thread_inst_executed_per_inst_executed.ratio"
B = "smsp__sass_average_branch_targets_threads_uniform.pct"
if not os.path.exists(db):
    sys.exit("no launch was profiled (see the *.profile.log files)")
g = sqlite3.connect(db)
def metric(c, run, name):
    r = c.execute("select value from metrics where run_id=? and name=?", (run, name)).fetchone()
    return r[0] if r else None
sims = {}
for f in glob.glob(os.path.join(out, "replay-*.db")):
    c = sqlite3.connect(f)
    for rid, w, v, src in c.execute("select id, workload, variant, source from runs"):
        sims[(w, v, "sass" if src == "sim:sass" else "ptx")] = (f, rid)
print("%-24s %-40s %7s %7s %7s  %6s %6s %6s  %s" % ("app", "launch", "GPU", "SASS", "PTX",
      "GPU", "SASS", "PTX", "SASS PCs equal (inst, thread-inst)"))
print("%-65s %23s %20s" % ("", "threads/warp-inst", "branch eff. %"))
near = {"sass": 0, "ptx": 0}
n = 0
for gid, w, v in g.execute("select id, workload, variant from runs where source like 'gpu%' "
                           "order by id").fetchall():
    gr, gb = metric(g, gid, R), metric(g, gid, B)
    if gr is None:
        continue
    cols, eq = [], ""
    for m in ("sass", "ptx"):
        if (w, v, m) not in sims:
            cols.append((None, None))
            continue
        f, rid = sims[(w, v, m)]
        c = sqlite3.connect(f)
        cols.append((metric(c, rid, R), metric(c, rid, B)))
        if m == "sass":
            c.execute("attach ? as g", (db,))
            rows = c.execute("select a.issued = b.issued, a.active_threads = b.active_threads "
                             "from instructions a join g.instructions b on a.pc = b.pc and "
                             "a.function = b.function where a.run_id = ? and b.run_id = ?",
                             (rid, gid)).fetchall()
            eq = "%d/%d, %d/%d" % (sum(r[0] for r in rows), len(rows), sum(r[1] for r in rows),
                                   len(rows))
    n += 1
    for m, (r, _) in zip(("sass", "ptx"), cols):
        near[m] += r is not None and abs(r - gr) <= 1.0
    f = lambda x: "%7.2f" % x if x is not None else "      -"
    fb = lambda x: "%6.1f" % x if x is not None else "     -"
    print("%-24s %-40s %s %s %s  %s %s %s  %s" % (w[:24], v[:40], f(gr), f(cols[0][0]),
          f(cols[1][0]), fb(gb), fb(cols[0][1]), fb(cols[1][1]), eq))
print("launches: %d; threads/warp-instruction within 1 lane of the GPU's: SASS model %d, "
      "PTX model %d" % (n, near["sass"], near["ptx"]))
PYEOF
    ;;
*)
    echo "usage: bench/capture_apps.sh capture|replay|rates BUILD_DIR DIR [OUT]" >&2
    exit 2
    ;;
esac

#!/usr/bin/env bash
# bench/fuzz_gpu.sh — random kernels against the GPU, per SASS PC: bench/fuzz_models.py writes
# COUNT race-free kernels from SEED on (divergent and data-dependent control flow, early
# returns, per-lane loops, switch, warp votes and shuffles under __activemask(), atomics whose
# results nothing reads, __noinline__ helpers; no CAS retry loops, so every count is
# deterministic), `warpscope profile --model sass` runs each on the GPU with CUPTI and on the
# SASS model with the same inputs (outputs must be equal), and bench/pc_records.py compares
# each SASS PC's inst_executed and thread_inst_executed with CUPTI's.
# Usage: bench/fuzz_gpu.sh BUILD_DIR OUT_DIR [SEED [COUNT]]   (GPU machine; default 9000 100)
#        bench/fuzz_gpu.sh --prepare BUILD_DIR OUT_DIR [SEED [COUNT]]   (anywhere: writes the
#        kernels and fills BUILD_DIR/ptx-cache by running each on the SASS model, so that the
#        GPU machine finds them compiled)
# Writes OUT/fuzz-gpu.txt: one line per kernel, then the totals, and OUT/fuzz-gpu-records.tgz:
# per kernel the GPU's per-PC counts (records/fzSEED.txt, as `bench/pc_records.py dump`) and
# outputs (outputs/SEED/v.out.bin), for `bench/fuzz_gpu.sh --check` on any machine.
#        bench/fuzz_gpu.sh --check BUILD_DIR OUT_DIR RECORDS.tgz [SEED [COUNT]]   (anywhere:
#        the SASS model's counts and outputs of the same kernels against those records)
# Exit 0 (a report), but --check exits 1 when a kernel differs. FUZZ_SEEDS="S1 S2 ..." takes
# those seeds instead of SEED..SEED+COUNT-1. FUZZ_WIDE=1 writes the kernels with
# fuzz_models.py --wide-types (double and half expressions too) and without __activemask(),
# so that outputs follow the arithmetic alone: the same setting must be given to --check.
# FUZZ_TIMEOUT (seconds, default 60) bounds each kernel's profile on the GPU; a kernel past it
# is reported as not finished (docs/results/fuzz-gpu-h200.txt: seed 740012 hangs on an H200).
set -u
prepare=0 check=
[ "${1:-}" = --prepare ] && { prepare=1; shift; }
[ "${1:-}" = --check ] && { check=$4; set -- "$2" "$3" "${5:-9000}" "${6:-100}"; }
repo=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "$1" && pwd) out=$2 seed=${3:-9000} count=${4:-100}
ws=$build/warpscope
[ -d "$build/lib" ] && export LD_LIBRARY_PATH=${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}$build/lib
export WARPSCOPE_PTX_CACHE=${WARPSCOPE_PTX_CACHE:-$build/ptx-cache}
mkdir -p "$out"
kdir=$out/kernels
seeds=${FUZZ_SEEDS:-$(seq "$seed" $((seed + count - 1)))}
count=$(echo $seeds | wc -w)
kinds=(--activemask --no-cas)
[ "${FUZZ_WIDE:-0}" = 1 ] && kinds=(--wide-types --no-cas)
for s in $seeds; do
    python3 "$repo/bench/fuzz_models.py" --write "$kdir" --seed "$s" --count 1 "${kinds[@]}" ||
        exit 2
done
if [ $prepare = 1 ]; then
    for s in $seeds; do
        "$ws" sim "$kdir/$s/k.spec" --model sass --no-db --quiet >/dev/null 2>&1 ||
            echo "seed $s: the SASS model refuses it here"
    done
    echo "prepared $count kernels in $kdir"
    exit 0
fi
if [ -n "$check" ]; then
    tar xzf "$check" -C "$out" || exit 2
    bad=0
    : >"$out/classes.txt"
    for s in $seeds; do
        rec=$out/records/fz$s.txt
        [ -s "$rec" ] || { bad=$((bad + 1)); echo "fz$s: no GPU records in $check"; continue; }
        rm -f "$out/check.db"
        "$ws" sim "$kdir/$s/k.spec" --model sass --db "$out/check.db" --quiet \
            --dump "$out/sim/$s" >/dev/null 2>&1
        why=
        python3 "$repo/bench/pc_records.py" check "$out/check.db" "$rec" "fz$s" >"$out/check.txt" ||
            why=$(head -n 1 "$out/check.txt")
        cmp -s "$out/sim/$s/v.out.bin" "$out/outputs/$s/v.out.bin" || why="$why outputs differ"
        [ -n "$why" ] && { bad=$((bad + 1)); echo "fz$s: $why"; }
        # class (a YIELD ran in a diverged warp or not), equal or not, rate within 0.5 lanes
        awk -v eq="$([ -z "$why" ] && echo 1 || echo 0)" '$2 == "rate" {
            d = $3 - $4; print ($6 > 0 ? "yield" : "other"), eq, (d <= 0.5 && d >= -0.5) }' \
            "$out/check.txt" >>"$out/classes.txt"
    done
    echo "kernels: $count; differing from the GPU's records: $bad"
    awk '{ n[$1]++; e[$1] += $2; r[$1] += $3 }
         END { for (c in n) printf "%s: %d kernels, %d equal to the GPU at every PC and in outputs, %d within 0.5 lanes a warp-instruction\n",
               (c == "yield" ? "a YIELD ran in a diverged warp" : "no YIELD in a diverged warp"), n[c], e[c], r[c] }' \
        "$out/classes.txt" | sort
    [ $bad = 0 ]
    exit
fi
db=$out/fuzz-gpu.db
rm -f "$db"
report=$out/fuzz-gpu.txt
: >"$report"
equal=0 outs=0 n=0
for s in $seeds; do
    n=$((n + 1))
    [ $((n % 10)) = 0 ] && echo "fuzz_gpu: $n of $count kernels" >&2
    timeout "${FUZZ_TIMEOUT:-60}" "$ws" profile "$kdir/$s/k.spec" --model sass --repeat 1 --warmup 0 \
        --db "$db" --dump "$out/outputs/$s" >"$out/profile.log" 2>&1
    rc=$?
    mkdir -p "$out/records"
    if [ $rc = 124 ]; then
        echo "fz$s / v: the GPU run did not finish within ${FUZZ_TIMEOUT:-60} s (hung on the GPU, or" \
             "longer than FUZZ_TIMEOUT): no records" >>"$report"
        continue
    fi
    python3 "$repo/bench/pc_records.py" dump "$db" "fz$s" >"$out/records/fz$s.txt"
    line=$(python3 "$repo/bench/pc_records.py" compare "$db" "fz$s" 2>&1 | tail -n 1)
    if [ $rc = 0 ]; then
        outs=$((outs + 1))
    else
        line="$line; profile rc $rc: $(grep -m1 -E 'warpscope:|MISMATCH' "$out/profile.log" | cut -c1-160)"
    fi
    echo "$line" >>"$report"
    case $line in *" SASS PCs equal"*) set -- $line
        [ "$4" = "$6" ] && equal=$((equal + 1));; esac
done
mkdir -p "$out/records" "$out/outputs"
(cd "$out" && tar czf fuzz-gpu-records.tgz records outputs)
echo "kernels: $count; outputs equal to the GPU's: $outs; every SASS PC equal to CUPTI's: $equal" |
    tee -a "$report"

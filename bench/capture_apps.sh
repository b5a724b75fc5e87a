#!/usr/bin/env bash
# bench/capture_apps.sh — kernels the project has never seen: runs every executable in APPDIR
# (CUDA applications built elsewhere, e.g. NVIDIA's cuda-samples) under `warpscope capture`,
# keeping the first launches of each, and then (on any machine, no GPU needed) replays each
# captured launch on the PTX and the SASS model and reports whether the simulator's memory
# after the launch equals the GPU's, byte for byte.
# Usage: bench/capture_apps.sh capture BUILD_DIR APPDIR OUT_DIR   (GPU machine)
#        bench/capture_apps.sh replay  BUILD_DIR CAPTURE_DIR [TABLE] (anywhere)
# Captures larger than $WS_APP_MAX_MB MiB (default 64) are dropped (their replays take long);
# $WS_APP_LAUNCHES (default 3) launches of each application are kept.
set -u
mode=$1 build=$2 dir=$3
ws=$build/warpscope
[ -d "$build/lib" ] && export LD_LIBRARY_PATH=${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}$build/lib
case $mode in
capture)
    out=$4
    mkdir -p "$out"
    for app in "$dir"/*; do
        [ -x "$app" ] && [ -f "$app" ] || continue
        n=$(basename "$app")
        (cd "$out" && timeout 120 "$ws" capture --launch-count ${WS_APP_LAUNCHES:-3} \
            -o "$n.capture" -- "$app" > "$n.log" 2>&1)
        echo "$n: rc $? $(tail -n 1 "$out/$n.log" | cut -c1-100)"
        max=${WS_APP_MAX_MB:-64}
        size=$(stat -c %s "$out/$n.capture" 2>/dev/null || echo 0)
        if [ "$size" -gt $((max << 20)) ]; then
            rm -f "$out/$n.capture"
            echo "$n: capture over $max MiB, dropped"
        fi
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
*)
    echo "usage: bench/capture_apps.sh capture|replay BUILD_DIR DIR [OUT]" >&2
    exit 2
    ;;
esac

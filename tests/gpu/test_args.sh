#!/usr/bin/env bash
# test_args.sh — the spec's argument forms on the GPU (`warpscope run` and `profile` through
# the CUDA driver API): tests/cli/args passes in+HALF, a struct by value, a real constant and
# a -DWS_N constant, and fills a __constant__ and a __device__ array with `symbol`
# (cuModuleGetGlobal); the GPU's output must equal the expected file and the simulator's.
# Prints "skipped: no GPU" (exit 77) where there is none.
# usage: test_args.sh PATH/TO/warpscope REPO
ws=$1 repo=$2
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*" >&2; }
check() { if eval "$1"; then ok; else bad "$2"; fi; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cp "$repo/tests/cli/args/args.cu" "$repo/tests/cli/args/args.spec" "$tmp/"
python3 -c "
import struct, sys
v = [0.5 * (32 + i) * 2 + 3 + (1 + i % 4) + (10 + i % 8) + 64 + 1 for i in range(32)]
open(sys.argv[1], 'wb').write(struct.pack('<32f', *v))" "$tmp/expected.bin"

"$ws" run "$tmp/args.spec" --no-db --json --warmup 0 --repeat 2 >"$tmp/run.json" 2>"$tmp/run.err"
if grep -q "no CUDA" "$tmp/run.err"; then
    echo "skipped: no GPU"
    exit 77
fi
matched() { python3 -c "
import json,sys
d=json.loads(open(sys.argv[1]).read().splitlines()[0]); print(d['outputs_match'])" "$1" 2>/dev/null; }
check '[ "$(matched "$tmp/run.json")" = "True" ]' \
    "run: the GPU's output equals the expected file: $(cat "$tmp/run.err") $(head -c 400 "$tmp/run.json")"
"$ws" profile "$tmp/args.spec" --no-db --json >"$tmp/prof.json" 2>"$tmp/prof.err"
check '[ "$(matched "$tmp/prof.json")" = "True" ]' \
    "profile: the GPU's output equals the expected file: $(cat "$tmp/prof.err") $(head -c 400 "$tmp/prof.json")"
# profile's time line names its sources: CUPTI's activity record, then the event-timed
# launches (one launch: its median is its minimum).
"$ws" profile "$tmp/args.spec" --no-db --warmup 0 --repeat 1 >"$tmp/prof.txt" 2>&1
check 'grep -Eq "GPU time .*CUPTI.s activity record; timed with events: median ([0-9.]+) us, min \\1 us over 1 launches" "$tmp/prof.txt"' \
    "profile: the time line: $(grep "GPU time" "$tmp/prof.txt")"
# A symbol of the wrong size is the spec's error, named by the backend too.
sed 's/^buffer c   f32 4 /buffer c f32 8 /' "$tmp/args.spec" >"$tmp/bad.spec"
"$ws" run "$tmp/bad.spec" --no-db --no-sim >"$tmp/out" 2>&1
check 'grep -q "bad.spec:13: symbol .coef. is 16 bytes in args.cu but buffer .c. is 32 bytes (8 f32)" "$tmp/out"' \
    "run: a symbol of the wrong size: $(cat "$tmp/out")"
echo "gpu_args_test: $pass passed, $fail failed"
[ "$fail" -eq 0 ]

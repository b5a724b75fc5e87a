#!/usr/bin/env bash
# test_launch.sh — launch sequences on the GPU: `run` and `profile` of tests/gpu/launch.spec
# give outputs equal to the simulator's (both commands exit non-zero otherwise), one row
# per launch (5 and 10), the `while` loop ending where the flag reached 0 on the device,
# and a __device__ counter carried through a sequence and restored between profiling passes;
# assert() (tests/gpu/assert.spec): where it holds, `run` gives the simulator's outputs;
# where it fails, `run` exits non-zero with one line of its own naming the driver's assert
# error (the driver prints the failed assertions itself). Prints "skipped: no GPU" (exit 77) where there is none.
# usage: test_launch.sh PATH/TO/warpscope
ws=$1
spec=$(dirname "$0")/launch.spec
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*" >&2; }
check() { if eval "$1"; then ok; else bad "$2"; fi; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

"$ws" run "$spec" --db "$tmp/w.db" --json --quiet > "$tmp/run.json" 2> "$tmp/run.err"
rc=$?
if grep -q "no CUDA GPU\|cuInit\|libcuda" "$tmp/run.err"; then
    echo "skipped: no GPU ($(head -n 1 "$tmp/run.err"))"
    exit 77
fi
check '[ $rc -eq 0 ]' "run exits 0: $(cat "$tmp/run.err")"
for cmd in run profile; do
    if [ $cmd = profile ]; then
        "$ws" profile "$spec" --db "$tmp/w.db" --json --quiet > "$tmp/$cmd.json" 2> "$tmp/$cmd.err"
        check '[ $? -eq 0 ]' "profile exits 0: $(cat "$tmp/$cmd.err")"
    fi
    check 'python3 - "$tmp/$cmd.json" <<PY
import json, sys
runs = {}
for line in open(sys.argv[1]):
    if line.strip():
        d = json.loads(line)
        runs[d["variant"]] = d
assert runs["repeat"]["outputs_match"] and runs["flag"]["outputs_match"], runs
# a __device__ counter: 14 after the four launches, 11 after one (replays restore it)
assert runs["carry"]["outputs_match"] and runs["bump1"]["outputs_match"], (runs["carry"], runs["bump1"])
assert len(runs["carry"]["launches"]) == 4, len(runs["carry"]["launches"])
assert len(runs["repeat"]["launches"]) == 5, runs["repeat"]["launches"]
assert len(runs["flag"]["launches"]) == 10, len(runs["flag"]["launches"])
assert runs["flag"]["launches"][9]["vars"] == "T=9"
t = sum(l["metrics"]["gpu__time_duration.sum"] for l in runs["repeat"]["launches"])
assert abs(runs["repeat"]["gpu"]["gpu__time_duration.sum"] - t) < 1e-6 * t, t
PY' "$cmd: outputs equal to the simulator's, a row per launch, times summed"
done
aspec=$(dirname "$0")/assert.spec
"$ws" run "$aspec" --variant holds --no-db --quiet > "$tmp/ah.out" 2> "$tmp/ah.err"
check '[ $? -eq 0 ]' "assert that holds: run exits 0: $(cat "$tmp/ah.err")"
"$ws" run "$aspec" --variant fails --no-db --quiet > "$tmp/af.out" 2> "$tmp/af.err"
rc=$?
check '[ $rc -ne 0 ] && [ "$(grep -c "^warpscope:" "$tmp/af.err")" -eq 1 ] && grep -q "^warpscope: kernel checked: the launch failed: CUDA_ERROR_ASSERT (710)$" "$tmp/af.err"' \
      "failed assert: run exits $rc with one line of its own (the driver prints the assertions): $(cat "$tmp/af.err")"
echo "test_launch: $pass passed, $fail failed"
[ $fail -eq 0 ]

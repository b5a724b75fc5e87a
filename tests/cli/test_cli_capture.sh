#!/bin/sh
# test_cli_capture.sh — `warpscope sim CAPTURE`: a capture file written from the test
# application's PTX and a CPU reference (capture_writer) replays launch by launch with the
# memory equal to the recorded one; a corrupted recording, a launch not captured, a launch
# not in the file and a file that is not a capture are each one clear error line.
# usage: test_cli_capture.sh PATH/TO/warpscope PATH/TO/capture_writer APP.ptx APP
ws=$1 writer=$2 ptx=$3 exe=$4
. "$(dirname "$0")/cli_lib.sh"
db=$tmp/w.db
cap=$tmp/app.capture

check '"$writer" "$ptx" "$cap"' "capture_writer writes a capture file"
check '$ws sim --help | grep -q "warpscope sim CAPTURE"' "sim --help shows the capture form"
check '$ws sim "$cap" --list > "$tmp/list" && grep -q "fill#0" "$tmp/list" && grep -q "transform#1" "$tmp/list" && grep -q "cooperative launches are not captured" "$tmp/list"' "--list names every launch and the one not captured"
for n in 0 1 2; do
  check '$ws sim "$cap" --launch $n --db "$db" --json > "$tmp/r$n.json"' "launch $n replays"
  check 'python3 -c "import json,sys; r=json.load(open(sys.argv[1])); assert r[\"outputs_checked\"] and r[\"outputs_match\"], r" "$tmp/r$n.json"' "launch $n: memory equals the recorded one"
done
check 'grep -q "\"variant\": \"histogram#2\"" "$tmp/r2.json" && grep -q "\"workload\": \"inject_app\"" "$tmp/r2.json"' "the run is named APP / kernel#N"
check '$ws runs --db "$db" | grep -q "transform#1"' "the replayed runs are stored"
check 'python3 -c "import json,sys; r=json.load(open(sys.argv[1])); assert r[\"metrics\"][\"smsp__sass_branch_targets_threads_divergent.sum\"] > 0" "$tmp/r1.json"' "transform's divergent branch is counted"
check '$ws sim "$cap" --no-db --quiet' "the default launch is the first captured one"
# --model sass (the default where nvdisasm is found): the same launches as the SASS ptxas makes of the captured PTX (skipped
# without nvdisasm, as the SASS model is).
if $ws sim "$cap" --launch 0 --no-db --model sass > "$tmp/s0" 2>&1 || ! grep -q nvdisasm "$tmp/s0"; then
  for n in 0 1 2; do
    check '$ws sim "$cap" --launch $n --no-db --json --model sass > "$tmp/s$n.json"' "launch $n replays on the SASS model"
    check 'python3 -c "import json,sys; r=json.load(open(sys.argv[1])); assert r[\"outputs_match\"] and r[\"source\"] == \"sim:sass\", r" "$tmp/s$n.json"' "launch $n on the SASS model: memory equals the recorded one"
  done
  # note#4 waits on an mbarrier (SYNCS): the default replays it on the SASS model too
  check '$ws sim "$cap" --launch 4 --no-db --json > "$tmp/n4.json" 2> "$tmp/n4.err"' "launch 4 replays"
  check 'python3 -c "import json,sys; r=json.load(open(sys.argv[1])); assert r[\"outputs_match\"] and r[\"source\"] == \"sim:sass\" and not any(\"PTX model\" in w for w in r[\"warnings\"]), r" "$tmp/n4.json"' "launch 4 (an mbarrier) on the SASS model, no fallback: $(head -c 300 "$tmp/n4.json")"
  # no ptxas to make the SASS: the default replays on the PTX model and says why;
  # --model sass is one error line
  check 'WARPSCOPE_PTXAS=/nonexistent WARPSCOPE_PTX_CACHE="$tmp/nocache" $ws sim "$cap" --launch 1 --no-db > "$tmp/np.out" 2>&1 && grep -q "warning: simulated on the PTX model: no SASS for it (ptxas not found" "$tmp/np.out" && grep -q "^  model  *PTX" "$tmp/np.out"' \
        "no ptxas: the PTX model replays it with a warning: $(tail -n 2 "$tmp/np.out")"
  check '! WARPSCOPE_PTXAS=/nonexistent WARPSCOPE_PTX_CACHE="$tmp/nocache2" $ws sim "$cap" --launch 1 --no-db --model sass > /dev/null 2> "$tmp/np.err" && [ "$(wc -l < "$tmp/np.err")" -eq 1 ]' \
        "no ptxas, --model sass: one error line: $(cat "$tmp/np.err")"
else
  echo "test_cli_capture: SASS replay skipped: no nvdisasm"
fi
check '! $ws sim "$cap" --model simt --no-db 2> "$tmp/em" && grep -q "model is" "$tmp/em"' "--model simt is a usage error"

# The kernels' PTX read from the executable's (ZSTD-compressed) fatbinary, as capture does.
check '"$writer" "$ptx" "$tmp/exe.capture" --executable "$exe"' "capture_writer --executable"
check '$ws sim "$tmp/exe.capture" --launch 1 --no-db --json | grep -q "\"outputs_match\": true"' "a launch replays from the fatbinary's PTX"

# Error paths: one line each, non-zero exit.
$ws sim "$cap" --launch 3 --no-db > /dev/null 2> "$tmp/e1"; rc=$?
check '[ $rc -ne 0 ] && grep -q "launch 3 (cuLaunchCooperativeKernel of .*histogram.*) was not captured: cooperative" "$tmp/e1" && [ $(wc -l < "$tmp/e1") -eq 1 ]' "a launch not captured is named with its API: $(cat "$tmp/e1")"
$ws sim "$cap" --launch 9 --no-db > /dev/null 2> "$tmp/e2"; rc=$?
check '[ $rc -ne 0 ] && grep -q "no launch 9 in .*(launches: 0-4)" "$tmp/e2"' "a launch not in the file: $(cat "$tmp/e2")"
$ws sim "$cap" --launch x > /dev/null 2> "$tmp/e3"; rc=$?
check '[ $rc -eq 2 ] && grep -q -- "sim: --launch needs a number >= 0, not .x." "$tmp/e3"' "--launch needs a number: $(cat "$tmp/e3")"
$ws sim "$cap" --bogus > /dev/null 2> "$tmp/e4"; rc=$?
check '[ $rc -eq 2 ] && grep -q "sim: unknown option .--bogus." "$tmp/e4"' "unknown option: $(cat "$tmp/e4")"
check '"$writer" "$ptx" "$tmp/bad.capture" --corrupt' "capture_writer --corrupt"
$ws sim "$tmp/bad.capture" --launch 1 --db "$db" > "$tmp/o5" 2> "$tmp/e5"; rc=$?
check '[ $rc -eq 1 ] && grep -q "launch 1 (transform#1): allocation 0x7f3a00200000 (4000 bytes) differs from the GPU.s at byte 29: simulator 0x.., GPU 0x.." "$tmp/e5"' "a difference from the recorded memory is an error: $(cat "$tmp/e5")"
check 'grep -q "MISMATCH" "$tmp/o5"' "the mismatch is printed"
check '"$writer" "$ptx" "$tmp/short.capture" --short-params' "capture_writer --short-params"
$ws sim "$tmp/short.capture" --launch 0 --no-db > /dev/null 2> "$tmp/e7"; rc=$?
check '[ $rc -ne 0 ] && grep -q "kernel _Z4fillPiij takes 16 bytes of parameters but the launch gives 12" "$tmp/e7"' "a parameter block of the wrong size: $(cat "$tmp/e7")"
check '"$writer" "$ptx" "$tmp/noptx.capture" --no-ptx' "capture_writer --no-ptx"
$ws sim "$tmp/noptx.capture" --no-db > /dev/null 2> "$tmp/e8"; rc=$?
check '[ $rc -ne 0 ] && grep -q "no module with PTX for kernel _Z4fillPiij (modules loaded as SASS only cannot be replayed" "$tmp/e8" && [ $(wc -l < "$tmp/e8") -eq 1 ]' "a kernel without PTX: $(cat "$tmp/e8")"
$ws sim "$tmp/none.capture" --no-db > /dev/null 2> "$tmp/e9"; rc=$?
check '[ $rc -ne 0 ] && [ $(wc -l < "$tmp/e9") -eq 1 ]' "a missing file is one line: $(cat "$tmp/e9")"
cp "$db" "$tmp/notcapture.db"
$ws sim "$tmp/notcapture.db" --no-db > /dev/null 2> "$tmp/e6"; rc=$?
check '[ $rc -ne 0 ] && [ $(wc -l < "$tmp/e6") -eq 1 ]' "a database is not taken for a capture: $(cat "$tmp/e6")"

echo "test_cli_capture: $pass passed, $fail failed"
[ $fail -eq 0 ]

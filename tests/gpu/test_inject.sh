#!/usr/bin/env bash
# test_inject.sh — `warpscope profile/capture -- APP` on the test application inject_app:
# its output unchanged, every launch profiled and stored as APP / kernel#N, every launch
# captured and replayed on the simulator with memory equal to the GPU's, the --kernel /
# --launch-skip / --launch-count selection, and compare on a replayed launch beside its
# profiled run. Prints "skipped: no GPU" (exit 77) where there is none.
# usage: test_inject.sh PATH/TO/warpscope PATH/TO/inject_app
ws=$1 app=$2
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*" >&2; }
check() { if eval "$1"; then ok; else bad "$2"; fi; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
db=$tmp/w.db cap=$tmp/app.capture

"$ws" capture -o "$cap" -- "$app" 5000 > "$tmp/cap.out" 2> "$tmp/cap.err"
rc=$?
if grep -q "no CUDA launches seen in .*: no CUDA" "$tmp/cap.err"; then
    echo "skipped: no GPU"
    exit 77
fi
"$app" 5000 > "$tmp/plain.out"
check '[ $rc -eq 0 ]' "capture -- inject_app exits 0: $(cat "$tmp/cap.err")"
check 'cmp -s "$tmp/plain.out" "$tmp/cap.out"' "the application's output is unchanged under capture"
check 'grep -q "captured 7 of 7 launch" "$tmp/cap.err"' "7 launches captured: $(tail -1 "$tmp/cap.err")"
"$ws" sim "$cap" --list > "$tmp/list" 2>&1
check '[ $(grep -c " captured$" "$tmp/list") -eq 7 ]' "--list shows 7 captured launches: $(cat "$tmp/list")"
for n in $(awk '$NF == "captured" {print $1}' "$tmp/list"); do
    if "$ws" sim "$cap" --launch "$n" --db "$db" --json > "$tmp/r$n.json" 2> "$tmp/r$n.err"; then
        check 'python3 -c "import json,sys; r=json.load(open(sys.argv[1])); assert r[\"outputs_match\"]" "$tmp/r$n.json"' "launch $n: simulator memory equals the GPU's"
    else
        bad "replay of launch $n: $(cat "$tmp/r$n.err")"
    fi
done

"$ws" profile --db "$db" -- "$app" 5000 > "$tmp/prof.out" 2> "$tmp/prof.err"
rc=$?
check '[ $rc -eq 0 ]' "profile -- inject_app exits 0: $(cat "$tmp/prof.err")"
check 'cmp -s "$tmp/plain.out" "$tmp/prof.out"' "the application's output is unchanged under profile"
check '[ $(grep -c "stored as run" "$tmp/prof.err") -eq 7 ]' "7 profiled runs stored"
check '"$ws" runs --db "$db" | grep "gpu:" | grep -q "transform#3"' "runs are named APP / kernel#N"
"$ws" profile --db "$tmp/sel.db" --kernel transform --launch-skip 1 --launch-count 1 -- "$app" 5000 \
    > /dev/null 2> "$tmp/sel.err"
check '[ $(grep -c "stored as run" "$tmp/sel.err") -eq 1 ] && grep -q "transform#3" "$tmp/sel.err"' "--kernel transform --launch-skip 1 --launch-count 1 takes launch 3 only: $(cat "$tmp/sel.err")"
: > "$tmp/cmp"
check '"$ws" compare --db "$db" --workload inject_app --variant "transform#3" > "$tmp/cmp" 2>&1' "compare joins the replayed and the profiled run"
echo "gpu_inject_test: $pass passed, $fail failed"
[ $fail -eq 0 ]

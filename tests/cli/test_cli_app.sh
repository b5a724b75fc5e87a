#!/bin/sh
# test_cli_app.sh — `warpscope profile/capture -- APP` where it can be tried without a GPU:
# the application's output and exit status pass through, no launch seen is one clear line
# (naming the missing driver here), and the option errors are one line each with exit 2.
# usage: test_cli_app.sh PATH/TO/warpscope PATH/TO/inject_app
ws=$1 app=$2
. "$(dirname "$0")/cli_lib.sh"

check '$ws profile --help | grep -q -- "--launch-skip N"' "profile --help shows the application form"
check '$ws capture --help | grep -q "docs/capture-format.md"' "capture --help"
check '$ws --help | grep -q "capture"' "capture is listed"

$ws profile -- sh -c 'echo out; echo err >&2; exit 3' > "$tmp/o1" 2> "$tmp/e1"; rc=$?
check '[ $rc -eq 3 ]' "the application's exit status passes through (got $rc)"
check '[ "$(cat "$tmp/o1")" = out ]' "the application's stdout passes through unchanged"
check 'grep -q "^err$" "$tmp/e1"' "the application's stderr passes through"
check 'grep -q "^warpscope: no CUDA launches seen in sh: no CUDA" "$tmp/e1" && [ $(grep -c warpscope "$tmp/e1") -eq 1 ]' "no launch: one line naming why: $(cat "$tmp/e1")"
$ws capture -o "$tmp/c" -- true > /dev/null 2> "$tmp/e2"; rc=$?
check '[ $rc -eq 1 ] && grep -q "no CUDA launches seen in true" "$tmp/e2"' "an application that exits 0 without launches: exit 1: $(cat "$tmp/e2")"
check '[ ! -e "$tmp/c.log" ]' "the library's log is removed"
$ws capture -o "$tmp/c" -- "$app" > "$tmp/o3" 2> "$tmp/e3"; rc=$?
check '[ $rc -eq 1 ] && grep -q "^inject_app: cudaMalloc data" "$tmp/e3" && grep -q "no CUDA launches seen" "$tmp/e3"' "the test application runs and fails on its own without a GPU: $(cat "$tmp/e3")"
$ws capture -- /nonexistent/app > /dev/null 2> "$tmp/e4"; rc=$?
check '[ $rc -eq 127 ] && grep -q "cannot run /nonexistent/app" "$tmp/e4" && [ $(wc -l < "$tmp/e4") -eq 1 ]' "an application that does not exist: $(cat "$tmp/e4")"

# Option errors: one line, exit 2, the application not run.
for case in "profile --launch-skip x -- true|profile: --launch-skip needs a number >= 0, not 'x'" \
            "capture --launch-count -1 -- true|capture: --launch-count needs a number >= 0, not '-1'" \
            "capture --kernel ( -- true|--kernel '(' is not a regular expression" \
            "profile --bogus -- true|profile: unknown option '--bogus'" \
            "capture --db x -- true|capture: unknown option '--db'" \
            "capture|which application?" \
            "profile --kernel x --|which application?"; do
  args=${case%%|*} want=${case#*|}
  $ws $args > /dev/null 2> "$tmp/eo"; rc=$?
  check '[ $rc -eq 2 ] && grep -qF -- "$want" "$tmp/eo" && [ $(wc -l < "$tmp/eo") -eq 1 ]' "warpscope $args: $(cat "$tmp/eo")"
done
WARPSCOPE_INJECT_LIB=$tmp/none.so $ws capture -- true > /dev/null 2> "$tmp/e5"; rc=$?
check '[ $rc -eq 1 ] && grep -q "injection library .*none.so is missing" "$tmp/e5"' "a missing injection library: $(cat "$tmp/e5")"

echo "test_cli_app: $pass passed, $fail failed"
[ $fail -eq 0 ]

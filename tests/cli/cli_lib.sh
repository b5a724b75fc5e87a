# cli_lib.sh — sourced by the tests/cli scripts: counters, check helpers and a scratch
# folder removed on exit. `check 'SHELL TEST' "what failed"` counts a pass or a failure.
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*" >&2; }
check() { if eval "$1"; then ok; else bad "$2"; fi; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

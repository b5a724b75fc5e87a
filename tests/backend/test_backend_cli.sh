#!/usr/bin/env bash
# test_backend_cli.sh — `warpscope run/profile/compare` error paths without a GPU: one clear
# line on stderr and a non-zero exit. Forces the driver paths with WARPSCOPE_LIBCUDA, so it
# gives the same answers on a GPU machine. Usage: test_backend_cli.sh WARPSCOPE SOURCE_DIR CUDA_STUB
ws=$1 spec=$2/tests/gpu/probe.spec stub=$3
pass=0 fail=0
tmp=$(mktemp -d) && trap 'rm -rf "$tmp"' EXIT

# expect NAME WANT_RC WANT_STDERR_PREFIX -- command...
expect() {
    local name=$1 want_rc=$2 want=$3; shift 4
    "$@" >"$tmp/out" 2>"$tmp/err"; local rc=$?
    local lines; lines=$(wc -l <"$tmp/err")
    if [ "$rc" -ne 0 ] && { [ "$want_rc" = any ] || [ "$rc" -eq "$want_rc" ]; } &&
       [ "$lines" -eq 1 ] && [[ "$(cat "$tmp/err")" == "$want"* ]]; then
        pass=$((pass + 1))
    else
        fail=$((fail + 1))
        echo "FAIL $name: rc=$rc, $lines stderr lines: $(cat "$tmp/err")" >&2
    fi
}

expect run-no-driver any "warpscope: no CUDA driver: cannot load /nonexistent/libcuda.so.1 (" -- \
    env WARPSCOPE_LIBCUDA=/nonexistent/libcuda.so.1 "$ws" run "$spec" --no-db
expect run-stub any "warpscope: no CUDA GPU: cuInit returned CUDA_ERROR_STUB_LIBRARY (34)" -- \
    env WARPSCOPE_LIBCUDA="$stub" "$ws" run "$spec" --no-db
expect profile-no-driver any "warpscope: no CUDA driver: cannot load /nonexistent/libcuda.so.1 (" -- \
    env WARPSCOPE_LIBCUDA=/nonexistent/libcuda.so.1 "$ws" profile "$spec" --no-db
# --quiet is an option of run and profile (it gets as far as the driver, not a usage error).
expect run-quiet any "warpscope: no CUDA driver: cannot load /nonexistent/libcuda.so.1 (" -- \
    env WARPSCOPE_LIBCUDA=/nonexistent/libcuda.so.1 "$ws" run "$spec" --no-db --quiet
expect profile-quiet any "warpscope: no CUDA driver: cannot load /nonexistent/libcuda.so.1 (" -- \
    env WARPSCOPE_LIBCUDA=/nonexistent/libcuda.so.1 "$ws" profile "$spec" --no-db --quiet
if "$ws" run --help | grep -q -- "--quiet *no progress on stderr"; then pass=$((pass + 1));
else fail=$((fail + 1)); echo "FAIL run --help does not list --quiet" >&2; fi
expect run-repeat 2 "warpscope: run: --repeat needs a number >= 1" -- "$ws" run "$spec" --repeat 0
expect run-warmup 2 "warpscope: run: --warmup needs a number >= 0" -- "$ws" run "$spec" --warmup x
expect run-unknown 2 "warpscope: run: unknown option '--bogus'" -- "$ws" run "$spec" --bogus
expect compare-usage 2 "warpscope: compare: give RUN_SIM RUN_GPU, or --workload W [--variant V]" -- \
    "$ws" compare
expect compare-missing any "warpscope: " -- "$ws" compare 1 2 --db "$tmp/empty.db"
"$ws" sim "$spec" --db "$tmp/one.db" --quiet >/dev/null 2>&1
expect compare-kinds 2 "warpscope: compare: run 1 is 'sim" -- "$ws" compare 1 1 --db "$tmp/one.db"
expect compare-no-gpu-run any "warpscope: " -- "$ws" compare --workload probe --db "$tmp/one.db"

echo "backend_cli: $pass passed, $fail failed"
[ "$fail" -eq 0 ]

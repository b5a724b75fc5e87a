#!/usr/bin/env bash
# test.sh — set up, build with warnings as errors, run every test (ctest); then the same
# suite under AddressSanitizer + UndefinedBehaviorSanitizer. GPU tests print
# "skipped: no GPU" where there is none.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PATH:/usr/local/cuda/bin"
bash scripts/setup.sh
jobs=$(nproc)

cmake -S . -B build-test -DWS_WERROR=ON -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build build-test -j"$jobs"
(cd build-test && ctest --output-on-failure -j"$jobs")
# Show what the GPU tests said (ctest lists a skipped test but hides its reason).
for t in build-test/tests/gpu_*test; do
  [ -x "$t" ] && { "$t" 2>&1 | tail -n 1 | sed "s|^|$(basename "$t"): |"; } || true
done
# ... and the GPU tests that are scripts (profile -- APP, argument forms, launch sequences).
for t in gpu_inject_test gpu_args_test gpu_launch_test; do
  (cd build-test && ctest -R "^$t\$" -V 2>/dev/null) | sed -n "s/^[0-9]*: \(skipped: no GPU.*\)/$t: \1/p" || true
done

if [ "${WS_TEST_SANITIZE:-1}" != 0 ]; then
  cmake -S . -B build-asan -DWS_WERROR=ON -DWS_SANITIZE=ON -DCMAKE_BUILD_TYPE=Debug >/dev/null
  cmake --build build-asan -j"$jobs"
  (cd build-asan && ASAN_OPTIONS=detect_leaks=1 LSAN_OPTIONS=suppressions=$PWD/../tests/lsan.supp ctest --output-on-failure -j"$jobs" -LE slow)
fi

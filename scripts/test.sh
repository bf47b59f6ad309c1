#!/usr/bin/env bash
# The README's test command: installs what is needed, builds, and runs the test suite.
# A test that cannot run here (GTEST_SKIP: a missing tool, a privilege) is reported by ctest
# as skipped, not passed; this script then lists how many and why.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
scripts/build.sh
BUILD_DIR="${MR_BUILD_DIR:-build}"
status=0
ctest --test-dir "$BUILD_DIR" --output-on-failure -j "$(nproc)" "$@" || status=$?
# Each skipping test binary prints "mr-test skipped: Suite.Test: reason" (tests/common/test_main.cc);
# ctest keeps every test's output in LastTest.log.
log="$BUILD_DIR/Testing/Temporary/LastTest.log"
if [ -f "$log" ]; then
  skips=$(grep -h '^mr-test skipped: ' "$log" | sed 's/^mr-test skipped: /  /' | sort -u || true)
  if [ -n "$skips" ]; then
    echo "$(printf '%s\n' "$skips" | wc -l) test(s) skipped:"
    printf '%s\n' "$skips"
  else
    echo "0 tests skipped"
  fi
fi
exit "$status"

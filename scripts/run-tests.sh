#!/bin/bash
# Runs the already built tests (`swift test --skip-build`) and prints a short
# summary at the end: counts, failed tests, skipped tests, where the full log
# is. Meant to run inside scripts/testenv.sh (make test does that).
#
#   TEST_FLAGS    extra `swift test` flags (make passes --no-parallel)
#   TEST_TIMEOUT  seconds before the whole run is stopped (default 3600)
#   TEST_LOG      where the full log goes (default .build/test-output.log)
#
# Exit status: swift test's (124 on timeout); 1 if it claimed success but no
# test ran at all, since an empty run proves nothing.
set -u
cd "$(dirname "$0")/.."

log=${TEST_LOG:-.build/test-output.log}
mkdir -p "$(dirname "$log")"
# shellcheck disable=SC2086  # TEST_FLAGS is a list of words
timeout --foreground -k 30 "${TEST_TIMEOUT:-3600}" \
    "${SWIFT:-swift}" test --skip-build ${TEST_FLAGS:-} 2>&1 | tee "$log"
status=${PIPESTATUS[0]}

# Swift Testing and XCTest report differently; show both summaries.
echo
echo "==================== test summary ===================="
grep -aE 'Test run with [0-9]+ tests?' "$log" | tail -n 1 || true
# All tests are Swift Testing ones; XCTest's own "Executed 0 tests" line says nothing.

failed=$(grep -aE '✘ Test .* failed|Test Case .* failed' "$log" | grep -avE 'Test run with' |
    sed -E 's/^[[:space:]]+//' | sort -u || true)
if [ -n "$failed" ]; then
    echo "failed:"
    echo "$failed" | sed 's/^/  /' | head -n 50
fi
skipped=$(grep -acE '➜ Test .* skipped|Test Case .* skipped' "$log" || true)
if [ "${skipped:-0}" != 0 ]; then
    echo "skipped: $skipped test(s) (the project wants none skipped)"
fi
if [ "$status" = 124 ]; then
    echo "TIMED OUT after ${TEST_TIMEOUT:-3600} s"
fi

ran=$(grep -acE 'Test run with [1-9][0-9]* tests?|Executed [1-9][0-9]* tests?' "$log" || true)
if [ "$status" = 0 ] && [ "${ran:-0}" = 0 ]; then
    echo "no tests ran: treating as a failure"
    status=1
fi
echo "full log: $log"
if [ "$status" = 0 ]; then echo "RESULT: PASS"; else echo "RESULT: FAIL (status $status)"; fi
# The plain closing line any reader understands: tests run, and how many failed.
total=$(grep -aoE 'Test run with [0-9]+ tests?' "$log" | tail -n 1 | grep -oE '[0-9]+' || echo 0)
nfailed=$(grep -aE '✘ Test .* failed after' "$log" | sed -E 's/^[[:space:]]+//' | sort -u | wc -l)
# A crash or time-out fails the run even when no test said so.
if [ "$status" != 0 ] && [ "$nfailed" = 0 ]; then nfailed=1; fi
echo "$((${total:-0} - nfailed)) passed, $nfailed failed"
exit "$status"

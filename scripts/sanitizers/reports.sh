#!/bin/bash
# scripts/sanitizers/reports.sh DIR
#
# Prints the sanitizer reports written to DIR (ASAN_OPTIONS/TSAN_OPTIONS log_path) and
# fails when there is any. The tests start mediaview with its stderr discarded or read
# by the test itself, so a report from a child process would otherwise go unseen; with
# log_path every process's report lands here, named after its PID.
set -u
dir=$1
# A log with only LeakSanitizer's "Suppressions used" table is no report.
mapfile -t reports < <(grep -l -E 'ERROR: [A-Za-z]+Sanitizer|WARNING: ThreadSanitizer' "$dir"/* 2>/dev/null)
if [ ${#reports[@]} -eq 0 ]; then
    echo "sanitizer reports: none"
    exit 0
fi
for r in "${reports[@]}"; do
    echo "==================== $r"
    cat "$r"
done
echo "sanitizer reports: ${#reports[@]} (above, and in $dir)"
exit 1

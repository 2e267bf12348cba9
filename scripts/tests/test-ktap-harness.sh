#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# qemu-tests/ktap.py on canned console logs (fixtures/console/): each way a
# guest run can go wrong makes the run red, for the reason the case names,
# and a good log stays green. good.log: KUnit's suite and three guest
# tests, the runner's end line, the clean reboot; every other log is it
# with one thing wrong.
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
fix=$top/scripts/tests/fixtures/console
topics=(--expect-suite kmark --expect-guest 00-boot
	--expect-guest 32-sched-vs-ftrace --expect-guest 99-last)
# expect NAME FLAVOUR LOG STATUS WANT-EXIT WANT-LINE: ktap.py exits
# WANT-EXIT and prints a line that starts with WANT-LINE (a regex).
expect() {
	local name=$1 flavour=$2 log=$3 status=$4 want=$5 line=$6 out rc
	out=$(python3 "$top/qemu-tests/ktap.py" "$flavour" "$fix/$log" \
		--boot-status "$status" "${topics[@]}" 2>&1)
	rc=$?
	if [ "$rc" = "$want" ] && echo "$out" | grep -qE "^$line"; then
		echo "ok - $name"
	else
		echo "not ok - $name (exit $rc, want $want and a line '$line')"
		echo "$out" | sed 's/^/# /'
	fi
}
expect "a good log is green" x86_64 good.log 0 0 \
	'x86_64: 8 passed, 0 failed, 0 skipped$'
expect "the same log with CRLF line ends (the serial console's) is green" \
	x86_64 good-crlf.log 0 0 'x86_64: 8 passed, 0 failed, 0 skipped$'
expect "QEMU killed by the timeout (boot.sh's 124) is red, all results printed or not" \
	x86_64 good.log 124 1 '\[x86_64\] not ok boot  # QEMU exited with status 124'
expect "a hang after every result and the end line (QEMU timed out) is red" \
	x86_64 no-reboot.log 124 1 '\[x86_64\] not ok boot  # QEMU exited with status 124'
expect "a hang after the last result is red: the runner's end line is missing" \
	x86_64 hang-after-last-result.log 124 1 '\[x86_64\] not ok end '
expect "every result printed, the runner never reached its end line (a test printed it, indented): red" \
	x86_64 no-end-line.log 0 1 '\[x86_64\] not ok end '
expect "the end line, then no clean reboot: red" \
	x86_64 no-reboot.log 0 1 '\[x86_64\] not ok reboot '
expect "a result missing (fewer than the plan) is red" \
	x86_64 missing-result.log 0 1 '\[x86_64\] not ok 32-sched-vs-ftrace  # plan says 2 tests, 1 reported'
expect "a splat after the last test is red" \
	x86_64 splat-after-last-test.log 0 1 '\[x86_64\] not ok kernel-log '
expect "a script's non-zero exit after good results is red" \
	x86_64 script-exit.log 0 1 '\[x86_64\] not ok 99-last  # subtest failed: exit status'
expect "skipping 'no ftrace' on x86_64, which has ftrace, is red" \
	x86_64 skips.log 0 1 '\[x86_64\] not ok 32-sched-vs-ftrace.kmark vs ftrace 1  # SKIP no ftrace'
expect "KUnit's comm_current skipped on x86_64 (kmark_event= at boot) is red" \
	x86_64 skips.log 0 1 '\[x86_64\] not ok kmark.kmark_test_comm_current  # SKIP'
expect "the same skips on i386-stress (no ftrace, no buffer at boot) are counted and named" \
	i386-stress skips.log 0 0 '\[i386-stress\] skip +32-sched-vs-ftrace.kmark vs ftrace 2  # SKIP no ftrace in this kernel$'
expect "... and the closing line counts them" \
	i386-stress skips.log 0 0 'i386-stress: 5 passed, 0 failed, 3 skipped$'
expect "a test that must skip on the multi-threaded kernel (no ftrace there) but ran is red" \
	i386-stress good.log 0 1 '\[i386-stress\] not ok 32-sched-vs-ftrace.kmark vs ftrace 1: the same switches  # .*MUST_SKIP'

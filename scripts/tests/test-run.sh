#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# scripts/tests/run.sh, the runner of these tests, on canned tests
# (fixtures/run-sh/): one that prints an ok line and exits 3, one that
# prints no result, must each make the run red; a good one keeps it green.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
fix=$here/fixtures/run-sh
# expect NAME WANT-STATUS WANT-SUMMARY TEST...
expect() {
	local name=$1 want=$2 summary=$3 out rc
	shift 3
	out=$("$here/run.sh" "$@" 2>&1)
	rc=$?
	if [ "$rc" = "$want" ] && [ "$(echo "$out" | tail -n 1)" = "$summary" ]; then
		echo "ok - $name"
	else
		echo "not ok - $name (exit $rc, want $want)"
		echo "$out" | sed 's/^/# /'
	fi
}
expect "a test that passes keeps the run green" 0 "1 passed, 0 failed" "$fix/good.sh"
expect "a test that exits 3 after an ok line makes it red" 1 "2 passed, 1 failed" \
	"$fix/good.sh" "$fix/exit-3.sh"
expect "a test that prints no result makes it red" 1 "1 passed, 1 failed" \
	"$fix/good.sh" "$fix/silent.sh"

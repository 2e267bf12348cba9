#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Host tests of the scripts themselves: run.sh [TEST...] runs each TEST
# (by default every scripts/tests/test-*.sh) and makes a result of each of
# its "ok ..." / "not ok ..." lines. A test that exits with a non-zero
# status, or prints no result at all, is one more failure. Ends with
# "N passed, N failed" and exits 1 if anything failed.
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
passed=0 failed=0
result() {
	if [ "$1" = 0 ]; then
		echo "ok - $2"
		passed=$((passed + 1))
	else
		echo "not ok - $2"
		failed=$((failed + 1))
	fi
}
[ $# -gt 0 ] || set -- "$top"/scripts/tests/test-*.sh
out=$(mktemp)
trap 'rm -f "$out"' EXIT
for t in "$@"; do
	name=$(basename "$t" .sh)
	"$t" > "$out" 2>&1
	rc=$?
	n=0
	while IFS= read -r line || [ -n "$line" ]; do
		case "$line" in
		"ok "*) result 0 "$name: ${line#ok }"; n=$((n + 1)) ;;
		"not ok "*) result 1 "$name: ${line#not ok }"; n=$((n + 1)) ;;
		*) echo "# $line" ;;
		esac
	done < "$out"
	[ "$rc" = 0 ] || result 1 "$name: exited with status $rc"
	[ "$n" -gt 0 ] || result 1 "$name: printed no result"
done
echo "$passed passed, $failed failed"
[ "$failed" = 0 ]

#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Host tests of the scripts themselves; ends with "N passed, N failed".
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
for t in "$top"/scripts/tests/test-*.sh; do
	while IFS= read -r line; do
		case "$line" in
		"ok "*) result 0 "$(basename "$t" .sh): ${line#ok }" ;;
		"not ok "*) result 1 "$(basename "$t" .sh): ${line#not ok }" ;;
		*) echo "# $line" ;;
		esac
	done < <("$t" 2>&1)
done
echo "$passed passed, $failed failed"
[ "$failed" = 0 ]

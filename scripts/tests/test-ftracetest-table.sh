#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# qemu-tests/ftracetest-expected.txt, the verdicts 95-ftracetest.sh expects
# of the kernel's ftracetest: its rules (a test that passes on ftrace and
# not on kmark, or that fails on kmark, names a note), its cases against
# the suites of the kernel tree (build/linux), Documentation/trace/kmark.rst's
# copy; and that the check fails on a table that breaks each rule.
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/scripts/lib.sh"
tree=$SRC/tools/testing/selftests/ftrace/test.d
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
check=("$top/scripts/ftracetest_table.py" check)
if [ -d "$tree" ]; then
	python3 "${check[@]}" --tree "$tree"
else
	echo "not ok - no kernel tree at $tree (scripts/prepare-tree.sh makes it)"
fi
# broken WHAT SED: the table edited by SED must fail the check.
broken() {
	sed "$2" "$top/qemu-tests/ftracetest-expected.txt" > "$t/table"
	if python3 "${check[@]}" "$t/table" > "$t/out"; then
		echo "not ok - the check passes a table where $1"
	elif grep -q '^not ok' "$t/out"; then
		echo "ok - the check fails a table where $1"
	else
		echo "not ok - the check fails a table where $1, naming nothing"
	fi
}
broken "a test that passes on ftrace fails on kmark without a note" \
	'0,/^00basic\/basic1.tc .*/s//00basic\/basic1.tc PASS FAIL PASS/'
broken "a verdict is misspelt" '0,/ PASS /s// PASSED /'
broken "the document's copy is stale" '0,/^00basic\/basic1.tc .*/s//00basic\/basic1.tc PASS PASS XFAIL/'

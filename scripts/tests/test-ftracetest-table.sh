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
# update: a log of an i386 run sets the i386 column alone (ftrace's column
# is x86_64's, even when that run's ftrace verdicts differ); one of x86_64
# sets both of its columns.
cp "$top/qemu-tests/ftracetest-expected.txt" "$t/up"
printf '    # ftt-result 00basic/basic1.tc UNSUPPORTED FAIL\n' > "$t/log"
python3 "$top/scripts/ftracetest_table.py" update --arch i386 "$t/log" "$t/up"
got=$(grep '^00basic/basic1.tc ' "$t/up")
want="00basic/basic1.tc $(grep '^00basic/basic1.tc ' "$top/qemu-tests/ftracetest-expected.txt" | cut -d' ' -f2,3) FAIL"
if [ "$got" = "$want" ]; then
	echo "ok - update --arch i386: the i386 column alone"
else
	echo "not ok - update --arch i386: '$got', want '$want'"
fi
python3 "$top/scripts/ftracetest_table.py" update --arch x86_64 "$t/log" "$t/up"
got=$(grep '^00basic/basic1.tc ' "$t/up" | cut -d' ' -f1-3)
if [ "$got" = "00basic/basic1.tc UNSUPPORTED FAIL" ]; then
	echo "ok - update --arch x86_64: ftrace's and kmark x86_64's columns"
else
	echo "not ok - update --arch x86_64: '$got'"
fi

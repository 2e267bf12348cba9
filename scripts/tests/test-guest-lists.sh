#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Every guest test that scripts/guest.sh, qemu-tests/skips.py and the
# documents name by file is there: a renamed test would otherwise drop out
# of a kernel's run (or stay skipped) without any result saying so, since
# the expected topics are made from the same lists.
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
have() { [ -f "$top/qemu-tests/test.d/$1.sh" ] || [ -f "$top/qemu-tests/stress.d/$1.sh" ] ||
	[ -f "$top/qemu-tests/lockdown.d/$1.sh" ] || [ "$1" = 15-doc-commands ]; }
# NN-name words in guest.sh (its skip and keep lists; "32-bit" is prose)
names=$(grep -oE '\b[0-9]{2}-[a-z][a-z0-9-]*[a-z0-9]\b' "$top/scripts/guest.sh" | grep -vx '32-bit' | sort -u)
[ -n "$names" ] && echo "ok - guest.sh names tests ($(echo $names | wc -w))" ||
	echo "not ok - guest.sh names no test: the pattern no longer finds its lists"
for t in $names; do
	if have "$t"; then
		echo "ok - guest.sh's $t is a test"
	else
		echo "not ok - guest.sh names $t, which no test directory has"
	fi
done
# skips.py's patterns that name a test (NN-name before '.' or '*')
for t in $(grep -oE "'[0-9]{2}-[a-z][a-z0-9-]*[a-z0-9]" "$top/qemu-tests/skips.py" | tr -d "'" | sort -u); do
	if have "$t"; then
		echo "ok - skips.py's $t is a test"
	else
		echo "not ok - skips.py names $t, which no test directory has"
	fi
done

#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Run every test script of the directories in $TESTDIRS (/tests/test.d by
# default), but those named in $TESTSKIP, and print one KTAP document: one
# subtest per script, named after it, with the script's '# description:'
# line. Each script declares its plan up front (plan N, from lib.sh); a
# script that dies halfway leaves fewer results than its plan, which the
# host parser counts as a failure.
cd /tests || exit 1
set --
for d in ${TESTDIRS:-test.d}; do
	for t in $d/*.sh; do
		case " ${TESTSKIP:-} " in *" $(basename "$t" .sh) "*) continue ;; esac
		[ -f "$t" ] && set -- "$@" "$t"
	done
done
echo "KTAP version 1"
echo "1..$#"
i=0
for t in "$@"; do
	i=$((i + 1))
	name=$(basename "$t" .sh)
	desc=$(sed -n 's/^# description: //p' "$t")
	out=/tmp/ktap.$name
	t0=$(cut -d' ' -f1 /proc/uptime)
	sh "$t" > "$out" 2>&1
	rc=$?
	t1=$(cut -d' ' -f1 /proc/uptime)
	echo "    KTAP version 1"
	echo "    # Subtest: $name"
	echo "    # $desc"
	if ! grep -q '^1\.\.[0-9]' "$out"; then
		echo "    1..1"
		sed 's/^/    # /' "$out"
		echo "    not ok 1 - $name declared no plan"
		echo "not ok $i - $name"
		continue
	fi
	sed 's/^/    /' "$out"
	echo "    # $name took $(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.1f", b - a }') s"
	if [ $rc -ne 0 ]; then
		echo "    # $t exited with $rc"
		echo "not ok $i - $name"
	elif grep -q '^not ok ' "$out"; then
		echo "not ok $i - $name"
	else
		echo "ok $i - $name"
	fi
done
echo "# kmark guest tests done"

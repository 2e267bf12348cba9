#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Run every /tests/test.d/*.sh and print one KTAP document: one subtest per
# script, named after it, with the script's '# description:' line.
cd /tests/test.d || exit 1
set -- *.sh
echo "KTAP version 1"
echo "1..$#"
i=0
for t in "$@"; do
	i=$((i + 1))
	name=${t%.sh}
	desc=$(sed -n 's/^# description: //p' "$t")
	out=/tmp/ktap.$name
	sh "$t" > "$out" 2>&1
	rc=$?
	nr=$(grep -c -E '^(not )?ok ' "$out")
	echo "    KTAP version 1"
	echo "    # Subtest: $name"
	echo "    # $desc"
	echo "    1..$nr"
	sed 's/^/    /' "$out"
	if [ $rc -ne 0 ]; then
		echo "    # $t exited with $rc"
		echo "not ok $i - $name"
	elif [ "$nr" -eq 0 ]; then
		echo "    # $t reported no results"
		echo "not ok $i - $name"
	elif grep -q '^not ok ' "$out"; then
		echo "not ok $i - $name"
	else
		echo "ok $i - $name"
	fi
done
echo "# kmark guest tests done"

#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# scripts/hardening-check.sh: passes a configuration that has every option
# of scripts/config/hardening.list off and the lockdown LSM on, and fails
# one where any listed option is on (y or m) or the lockdown LSM is off;
# hardened.config itself turns every listed option off.
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
check=$top/scripts/hardening-check.sh
list=$top/scripts/config/hardening.list
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
opts=$(awk '!/^#/ && NF == 1 { print $1 }' "$list")
{
	echo CONFIG_SECURITY_LOCKDOWN_LSM=y
	echo CONFIG_KMARK=y
	for o in $opts; do echo "# CONFIG_$o is not set"; done
} > "$t/good"
if "$check" "$t/good" > "$t/out"; then
	echo "ok - a configuration with every listed option off passes ($(tail -n 1 "$t/out"))"
else
	echo "not ok - a good configuration fails"; sed 's/^/# /' "$t/out"
fi
for o in $opts; do
	sed "s/^# CONFIG_$o is not set\$/CONFIG_$o=y/" "$t/good" > "$t/bad"
	if "$check" "$t/bad" > "$t/out" || ! grep -q "^not ok CONFIG_$o off" "$t/out"; then
		echo "not ok - CONFIG_$o=y is not caught"
	else
		echo "ok - CONFIG_$o=y fails the check"
	fi
done
sed 's/^CONFIG_SECURITY_LOCKDOWN_LSM=y$//' "$t/good" > "$t/bad"
if "$check" "$t/bad" > /dev/null; then
	echo "not ok - a kernel without the lockdown LSM passes"
else
	echo "ok - a kernel without the lockdown LSM fails"
fi
sed 's/^# CONFIG_MODULES is not set$/CONFIG_MODULES=m/' "$t/good" > "$t/bad"
if "$check" "$t/bad" > /dev/null; then
	echo "not ok - =m passes"
else
	echo "ok - an option set to m fails"
fi
# The fragment: every listed option off, set so after the others (the last
# setting of an option wins when configure.sh merges them).
missing=
for o in $opts; do
	grep -qx "# CONFIG_$o is not set" "$top/scripts/config/hardened.config" || missing="$missing $o"
done
if [ -z "$missing" ]; then
	echo "ok - hardened.config turns every listed option off"
else
	echo "not ok - hardened.config does not turn off:$missing"
fi

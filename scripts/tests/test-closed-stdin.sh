#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# A closed standard input (a CI runner's) must not reach make: GNU make
# 4.3's jobserver pipe then lands on fd 0 and the kernel build's makes
# spin (scripts/lib.sh puts /dev/null there). A make -j2 started after
# sourcing lib.sh, its standard input closed before, has its jobserver
# pipe elsewhere.
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
printf 'all: a b\na b:\n\t@readlink /proc/$$PPID/fd/0 > %s/$@\n' "$t" > "$t/Makefile"
top=$top bash -c '. "$top/scripts/lib.sh"; make -s -j2 -C "$1"' _ "$t" 0<&- > /dev/null 2>&1
got=$(cat "$t/a" 2>/dev/null)
if [ "$got" = /dev/null ]; then
	echo "ok - a script of ours started with standard input closed gives make /dev/null"
else
	echo "not ok - a script of ours started with standard input closed gives make /dev/null (make's fd 0: '$got')"
fi

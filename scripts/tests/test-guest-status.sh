#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# make check's guest() (scripts/guest.sh) records QEMU's exit status, that
# of the check boot and of each lockdown boot: boot.sh stood in for by
# fixtures/fake-boot.sh, which writes a complete console log
# (fixtures/console/good.log) and exits 124, as boot.sh does when QEMU
# timed out. The boot that timed out, and only it, has "not ok boot".
# And the trace.dat check asks for every recording 85-trace-dat.sh makes:
# a log with one of the three (fixtures/console/one-recording.log) fails
# for the other two.
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
logdir=$(mktemp -d)
trap 'rm -rf "$logdir"' EXIT
. "$top/scripts/lib.sh"
. "$top/scripts/guest.sh"
export KMARK_BOOT_SH=$top/scripts/tests/fixtures/fake-boot.sh
export FAKE_LOG=$top/scripts/tests/fixtures/console/good.log
# boots MAIN-STATUS LOCKDOWN-STATUS: guest x86_64; prints which of its
# result files say "not ok boot  # QEMU exited with status 124".
boots() {
	local f
	FAKE_STATUS=$1 FAKE_LOCKDOWN_STATUS=$2 guest x86_64 2> /dev/null
	for f in "$logdir"/x86_64*.result; do
		grep -q '^\[[^]]*\] not ok boot  # QEMU exited with status 124' "$f" &&
			basename "$f" .result
	done | tr '\n' ' '
}
expect() {
	if [ "$2" = "$3" ]; then
		echo "ok - $1"
	else
		echo "not ok - $1: '$2', want '$3'"
	fi
}
expect "the check boot timed out: its result says so" "$(boots 124 0)" "x86_64 "
expect "the lockdown boots timed out: each result says so" "$(boots 0 124)" \
	"x86_64-lockdown-confidentiality x86_64-lockdown-integrity "
expect "none timed out: no result says so" "$(boots 0 0)" ""
FAKE_LOG= FAKE_STATUS=1 guest x86_64 2> /dev/null
expect "QEMU wrote nothing: the boot fails" \
	"$(grep -c '^\[x86_64\] not ok boot  # QEMU did not start (boot.sh exit 1)' "$logdir/x86_64.result")" 1
FAKE_LOG=$top/scripts/tests/fixtures/console/one-recording.log guest x86_64 2> /dev/null
expect "a log with one recording of 85-trace-dat.sh's three: the other two fail" \
	"$(sed -n 's/^\[x86_64\] not ok \([a-z]*\): its KMARK-DAT block is in the console log  # .*/\1/p' "$logdir/x86_64.dat" | tr '\n' ' ')" \
	"live owners "

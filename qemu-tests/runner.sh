#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Run every test script of the directories in $TESTDIRS (/tests/test.d by
# default), but those named in $TESTSKIP, and print one KTAP document: one
# subtest per script, named after it, with the script's '# description:'
# line. Each script declares its plan up front (plan N, from lib.sh); a
# script that dies halfway leaves fewer results than its plan, which the
# host parser counts as a failure. A script that overruns its time limit
# (TEST_TIMEOUT seconds, 400 by default; a '# timeout: N' line in the
# script sets its own) fails with every task's state on the console and
# is killed with all it started; the next script runs. '# timeout: N +
# VAR' adds the setting VAR (seconds, from /etc/kmark-run.conf or the
# kernel command line) to N: the fuzzer's FUZZ_TIME.
cd /tests || exit 1

# The tasks: pid, parent, state, command, where each sleeps; the kernel
# stack of those blocked in the kernel; then sysrq's held locks and
# blocked tasks (the console).
dump_tasks() {
	for p in /proc/[0-9]*; do
		st=$(sed -n 's/^State:\t//p' $p/status 2>/dev/null) || continue
		echo "# task ${p#/proc/} ppid=$(sed -n 's/^PPid:\t//p' $p/status 2>/dev/null) [$st] $(tr '\0' ' ' < $p/cmdline 2>/dev/null) wchan=$(cat $p/wchan 2>/dev/null)"
		case "$st" in
		D*|R*) sed 's/^/#     /' $p/stack 2>/dev/null
			echo "#     utime/stime $(cut -d' ' -f14,15 $p/stat) syscall $(cat $p/syscall 2>/dev/null)"
			for fd in $p/fd/*; do
				echo "#     fd ${fd##*/} $(readlink $fd) pos $(sed -n 's/^pos:\t//p' $p/fdinfo/${fd##*/})"
			done ;;
		S*) grep -q kmark $p/stack 2>/dev/null && sed 's/^/#     /' $p/stack ;;
		esac
	done
	if [ -w /proc/sysrq-trigger ]; then
		echo d > /proc/sysrq-trigger
		echo w > /proc/sysrq-trigger
		echo l > /proc/sysrq-trigger
	fi
}

# Every descendant of pid $1, then $1.
descendants() {
	set -- "$1"
	all=" $1 "
	grew=1
	while [ $grew = 1 ]; do
		grew=0
		for p in /proc/[0-9]*; do
			pid=${p#/proc/}
			case "$all" in *" $pid "*) continue ;; esac
			pp=$(sed -n 's/^PPid:\t//p' $p/status 2>/dev/null)
			case "$all" in *" $pp "*) all="$all$pid "; grew=1 ;; esac
		done
	done
	echo $all
}

set --
for d in ${TESTDIRS:-test.d}; do
	for t in $d/*.sh; do
		case " ${TESTSKIP:-} " in *" $(basename "$t" .sh) "*) continue ;; esac
		[ -f "$t" ] && set -- "$@" "$t"
	done
done
# A script whose "# needs:" line names what this kernel lacks (lib.sh's
# lacking) is not run: it is one skip that names what is missing.
. /tests/lib.sh

echo "KTAP version 1"
echo "1..$#"
i=0
for t in "$@"; do
	i=$((i + 1))
	name=$(basename "$t" .sh)
	desc=$(sed -n 's/^# description: //p' "$t")
	lacks=
	for w in $(sed -n 's/^# needs: //p' "$t"); do
		! lacking "$w" || lacks="$lacks${lacks:+, }$w"
	done
	if [ -n "$lacks" ]; then
		echo "    KTAP version 1"
		echo "    # Subtest: $name"
		echo "    # $desc"
		echo "    1..1"
		echo "    ok 1 - $name # SKIP no $lacks in this kernel"
		echo "ok $i - $name"
		continue
	fi
	out=/tmp/ktap.$name
	t0=$(cut -d' ' -f1 /proc/uptime)
	limit=$(sed -n 's/^# timeout: \([0-9]*\)\( + [A-Z_]*\)\{0,1\}$/\1/p' "$t")
	plus=$(sed -n 's/^# timeout: [0-9]* + \([A-Z_]*\)$/\1/p' "$t")
	limit=${limit:-${TEST_TIMEOUT:-400}}
	[ -z "$plus" ] || eval "limit=\$((limit + \${$plus:-0}))"
	sh "$t" > "$out" 2>&1 &
	tp=$!
	rm -f /tmp/ktap.timedout
	(
		# Killed when the test ends in time: its sleep goes with it.
		trap 'kill $s 2>/dev/null; exit 0' TERM
		sleep "$limit" &
		s=$!
		wait $s
		[ -d /proc/$tp ] || exit 0
		touch /tmp/ktap.timedout
		dump_tasks > /tmp/ktap.tasks 2>&1
		kill -9 $(descendants $tp) 2>/dev/null
	) &
	wd=$!
	wait $tp
	rc=$?
	kill $wd 2>/dev/null
	if [ -e /tmp/ktap.timedout ]; then
		n=$(grep -c '^\(not \)\{0,1\}ok ' "$out")
		echo "not ok $((n + 1)) - $name timed out after $limit s (killed); the tasks then:" >> "$out"
		cat /tmp/ktap.tasks >> "$out"
	fi
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

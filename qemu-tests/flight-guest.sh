#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The flight recorder's guest side, booted by qemu-tests/flight.py with the
# same command line every time (the boot-mapped instance "flight" over
# reserve_mem "kmflight", kmark_dump_on_oops=flight, kmark_dump_lines=20,
# kmark_traceoff_on_warning) and the same initramfs, so that the reserved
# region lands at the same address. What a boot does is read from what the
# previous one left (last_boot_info, the FLIGHT-N line it wrote last):
#
#   A1  cold start: no previous trace; resize, snapshot and removal
#       refused; a kprobe defined at run time records; FLIGHT-1; reboot -f
#   A2  (warm reboot) the previous trace ends with FLIGHT-1 and the reboot
#       note, with its task names, kprobe and formats; kmark dump (text
#       and .dat); recording clears it; FLIGHT-2; an oops (panic_on_oops):
#       the dump of the instance goes to the console, the kernel panics
#       and reboots
#   A3  (after the panic) the previous trace ends with the crash request
#       and the oops note, the dump did not consume it; the top instance's
#       consuming dump of the oopsing CPU; traceoff on warning and its
#       sysctl; FLIGHT-3; QEMU ends (isa-debug-exit)
#   B1  (a new QEMU on the same memory, reboots kept in it) FLIGHT-3 is
#       there; FLIGHT-4; a task hangs (LKDTM's HUNG_TASK) and the hung-task
#       detector panics: the dump of the instance goes to the console, the
#       kernel reboots
#   B2  the previous trace has FLIGHT-4 and ends with the panic note;
#       FLIGHT-8; QEMU ends
#   C1  (the host wrote random bytes over the region, its magic kept) no
#       previous trace, the header is damaged; the instance records
#   D1  (the host gave the header another kernel's banner, checksum
#       right) refused: another kernel build
#   E1  (the host wrote random bytes over the ring buffer's part only) no
#       previous trace: the buffer held no events
#   F1  (the host made every event table entry's first field lie outside
#       its record, checksums made right) the trace is there, every event
#       unknown: no entry passed the checks
#   G1  (a region of its own, kmflightG, no pad) a writer on each CPU
#       until the host resets the machine (QEMU's system_reset) at a
#       random instant: no shutdown path, as a watchdog's reset
#   G2  every CPU's writer's lines are there, whole, their numbers going
#       up, each gap a page the ring buffer dropped and said so
#   H1  (kmflightH) the writers for 3 s, then QEMU ends; the host writes
#       random bytes over two pages of each CPU's that hold their lines
#   H2  as G2; the host checks that exactly those pages were dropped
#   P1  (kmflightP) the writers, then a panic (LKDTM's PANIC; panic=-1
#       reboots; without LKDTM, i386-hardened's, /init exits: "Attempted
#       to kill init!"); O1 (kmflightO) an oops that panics (BUG,
#       panic_on_oops; not without LKDTM)
#   P2, O2  as G2
#
# Results: "FLIGHT ok - PHASE: what" / "FLIGHT not ok - ..." lines that the
# host counts; "FLIGHT # ..." lines are diagnostics; KMARK-FLIGHT-PHASE and
# KMARK-FLIGHT-END mark a boot's start and its planned end.
. /tests/lib.sh
I=$K/instances/flight
KT=/sys/kernel/debug/kmark_test
mod=/lib/modules/$(uname -r)/extra/kmark_test.ko
phase=unknown

fok() { echo "FLIGHT ok - $phase: $*"; }
fbad() { echo "FLIGHT not ok - $phase: $*"; }
fcheck() {
	name=$1
	shift
	if "$@"; then fok "$name"; else fbad "$name"; fi
}
fdiag() { printf '%s\n' "$*" | sed 's/^/FLIGHT # /'; }
# fexpect NAME GOT WANT
fexpect() {
	if [ "$2" = "$3" ]; then
		fok "$1"
	else
		fbad "$1"
		fdiag "got:  '$2'"
		fdiag "want: '$3'"
	fi
}
# A mark that says which boot wrote it, and the writer's pid.
mark() { echo "FLIGHT-$1 pid=$$" > $I/trace_marker; }
# The run ends here: QEMU's isa-debug-exit (the command line reboots).
finish() {
	echo "KMARK-FLIGHT-END $phase"
	sync
	if lacking modules; then
		# (i386-hardened: no test module; the host quits QEMU)
		sleep 30
		echo "FLIGHT not ok - $phase: the host did not end QEMU"
		poweroff -f
	fi
	[ -d $KT ] || insmod $mod
	echo 0 > $KT/qemu_exit
	sleep 10
	echo "FLIGHT not ok - $phase: isa-debug-exit did not end QEMU"
	poweroff -f
}
# refused FILE VALUE ERRNO-TEXT: the write fails with that error.
refused() {
	err=$(echo "$2" 2>&1 > "$1") && return 1
	case "$err" in *"$3"*) return 0 ;; esac
	fdiag "$1: $err"
	return 1
}
# Lines of the instance's trace, without the header.
lines() { grep -v '^#' "$1"; }
# note_is_last FILE TEXT: the note holding TEXT is in FILE, and every line
# after it is another CPU's, stamped within 1 ms of it: an event that CPU
# was recording at the instant the note stopped the instance (the stress
# kernel's two CPUs really run at once: seen once, 0.1 ms after a reboot's).
note_is_last() {
	awk -v text="$2" '
		function ts(l) { match(l, /[0-9]+\.[0-9]+: /); return substr(l, RSTART, RLENGTH - 2) + 0 }
		function cpu(l) { match(l, /\[[0-9]+\]/); return substr(l, RSTART + 1, RLENGTH - 2) }
		found && (cpu($0) == ncpu || ts($0) - nts > 0.001) { bad = 1 }
		!found && index($0, text) { found = 1; nts = ts($0); ncpu = cpu($0) }
		END { exit !(found && !bad) }' "$1"
}
# Some scheduling on both CPUs (sched_switch events on each).
load() {
	kmark-testprog pingpong 40 kmping kmpong 0 > /dev/null
	kmark-testprog pingpong 40 kmping kmpong 1 > /dev/null
}

cat $I/last_boot_info > /tmp/info.txt 2>/dev/null
info=$(cat /tmp/info.txt)
first=$(head -n 1 /tmp/info.txt)
case "$first" in
"previous boot: its trace is in this instance"*)
	case "$(lines $I/trace | grep -o 'FLIGHT-[0-9]' | tail -n 1)" in
	FLIGHT-1) phase=A2 ;;
	FLIGHT-2) phase=A3 ;;
	FLIGHT-3) phase=B1 ;;
	FLIGHT-4) phase=B2 ;;
	*) lines $I/trace | grep -q '<unknown event [0-9]*>' && phase=F1 ;;
	esac ;;
"no previous trace: no kmark header"*) phase=A1 ;;
"no previous trace: the header in the region is damaged"*) phase=C1 ;;
"no previous trace: refused"*) phase=D1 ;;
"no previous trace: the buffer held no events"*) phase=E1 ;;
esac
# G and H (their own QEMU runs, a region of their own, no pad: the
# firmware may write over part of it at each reset): G1 writes from both
# CPUs until the host resets the machine at a random instant, H1 writes
# for a while and ends, then the host writes random bytes over some of
# the pages that hold its lines; G2 and H2 count what each CPU kept.
for g in G H P O; do
	grep -q "kmflight$g" /proc/cmdline || continue
	case "$first" in
	"previous boot: its trace is in this instance"*) phase=${g}2 ;;
	"no previous trace: no kmark header"*) phase=${g}1 ;;
	*) phase=${g}? ;;
	esac
done
echo "KMARK-FLIGHT-PHASE $phase"
fdiag "$info"

# writers: one shell a CPU, each writing numbered lines into the instance.
writers() {
	wpids=
	for c in 0 1; do
		taskset -c $c sh -c "i=0; while echo 'W c=$c n='\$i > $I/trace_marker; do i=\$((i + 1)); done" &
		wpids="$wpids $!"
	done
}
# kept: what the previous boot's trace holds of each CPU's writer, and
# whether every gap in a writer's numbers is a page the ring buffer
# dropped and said so; the host checks the counts against what it did.
kept() {
	lines $I/trace > /tmp/prev.txt
	fexpect "no torn or garbage line: every line is a writer's, whole (or kmark's note of the crash)" \
		"$(grep -vE ': tracing_mark_write: kmark: [^ ]' /tmp/prev.txt |
		   grep -vcE '^ +sh-[0-9]+ +\[00[01]\] .{5} +[0-9]+\.[0-9]{6}: tracing_mark_write: W c=[01] n=[0-9]+$')" 0
	fcheck "no CPU's part was lost whole" sh -c "! grep -q 'all (its ring buffer meta' /tmp/info.txt"
	for c in 0 1; do
		other=$((1 - c))
		fexpect "CPU$c's writer's lines are all on CPU$c" \
			"$(grep -c "\[00$other\] .*: W c=$c " /tmp/prev.txt)" 0
		sed -n "s/.*: tracing_mark_write: W c=$c n=//p" /tmp/prev.txt > /tmp/seq.$c
		n=$(wc -l < /tmp/seq.$c)
		gaps=$(awk 'NR > 1 && $1 != p + 1 { g++ } { p = $1 } END { print g + 0 }' /tmp/seq.$c)
		back=$(awk 'NR > 1 && $1 <= p { b++ } { p = $1 } END { print b + 0 }' /tmp/seq.$c)
		lost=$(sed -n "s/^lost:.* CPU$c \([0-9]*\) pages.*/\1/p" /tmp/info.txt)
		fcheck "CPU$c: its writer's lines are there ($n)" test "$n" -gt 0
		fexpect "CPU$c: its writer's numbers only go up" "$back" 0
		fcheck "CPU$c: each gap in them is a page the ring buffer dropped and said so ($gaps gaps, ${lost:-0} pages dropped)" \
			test "$gaps" -le "${lost:-0}"
		echo "FLIGHT # kept CPU$c lines=$n first=$(head -n 1 /tmp/seq.$c) last=$(tail -n 1 /tmp/seq.$c) gaps=$gaps dropped=${lost:-0}"
	done
}

case $phase in
A1)
	fexpect "recording from boot (no ^traceoff, no previous trace)" \
		"$(cat $I/tracing_on)" 1
	fcheck "the command line's events are enabled in the instance" \
		sh -c "grep -qx 'sched:sched_switch' $I/set_event && grep -qx 'syscalls:sys_sync' $I/set_event"
	fcheck "an event of a module not loaded yet waits (kmark_test:crash_request)" \
		grep -qx 'kmark_test:crash_request' $I/set_event
	kb=$(cat $I/buffer_size_kb)
	echo > $I/error_log
	fcheck "buffer_size_kb refuses a change (EPERM)" \
		refused $I/buffer_size_kb 64 "not permitted"
	fcheck "error_log says why" \
		grep -q "its size cannot change" $I/error_log
	fcheck "per_cpu/cpu0/buffer_size_kb refuses too" \
		refused $I/per_cpu/cpu0/buffer_size_kb 64 "not permitted"
	fexpect "buffer_size_kb is what the region holds, unchanged" \
		"$(cat $I/buffer_size_kb)" "$kb"
	fcheck "buffer_subbuf_size_kb refuses a change (EPERM)" \
		refused $I/buffer_subbuf_size_kb 8 "not permitted"
	fcheck "snapshot refuses (EPERM)" refused $I/snapshot 1 "not permitted"
	fcheck "the instance cannot be removed" \
		refused $K/instances/remove flight "not permitted"
	# A kprobe defined now, not at boot: the next boot has not got it.
	fcheck "a kprobe event defined at run time, enabled in the instance" \
		sh -c "echo 'p:flightprobe ksys_sync' >> $K/kprobe_events && echo kprobes:flightprobe >> $I/set_event"
	load
	sync
	mark 1
	fcheck "FLIGHT-1 is in the trace" grep -q 'FLIGHT-1' $I/trace
	echo "KMARK-FLIGHT-REBOOT $phase"
	# -n: no sync(2), whose events would come after FLIGHT-1.
	reboot -n -f
	;;
A2)
	fexpect "the previous boot's kernel is this one" \
		"$(echo "$info" | sed -n 's/^kernel: //p')" "$(cat /proc/version)"
	fcheck "last_boot_info: the previous boot ended with a reboot" \
		sh -c "grep -q '^reboot at .*: reboot$' /tmp/info.txt"
	fexpect "recording is off while the previous trace is kept" \
		"$(cat $I/tracing_on)" 0
	lines $I/trace > /tmp/prev.txt
	fdiag "$(tail -n 4 /tmp/prev.txt)"
	# A traceon trigger would record into the previous boot's trace (the
	# two boots mixed): refused until tracing_on cleared it.
	fcheck "a traceon trigger is refused while the previous boot's trace is there" \
		sh -c "! echo traceon > $I/events/sched/sched_switch/trigger 2> /dev/null &&
		       cat $I/error_log $K/error_log 2> /dev/null | grep -q \"The previous boot's trace is here: set tracing_on\""
	fexpect "and the trace is still the previous boot's" \
		"$(lines $I/trace | grep -o 'FLIGHT-[0-9]' | tail -n 1)" FLIGHT-1
	pid=$(sed -n 's/.*FLIGHT-1 pid=\([0-9]*\).*/\1/p' /tmp/prev.txt)
	fcheck "FLIGHT-1 was written by sh-$pid: the previous boot's task names" \
		grep -q "^ *sh-$pid .*tracing_mark_write: FLIGHT-1 pid=$pid" /tmp/prev.txt
	fcheck "its last line is the reboot note (or another CPU's within 1 ms)" \
		note_is_last /tmp/prev.txt 'tracing_mark_write: kmark: tracing stopped: reboot: reboot'
	fcheck "between FLIGHT-1 and the note: only sched_switch events" \
		sh -c "sed -n '/FLIGHT-1/,/tracing stopped: reboot/p' /tmp/prev.txt | sed '1d;\$d' | grep -v ' sched_switch: ' | grep -q . && exit 1 || exit 0"
	fcheck "sys_sync and the previous boot's kprobe before it" \
		sh -c "grep -q ' sys_sync: ' /tmp/prev.txt && grep -q ' flightprobe: (ksys_sync+0x0' /tmp/prev.txt"
	fcheck "last_boot/kprobe_events has its definition" \
		grep -qx 'p:kprobes/flightprobe ksys_sync+0' $I/last_boot/kprobe_events
	fcheck "this boot has no such kprobe" \
		sh -c "! grep -q flightprobe $K/kprobe_events"
	fcheck "last_boot/events/kprobes/flightprobe/format is the old layout" \
		grep -q '^name: flightprobe$' $I/last_boot/events/kprobes/flightprobe/format
	fexpect "sched_switch's format of the previous boot is this build's" \
		"$(cat $I/last_boot/events/sched/sched_switch/format)" \
		"$(cat $K/events/sched/sched_switch/format)"
	kmark dump flight > /tmp/dump.txt
	fcheck "kmark dump prints the previous trace (as trace shows it)" \
		sh -c "grep -v '^#' /tmp/dump.txt | cmp -s - /tmp/prev.txt"
	fcheck "kmark dump -o prev.dat writes a trace.dat" \
		sh -c "kmark dump -o /tmp/prev.dat flight && test -s /tmp/prev.dat"
	echo "KMARK-FLIGHT-DAT-BEGIN"
	base64 /tmp/prev.dat
	echo "KMARK-FLIGHT-DAT-END"
	# This boot records now: the previous trace goes first.
	echo 1 > $I/tracing_on
	fcheck "tracing_on=1 clears the previous trace" \
		sh -c "! grep -q 'FLIGHT-1' $I/trace"
	fcheck "last_boot_info says it was cleared" \
		grep -q '^previous boot: its trace was cleared' $I/last_boot_info
	insmod $mod
	fcheck "the module's event (kmark_test:crash_request) is enabled now" \
		grep -qx 'kmark_test:crash_request' $I/set_event
	load
	sync
	mark 2
	echo 1 > /proc/sys/kernel/panic_on_oops
	echo "KMARK-FLIGHT-CRASH $phase"
	echo oops > $KT/crash
	fbad "the oops did not happen"
	finish
	;;
A3)
	fcheck "last_boot_info: an oops, then a panic" \
		sh -c "grep -q '^oops at .*: Oops' /tmp/info.txt && grep -q '^panic at .*: Fatal exception' /tmp/info.txt"
	lines $I/trace > /tmp/prev.txt
	fdiag "$(tail -n 3 /tmp/prev.txt)"
	fcheck "the last line is the oops note (or another CPU's within 1 ms)" \
		note_is_last /tmp/prev.txt 'tracing_mark_write: kmark: tracing stopped: oops: Oops'

	fcheck "the crash request is in it, after FLIGHT-2" \
		sh -c "sed -n '/FLIGHT-2/,\$p' /tmp/prev.txt | grep -q 'crash_request: what=oops'"
	# The host compares this with the dump's count and its left-out count.
	echo "FLIGHT # events in the previous trace: $(grep -c . /tmp/prev.txt)"
	echo 1 > $I/tracing_on
	insmod $mod
	# The top instance: a consuming dump of the oopsing CPU's last 5.
	echo 0 > /proc/sys/kernel/panic_on_oops
	echo orig_cpu > /proc/sys/kernel/kmark_dump_on_oops
	echo 5 > /proc/sys/kernel/kmark_dump_lines
	fexpect "kernel.kmark_dump_on_oops reads back" \
		"$(cat /proc/sys/kernel/kmark_dump_on_oops)" orig_cpu
	fcheck "kernel.kmark_dump_on_oops refuses nonsense" \
		refused /proc/sys/kernel/kmark_dump_on_oops 'a b' "Invalid argument"
	echo 'sched:sched_switch syscalls:sys_sync kmark_test:crash_request' > $K/set_event
	echo 1 > $K/tracing_on
	load
	echo "KMARK-FLIGHT-TOP-OOPS $phase"
	taskset 2 sh -c "echo oops > $KT/crash"
	echo "KMARK-FLIGHT-TOP-OOPS-DONE $phase"
	fexpect "the oops stopped recording in the top instance" \
		"$(cat $K/tracing_on)" 0
	fexpect "CPU 1's buffer was consumed by the dump" \
		"$(lines $K/per_cpu/cpu1/trace | grep -c .)" 0
	# (lines is a function of this shell: not in sh -c)
	fcheck "CPU 0's events are still there" \
		sh -c "grep -v '^#' $K/per_cpu/cpu0/trace | grep -q ' \[000\] '"
	# Traceoff on warning (the command line's), in every instance.
	fexpect "kernel.kmark_traceoff_on_warning is on (kmark_traceoff_on_warning)" \
		"$(cat /proc/sys/kernel/kmark_traceoff_on_warning)" 1
	echo w > $K/instances/new
	echo 'syscalls:sys_sync kmark_test:crash_request' > $K/set_event
	echo 'syscalls:sys_sync kmark_test:crash_request' > $K/instances/w/set_event
	echo 1 > $K/tracing_on
	echo 1 > $I/tracing_on
	sync
	echo warn > $KT/crash
	for d in $K $K/instances/w $I; do
		fexpect "a WARN stopped $d" "$(cat $d/tracing_on)" 0
		lines $d/trace | grep -v ' sched_switch: ' > /tmp/w.txt
		fcheck "$d: its last lines are the crash request and the note" \
			sh -c "tail -n 2 /tmp/w.txt | head -n 1 | grep -q 'crash_request: what=warn' && tail -n 1 /tmp/w.txt | grep -q 'kmark: tracing stopped: warning: at .*kmark_test_crash_write'"
	done
	echo 0 > /proc/sys/kernel/kmark_traceoff_on_warning
	echo 1 > $K/tracing_on
	echo warn > $KT/crash
	fexpect "with the sysctl 0, a WARN leaves recording on" \
		"$(cat $K/tracing_on)" 1
	echo 1 > $I/tracing_on
	mark 3
	finish
	;;
B1)
	fcheck "a new QEMU on the same memory: the previous trace ends with FLIGHT-3" \
		sh -c "grep -v '^#' $I/trace | grep -o 'FLIGHT-[0-9]' | tail -n 1 | grep -qx FLIGHT-3"
	fcheck "last_boot_info has that boot's oops and warnings" \
		sh -c "grep -q '^oops at ' /tmp/info.txt && grep -q '^warning at ' /tmp/info.txt"
	fcheck "trace_pipe (non-blocking) reads the previous trace, FLIGHT-3 in it" \
		sh -c "kmark-testprog drain $I/trace_pipe | grep -q 'tracing_mark_write: FLIGHT-3'"
	echo 1 > $I/tracing_on
	sync
	mark 4
	# A task blocked for good in D state: khungtaskd finds it within two
	# timeouts (2 s) and, with hung_task_panic, panics.
	fcheck "LKDTM is there (provoke-crash/DIRECT)" \
		test -w /sys/kernel/debug/provoke-crash/DIRECT
	echo 1 > /proc/sys/kernel/hung_task_panic
	echo 2 > /proc/sys/kernel/hung_task_timeout_secs
	echo "KMARK-FLIGHT-HUNG $phase"
	echo HUNG_TASK > /sys/kernel/debug/provoke-crash/DIRECT &
	sleep 60
	fbad "no hung-task panic within 60 s"
	finish
	;;
B2)
	fcheck "last_boot_info: a panic, of a hung task" \
		grep -q '^panic at .*: hung_task: blocked tasks' /tmp/info.txt
	lines $I/trace > /tmp/prev.txt
	fdiag "$(tail -n 3 /tmp/prev.txt)"
	fcheck "the previous trace has FLIGHT-4" grep -q 'tracing_mark_write: FLIGHT-4' /tmp/prev.txt
	fcheck "its last line is the panic note (or another CPU's within 1 ms)" \
		note_is_last /tmp/prev.txt 'tracing_mark_write: kmark: tracing stopped: panic: hung_task: blocked tasks'

	echo 1 > $I/tracing_on
	sync
	mark 8
	finish
	;;
C1)
	fcheck "no crash, the instance is there, recording" \
		sh -c "test \"\$(cat $I/tracing_on)\" = 1"
	fexpect "no mark of an earlier boot in its trace (it records from boot)" \
		"$(lines $I/trace | grep -c 'FLIGHT-[0-9]')" 0
	sync
	mark 5
	fcheck "it records this boot" sh -c "grep -q ' sys_sync: ' $I/trace && grep -q FLIGHT-5 $I/trace"
	finish
	;;
D1)
	fcheck "refused: another kernel build, and last_boot_info names it" \
		sh -c "grep -q 'recorded by another kernel build' /tmp/info.txt && grep -q '^kernel: .*KMARK-OTHER-BUILD' /tmp/info.txt"
	fcheck "the kernel log says so" \
		sh -c "dmesg | grep -q 'instance flight: no previous trace: the trace was recorded by another kernel build'"
	fexpect "no mark of an earlier boot in its trace (it records from boot)" \
		"$(lines $I/trace | grep -c 'FLIGHT-[0-9]')" 0
	sync
	mark 6
	fcheck "it records this boot" grep -q FLIGHT-6 $I/trace
	finish
	;;
E1)
	fexpect "no mark of an earlier boot in its trace (it records from boot)" \
		"$(lines $I/trace | grep -c 'FLIGHT-[0-9]')" 0
	fcheck "the ring buffer said its pages were not its own" \
		sh -c "dmesg | grep -q 'Ring buffer .*mismatch\|Ring buffer .*invalid\|Ring buffer .*out of range'"
	sync
	mark 7
	fcheck "it records this boot" grep -q FLIGHT-7 $I/trace
	finish
	;;
G1)
	writers
	sleep 1
	echo "KMARK-FLIGHT-WRITING"
	sleep 60
	fbad "no reset came"
	finish
	;;
H1)
	writers
	sleep 3
	kill $wpids
	wait
	fcheck "both writers wrote" sh -c "grep -q 'W c=0 n=' $I/trace && grep -q 'W c=1 n=' $I/trace"
	finish
	;;
P1|O1)
	# A panic (LKDTM's PANIC), or an oops that panics (BUG with
	# panic_on_oops), while both CPUs write; panic=-1 reboots.
	writers
	sleep 1
	[ $phase = O1 ] && echo 1 > /proc/sys/kernel/panic_on_oops
	echo "KMARK-FLIGHT-CRASH $phase"
	if [ $phase = P1 ] && [ ! -w /sys/kernel/debug/provoke-crash/DIRECT ]; then
		# No LKDTM (i386-hardened): init exits when this script
		# ends, and the kernel panics, the writers still writing.
		touch /tmp/kmark-init-exit
		exit 0
	elif [ $phase = P1 ]; then
		echo PANIC > /sys/kernel/debug/provoke-crash/DIRECT
	else
		echo BUG > /sys/kernel/debug/provoke-crash/DIRECT
	fi
	sleep 10
	fbad "no panic came"
	finish
	;;
G2|H2|P2|O2)
	kept
	finish
	;;
F1)
	lines $I/trace > /tmp/prev.txt
	fdiag "$(tail -n 2 /tmp/prev.txt)"
	fcheck "the previous trace has events" grep -q . /tmp/prev.txt
	fexpect "every one of them is an unknown event" \
		"$(grep -vc ': ?: <unknown event [0-9]*>$' /tmp/prev.txt)" 0
	fcheck "last_boot_info: no format of the previous boot was readable" \
		grep -q '^formats: last_boot/events/ (0 events, some not readable' /tmp/info.txt
	fexpect "last_boot/events/ has no event directory" \
		"$(ls $I/last_boot/events | grep -v '^header_' | wc -l)" 0
	finish
	;;
*)
	fbad "no phase fits what the previous boot left"
	finish
	;;
esac

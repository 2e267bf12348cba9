#!/bin/sh
# description: under lockdown (booted with lockdown=integrity or =confidentiality, and kmark_kprobe=p:lockp,ksys_sync). integrity (Secure Boot): debugfs refuses kmark's writable files, the tracefs copy works in full (kprobes included) and the kmark tool uses it. confidentiality: kmark_kprobe= refused at boot with its reason (LOCKDOWN_KPROBES), no tracefs copy, every debugfs file and the bench refused (LOCKDOWN_TRACEFS)
. /tests/lib.sh
mount -t securityfs securityfs /sys/kernel/security 2>/dev/null
mount -t tracefs nodev /sys/kernel/tracing 2>/dev/null
T=/sys/kernel/tracing/kmark
level=$(sed -n 's/.*\[\(.*\)\].*/\1/p' /sys/kernel/security/lockdown)
# refused FILE CMD...: FILE is there and CMD fails (a missing file is
# not a refusal).
refused() {
	f=$1
	shift
	[ -e "$f" ] && ! "$@" > /dev/null 2>&1
}
case "$level" in
integrity)
	plan 10
	ok "the kernel is locked down: integrity"
	if lacking debugfs; then
		# i386-hardened: kmark is in tracefs alone.
		for t in "debugfs: set_event (writable) is refused" \
			 "debugfs: kprobe_events (writable) is refused" \
			 "debugfs: available_markers (read-only) still reads"; do
			skip "$t" "no debugfs in this kernel"
		done
	else
		check "debugfs: set_event (writable) is refused" \
			refused $K/set_event sh -c "echo sys_sync > $K/set_event"
		check "debugfs: kprobe_events (writable) is refused" \
			refused $K/kprobe_events sh -c "echo 'p vfs_read' >> $K/kprobe_events"
		check "debugfs: available_markers (read-only) still reads" \
			sh -c "grep -q '^syscalls:sys_sync ' $K/available_markers"
	fi
	ev="sys_sync lockp"
	if lacking kprobes; then
		ev=sys_sync
		skip "kmark_kprobe= was accepted at boot" "no kprobes in this kernel"
	else
		check "kmark_kprobe= was accepted at boot (kprobes are allowed at integrity)" \
			grep -q '^p:kprobes/lockp ksys_sync' $T/kprobe_events
	fi
	check "tracefs: set_event and tracing_on are writable" \
		sh -c "echo '$ev' > $T/set_event && echo 1 > $T/tracing_on"
	sync
	out=$(kmark-testprog drain $T/trace_pipe)
	if lacking kprobes; then
		check "tracefs: trace_pipe has the marker" sh -c "echo '$out' | grep -q 'sys_sync:'"
		skip "tracefs: a new kprobe event can be defined" "no kprobes in this kernel"
	else
		check "tracefs: trace_pipe has the marker and the kprobe event" \
			sh -c "echo '$out' | grep -q 'sys_sync:' && echo '$out' | grep -q 'lockp:'"
		check "tracefs: a new kprobe event can be defined" \
			sh -c "echo 'p:lockq vfs_read' >> $T/kprobe_events"
	fi
	echo > $T/set_event
	check "the kmark tool finds the tracefs copy and enables through it" \
		sh -c "kmark enable sys_sync > /dev/null && grep -qx syscalls:sys_sync $T/set_event"
	sync
	check "kmark stream reads the event" \
		sh -c "kmark stream -n 1 | grep -q sys_sync"
	echo > $T/set_event
	;;
confidentiality)
	plan 6
	ok "the kernel is locked down: confidentiality"
	if lacking kprobes; then
		skip "kmark_kprobe= was refused at boot, with the reason" "no kprobes in this kernel"
	else
		check "kmark_kprobe= was refused at boot, with the reason" \
			sh -c "dmesg | grep -q \"kmark_kprobe=: 'p:lockp ksys_sync': Kprobes are locked down\""
	fi
	check "no tracefs copy (tracefs, mounted, refuses to create files)" \
		sh -c "grep -q ' /sys/kernel/tracing tracefs ' /proc/mounts && test ! -e $T"
	if [ ! -d /sys/kernel/debug ]; then
		# i386-hardened: no debugfs either, so no control file at all,
		# as ftrace has none there; the tool says so.
		out=$(kmark list 2>&1); rc=$?
		check "no debugfs either: kmark has no control file at all, the kernel log and the tool say so (exit 3)" \
			sh -c "[ $rc = 3 ] && [ ! -e /sys/kernel/debug/kmark ] && echo '$out' | grep -q 'no kmark control directory' &&
			       dmesg | grep -q 'no control files: neither debugfs nor tracefs'"
		for t in "debugfs: trace_pipe is refused" \
			 "debugfs: events/sched/sched_switch/format and the bench are refused"; do
			skip "$t" "no debugfs in this kernel"
		done
	else
		check "debugfs: available_markers is refused" \
			refused $K/available_markers cat $K/available_markers
		check "debugfs: trace_pipe is refused" \
			refused $K/trace_pipe kmark-testprog nonblock $K/trace_pipe
		check "debugfs: events/sched/sched_switch/format and the bench are refused" \
			sh -c "[ -e $K/events/sched/sched_switch/format ] && [ -e $K/bench ] &&
			       ! cat $K/events/sched/sched_switch/format && ! cat $K/bench"
	fi
	;;
*)
	plan 1
	not_ok "not locked down: '$level'"
	;;
esac

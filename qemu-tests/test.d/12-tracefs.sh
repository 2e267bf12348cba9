#!/bin/sh
# needs: debugfs
# description: the same kmark directory in tracefs (/sys/kernel/tracing/kmark): same files, one state (a write in one shows in the other), event directories made and removed in both, a format file held open across its event's removal fails cleanly
. /tests/lib.sh
plan 8
T=/sys/kernel/tracing/kmark
mount -t tracefs nodev /sys/kernel/tracing 2>/dev/null
reset_kmark
# debugfs's instances/ has new and remove, tracefs's takes mkdir and rmdir.
lsall() { (cd "$1" && find . | grep -v -e '^\./bench$' -e '^\./instances/new$' -e '^\./instances/remove$' | sort); }
expect_eq "tracefs has the same files as debugfs" "$(lsall $T)" "$(lsall $K)"
echo 'sched_switch sys_sync' > $T/set_event
expect_eq "set_event written in tracefs reads back in debugfs" \
	"$(sort $K/set_event)" "$(printf 'sched:sched_switch\nsyscalls:sys_sync')"
echo 0 > $K/tracing_on
expect_eq "tracing_on written in debugfs reads back in tracefs" "$(cat $T/tracing_on)" 0
echo 1 > $T/tracing_on
echo sys_sync > $T/set_event
sync
expect_eq "an event recorded is read from tracefs's trace_pipe" \
	"$(kmark-testprog drain $T/trace_pipe | grep -c 'sys_sync:')" 1
echo 'p:tfs_probe ksys_sync' >> $T/kprobe_events
check "a kprobe event's directory is in both trees" \
	cmp $T/events/kprobes/tfs_probe/format $K/events/kprobes/tfs_probe/format
exec 3< $T/events/kprobes/tfs_probe/format
exec 4< $K/events/kprobes/tfs_probe/format
echo '-:tfs_probe' >> $K/kprobe_events
check "the event's directory is gone from both trees" \
	sh -c "[ ! -e $T/events/kprobes/tfs_probe ] && [ ! -e $K/events/kprobes/tfs_probe ]"
check "tracefs: a format file open across its event's removal fails to read" \
	sh -c '! cat <&3 > /dev/null 2>&1'
check "debugfs: a format file open across its event's removal fails to read" \
	sh -c '! cat <&4 > /dev/null 2>&1'
exec 3<&- 4<&-
reset_kmark

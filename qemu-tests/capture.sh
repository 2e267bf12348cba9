#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Capture real trace_pipe output for userspace/tests/fixtures (run by
# scripts/capture-fixtures.sh through 'make run SCRIPT=...'): odd comms,
# sched and sys_sync markers, kprobes, and lost events from a small buffer.
# Prints the trace between KMARK-CAPTURE lines, then the kernel's counts.
K=/sys/kernel/debug/kmark
echo 1 > $K/tracing_on
echo > $K/set_event
echo > $K/kprobe_events
echo 'p:myopen do_sys_openat2 dfd=$arg1:s32 fname=+0($arg2):ustring' >> $K/kprobe_events
echo 'r:myopenret do_sys_openat2 ret=$retval:s32' >> $K/kprobe_events
echo 8 > $K/buffer_size_kb
echo > $K/trace
echo 'sched_switch sched_wakeup sys_sync myopen myopenret' > $K/set_event
kmark-testprog pingpong 400 'ping pong' '[pong]-x' > /dev/null
kmark-testprog sync 2
cat /no/such/file 2>/dev/null
echo 0 > $K/tracing_on
echo > $K/set_event
echo "KMARK-CAPTURE-BEGIN"
kmark-testprog drain $K/trace_pipe
echo "KMARK-CAPTURE-END"
sum() { cat $K/per_cpu/cpu*/stats | sed -n "s/^$1: //p" | awk '{ s += $1 } END { print s + 0 }'; }
echo "KMARK-CAPTURE-COUNTS written=$(sum written) read=$(sum 'read events') lost=$(( $(sum overrun) + $(sum 'dropped events') ))"

#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Capture raw pages for userspace/tests/fixtures/raw-ARCH-ids (run by
# scripts/capture-fixtures.sh --raw): sched_switch and sched_wakeup of 40
# ping-pong round trips, recorded in a window that opens once both tasks
# have their names (KMARK_WINDOW) and closes before they exit: nobody
# forks or execs inside it, so that each pid has one name and a
# trace.dat's saved cmdlines name every record as the text does; then
# three sys_sync events. Then the
# raw pages of each CPU, the text of the same records, the format files
# (events/SYS/NAME/), saved_comms and saved_cmdlines, printed as base64 of
# a gzip'ed tar between KMARK-RAW lines.
K=/sys/kernel/debug/kmark
echo 0 > $K/tracing_on
echo > $K/set_event
echo 64 > $K/buffer_size_kb
echo > $K/trace
echo 'sched_switch sched_wakeup' > $K/set_event
KMARK_WINDOW=$K/tracing_on kmark-testprog pingpong 40 'ping pong' '[pong]-x' 1 > /dev/null
# Then sys_sync alone: its task (named by exec before it syncs) is in no
# sched_switch field, so only common_comm_id and saved_comms can name it.
echo sys_sync > $K/set_event
echo 1 > $K/tracing_on
taskset 1 kmark-testprog sync 3
echo 0 > $K/tracing_on
echo > $K/set_event
c=/tmp/cap
rm -rf $c; mkdir -p $c/events
for f in header_page header_event; do cat $K/events/$f > $c/events/$f; done
for e in sched/sched_switch sched/sched_wakeup syscalls/sys_sync; do
	mkdir -p $c/events/$e
	for f in format id; do cat $K/events/$e/$f > $c/events/$e/$f; done
done
cat $K/trace > $c/trace.txt
cat $K/saved_comms > $c/saved_comms
cat $K/saved_cmdlines > $c/saved_cmdlines
for cpu in 0 1; do
	kmark-testprog drain $K/per_cpu/cpu$cpu/trace_pipe_raw > $c/cpu$cpu.raw
done
echo KMARK-RAW-BEGIN
tar -C $c -czf - . | base64
echo KMARK-RAW-END

#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Guest side of the instruction profile ('make bench', scripts/profile.sh):
# keeps every profiled path busy while gdb, attached to QEMU's gdbstub,
# single-steps one call of each (scripts/insn_profile.py). kmark's marker
# and ftrace's TRACE_EVENT with the same fields, the ring buffer alone, and
# sched_switch of both tracers (ftrace with its defaults: record-cmd on).
K=/sys/kernel/debug/kmark
T=/sys/kernel/debug/tracing
[ -d $T/events ] || mount -t tracefs tracefs $T 2>/dev/null
taskset -p 1 $$ > /dev/null
echo 'kmark_bench sched_switch' > $K/set_event
echo 1 > $T/events/kmark_bench/kmark_bench/enable
echo 1 > $T/events/sched/sched_switch/enable
# Some events first, so that every buffer page has been written once.
for m in marker tracepoint ringbuf; do echo "$m 20000" > $K/bench; done
echo PROFILE-READY
i=0
while [ $i -lt 100000 ]; do
	for m in marker tracepoint ringbuf; do echo "$m 1000" > $K/bench; done
	kmark-testprog pingpong-time 10 > /dev/null
	i=$((i + 1))
done

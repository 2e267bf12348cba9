#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Guest side of 'make bench''s dump boot (x86_64 bench kernel, -icount): the
# time to dump a DUMP_KB KiB buffer to the console at a panic, kmark's
# (kmark_dump_on_oops, every event: kernel.kmark_dump_lines=0) against
# ftrace's (ftrace_dump_on_oops) in the same panic. Each tracer's CPU 0
# buffer is filled with kmark_bench events (the same fields in both) until
# it overwrites; the panic (LKDTM's PANIC) then dumps both, one after the
# other. The host (scripts/bench_report.py) reads the console's printk
# times of each dump's first and last line: under -icount, guest
# nanoseconds are instructions. Prints "BENCH dump.TRACER.bytes|entries".
K=/sys/kernel/debug/kmark
T=/sys/kernel/debug/tracing
KB=${DUMP_KB:-1024}
[ -d $T ] || mount -t tracefs tracefs $T 2>/dev/null
out() { echo "BENCH $*"; }
sum0() { sed -n "s/^$2: //p" "$1"/per_cpu/cpu0/stats | awk '{ print $1 + 0 }'; }
# fill DIR MODE: kmark_bench events on CPU 0 until the buffer overwrote
fill() {
	i=0
	while [ "$(sum0 "$1" overrun)" = 0 ] && [ $i -lt 100 ]; do
		taskset 1 sh -c "echo '$2 20000' > $K/bench"
		i=$((i + 1))
	done
}
echo 0 > /proc/sys/kernel/kmark_dump_lines
echo 1 > /proc/sys/kernel/kmark_dump_on_oops
echo 1 > /proc/sys/kernel/ftrace_dump_on_oops
echo $KB > $K/buffer_size_kb
echo $KB > $T/buffer_size_kb
echo kmark_bench > $K/set_event
fill $K marker
echo > $K/set_event
echo 1 > $T/events/kmark_bench/kmark_bench/enable
fill $T tracepoint
echo 0 > $T/events/kmark_bench/kmark_bench/enable
for d in kmark:$K ftrace:$T; do
	out "dump.${d%%:*}.bytes" "$(sum0 "${d#*:}" bytes)"
	out "dump.${d%%:*}.entries" "$(sum0 "${d#*:}" entries)"
done
# (the lines above on the console before the panic's)
sleep 1
echo PANIC > /sys/kernel/debug/provoke-crash/DIRECT

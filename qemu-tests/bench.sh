#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Guest side of 'make bench' (x86_64 bench kernel: kmark + ftrace, no
# lockdep). Prints "BENCH <name> <value>" lines for scripts/bench.sh; every
# comparison is measured in this one boot, configurations interleaved.
# N (hits per run), RUNS (runs per configuration), PP (ping-pong round trips),
# DRAIN (events a reader drains), FLOOD (events of the flood) come from the
# environment; ONLY_KMARK=1 (the i386 bench kernel, which has
# no ftrace) measures kmark's per-event figures alone.
K=/sys/kernel/debug/kmark
T=/sys/kernel/debug/tracing
N=${N:-200000} RUNS=${RUNS:-5} PP=${PP:-5000} FLOOD=${FLOOD:-1000000}
DRAIN=${DRAIN:-100000} DRAIN_KB=$(( ${DRAIN:-100000} * 64 / 1024 + 64 ))
IDLE=${IDLE:-3} LAT=${LAT:-50}
[ -d $T ] || mount -t tracefs tracefs $T 2>/dev/null
out() { echo "BENCH $*"; }
# bench MODE: total ns of N calls, on CPU 0
bench() { echo "$1 $N" > $K/bench; set -- $(cat $K/bench); echo "$3"; }
clear_bufs() { echo > $K/trace; [ -n "$ONLY_KMARK" ] || echo > $T/trace; }
# sum DIR FIELD: a field of per_cpu/cpu*/stats, summed over the CPUs
sum() { cat "$1"/per_cpu/cpu*/stats | sed -n "s/^$2: //p" | awk '{ s += $1 } END { print s + 0 }'; }
KP='a=$arg1:s32 b=$arg2:s64 comm=$comm'
HT='hist:keys=common_pid:vals=a' HSIZE=65536
# hist_mem NAME TRIGGER: bytes per entry of a HSIZE-entry table of HT
hist_mem() {
	sync
	echo 3 > /proc/sys/vm/drop_caches
	m0=$(sed -n 's/^MemFree: *\([0-9]*\) kB$/\1/p' /proc/meminfo)
	echo "$HT:size=$HSIZE" > "$2"
	m1=$(sed -n 's/^MemFree: *\([0-9]*\) kB$/\1/p' /proc/meminfo)
	echo "!$HT:size=$HSIZE" >> "$2"
	out "mem.$1.hist_entry" $(( (m0 - m1) * 1024 / HSIZE ))
}

# inst_mem NAME DIR: the memory an instance made with mkdir takes, with
# sched_switch enabled in it and recording (each tracer's defaults: its
# buffers at the size a new instance gets, buffer_total_size_kb, and what
# else it allocates, such as its event files), MemFree before and after;
# and what removing it gives back. Once per boot, before the top
# instances' buffers are resized.
memfree() { sync; echo 3 > /proc/sys/vm/drop_caches; sed -n 's/^MemFree: *\([0-9]*\) kB$/\1/p' /proc/meminfo; }
inst_mem() {
	m0=$(memfree)
	mkdir "$2/instances/benchmem" || return
	if [ "$1" = kmark ]; then
		echo sched:sched_switch > "$2/instances/benchmem/set_event"
	else
		echo 1 > "$2/instances/benchmem/events/sched/sched_switch/enable"
	fi
	kmark-testprog pingpong 200 > /dev/null
	m1=$(memfree)
	out "mem.$1.instance_kb" $((m0 - m1))
	out "mem.$1.instance_buffers_kb" "$(cat "$2/instances/benchmem/buffer_total_size_kb" | sed 's/ .*//')"
	if [ "$1" = kmark ]; then
		echo > "$2/instances/benchmem/set_event"
	else
		echo 0 > "$2/instances/benchmem/events/sched/sched_switch/enable"
	fi
	rmdir "$2/instances/benchmem"
	# (frees deferred past rmdir, RCU's and workqueues', land in this
	# figure and not in the next tracer's)
	sleep 2
	out "mem.$1.instance_freed_kb" $(( $(memfree) - m1 ))
}
KT=/sys/kernel/tracing/kmark
inst_mem kmark $KT
[ -n "$ONLY_KMARK" ] || inst_mem ftrace $T

echo 1408 > $K/buffer_size_kb
[ -n "$ONLY_KMARK" ] || echo 1408 > $T/buffer_size_kb
echo > $K/set_event
# Warm the emulator and the caches up.
bench plain > /dev/null; bench marker > /dev/null
kmark-testprog pingpong-time 500 > /dev/null

# The readers: the same program reads both tracers' files, 4 KiB at a time
# like cat (kmark-testprog drain: O_NONBLOCK until EAGAIN), and kmark record
# writes a trace.dat of kmark's raw pages (-S: spliced); readdrain writes
# the raw pages into a file (1 MiB writes), what a recorder pays for it.
lost_now() { echo $(( $(sum "$1" overrun) + $(sum "$1" 'dropped events') )); }
# drain NAME DIR MODE READER...: events recorded with no reader (they fit
# in the buffer: "fill_lost" says so), then READER alone takes them on
# CPU 1; twice, DRAIN/4 and DRAIN events: the difference of the two times
# is READER's own time for the extra events (its start-up and end cancel
# out), the rate it keeps up with at zero loss. kmark record stops at
# once (-t 1 us: its threads then take every page there is): a longer -t
# is a floor under both times, which a drain shorter than it hides.
drain_once() {
	clear_bufs
	# (kmark record disables its events when it ends)
	[ "$dir" != $K ] || echo kmark_bench > $K/set_event
	echo "$mode $1" > $K/bench
	shift
	fill_lost=$(( fill_lost + $(lost_now "$dir") ))
	r0=$(sum "$dir" 'read events')
	# a reader's file from the run before: not freed in this one's time
	rm -f /tmp/rd.dat
	ns=$(taskset 2 kmark-testprog time "$@")
	events=$(( $(sum "$dir" 'read events') - r0 ))
}
drain() {
	name=$1 dir=$2 mode=$3 fill_lost=0; shift 3
	drain_once $((DRAIN / 4)) "$@"
	ns0=$ns events0=$events
	drain_once "$DRAIN" "$@"
	out "drain.$name.fill_lost" "$fill_lost"
	out "drain.$name.events" $((events - events0))
	out "drain.$name.ns" $((ns - ns0))
}
# flood NAME DIR MODE READER...: FLOOD events from CPU 0 at the writer's
# full rate, READER (blocking) on CPU 1 at the same time: what it loses.
flood() {
	name=$1 dir=$2 mode=$3; shift 3
	clear_bufs
	taskset 2 "$@" > /dev/null 2>&1 &
	rd=$!
	sleep 1
	r0=$(sum "$dir" 'read events')
	echo "$mode $FLOOD" > $K/bench
	sleep 2
	kill $rd 2>/dev/null; wait $rd 2>/dev/null
	out "flood.$name.events" $(( $(sum "$dir" 'read events') - r0 ))
	out "flood.$name.lost" "$(lost_now "$dir")"
}
# readers KIND: every reader of both tracers, drain or flood
readers() {
	kind=$1
	# The drains' events must fit: DRAIN_KB per CPU (the flood keeps the
	# 1408 KiB of the other figures, the writer outruns any reader there).
	kb=1408
	[ "$kind" = flood ] || kb=$DRAIN_KB
	echo $kb > $K/buffer_size_kb
	echo $kb > $T/buffer_size_kb
	echo kmark_bench > $K/set_event
	if [ "$kind" = drain ]; then
		drain kmark_cat $K marker kmark-testprog drain $K/trace_pipe
		drain kmark_raw $K marker kmark-testprog drain $K/per_cpu/cpu0/trace_pipe_raw
		drain kmark_dat $K marker kmark record -k -t 0.000001 -o /tmp/rd.dat kmark_bench
		drain kmark_dat_splice $K marker kmark record -S -k -t 0.000001 -o /tmp/rd.dat kmark_bench
		drain kmark_raw_file $K marker kmark-testprog readdrain $K/per_cpu/cpu0/trace_pipe_raw /tmp/rd.dat 1048576
	else
		flood kmark_cat $K marker cat $K/trace_pipe
		flood kmark_raw $K marker cat $K/per_cpu/cpu0/trace_pipe_raw
		flood kmark_dat $K marker kmark record -k -o /tmp/rd.dat kmark_bench
		flood kmark_dat_splice $K marker kmark record -S -k -o /tmp/rd.dat kmark_bench
	fi
	rm -f /tmp/rd.dat
	echo > $K/set_event
	echo 1 > $T/events/kmark_bench/kmark_bench/enable
	if [ "$kind" = drain ]; then
		drain ftrace_cat $T tracepoint kmark-testprog drain $T/trace_pipe
		drain ftrace_raw $T tracepoint kmark-testprog drain $T/per_cpu/cpu0/trace_pipe_raw
		drain ftrace_raw_file $T tracepoint kmark-testprog readdrain $T/per_cpu/cpu0/trace_pipe_raw /tmp/rd.dat 1048576
	else
		flood ftrace_cat $T tracepoint cat $T/trace_pipe
		flood ftrace_raw $T tracepoint cat $T/per_cpu/cpu0/trace_pipe_raw
	fi
	echo 0 > $T/events/kmark_bench/kmark_bench/enable
	echo 1408 > $K/buffer_size_kb
	echo 1408 > $T/buffer_size_kb
	clear_bufs
}

r=0
while [ $r -lt "$RUNS" ]; do
	r=$((r + 1))
	out hit.plain "$(bench plain)"
	out hit.marker_off "$(bench marker)"
	clear_bufs
	echo kmark_bench > $K/set_event
	out hit.marker_on "$(bench marker)"
	# Bytes per record, from the buffers' own counters (record, ring
	# buffer event header and time extends; the same for both tracers).
	out size.kmark.bytes "$(sum $K bytes)"
	out size.kmark.entries "$(sum $K entries)"
	# The ring buffer's part: reserve and commit alone, same record size.
	out hit.ringbuf "$(bench ringbuf)"
	echo 0 > $K/tracing_on
	out hit.marker_paused "$(bench marker)"
	echo 1 > $K/tracing_on
	# A filter that refuses every hit: no reservation, the filter alone.
	echo 'a == -1' > $K/events/kmark/kmark_bench/filter
	out hit.marker_filtered "$(bench marker)"
	echo 0 > $K/events/kmark/kmark_bench/filter
	# options/stacktrace: each event followed by its kernel stack.
	if [ -e $K/options/stacktrace ]; then
		echo 1 > $K/options/stacktrace
		out hit.marker_stack "$(bench marker)"
		echo 0 > $K/options/stacktrace
	fi
	echo > $K/set_event
	# A hist trigger keyed by pid with one value, the event itself not
	# recorded (soft mode): the same text on kmark's and ftrace's event.
	echo "$HT" > $K/events/kmark/kmark_bench/trigger
	out hit.marker_hist "$(bench marker)"
	echo "!$HT" >> $K/events/kmark/kmark_bench/trigger
	if [ -z "$ONLY_KMARK" ]; then
		echo "$HT" > $T/events/kmark_bench/kmark_bench/trigger
		out hit.tracepoint_hist "$(bench tracepoint)"
		echo "!$HT" >> $T/events/kmark_bench/kmark_bench/trigger
	fi
	# The memory a table of HSIZE entries takes (all preallocated when the
	# trigger is written): MemFree before and after, per entry.
	hist_mem kmark $K/events/kmark/kmark_bench/trigger
	[ -n "$ONLY_KMARK" ] || hist_mem ftrace $T/events/kmark_bench/kmark_bench/trigger
	if [ -z "$ONLY_KMARK" ]; then
		out hit.tracepoint_off "$(bench tracepoint)"
		echo 1 > $T/events/kmark_bench/kmark_bench/enable
		out hit.tracepoint_on "$(bench tracepoint)"
		out size.ftrace.bytes "$(sum $T bytes)"
		out size.ftrace.entries "$(sum $T entries)"
		echo 'a == -1' > $T/events/kmark_bench/kmark_bench/filter
		out hit.tracepoint_filtered "$(bench tracepoint)"
		echo 0 > $T/events/kmark_bench/kmark_bench/filter
		echo 1 > $T/options/stacktrace
		out hit.tracepoint_stack "$(bench tracepoint)"
		echo 0 > $T/options/stacktrace
		echo 0 > $T/events/kmark_bench/kmark_bench/enable
		# A probe that cannot be defined leaves its figure missing
		# (not the plain call's, as if the probe cost nothing).
		echo "p:bk kmbench_plain $KP" > $K/kprobe_events &&
			echo bk > $K/set_event &&
			out hit.kmark_kprobe "$(bench plain)"
		echo > $K/set_event
		echo > $K/kprobe_events
		echo "p:bk kmbench_plain $KP" > $T/kprobe_events &&
			echo 1 > $T/events/kprobes/bk/enable &&
			out hit.ftrace_kprobe "$(bench plain)"
		echo 0 > $T/events/kprobes/bk/enable
		echo > $T/kprobe_events
	fi
	clear_bufs

	out switch.none "$(kmark-testprog pingpong-time "$PP")"
	echo sched_switch > $K/set_event
	out switch.kmark "$(kmark-testprog pingpong-time "$PP")"
	echo > $K/set_event
	if [ -z "$ONLY_KMARK" ]; then
		echo 1 > $T/events/sched/sched_switch/enable
		out switch.ftrace "$(kmark-testprog pingpong-time "$PP")"
		echo 0 > $T/events/sched/sched_switch/enable
		# ftrace's default record-cmd keeps its pid -> comm table
		# through probes of its own on sched_switch and sched_wakeup;
		# without them, what the event itself costs.
		echo 0 > $T/options/record-cmd
		echo 1 > $T/events/sched/sched_switch/enable
		out switch.ftrace_nocmd "$(kmark-testprog pingpong-time "$PP")"
		echo 0 > $T/events/sched/sched_switch/enable
		echo 1 > $T/options/record-cmd
	fi
	clear_bufs
	[ -n "$ONLY_KMARK" ] || { readers drain; readers flood; }
done
# The long recording: LONG s of sched_switch while ping-pongs run on CPU 0
# (100 round trips every 10 ms or so: some 20,000 switches a second, the
# file fits in the guest's memory), kmark record -o on CPU 1: the CPU time
# it used and the bytes it wrote; the events its summary counts against
# those kmark report reads back.
LONG=${LONG:-60}
clear_bufs
(while :; do kmark-testprog pingpong 100 > /dev/null; sleep 0.01; done) &
load=$!
set -- $(taskset 2 kmark-testprog cputime kmark record -t "$LONG" \
	-o /tmp/long.dat sched_switch 2> /tmp/long.err)
kill $load; wait $load 2> /dev/null
out long.kmark.s "$LONG"
out long.kmark.cpu_us "$2"
out long.kmark.bytes "$(wc -c < /tmp/long.dat)"
out long.kmark.events "$(sed -n 's/^kmark: recorded \([0-9]*\) events, .*/\1/p' /tmp/long.err)"
out long.kmark.lost "$(sed -n 's/^kmark: recorded [0-9]* events, \([0-9]*\) lost.*/\1/p' /tmp/long.err)"
out long.kmark.report_events "$(kmark report /tmp/long.dat | sed -n 's/^events: \([0-9]*\),.*/\1/p')"
rm -f /tmp/long.dat
clear_bufs

# ONLY_KMARK (i386: no ftrace there): the per-event figures above only.
if [ -n "$ONLY_KMARK" ]; then
	out done 1
	return 0 2>/dev/null || exit 0
fi

# The idle reader: sched_switch only, 'cat trace_pipe' to a file for IDLE s;
# how many of the recorded switches are the reader's own.
idle() {	# idle NAME DIR
	clear_bufs
	timeout "$IDLE" cat "$2"/trace_pipe > /tmp/idle.txt
	out "idle.$1.own" "$(grep -c 'sched_switch: prev_comm=cat ' /tmp/idle.txt)"
	out "idle.$1.all" "$(grep -c 'sched_switch: ' /tmp/idle.txt)"
	out "idle.$1.ms" $((IDLE * 1000))
}
echo sched_switch > $K/set_event
idle kmark $K
echo 0 > $K/read_delay_ms
idle kmark_per_event $K
echo 50 > $K/read_delay_ms
echo > $K/set_event
echo 1 > $T/events/sched/sched_switch/enable
idle ftrace $T
echo 0 > $T/events/sched/sched_switch/enable

# Latency: LAT events (sys_sync; ftrace: a kprobe event of that name on
# ksys_sync) fired while the reader blocks; from before sync() to the line.
latency() {	# latency NAME DIR
	clear_bufs
	for kv in $(kmark-testprog latency "$2"/trace_pipe "$LAT"); do
		case "$kv" in
		*_us=*) out "lat.$1.${kv%%=*}" "${kv#*=}" ;;
		esac
	done
}
echo sys_sync > $K/set_event
latency kmark $K
echo > $K/set_event
echo 'p:sys_sync ksys_sync' > $T/kprobe_events
echo 1 > $T/events/kprobes/sys_sync/enable
latency ftrace $T
echo 0 > $T/events/kprobes/sys_sync/enable
echo > $T/kprobe_events
out done 1

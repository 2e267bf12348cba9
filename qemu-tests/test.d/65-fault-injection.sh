#!/bin/sh
# needs: fault-injection
# description: every kind of control-file write and open with its 1st, 2nd, ... allocation failing (fail-nth): each failure changes nothing and returns an error; then it succeeds as a plain run does
. /tests/lib.sh
plan 29
reset_kmark
echo > $K/kprobe_events
fault_setup

off='-s t:set_event:'
sweep "set_event '>' replaces" $off -s t:set_event:sched_switch \
	trunc $K/set_event 'sys_sync sched_wakeup'
sweep "set_event '>>' adds a glob" $off -s t:set_event:sys_sync \
	write $K/set_event 'sched_*'
sweep "set_event '>>' removes" -s 't:set_event:sched_switch sys_sync' \
	write $K/set_event '!sys_sync'
sweep "set_event '>' with nothing new" -s 't:set_event:sched_switch sys_sync' \
	trunc $K/set_event 'sys_sync'
sweep "kprobe_events '>' replaces" $off -s 't:kprobe_events:p:fa vfs_read' \
	trunc $K/kprobe_events 'p:fb vfs_write fd=$arg1:u32 c=$comm'
sweep "kprobe_events '>>' adds a return probe" $off -s 't:kprobe_events:p:fa vfs_read' \
	write $K/kprobe_events 'r:fr vfs_read ret=$retval:s64 fd=$arg1:u32'
sweep "kprobe_events '>>' deletes" $off -s 't:kprobe_events:p:fa vfs_read' \
	write $K/kprobe_events '-:fa'
sweep "kprobe_events: delete one, add two" $off -s 't:kprobe_events:p:fa vfs_read' \
	write $K/kprobe_events "$(printf -- '-:fa\np:fc vfs_read\np:fd vfs_write')"
# Armed and disarmed at every step: on ksys_sync, which only sync(2) runs
# (on two real CPUs, as on i386-stress, the other CPU could otherwise run
# a breakpoint the emulator has just taken out: see stress.d/20-storm.sh).
sweep "set_event enables a kprobe event" $off -s 't:kprobe_events:p:fa ksys_sync' \
	write $K/set_event 'kprobes/fa'
sweep "a filter replaces a filter" -s 't:events/sched/sched_switch/filter:prev_pid == 1' \
	trunc $K/events/sched/sched_switch/filter 'prev_comm ~ "k*" && (next_pid != 0 || !(prev_prio < 100))'
sweep "a kprobe event's filter" $off -s 't:kprobe_events:p:fa vfs_read fd=$arg1:u32 c=$comm' \
	-s 't:events/kprobes/fa/filter:0' trunc $K/events/kprobes/fa/filter 'fd == 3 || c ~ "s*"'
sweep "set_event_pid '>' replaces" -s 't:set_event_pid:1 2' trunc $K/set_event_pid '3 4 5'
sweep "options/event-fork with a pid list" -s 't:set_event_pid:1' -s 't:options/event-fork:0' \
	trunc $K/options/event-fork 1
sweep "trace_options event-fork with a pid list" -s 't:set_event_pid:1' -s 't:options/event-fork:0' \
	trunc $K/trace_options event-fork
sweep "buffer_size_kb resizes" -s t:buffer_size_kb:64 trunc $K/buffer_size_kb 80
sweep "buffer_subbuf_size_kb changes the sub-buffers" -s t:buffer_subbuf_size_kb:4 \
	trunc $K/buffer_subbuf_size_kb 8
# (the stress kernels count thousands of allocations here: sampled)
sweep "buffer_subbuf_size_kb with a snapshot" -s t:buffer_subbuf_size_kb:4 -s t:snapshot:1 \
	-n 100:17 trunc $K/buffer_subbuf_size_kb 16
echo 4 > $K/buffer_subbuf_size_kb
echo 0 > $K/snapshot
sweep "tracing_on" -s t:tracing_on:1 trunc $K/tracing_on 0
sweep "read_delay_ms" -s t:read_delay_ms:50 trunc $K/read_delay_ms 20
sweep "buffer_percent" -s t:buffer_percent:50 trunc $K/buffer_percent 30
sweep "instances/new makes an instance" -s t:instances/remove:fi \
	trunc $K/instances/new fi
sweep "an instance's set_event" -s t:instances/new:fi -s t:instances/fi/set_event: \
	write $K/instances/fi/set_event 'sched_switch sys_sync'
echo fi > $K/instances/remove
echo 1 > $K/tracing_on
echo 1408 > $K/buffer_size_kb
echo 50 > $K/read_delay_ms
echo 50 > $K/buffer_percent
echo 0 > $K/events/sched/sched_switch/filter
echo 0 > $K/options/event-fork
echo > $K/set_event_pid
echo > $K/set_event
echo > $K/kprobe_events

# Opens: a failure is an error, never a crash (a failed allocation in
# trace's open once freed a NULL array). Each open and read has at least
# one allocation whose failure it reports, and no error but those.
for f in trace trace_pipe per_cpu/cpu0/trace_pipe_raw events/sched/sched_switch/format \
	 events/sched/sched_switch/filter available_markers kprobe_events; do
	# Until the open and read make fewer than N allocations.
	n=1 fails=0
	while [ $n -le 100 ]; do
		res=$(kmark-testprog failnth $n open-read $K/$f)
		case "$res" in
		ok) break ;;
		ok*) ;;
		*" reached") fails=$((fails + 1)) ;;
		*) res="$res at N=$n, with no allocation failed"; break ;;
		esac
		n=$((n + 1))
	done
	case "$res" in
	ok) check "open and read $f: $fails of $((n - 1)) allocations failed, each an error" \
		test $fails -gt 0 ;;
	*) not_ok "open and read $f: $res" ;;
	esac
done
fault_end
reset_kmark

#!/bin/sh
# description: every kind of control-file write and open with its 1st, 2nd, ... allocation failing (fail-nth): each failure changes nothing and returns an error; then it succeeds as a plain run does
. /tests/lib.sh
plan 17
reset_kmark
echo > $K/kprobe_events
fault_setup

# Everything a write may change, error_log aside.
state() {
	echo "set_event: $(cat $K/set_event | tr '\n' ' ')"
	echo "kprobe_events: $(cat $K/kprobe_events | tr '\n' '|')"
	echo "available: $(grep -c . $K/available_markers)"
	echo "buffer_size_kb: $(cat $K/buffer_size_kb)"
	echo "tracing_on: $(cat $K/tracing_on)"
	echo "profile: $(awk '{ print $1 }' $K/kprobe_profile | tr '\n' ' ')"
	echo "event dirs: $(ls $K/events/kprobes 2>/dev/null | tr '\n' ' ')"
}

# sweep NAME SETUP OP ARGS...: from the state SETUP makes, run the
# operation (kmark-testprog failnth) with the Nth allocation failing, for
# N = 1, 2, ... until it makes fewer than N allocations. A failure must
# leave the state as it was; a success (an allocation it can do without,
# or none failed) must leave the state a run without failures leaves.
sweep() {
	name=$1 setup=$2
	shift 2
	eval "$setup"
	before=$(state)
	kmark-testprog failnth 100000 "$@" > /tmp/plain.res
	after=$(state)
	n=1 fails=0 bad=
	while [ $n -le 400 ]; do
		eval "$setup"
		if [ "$(state)" != "$before" ]; then
			bad="N=$n: the setup did not bring the state back: $(state | tr '\n' ';')"
			break
		fi
		res=$(kmark-testprog failnth $n "$@")
		now=$(state)
		case "$res" in
		ok*)
			[ "$now" = "$after" ] || bad="N=$n succeeded ($res), but the state differs from a plain run's: $(echo "$now" | tr '\n' ';')"
			[ "$res" = ok ] && break ;;	# all its allocations done
		*)
			fails=$((fails + 1))
			[ "$now" = "$before" ] || bad="N=$n failed ($res) and changed the state: $(echo "$now" | tr '\n' ';')" ;;
		esac
		[ -z "$bad" ] || break
		n=$((n + 1))
	done
	[ $n -le 400 ] || bad="still allocating at N=400"
	[ "$(cat /tmp/plain.res)" = ok ] || bad="the plain run failed: $(cat /tmp/plain.res)"
	if [ -z "$bad" ] && [ $fails -gt 0 ]; then
		ok "$name: $fails of $((n - 1)) allocations failed, each failure changed nothing"
	else
		not_ok "$name: ${bad:-no allocation failed}"
	fi
}

off='echo > $K/set_event'
sweep "set_event '>' replaces" "$off; echo sched_switch > $K/set_event" \
	trunc $K/set_event 'sys_sync sched_wakeup'
sweep "set_event '>>' adds a glob" "$off; echo sys_sync > $K/set_event" \
	write $K/set_event 'sched_*'
sweep "set_event '>>' removes" "echo 'sched_switch sys_sync' > $K/set_event" \
	write $K/set_event '!sys_sync'
sweep "set_event '>' with nothing new" "echo 'sched_switch sys_sync' > $K/set_event" \
	trunc $K/set_event 'sys_sync'
kp="$off; echo 'p:fa vfs_read' > $K/kprobe_events"
sweep "kprobe_events '>' replaces" "$kp" \
	trunc $K/kprobe_events 'p:fb vfs_write fd=$arg1:u32 c=$comm'
sweep "kprobe_events '>>' adds a return probe" "$kp" \
	write $K/kprobe_events 'r:fr vfs_read ret=$retval:s64 fd=$arg1:u32'
sweep "kprobe_events '>>' deletes" "$kp" write $K/kprobe_events '-:fa'
sweep "kprobe_events: delete one, add two" "$kp" \
	write $K/kprobe_events "$(printf -- '-:fa\np:fc vfs_read\np:fd vfs_write')"
sweep "set_event enables a kprobe event" "$kp" write $K/set_event 'kprobes/fa'
sweep "buffer_size_kb resizes" "echo 64 > $K/buffer_size_kb" \
	trunc $K/buffer_size_kb 80
sweep "tracing_on" "echo 1 > $K/tracing_on" trunc $K/tracing_on 0
echo 1 > $K/tracing_on
echo 1408 > $K/buffer_size_kb
echo > $K/set_event
echo > $K/kprobe_events

# Opens: a failure is an error, never a crash (a failed allocation in
# trace's open once freed a NULL array).
for f in trace trace_pipe per_cpu/cpu0/trace_pipe_raw events/sched_switch/format \
	 available_markers kprobe_events; do
	n=1 bad=
	while [ $n -le 100 ]; do
		res=$(kmark-testprog failnth $n open-read $K/$f)
		case "$res" in ok*) break ;; esac
		n=$((n + 1))
	done
	case "$res" in
	ok*) ok "open and read $f: $((n - 1)) failed opens, then it worked" ;;
	*) not_ok "open and read $f: $res" ;;
	esac
done
fault_end
reset_kmark

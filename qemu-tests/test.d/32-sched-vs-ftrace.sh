#!/bin/sh
# description: kmark's sched_switch, sched_waking, sched_wakeup, sched_wakeup_new and sched_process_exec against ftrace's on the same switches (x86_64, where ftrace is built in): the same prev/next pids, comms, prios and prev_state, in the same order per CPU; the same wakeups, field by field
. /tests/lib.sh
plan 10
T=/sys/kernel/tracing
mount -t tracefs nodev $T 2>/dev/null
if [ ! -e $T/events/sched/sched_switch/enable ]; then
	for i in 1 2 3 4 5 6 7 8 9 10; do skip "kmark vs ftrace $i" "no ftrace in this kernel"; done
	exit 0
fi
reset_kmark
echo 0 > $T/tracing_on
echo > $T/trace
echo 1 > $T/events/sched/sched_switch/enable
for e in sched_waking sched_wakeup sched_wakeup_new; do
	echo 1 > $T/events/sched/$e/enable
done
echo 'sched_switch sched_waking sched_wakeup sched_wakeup_new' > $K/set_event
echo 1 > $T/tracing_on
kmark-testprog pingpong 200 kmping kmpong 0 > /dev/null &
kmark-testprog pingpong 200 kmping1 kmpong1 1 > /dev/null
wait
# A child's last switch (state Z) can still come on the other CPU after
# wait returns; the two tracers stop one after the other, so let it pass
# (the stress kernel's two truly parallel CPUs showed it).
sleep 1
echo 0 > $T/tracing_on
echo 0 > $K/tracing_on
echo > $K/set_event
echo 0 > $T/events/sched/sched_switch/enable
for e in sched_waking sched_wakeup sched_wakeup_new; do
	echo 0 > $T/events/sched/$e/enable
done
# CPU prev_comm prev_pid prev_prio prev_state next_comm next_pid next_prio,
# for the switches either side saw between the first and last kmping one.
fields() {
	grep -v '^#' "$1" | grep ": $2: " |
		sed -E 's/^.*\[([0-9]+)\] .* '"$2"': (.*)$/\1 \2/'
}
cut_window() { awk '/kmping/ { p = 1 } p' | tac | awk '/kmping/ { p = 1 } p' | tac; }
for cpu in 000 001; do
	fields $T/trace sched_switch | grep "^$cpu " | cut_window > /tmp/ft.$cpu
	fields $K/trace sched_switch | grep "^$cpu " | cut_window > /tmp/km.$cpu
done
n=$(cat /tmp/ft.000 /tmp/ft.001 | wc -l)
diag "ftrace: $n switches; kmark: $(cat /tmp/km.000 /tmp/km.001 | wc -l)"
diag "$(head -n 2 /tmp/km.000)"
check "both saw the ping-pong (>= 400 switches)" test "$n" -ge 400
for cpu in 000 001; do
	if cmp -s /tmp/ft.$cpu /tmp/km.$cpu; then
		ok "CPU $cpu: every sched_switch field equals ftrace's, same order"
	else
		not_ok "CPU $cpu: sched_switch differs from ftrace's"
		diff /tmp/ft.$cpu /tmp/km.$cpu | head -n 6 | sed 's/^/# /'
	fi
done
# same_wakeups EVENT MIN [COMM]: the ping-pong's EVENTs (COMM's, kmp* by
# default), at least MIN, equal field by field (comm, pid, prio,
# target_cpu; sorted: the two tracers record them in the same order, but a
# CPU's may interleave differently)
same_wakeups() {
	fields $T/trace $1 | grep "comm=${3:-kmp}" | cut -d' ' -f2- | sort > /tmp/ft.w
	fields $K/trace $1 | grep "comm=${3:-kmp}" | cut -d' ' -f2- | sort > /tmp/km.w
	check "$1: the ping-pong's were seen ($(wc -l < /tmp/ft.w), at least $2)" \
		test "$(wc -l < /tmp/ft.w)" -ge $2
	if cmp -s /tmp/ft.w /tmp/km.w; then
		ok "$1: the same as ftrace's, field by field"
	else
		not_ok "$1 differs from ftrace's"
		diff /tmp/ft.w /tmp/km.w | head -n 6 | sed 's/^/# /'
	fi
}
same_wakeups sched_wakeup 400
same_wakeups sched_waking 400
# (each ping-pong forks its pong, named as its parent until it renames)
same_wakeups sched_wakeup_new 2 kmark-testprog
# sched_process_exec: the same line (filename, pid, old_pid) as ftrace's.
echo > $T/trace
reset_kmark
echo 1 > $T/events/sched/sched_process_exec/enable
echo sched_process_exec > $K/set_event
echo 1 > $T/tracing_on
sh -c 'exec /bin/sh -c :'
echo 0 > $T/tracing_on
echo 0 > $T/events/sched/sched_process_exec/enable
echo > $K/set_event
f=$(grep -o 'sched_process_exec: .*' $T/trace)
k=$(grep -o 'sched_process_exec: .*' $K/trace)
case "$f" in
*"filename=/bin/sh pid="*) expect_eq "sched_process_exec: the same line as ftrace's" "$k" "$f" ;;
*) not_ok "sched_process_exec: ftrace's line is not the exec's: '$f'" ;;
esac
echo > $T/trace
reset_kmark

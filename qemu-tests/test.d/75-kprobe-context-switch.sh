#!/bin/sh
# needs: kprobes
# description: context switches from kprobes alone (finish_task_switch runs in the next task, $arg1 is prev), cross-checked with the sched_switch marker
. /tests/lib.sh
plan 8
. /tests/task-offsets.sh
reset_kmark
echo > $K/kprobe_events
echo "p:cs finish_task_switch prev_pid=+$TASK_PID(\$arg1):s32 prev_comm=+$TASK_COMM(\$arg1):string prev_prio=+$TASK_PRIO(\$arg1):s32" > $K/kprobe_events
expect_eq "the probe lands on the compiler's clone" "$(cut -d' ' -f2 $K/kprobe_events)" "finish_task_switch.isra.0+0"
echo 'cs sched_switch' > $K/set_event
echo > $K/trace
kmark-testprog pingpong 100 kmping kmpong 0 > /dev/null &
kmark-testprog pingpong 100 kmping1 kmpong1 1 > /dev/null
wait
echo 0 > $K/tracing_on
echo > $K/set_event
echo 1 > $K/tracing_on
grep -v '^#' $K/trace > /tmp/cs.trace
diag "$(grep ': cs: ' /tmp/cs.trace | grep kmping | head -n 1)"
misses=$(awk '$1 == "cs" { print $3 }' $K/kprobe_profile)
expect_eq "the probe missed no hit" "$misses" "0"
# Per CPU: "prev>next" pairs from each stream, in order.
for cpu in 000 001; do
	grep "\[$cpu\]" /tmp/cs.trace | grep ': sched_switch: ' |
		sed -E 's/.* prev_pid=([0-9]+) .* next_pid=([0-9]+) .*/\1>\2/' > /tmp/ss.$cpu
	grep "\[$cpu\]" /tmp/cs.trace | grep ': cs: ' |
		sed -E 's/^ *.*-([0-9]+) +\[[0-9]+\] .* prev_pid=(-?[0-9]+) .*/\2>\1/' > /tmp/kp.$cpu
done
n=$(cat /tmp/ss.000 /tmp/ss.001 | wc -l)
diag "sched_switch pairs: $n; kprobe pairs: $(cat /tmp/kp.000 /tmp/kp.001 | wc -l)"
check "the workload switched (>= 400 switches)" test "$n" -ge 400
for cpu in 000 001; do
	# Both streams of this CPU must hold the ping-pong's switches (empty
	# streams would compare equal).
	check "CPU $cpu: both streams saw >= 100 switches" \
		test "$(wc -l < /tmp/ss.$cpu)" -ge 100 -a "$(wc -l < /tmp/kp.$cpu)" -ge 100
	# The two streams start and stop a moment apart: allow one pair of
	# difference at each end, nothing in between.
	if diff /tmp/ss.$cpu /tmp/kp.$cpu | awk '/^[<>]/ { n++ } END { exit !(n <= 2) }' &&
	   [ "$(diff /tmp/ss.$cpu /tmp/kp.$cpu | grep -c '^[0-9]')" -le 2 ]; then
		ok "CPU $cpu: kprobe pairs = sched_switch pairs, same order"
	else
		not_ok "CPU $cpu: kprobe pairs differ from sched_switch pairs"
		diff /tmp/ss.$cpu /tmp/kp.$cpu | head -n 10 | sed 's/^/# /'
	fi
done
check "kmping -> kmpong seen from the kprobe" grep -qE '^ +kmpong-[0-9]+ .*: cs: \(finish_task_switch\.isra\.0\+0x0/0x[0-9a-f]+\) prev_pid=[0-9]+ prev_comm="kmping" prev_prio=120$' /tmp/cs.trace
echo > $K/kprobe_events
reset_kmark

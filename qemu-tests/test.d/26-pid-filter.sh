#!/bin/sh
# description: set_event_pid, set_event_notrace_pid and options/event-fork with ftrace's semantics: only listed tasks' events, sched_switch also when the next task is listed, sched_wakeup when the woken task is, '>' replaces and '>>' adds, children followed with event-fork, a task filtered to its end and its pid dropped once it is freed, a bad pid is EINVAL and changes nothing, an empty write clears
. /tests/lib.sh
plan 15
reset_kmark
P=$K/set_event_pid
N=$K/set_event_notrace_pid
syncs() { kmark-testprog drain $K/trace_pipe | grep -c ' sys_sync: '; }

expect_eq "set_event_pid is empty at first" "$(cat $P)" ""
echo sys_sync > $K/set_event
sh -c 'echo $$ > '$P'; exec kmark-testprog sync 3'
sync
expect_eq "only the listed task's events (3 of 4 syncs)" "$(syncs)" 3

echo 7 > $P
echo '5 9' >> $P
expect_eq "'>' replaces, '>>' adds; read back sorted" "$(cat $P | tr '\n' ' ')" "5 7 9 "
check_error "a pid that is not a number" set_event_pid '^abc' "Not a pid: a number from 0 to 4194303"
printf '1 2 x' >> $P 2> /dev/null
expect_eq "a write that fails changes nothing" "$(cat $P | tr '\n' ' ')" "5 7 9 "
# Found by kmark-fuzz: a pid after leading or repeated blanks was dropped.
printf ' 11  12\t 13\n' > $P
expect_eq "blanks before, between and after pids: every pid kept" "$(cat $P | tr '\n' ' ')" "11 12 13 "
echo > $P
sync
expect_eq "an empty write clears: every task again" "$(syncs)" 1

sh -c 'echo $$ > '$N'; exec kmark-testprog sync 2'
sync
expect_eq "set_event_notrace_pid: all but the listed task" "$(syncs)" 1
echo > $N

# sched_switch: recorded when the task switched from or to is listed; the
# idle task (pid 0) is listed, so switches to it count although their
# task (prev) is not.
echo 0 > $P
echo sched_switch > $K/set_event
kmark-testprog pingpong 50 > /dev/null
sleep 1
echo > $K/set_event
kmark-testprog drain $K/trace_pipe > /tmp/pf.txt
bad=$(grep ' sched_switch: ' /tmp/pf.txt | grep -v ' prev_pid=0 ' | grep -vc ' next_pid=0 ')
to_idle=$(grep ' sched_switch: ' /tmp/pf.txt | grep -v ' prev_pid=0 ' | grep -c ' next_pid=0 ')
diag "switches with the idle task: $(grep -c ' sched_switch: ' /tmp/pf.txt), to it from a task: $to_idle"
expect_eq "sched_switch: none without the listed pid" "$bad" 0
check "sched_switch: switches to the listed task are recorded" test "$to_idle" -ge 1

# sched_wakeup: the woken task decides.
sleep 1 &
sl=$!
echo $sl > $P
echo sched_wakeup > $K/set_event
wait $sl
echo > $K/set_event
kmark-testprog drain $K/trace_pipe > /tmp/pf.txt
n=$(grep -c " sched_wakeup: .* pid=$sl " /tmp/pf.txt)
other=$(grep ' sched_wakeup: ' /tmp/pf.txt | grep -vc " pid=$sl ")
expect_eq "sched_wakeup: the listed task's wakeups only (got $n)" "$other $((n >= 1))" "0 1"

# event-fork: a listed task's children are listed at fork.
echo sys_sync > $K/set_event
sh -c 'echo $$ > '$P'; sh -c "exec kmark-testprog sync 2"; exec kmark-testprog sync 1'
expect_eq "without event-fork, a child is not followed (1)" "$(syncs)" 1
echo 1 > $K/options/event-fork
sh -c 'echo $$ > '$P'; sh -c "exec kmark-testprog sync 2"; exec kmark-testprog sync 1'
echo 0 > $K/options/event-fork
expect_eq "event-fork: the child's syncs are recorded too (3)" "$(syncs)" 3
echo > $P

# A listed task is filtered until its end: the frees of its exit, after
# sched_process_exit (its files closed), are not recorded for a task on
# set_event_notrace_pid (they were: its pid left the list there); its pid
# leaves the list when the task is freed (sched_process_free, as ftrace's).
echo 1 > $K/options/event-fork
sleep 1000 &
sl=$!
echo $sl > $N
echo kmem:kmem_cache_free > $K/set_event
kill $sl
wait $sl
echo > $K/set_event
kmark-testprog drain $K/trace_pipe > /tmp/pf.txt
expect_eq "a task on set_event_notrace_pid: none of its frees, its exit's included" \
	"$(grep -c -- "-$sl .* kmem_cache_free: " /tmp/pf.txt)" 0
[ -n "$(grep -- "-$sl " /tmp/pf.txt)" ] && diag "$(grep -- "-$sl " /tmp/pf.txt | head -5)"
for i in 1 2 3 4 5 6 7 8 9 10; do
	[ -z "$(cat $N)" ] && break
	sleep 0.2
done
expect_eq "its pid leaves set_event_notrace_pid once the task is freed" "$(cat $N)" ""
echo 0 > $K/options/event-fork
echo > $N
reset_kmark

#!/bin/sh
# description: events/NAME/filter with ftrace's grammar on markers and kprobe events: only matching events are recorded, a filtered-out hit is neither written nor reserved, a bad filter is EINVAL with ftrace's message and caret and keeps the old one, '0' clears, the filter outlives set_event changes and is shared by both trees
. /tests/lib.sh
plan 15
reset_kmark
echo > $K/kprobe_events
F=$K/events/sched/sched_switch/filter
total() { cat $K/per_cpu/cpu*/stats | sed -n "s/^$1: //p" | awk '{ s += $1 } END { print s + 0 }'; }

expect_eq "a filter reads 'none' when there is none" "$(cat $F)" none

# Strings and globs: only the switches to kmpong.
echo 'next_comm == "kmpong" || (next_comm ~ "kmpo?g*" && prev_pid < 0)' > $F
expect_eq "the filter reads back as written" "$(cat $F)" \
	'next_comm == "kmpong" || (next_comm ~ "kmpo?g*" && prev_pid < 0)'
echo sched_switch > $K/set_event
kmark-testprog pingpong 100 kmping kmpong 0 > /dev/null
echo > $K/set_event
kmark-testprog drain $K/trace_pipe > /tmp/f.txt
n=$(grep -c ' sched_switch: ' /tmp/f.txt)
other=$(grep ' sched_switch: ' /tmp/f.txt | grep -vc 'next_comm=kmpong ')
diag "$n switches recorded, $other not to kmpong"
check "string filter: switches to kmpong were recorded (>= 90 of 100 round trips)" test "$n" -ge 90
expect_eq "string filter: nothing else was" "$other" 0
expect_eq "the filter outlives set_event changes" "$(cat $F)" \
	'next_comm == "kmpong" || (next_comm ~ "kmpo?g*" && prev_pid < 0)'

# Numbers and common fields on a zero-argument marker: the hits of the
# task with the pid named, none of the others'; none reserved either.
echo sys_sync > $K/set_event
sh -c 'echo "common_pid == $$ && cpu >= 0" > '$K'/events/syscalls/sys_sync/filter; exec kmark-testprog sync 3'
w0=$(total written) e0=$(total entries)
sync; sync
w1=$(total written) e1=$(total entries)
kmark-testprog drain $K/trace_pipe > /tmp/f.txt
expect_eq "common_pid: the 3 syncs of the task named, not the others" \
	"$(grep -c ' sys_sync: ' /tmp/f.txt)" 3
expect_eq "a filtered-out marker hit is not written" "$((w1 - w0)) $((e1 - e0))" "0 0"
echo 0 > $K/events/syscalls/sys_sync/filter
expect_eq "'0' clears a filter" "$(cat $K/events/syscalls/sys_sync/filter)" none
echo > $K/set_event

# A kprobe event: its filter reads the record, which is then discarded.
echo 'p:fopen do_sys_openat2 dfd=$arg1:s32 fname=+0($arg2):ustring' > $K/kprobe_events
echo 'fname ~ "*kmark_filter_probe*" && dfd < 0' > $K/events/kprobes/fopen/filter
echo fopen > $K/set_event
w0=$(total written)
cat /etc/hostname /tmp/kmark_filter_probe_1 /etc/passwd /tmp/kmark_filter_probe_2 > /dev/null 2>&1
w1=$(total written)
echo > $K/set_event
kmark-testprog drain $K/trace_pipe > /tmp/f.txt
expect_eq "kprobe filter: the two opens asked for, nothing else" \
	"$(grep ' fopen: ' /tmp/f.txt | sed 's/.*fname="\([^"]*\)".*/\1/' | tr '\n' ' ')" \
	"/tmp/kmark_filter_probe_1 /tmp/kmark_filter_probe_2 "
expect_eq "kprobe filter: a discarded hit is not counted as written" "$((w1 - w0))" 2

# Errors: ftrace's messages and carets; the old filter stays.
echo 'prev_pid == 1' > $F
check_error "an unknown field" events/sched/sched_switch/filter '^nosuch == 1' "Field not found"
check_error "a glob on a number" events/sched/sched_switch/filter 'prev_pid ^~ "1*"' "Illegal operation for field type"
check_error "an unbalanced '('" events/sched/sched_switch/filter '^(prev_pid == 1' "Too many '('"
expect_eq "a refused filter keeps the old one" "$(cat $F)" 'prev_pid == 1'

# The tracefs copy is the same filter.
mount -t tracefs nodev /sys/kernel/tracing 2>/dev/null
echo 'next_pid != 0' > /sys/kernel/tracing/kmark/events/sched/sched_switch/filter
expect_eq "a filter written in tracefs reads back in debugfs" "$(cat $F)" 'next_pid != 0'
echo 0 > $F
echo > $K/kprobe_events
reset_kmark

#!/bin/sh
# description: events/NAME/filter with ftrace's grammar on markers and kprobe events (FIELD.function too): only matching events are recorded, a filtered-out hit is neither written nor reserved, a bad filter is EINVAL with ftrace's message and caret and keeps the old one, '0' clears, the filter outlives set_event changes and is shared by both trees
. /tests/lib.sh
plan 21
reset_kmark
echo > $K/kprobe_events
F=$K/events/sched/sched_switch/filter

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
w0=$(stat_total written) e0=$(stat_total entries)
sync; sync
w1=$(stat_total written) e1=$(stat_total entries)
kmark-testprog drain $K/trace_pipe > /tmp/f.txt
expect_eq "common_pid: the 3 syncs of the task named, not the others" \
	"$(grep -c ' sys_sync: ' /tmp/f.txt)" 3
expect_eq "a filtered-out marker hit is not written" "$((w1 - w0)) $((e1 - e0))" "0 0"
echo 0 > $K/events/syscalls/sys_sync/filter
expect_eq "'0' clears a filter" "$(cat $K/events/syscalls/sys_sync/filter)" none
echo > $K/set_event

# A kprobe event: its filter reads the record, which is then discarded.
if lacking kprobes; then
	skip "kprobe filter: the two opens asked for" "no kprobes in this kernel"
	skip "kprobe filter: a discarded hit is not counted" "no kprobes in this kernel"
else
	echo 'p:fopen do_sys_openat2 dfd=$arg1:s32 fname=+0($arg2):ustring' > $K/kprobe_events
	echo 'fname ~ "*kmark_filter_probe*" && dfd < 0' > $K/events/kprobes/fopen/filter
	echo fopen > $K/set_event
	w0=$(stat_total written)
	cat /etc/hostname /tmp/kmark_filter_probe_1 /etc/passwd /tmp/kmark_filter_probe_2 > /dev/null 2>&1
	w1=$(stat_total written)
	echo > $K/set_event
	kmark-testprog drain $K/trace_pipe > /tmp/f.txt
	expect_eq "kprobe filter: the two opens asked for, nothing else" \
		"$(grep ' fopen: ' /tmp/f.txt | sed 's/.*fname="\([^"]*\)".*/\1/' | tr '\n' ' ')" \
		"/tmp/kmark_filter_probe_1 /tmp/kmark_filter_probe_2 "
	expect_eq "kprobe filter: a discarded hit is not counted as written" "$((w1 - w0))" 2
fi

# FIELD.function, as ftracetest's event-filter-function: kmem_cache_free's
# call sites within the function that called it most, by name and by
# address; none of that function with !=.
C=$K/events/kmem/kmem_cache_free/filter
if lacking kallsyms; then
	# No names, no function sizes: .function refuses both forms, and says why.
	check_error ".function == NAME without kallsyms: refused, and why" events/kmem/kmem_cache_free/filter \
		'call_site.function == kfree^' "No function names in this kernel (CONFIG_KALLSYMS=n)"
	check_error ".function == ADDRESS without kallsyms: the same" events/kmem/kmem_cache_free/filter \
		'call_site.function == 0xc1000000^' "No function names in this kernel (CONFIG_KALLSYMS=n)"
	# (and a %pS field prints the address)
	echo kmem:kmem_cache_free > $K/set_event
	ls / > /dev/null
	echo > $K/set_event
	check "without kallsyms a %pS field prints the address in hex" \
		grep -qE ' kmem_cache_free: call_site=0x[0-9a-f]+ ' $K/trace
	skip ".function of a name kallsyms does not know" "no kallsyms in this kernel"
else
	frees() { # FILTER: the frees of ls, filtered, in /tmp/f.txt
		echo "$1" > $C
		echo kmem:kmem_cache_free > $K/set_event
		ls -l / /proc /sys > /dev/null
		echo > $K/set_event
		kmark-testprog drain $K/trace_pipe > /tmp/f.txt
	}
	frees 0
	# ls's own frees, not RCU's (rcu_core frees when a grace period ends,
	# which the next run may not see)
	fn=$(grep -o ' kmem_cache_free: call_site=[^+ ]*' /tmp/f.txt | grep -v '=rcu' |
		sort | uniq -c | sort -n | tail -n 1 | sed 's/.*call_site=//')
	diag "the most frequent caller of kmem_cache_free: $fn"
	frees_of() { # FILTER: as frees, again (up to 5 runs) until one is recorded
		for try in 1 2 3 4 5; do
			frees "$1"
			grep -q ' kmem_cache_free: ' /tmp/f.txt && break
		done
	}
	frees_of "call_site.function == $fn"
	hit=$(grep -c " kmem_cache_free: call_site=$fn+" /tmp/f.txt)
	other=$(grep ' kmem_cache_free: ' /tmp/f.txt | grep -vc " call_site=$fn+")
	expect_eq ".function == NAME: $fn's frees recorded, no other caller's" \
		"$([ "$hit" -ge 1 ] && echo some) $other" "some 0"
	addr=$(grep " $fn\$" /proc/kallsyms | cut -d' ' -f1 | head -n 1)
	frees_of "call_site.function == 0x$addr"
	expect_eq ".function == ADDRESS: the same" \
		"$(grep ' kmem_cache_free: ' /tmp/f.txt | grep -vc " call_site=$fn+") $(grep -c " call_site=$fn+" /tmp/f.txt | sed 's/^[1-9][0-9]*$/some/')" \
		"0 some"
	frees_of "call_site.function != $fn"
	expect_eq ".function != NAME: frees recorded, none of $fn's" \
		"$(grep -c ' kmem_cache_free: ' /tmp/f.txt | sed 's/^[1-9][0-9]*$/some/') $(grep -c " call_site=$fn+" /tmp/f.txt)" \
		"some 0"
	echo 0 > $C
	check_error ".function of a name kallsyms does not know" events/kmem/kmem_cache_free/filter \
		'call_site.function == nosuch_kmark_fn^' "Function not found"
fi
check_error ".function with an operator other than == and !=" events/kmem/kmem_cache_free/filter \
	'call_site.function < ^kfree' "Invalid operator"
check_error ".function of a field that cannot hold an address" events/kmem/kmem_cache_free/filter \
	'common_type.function == ^kfree' "Illegal operation for field type"

# Errors: ftrace's messages and carets; the old filter stays.
echo 'prev_pid == 1' > $F
check_error "an unknown field" events/sched/sched_switch/filter '^nosuch == 1' "Field not found"
check_error "a glob on a number" events/sched/sched_switch/filter 'prev_pid ^~ "1*"' "Illegal operation for field type"
check_error "an unbalanced '('" events/sched/sched_switch/filter '^(prev_pid == 1' "Too many '('"
expect_eq "a refused filter keeps the old one" "$(cat $F)" 'prev_pid == 1'

# The tracefs copy is the same filter.
if lacking debugfs; then
	skip "a filter written in tracefs reads back in debugfs" "no debugfs in this kernel"
else
	mount -t tracefs nodev /sys/kernel/tracing 2>/dev/null
	echo 'next_pid != 0' > /sys/kernel/tracing/kmark/events/sched/sched_switch/filter
	expect_eq "a filter written in tracefs reads back in debugfs" "$(cat $F)" 'next_pid != 0'
fi
echo 0 > $F
echo > $K/kprobe_events
reset_kmark

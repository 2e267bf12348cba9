#!/bin/sh
# description: event triggers with ftrace's grammar and semantics: traceon/traceoff (with :N counts spent only when they act, and 'if FILTER'), enable_event/disable_event (soft mode, 0* and 1*), snapshot with the snapshot file's swap semantics, stacktrace and options/stacktrace, '!' to remove, the file listing them as ftrace does; on markers, trace_marker's event and kprobe events, in instances too; bad input changes nothing
. /tests/lib.sh
plan 32
reset_kmark
echo > $K/kprobe_events
E=$K/events
S=$E/syscalls/sys_sync
M=$E/ftrace/print

check "a trigger file with none lists the commands" \
	sh -c "grep -q '^# Available triggers:' $S/trigger && grep -q 'traceon traceoff snapshot stacktrace enable_event disable_event' $S/trigger"
echo traceoff > $S/trigger
expect_eq "traceoff is listed as ftrace lists it" "$(cat $S/trigger)" "traceoff:unlimited"
expect_eq "a trigger puts its event in soft mode (not recorded)" "$(cat $S/enable)" "0*"
kmark-testprog sync 1
expect_eq "it fired although the event is not enabled: tracing is off" "$(cat $K/tracing_on)" "0"
echo '!traceoff' >> $S/trigger
expect_eq "'!' removes it; the event leaves soft mode" "$(cat $S/enable) $(grep -c . $S/trigger)" "0 2"
echo 'traceon:1' > $S/trigger
kmark-testprog sync 2
expect_eq "traceon:1 turned tracing on once, its count spent" \
	"$(cat $K/tracing_on) $(cat $S/trigger)" "1 traceon:count=0"
echo 0 > $K/tracing_on
kmark-testprog sync 1
expect_eq "a spent count fires no more" "$(cat $K/tracing_on)" "0"
echo '!traceon' >> $S/trigger
echo 1 > $K/tracing_on

# if FILTER, on trace_marker's event.
echo 'traceoff if buf ~ "stop*"' > $M/trigger
expect_eq "listed with its filter" "$(cat $M/trigger)" 'traceoff:unlimited if buf ~ "stop*"'
echo go > $K/trace_marker
expect_eq "a write the filter refuses leaves tracing on" "$(cat $K/tracing_on)" "1"
echo stop now > $K/trace_marker
expect_eq "one it takes turns it off" "$(cat $K/tracing_on)" "0"
echo '!traceoff' >> $M/trigger
echo 1 > $K/tracing_on

# enable_event / disable_event: the target in soft mode.
echo > $K/trace
echo 'enable_event:syscalls:sys_sync' > $M/trigger
expect_eq "enable_event puts its target in soft mode, soft-disabled" "$(cat $S/enable)" "0*"
kmark-testprog sync 1
expect_eq "the target records nothing before the trigger fires" "$(grep -c ' sys_sync:' $K/trace)" "0"
echo fire > $K/trace_marker
expect_eq "after it fired, the target is soft-enabled" "$(cat $S/enable)" "1*"
kmark-testprog sync 2
expect_eq "and records" "$(grep -c ' sys_sync:' $K/trace)" "2"
echo 'disable_event:syscalls:sys_sync' > $E/ftrace/print/trigger
echo again > $K/trace_marker
expect_eq "disable_event switches it back" "$(cat $S/enable)" "0*"
echo '!enable_event:syscalls:sys_sync' >> $M/trigger
echo '!disable_event:syscalls:sys_sync' >> $M/trigger
expect_eq "with both removed the target is as it was" "$(cat $S/enable) $(grep -c '^#' $M/trigger)" "0 2"

# Bad input: EINVAL, a line in error_log, nothing changed.
check_error "an unknown trigger" events/syscalls/sys_sync/trigger '^traceofff' \
	"Unknown trigger: traceon, traceoff, snapshot, stacktrace, enable_event, disable_event or hist"
check_error "enable_event of no event" events/syscalls/sys_sync/trigger '^enable_event:nosys:nosuch' \
	"No such event in this instance (see available_events)"
# As ftrace's: the filter parser's entry, with the filter alone.
echo > $K/error_log
echo 'traceoff if nofield == 1' >> $M/trigger 2>/dev/null
expect_eq "a bad filter: error_log has the filter parser's entry, the caret in the filter" \
	"$(sed -n '1s/^\[[ 0-9.]*\] //p; 2,3p' $K/error_log)" \
	"$(printf 'event filter parse error: error: Field not found\n  Command: nofield == 1\n           ^')"
expect_eq "the failed writes left no trigger" "$(grep -vc '^#' $S/trigger) $(grep -vc '^#' $M/trigger)" "0 0"

# snapshot: the file, then the trigger.
echo > $K/trace
echo before > $K/trace_marker
echo 1 > $K/snapshot
expect_eq "echo 1 > snapshot: what was recorded is in snapshot, not in trace" \
	"$(grep -c 'tracing_mark_write: before' $K/snapshot) $(grep -c 'tracing_mark_write: before' $K/trace)" "1 0"
echo snapshot > $M/trigger
echo snap-me > $K/trace_marker
expect_eq "the snapshot trigger swapped after recording its event" \
	"$(grep -c 'tracing_mark_write: snap-me' $K/snapshot)" "1"
echo '!snapshot' >> $M/trigger
echo 0 > $K/snapshot
check "echo 0 > snapshot frees it: the file says so" grep -q '^# \* Snapshot is freed \*' $K/snapshot

# The buffer and its snapshot are swapped, so a setting applies to both,
# even while a snapshot trigger swaps them: one resized twice and the
# other never left CPU 1's size changing under the next swap (the fuzzer,
# x86_64 seed 507415). A ping-pong on CPU 1 fires sched_switch there.
inst_new ts
I=$K/instances/ts
echo snapshot > $I/events/sched/sched_switch/trigger
kmark-testprog pingpong 400000 kmping kmpong 1 > /dev/null &
load=$!
bad=0
for kb in 16 100 24 200 32 150 40 300 48 120 56 250 64 90 72 180; do
	echo $kb > $I/per_cpu/cpu1/buffer_size_kb
	for r in 1 2 3 4 5; do
		got=$(cat $I/per_cpu/cpu1/buffer_size_kb)
		[ "$got" = "$(cat $I/per_cpu/cpu0/buffer_size_kb)" ] && continue
		[ $((got * 10)) -ge $((kb * 9)) ] && [ "$got" -le $((kb + 4)) ] && continue
		diag "wrote $kb to cpu1's buffer_size_kb, read $got"
		bad=$((bad + 1))
		break
	done
done
kill $load 2>/dev/null; wait $load 2>/dev/null
# (its forked partner, blocked on their pipe, would outlive the test;
# busybox has no pkill)
for f in /proc/[0-9]*/cmdline; do
	case "$(tr '\0' ' ' < "$f" 2>/dev/null)" in
	"kmark-testprog pingpong 400000 "*) p=${f#/proc/}; kill "${p%/cmdline}" 2>/dev/null ;;
	esac
done
expect_eq "per-CPU resizes while a trigger swaps: the size read is the size written" "$bad" "0"
echo '!snapshot' >> $I/events/sched/sched_switch/trigger
inst_rm ts
# options/overwrite too: with 0 the oldest events stay, after a swap as well.
inst_new to
I=$K/instances/to
echo 8 > $I/buffer_size_kb
echo 1 > $I/snapshot
echo 0 > $I/options/overwrite
echo 1 > $I/snapshot
taskset 1 sh -c "i=0; while [ \$i -lt 1500 ]; do echo mark\$i > $I/trace_marker; i=\$((i + 1)); done"
expect_eq "overwrite 0, then a swap: the buffer now recording keeps its first event" \
	"$(grep -c 'tracing_mark_write: mark0$' $I/trace)" "1"
inst_rm to

# stacktrace: the trigger, and options/stacktrace.
echo > $K/trace
echo stacktrace > $S/trigger
kmark-testprog sync 1
if lacking kallsyms; then
	check "the stacktrace trigger records a <stack trace>, as addresses (no kallsyms)" \
		sh -c "grep -q ': <stack trace>$' $K/trace && grep -qE '^ => 0x[0-9a-f]+\$' $K/trace"
else
	check "the stacktrace trigger records a <stack trace> through ksys_sync" \
		sh -c "grep -q ': <stack trace>$' $K/trace && grep -q '^ => ksys_sync' $K/trace"
fi
# The first frame of each stack: the unwinder (UNWINDER_GUESS on x86_64)
# may show stale addresses of kmark's code deeper down, as ftrace's does.
own_first() {
	f=$(awk '/: <stack trace>$/ { getline; print }' $K/trace)
	[ -n "$f" ] || { diag "no stack in the trace"; return 0; }
	if echo "$f" | grep -qE '^ => (__)?(kmark_|kprobe_|do_int3|exc_int3)'; then
		diag "$(grep -A 6 ': <stack trace>$' $K/trace)"
		return 0
	fi
	return 1
}
if lacking kallsyms; then
	skip "the stack starts at the event's caller: no frame of kmark's own" "no kallsyms in this kernel"
else
	check "the stack starts at the event's caller: no frame of kmark's own" \
		eval '! own_first'
fi
echo '!stacktrace' >> $S/trigger
echo > $K/trace
echo sys_sync > $K/set_event
echo 1 > $K/options/stacktrace
kmark-testprog sync 1
echo 0 > $K/options/stacktrace
kmark-testprog sync 1
expect_eq "options/stacktrace: a stack after each event while it is 1" \
	"$(grep -c ' sys_sync:' $K/trace) $(grep -c ': <stack trace>$' $K/trace)" "2 1"
if lacking kallsyms; then
	skip "and it starts at the event's caller too" "no kallsyms in this kernel"
else
	check "and it starts at the event's caller too" eval '! own_first'
fi
echo > $K/set_event

# A kprobe event's trigger, and an instance's.
if lacking kprobes; then
	skip "a kprobe event's trigger fires" "no kprobes in this kernel"
	skip "a kprobe event held by its trigger cannot be deleted" "no kprobes in this kernel"
else
	echo 'p:kprobes/tk ksys_sync' > $K/kprobe_events
	echo traceoff > $E/kprobes/tk/trigger
	kmark-testprog sync 1
	expect_eq "a kprobe event's trigger fires (it is not enabled)" "$(cat $K/tracing_on)" "0"
	echo 1 > $K/tracing_on
	check_error "a kprobe event held by its trigger cannot be deleted" kprobe_events '-:^tk' \
		"The event is enabled: disable it in set_event first" "Device or resource busy"
	echo '!traceoff' >> $E/kprobes/tk/trigger
	echo > $K/kprobe_events
fi
inst_new ti
echo traceoff > $K/instances/ti/events/ftrace/print/trigger
echo x > $K/instances/ti/trace_marker
expect_eq "an instance's trigger acts on the instance only" \
	"$(cat $K/instances/ti/tracing_on) $(cat $K/tracing_on)" "0 1"
echo '!traceoff' >> $K/instances/ti/events/ftrace/print/trigger
inst_rm ti
reset_kmark

#!/bin/sh
# description: options/stacktrace on a kprobe event: kmark's stack after the event is the caller chain ftrace's shows for the same probe on the same call (x86_64, ftrace beside kmark, both probes on ksys_sync hit by one sync(2)), frame by frame from the probed function to the syscall entry
. /tests/lib.sh
T=/sys/kernel/tracing
mount -t tracefs nodev $T 2>/dev/null
plan 3
if [ ! -e $T/kprobe_events ]; then
	skip "both stacks start at the probed function" "no ftrace in this kernel"
	skip "kmark's frames are ftrace's" "no ftrace in this kernel"
	skip "kmark records one stack per hit, as ftrace" "no ftrace in this kernel"
	exit 0
fi
reset_kmark
echo 'p:stk ksys_sync' > $K/kprobe_events
echo kprobes:stk > $K/set_event
echo 1 > $K/options/stacktrace
echo 'p:stk ksys_sync' > $T/kprobe_events || diag "ftrace's kprobe_events refused the probe"
echo 1 > $T/options/stacktrace
echo 0 > $T/tracing_on
echo > $T/trace
echo 1 > $T/events/kprobes/stk/enable
echo 1 > $T/tracing_on
kmark-testprog sync 1
echo 0 > $T/tracing_on
echo 0 > $T/events/kprobes/stk/enable
echo 0 > $T/options/stacktrace
echo 0 > $K/options/stacktrace
echo > $K/set_event
# (before the probes go: ftrace empties its buffers when a kprobe event
# that may have records is removed)
cat $T/trace > /tmp/svf.ftrace
cat $K/trace > /tmp/svf.kmark
echo > $T/kprobe_events
echo > $K/kprobe_events
echo 1 > $T/tracing_on
echo > $T/trace
# frames FILE: the function of each frame of the stack after the stk
# event, offsets dropped ("ksys_sync+0x0/0x90" and "ksys_sync" alike).
frames() {
	awk '/ stk: / { s = 1; next }
	     s == 1 && /<stack trace>/ { s = 2; next }
	     s == 2 && /^ => / { f = $2; sub(/\+0x.*/, "", f); print f; next }
	     s == 2 { exit }' "$1"
}
frames /tmp/svf.ftrace > /tmp/svf.f
frames /tmp/svf.kmark > /tmp/svf.k
diag "ftrace: $(tr '\n' ' ' < /tmp/svf.f)"
diag "kmark:  $(tr '\n' ' ' < /tmp/svf.k)"
expect_eq "both stacks start at the probed function" \
	"$(head -n 1 /tmp/svf.k) $(head -n 1 /tmp/svf.f)" "ksys_sync ksys_sync"
check "kmark's frames are ftrace's ($(wc -l < /tmp/svf.f) frames)" \
	sh -c "test -s /tmp/svf.f && cmp -s /tmp/svf.k /tmp/svf.f"
expect_eq "kmark records one stack per hit, as ftrace" \
	"$(grep -c '<stack trace>' /tmp/svf.kmark) $(grep -c '<stack trace>' /tmp/svf.ftrace)" "1 1"
reset_kmark

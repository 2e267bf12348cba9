#!/bin/sh
# description: a 30 s storm on both CPUs at once: every writable control file written concurrently (good and malformed input, kprobes defined, enabled and deleted, resizes, clears, filters, trace_marker, triggers and hist triggers on the events both CPUs hit, a synthetic event fed and removed), two trace_pipe readers, trace and raw readers, a module loaded and unloaded with a probe, an instance made, used, read and removed (also while busy); then no leak, tracing works from scratch, and a quiet phase accounts for every event
# timeout: 300
. /tests/lib.sh
plan 14
reset_kmark
echo > $K/kprobe_events
STOP=/tmp/storm.stop
rm -f $STOP /tmp/storm.removed /tmp/storm.kmark_*
running() { [ ! -e $STOP ]; }
# counted NAME CMD...: run CMD; a line in /tmp/storm.NAME if it
# succeeded, in /tmp/storm.NAME-failed if not.
counted() {
	c=/tmp/storm.$1
	shift
	if "$@"; then echo >> $c; else echo >> $c-failed; fi
}
lines() { cat /tmp/storm.$1 2>/dev/null | wc -l; }
mod=/lib/modules/$(uname -r)/extra/kmark_test.ko
pids=
bg() { "$@" > /dev/null 2>&1 & pids="$pids $!"; }

# Load: a ping-pong pinned to each CPU.
load() { while running; do kmark-testprog pingpong 200 kmping$1 kmpong$1 $1; done; }
bg load 0
bg load 1

# Writers.
w_set_event() {
	while running; do
		echo 'sched_*' > $K/set_event
		echo sys_sync >> $K/set_event
		echo '!sched_wakeup' >> $K/set_event
		echo bogus_marker >> $K/set_event
		echo 'sched_[' >> $K/set_event
		echo '*' > $K/set_event
		echo > $K/set_event
	done
}
w_tracing_on() { while running; do echo 0 > $K/tracing_on; echo 1 > $K/tracing_on; echo on > $K/tracing_on; done; }
w_resize() {
	while running; do
		for kb in 64 2048 8 1408; do echo $kb > $K/buffer_size_kb; done
		echo > $K/trace
		echo 0 > $K/buffer_size_kb
	done
}
# The probes are on ksys_sync, which only this writer calls (sync): under
# multi-threaded TCG a vCPU can still run a breakpoint that disarming
# removed (QEMU's stale translation; 6.12's int3 handler does not forgive
# it, real CPUs never see it: text_poke_sync()), so no other CPU may be
# running the probed code while the probe is disarmed. Seen with vfs_read
# on i386-stress: "Oops: int3" at vfs_read+0x1, the code already restored.
w_kprobes() {
	while running; do
		echo 'p:st ksys_sync c=$comm' >> $K/kprobe_events
		echo 'r:str ksys_sync ret=$retval:s64' >> $K/kprobe_events
		echo 'kprobes/st kprobes/str' >> $K/set_event
		sync
		echo '-:st' >> $K/kprobe_events		# busy: refused
		echo 'p bad_symbol_xyz' >> $K/kprobe_events
		echo 'p vfs_read+4 $arg1' >> $K/kprobe_events
		echo '!kprobes/st' >> $K/set_event
		echo '!kprobes/str' >> $K/set_event
		printf -- '-:st\n-:str\n' >> $K/kprobe_events
	done
}
w_error_log() { while running; do cat $K/error_log; echo > $K/error_log; done; }
w_module() {
	while running; do
		counted kmark_test.loads insmod $mod probe=sched_switch
		cat /sys/kernel/debug/kmark_test/hits
		counted kmark_test.unloads rmmod kmark_test
	done
}
# Markers in a module: enabled by 'module:*' (also before it loads), fired
# from both CPUs, unloaded while firing and while enabled.
markmod=/lib/modules/$(uname -r)/extra/kmark_mark.ko
w_mod_markers() {
	while running; do
		echo 'kmark_mark:*' >> $K/set_event
		counted kmark_mark.loads insmod $markmod
		# A hist and an enable_event on its marker, gone with it.
		echo 'hist:keys=comm,seq.log2' >> $K/events/kmark_mark/kmark_mod_fire/trigger
		echo 'enable_event:kmark_mark:kmark_mod_zero:1' >> $K/events/kmark_mark/kmark_mod_fire/trigger
		echo 200 > /sys/module/kmark_mark/parameters/fire &
		taskset 2 sh -c 'echo 200 > /sys/module/kmark_mark/parameters/fire' &
		counted kmark_mark.unloads rmmod kmark_mark
		wait
		echo '!kmark_mark:*' >> $K/set_event
	done
}
# Filters (good and malformed) and trace_marker.
w_filters() {
	while running; do
		echo 'prev_pid > 0 && next_comm ~ "km*"' > $K/events/sched/sched_switch/filter
		echo 'prev_pid >' > $K/events/sched/sched_switch/filter
		echo 'buf ~ "storm*"' > $K/events/ftrace/print/filter
		echo "storm $$" > $K/trace_marker
		echo 0 > $K/events/sched/sched_switch/filter
		echo 0 > $K/events/ftrace/print/filter
	done
}
# An instance: made, given events (one the top has too, a kprobe event
# maybe), a filter, a trace_marker line, resized, read, removed while a
# reader holds it (refused) and after.
I=$K/instances
w_instances() {
	while running; do
		echo st1 > $I/new
		echo 'sched_switch sys_sync' > $I/st1/set_event
		echo 'kprobes/st' >> $I/st1/set_event	# when it exists
		echo 'sched_*' >> $I/st1/set_event
		echo 'prev_pid > 0' > $I/st1/events/sched/sched_switch/filter
		echo "storm" > $I/st1/trace_marker
		echo 16 > $I/st1/buffer_size_kb
		timeout 1 cat $I/st1/trace_pipe &
		echo st1 > $I/remove && echo >> /tmp/storm.removed
		wait
		echo st1 > $I/remove && echo >> /tmp/storm.removed
	done
}
r_instance() {
	while running; do
		cat $I/st1/trace $I/st1/per_cpu/cpu*/stats $I/st1/error_log
		kmark-testprog rawdump $I/st1/per_cpu/cpu0/trace_pipe_raw
	done
}
# Triggers on events both CPUs hit: hists (a timestamp variable, $VAR of
# another hist feeding a synthetic event, a table that fills), a stack
# trigger, an enable_event, bad ones; written, read, cleared and removed
# while the events fire, the synthetic event defined and removed.
E=$K/events
w_triggers() {
	while running; do
		echo 'sl_lat u64 lat; pid_t pid; char comm[16]' >> $K/synthetic_events
		echo 'hist:keys=pid:ts0=common_timestamp.usecs' >> $E/sched/sched_wakeup/trigger
		echo 'hist:keys=next_pid:lat=common_timestamp.usecs-$ts0:onmatch(sched.sched_wakeup).trace(sl_lat,$lat,next_pid,next_comm):onmax($lat).save(prev_comm)' >> $E/sched/sched_switch/trigger
		echo 'hist:keys=pid,lat.log2:sort=pid' >> $E/synthetic/sl_lat/trigger
		echo 'synthetic:sl_lat' >> $K/set_event
		echo 'hist:keys=common_pid.execname,prev_state:vals=prev_prio:size=128' >> $E/sched/sched_switch/trigger
		echo 'hist:keys=common_stacktrace:size=256 if prev_pid == 0' >> $E/sched/sched_switch/trigger
		echo 'enable_event:syscalls:sys_sync:2' >> $E/sched/sched_wakeup/trigger
		echo 'stacktrace:3 if comm ~ "kmpong*"' >> $E/sched/sched_wakeup/trigger
		echo 'hist:keys=prev_pid.frob' >> $E/sched/sched_switch/trigger
		echo 'hist:keys=pid:nosuch=$nosuch' >> $E/sched/sched_wakeup/trigger
		cat $E/sched/sched_switch/hist $E/sched/sched_wakeup/hist $E/synthetic/sl_lat/hist
		echo 'hist:keys=common_pid.execname,prev_state:vals=prev_prio:size=128:clear' >> $E/sched/sched_switch/trigger
		echo 'hist:keys=common_pid.execname,prev_state:vals=prev_prio:size=128:pause' >> $E/sched/sched_switch/trigger
		cat $E/sched/sched_switch/trigger $E/sched/sched_wakeup/trigger
		echo '!stacktrace' >> $E/sched/sched_wakeup/trigger
		echo '!enable_event:syscalls:sys_sync' >> $E/sched/sched_wakeup/trigger
		echo '!hist:keys=common_stacktrace:size=256 if prev_pid == 0' >> $E/sched/sched_switch/trigger
		echo '!hist:keys=common_pid.execname,prev_state:vals=prev_prio:size=128' >> $E/sched/sched_switch/trigger
		echo '!synthetic:sl_lat' >> $K/set_event
		echo '!hist:keys=pid,lat.log2:sort=pid' >> $E/synthetic/sl_lat/trigger
		echo '!hist:keys=next_pid:lat=common_timestamp.usecs-$ts0:onmatch(sched.sched_wakeup).trace(sl_lat,$lat,next_pid,next_comm):onmax($lat).save(prev_comm)' >> $E/sched/sched_switch/trigger
		echo '!hist:keys=pid:ts0=common_timestamp.usecs' >> $E/sched/sched_wakeup/trigger
		echo '!sl_lat' >> $K/synthetic_events
	done
}
bg w_triggers
bg w_set_event
bg w_filters
bg w_instances
bg r_instance
bg w_mod_markers
bg w_tracing_on
bg w_resize
bg w_kprobes
bg w_error_log
bg w_module

# Readers. The two trace_pipe readers block: they are killed at the end,
# everything else stops by itself once $STOP exists.
cat $K/trace_pipe > /dev/null 2>&1 &
blocking=$!
cat $K/trace_pipe > /dev/null 2>&1 &
blocking="$blocking $!"
r_trace() { while running; do cat $K/trace; cat $K/available_markers $K/per_cpu/cpu*/stats $K/kprobe_profile; done; }
r_raw() { while running; do kmark-testprog rawdump $K/per_cpu/cpu$1/trace_pipe_raw; usleep 50000; done; }
bg r_trace
bg r_raw 0
bg r_raw 1

sleep 30
# Every worker loops until $STOP: one that is gone by now died.
workers=0 alive=0
for p in $pids; do
	workers=$((workers + 1))
	[ ! -d /proc/$p ] || alive=$((alive + 1))
done
touch $STOP
wait $pids
kill $blocking
wait
check "the storm ran 30 s, its $workers workers all running at its end: $alive (the console is checked for splats on the host)" \
	test "$alive" -eq "$workers" -a "$workers" -gt 0
removed=$(cat /tmp/storm.removed 2>/dev/null | wc -l)
check "instances made and removed during the storm: $removed" test "$removed" -gt 0
for m in kmark_test kmark_mark; do
	l=$(lines $m.loads) u=$(lines $m.unloads)
	lf=$(lines $m.loads-failed) uf=$(lines $m.unloads-failed)
	check "$m loaded $l times and unloaded $u times during the storm, none failed ($lf insmod, $uf rmmod)" \
		test "$l" -gt 0 -a "$u" -eq "$l" -a "$lf" -eq 0 -a "$uf" -eq 0
done
rmmod kmark_test 2>/dev/null
rmmod kmark_mark 2>/dev/null

# From scratch: a clean state, and tracing works.
echo st1 > $I/remove 2>/dev/null
expect_eq "no instance left, none busy" "$(ls $I | tr '\n' ' ')" "new remove "
echo 0 > $K/events/sched/sched_switch/filter
echo 0 > $K/events/ftrace/print/filter
echo 1 > $K/tracing_on
echo > $K/set_event
# What the trigger writer may have left when it stopped, in order.
for t in '!stacktrace' '!enable_event:syscalls:sys_sync' '!hist:keys=pid:nosuch=$nosuch'; do
	echo "$t" >> $E/sched/sched_wakeup/trigger
done
echo '!hist:keys=pid,lat.log2:sort=pid' >> $E/synthetic/sl_lat/trigger 2>/dev/null
for t in '!hist:keys=common_stacktrace:size=256 if prev_pid == 0' \
	 '!hist:keys=common_pid.execname,prev_state:vals=prev_prio:size=128' \
	 '!hist:keys=next_pid:lat=common_timestamp.usecs-$ts0:onmatch(sched.sched_wakeup).trace(sl_lat,$lat,next_pid,next_comm):onmax($lat).save(prev_comm)'; do
	echo "$t" >> $E/sched/sched_switch/trigger
done
echo '!hist:keys=pid:ts0=common_timestamp.usecs' >> $E/sched/sched_wakeup/trigger
echo '!sl_lat' >> $K/synthetic_events
expect_eq "no trigger and no synthetic event left" \
	"$(cat $E/sched/sched_switch/trigger $E/sched/sched_wakeup/trigger | grep -vc '^#')|$(cat $K/synthetic_events)|$(cat $E/sched/sched_switch/enable $E/sched/sched_wakeup/enable | tr '\n' ' ')" \
	"0||0 0 "
echo > $K/kprobe_events
echo 1408 > $K/buffer_size_kb
expect_eq "nothing enabled, no kprobe event" "$(cat $K/set_event)|$(cat $K/kprobe_events)" "|"
echo > $K/trace
echo sys_sync > $K/set_event
kmark-testprog sync 3
expect_eq "tracing works from scratch" "$(grep -c ': sys_sync: ' $K/trace)" "3"
echo 'hist:keys=common_pid.execname' > $E/syscalls/sys_sync/trigger
kmark-testprog sync 4
expect_eq "a hist works from scratch" "$(sed -n 's/^    Hits: //p' $E/syscalls/sys_sync/hist)" "4"
echo '!hist:keys=common_pid.execname' >> $E/syscalls/sys_sync/trigger

# Quiet phase: no clears, no resizes. A small buffer and load on both
# CPUs, 3 s without a reader (events are overwritten), then two concurrent
# readers; then drain. Per CPU every event written was read, overwritten
# or dropped.
echo > $K/set_event
echo 16 > $K/buffer_size_kb
echo > $K/trace
rm -f $STOP
pids=
bg load 0
bg load 1
echo 'sched_switch sched_wakeup' > $K/set_event
sleep 3
cat $K/trace_pipe > /tmp/storm.r1 &
r1=$!
cat $K/trace_pipe > /tmp/storm.r2 &
r2=$!
sleep 3
echo > $K/set_event
touch $STOP
kill $pids 2>/dev/null
wait $pids 2>/dev/null
sleep 1
kill $r1 $r2
wait $r1 $r2 2>/dev/null
kmark-testprog drain $K/trace_pipe > /tmp/storm.r3
stat() { sed -n "s/^$2: //p" $K/per_cpu/cpu$1/stats; }
for c in 0 1; do
	w=$(stat $c written) r=$(stat $c "read events") o=$(stat $c overrun) d=$(stat $c "dropped events")
	diag "cpu$c: written=$w read=$r overrun=$o dropped=$d"
	check "cpu$c: written ($w) = read ($r) + overrun ($o) + dropped ($d), some overwritten" \
		test "$w" -gt 0 -a "$o" -gt 0 -a "$w" -eq $((r + o + d))
done
lines=$(cat /tmp/storm.r1 /tmp/storm.r2 /tmp/storm.r3 | grep -c ': sched_')
reads=$(($(stat 0 "read events") + $(stat 1 "read events")))
expect_eq "the readers got every event read" "$lines" "$reads"
lost=$(cat /tmp/storm.r1 /tmp/storm.r2 /tmp/storm.r3 | lost_in)
drops=$(($(stat 0 overrun) + $(stat 1 overrun) + $(stat 0 "dropped events") + $(stat 1 "dropped events")))
expect_eq "the readers were told of every event lost" "$lost" "$drops"
echo 1408 > $K/buffer_size_kb

# Leaks: kmemleak's report, for kmark's own allocations.
# A scan that fails (kmemleak disabled itself, say) is a failure.
if [ -w /sys/kernel/debug/kmemleak ]; then
	scan=ok
	echo scan > /sys/kernel/debug/kmemleak || scan="scan failed"
	sleep 1
	echo scan > /sys/kernel/debug/kmemleak || scan="scan failed"
	cat /sys/kernel/debug/kmemleak > /tmp/leaks || scan="$scan, report unreadable"
	diag "kmemleak: $(grep -c '^unreferenced object' /tmp/leaks) unreferenced objects in all"
	n=$(awk '/^unreferenced object/ { if (obj && k) n++; obj = 1; k = 0 } /kmark/ { k = 1 } END { if (obj && k) n++; print n + 0 }' /tmp/leaks)
	grep -B2 -A20 kmark /tmp/leaks | head -n 40 | sed 's/^/# /'
	expect_eq "kmemleak: scanned, no leak with kmark in its backtrace" "$scan $n" "ok 0"
else
	skip "kmemleak" "this kernel has no kmemleak"
fi
reset_kmark

#!/bin/sh
# description: hist triggers with ftrace's grammar and hist output over tracing_map: keys with .execname, strings, .log2, .buckets and common_stacktrace, vals with .percent and .graph, sort, size with Dropped counted when the table is full, pause/continue/clear, 'if FILTER', '!'; variables, a synthetic event fed by onmatch() (histogram.rst's wakeup_latency on kmark's sched markers) and onmax().save(); errors refused with ftrace's words
. /tests/lib.sh
plan 49
reset_kmark
echo > $K/kprobe_events
echo > $K/synthetic_events
E=$K/events
S=$E/syscalls/sys_sync
M=$E/ftrace/print
tot() { sed -n "s/^    $2: //p" "$1"; }

# A count per task, sys_sync not even enabled.
echo 'hist:keys=common_pid.execname' > $S/trigger
sh -c 'exec kmark-testprog sync 5' &
wait
pid=$!
expect_eq "the trigger is listed as ftrace lists it" "$(cat $S/trigger)" \
	"hist:keys=common_pid.execname:vals=hitcount:sort=hitcount:size=2048 [active]"
check "the table has kmark-testprog's line with its 5 hits" \
	grep -qE "^\{ common_pid: kmark-testprog +\[ +$pid\] \} hitcount: +5$" $S/hist
expect_eq "Totals: Hits, Entries, Dropped" "$(tot $S/hist Hits) $(tot $S/hist Entries) $(tot $S/hist Dropped)" "5 1 0"
echo '!hist:keys=common_pid.execname' >> $S/trigger
check "'!' removes it" sh -c "! grep -q '^hist:' $S/trigger"

# A string key, sorted by hitcount descending.
echo 'hist:keys=buf:sort=hitcount.descending' > $M/trigger
for w in a a a b; do echo $w > $K/trace_marker; done
expect_eq "a string key, the most hits first" \
	"$(grep '^{' $M/hist | sed 's/  */ /g')" "{ buf: a } hitcount: 3
{ buf: b } hitcount: 1"
echo 'hist:keys=buf:sort=hitcount.descending:pause' >> $M/trigger
echo a > $K/trace_marker
check "pause: listed [paused], hits not counted" \
	sh -c "grep -q 'paused' $M/trigger && [ \"$(tot $M/hist Hits)\" = 4 ]"
echo 'hist:keys=buf:sort=hitcount.descending:continue' >> $M/trigger
echo a > $K/trace_marker
expect_eq "continue: counted again" "$(tot $M/hist Hits)" "5"
echo 'hist:keys=buf:sort=hitcount.descending:clear' >> $M/trigger
expect_eq "clear: an empty table" "$(tot $M/hist Entries)" "0"
echo '!hist:keys=buf:sort=hitcount.descending' >> $M/trigger

# Numbers: a kprobe event on the test module's function, n = its argument.
if lacking modules || lacking kprobes; then
	skip "keys=n.log2" "no modules or kprobes in this kernel (the test module's kprobe gives the numbers)"
	skip "buckets=10, a percent value, and a filter" "no modules or kprobes in this kernel (the test module's kprobe gives the numbers)"
	skip "'!' without the trigger's filter removes nothing" "no modules or kprobes in this kernel (the test module's kprobe gives the numbers)"
	skip "buckets without a size" "no modules or kprobes in this kernel (the test module's kprobe gives the numbers)"
	skip "size=128: 128 entries, 72 hits dropped" "no modules or kprobes in this kernel (the test module's kprobe gives the numbers)"
else
	insmod /lib/modules/$(uname -r)/extra/kmark_test.ko
	echo 'p:kprobes/tn kmark_test:kmark_test_fn n=$arg1:s32' > $K/kprobe_events
	T=$E/kprobes/tn
	call() { for v in "$@"; do echo $v > /sys/kernel/debug/kmark_test/call; done; }
	echo 'hist:keys=n.log2' > $T/trigger
	call 1 2 3 15 16 100
	check "keys=n.log2: 15 and 16 in ~ 2^4, 100 in ~ 2^7" \
		sh -c "grep -qE '^\{ n: ~ 2\^4 +\} hitcount: +2$' $T/hist && grep -qE '^\{ n: ~ 2\^7 +\} hitcount: +1$' $T/hist"
	echo '!hist:keys=n.log2' >> $T/trigger
	echo 'hist:keys=n.buckets=10:vals=hitcount,n.percent if n < 40' > $T/trigger
	call 1 5 12 30 50
	check "buckets=10, a percent value, and a filter (50 left out)" \
		sh -c "grep -qE '^\{ n: ~ 0-9 +\} hitcount: +2 +n \(%\): +12.50$' $T/hist && [ \"$(tot $T/hist Hits)\" = 4 ]"
	# As ftrace's, '!' names the filter too.
	echo '!hist:keys=n.buckets=10:vals=hitcount,n.percent' >> $T/trigger
	check "'!' without the trigger's filter removes nothing" grep -q '^hist:keys=n.buckets=10' $T/trigger
	echo '!hist:keys=n.buckets=10:vals=hitcount,n.percent if n < 40' >> $T/trigger
	# .buckets without a size (this once divided by zero at the first hit).
	check_error "buckets without a size" events/kprobes/tn/trigger '^hist:keys=n.buckets' \
		"Invalid field modifier" "Invalid argument" hist:kprobes:tn
	# A full table: 128 entries, the rest dropped and counted.
	echo 'hist:keys=n:size=128' > $T/trigger
	i=0; while [ $i -lt 200 ]; do echo $i; i=$((i + 1)); done > /tmp/h.n
	while read v; do echo $v > /sys/kernel/debug/kmark_test/call; done < /tmp/h.n
	# As ftrace's tracing_map: Hits counts what went in, Dropped what did not.
	expect_eq "size=128: 128 entries, 72 hits dropped (counted, not lost silently)" \
		"$(tot $T/hist Entries) $(tot $T/hist Dropped) $(tot $T/hist Hits)" "128 72 128"
	echo '!hist:keys=n:size=128' >> $T/trigger
	echo > $K/kprobe_events
	rmmod kmark_test
fi

# common_stacktrace as a key.
echo 'hist:keys=common_stacktrace' > $S/trigger
kmark-testprog sync 2
if lacking kallsyms; then
	check "a stacktrace key prints its frames, as addresses (no kallsyms)" \
		sh -c "grep -q '^{ common_stacktrace:' $S/hist && grep -qE '^ +0x[0-9a-f]+\$' $S/hist"
	skip "the stacktrace key has none of kmark's own frames" "no kallsyms in this kernel"
else
	check "a stacktrace key prints its frames, ksys_sync among them" \
		sh -c "grep -q '^{ common_stacktrace:' $S/hist && grep -q ksys_sync $S/hist"
	own=$(grep -E '^ +(__)?kmark_[a-z_]+\+0x' $S/hist | head -n 3 | tr -s ' \n' ' ')
	check "the stacktrace key has none of kmark's own frames ($own)" [ -z "$own" ]
fi
echo '!hist:keys=common_stacktrace' >> $S/trigger

# .sym and .sym-offset: the function's name, or the address in hex on a
# kernel without kallsyms.
A=$E/kmem/kmalloc
echo 'hist:keys=call_site.sym' > $A/trigger
echo 'hist:keys=call_site.sym-offset' >> $A/trigger
ls -l / /proc > /dev/null
if lacking kallsyms; then
	sym='0x[0-9a-f]+' off= what="the address in hex (no kallsyms)"
else
	sym='[a-z_][a-z0-9_.]*' off='\+0x[0-9a-f]+/0x[0-9a-f]+' what="a function's name, and its offset"
fi
check ".sym and .sym-offset keys print $what" \
	sh -c "grep -qE '^\{ call_site: \[[0-9a-f]+\] $sym +\}' $A/hist &&
	       grep -qE '^\{ call_site: \[[0-9a-f]+\] $sym$off +\}' $A/hist"
diag "$(grep -m 2 '^{ call_site' $A/hist)"
echo '!hist:keys=call_site.sym' >> $A/trigger
echo '!hist:keys=call_site.sym-offset' >> $A/trigger

# name=: the triggers that name a table feed that one table.
echo 'hist:name=kmsh:keys=common_pid' > $S/trigger
echo 'hist:name=kmsh:keys=common_pid' > $M/trigger
kmark-testprog sync 3
echo x > $K/trace_marker
echo y > $K/trace_marker
expect_eq "name=: one table fed by two events, shown by both" \
	"$(tot $S/hist Hits) $(tot $M/hist Hits)" "5 5"
echo '!hist:name=kmsh:keys=common_pid' >> $S/trigger
echo '!hist:name=kmsh:keys=common_pid' >> $M/trigger

# comm on an event with a comm field is that field, as ftrace's: on
# sched_wakeup the woken task's name, not the waker's (the current task).
echo 'hist:keys=comm if comm == "kmcpong"' > $E/sched/sched_wakeup/trigger
kmark-testprog pingpong 50 kmcping kmcpong 0 > /dev/null
expect_eq "keys=comm on sched_wakeup: the woken task's name" \
	"$(sed -n 's/^{ comm: \([^ ]*\) .*/\1/p' $E/sched/sched_wakeup/hist | sort -u | tr '\n' ' ')" "kmcpong "
echo '!hist:keys=comm if comm == "kmcpong"' >> $E/sched/sched_wakeup/trigger

# Errors, as ftrace words them where it has the case.
L=hist:syscalls:sys_sync
LM=hist:ftrace:print
check_error "an unknown field" events/syscalls/sys_sync/trigger 'hist:keys=^nosuch' "Couldn't find field" \
	"Invalid argument" $L
check_error "no keys" events/syscalls/sys_sync/trigger '^hist:vals=hitcount' "hist needs keys=" \
	"Invalid argument" $L
check_error "an unknown modifier" events/ftrace/print/trigger 'hist:keys=buf.^frob' \
	"Invalid field modifier" "Invalid argument" $LM
check_error "a modifier a string cannot take" events/ftrace/print/trigger '^hist:keys=buf.log2' \
	"A string takes no modifier" "Invalid argument" $LM
expect_eq "failed writes left no trigger" "$(grep -c '^hist:' $S/trigger $M/trigger | cut -d: -f2 | tr '\n' ' ')" "0 0 "

# histogram.rst's wakeup_latency, on kmark's sched markers.
echo 'wakeup_latency u64 lat; pid_t pid; char comm[16]' > $K/synthetic_events
expect_eq "synthetic_events lists the definition as ftrace does" "$(cat $K/synthetic_events)" \
	"$(printf 'wakeup_latency\tu64 lat; pid_t pid; char[16] comm')"
check "the synthetic event has ftrace's files" \
	sh -c "[ -e $E/synthetic/wakeup_latency/format ] && grep -q 'field:u64 lat\|field:unsigned long long lat' $E/synthetic/wakeup_latency/format"
# '>' clears synthetic_events only with a command that succeeds.
before=$(cat $K/synthetic_events)
echo 'other u64 x; nosuchtype y' > $K/synthetic_events 2>/dev/null
expect_eq "a failed '>' write to synthetic_events removed nothing" \
	"$(cat $K/synthetic_events)" "$before"
W=$E/sched/sched_wakeup
SW=$E/sched/sched_switch
echo 'hist:keys=pid:ts0=common_timestamp.usecs if comm == "kmpong"' > $W/trigger
echo 'hist:keys=next_pid:wakeup_lat=common_timestamp.usecs-$ts0:onmatch(sched.sched_wakeup).trace(wakeup_latency,$wakeup_lat,next_pid,next_comm):onmax($wakeup_lat).save(next_comm,prev_pid) if next_comm == "kmpong"' > $SW/trigger
echo 'hist:keys=pid,lat:sort=pid,lat' > $E/synthetic/wakeup_latency/trigger
echo synthetic:wakeup_latency > $K/set_event
echo > $K/trace
kmark-testprog pingpong 200 kmping kmpong 0 > /dev/null
hits=$(tot $E/synthetic/wakeup_latency/hist Hits)
diag "wakeup_latency hits: $hits; $(grep -c 'wakeup_latency: ' $K/trace) in trace"
# Fired once per switch-in of kmpong that a wakeup of kmpong came before
# (the variable is read once; 37-hist-exact counts those pairs in a trace).
check "onmatch fired the synthetic event for kmpong's wakeups, each recorded" \
	[ "${hits:-0}" -gt 0 -a "${hits:-0}" = "$(grep -c 'wakeup_latency: ' $K/trace)" ]
check "it is recorded like any event: lat, pid, comm=kmpong" \
	grep -qE 'wakeup_latency: lat=[0-9]+ pid=[0-9]+ comm=kmpong$' $K/trace
check "onmax saved the largest latency with next_comm" \
	sh -c "grep -qE '^	max: +[0-9]+  next_comm: kmpong' $SW/hist"
check_error "a hist whose variables another reads cannot go" events/sched/sched_wakeup/trigger \
	'^!hist:keys=pid:ts0=common_timestamp.usecs if comm == "kmpong"' \
	"A hist reads this hist's variables: remove it first" "Device or resource busy" \
	hist:sched:sched_wakeup
# Each removal must succeed; on failure, which one and why.
undo() {
	for step in "$@"; do
		eval "$step" && continue
		diag "failed: $step"
		diag "$(tail -3 $K/error_log)"
		return 1
	done
}
check "the removals, in order, each succeed" undo \
	'echo > $K/set_event' \
	'echo '\''!hist:keys=pid,lat:sort=pid,lat'\'' >> $E/synthetic/wakeup_latency/trigger' \
	'echo '\''!hist:keys=next_pid:wakeup_lat=common_timestamp.usecs-$ts0:onmatch(sched.sched_wakeup).trace(wakeup_latency,$wakeup_lat,next_pid,next_comm):onmax($wakeup_lat).save(next_comm,prev_pid) if next_comm == "kmpong"'\'' >> $SW/trigger' \
	'echo '\''!hist:keys=pid:ts0=common_timestamp.usecs if comm == "kmpong"'\'' >> $W/trigger' \
	'echo '\''!wakeup_latency'\'' >> $K/synthetic_events'
check "all of it removed: no trigger, no synthetic event" \
	sh -c "! grep -q '^hist:' $W/trigger $SW/trigger && [ -z \"$(cat $K/synthetic_events)\" ] && [ ! -e $E/synthetic ]"

# Expressions as ftrace's: * and / before + and -, at run time. b - a is
# prev_prio*4/2 on every event, whatever the latency ((a+p)*4/2 - a, left
# to right, would not be).
echo 'hvexpr u64 a; u64 b; int p' > $K/synthetic_events
echo 'hist:keys=pid:ts0=common_timestamp.usecs if comm == "kmpong"' > $W/trigger
XT='hist:keys=next_pid:xa=common_timestamp.usecs-$ts0,xb=$xa+prev_prio*4/2:onmatch(sched.sched_wakeup).trace(hvexpr,$xa,$xb,prev_prio) if next_comm == "kmpong"'
echo "$XT" > $SW/trigger
echo synthetic:hvexpr > $K/set_event
echo > $K/trace
kmark-testprog pingpong 100 kmping kmpong 0 > /dev/null
echo > $K/set_event
n=$(grep -c 'hvexpr: ' $K/trace)
bad=$(grep 'hvexpr: ' $K/trace | sed 's/.*hvexpr: a=\([0-9]*\) b=\([0-9]*\) p=\([0-9]*\).*/\1 \2 \3/' |
	awk '$2 - $1 != 2 * $3' | wc -l)
expect_eq "an expression at run time: b - a = prev_prio*4/2 on each of the $n events" \
	"$([ "$n" -gt 0 ] && echo some) $bad" "some 0"
[ "$n" -gt 0 ] || diag "$(cat $SW/trigger $K/error_log)"
check "listed as written, as ftrace lists it" grep -qF 'xb=$xa+prev_prio*4/2' $SW/trigger
check "removed again" undo \
	"echo '!$XT' >> $SW/trigger" \
	'echo '\''!hist:keys=pid:ts0=common_timestamp.usecs if comm == "kmpong"'\'' >> $W/trigger' \
	'echo '\''!hvexpr'\'' >> $K/synthetic_events'

# onchange($VAR).snapshot() in an instance, as ftrace's: a hit that changes
# its entry's variable, to a value other than the last snapshot's, swaps
# the instance's buffer into the snapshot; the hist file says with which
# value and key. The snapshot then ends, on the CPU of that hit, with it.
inst_new hsn
I=$K/instances/hsn
echo sched:sched_switch > $I/set_event
ST='hist:keys=common_cpu:v=next_pid:onchange($v).snapshot() if prev_comm == "kmping"'
echo "$ST" > $I/events/sched/sched_switch/trigger
check "the snapshot() action is listed as written" \
	grep -qF 'onchange($v).snapshot() if prev_comm == "kmping" [active]' $I/events/sched/sched_switch/trigger
echo > $I/error_log
check "the snapshot file refuses writes while the action has it (EBUSY, error_log)" \
	sh -c "! echo 1 > $I/snapshot && grep -q \"A hist trigger's snapshot() action uses the snapshot\" $I/error_log"
check "one snapshot() action an instance: a second hist's is refused" \
	sh -c "! echo 'hist:keys=pid:w=prio:onmax(\$w).snapshot()' > $I/events/sched/sched_wakeup/trigger"
kmark-testprog pingpong 50 kmping kmpong 0 > /dev/null
H=$(cat $I/events/sched/sched_switch/hist)
val=$(echo "$H" | sed -n 's/.*triggering value { onchange(\$v) }: *\([0-9]*\).*/\1/p')
cpu=$(echo "$H" | sed -n 's/.*triggered by event with key: { common_cpu: *\([0-9]*\) }.*/\1/p')
check "the hist file reports the snapshot: value '$val', key common_cpu '$cpu'" \
	[ -n "$val" -a -n "$cpu" ]
last=$(grep "\[$(printf %03d "${cpu:-0}")\]" $I/snapshot | tail -n 1)
check "the snapshot ends, on that CPU, with the hit that took it" \
	sh -c "echo '$last' | grep -q 'sched_switch: prev_comm=kmping .* next_pid=$val next_prio='"
[ -n "$val" ] && echo "$last" | grep -q "next_pid=$val " ||
	{ echo "$H" | sed 's/^/# hist: /'; diag "last: $last"; }
echo "!$ST" >> $I/events/sched/sched_switch/trigger
echo > $I/set_event
check "removed, the snapshot file takes writes again" \
	sh -c "echo 0 > $I/snapshot"
# An instance goes with its snapshot() action, hits in flight
echo "$ST" > $I/events/sched/sched_switch/trigger
kmark-testprog pingpong 200 kmping kmpong 0 > /dev/null &
sleep 0.2
rm_hsn() { inst_rm hsn && [ ! -e $I ]; }
check "the instance can be removed with its snapshot() action, under hits" rm_hsn
wait
# A hist write that fails after naming a synthetic event in its action
# leaves that event as it was: removable (it stayed "in use" for good).
echo 'held int pid' >> $K/synthetic_events
check "onmax() of no variable, with a trace() of a synthetic event, is refused" \
	sh -c "! echo 'hist:keys=common_pid:onmax(x).trace(held,common_pid)' >> $K/events/sched/sched_switch/trigger"
check "and the synthetic event it named can be removed" sh -c "echo '!held' >> $K/synthetic_events"
# A name longer than kmark keeps is refused, not cut (two long names that
# shared their first 63 characters were one variable).
V=$(printf 'v%.0s' $(seq 70))
echo > $K/error_log
check "a variable name of 70 characters is refused: error_log says so" \
	sh -c "! echo 'hist:keys=common_pid:$V=prev_prio' >> $K/events/sched/sched_switch/trigger 2> /dev/null &&
	       grep -q 'Name too long' $K/error_log"
# A trace() action that fires an event whose own hist fires it again:
# triggers nest at most 2 deep (KMARK_TRIGGER_DEPTH, as ftrace's one nested
# reservation); the deeper hits are counted in the event's trigger file.
# The kernel used to recurse until its stack overflowed.
echo 'loop int pid' > $K/synthetic_events
LT='hist:keys=pid:onmatch(synthetic.loop).trace(loop,pid)'
LS='hist:keys=common_pid:onmatch(sched.sched_switch).trace(loop,common_pid)'
echo "$LT" > $K/events/synthetic/loop/trigger
echo "$LS" > $K/events/sched/sched_switch/trigger
kmark-testprog pingpong 50 kmping kmpong 0 > /dev/null
n=$(sed -n 's/^# \([0-9]*\) hits whose triggers did not run: nested deeper than 2 .*/\1/p' \
	$K/events/synthetic/loop/trigger)
check "a trace() action firing its own event: nesting stops at 2, the deeper hits are counted (${n:-none})" \
	test "${n:-0}" -gt 0
check "the loop event's hist counted its hits at depth 2" grep -q 'Hits: [1-9]' $K/events/synthetic/loop/hist
echo "!$LS" >> $K/events/sched/sched_switch/trigger
echo "!$LT" >> $K/events/synthetic/loop/trigger
check "both removed, the synthetic event goes" sh -c "echo '!loop' >> $K/synthetic_events"
# clear while both CPUs hit the table (review K6): no key twice
# afterwards (a slot handed out twice). A clear zeroes the table while the
# hits go on.
P=$K/events/ftrace/print
echo 'hist:keys=buf:vals=hitcount' > $P/trigger
for c in 1 2; do
	taskset $c sh -c 'i=0; while [ $i -lt 3000 ]; do echo "kmclr$((i % 50))" > '$K'/trace_marker; i=$((i + 1)); done' &
done
i=0
while [ $i -lt 40 ]; do echo 'hist:keys=buf:vals=hitcount:clear' >> $P/trigger; i=$((i + 1)); done
wait
dup=$(grep '^{ buf:' $P/hist | sort | uniq -d | wc -l) keys=$(grep -c '^{ buf:' $P/hist)
check "clears under both CPUs' hits leave no key twice ($dup twice, $keys keys)" \
	sh -c "[ $dup = 0 ] && [ $keys -gt 0 ]"
echo '!hist:keys=buf:vals=hitcount' >> $P/trigger
reset_kmark

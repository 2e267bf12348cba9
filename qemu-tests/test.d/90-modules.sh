#!/bin/sh
# needs: modules
# description: a module's probes on markers: sched_switch runs them where ftrace's tracepoint fires (current, mm, irqs, rq lock); a module detaches its probe at unload even when the allocator fails, and nothing calls into it afterwards
. /tests/lib.sh
plan 15
reset_kmark
mod=/lib/modules/$(uname -r)/extra/kmark_test.ko
KT=/sys/kernel/debug/kmark_test
field() { echo "$2" | tr ' ' '\n' | sed -n "s/^$1=//p"; }

# sched_switch: what a probe may rely on.
insmod $mod switch_check=1
kmark-testprog pingpong 200 kmping kmpong 0 > /dev/null &
kmark-testprog pingpong 200 kmping1 kmpong1 1 > /dev/null
wait
s=$(cat $KT/switch)
rmmod kmark_test
diag "$s"
check "the probe saw the ping-pong's switches" test "$(field switches "$s")" -ge 800
expect_eq "current is the previous task (prev_pid)" "$(field bad_current "$s")" "0"
expect_eq "a user task's mm is the one loaded (CR3)" "$(field bad_mm "$s")" "0"
expect_eq "interrupts are off" "$(field bad_irqs "$s")" "0"
if [ "$(field lockdep "$s")" = 1 ]; then
	expect_eq "lockdep sees a lock held in the probe (the runqueue's)" "$(field bad_lock "$s")" "0"
else
	skip "lockdep sees a lock held in the probe (the runqueue's)" "no lockdep in this kernel"
fi

# Unloading while the marker records: the module's probe and the recorder
# share sys_sync, so taking the module's out needs a smaller array. With
# that allocation (or any other of rmmod) failing, the probe must still be
# gone when rmmod returns: a sync afterwards would call freed code. Nothing
# in delete_module() before the module's exit can fail for want of memory:
# every rmmod must succeed and unload the module.
echo sys_sync > $K/set_event
echo > $K/trace
fault_setup
n=1 gone=0 failed=0 bad= res=
while [ $n -le 60 ]; do
	insmod $mod probe=sys_sync || { bad="insmod failed at N=$n"; break; }
	kmark-testprog sync 1
	[ "$(cat $KT/hits)" = 1 ] || { bad="the module's probe did not fire at N=$n"; break; }
	res=$(kmark-testprog failnth $n rmmod kmark_test)
	case "$res" in *" reached") failed=$((failed + 1)) ;; esac
	if grep -q '^kmark_test ' /proc/modules; then
		rmmod kmark_test
		bad="rmmod said '$res' at N=$n and the module stayed"
		break
	fi
	case "$res" in
	ok*) gone=$((gone + 1)) ;;
	*) bad="rmmod said '$res' at N=$n, yet the module is gone"; break ;;
	esac
	kmark-testprog sync 1
	[ "$res" = ok ] && break	# rmmod allocated fewer than N times
	n=$((n + 1))
done
fault_end
diag "rmmod with its Nth allocation failing, N = 1..$n: $gone unloads, $failed allocations failed"
expect_eq "every unload under failing allocations left nothing behind" "$bad" ""
check "rmmod met failed allocations ($failed), and unloaded every time ($gone of $n)" \
	test "$failed" -gt 0 -a "$gone" = "$n"
expect_eq "the recorder saw every sync (2 per round)" \
	"$(grep -c ': sys_sync: ' $K/trace)" "$((2 * n))"

# kprobes in a module: defined before it loads (MOD:SYM), armed when it
# loads, disarmed when it goes (still defined, still enabled), armed again
# when it comes back; a plain symbol that resolves into the module too.
echo > $K/set_event
echo > $K/kprobe_events
echo > $K/trace
echo 'p:modfn kmark_test:kmark_test_fn n=$arg1:s32' > $K/kprobe_events
expect_eq "MOD:SYM of a module not loaded is defined, not armed" "$(cat $K/kprobe_events)" \
	'p:kprobes/modfn kmark_test:kmark_test_fn+0 n=$arg1:s32 # not armed: module kmark_test is not loaded'
echo kprobes/modfn > $K/set_event
expect_eq "and it can be enabled before the module loads" "$(cat $K/set_event)" "kprobes:modfn"
insmod $mod
echo 'p:plainfn kmark_test_fn' >> $K/kprobe_events
echo kprobes/plainfn >> $K/set_event
echo 7 > $KT/call
expect_eq "armed on load: the call is recorded" "$(grep -c ': modfn: (kmark_test_fn+0x0/0x[0-9a-f]* \[kmark_test\]) n=7$' $K/trace)" "1"
expect_eq "a plain symbol in the module is remembered with it" \
	"$(grep plainfn $K/kprobe_events)" "p:kprobes/plainfn kmark_test:kmark_test_fn+0"
rmmod kmark_test
expect_eq "unloaded: both stay defined and enabled" \
	"$(grep -c 'not armed: module kmark_test is not loaded' $K/kprobe_events) $(cat $K/set_event | tr '\n' ' ')" \
	"2 kprobes:modfn kprobes:plainfn "
insmod $mod
echo 9 > $KT/call
expect_eq "loaded again: armed again and recording" \
	"$(grep -c ': modfn: (kmark_test_fn+0x0/0x[0-9a-f]* \[kmark_test\]) n=9$' $K/trace) $(grep -c ': plainfn: ' $K/trace)" "1 2"
rmmod kmark_test
echo > $K/set_event
echo > $K/kprobe_events
expect_eq "deleted while the module is gone" "$(cat $K/kprobe_events)" ""
reset_kmark

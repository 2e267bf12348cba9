#!/bin/sh
# description: the guest booted as expected: both CPUs, the control files; kmark_event= and kmark_kprobe= at boot, or (booted without them) a first buffer allocation that fails and can be retried
. /tests/lib.sh
extra=0
[ "${KMARK_MTTCG:-}" != 1 ] || extra=3
! lacking debugfs || extra=$((extra + 3))
! lacking modules || extra=$((extra + 1))
if grep -q kmark_event= /proc/cmdline; then plan $((27 + extra)); else plan $((21 + extra)); fi
expect_eq "both CPUs online" "$(cat /sys/devices/system/cpu/online)" "0-1"
if [ "${KMARK_MTTCG:-}" = 1 ]; then
	# Booted with multi-threaded TCG: nothing may patch kernel text (a
	# vCPU can run a stale int3 after text_poke_bp() and oops). The
	# configuration has no JUMP_LABEL and no TRACING (configure.sh checks
	# stress.config's settings); /init turned the kprobe optimizer off.
	expect_eq "multi-threaded TCG: the kprobe optimizer is off" \
		"$(cat /proc/sys/debug/kprobes-optimization 2>&1)" "0"
	check "multi-threaded TCG: no ftrace events to enable (no tracepoints' static calls)" \
		test ! -e /sys/kernel/tracing/events -a ! -e /sys/kernel/tracing/set_event
	check "tracefs without ftrace: kmark's copy at /sys/kernel/tracing/kmark" \
		test -e /sys/kernel/tracing/kmark/set_event
fi
if lacking debugfs; then
	# The hardened kernel: no debugfs, kmark in tracefs alone.
	check "no debugfs: kmark's files are in /sys/kernel/tracing/kmark" \
		test "$K" = /sys/kernel/tracing/kmark -a -e $K/set_event -a ! -e /sys/kernel/debug/kmark
	check "and its instances/ takes mkdir (no new/remove files)" \
		test -d $K/instances -a ! -e $K/instances/new
	# The tool mounts tracefs where nothing has.
	umount /sys/kernel/tracing
	check "the kmark tool mounts tracefs itself and finds kmark there" \
		sh -c "! grep -q ' /sys/kernel/tracing ' /proc/mounts && kmark list sys_sync > /dev/null &&
		       grep -q ' /sys/kernel/tracing tracefs ' /proc/mounts"
fi
if lacking modules; then
	# Without modules, MODULE:NAME waits for nothing: an unknown event.
	check "no modules: MODULE:NAME in set_event is refused, nothing enabled" \
		sh -c "! echo nosuchmod:nosuch >> $K/set_event 2>/dev/null && [ -z \"\$(cat $K/set_event)\" ]"
fi
for f in tracing_on available_markers set_event trace_pipe trace buffer_size_kb \
	 error_log README per_cpu/cpu0/stats per_cpu/cpu1/stats \
	 per_cpu/cpu0/trace_pipe_raw per_cpu/cpu1/trace_pipe_raw \
	 events/header_page events/header_event; do
	check "file $f exists" test -e "$K/$f"
done
expect_eq "set_event is root-only" "$(stat -c %a $K/set_event)" "600"
expect_eq "trace_pipe is root-only, read-only" "$(stat -c %a $K/trace_pipe)" "400"

if grep -q kmark_event= /proc/cmdline; then
	# The check boot passes kmark_kprobe=p:bootsync,ksys_sync,c=$comm and
	# kmark_event=sys_sync,bootsync: defined and enabled before any test ran.
	check "no boot errors in error_log" test -z "$(cat $K/error_log)"
	expect_eq "kmark_kprobe= defined a probe at boot" "$(grep bootsync $K/kprobe_events)" 'p:kprobes/bootsync ksys_sync+0 c=$comm'
	# kmark_kprobe= put one on an __init function too: gone with the
	# init memory, shown so, and refused by set_event.
	expect_eq "a boot probe on __init code is shown gone" "$(grep initp $K/kprobe_events)" \
		'p:kprobes/initp kernel_init_freeable+0 # gone: its code was freed (an __init function)'
	check_error "and cannot be enabled" set_event '^initp' "The event's code is gone (an __init function after boot)" "No such device"
	check_error "nor through its enable file, which says why" events/kprobes/initp/enable '^1' "The event's code is gone (an __init function after boot)" "No such device"
	expect_eq "kmark_event= enabled a marker and the boot probe" "$(sort $K/set_event | tr '\n' ' ')" "kprobes:bootsync syscalls:sys_sync "
	kmark-testprog sync 1
	check "the boot probe records" grep -qE '^ +kmark-testprog-[0-9]+ .*: bootsync: \(ksys_sync\+0x0/0x[0-9a-f]+\) c="kmark-testprog"$' $K/trace
	check "and so does the marker" grep -qE '^ +kmark-testprog-[0-9]+ .*: sys_sync: $' $K/trace
	echo '*' > $K/set_event
	expect_eq "a glob passes over it" "$?:$(grep -c initp $K/set_event)" "0:0"
	echo 'sys_sync kprobes/bootsync' > $K/set_event
	echo '-:initp' >> $K/kprobe_events
	expect_eq "it can be deleted" "$(grep -c initp $K/kprobe_events)" "0"
	exit 0
fi

# Booted without them: the buffer is not allocated yet. Enable a marker
# while failing the 1st, 2nd, ... allocation of the write (the ring
# buffer's among them): each failure changes nothing and the next try may
# succeed (a failed first allocation once left kmark unusable: -EBUSY).
expect_eq "nothing enabled at boot" "$(cat $K/set_event)" ""
echo 8 > $K/buffer_size_kb
if lacking fault-injection; then
	echo sys_sync > $K/set_event
	skip "failed allocations were injected" "no fault-injection in this kernel"
	expect_eq "the first allocation, not injected: it worked" "$(cat $K/set_event)" "syscalls:sys_sync"
else
	fault_setup
	n=1 errs= res=
	while [ $n -le 300 ]; do
		res=$(kmark-testprog failnth $n trunc $K/set_event sys_sync)
		case "$res" in
		ok*) break ;;
		esac
		errs="$errs ${res% reached}"
		[ -z "$(cat $K/set_event)" ] || break
		n=$((n + 1))
	done
	diag "set_event with the Nth allocation failing: ok at N=$n ($res); errors:$(echo "$errs" | tr ' ' '\n' | sort | uniq -c | tr '\n' ' ')"
	check "failed allocations were injected" test -n "$errs"
	expect_eq "each failed with ENOMEM (never EBUSY) and changed nothing; then it worked" \
		"$(echo $errs | tr ' ' '\n' | sort -u | tr '\n' ' ')${res% reached} $(cat $K/set_event)" "ENOMEM ok syscalls:sys_sync"
	fault_end
fi
echo > $K/trace
kmark-testprog sync 2
expect_eq "and the buffer records" "$(grep -c ': sys_sync: ' $K/trace)" "2"
echo 1408 > $K/buffer_size_kb
reset_kmark

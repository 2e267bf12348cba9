#!/bin/sh
# description: the guest booted as expected: both CPUs, the control files, kmark_event= at boot
. /tests/lib.sh
expect_eq "both CPUs online" "$(cat /sys/devices/system/cpu/online)" "0-1"
for f in tracing_on available_markers set_event trace_pipe trace buffer_size_kb \
	 error_log README per_cpu/cpu0/stats per_cpu/cpu1/stats; do
	check "file $f exists" test -e "$K/$f"
done
# The check boot passes kmark_kprobe=p:bootsync,ksys_sync,c=$comm and
# kmark_event=sys_sync,bootsync: defined and enabled before any test ran.
expect_eq "kmark_kprobe= defined a probe at boot" "$(cat $K/kprobe_events)" 'p:kprobes/bootsync ksys_sync+0 c=$comm'
expect_eq "kmark_event= enabled a marker and the boot probe" "$(cat $K/set_event | tr '\n' ' ')" "kprobes/bootsync sys_sync "
kmark-testprog sync 1
check "the boot probe records" grep -qE '^ +kmark-testprog-[0-9]+ .*: bootsync: \(ksys_sync\+0x0/0x[0-9a-f]+\) c="kmark-testprog"$' $K/trace
check "and so does the marker" grep -qE '^ +kmark-testprog-[0-9]+ .*: sys_sync: $' $K/trace
check "no boot errors in error_log" test -z "$(cat $K/error_log)"
expect_eq "set_event is root-only" "$(stat -c %a $K/set_event)" "600"
expect_eq "trace_pipe is root-only, read-only" "$(stat -c %a $K/trace_pipe)" "400"

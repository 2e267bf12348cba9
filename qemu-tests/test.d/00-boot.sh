#!/bin/sh
# description: the guest booted as expected: both CPUs, the control files, kmark_event= at boot
. /tests/lib.sh
expect_eq "both CPUs online" "$(cat /sys/devices/system/cpu/online)" "0-1"
for f in tracing_on available_markers set_event trace_pipe trace buffer_size_kb \
	 error_log README per_cpu/cpu0/stats per_cpu/cpu1/stats; do
	check "file $f exists" test -e "$K/$f"
done
# The check boot passes kmark_event=sys_sync: enabled before any test ran.
expect_eq "kmark_event= enabled sys_sync at boot" "$(cat $K/set_event)" "sys_sync"
expect_eq "set_event is root-only" "$(stat -c %a $K/set_event)" "600"
expect_eq "trace_pipe is root-only, read-only" "$(stat -c %a $K/trace_pipe)" "400"

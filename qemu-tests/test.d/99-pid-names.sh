#!/bin/sh
# description: saved_cmdlines names every task that recorded, so kmark record takes the names from it without reading the records again; saved_comms says so ("complete"); once a pid over the table's 32767 records (pid_max raised), it says "incomplete" and kmark record reads the records for their names again: the task with the large pid is named right in the trace.dat either way. Last of test.d: "incomplete" stays until reboot
. /tests/lib.sh
plan 6
reset_kmark
complete() { grep -qx '# saved_cmdlines: complete' $K/saved_comms; }
check "saved_comms: saved_cmdlines is complete" complete
# A task that records names its pid in saved_cmdlines.
sh -c 'printf kmpidname > /proc/self/comm; echo named > '$K'/trace_marker; echo $$ > /tmp/pn.pid'
check "saved_cmdlines names the task that recorded" \
	grep -qx "$(cat /tmp/pn.pid) kmpidname" $K/saved_cmdlines
if [ "$(uname -m)" != x86_64 ] || ! echo 65536 > /proc/sys/kernel/pid_max; then
	for t in "the large pid's record" "saved_comms: incomplete" \
		"saved_cmdlines has the large pid" "the trace.dat names the large pid"; do
		skip "$t" "pid_max cannot exceed 32768 on this kernel"
	done
	exit 0
fi
echo sys_sync > $K/set_event
echo > $K/trace
pid=$(kmark-testprog forkto 32768 kmbigpid)
diag "a task of pid $pid (from $(date +%s) s)"
check "the large pid's record" grep -q "^ *kmbigpid-$pid .*sys_sync" $K/trace
check "saved_comms: incomplete (a pid over 32767 looked its name up)" \
	grep -q '^# saved_cmdlines: incomplete ([0-9]* lookups by pids over 32767)$' $K/saved_comms
check "saved_cmdlines has the large pid" grep -qx "$pid kmbigpid" $K/saved_cmdlines
# record reads the records for the names now: the large pid has its name
# even with saved_cmdlines' line gone (1024 shared lines: a pid 1024
# apart took it over).
kmark-testprog forkto $((pid + 1024)) kmother > /dev/null
kmark record -k -t 0.5 -o /tmp/pn.dat sys_sync 2> /tmp/pn.err
check "the trace.dat names the large pid from its record" \
	sh -c "kmark report /tmp/pn.dat | grep -q '^ *$pid  *kmbigpid '"
echo > $K/set_event

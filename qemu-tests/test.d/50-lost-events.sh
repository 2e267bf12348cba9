#!/bin/sh
# description: a tiny buffer and a slow reader: lost events are shown and written = read + lost
. /tests/lib.sh
plan 4
reset_kmark
echo 4 > $K/buffer_size_kb
echo sys_sync > $K/set_event
kmark-testprog sync 3000
echo 0 > $K/tracing_on
kmark-testprog drain $K/trace_pipe > /tmp/lost.out
read=$(grep -c 'sys_sync:' /tmp/lost.out)
lost=$(sed -n 's/^CPU:[0-9]* \[LOST \([0-9]*\) EVENTS\]$/\1/p' /tmp/lost.out | awk '{ s += $1 } END { print s + 0 }')
written=$(cat $K/per_cpu/cpu*/stats | sed -n 's/^written: //p' | awk '{ s += $1 } END { print s + 0 }')
diag "written=$written read=$read lost=$lost"
expect_eq "written counts every hit" "$written" "3000"
check "the buffer overflowed, so some were lost" test "$lost" -gt 0
check "lost events are shown in the stream" grep -qE '^CPU:[01] \[LOST [0-9]+ EVENTS\]$' /tmp/lost.out
expect_eq "written = read + lost" "$written" "$((read + lost))"
echo 1408 > $K/buffer_size_kb
reset_kmark

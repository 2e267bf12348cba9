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
lost=$(lost_in < /tmp/lost.out)
written=$(stat_total written)
diag "written=$written read=$read lost=$lost"
expect_eq "written counts every hit" "$written" "3000"
check "the buffer overflowed, so some were lost" test "$lost" -gt 0
check "lost events are shown in the stream" grep -qE '^CPU:[01] \[LOST [0-9]+ EVENTS\]$' /tmp/lost.out
expect_eq "written = read + lost" "$written" "$((read + lost))"
echo 1408 > $K/buffer_size_kb
reset_kmark

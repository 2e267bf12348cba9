#!/bin/sh
# description: trace_pipe readers are woken in batches (read_delay_ms after the first event, or at buffer_percent): an idle system's trace is not its reader talking to itself; events still arrive within the delay; the settings refuse bad input
. /tests/lib.sh
plan 10
reset_kmark
expect_eq "read_delay_ms defaults to 50" "$(cat $K/read_delay_ms)" "50"
expect_eq "buffer_percent defaults to 50" "$(cat $K/buffer_percent)" "50"
check_error "read_delay_ms: a word" read_delay_ms '^soon' "read_delay_ms takes milliseconds, 0 to 10000"
check_error "buffer_percent: out of range" buffer_percent '^101' "buffer_percent takes a percentage, 0 to 100"

# The reader's own context switches on an idle system, in 3 s: with the
# batch, a few dozen wakeups a second at most; waking per event (0), the
# reader's sleep is the next event and the loop never ends.
own() {
	echo > $K/trace
	echo sched_switch > $K/set_event
	timeout 3 cat $K/trace_pipe > /tmp/idle.txt
	echo > $K/set_event
	grep -c ' sched_switch: prev_comm=cat ' /tmp/idle.txt
}
batched=$(own)
echo 0 > $K/read_delay_ms
per_event=$(own)
echo 50 > $K/read_delay_ms
diag "the reader's own switches in 3 s: $batched batched (read_delay_ms 50), $per_event woken per event"
check "batched: at most 40 of its own switches a second (<= 120 in 3 s)" test "$batched" -le 120
check "woken per event, it switches 10x as often at least" test "$per_event" -ge $((batched * 10)) -a "$per_event" -ge 100

# Latency: each sys_sync, fired while the reader blocks, reaches it within
# the delay (plus the emulator's scheduling; 250 ms of slack).
echo sys_sync > $K/set_event
res=$(kmark-testprog latency $K/trace_pipe 20)
echo > $K/set_event
diag "read_delay_ms 50: $res"
max=$(echo "$res" | sed -n 's/.*max_ms=\([0-9]*\).*/\1/p')
check "every event arrived within read_delay_ms (+250 ms slack)" test -n "$max" -a "${max:-999}" -le 300
echo 500 > $K/read_delay_ms
echo sys_sync > $K/set_event
res=$(kmark-testprog latency $K/trace_pipe 5)
echo > $K/set_event
echo 50 > $K/read_delay_ms
diag "read_delay_ms 500: $res"
med=$(echo "$res" | sed -n 's/.*median_ms=\([0-9]*\).*/\1/p')
check "the delay is applied (median >= 300 ms at 500)" test -n "$med" -a "${med:-0}" -ge 300

# poll(): readable once the batch is ready; O_NONBLOCK reads take what is there.
echo sys_sync > $K/set_event
kmark-testprog sync 1
expect_eq "O_NONBLOCK read returns at once" "$(kmark-testprog nonblock $K/trace_pipe)" "data"
kmark-testprog sync 1
expect_eq "poll says readable within the delay" "$(kmark-testprog poll $K/trace_pipe 1000)" "readable"
reset_kmark

#!/bin/sh
# description: trace_pipe consumes, blocks, O_NONBLOCK, poll; tracing_on 0 stops; echo > trace clears; sys_sync zero-arg marker
. /tests/lib.sh
plan 16
reset_kmark
echo sys_sync > $K/set_event
expect_eq "empty trace_pipe: O_NONBLOCK read gives EAGAIN" "$(kmark-testprog nonblock $K/trace_pipe)" "EAGAIN"
expect_eq "empty trace_pipe: poll times out" "$(kmark-testprog poll $K/trace_pipe 200)" "timeout"
kmark-testprog sync 3
expect_eq "after 3 syncs: poll says readable" "$(kmark-testprog poll $K/trace_pipe 200)" "readable"
kmark-testprog drain $K/trace_pipe > /tmp/pipe.out
expect_eq "trace_pipe gave the 3 sys_sync events" "$(grep -cE '^ +kmark-testprog-[0-9]+ +\[00[01]\] [.dDb][.nNp][.hsHzZ][.0-9a-f][.0-9a-f] +[0-9]+\.[0-9]{6}: sys_sync: $' /tmp/pipe.out)" "3"
expect_eq "reading consumed them" "$(kmark-testprog nonblock $K/trace_pipe)" "EAGAIN"
expect_eq "and trace is empty too" "$(grep -vc '^#' $K/trace)" "0"

# A blocking reader wakes up when an event comes, and a signal ends it.
state() { sed 's/^[0-9]* (.*) \(.\).*/\1/' /proc/$1/stat 2>/dev/null; }
cat $K/trace_pipe > /tmp/pipe.block &
reader=$!
sleep 1
kmark-testprog sync 1
sleep 1
expect_eq "the reader is blocked (sleeping) in trace_pipe" "$(state $reader)" "S"
kill $reader
# Gone (a zombie, or reaped by the shell already) within 2 s of the signal.
i=0
while [ "$(state $reader)" = S ] && [ $i -lt 20 ]; do usleep 100000; i=$((i + 1)); done
expect_eq "a signal ended the blocked reader at once" "$(state $reader | tr -d Z)" ""
wait $reader
expect_eq "it died of the signal (SIGTERM: 143)" "$?" "143"
expect_eq "blocking reader got the event" "$(grep -c 'sys_sync:' /tmp/pipe.block)" "1"

echo 0 > $K/tracing_on
kmark-testprog sync 5
echo 1 > $K/tracing_on
expect_eq "tracing_on 0 records nothing" "$(grep -vc '^#' $K/trace)" "0"
expect_eq "markers stay armed while off" "$(cat $K/set_event)" "syscalls:sys_sync"
kmark-testprog sync 2
expect_eq "tracing_on 1 records again" "$(grep -c 'sys_sync:' $K/trace)" "2"
expect_eq "trace does not consume" "$(grep -c 'sys_sync:' $K/trace)" "2"
expect_eq "trace read again from offset 0 (lseek, pread) is the same" \
	"$(kmark-testprog reread $K/trace | cut -d' ' -f1)" "same"
echo > $K/trace
expect_eq "'echo > trace' clears" "$(grep -vc '^#' $K/trace)" "0"
reset_kmark

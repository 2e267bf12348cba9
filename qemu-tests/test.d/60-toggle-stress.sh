#!/bin/sh
# description: enabling and disabling markers 50 times while both CPUs context-switch hard: each round records, no oops, nothing stuck on
. /tests/lib.sh
plan 6
reset_kmark
# One ping-pong pair pinned to each CPU.
( while :; do kmark-testprog pingpong 200 kmping kmpong 0 > /dev/null; done ) &
a=$!
( while :; do kmark-testprog pingpong 200 kmping1 kmpong1 1 > /dev/null; done ) &
b=$!
written() { sed -n 's/^written: //p' $K/per_cpu/cpu$1/stats; }
i=0 silent=0
while [ $i -lt 50 ]; do
	w0=$(($(written 0) + $(written 1)))
	echo 'sched_*' > $K/set_event || break
	usleep 20000
	echo > $K/set_event || break
	# Every enabled window recorded something.
	[ $(($(written 0) + $(written 1))) -gt "$w0" ] || silent=$((silent + 1))
	i=$((i + 1))
done
kill $a $b 2>/dev/null
wait 2>/dev/null
expect_eq "50 enable/disable rounds under load" "$i" "50"
expect_eq "every round recorded events" "$silent" "0"
check "CPU 0 recorded switches" grep -q '\[000\] .* sched_switch: ' $K/trace
check "CPU 1 recorded switches" grep -q '\[001\] .* sched_switch: ' $K/trace
expect_eq "nothing left enabled" "$(cat $K/set_event)" ""
echo > $K/trace
sleep 1
expect_eq "disabled markers record nothing" "$(grep -vc '^#' $K/trace)" "0"
reset_kmark

#!/bin/sh
# description: enabling and disabling markers 100 times while both CPUs context-switch hard: no oops, nothing stuck on
. /tests/lib.sh
reset_kmark
( while :; do kmark-testprog pingpong 200 > /dev/null; done ) &
a=$!
( taskset 2 sh -c 'while :; do kmark-testprog pingpong 200 > /dev/null; done' ) &
b=$!
i=0
while [ $i -lt 100 ]; do
	echo 'sched_*' > $K/set_event || break
	echo > $K/set_event || break
	i=$((i + 1))
done
kill $a $b 2>/dev/null
wait 2>/dev/null
expect_eq "100 enable/disable rounds under load" "$i" "100"
expect_eq "nothing left enabled" "$(cat $K/set_event)" ""
echo > $K/trace
sleep 1
expect_eq "disabled markers record nothing" "$(grep -vc '^#' $K/trace)" "0"
reset_kmark

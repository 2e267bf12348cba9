#!/bin/sh
# needs: kprobes
# description: a chain of 600 hist triggers, each reading the variable of the one before it (20 kprobe events, 30 each), goes with its instance's rmdir: the readers go before what they read, without recursion (review K1: one stack frame per link overflowed the kernel stack), and the chain's first table counts what fired
. /tests/lib.sh
plan 5
reset_kmark
inst_new hc
I=$K/instances/hc
G=20 PER=30
g=0
while [ $g -lt $G ]; do
	echo "p:chain/c$g ksys_sync" >> $K/kprobe_events
	g=$((g + 1))
done
# t0 on chain/c0, then t1.. each reading the one before it.
echo 'hist:keys=common_pid:size=128:t0=common_timestamp' > $I/events/chain/c0/trigger
n=0 g=0 bad=
while [ $g -lt $G ]; do
	j=0
	while [ $j -lt $PER ]; do
		n=$((n + 1))
		echo "hist:keys=common_pid:size=128:t$n=\$t$((n - 1))+1" >> $I/events/chain/c$g/trigger 2>/dev/null ||
			bad="$bad $n"
		j=$((j + 1))
	done
	g=$((g + 1))
done
expect_eq "600 hists in a chain, each reading the one before it" "$bad" ""
expect_eq "each of the 20 events holds 30 of them (the first 31)" \
	"$(grep -c '^hist:' $I/events/chain/c0/trigger) $(grep -c '^hist:' $I/events/chain/c19/trigger)" "31 30"
echo 1 > $I/events/chain/c0/enable
sync
echo 0 > $I/events/chain/c0/enable
check "the chain's first table counted the hit" grep -q '^Totals:' $I/events/chain/c0/hist
dmesg -c > /dev/null 2>&1
check "rmdir of the instance takes the whole chain with it" inst_rm hc
expect_eq "no stack overflow, oops or warning on the way (dmesg)" \
	"$(dmesg | grep -cE 'stack guard|stack overflow|Oops|BUG:|WARNING:')" 0
g=0
while [ $g -lt $G ]; do
	echo "-:chain/c$g" >> $K/kprobe_events
	g=$((g + 1))
done
reset_kmark

#!/bin/sh
# needs: modules
# description: a hist trigger and event triggers on a module's marker: they count its hits (the marker not even enabled), go with the module at unload (also with the unload's allocations failing, and while both CPUs fire the marker), leave nothing half-installed, and do not come back when the module loads again unless written again; a hist of another event that reads a module hist's variable goes with it, and so does a named table's file
. /tests/lib.sh
plan 14
reset_kmark
echo > $K/synthetic_events
rmmod kmark_mark 2>/dev/null
mm=/lib/modules/$(uname -r)/extra/kmark_mark.ko
F=/sys/module/kmark_mark/parameters/fire
E=$K/events/kmark_mark/kmark_mod_fire
Z=$K/events/kmark_mark/kmark_mod_zero
tot() { sed -n "s/^    $2: //p" "$1"; }
# triggers_on: the hist (a string key and a number), a traceoff with a
# filter, an enable_event of the module's other marker.
triggers_on() {
	echo 'hist:name=kmmh:keys=comm,seq.buckets=100:vals=hitcount,seq' > $E/trigger &&
	echo 'traceoff if seq == 1000000' >> $E/trigger &&
	echo 'enable_event:kmark_mark:kmark_mod_zero' >> $E/trigger
}

insmod $mm
triggers_on
echo 250 > $F
expect_eq "the hist counts the module marker's hits (not enabled: soft mode)" \
	"$(tot $E/hist Hits) $(grep -c '^{ comm: sh' $E/hist) $(cat $E/enable)" "250 3 0*"
rmmod kmark_mark
check "unloaded: its events and their triggers are gone" \
	sh -c "[ ! -e $E ] && ! grep -q kmark_mod $K/available_markers && [ \"\$(cat $K/tracing_on)\" = 1 ]"
# Its named table went too: the name is free for a table of other keys.
SY=$K/events/syscalls/sys_sync/trigger
check "unloaded: the hist's name= table went with it (the name takes other keys)" \
	sh -c "echo 'hist:name=kmmh:keys=common_pid' > $SY"
echo '!hist:name=kmmh:keys=common_pid' >> $SY 2>/dev/null
insmod $mm
expect_eq "loaded again: no trigger came back, nothing in soft mode" \
	"$(grep -vc '^#' $E/trigger) $(grep -vc '^#' $Z/trigger) $(cat $E/enable) $(cat $Z/enable)" "0 0 0 0"
triggers_on
echo 7 > $F
expect_eq "written again: a new table, from zero" "$(tot $E/hist Hits)" "7"
rmmod kmark_mark

# Unloads with the Nth allocation failing, the triggers on: each rmmod
# succeeds and takes the triggers with it. (fault_setup sets F.)
FIRE=$F
fault_setup
n=1 bad= failed=0
while [ $n -le 40 ]; do
	insmod $mm || { bad="insmod failed at N=$n"; break; }
	triggers_on || { bad="writing the triggers failed at N=$n"; rmmod kmark_mark; break; }
	echo 3 > $FIRE
	res=$(kmark-testprog failnth $n rmmod kmark_mark)
	case "$res" in *" reached") failed=$((failed + 1)) ;; esac
	if grep -q '^kmark_mark ' /proc/modules; then
		rmmod kmark_mark
		bad="rmmod said '$res' at N=$n and the module stayed"
		break
	fi
	[ -e $E ] && { bad="the events outlived the module at N=$n"; break; }
	case "$res" in *" reached") ;; *) break ;; esac
	n=$((n + 1))
done
fault_end
F=$FIRE
diag "rmmod with the Nth allocation failing: N = 1..$n, $failed of them reached"
check "each unload with an allocation failing succeeded and took the triggers ($bad)" \
	[ -z "$bad" ]
insmod $mm
expect_eq "after them, loaded again: no trigger, no soft mode" \
	"$(grep -vc '^#' $E/trigger) $(cat $E/enable) $(cat $Z/enable)" "0 0 0"
rmmod kmark_mark

# Both CPUs firing the marker while the module goes, the triggers on.
dmesg -c > /dev/null
i=0 bad=
while [ $i -lt 20 ]; do
	insmod $mm || { bad="insmod failed"; break; }
	triggers_on
	echo 2000 > $F 2>/dev/null &
	taskset 2 sh -c "echo 2000 > $F" 2>/dev/null &
	rmmod kmark_mark 2>/dev/null
	wait
	# the rmmod may have come before the writers were done: again
	grep -q '^kmark_mark ' /proc/modules && rmmod kmark_mark
	grep -q '^kmark_mark ' /proc/modules && { bad="the module stayed"; break; }
	i=$((i + 1))
done
expect_eq "20 unloads while both CPUs fired the marker into the triggers ($bad)" "$i" 20
expect_eq "the kernel log stayed clean (no warning, BUG, lockdep report)" \
	"$(dmesg | grep -cE 'WARNING|BUG|lockdep|possible .*locking|circular')" "0"
insmod $mm
expect_eq "and loaded once more: no trigger came back" "$(grep -vc '^#' $E/trigger)" "0"

# A hist of another event reads a variable of the module's hist: the
# module goes, and the reader goes first (it read the freed table on every
# hit after, and could not be removed), said in error_log.
SS=$K/events/sched/sched_switch/trigger
echo 'hist:keys=common_pid:t0=common_timestamp' > $E/trigger
echo 'hist:keys=common_pid:lat=common_timestamp-$t0' > $SS
echo 5 > $F
echo > $K/error_log
rmmod kmark_mark
kmark-testprog pingpong 50 kmping kmpong 0 > /dev/null
expect_eq "unloaded: the sched_switch hist that read its variable went with it" \
	"$(grep -vc '^#' $SS)" "0"
check "error_log says why" grep -q 'the hist whose variables it read went with its event' $K/error_log

# A named table shared by a module event and a kernel event: the module
# goes, the table lives on with the other trigger, whose event it reads
# from now on (it kept the gone one's, freed).
insmod $mm
echo 'hist:name=kmshared:keys=common_pid:vals=common_timestamp' > $E/trigger
echo 'hist:name=kmshared:keys=common_pid:vals=common_timestamp' > $SY
rmmod kmark_mark
kmark-testprog sync 3
check "unloaded: the named table goes on with the other event's trigger" \
	grep -q '^hist:name=kmshared:' $SY
expect_eq "and counts its hits (the table's event is the live one now)" \
	"$(sed -n 's/^    Hits: //p' $K/events/syscalls/sys_sync/hist)" "3"
echo '!hist:name=kmshared:keys=common_pid:vals=common_timestamp' >> $SY
reset_kmark

#!/bin/sh
# needs: modules
# description: kmark() in a module built out of tree (M=) and in the tree (samples/kmark): its markers listed as 'name format [module]' while it is loaded, 'module:name' and globs in set_event, set_event naming the module before it loads takes effect at load, a site joining a kernel marker, a site that disagrees stays off with a log line and the module loads, records render after the module is gone (even with a reader blocked at unload), reload gets the marker back; the sample's kthread marker; a hundred load/fire/unload rounds while tracing, each recorded, with a clean log (lockdep on i386-lockdep, lock debugging and kmemleak on the stress kernel) and nothing left behind; an unload whose allocations fail still unloads and takes the marker along
. /tests/lib.sh
plan 28
reset_kmark
rmmod kmark_mark 2>/dev/null
F=/sys/module/kmark_mark/parameters/fire
mm=/lib/modules/$(uname -r)/extra/kmark_mark.ko
mt=/lib/modules/$(uname -r)/extra/kmark_test.ko
fires() { grep -c ' kmark_mod_fire: seq=' "$1"; }

echo 'kmark_mark:kmark_mod_*' > $K/set_event
expect_eq "set_event takes 'module:glob' before the module loads" \
	"$(cat $K/set_event)" "kmark_mark:kmark_mod_*"
insmod $mm
check "available_markers: 'name format [module]'" \
	grep -qx 'kmark_mark:kmark_mod_fire seq=%d comm=%s \[kmark_mark\]' $K/available_markers
expect_eq "the waiting token took effect at load" \
	"$(cat $K/set_event | tr '\n' ' ')" \
	"kmark_mark:kmark_mod_fire kmark_mark:kmark_mod_zero kmark_mark:kmark_mod_* "
check "events/kmark_mark/kmark_mod_fire/format has the module's fields" \
	grep -q 'field:int seq;' $K/events/kmark_mark/kmark_mod_fire/format
echo 3 > $F
kmark-testprog drain $K/trace_pipe > /tmp/mm.txt
expect_eq "the module's markers record (3 + 1 zero-argument)" \
	"$(fires /tmp/mm.txt) $(grep -c ' kmark_mod_zero:' /tmp/mm.txt)" "3 1"
check "the fields: seq and the writer's comm" \
	grep -q ' kmark_mod_fire: seq=2 comm=sh$' /tmp/mm.txt

echo sys_sync > $K/set_event
echo 1 > $F
kmark-testprog drain $K/trace_pipe > /tmp/mm.txt
expect_eq "'>' dropped the waiting token; the module's sys_sync site joined the kernel's marker" \
	"$(cat $K/set_event) $(grep -c ' sys_sync:' /tmp/mm.txt)" "syscalls:sys_sync 1"

dmesg -c > /dev/null
insmod $mt
check "a site that disagrees with a kernel marker stays off, said in the log" \
	sh -c "dmesg | grep -q 'marker syscalls:sys_sync of module kmark_test (.*): its format is not the marker.s; that site stays off'"
check "and the module loaded" grep -q '^kmark_test ' /proc/modules
rmmod kmark_test

check_error "an unknown event of a loaded module" set_event '^kmark_mark:nosuch' "Unknown event (see available_events)"
echo '*:kmark_mod_z*' > $K/set_event
expect_eq "globs in both parts" "$(cat $K/set_event)" "kmark_mark:kmark_mod_zero"
echo '!kmark_mark:kmark_mod_zero' >> $K/set_event
expect_eq "'!module:name' disables" "$(cat $K/set_event)" ""

# Unload while enabled, a reader blocked in trace_pipe; the records stay.
echo 'kmark_mark:kmark_mod_fire' > $K/set_event
echo > $K/trace
echo 2 > $F
cat $K/trace_pipe > /tmp/mm-pipe.txt &
rd=$!
sleep 1
echo 2 > $F
rmmod kmark_mark
sleep 1
kill $rd; wait $rd 2>/dev/null
expect_eq "a reader blocked at unload got every event" "$(fires /tmp/mm-pipe.txt)" 4
check "gone with the module: available_markers, set_event, events/" \
	sh -c "! grep -q kmark_mod_fire $K/available_markers && ! grep -q kmark_mod $K/set_event && [ ! -e $K/events/kmark_mark/kmark_mod_fire ]"
insmod $mm
echo 'kmark_mark:kmark_mod_fire' > $K/set_event
echo 1 > $F
rmmod kmark_mark
check "records of an unloaded module render from 'trace'" \
	grep -q ' kmark_mod_fire: seq=0 comm=sh$' $K/trace
insmod $mm
check "loaded again: listed again, not enabled (unload turned it off)" \
	sh -c "grep -q '^kmark_mark:kmark_mod_fire ' $K/available_markers && ! grep -q kmark_mod $K/set_event"
rmmod kmark_mark

# The in-tree sample (samples/kmark, CONFIG_SAMPLE_KMARK=m), as installed.
modprobe kmark_sample
check "the in-tree sample loads with modprobe; its markers are listed" \
	grep -qx 'kmark_sample:kmark_sample_step step=%d of=%d comm=%s \[kmark_sample\]' $K/available_markers
echo 'kmark_sample:*' > $K/set_event
echo 2 > /sys/module/kmark_sample/parameters/work
kmark-testprog drain $K/trace_pipe > /tmp/mm.txt
expect_eq "the sample's markers record (2 steps, then done)" \
	"$(grep -c ' kmark_sample_step: step=[01] of=2 comm=sh$' /tmp/mm.txt) $(grep -c ' kmark_sample_done:' /tmp/mm.txt)" "2 1"
# A module's frames in an event's stack, whatever their names: kmark's own
# frames are left out by name, and kmark_sample_work's name starts as
# theirs do (it was left out too, until kmark looked only at the core
# kernel's text for its own).
echo 'kmark_sample:kmark_sample_done' > $K/set_event
echo 1 > $K/options/stacktrace
echo > $K/trace
echo 1 > /sys/module/kmark_sample/parameters/work
echo 0 > $K/options/stacktrace
frame='^ => kmark_sample_work$'
grep -q "$frame" $K/trace || diag "$(grep -A 8 '<stack trace>' $K/trace)"
check "a stack through a module shows the module's function (kmark_sample_work)" \
	grep -q "$frame" $K/trace
echo > $K/set_event
rmmod kmark_sample

# The sample's own probe (the in-kernel API, the exported symbols' user):
# it sees each step's fields, with kmark recording the marker too or not;
# detached at unload (the marker stays off, nothing left enabled).
echo > $K/set_event
modprobe kmark_sample probe=1
before=$(cat /sys/module/kmark_sample/parameters/probed)
echo 3 > /sys/module/kmark_sample/parameters/work
echo 'kmark_sample:kmark_sample_step' > $K/set_event
echo > $K/trace
echo 2 > /sys/module/kmark_sample/parameters/work
expect_eq "the sample's probe=1 probe saw every step's fields (by itself, then beside the recorder)" \
	"$before|$(cat /sys/module/kmark_sample/parameters/probed)|$(grep -c ' kmark_sample_step: ' $K/trace)" \
	'no hit|kmark_sample_step "step=%d of=%d comm=%s": 5 hits, last step=1 of=2 comm=sh|2'
rmmod kmark_sample
echo > $K/set_event

# Its kthread's marker, on a timer: typed fields and the kthread's comm.
echo 'kmark_sample:kmark_sample_tick' > $K/set_event
echo > $K/trace
modprobe kmark_sample period_ms=20
sleep 1
rmmod kmark_sample
grep ' kmark_sample_tick: ' $K/trace > /tmp/mm.txt
n=$(grep -c ' kmark_sample_tick: count=[0-9]* period_ms=20 late_us=-*[0-9]* comm=kmark_sample$' /tmp/mm.txt)
diag "ticks in 1 s at 20 ms: $n (first: $(head -n 1 /tmp/mm.txt))"
check "the kthread's marker fires on its timer (at least 5 ticks in 1 s)" test "$n" -ge 5
expect_eq "its counts run 1, 2, ... without a gap" \
	"$(sed -E 's/.* count=([0-9]+) .*/\1/' /tmp/mm.txt | awk '$1 != NR { bad++ } END { print bad + 0 }')" "0"
check "the lines name the kthread as their task" \
	sh -c "head -n 1 /tmp/mm.txt | grep -q '^ *kmark_sample-[0-9]* '"

# Load, fire, unload, a hundred times (make check's time: with 200 the test
# took 45 s on i386-stress, its critical path), with a reader in trace_pipe and
# the module's markers enabled by a token that waits for each load.
rounds=100
before="$(wc -l < $K/available_markers) $(ls $K/events | wc -l)"
echo 'kmark_mark:*' > $K/set_event
echo > $K/trace
dmesg -c > /dev/null
cat $K/trace_pipe > /tmp/mm-loop.txt &
rd=$!
i=0
while [ $i -lt $rounds ]; do
	insmod $mm || break
	echo 1 > $F
	rmmod kmark_mark || break
	i=$((i + 1))
done
sleep 1
kill $rd; wait $rd 2>/dev/null
diag "lockdep: $([ -e /proc/lockdep ] && echo on || echo off in this kernel)"
expect_eq "$rounds load/fire/unload rounds, each one's event read" \
	"$i $(fires /tmp/mm-loop.txt) $(grep -c LOST /tmp/mm-loop.txt)" "$rounds $rounds 0"
expect_eq "the kernel log stayed clean (no lockdep report, warning or BUG)" \
	"$(dmesg | grep -cE 'WARNING|BUG|lockdep|possible .*locking|circular')" "0"
expect_eq "nothing left behind: markers, events/ dirs; the token still waits" \
	"$(wc -l < $K/available_markers) $(ls $K/events | wc -l) $(cat $K/set_event)" \
	"$before kmark_mark:*"

# Unloads that meet failed allocations: kmark_mark unloaded with its
# marker enabled and recorded, the Nth allocation of rmmod failing (N = 1,
# 2, ... until rmmod allocates fewer). Each rmmod succeeds (nothing before
# the module's exit can fail for want of memory), the marker leaves the
# namespace (available_markers, set_event, events/) and its records still
# render. (fault_setup sets F: the parameter by its full path.)
echo > $K/trace
fault_setup
n=1 gone=0 failed=0 bad= res=
while [ $n -le 60 ]; do
	insmod $mm || { bad="insmod failed at N=$n"; break; }
	echo 'kmark_mark:kmark_mod_fire' > $K/set_event
	echo 1 > /sys/module/kmark_mark/parameters/fire
	res=$(kmark-testprog failnth $n rmmod kmark_mark)
	case "$res" in *" reached") failed=$((failed + 1)) ;; esac
	if grep -q '^kmark_mark ' /proc/modules; then
		rmmod kmark_mark
		bad="rmmod said '$res' at N=$n and the module stayed"
		break
	fi
	case "$res" in
	ok*) gone=$((gone + 1)) ;;
	*) bad="rmmod said '$res' at N=$n, yet the module is gone"; break ;;
	esac
	if grep -q kmark_mod_fire $K/available_markers || grep -q kmark_mod $K/set_event ||
	   [ -e $K/events/kmark_mod_fire ]; then
		bad="the marker outlived its module at N=$n ($res)"
		break
	fi
	[ "$res" = ok ] && break	# rmmod allocated fewer than N times
	n=$((n + 1))
done
fault_end
diag "rmmod kmark_mark with its Nth allocation failing, N = 1..$n: $gone unloads, $failed allocations failed"
expect_eq "an unload meeting a failed allocation: rmmod succeeds, the marker leaves with the module" \
	"$bad" ""
check "rmmod met failed allocations ($failed), unloaded every time ($gone of $n); each round's record renders" \
	test "$failed" -gt 0 -a "$gone" = "$n" -a "$(fires $K/trace)" = "$n"
reset_kmark

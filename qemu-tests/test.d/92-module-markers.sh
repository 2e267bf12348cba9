#!/bin/sh
# description: kmark() in a module built out of tree (M=) and in the tree (samples/kmark): its markers listed as 'name format [module]' while it is loaded, 'module:name' and globs in set_event, set_event naming the module before it loads takes effect at load, a site joining a kernel marker, a site that disagrees stays off with a log line and the module loads, records render after the module is gone (even with a reader blocked at unload), reload gets the marker back
. /tests/lib.sh
plan 18
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
	grep -qx 'kmark_mod_fire seq=%d comm=%s \[kmark_mark\]' $K/available_markers
expect_eq "the waiting token took effect at load" \
	"$(cat $K/set_event | tr '\n' ' ')" \
	"kmark_mark:kmark_mod_fire kmark_mark:kmark_mod_zero kmark_mark:kmark_mod_* "
check "events/kmark_mod_fire/format has the module's fields" \
	grep -q 'field:int seq;' $K/events/kmark_mod_fire/format
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
	"$(cat $K/set_event) $(grep -c ' sys_sync:' /tmp/mm.txt)" "sys_sync 1"

dmesg -c > /dev/null
insmod $mt
check "a site that disagrees with a kernel marker stays off, said in the log" \
	sh -c "dmesg | grep -q 'marker sys_sync of module kmark_test (.*): its format is not the marker.s; that site stays off'"
check "and the module loaded" grep -q '^kmark_test ' /proc/modules
rmmod kmark_test

check_error "an unknown event of a loaded module" set_event '^kmark_mark:nosuch' "Unknown marker or event"
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
	sh -c "! grep -q kmark_mod_fire $K/available_markers && ! grep -q kmark_mod $K/set_event && [ ! -e $K/events/kmark_mod_fire ]"
insmod $mm
echo 'kmark_mark:kmark_mod_fire' > $K/set_event
echo 1 > $F
rmmod kmark_mark
check "records of an unloaded module render from 'trace'" \
	grep -q ' kmark_mod_fire: seq=0 comm=sh$' $K/trace
insmod $mm
check "loaded again: listed again, not enabled (unload turned it off)" \
	sh -c "grep -q '^kmark_mod_fire ' $K/available_markers && ! grep -q kmark_mod $K/set_event"
rmmod kmark_mark

# The in-tree sample (samples/kmark, CONFIG_SAMPLE_KMARK=m), as installed.
modprobe kmark_sample
check "the in-tree sample loads with modprobe; its markers are listed" \
	grep -qx 'kmark_sample_step step=%d of=%d comm=%s \[kmark_sample\]' $K/available_markers
echo 'kmark_sample:*' > $K/set_event
echo 2 > /sys/module/kmark_sample/parameters/work
kmark-testprog drain $K/trace_pipe > /tmp/mm.txt
expect_eq "the sample's markers record (2 steps, then done)" \
	"$(grep -c ' kmark_sample_step: step=[01] of=2 comm=sh$' /tmp/mm.txt) $(grep -c ' kmark_sample_done:' /tmp/mm.txt)" "2 1"
rmmod kmark_sample
reset_kmark

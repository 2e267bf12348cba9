#!/bin/sh
# description: instances (independent sessions): instances/new and instances/remove with clear errors; each instance its own set_event, filters, tracing_on, buffer_size_kb, trace, trace_pipe, trace_marker, per_cpu and error_log; one marker in two instances records into both and disabling it in one leaves the other; a kprobe event per instance; removal refused while a reader is open, clean afterwards; a removed name made again starts fresh
. /tests/lib.sh
plan 26
reset_kmark
I=$K/instances
for n in s1 s2 s3 s4 s5 s6 s7; do inst_rm $n 2>/dev/null; done
# inst_error NAME new|remove SPEC MSG [ERRNO]: check_error on instances/new
# or instances/remove; in tracefs alone (no debugfs), mkdir or rmdir.
inst_error() {
	if lacking debugfs; then
		case $2 in new) op=mkdir ;; *) op=rmdir ;; esac
		check_dir_error "$1 ($op)" $op "$I/$(echo "$3" | tr -d '^')" "$4" "${5:-Invalid argument}"
	else
		check_error "$1" instances/$2 "$3" "$4" ${5:+"$5"}
	fi
}

if lacking debugfs; then
	skip "a name with a '/'" "no debugfs in this kernel: mkdir cannot be given one"
	skip "removing what does not exist" "no debugfs in this kernel: rmdir fails in the VFS, before kmark"
else
	check_error "a name with a '/'" instances/new '^a/b' "Instance names take letters, digits, '_', '-' and '.'"
	check_error "removing what does not exist" instances/remove '^nosuch' "No such instance" \
		"No such file or directory"
fi
inst_error "a reserved name" new '^remove' "Reserved name"
inst_new s1
inst_new s2
check "instances/s1/ has its files" sh -c "for f in tracing_on set_event trace trace_pipe buffer_size_kb error_log trace_marker per_cpu/cpu0/trace_pipe_raw per_cpu/cpu0/stats events/syscalls/sys_sync/filter events/sched/sched_switch/filter; do [ -e $I/s1/\$f ] || exit 1; done"
if lacking debugfs; then
	check_dir_error "a name that exists (mkdir: the VFS refuses it)" mkdir $I/s1 "" "File exists"
else
	check_error "a name that exists" instances/new '^s1' "The instance exists" "File exists"
fi
if lacking debugfs; then
	skip "the same in the tracefs copy" "no debugfs in this kernel: the tracefs copy is the only one"
else
	check "the same in the tracefs copy" [ -e /sys/kernel/tracing/kmark/instances/s1/trace_pipe ]
fi

# Different events and filters in s1, s2 and the top, at once.
echo sys_sync > $I/s1/set_event
echo sched_switch > $I/s2/set_event
echo 'next_comm ~ "kmi*"' > $I/s2/events/sched/sched_switch/filter
echo > $I/s1/trace; echo > $I/s2/trace
sync
kmark-testprog pingpong 50 kmiping kmipong 0 > /dev/null
expect_eq "s1 records sys_sync only" \
	"$(grep -c ' sys_sync:' $I/s1/trace) $(grep -c ' sched_switch:' $I/s1/trace)" "1 0"
n=$(grep -c ' sched_switch:' $I/s2/trace)
diag "s2: $n switches to kmi*"
check "s2 records sched_switch, its filter holds" \
	sh -c "[ $n -ge 50 ] && [ \$(grep ' sched_switch:' $I/s2/trace | grep -vc 'next_comm=kmi') = 0 ]"
expect_eq "the top recorded nothing (its set_event is empty)" \
	"$(cat $K/set_event) $(grep -vc '^#' $K/trace)" " 0"
expect_eq "the top's filter of sched_switch is its own" \
	"$(cat $K/events/sched/sched_switch/filter)" "none"
expect_eq "each set_event reads its own" \
	"$(cat $I/s1/set_event) $(cat $I/s2/set_event)" "syscalls:sys_sync sched:sched_switch"

# One marker in two instances: both record; off in one, the other goes on.
echo sys_sync >> $I/s2/set_event
echo > $I/s1/trace; echo > $I/s2/trace
sync
echo '!sys_sync' >> $I/s1/set_event
sync
expect_eq "sys_sync in s1 and s2, then off in s1: s1 has 1, s2 has 2" \
	"$(grep -c ' sys_sync:' $I/s1/trace) $(grep -c ' sys_sync:' $I/s2/trace)" "1 2"

# tracing_on, buffer_size_kb, trace_marker, error_log: each its own.
echo sys_sync > $I/s1/set_event
echo 0 > $I/s1/tracing_on
echo > $I/s1/trace; echo > $I/s2/trace
sync
expect_eq "tracing_on 0 in s1 stops s1 only" \
	"$(grep -c ' sys_sync:' $I/s1/trace) $(grep -c ' sys_sync:' $I/s2/trace) $(cat $K/tracing_on)" "0 1 1"
echo 1 > $I/s1/tracing_on
echo 64 > $I/s1/buffer_size_kb
expect_eq "buffer_size_kb: s1's own" "$(cat $I/s1/buffer_size_kb) $(cat $K/buffer_size_kb)" "64 1408"
echo "in s2" > $I/s2/trace_marker
expect_eq "trace_marker of s2 records in s2 only" \
	"$(grep -c 'tracing_mark_write: in s2' $I/s2/trace) $(grep -c 'tracing_mark_write' $I/s1/trace) $(grep -c 'tracing_mark_write' $K/trace)" "1 0 0"
echo > $K/error_log
echo > $I/s1/error_log
echo 'nosuch' >> $I/s1/set_event 2>/dev/null
expect_eq "s1's error in s1's error_log, not the top's" \
	"$(grep -c 'Unknown event' $I/s1/error_log) $(grep -c . $K/error_log)" "1 0"
echo > $I/s1/trace
sync; sync
st() { cat $I/s1/per_cpu/cpu*/stats | sed -n "s/^$1: //p" | awk '{ s += $1 } END { print s }'; }
expect_eq "s1's per_cpu stats count its own events: written, entries" \
	"$(st written) $(st entries)" "2 2"

# A kprobe event (defined at the top) enabled in s1 only.
if lacking kprobes; then
	skip "a kprobe event enabled in s1 records in s1 only" "no kprobes in this kernel"
else
	echo 'p:instsync ksys_sync' >> $K/kprobe_events
	echo instsync > $I/s1/set_event
	echo > $I/s1/trace
	sync
	expect_eq "a kprobe event enabled in s1 records in s1 only" \
		"$(grep -c ' instsync:' $I/s1/trace) $(grep -c ' instsync:' $K/trace)" "1 0"
fi

# Removal: refused while a reader is open, then clean.
cat $I/s1/trace_pipe > /dev/null &
rd=$!
sleep 1
inst_error "removal refused while a reader of it is open" remove '^s1' \
	"The instance is busy: a file of it is open" "Device or resource busy"
kill $rd; wait $rd 2>/dev/null
inst_rm s1
check "removed: instances/s1 is gone" [ ! -e $I/s1 ]
if lacking kprobes; then
	skip "its kprobe event is free again" "no kprobes in this kernel"
else
	check "its kprobe event is free again: deleting it works" sh -c "echo '-:instsync' >> $K/kprobe_events"
fi
echo > $I/s2/set_event
echo 0 > $I/s2/events/sched/sched_switch/filter
inst_rm s2
ctl="new remove "
! lacking debugfs || ctl=
expect_eq "instances/ holds the control files only" "$(ls $I | tr '\n' ' ')" "$ctl"

# Made again: a fresh instance.
inst_new s1
expect_eq "s1 made again starts fresh" \
	"$(cat $I/s1/set_event)|$(cat $I/s1/tracing_on)|$(cat $I/s1/buffer_size_kb)|$(cat $I/s1/events/syscalls/sys_sync/filter)|$(grep -vc '^#' $I/s1/trace)" \
	"|1|1408|none|0"

# No fixed number of them; made and removed with mkdir and rmdir in the
# tracefs copy too, and seen in both.
T=/sys/kernel/tracing/kmark
mount -t tracefs nodev /sys/kernel/tracing 2>/dev/null
for n in $(seq 2 12); do inst_new s$n; done
for n in $(seq 13 20); do mkdir $T/instances/s$n; done
if lacking debugfs; then
	expect_eq "twenty instances (mkdir, no fixed number)" "$(ls $I | grep -c '^s')" "20"
else
	expect_eq "twenty instances, in both trees" \
		"$(ls $I | grep -c '^s') $(ls $T/instances | grep -c '^s')" "20 20"
fi
for n in $(seq 1 12); do inst_rm s$n; done
for n in $(seq 13 20); do rmdir $T/instances/s$n; done
expect_eq "all removed" "$(ls $I | tr '\n' ' ')" "$ctl"

# A writer killed during an instance's first enable, which allocates its
# buffer: the ring buffer gave up the pages of a killed user task and
# WARNed for the other CPU's ("failed to allocate ring buffer on CPU N",
# 16 times in 60 rounds); kmark now allocates in a worker.
w0=$(dmesg | grep -c 'failed to allocate ring buffer')
for n in $(seq 1 40); do
	mkdir $T/instances/kill$n
	sh -c "echo 1 > $T/instances/kill$n/events/sched/sched_switch/enable" &
	p=$!
	usleep $((n * 50))
	kill -9 $p 2> /dev/null
	wait $p 2> /dev/null
	echo 0 > $T/instances/kill$n/events/enable
	rmdir $T/instances/kill$n
done
expect_eq "40 first enables killed mid-way: no ring buffer WARN, every instance gone" \
	"$(($(dmesg | grep -c 'failed to allocate ring buffer') - w0)) $(ls $T/instances | grep -c kill)" "0 0"
reset_kmark

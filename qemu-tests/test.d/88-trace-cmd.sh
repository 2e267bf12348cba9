#!/bin/sh
# timeout: 600
# description: Debian's trace-cmd, unchanged, drives kmark through its tracefs directory bound over /sys/kernel/tracing: record (-e, -f, -T, -O, -c, -P, -B, -b, -C), start, stop, extract, restart, show, stat, stream, snapshot, list, check-events, report, hist, profile and reset, with the options it set as it found them afterwards; what kmark lacks fails with trace-cmd's own message; where ftrace is there too, sched_switch's fields in the two trace.dat files are the same (names, types, sizes, signedness) and ftrace's -T recording has stacks too; a libtracefs program parses every format and reads every sched_switch field
# In a mount namespace of its own (busybox's unshare): its bind mount
# goes with it, even when the runner kills the script on a hang.
if [ -z "${KMARK_TC_NS:-}" ]; then
	export KMARK_TC_NS=1
	exec unshare -m --propagation private sh "$0" "$@"
fi
. /tests/lib.sh
plan 57
T=/sys/kernel/tracing
TC=/tmp/tc
mkdir -p $TC
cd $TC || exit 1
mount -t tracefs nodev $T 2>/dev/null
reset_kmark
# The recordings' command (trace-cmd runs it): a few switches.
work() { sleep 0.2; }
W="sleep 0.2"

# Debian's trace-cmd:i386 3.1.6 writes a compressed trace.dat (version 7,
# zstd) that it cannot read back ("cannot uncompress the file": its
# header's page size is 0), whatever the kernel: it records uncompressed
# there.
COMP=
[ "$(uname -m)" = x86_64 ] || COMP="--compression none"

# tc ARGS...: trace-cmd, bounded (a hang kills it, not the whole script,
# which would leave the bind mount for the tests after it). The watchdog
# is its sibling: busybox's timeout would make it trace-cmd's child, which
# profile waits for.
tc() {
	trace-cmd "$@" &
	tcp=$!
	(sleep 120; kill -9 $tcp 2> /dev/null) &
	tcw=$!
	wait $tcp
	tcrc=$?
	kill $tcw 2> /dev/null
	wait $tcw 2> /dev/null
	return $tcrc
}
# run NAME ARGS...: trace-cmd ARGS in $TC, its output in $TC/NAME.out;
# ok when it exits 0, else its status (a crash named) and its last lines.
run() {
	n=$1
	shift
	case "$1" in
	record|extract) c=$1; shift; set -- $c $COMP "$@" ;;
	esac
	tc "$@" > $TC/$n.out 2>&1
	rc=$?
	if [ $rc = 0 ]; then
		ok "trace-cmd $*"
		return 0
	fi
	case $rc in 139) why="crashed (SIGSEGV)" ;; 134) why="aborted" ;; 137) why="timed out (120 s)" ;; *) why="exit $rc" ;; esac
	not_ok "trace-cmd $*: $why"
	tail -n 8 $TC/$n.out | sed 's/^/# /'
	return 1
}
# report DAT: trace-cmd report's event lines (the header and the CPU lines
# left out), each event printed by its format, not by a plugin (-N).
report() { trace-cmd report -N -i "$1" 2>/dev/null | grep -E '^ *[^ ].*-[0-9]+ +\[[0-9]+\]'; }
# names DAT: the field names of its first sched_switch line, in order.
names() {
	report "$1" | grep -m 1 'sched_switch:' | sed 's/.*sched_switch: *//' |
		grep -oE '[a-z_]+=' | tr '\n' ' '
}

# A libtracefs program (qemu-tests/kmark-tracefs.c, static with Debian's
# libtracefs and libtraceevent): each of its 12 lines a result.
kmark-tracefs $T/kmark > $TC/tracefs.out 2>&1
rc=$?
grep -E '^(not )?ok ' $TC/tracefs.out > $TC/tracefs.res
while read -r l; do
	case "$l" in
	ok*) ok "libtracefs: ${l#ok }" ;;
	*) not_ok "libtracefs: ${l#not ok }" ;;
	esac
done < $TC/tracefs.res
expect_eq "libtracefs: the program ended well (exit status)" "$rc" 0
# ftrace's own recordings first, where the kernel has ftrace (x86_64).
ftrace=
if [ -d $T/events/sched ] && [ -e $T/trace_options ]; then
	ftrace=1
	tc record -e sched:sched_switch -o f.dat $W > f.out 2>&1
	tc record -T -e syscalls:sys_enter_sync -o fs.dat sync > fs.out 2>&1 ||
		tc record -T -e sched:sched_switch -o fs.dat $W > fs.out 2>&1
	tc reset > /dev/null 2>&1
fi

# kmark's directory where trace-cmd looks: the tracefs copy (debugfs's
# instances/ has kmark's new and remove files, which trace-cmd would take
# for instances).
mount -o bind $T/kmark $T || { not_ok "mount -o bind $T/kmark $T"; exit 0; }
K=$T

run rec record -e sched:sched_switch -o k.dat $W
n=$(report k.dat | grep -c 'sched_switch: *prev_comm=.* prev_pid=[0-9]* .*next_pid=[0-9]*')
[ "$n" -gt 0 ] || trace-cmd report -N -i k.dat 2>&1 | head -n 6 | sed 's/^/# /'
check "report: sched_switch events with their fields ($n)" test "$n" -gt 0
# fmt DAT: sched_switch's fields as the trace.dat holds its format (the
# common fields and the offsets left out: kmark's header is its own).
fmt() {
	trace-cmd dump --events -i "$1" 2>/dev/null |
		sed -n '/^name: sched_switch$/,/^print fmt/p' | grep 'field:' |
		grep -v common_ | sed 's/offset:[0-9]*;//; s/[[:space:]]\{1,\}/ /g'
}
if [ -n "$ftrace" ]; then
	expect_eq "the same fields as ftrace's sched_switch recorded by trace-cmd on this boot" \
		"$(names k.dat)" "$(names f.dat)"
	expect_eq "sched_switch's format in the two trace.dat files: the same fields, types, sizes and signedness" \
		"$(fmt k.dat | tr '\n' '|')" "$(fmt f.dat | tr '\n' '|')"
else
	skip "the same fields as ftrace's sched_switch recorded by trace-cmd on this boot" "no ftrace in this kernel"
	skip "sched_switch's format in the two trace.dat files: the same fields, types, sizes and signedness" "no ftrace in this kernel"
fi

run recf record -e sched:sched_switch -f 'next_pid==0' -o kf.dat $W
all=$(report kf.dat | grep -c 'sched_switch:')
zero=$(report kf.dat | grep 'sched_switch:' | grep -c 'next_pid=0 ')
check "-f 'next_pid==0': every event has next_pid=0 ($zero of $all)" \
	sh -c "[ $all -gt 0 ] && [ $zero = $all ]"

# -T: a kernel_stack after each event (options/stacktrace through
# trace_options), printed by libtraceevent's function plugin as ftrace's.
run recT record -T -e sched:sched_switch -o kt.dat $W
st=$(trace-cmd report -i kt.dat 2>/dev/null | grep -c '<stack trace')
fr=$(trace-cmd report -i kt.dat 2>/dev/null | grep -c '=> ')
check "-T: stacks in the report, with their frames ($st stacks, $fr frames)" \
	sh -c "[ $st -gt 0 ] && [ $fr -ge $st ]"
# (the plugin prints frames up to the record's end: padding would show)
zero=$(trace-cmd report -i kt.dat 2>/dev/null | grep -cE '=> .*\((0x)?0+\)$|=> 0+$')
expect_eq "-T: no frame of a stack is 0 (a record is as long as its frames)" "$zero" 0
if lacking kallsyms; then
	skip "-T: the frames are named (schedule)" "no kallsyms in this kernel"
else
	check "-T: the frames are named (schedule)" \
		sh -c "trace-cmd report -i kt.dat 2>/dev/null | grep -q '=> .*schedule'"
fi
expect_eq "-T: trace_options as trace-cmd found it afterwards" \
	"$(grep stacktrace $K/trace_options)" nostacktrace
if [ -n "$ftrace" ]; then
	check "ftrace's -T recording on this boot has stacks too (the reference)" \
		sh -c "trace-cmd report -i fs.dat 2>/dev/null | grep -q '<stack trace'"
else
	skip "ftrace's -T recording on this boot has stacks too (the reference)" "no ftrace in this kernel"
fi

run recO record -O stacktrace -e sched:sched_switch -o ko.dat $W
check "-O stacktrace: stacks in the report" \
	sh -c "trace-cmd report -i ko.dat 2>/dev/null | grep -q '<stack trace'"

# -c: children followed through set_event_pid and event-fork. A switch
# away from the forked child to anything but sh names neither of sh's
# pids: recorded only if the child was followed (with -F alone, it is not).
run recc record -e sched:sched_switch -c -F -o kc.dat sh -c 'sleep 0.3 & wait'
tc record $COMP -e sched:sched_switch -F -o kn.dat sh -c 'sleep 0.3 & wait' > kn.out 2>&1
kid() { report "$1" | grep 'prev_comm=sleep ' | grep -vc 'next_comm=sh '; }
kc=$(kid kc.dat) kn=$(kid kn.dat)
check "-c: the forked child's switches are recorded ($kc), and not without -c ($kn)" \
	sh -c "[ $kc -gt 0 ] && [ $kn = 0 ]"
expect_eq "-c: event-fork and set_event_pid as they were afterwards" \
	"$(cat $K/options/event-fork | head -n 1) $(cat $K/set_event_pid | wc -l)" "0 0"

sh -c 'i=0; while [ $i -lt 60 ]; do sleep 0.05; i=$((i + 1)); done' &
pid=$!
run recP record -e sched:sched_switch -P $pid -o kp.dat
others=$(report kp.dat | grep 'sched_switch:' | grep -v "prev_pid=$pid \|next_pid=$pid ")
check "-P: only the switches from or to that pid" \
	sh -c "[ $(report kp.dat | grep -c sched_switch:) -gt 0 ] && [ -z '$others' ]"
wait $pid 2>/dev/null

run recB record -B tcbuf -e sched:sched_switch -o kb.dat $W
check "-B: the instance's events are in the report, and the instance is gone afterwards" \
	sh -c "trace-cmd report -i kb.dat 2>/dev/null | grep -q 'sched_switch:' && [ ! -e $K/instances/tcbuf ]"

run recb record -b 64 -C mono -e sched:sched_switch -o kbc.dat $W
expect_eq "-b 64 -C mono: buffer_size_kb set, and the file's clock is mono" \
	"$(cat $K/buffer_size_kb) $(trace-cmd dump --clock -i kbc.dat 2>/dev/null | grep -o '\[[a-z_0-9-]*\]')" "64 [mono]"
echo 1408 > $K/buffer_size_kb
echo local > $K/trace_clock

# start / stop / show / extract / restart / stat
tc start -e sched:sched_switch > st.out 2>&1
work
tc stop > /dev/null 2>&1
check "start, stop: tracing_on is 0 and show prints the events" \
	sh -c "[ \$(cat $K/tracing_on) = 0 ] && trace-cmd show 2>/dev/null | grep -q 'sched_switch: *prev_comm='"
run stat stat
check "stat names the enabled event" grep -q 'sched_switch' $TC/stat.out
run extract extract -o ke.dat
check "extract: the events in the report" sh -c "trace-cmd report -i ke.dat 2>/dev/null | grep -q 'sched_switch:'"
tc restart > /dev/null 2>&1
expect_eq "restart: tracing_on is 1" "$(cat $K/tracing_on)" 1
# (extract took what there was, and left no event enabled)
echo sched:sched_switch > $K/set_event
work
run snap snapshot -s
check "snapshot -s: the snapshot holds the events" grep -q 'sched_switch: *prev_comm=' $K/snapshot
run reset reset
expect_eq "reset: no event enabled" "$(test -r $K/set_event && cat $K/set_event; echo .)" "."

# stream: the events as they come, until interrupted.
(sleep 1; i=0; while [ $i -lt 20 ]; do sleep 0.05; i=$((i + 1)); done) &
work_pid=$!
# (interrupted after 3 s as a user would; killed if it does not end in 30
# more: busybox's timeout would be its child, and it sends one signal)
trace-cmd stream -e sched:sched_switch > stream.out 2>&1 &
sp=$!
sleep 3
kill -INT $sp 2>/dev/null
i=0
while [ $i -lt 30 ] && kill -0 $sp 2>/dev/null; do sleep 1; i=$((i + 1)); done
if kill -0 $sp 2>/dev/null; then
	diag "stream did not end 30 s after SIGINT: killed"
	kill -9 $sp 2>/dev/null
fi
wait $sp 2>/dev/null
wait $work_pid
grep -q 'sched_switch: .* ==> ' stream.out || tail -n 5 stream.out | sed 's/^/# /'
check "stream prints the events as they come" grep -q 'sched_switch: .* ==> ' stream.out
tc reset > /dev/null 2>&1

run list list -e sched_switch
check "list -e: sched:sched_switch" grep -qx 'sched:sched_switch' $TC/list.out
# (trace-cmd 3.1.6's check-events exits 0 even when a format does not
# parse: kmark-tracefs above parses each one)
run check check-events
run hist hist -i kt.dat
check "hist: the recorded stacks' histogram" sh -c "[ -s $TC/hist.out ] && grep -q '%' $TC/hist.out"
# profile: trace-cmd 3.1.6's profile deadlocks once its recorder has more
# to write than a pipe holds (the recorder blocks in pipe_write, its
# parent waits for it before it reads the pipe), on ftrace as on kmark:
# with -e or -F always, and plain when enough events come in 0.2 s. It
# runs bounded (60 s); killed in that state, the check is a named skip
# (the deadlock's signature seen), killed in any other a failure.
trace-cmd profile $W > $TC/prof.out 2>&1 &
pp=$!
i=0
while [ $i -lt 60 ] && kill -0 $pp 2>/dev/null; do sleep 1; i=$((i + 1)); done
if kill -0 $pp 2>/dev/null; then
	# (the signature without kallsyms too: write(2) on a pipe, in
	# /proc/PID/syscall, or pipe_write in wchan)
	case "$(uname -m)" in x86_64) nr_write=1 ;; *) nr_write=4 ;; esac
	sig=
	for f in /proc/[0-9]*/stat; do
		set -- $(cat "$f" 2>/dev/null)
		[ "${4:-}" = "$pp" ] || continue
		c=$1
		[ "$(cat /proc/$c/wchan 2>/dev/null)" = pipe_write ] && sig=$c
		set -- $(cat /proc/$c/syscall 2>/dev/null)
		if [ "${1:-}" = "$nr_write" ] && [ -n "${2:-}" ]; then
			case "$(readlink /proc/$c/fd/$(($2)) 2>/dev/null)" in
			pipe:*) sig=$c ;;
			esac
		fi
		kill -9 "$c" 2>/dev/null
	done
	kill -9 $pp 2>/dev/null
	wait $pp 2>/dev/null
	if [ -n "$sig" ]; then
		skip "profile reports the tasks" "trace-cmd 3.1.6's profile deadlocked: its recorder blocked in pipe_write, its parent waiting for it"
	else
		not_ok "profile reports the tasks: it did not end in 60 s, and not in trace-cmd's pipe deadlock"
	fi
else
	wait $pp
	grep -q '^task: ' $TC/prof.out || tail -n 5 $TC/prof.out | sed 's/^/# /'
	check "profile reports the tasks" grep -q '^task: ' $TC/prof.out
fi

# What kmark does not have: trace-cmd's own message, not a crash.
tc record $COMP -p function -o kx.dat $W > px.out 2>&1
rc=$?
check "record -p function: trace-cmd's own error (exit $rc)" \
	sh -c "[ $rc != 0 ] && [ $rc -lt 128 ] && grep -q \"Plugin 'function' does not exist\" $TC/px.out"

echo > $K/error_log
run recu record -O userstacktrace -e sched:sched_switch -o ku.dat $W
check "-O userstacktrace (kmark has none): error_log says why" \
	grep -q 'Unknown option' $K/error_log
tc reset > /dev/null 2>&1
expect_eq "afterwards: trace_options as at the start" "$(cat $K/trace_options)" \
	"$(printf 'noevent-fork\noverwrite\nnostacktrace')"
cd /
umount $T
K=/sys/kernel/debug/kmark
[ -d $K ] || K=$T/kmark
reset_kmark

# SPDX-License-Identifier: GPL-2.0
# Helpers for kmark's guest tests (sourced by each test.d/*.sh).
# Each check prints one KTAP result line; each script declares its plan
# first (plan N), so that a script that stops early fails on the host.
# kmark's control files: debugfs's copy, or tracefs's alone on a kernel
# without debugfs (i386-hardened).
K=/sys/kernel/debug/kmark
[ -d $K ] || K=/sys/kernel/tracing/kmark
_n=0

# lacking WHAT: whether this kernel lacks WHAT (debugfs, kprobes, modules,
# kallsyms, fault-injection): the hardened kernel lacks them all. A test
# skips what needs it, with the reason "no WHAT in this kernel"; runner.sh
# skips a whole script whose "# needs:" line names it.
lacking() {
	case "$1" in
	debugfs) [ ! -d /sys/kernel/debug/kmark ] ;;
	kprobes) [ ! -d $K ] || [ ! -e $K/kprobe_events ] ;;
	modules) [ ! -e /proc/modules ] ;;
	kallsyms) [ ! -e /proc/kallsyms ] ;;
	fault-injection) [ ! -e /proc/self/fail-nth ] ;;
	*) echo "# lacking: unknown feature '$1'" >&2; return 1 ;;
	esac
}

# inst_new NAME, inst_rm NAME: make or remove an instance: with debugfs's
# instances/new and instances/remove files, or with mkdir and rmdir where
# kmark is in tracefs alone. Exit status as the write's or mkdir's.
inst_new() {
	if [ -e $K/instances/new ]; then echo "$1" > $K/instances/new; else mkdir $K/instances/"$1"; fi
}
inst_rm() {
	if [ -e $K/instances/remove ]; then echo "$1" > $K/instances/remove; else rmdir $K/instances/"$1"; fi
}

# check_dir_error NAME mkdir|rmdir DIR MSG ERRNO: an instance's directory
# refused by mkdir or rmdir (tracefs) with ERRNO; error_log says MSG, with
# the instance's name as its command, as check_error's lines (an empty MSG:
# the VFS refused it before kmark, error_log stays empty).
check_dir_error() {
	name=$1 op=$2 dir=$3 msg=$4 errno=$5
	echo > $K/error_log
	if err=$($op "$dir" 2>&1); then
		not_ok "$name: $op $dir succeeded"
		return
	fi
	case "$err" in
	*"$errno"*) ;;
	*) not_ok "$name: $op $dir: wanted '$errno', got: $err"; return ;;
	esac
	line1=$(sed -n 1p $K/error_log)
	line2=$(sed -n 2p $K/error_log)
	if [ -z "$msg" ]; then
		if [ -n "$line1" ]; then not_ok "$name: error_log has '$line1'"; else ok "$name"; fi
		return
	fi
	case "$line1" in
	"["*"] kmark: error: $msg") ;;
	*) not_ok "$name: error_log line 1 is '$line1', wanted '... kmark: error: $msg'"; return ;;
	esac
	if [ "$line2" != "  Command: ${dir##*/}" ]; then
		not_ok "$name: error_log line 2 is '$line2'"
		return
	fi
	ok "$name"
}

# stat_total FIELD [DIR]: FIELD ("written", "overrun"...) of DIR's (by
# default $K's) per_cpu/cpu*/stats, summed over the CPUs.
stat_total() {
	cat ${2:-$K}/per_cpu/cpu*/stats | sed -n "s/^$1: //p" | awk '{ s += $1 } END { print s + 0 }'
}
# lost_in [CPU] < TEXT: what trace_pipe's "CPU:N [LOST M EVENTS]" lines
# say was lost (on CPU, or all), summed.
lost_in() {
	sed -n "s/^CPU:${1:-[0-9]*} \[LOST \([0-9]*\) EVENTS\]\$/\1/p" | awk '{ s += $1 } END { print s + 0 }'
}

# skip_n N NAME REASON: N skips, NAME 1..N.
skip_n() {
	_i=1
	while [ $_i -le "$1" ]; do skip "$2 $_i" "$3"; _i=$((_i + 1)); done
}

plan() { echo "1..$1"; }

ok() { _n=$((_n + 1)); echo "ok $_n - $*"; }
not_ok() { _n=$((_n + 1)); echo "not ok $_n - $*"; }
skip() { _n=$((_n + 1)); echo "ok $_n - $1 # SKIP $2"; }
diag() { printf "%s\n" "$*" | sed "s/^/# /"; }

# check NAME CMD...: ok if CMD succeeds.
check() {
	name=$1; shift
	if "$@"; then ok "$name"; else not_ok "$name"; fi
}

# expect_eq NAME GOT WANT
expect_eq() {
	if [ "$2" = "$3" ]; then
		ok "$1"
	else
		not_ok "$1"
		diag "got:  '$2'"
		diag "want: '$3'"
	fi
}

# reset: tracing on, nothing enabled, empty buffer and error_log.
reset_kmark() {
	echo 1 > $K/tracing_on
	echo > $K/set_event
	echo > $K/trace
	echo > $K/error_log
}

# check_error NAME FILE 'COMMAND with ^ before the bad part' 'message' [ERRNO [LOC]]:
# the write must fail with EINVAL (or the strerror text ERRNO), leave error_log with the message, the
# command and a caret under the '^' position (as ftracetest's check_error),
# said by LOC: the 6th argument (ftrace's "hist:SYS:EVENT" for a hist
# trigger), else "trace_kprobe" for kprobe_events and dynamic_events
# (ftrace's name, which its selftests read), else "kmark".
check_error() {
	name=$1 file=$2 spec=$3 msg=$4 errno=${5:-Invalid argument} loc=${6:-}
	[ -n "$loc" ] || case "$file" in
	kprobe_events|dynamic_events) loc=trace_kprobe ;;
	*) loc=kmark ;;
	esac
	pos=${spec%%^*}
	pos=${#pos}
	cmd=$(echo "$spec" | tr -d '^')
	echo > $K/error_log
	if err=$(echo "$cmd" 2>&1 >> "$K/$file"); then
		not_ok "$name: write of '$cmd' to $file succeeded"
		return
	fi
	case "$err" in
	*"$errno"*) ;;
	*) not_ok "$name: '$cmd': wanted '$errno', got: $err"; return ;;
	esac
	log=$(cat $K/error_log)
	line1=$(echo "$log" | sed -n 1p)
	line2=$(echo "$log" | sed -n 2p)
	line3=$(echo "$log" | sed -n 3p)
	caret=$(printf '%*s^' $((pos + 11)) '')
	case "$line1" in
	"["*"] $loc: error: $msg") ;;
	*) not_ok "$name: error_log line 1 is '$line1', wanted '... $loc: error: $msg'"; return ;;
	esac
	if [ "$line2" != "  Command: $cmd" ] || [ "$line3" != "$caret" ]; then
		not_ok "$name: error_log is '$line2' / '$line3'"
		return
	fi
	ok "$name"
}

# sweep NAME [-s M:FILE:TEXT]... OP ARGS...: kmark-testprog sweep runs OP
# (a write, an open) with its 1st, 2nd, ... allocation failing until OP
# makes fewer allocations; before each run the -s writes set the state up.
# A failure must leave the control files as they were; a success (an
# allocation done without, or none failed) as a run without failures.
sweep() {
	name=$1
	shift
	res=$(K=$K kmark-testprog sweep "$@")
	case "$res" in
	"ok 0 of"*) not_ok "$name: no allocation failed ($res)" ;;
	ok*) ok "$name: $res allocations failed, each failure changed nothing" ;;
	*) not_ok "$name: $res" ;;
	esac
}

# fault_setup: make fail-nth (kmark-testprog failnth) reach every
# allocation, quietly (no stack dump per injected failure). The kernel's
# own reports of failed allocations (warn_alloc) are expected from here to
# fault_end: the host's log check lets them pass in between.
fault_setup() {
	echo "KMARK-FAULT-INJECTION begin ($(basename "$0"))" > /dev/kmsg
	F=/sys/kernel/debug
	for a in failslab fail_page_alloc; do
		[ -d $F/$a ] || continue
		echo N > $F/$a/ignore-gfp-wait
		echo 0 > $F/$a/verbose
	done
	echo N > $F/fail_page_alloc/ignore-gfp-highmem 2>/dev/null
	echo 0 > $F/fail_page_alloc/min-order 2>/dev/null
	# With kmemleak, its own metadata allocations would take the
	# injected failures (it falls back to a pool): fail only the kmalloc
	# caches, where kmark's allocations are. A cache other caches were
	# merged into refuses the flag (the stress kernels boot with
	# slab_nomerge); say which did.
	if [ -d /sys/kernel/slab ] && [ -e $F/kmemleak ]; then
		refused=
		for c in /sys/kernel/slab/kmalloc-*/failslab; do
			echo 1 > $c 2>/dev/null ||
				refused="$refused $(basename "$(dirname $c)")"
		done
		[ -z "$refused" ] ||
			echo "# failslab refused by merged caches:$refused (boot with slab_nomerge)"
		echo Y > $F/failslab/cache-filter
	fi
}

fault_end() {
	echo "KMARK-FAULT-INJECTION end" > /dev/kmsg
}

# dat_dump NAME MODE: record with 'kmark record -o trace.dat' and print the
# result on the console between KMARK-DAT-BEGIN/END NAME lines, as base64
# of a gzip'ed tar; scripts/check.sh has qemu-tests/dat_check.py open it
# with trace-cmd, KernelShark's library and traceshark on the host. The
# events: context switches and wakeups (kmark-testprog pingpong), sys_sync
# (zero-argument marker, kmark-testprog sync 3), a kprobe with a string
# argument and a kretprobe with the return value (an open of a file).
#   MODE same: trace with tracing_on, save the kernel's 'trace' text, then
#              'kmark record --keep' writes the same records: trace.txt
#              lets the host compare every event field by field.
#   MODE live: 'kmark record -t 4' while the workload runs (poll, read,
#              drain): the host checks trace-cmd and libkshark against
#              kmark's own count and the 'expect' minimum counts.
#   MODE owners: as same, without the sched_* events, so that the saved
#              cmdlines can only name a task from its own records.
# Prints one KTAP result: whether kmark record wrote a file.
dat_dump() {
	name=$1 mode=$2 d=/tmp/dat-$1
	events='sched_switch sched_wakeup sys_sync myopen myopenret'
	rm -rf $d
	mkdir -p $d
	echo 1 > $K/tracing_on
	echo > $K/set_event
	kp='myopen myopenret' kpx='myopen 1\nmyopenret 1\n'
	if lacking kprobes; then
		# (the hardened kernel: markers only)
		kp= kpx=
		events='sched_switch sched_wakeup sys_sync'
	else
		echo > $K/kprobe_events
		echo 'p:myopen do_sys_openat2 dfd=$arg1:s32 fname=+0($arg2):ustring' >> $K/kprobe_events
		echo 'r:myopenret do_sys_openat2 ret=$retval:s32' >> $K/kprobe_events
	fi
	echo > $K/trace
	ls -d $K/per_cpu/cpu* | wc -l > $d/cpus
	printf "sched_switch 100\nsched_wakeup 1\nsys_sync 3\n$kpx" > $d/expect
	if [ "$mode" = owners ]; then
		# No sched_* events: each task's name comes from its own
		# records (their common_comm_id, through saved_comms), as no
		# prev_comm/next_comm names it.
		events="sys_sync $kp"
		printf "sys_sync 3\n$kpx" > $d/expect
	fi
	if [ "$mode" != live ]; then
		echo "$events" > $K/set_event
		[ "$mode" = owners ] || kmark-testprog pingpong 100 > /dev/null
		kmark-testprog sync 3
		cat /proc/version > /dev/null
		echo 0 > $K/tracing_on
		cat $K/trace > $d/trace.txt
		kmark record --keep -t 0.5 -o $d/trace.dat $events 2> $d/record.err
		st=$?
		echo 1 > $K/tracing_on
	else
		kmark record -t 4 -o $d/trace.dat $events 2> $d/record.err &
		rec=$!
		sleep 1
		kmark-testprog pingpong 100 > /dev/null
		kmark-testprog sync 3
		cat /proc/version > /dev/null
		wait $rec
		st=$?
		# a text recording, for Perfetto's checks
		kmark record -t 2 -o $d/record.txt sched_switch sched_wakeup 2>> $d/record.err &
		rec=$!
		sleep 1
		kmark-testprog pingpong 20 > /dev/null
		wait $rec
	fi
	echo > $K/set_event
	lacking kprobes || echo > $K/kprobe_events
	if [ "$st" = 0 ] && [ -s $d/trace.dat ]; then
		ok "kmark record -o trace.dat ($mode): $(wc -c < $d/trace.dat) bytes; $(cat $d/record.err | tr '\n' ' ')"
	else
		not_ok "kmark record -o trace.dat ($mode) exited $st: $(cat $d/record.err)"
	fi
	{
		echo "KMARK-DAT-BEGIN $name"
		(cd $d && tar -czf - *) | base64
		echo "KMARK-DAT-END $name"
	} > /dev/console
	rm -rf $d
}

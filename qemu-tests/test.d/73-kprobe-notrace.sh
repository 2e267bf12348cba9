#!/bin/sh
# needs: kprobes
# description: kprobe events on a kernel with DYNAMIC_FTRACE, as distribution kernels are built: kmark refuses a probe where ftrace's kprobe_events refuses it as notrace (review item 11), with the reason in error_log and nothing defined, and accepts what ftrace accepts, over a sample of kallsyms' functions (traceable, notrace, compiler clones judged by their origin); an entry probe at a function's mcount site is an ftrace-based kprobe, and kmark's entry and return events record right through it
. /tests/lib.sh
plan 10
T=/sys/kernel/tracing
mount -t tracefs nodev $T 2>/dev/null
if [ ! -e $T/available_filter_functions ] || [ ! -e $T/kprobe_events ]; then
	for i in 1 2 3 4 5 6 7 8 9 10; do
		skip "notrace $i" "no DYNAMIC_FTRACE in this kernel"
	done
	exit 0
fi
reset_kmark
echo > $K/kprobe_events
echo > $T/kprobe_events
NT="Could not probe notrace function (KPROBE_EVENTS_ON_NOTRACE allows it)"

# tracing_is_on is in kernel/trace, which the kernel builds without mcount
# calls: notrace for both tracers.
check_error "a probe on a notrace function is refused" kprobe_events \
	'p:kprobes/nt ^tracing_is_on' "$NT"
expect_eq "nothing was defined" "$(cat $K/kprobe_events)" ""
check "ftrace refuses it too" \
	sh -c "! echo 'p:kprobes/nt tracing_is_on' >> $T/kprobe_events 2>/dev/null"
dmesg | grep -q 'Could not probe notrace function tracing_is_on' ||
	diag "ftrace's reason was not in dmesg"

# A sample of the kernel's functions whose names are unique in kallsyms
# (a name that is not is another rule, ftrace's "not unique"), leaving
# out kmark's own, the ring buffer and the clocks (kmark refuses those as
# its recording path, ftrace as notrace: 71-kprobe-review checks them).
# Each is defined on both tracers and the verdicts compared.
F=/tmp/nt.$$
mkdir -p $F
grep -v '\[' /proc/kallsyms | awk '$2 ~ /^[tT]$/ { print $3 }' | sort > $F/all
uniq -u $F/all | grep -v -E '^(_*kmark_|ring_buffer_|_*rb_|trace_clock|sched_clock|native_sched_clock|local_clock)' \
	> $F/unique
sed 's/[[:space:]].*//' $T/available_filter_functions | sort -u > $F/traceable
# inlist FILE LIST / notinlist FILE LIST: LIST's lines (not) in FILE
inlist() { awk 'FILENAME == ARGV[1] { t[$0] = 1; next } ($0 in t)' "$@"; }
notinlist() { awk 'FILENAME == ARGV[1] { t[$0] = 1; next } !($0 in t)' "$@"; }
inlist $F/traceable $F/unique > $F/in
notinlist $F/traceable $F/unique > $F/out
grep -v '\.' $F/out > $F/plain_out
# Clones (foo.isra.0) without mcount calls of their own whose origin has
# them: judged by the origin, so both accept them; and clones whose
# origin is notrace (or only the clone exists): both refuse them.
grep '\.' $F/out > $F/clones
awk 'FILENAME == ARGV[1] { t[$0] = 1; next }
	{ o = $0; sub(/\..*/, "", o); print (o in t ? "ok" : "nt"), $0 }' \
	$F/traceable $F/clones > $F/clones.v
sed -n 's/^ok //p' $F/clones.v > $F/clone_ok
sed -n 's/^nt //p' $F/clones.v > $F/clone_nt
diag "$(wc -l < $F/in) traceable, $(wc -l < $F/plain_out) notrace," \
	"$(grep -c '\.' $F/in) traceable clones," \
	"$(wc -l < $F/clone_ok) clones without mcount calls of traceable functions," \
	"$(wc -l < $F/clone_nt) of notrace ones"
# every Nth name of a list, at most MAX of them
pick() {
	awk -v max="$2" '{ a[NR] = $0 } END {
		step = NR > max ? int(NR / max) : 1
		for (i = 1; i <= NR && n < max; i += step) { print a[i]; n++ } }' "$1"
}
{ pick $F/in 40; pick $F/plain_out 40; pick $F/clone_ok 10; pick $F/clone_nt 10; } > $F/sample

# verdict TRACER_DIR SYMBOL: "ok" or "refused"
verdict() {
	if echo "p:kprobes/ntcmp $2" >> "$1/kprobe_events" 2>/dev/null; then
		echo '-:kprobes/ntcmp' >> "$1/kprobe_events"
		echo ok
	else
		echo refused
	fi
}
diff= nk=0 nf=0 msg= n=0
while read -r s; do
	n=$((n + 1))
	echo > $K/error_log
	vk=$(verdict $K "$s")
	vf=$(verdict $T "$s")
	[ "$vk" = ok ] && nk=$((nk + 1))
	[ "$vf" = ok ] && nf=$((nf + 1))
	[ "$vk" = "$vf" ] || diff="$diff $s(kmark $vk, ftrace $vf)"
	if [ "$vk" = refused ] && [ "$vf" = refused ] &&
	   ! grep -qxF "$s" $F/in &&
	   ! grep -qF "$NT" $K/error_log; then
		msg="$msg $s($(tail -n 1 $K/error_log | sed 's/^ *//'))"
	fi
done < $F/sample
diag "$n functions tried: kmark accepted $nk, ftrace $nf"
check "the sample has traceable and notrace functions" \
	sh -c "[ $(pick $F/in 40 | wc -l) -ge 20 ] && [ $(pick $F/plain_out 40 | wc -l) -ge 20 ]"
expect_eq "kmark accepts and refuses what ftrace does" "${diff:-}" ""
expect_eq "a notrace function's refusal says why" "${msg:-}" ""
expect_eq "nothing is left defined" "$(cat $K/kprobe_events)$(cat $T/kprobe_events)" ""
rm -rf $F

# At a traceable function's entry kprobes uses ftrace's call site
# (KPROBES_ON_FTRACE) instead of an int3: kmark's handlers run from ftrace.
echo 'p:kprobes/ftop do_sys_openat2 fname=+0($arg2):ustring' > $K/kprobe_events
echo 'r:kprobes/ftret do_sys_openat2 ret=$retval:s32' >> $K/kprobe_events
check "the entry probe is ftrace-based" \
	grep -q ' k  *do_sys_openat2+0x0 .*\[FTRACE\]' /sys/kernel/debug/kprobes/list
grep do_sys_openat2 /sys/kernel/debug/kprobes/list | sed 's/^/# kprobes\/list: /'
echo 'kprobes:ftop kprobes:ftret' > $K/set_event
echo > $K/trace
cat /tests/lib.sh > /dev/null
echo > $K/set_event
# cat's entry event, then the return event of the same task
awk '/ftop: .*fname="\/tests\/lib.sh"/ && !p { p = $1; print; next }
	p && $1 == p && /ftret:/ { print; exit }' $K/trace > /tmp/ft.$$
check "the entry event has the function and the file name" \
	grep -q 'ftop: (do_sys_openat2+0x0/0x[0-9a-f]*) fname="/tests/lib.sh"$' /tmp/ft.$$
check "the same task's return event has a descriptor" \
	grep -q 'ftret: (.* <- do_sys_openat2) ret=[0-9][0-9]*$' /tmp/ft.$$
sed 's/^/# /' /tmp/ft.$$
[ -s /tmp/ft.$$ ] || tail -n 5 $K/trace | sed 's/^/# trace: /'
rm -f /tmp/ft.$$
echo > $K/kprobe_events

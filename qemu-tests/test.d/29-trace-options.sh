#!/bin/sh
# description: trace_options as ftrace's (NAME or noNAME, one per line, as options/ has them; a write of one sets it, per instance; a bad name changes nothing and says why), an option file takes back what it read (event-fork's comment line), ftrace:kernel_stack has ftrace's format and records only the frames it holds, and saved_cmdlines_size and printk_formats are there for the tools that read them
. /tests/lib.sh
plan 22
reset_kmark
echo 0 > $K/options/stacktrace
echo 0 > $K/options/event-fork

# lines: trace_options as options/ has it, in the same order as ftrace's
# file lists its own (the names of options/, sorted).
lines() {
	for o in $(ls $1/options); do
		if [ "$(head -n 1 $1/options/$o)" = 1 ]; then echo "$o"; else echo "no$o"; fi
	done
}
expect_eq "trace_options reads NAME or noNAME for each file of options/" \
	"$(sort $K/trace_options)" "$(lines $K | sort)"
# trace-cmd's "-O noNAME" reset looks for NAME in the file and loops while
# the first place it finds is not a line of its own.
dup=
for o in $(sed 's/^no//' $K/trace_options); do
	[ "$(grep -n -- "$o" $K/trace_options | head -n 1 | cut -d: -f2 | sed 's/^no//')" = "$o" ] ||
		dup="$dup $o"
done
expect_eq "no option's name is found first inside another option's line" "$dup" ""

echo stacktrace > $K/trace_options
expect_eq "'echo stacktrace > trace_options' sets options/stacktrace" \
	"$(cat $K/options/stacktrace) $(grep -x stacktrace $K/trace_options)" "1 stacktrace"
printf nostacktrace > $K/trace_options
expect_eq "'noNAME' without a newline (trace-cmd's write) clears it" \
	"$(cat $K/options/stacktrace) $(grep -x nostacktrace $K/trace_options)" "0 nostacktrace"
before=$(cat $K/trace_options)
check_error "an unknown option is refused, with the option in error_log" trace_options \
	'no^userstacktrace' 'Unknown option: kmark has event-fork, overwrite and stacktrace (each may take no in front)'
check_error "'no' alone is refused" trace_options 'no^' \
	'Unknown option: kmark has event-fork, overwrite and stacktrace (each may take no in front)'
expect_eq "and the refused writes changed nothing" "$(cat $K/trace_options)" "$before"

inst_new to
echo event-fork > $K/instances/to/trace_options
expect_eq "an instance's trace_options is its own" \
	"$(grep -x event-fork $K/instances/to/trace_options) $(grep -c -x event-fork $K/trace_options) $(cat $K/instances/to/options/event-fork)" \
	"event-fork 0 1"
inst_rm to

# What a read of an option gave is taken back (trace-cmd writes the old
# content back at its end): event-fork's "# N children not followed".
echo 1 > $K/options/event-fork
check "options/event-fork takes back '0' with its comment line" \
	sh -c "printf '0\n# 3 children not followed\n' > $K/options/event-fork"
expect_eq "and is 0" "$(head -n 1 $K/options/event-fork)" 0
echo > $K/error_log
check "two numbers are still refused, with kmark's reason" \
	sh -c "[ -w $K/options/event-fork ] && ! printf '1\n0\n' > $K/options/event-fork 2>/dev/null && grep -q 'An option takes 1 (on) or 0 (off)' $K/error_log"

# The other files trace-cmd reads: saved_cmdlines_size (saved_cmdlines'
# lines, fixed: a line per pid below pid_max's default, 32768 without
# BASE_SMALL as make check's kernels, and 1024 more; only that number is
# taken) and printk_formats (empty).
n=$(cat $K/saved_cmdlines_size)
expect_eq "saved_cmdlines_size reads saved_cmdlines' lines" "$n" 33792
check "and takes that number back (trace-cmd writes what it read)" sh -c "echo $n > $K/saved_cmdlines_size"
check_error "another size is refused, with the reason in error_log" saved_cmdlines_size \
	'^1024' "saved_cmdlines has a line per pid up to pid_max's default and 1024 more, fixed at build: its size is what saved_cmdlines_size reads"
expect_eq "printk_formats is there and empty (kmark has no trace_printk formats)" \
	"$(test -r $K/printk_formats && echo readable) $(wc -c < $K/printk_formats)" "readable 0"

# ftrace:kernel_stack: ftrace's format, field for field (the offsets are
# kmark's: its header has common_comm_id).
F=$K/events/ftrace/kernel_stack/format
long=$(sed -n 's/.*field:unsigned long caller\[8\];.*size:\([0-9]*\);.*/\1/p' $F)
expect_eq "events/ftrace/kernel_stack/format: int size and unsigned long caller[8], as ftrace's" \
	"$(grep -c 'field:int size;' $F) $long$([ -e $K/events/kmark/kernel_stack ] && echo ' and kmark:kernel_stack')" \
	"1 $(case $(uname -m) in x86_64|aarch64) echo 64 ;; *) echo 32 ;; esac)"
expect_eq "its print fmt: ftrace's eight '\\t=> %ps\\n'" \
	"$(grep '^print fmt:' $F | grep -o '\\t=> %ps\\n' | wc -l) $(grep -o 'REC->caller\[[0-9]\]' $F | wc -l)" "8 8"
# Where ftrace is there too, its own file: the same but for the ID, the
# offsets and the common fields (kmark's header is its own).
FF=/sys/kernel/tracing/events/ftrace/kernel_stack/format
strip() { grep -v 'common_\|^ID:' "$1" | sed 's/offset:[0-9]*;//'; }
if [ -e $FF ]; then
	expect_eq "kernel_stack's format is ftrace's file, but for the ID, the offsets and the header" \
		"$(strip $F)" "$(strip $FF)"
else
	skip "kernel_stack's format is ftrace's file, but for the ID, the offsets and the header" "no ftrace in this kernel"
fi

# A stack's frames are the record's: as many ' => ' lines as it holds
# (size), no padding. The trace line is ftrace's: no event name before it.
echo sys_sync > $K/set_event
echo 1 > $K/options/stacktrace
sync
echo 0 > $K/options/stacktrace
echo > $K/set_event
n=$(awk '/: <stack trace>$/ { s = 1; next } s && /^ => / { n++; next } { s = 0 } END { print n + 0 }' $K/trace)
z=$(grep -cE '^ => (0x0*|0)$' $K/trace)
check "a stack's trace line is '...: <stack trace>' (no event name), then its frames, none of them 0 (n=$n)" \
	sh -c "[ $n -gt 0 ] && [ $z = 0 ] && grep -q ' [0-9]*\.[0-9]*: <stack trace>$' $K/trace"
ev=$(grep ' sys_sync:' $K/trace | tail -n 1 | awk '{ print $3 }')
st=$(grep ': <stack trace>$' $K/trace | tail -n 1 | awk '{ print $3 }')
check "the stack line has its event's flags and preemption depth ('$st', the event's '$ev'), as ftrace's" \
	sh -c "[ -n '$ev' ] && [ '$st' = '$ev' ]"
expect_eq "ftrace:kernel_stack has ftrace's files: no filter, trigger or hist (nothing would apply them)" \
	"$(ls $K/events/ftrace/kernel_stack | tr '\n' ' ')" "format id "
# A stack taken inside another's scan on the same CPU and context level
# (a kprobe on the unwinder, which an ftrace-based or optimized probe hits
# at its caller's level) gets no frames rather than putting the nested
# probe's into the outer stack (review K5). Where the probe is an int3
# one (the stress kernels: no optimizer), the levels differ and both
# stacks are whole.
if lacking kprobes; then
	skip "a stack taken inside another's scan does not mix its frames into it" "no kprobes in this kernel"
else
	reset_kmark
	unw=$(grep -m 1 -oE ' (unwind_next_frame|arch_stack_walk)$' /proc/kallsyms 2>/dev/null | tr -d ' ')
	if [ -n "$unw" ] && echo "p:kprobes/kmunw $unw" >> $K/kprobe_events; then
		inst_new nest
		echo 1 > $K/instances/nest/options/stacktrace
		echo kprobes:kmunw > $K/instances/nest/set_event
		echo 1 > $K/options/stacktrace
		echo sys_sync > $K/set_event
		sleep 1	# (the kprobe optimizer's delay)
		sync; sync
		echo 0 > $K/options/stacktrace
		echo > $K/set_event
		echo > $K/instances/nest/set_event
		mixed=$(grep -c "=> $unw\$" $K/trace)
		check "a stack taken inside another's scan does not mix its frames into it ($unw: $mixed frames of it in the outer stacks; $(grep -c ': kmunw:' $K/instances/nest/trace) nested events)" \
			sh -c "[ $mixed = 0 ] && grep -q ': <stack trace>' $K/trace"
		inst_rm nest
		echo "-:kprobes/kmunw" >> $K/kprobe_events
	else
		skip "a stack taken inside another's scan does not mix its frames into it" "no unwinder function to probe in this kernel"
	fi
fi
reset_kmark

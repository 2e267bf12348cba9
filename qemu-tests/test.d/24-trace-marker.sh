#!/bin/sh
# description: trace_marker as ftrace's: a write records 'tracing_mark_write: TEXT' with the writer's task, pid and CPU in ftrace's line layout; Perfetto's atrace lines verbatim; a long write is split by partial writes and nothing is lost; EBADF while tracing is off; its event is ftrace's ftrace:print; its filter; not an event of set_event; a task name with a newline stays on its line, escaped
. /tests/lib.sh
plan 14
reset_kmark
M=$K/trace_marker

sh -c 'echo "hello from $$" > '$M'; echo "B|$$|kmark slice" > '$M'; echo "E|$$" > '$M'; echo $$ > /tmp/tm.pid'
pid=$(cat /tmp/tm.pid)
kmark-testprog drain $K/trace_pipe > /tmp/tm.txt
line=$(grep 'tracing_mark_write: hello' /tmp/tm.txt)
case "$line" in
*"sh-$pid "*" ["[0-9][0-9][0-9]"] "?????" "*[0-9].[0-9][0-9][0-9][0-9][0-9][0-9]": tracing_mark_write: hello from $pid") ok "the line: the writer's task and pid, ftrace's layout" ;;
*) not_ok "the line: the writer's task and pid, ftrace's layout"; diag "$line" ;;
esac
expect_eq "atrace's begin and end lines, verbatim and in order" \
	"$(sed -n 's/.*tracing_mark_write: //p' /tmp/tm.txt | sed -n '2,3p' | tr '\n' ' ')" \
	"B|$pid|kmark slice E|$pid "

# 5000 bytes in one write(): at most 3968 an event (ftrace: 4096; a text
# line must fit in a page), the rest by the next write of the writer's
# loop (dd's); every byte arrives.
head -c 5000 /dev/zero | tr '\0' x > /tmp/tm.big
dd if=/tmp/tm.big of=$M bs=5000 count=1 2> /dev/null
kmark-testprog drain $K/trace_pipe > /tmp/tm.txt
n=$(grep -c 'tracing_mark_write: x' /tmp/tm.txt)
bytes=$(sed -n 's/.*tracing_mark_write: \(x*\)$/\1/p' /tmp/tm.txt | tr -d '\n' | wc -c)
diag "5000 bytes written: $n events, $bytes bytes"
expect_eq "a 5000-byte write: two events, all 5000 bytes" "$n $bytes" "2 5000"
check "no event longer than 3968 bytes" \
	sh -c "! sed -n 's/.*tracing_mark_write: //p' /tmp/tm.txt | grep -q '.\{3969\}'"

echo 0 > $K/tracing_on
err=$(echo lost 2>&1 > $M)
case "$err" in
*"Bad file descriptor"*) ok "tracing off: the write fails with EBADF" ;;
*) not_ok "tracing off: the write fails with EBADF"; diag "$err" ;;
esac
echo 1 > $K/tracing_on

echo 'buf ~ "keep*"' > $K/events/ftrace/print/filter
echo keep one > $M; echo drop two > $M; echo keep three > $M
echo 0 > $K/events/ftrace/print/filter
kmark-testprog drain $K/trace_pipe > /tmp/tm.txt
expect_eq "its filter: only what matches" \
	"$(sed -n 's/.*tracing_mark_write: //p' /tmp/tm.txt | tr '\n' ' ')" "keep one keep three "
check "not in available_markers" sh -c "! grep -q 'print' $K/available_markers"
check "not an event of set_event" sh -c "! echo ftrace:print > $K/set_event"
check "its format file: ftrace's event print, the string field buf" \
	sh -c "grep -qx 'name: print' $K/events/ftrace/print/format &&
	       grep -q 'field:__data_loc char\[\] buf;' $K/events/ftrace/print/format"

# A task renames itself many times (echo NAME > /proc/PID/comm keeps the
# newline), the trace is cleared, it takes the name 'zzfinal\n' and writes
# one line: that line shows its name, escaped, on the same line (ftrace
# prints a name raw: its line splits in two). saved_cmdlines and
# saved_comms (which kmark record reads a line at a time) escape it too.
echo > $K/trace
sh -c 'i=0; while [ $i -lt 2000 ]; do printf "n$i" > /proc/$$/comm; echo "r$i" > '$M'; i=$((i + 1)); done
       echo > '$K'/trace; echo zzfinal > /proc/$$/comm; echo "finalmark $$" > '$M'; echo $$ > /tmp/tm.pid'
pid=$(cat /tmp/tm.pid)
cat $K/trace > /tmp/tm.txt
check "the renamed task's line shows its name escaped, on that line" \
	grep -qF "zzfinal\\012-$pid " /tmp/tm.txt
expect_eq "and no line of the trace is a name's half" \
	"$(grep -v '^#' /tmp/tm.txt | grep -cv ': tracing_mark_write: ')" "0"
check "saved_cmdlines: its name escaped" grep -qxF "$pid zzfinal\\012" $K/saved_cmdlines
expect_eq "saved_comms: one name a line (id, then the name, escaped)" \
	"$(grep -v '^#' $K/saved_comms | grep -cvE '^[0-9]+ [^ ].*$|^[0-9]+ $')" "0"

# A task renamed A, B, then A again, recording on CPU 0, CPU 1, then CPU 0
# again: saved_cmdlines (trace-cmd's names for every record of the pid)
# has its last name, A, not the name another CPU noted last (review K7:
# CPU 0's guess for A still held). One CPU: the same moves, on CPU 0.
cpus=1
[ "$(cat /sys/devices/system/cpu/online)" = 0 ] || cpus=2
sh -c 'printf kmrenA > /proc/$$/comm; taskset -p 1 $$ > /dev/null; echo a > '$M'
       printf kmrenB > /proc/$$/comm; taskset -p '$cpus' $$ > /dev/null; echo b > '$M'
       printf kmrenA > /proc/$$/comm; taskset -p 1 $$ > /dev/null; echo c > '$M'
       echo $$ > /tmp/ren.pid'
pid=$(cat /tmp/ren.pid)
expect_eq "saved_cmdlines names a task renamed back and forth across CPUs by its last name" \
	"$(sed -n "s/^$pid //p" $K/saved_cmdlines)" kmrenA
reset_kmark

#!/bin/sh
# description: tracing_cpumask as ftrace's: a CPU left out records nothing and loses nothing (no dropped events, no LOST line: its hits are not hits), the CPUs left in record as before, a bad mask is EINVAL and changes nothing, and the whole mask back records everywhere
. /tests/lib.sh
if [ "$(nproc)" -lt 2 ]; then
	# skips.py expects this skip on the single-CPU kernel only.
	plan 1
	skip "a CPU left out of tracing_cpumask" "one CPU: nothing to leave out"
	exit 0
fi
plan 9
reset_kmark
S=$K/per_cpu/cpu1/stats
stat() { sed -n "s/^$2: //p" "$1"; }

full=$(cat $K/tracing_cpumask)
echo 1 > $K/tracing_cpumask
expect_eq "the mask reads back as written" "$(cat $K/tracing_cpumask)" "1"
taskset 2 sh -c 'for i in 1 2 3 4 5; do echo on1 $i > '$K'/trace_marker; done'
taskset 1 sh -c 'for i in 1 2 3 4 5; do echo on0 $i > '$K'/trace_marker; done'
expect_eq "CPU 0 (in the mask) recorded its 5 marks" \
	"$(grep -c 'tracing_mark_write: on0 ' $K/trace)" 5
expect_eq "CPU 1 (out of the mask) recorded none" \
	"$(grep -c 'tracing_mark_write: on1 ' $K/trace)" 0
expect_eq "CPU 1 counted nothing dropped and nothing written" \
	"$(stat $S 'dropped events') $(stat $S written)" "0 0"
check "trace_pipe shows no LOST line" \
	sh -c "! timeout 2 cat $K/trace_pipe | grep -q LOST"
check_error "a mask that is not hex" tracing_cpumask '^xyz' "tracing_cpumask takes a hex CPU mask (3: CPUs 0 and 1)"
expect_eq "the failed write left the mask as it was" "$(cat $K/tracing_cpumask)" "1"
echo "$full" > $K/tracing_cpumask
taskset 2 sh -c 'echo back1 > '$K'/trace_marker'
check "the whole mask back: CPU 1 records again" grep -q 'tracing_mark_write: back1' $K/trace
reset_kmark

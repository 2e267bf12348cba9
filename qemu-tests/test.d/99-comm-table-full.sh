#!/bin/sh
# description: the table of task names cannot be exhausted (review item 4): 6000 new names (the table holds 4096), one trace_marker event each; every event recorded and every one got an id (no new "records without a saved name"), no line ever names a task wrongly, the last names all render theirs, a <...> line is one whose name an older era gave up (counted as taken over), and a task named afterwards is named right
. /tests/lib.sh
plan 9
reset_kmark
echo 2048 > $K/buffer_size_kb
counter() { sed -n "s/^# \([0-9]*\) $1.*/\1/p" $K/saved_comms; }
missed0=$(counter 'records without a saved name'); missed0=${missed0:-0}
taken0=$(counter 'names of earlier eras taken over'); taken0=${taken0:-0}
n=6000
taskset 1 kmark-testprog names $n $K/trace_marker
rc=$?
expect_eq "the writer ran" "$rc" 0
cat $K/trace | grep 'tracing_mark_write: kmn' > /tmp/ct.txt
# "  TASK-PID  [CPU] FLAGS TS: tracing_mark_write: kmnI": TASK and kmnI
sed 's/^ *\(.*\)-[0-9]* *\[[0-9]*\].*tracing_mark_write: \(kmn[0-9]*\)$/\1 \2/' /tmp/ct.txt > /tmp/ct.pairs
lost=$(( $(cat $K/per_cpu/cpu*/stats | sed -n 's/^overrun: //p' | awk '{ s += $1 } END { print s + 0 }') + \
	 $(cat $K/per_cpu/cpu*/stats | sed -n 's/^dropped events: //p' | awk '{ s += $1 } END { print s + 0 }') ))
expect_eq "all $n events recorded, none lost" "$(wc -l < /tmp/ct.pairs) $lost" "$n 0"
wrong=$(awk '$1 != "<...>" && $1 != $2' /tmp/ct.pairs | wc -l)
expect_eq "no line names a task wrongly" "$wrong" 0
[ "$wrong" = 0 ] || diag "$(awk '$1 != "<...>" && $1 != $2' /tmp/ct.pairs | head -3)"
unnamed=$(grep -c '^<\.\.\.> ' /tmp/ct.pairs)
diag "$unnamed of $n records without a name now; $(grep '^#' $K/saved_comms | tr '\n' ' ')"
expect_eq "every name got an id: no new records without one" \
	"$(( $(counter 'records without a saved name') + 0 - missed0 ))" 0
expect_eq "the last 1000 names all render" \
	"$(tail -n 1000 /tmp/ct.pairs | grep -c '^<\.\.\.> ')" 0
taken=$(( $(counter 'names of earlier eras taken over') + 0 - taken0 ))
check "each <...> line's name was taken over by a newer one ($taken taken over, $unnamed <...>)" \
	[ "$taken" -ge "$unnamed" ]
# The table's names against the trace: a <...> name is not in it, every
# named line's is; and no id is given twice.
grep -v '^#' $K/saved_comms > /tmp/ct.saved
bad=$(awk 'NR == FNR { saved[$2] = 1; next }
	   $1 == "<...>" && ($2 in saved) { b++ }
	   $1 != "<...>" && !($2 in saved) { b++ }
	   END { print b + 0 }' /tmp/ct.saved /tmp/ct.pairs)
expect_eq "<...> exactly where the name is not in saved_comms" "$bad" 0
expect_eq "saved_comms gives no id twice" "$(cut -d' ' -f1 /tmp/ct.saved | sort | uniq -d | wc -l)" 0
# The table took them all and still names a new task.
echo > $K/trace
sh -c 'printf kmafter > /proc/self/comm; echo after > '$K'/trace_marker'
check "a task named after the flood is named in its line" \
	grep -q '^ *kmafter-[0-9]* .*tracing_mark_write: after$' $K/trace
echo 1408 > $K/buffer_size_kb

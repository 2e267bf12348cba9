#!/bin/sh
# description: saved_comms when the table of task names is full: 6000 names (the table holds 4096), one trace_marker event each; every event recorded, each line names its task or says <...>, never a wrong name; the <...> records are the ones counted on saved_comms' last line, and their names are not in the table. Last in the suite: the table stays full for the rest of the boot.
. /tests/lib.sh
plan 7
reset_kmark
echo 2048 > $K/buffer_size_kb
before=$(sed -n 's/^# \([0-9]*\) records without a saved name$/\1/p' $K/saved_comms)
before=${before:-0}
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
diag "$unnamed of $n records without a name"
check "the table filled: at least $((n - 4096)) records say <...>" [ "$unnamed" -ge $((n - 4096)) ]
after=$(sed -n 's/^# \([0-9]*\) records without a saved name$/\1/p' $K/saved_comms)
expect_eq "saved_comms counts each of them on its last line" "$(( ${after:-0} - before ))" "$unnamed"
# The table's names against the trace: a <...> name is not in it, every
# named line's is; and no id is given twice.
grep -v '^#' $K/saved_comms > /tmp/ct.saved
bad=$(awk 'NR == FNR { saved[$2] = 1; next }
	   $1 == "<...>" && ($2 in saved) { b++ }
	   $1 != "<...>" && !($2 in saved) { b++ }
	   END { print b + 0 }' /tmp/ct.saved /tmp/ct.pairs)
expect_eq "<...> exactly where the name is not in saved_comms" "$bad" 0
expect_eq "saved_comms gives no id twice" "$(cut -d' ' -f1 /tmp/ct.saved | sort | uniq -d | wc -l)" 0
echo 1408 > $K/buffer_size_kb

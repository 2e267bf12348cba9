#!/bin/sh
# description: hist tables against the trace of the same run: a hist keyed by prev_pid and one by common_pid.execname on sched_switch count, for every task that lived only during the run, exactly the switches an instance recorded (nothing dropped); log2 and buckets of a kprobe argument and of a u64 marker field equal those computed from the recorded values; histogram.rst's wakeup_latency pairing fires once per wakeup followed by a switch-in of that pid in the trace, with non-negative latencies
. /tests/lib.sh
plan 13
reset_kmark
echo > $K/kprobe_events
echo > $K/synthetic_events
E=$K/events
I=$K/instances/hx
inst_rm hx 2>/dev/null
inst_new hx
SW=$E/sched/sched_switch
tot() { sed -n "s/^    $2: //p" "$1"; }
# lost DIR: events of DIR's buffer overwritten or dropped so far (the
# dropped count starts with the hits KUnit's test made where RCU does not
# watch, shown in every instance); nodrops DIR: none since mark DIR.
lost() {
	cat "$1"/per_cpu/cpu*/stats |
		awk '/^(overrun|dropped events): / { s += $NF } END { print s + 0 }'
}
mark() { lost "$1" > /tmp/hx.lost.$(basename "$1"); }
nodrops() { [ "$(lost "$1")" = "$(cat /tmp/hx.lost.$(basename "$1"))" ]; }

# --- Counts per task: the top instance's hists, hx's trace ----------------
# The hists go on first and stop last: every task counts at least what the
# trace has, and a task born and dead in between exactly as much.
echo 'hist:keys=prev_pid' > $SW/trigger
echo 'hist:keys=common_pid.execname' >> $SW/trigger
echo sched_switch > $I/set_event
mark $I
: > /tmp/hx.pids
for w in "30 kmxa kmxb 0" "45 kmxc kmxd 1" "60 kmxe kmxf 0" "75 kmxg kmxh 1"; do
	# shellcheck disable=SC2086
	kmark-testprog pingpong $w >> /tmp/hx.pids &
done
wait
# A task's last switch (to zombie) may come after its parent's wait.
sleep 1
echo 0 > $I/tracing_on
echo 'hist:keys=prev_pid:pause' >> $SW/trigger
echo 'hist:keys=common_pid.execname:pause' >> $SW/trigger
pids=$(sed 's/[a-z]*=//g' /tmp/hx.pids)
cat $I/trace > /tmp/hx.trace
cat $SW/hist > /tmp/hx.hist
nodrops_hist() {
	nodrops $I && [ "$(grep -c '^    Dropped: 0$' /tmp/hx.hist)" = 2 ] && return
	diag "lost: $(cat /tmp/hx.lost.hx) before, $(lost $I) after"
	diag "$(grep -e Hits -e Dropped /tmp/hx.hist | tr '\n' ' ')"
	return 1
}
check "the instance lost nothing, the hists dropped nothing" nodrops_hist
# PID COUNT lines, sorted.
sed -n 's/.* sched_switch: .* prev_pid=\([0-9]*\) .*/\1/p' /tmp/hx.trace |
	sort -n | uniq -c | awk '{ print $2, $1 }' > /tmp/hx.t.prev
awk '/^# trigger info: hist:keys=prev_pid:/ { p = 1; next }
     /^# trigger info:/ { p = 0 }
     p && /^\{ prev_pid:/ { gsub(/[{}:]/, " "); print $2, $4 }' /tmp/hx.hist |
	sort -n > /tmp/hx.h.prev
# PID COMM COUNT, from the TASK-PID column (the comm of the pid's first
# line) and from the execname table.
sed -n 's/^ *\(.*\)-\([0-9]*\) *\[[0-9]*\] .* sched_switch: .*/\2 \1/p' /tmp/hx.trace |
	awk '{ pid = $1; sub(/^[0-9]+ /, ""); if (!(pid in c)) { first[pid] = $0; c[pid] = 0 }
	       c[pid]++ } END { for (p in c) print p, first[p], c[p] }' |
	sort -n > /tmp/hx.t.exec
sed -n 's/^{ common_pid: \(.\{16\}\)\[ *\([0-9]*\)\] } hitcount: *\([0-9]*\)$/\2 \1 \3/p' /tmp/hx.hist |
	sed 's/  *\([0-9]*\)$/ \1/' | sort -n > /tmp/hx.h.exec
n=0
for p in $pids; do n=$((n + $(awk -v p=$p '$1 == p { print $2 }' /tmp/hx.t.prev))); done
diag "$(wc -l < /tmp/hx.t.prev) tasks switched out in the trace, $n switches by the 8 ping-pong tasks"
check "the 8 ping-pong tasks switched (80 or more switches)" [ "$n" -ge 80 ]
# same PIDS T H FIELDS: for each pid of PIDS, the lines of T and H agree
# (H's line must be there and equal); prints the first difference.
same() {
	for p in $1; do
		a=$(awk -v p=$p '$1 == p' "$2") b=$(awk -v p=$p '$1 == p' "$3")
		[ -n "$a" ] && [ "$a" = "$b" ] && continue
		diag "pid $p: trace '$a', hist '$b'"
		return 1
	done
}
check "keys=prev_pid: each ping-pong task's count is the trace's" same "$pids" /tmp/hx.t.prev /tmp/hx.h.prev
check "keys=common_pid.execname: each one's count and first name are the trace's" \
	same "$pids" /tmp/hx.t.exec /tmp/hx.h.exec
# at_least T H: every pid of the trace has at least its count in the hist
# (the hists ran a little longer on both sides).
at_least() {
	awk 'NR == FNR { h[$1] = $NF; next } !($1 in h) || h[$1] < $NF { print "pid " $1 ": trace " $NF ", hist " h[$1]; bad = 1 } END { exit bad }' \
		"$2" "$1" > /tmp/hx.bad && return 0
	diag "$(head -n 3 /tmp/hx.bad)"
	return 1
}
check "every other task: the hist has at least the trace's count (idle, kworkers, sh...)" \
	at_least /tmp/hx.t.prev /tmp/hx.h.prev
echo '!hist:keys=prev_pid' >> $SW/trigger
echo '!hist:keys=common_pid.execname' >> $SW/trigger
echo > $I/set_event
echo > $I/trace
echo 1 > $I/tracing_on

# --- log2 and buckets: values the test chooses, hist and trace of each ----
# A kprobe argument (u32) and a u64 marker field (kmark_test_val v=%llu):
# 0, powers of two and their neighbours, on both sides of 2^32 for the u64.
if lacking modules || lacking kprobes; then
	for t in "the trace has the 30 kprobe hits and the 20 marker hits" \
		 "kprobe u32 n.log2 and n.buckets=1000" "marker u64 v.log2 and v.buckets=1000000"; do
		skip "$t" "no modules or kprobes in this kernel (the test module's kprobe and marker)"
	done
else
	mod=/lib/modules/$(uname -r)/extra/kmark_test.ko
	insmod $mod
	echo 'p:kprobes/hv kmark_test:kmark_test_fn n=$arg1:u32' > $K/kprobe_events
	V=$E/kprobes/hv
	MV=$E/kmark_test/kmark_test_val
	D=/sys/kernel/debug/kmark_test
	echo 'hist:keys=n.log2' > $V/trigger
	echo 'hist:keys=n.buckets=1000' >> $V/trigger
	echo 'hist:keys=v.log2' > $MV/trigger
	echo 'hist:keys=v.buckets=1000000' >> $MV/trigger
	echo 'kprobes/hv kmark_test:kmark_test_val' > $I/set_event
	mark $I
	for v in 0 1 2 3 4 5 7 8 9 15 16 17 100 999 1000 1001 1023 1024 1025 4095 4096 4097 \
		65535 65536 65537 1000000 2147483647 -2147483648 -1 -2; do
		echo $v > $D/call
	done
	for v in 0 1 2 3 1023 1024 1025 4294967295 4294967296 4294967297 8589934591 \
		8589934592 1099511627775 1099511627776 1099511627777 4503599627370495 \
		4503599627370496 4503599627370497 3000000 2999999; do
		echo $v > $D/val
	done
	cat $I/trace > /tmp/hv.trace
	# The value's bucket: log2 is the power of two it rounds up to (0 for 0),
	# buckets=N its multiple of N below. Exact in awk's doubles below 2^53.
	buckets() { # FIELD EVENT
		sed -n "s/.* $2: .*$1=\([0-9]*\).*/\1/p" /tmp/hv.trace |
			awk '{ v = $1 + 0; k = 0; p = 1; while (p < v) { p *= 2; k++ }
			       print "log2", k; print "b", int(v / N) * N }' N=$3 |
			sort | uniq -c | awk '{ print $2, $3, $1 }' | sort
	}
	# From the hist file: KIND BUCKET COUNT.
	table() { # HIST FIELD
		sed -n "s/^{ $2: ~ 2^\([0-9]*\) *} hitcount: *\([0-9]*\)$/log2 \1 \2/p
			s/^{ $2: ~ \([0-9]*\)-[0-9]* *} hitcount: *\([0-9]*\)$/b \1 \2/p" "$1" | sort
	}
	buckets n hv 1000 > /tmp/hv.t.n
	table $V/hist n > /tmp/hv.h.n
	buckets v kmark_test_val 1000000 > /tmp/hv.t.v
	table $MV/hist v > /tmp/hv.h.v
	diag "kprobe n: $(grep -c . /tmp/hv.t.n) buckets; u64 v: $(grep -c . /tmp/hv.t.v) buckets"
	all_hits() {
		nodrops $I &&
			[ "$(grep -c ' hv: ' /tmp/hv.trace) $(grep -c ' kmark_test_val: ' /tmp/hv.trace)" = "30 20" ]
	}
	check "the trace has the 30 kprobe hits and the 20 marker hits, nothing lost" all_hits
	# cmp_table NAME T H
	cmp_table() {
		if [ -s "$2" ] && cmp -s "$2" "$3"; then
			ok "$1"
		else
			not_ok "$1"
			diff "$2" "$3" | head -n 8 | sed 's/^/# /'
		fi
	}
	cmp_table "kprobe u32 n.log2 and n.buckets=1000: the trace's buckets and counts" /tmp/hv.t.n /tmp/hv.h.n
	cmp_table "marker u64 v.log2 and v.buckets=1000000 (values past 2^32): the trace's" /tmp/hv.t.v /tmp/hv.h.v
	echo > $I/set_event
	echo '!hist:keys=n.log2' >> $V/trigger
	echo '!hist:keys=n.buckets=1000' >> $V/trigger
	echo '!hist:keys=v.log2' >> $MV/trigger
	echo '!hist:keys=v.buckets=1000000' >> $MV/trigger
	echo > $K/kprobe_events
	rmmod kmark_test
fi

# --- wakeup_latency (histogram.rst) on kmark's markers --------------------
# Unfiltered, as the document's first form: every task's wakeups. In the
# trace, a switch-in of pid P fires the synthetic event when a wakeup of P
# came since P was last switched in (the hist variable is read once).
W=$E/sched/sched_wakeup
echo 'wakeup_latency u64 lat; pid_t pid; char comm[16]' > $K/synthetic_events
echo 'hist:keys=pid:ts0=common_timestamp.usecs' > $W/trigger
echo 'hist:keys=next_pid:wakeup_lat=common_timestamp.usecs-$ts0:onmatch(sched.sched_wakeup).trace(wakeup_latency,$wakeup_lat,next_pid,next_comm)' > $SW/trigger
echo 'hist:keys=pid' > $E/synthetic/wakeup_latency/trigger
echo > $K/trace
echo 'sched_wakeup sched_switch synthetic:wakeup_latency' > $K/set_event
mark $K
: > /tmp/hl.pids
kmark-testprog pingpong 100 kmla kmlb 0 >> /tmp/hl.pids &
kmark-testprog pingpong 100 kmlc kmld 1 >> /tmp/hl.pids &
wait
sleep 1
echo 0 > $K/tracing_on
cat $K/trace > /tmp/hl.trace
pids=$(sed 's/[a-z]*=//g' /tmp/hl.pids)
# PID WANTED (from the sched events) and PID GOT (synthetic records).
awk 'function f(name,   s) { if (!match($0, " " name "=[0-9]+")) return ""
			     s = substr($0, RSTART + length(name) + 2, RLENGTH - length(name) - 2); return s }
     / sched_wakeup: / { pend[f("pid")] = 1 }
     / sched_switch: / { p = f("next_pid"); if (pend[p]) { want[p]++; delete pend[p] } }
     / wakeup_latency: / { got[f("pid")]++ }
     END { for (p in want) print "want", p, want[p]; for (p in got) print "got", p, got[p] }' \
	/tmp/hl.trace > /tmp/hl.counts
pairs=0 bad=
for p in $pids; do
	w=$(awk -v p=$p '$1 == "want" && $2 == p { print $3 }' /tmp/hl.counts)
	g=$(awk -v p=$p '$1 == "got" && $2 == p { print $3 }' /tmp/hl.counts)
	h=$(sed -n "s/^{ pid: *$p } hitcount: *\([0-9]*\)$/\1/p" $E/synthetic/wakeup_latency/hist)
	w=${w:-0} g=${g:-0} h=${h:-0}
	pairs=$((pairs + w))
	[ "$w" = "$g" ] && [ "$w" = "$h" ] || bad="$bad pid $p: want $w, recorded $g, hist $h;"
done
lats=$(sed -n 's/.* wakeup_latency: lat=\([0-9]*\) .*/\1/p' /tmp/hl.trace)
diag "$pairs wakeup-to-switch-in pairs of the 4 ping-pong tasks; $(echo "$lats" | grep -c .) synthetic events in all, largest lat $(echo "$lats" | sort -n | tail -n 1) us"
check "the ping-pong tasks had 100 or more such pairs" [ "$pairs" -ge 100 ]
[ -z "$bad" ] || diag "$bad"
check "each task's synthetic events, recorded and in their own hist, are its pairs in the trace" \
	[ -z "$bad" ]
# A negative u64 difference prints as 19 or 20 digits.
neg=$(echo "$lats" | awk 'length($1) >= 19' | wc -l)
expect_eq "every latency is non-negative (none wrapped past 2^63)" "$neg" 0
check "nothing lost from the trace" nodrops $K
echo 1 > $K/tracing_on
echo > $K/set_event
echo '!hist:keys=pid' >> $E/synthetic/wakeup_latency/trigger
echo '!hist:keys=next_pid:wakeup_lat=common_timestamp.usecs-$ts0:onmatch(sched.sched_wakeup).trace(wakeup_latency,$wakeup_lat,next_pid,next_comm)' >> $SW/trigger
echo '!hist:keys=pid:ts0=common_timestamp.usecs' >> $W/trigger
echo '!wakeup_latency' >> $K/synthetic_events
all_gone() {
	! grep -q '^hist' $W/trigger $SW/trigger &&
		[ -z "$(cat $K/synthetic_events)" ] && inst_rm hx
}
check "all removed: no trigger, no synthetic event, no instance" all_gone
reset_kmark

#!/bin/sh
# description: the kmark tool on a real kernel: enable (marker, kprobe fallback, refusals), stream, probe errors, record/report counts, reset
. /tests/lib.sh
plan 29
reset_kmark
echo > $K/kprobe_events

kmark enable sched_switch > /tmp/t.out 2>&1
expect_eq "kmark enable sched_switch: exit 0" "$?" "0"
check "sched_switch is in set_event" grep -qx sched_switch $K/set_event
kmark-testprog pingpong 40 > /tmp/pp.out &
kmark stream -n 5 -c kmping > /tmp/stream.out 2>&1
wait
expect_eq "kmark stream -n 5 -c kmping: 5 lines" "$(grep -c . /tmp/stream.out)" "5"
expect_eq "all of them sched_switch lines naming kmping" \
	"$(grep -cE ' sched_switch: .*(prev|next)_comm=kmping ' /tmp/stream.out)" "5"
kmark-testprog pingpong 40 > /dev/null &
kmark stream --pretty -n 4 -c kmpong > /tmp/pretty.out 2>&1
wait
diag "$(head -n 2 /tmp/pretty.out)"
expect_eq "--pretty: 'comm (pid) switching to comm (pid)' lines" \
	"$(grep -cE '^\[ *[0-9]+\.[0-9]{6}\] CPU[01]: .+ \([0-9]+\) switching to .+ \([0-9]+\)$' /tmp/pretty.out)" "4"
kmark disable sched_switch
expect_eq "kmark disable" "$(cat $K/set_event)" ""

out=$(kmark enable do_sys_openat2 2>&1); rc=$?
diag "$out"
expect_eq "enable do_sys_openat2: exit 0" "$rc" "0"
check "it says it fell back to a kprobe" sh -c "echo '$out' | grep -q 'defined kprobe event'"
expect_eq "the kprobe is defined" "$(cat $K/kprobe_events)" "p:kprobes/do_sys_openat2 do_sys_openat2+0"
expect_eq "and enabled" "$(cat $K/set_event)" "kprobes/do_sys_openat2"
cat /proc/version > /dev/null
check "and records" grep -q ': do_sys_openat2: (do_sys_openat2+0x0/' $K/trace
kmark disable do_sys_openat2

out=$(kmark enable context_switch 2>&1); rc=$?
diag "$out"
expect_eq "enable context_switch: exit 4" "$rc" "4"
check "it explains inlining" sh -c "echo '$out' | grep -q inlined"
check "and suggests sched_switch" sh -c "echo '$out' | grep -q 'did you mean sched_switch'"
out=$(kmark enable notify_die 2>&1); rc=$?
expect_eq "enable notify_die: exit 4" "$rc" "4"
check "it names the blacklist" sh -c "echo '$out' | grep -q blacklist"
out=$(kmark enable --no-fallback vfs_read 2>&1); rc=$?
expect_eq "--no-fallback: exit 4" "$rc" "4"
check "--no-fallback defined nothing new" sh -c "! grep -q vfs_read $K/kprobe_events"

out=$(kmark probe 'p:bad no_such_fn' 2>&1); rc=$?
diag "$out"
expect_eq "kmark probe with a bad symbol: exit 1" "$rc" "1"
check "it prints the error_log entry" sh -c "echo '$out' | grep -q 'Command: p:bad no_such_fn'"
check "with the caret under the symbol" sh -c "echo '$out' | grep -qx '                 ^'"

kmark reset
kmark record -o /tmp/rec -t 4 sched_switch > /tmp/rec.err 2>&1 &
rec=$!
sleep 1
out=$(kmark-testprog pingpong 100)
ping=${out#ping=}; ping=${ping%% *}; pong=${out##*pong=}
wait $rec
expect_eq "record: exit 0" "$?" "0"
kmark report /tmp/rec > /tmp/report.out 2>&1
diag "$(grep -E 'kmp(ing|ong)|^  CPU|lost' /tmp/report.out)"
in_pong=$(grep -c "next_pid=$pong next_prio" /tmp/rec)
out_pong=$(grep -c "prev_pid=$pong prev_prio" /tmp/rec)
row=$(awk -v p="$pong" '$1 == p && $2 == "kmpong"' /tmp/report.out)
expect_eq "report: kmpong's switches in = those in the file" "$(echo "$row" | awk '{ print $4 }')" "$in_pong"
expect_eq "report: kmpong's switches out = those in the file" "$(echo "$row" | awk '{ print $5 }')" "$out_pong"
check "the workload is in it (>= 100 switches into kmpong)" test "$in_pong" -ge 100
check "report: no lost events" grep -q '^Lost events: 0$' /tmp/report.out

kmark enable sched_wakeup > /dev/null
kmark probe 'p:x vfs_read' > /dev/null
kmark reset
expect_eq "kmark reset: nothing enabled" "$(cat $K/set_event)" ""
expect_eq "kmark reset: no kprobe events" "$(cat $K/kprobe_events)" ""
expect_eq "kmark reset: tracing on" "$(cat $K/tracing_on)" "1"
reset_kmark

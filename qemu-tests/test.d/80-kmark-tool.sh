#!/bin/sh
# description: the kmark tool on a real kernel: enable (marker, kprobe fallback, refusals), stream, probe errors, record/report counts, reset; instances (kmark instance new/list/remove, kmark -B NAME enable/list/stream); markers in a module (the in-tree sample): list's MODULE column, 'MODULE:*', a MODULE:NAME that waits for modprobe, a kprobe on MOD:SYM
. /tests/lib.sh
plan 56
reset_kmark
echo > $K/kprobe_events

kmark enable sched_switch > /tmp/t.out 2>&1
expect_eq "kmark enable sched_switch: exit 0" "$?" "0"
check "sched:sched_switch is in set_event" grep -qx sched:sched_switch $K/set_event
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

if lacking kprobes; then
	# No kprobe events: kmark says so, and defines nothing.
	out=$(kmark enable do_sys_openat2 2>&1); rc=$?
	diag "$out"
	expect_eq "enable do_sys_openat2 without kprobes: exit 4" "$rc" "4"
	check "it says the kernel has no kprobe events" \
		sh -c "echo '$out' | grep -q 'this kernel has no kprobe events'"
	out=$(kmark probe 'p:bad no_such_fn' 2>&1); rc=$?
	diag "$out"
	expect_eq "kmark probe without kprobes: exit 1" "$rc" "1"
	check "it says why" sh -c "echo '$out' | grep -q 'this kernel has no kprobe events'"
	skip_n 11 "kprobe fallback" "no kprobes in this kernel"
else
	out=$(kmark enable do_sys_openat2 2>&1); rc=$?
	diag "$out"
	expect_eq "enable do_sys_openat2: exit 0" "$rc" "0"
	check "it says it fell back to a kprobe" sh -c "echo '$out' | grep -q 'defined kprobe event'"
	expect_eq "the kprobe is defined" "$(cat $K/kprobe_events)" "p:kprobes/do_sys_openat2 do_sys_openat2+0"
	expect_eq "and enabled as kprobes:NAME" "$(cat $K/set_event)" "kprobes:do_sys_openat2"
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
fi

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
if lacking kprobes; then
	skip "kmark reset: no kprobe events" "no kprobes in this kernel"
else
	expect_eq "kmark reset: no kprobe events" "$(cat $K/kprobe_events)" ""
fi
expect_eq "kmark reset: tracing on" "$(cat $K/tracing_on)" "1"
reset_kmark

# Instances: kmark instance new/list/remove, kmark -B NAME.
I=$K/instances
inst_rm s1 2>/dev/null
out=$(kmark instance new s1 2>&1); rc=$?
expect_eq "kmark instance new s1: exit 0, nothing said, instances/s1 made" \
	"$rc $out $(test -d $I/s1 && echo made)" "0  made"
kmark -B s1 enable sys_sync > /tmp/ki.out 2>&1
diag "$(cat /tmp/ki.out)"
expect_eq "kmark -B s1 enable sys_sync: in s1's set_event, not the top's" \
	"$(cat $I/s1/set_event) /$(cat $K/set_event)" "syscalls:sys_sync /"
check "kmark -B s1 list: enabled in s1, disabled at the top" sh -c \
	"kmark -B s1 list sys_sync | grep -qE '^syscalls:sys_sync +- +marker +enabled ' && kmark list sys_sync | grep -qE '^syscalls:sys_sync +- +marker +disabled '"
echo > $K/trace
sync
kmark -B s1 stream -n 1 -t 5 > /tmp/ki.out 2>&1
diag "$(cat /tmp/ki.out)"
expect_eq "kmark -B s1 stream -n 1: the sys_sync event from s1's buffer" \
	"$(grep -c ' sys_sync:' /tmp/ki.out)" "1"
expect_eq "and none in the top's trace" "$(grep -c ' sys_sync:' $K/trace)" "0"
check "kmark instance list shows s1" sh -c "kmark instance list | grep -qx s1"
kmark -B s1 reset
out=$(kmark instance remove s1 2>&1); rc=$?
diag "$out"
expect_eq "kmark instance remove s1: exit 0, s1 gone (directory, list)" \
	"$rc $(test -d $I/s1 && echo still there) $(kmark instance list | grep -cx s1)" "0  0"
out=$(kmark -B s1 list 2>&1); rc=$?
diag "$out"
expect_eq "kmark -B s1 on the removed instance: exit 5, suggests 'kmark instance new s1'" \
	"$rc $(echo "$out" | grep -c "create it with 'kmark instance new s1'")" "5 1"
reset_kmark

# Markers in a module: the in-tree sample (samples/kmark, CONFIG_SAMPLE_KMARK=m,
# built and installed for both arches). Skipped when it cannot be loaded.
has() { case "$1" in *"$2"*) return 0 ;; esac; return 1; }
W=/sys/module/kmark_sample/parameters/work
reset_kmark
echo > $K/kprobe_events
rmmod kmark_sample 2>/dev/null
if lacking modules || ! modprobe kmark_sample 2> /tmp/modprobe.err; then
	why="cannot load kmark_sample: $(cat /tmp/modprobe.err)"
	! lacking modules || why="no modules in this kernel"
	i=0
	while [ $i -lt 19 ]; do i=$((i + 1)); skip "kmark and a module's markers $i" "$why"; done
	exit 0
fi
rmmod kmark_sample

out=$(kmark enable kmark_sample:kmark_sample_step 2>&1); rc=$?
diag "$out"
expect_eq "enable MODULE:NAME before the module loads: exit 0" "$rc" "0"
check "it says the name waits for the module" \
	has "$out" "module kmark_sample is not loaded; 'kmark_sample:kmark_sample_step' waits for it"
expect_eq "the token is in set_event" "$(cat $K/set_event)" "kmark_sample:kmark_sample_step"
kmark list > /tmp/kl.out
check "kmark list shows it pending" \
	grep -qE '^kmark_sample:kmark_sample_step +kmark_sample +marker +pending +\(waits for module kmark_sample\)$' /tmp/kl.out
modprobe kmark_sample
kmark list 'kmark_sample:*' > /tmp/kl.out
diag "$(cat /tmp/kl.out)"
check "after modprobe: kmark_sample_step enabled, module column kmark_sample" \
	grep -qE '^kmark_sample:kmark_sample_step +kmark_sample +marker +enabled +step=%d of=%d comm=%s$' /tmp/kl.out
check "kmark_sample_done listed, module column kmark_sample, disabled" \
	grep -qE '^kmark_sample:kmark_sample_done +kmark_sample +marker +disabled +-$' /tmp/kl.out
n=$(grep -c ' \[kmark_sample\]$' $K/available_markers)
expect_eq "'kmark_sample:*' lists the module's markers only, none pending now" \
	"$(grep -v '^EVENT' /tmp/kl.out | grep -c ' kmark_sample ') $(grep -vc '^EVENT' /tmp/kl.out) $(grep -c pending /tmp/kl.out)" \
	"$n $n 0"
check "kernel markers have '-' in the module column" \
	sh -c "kmark list sched_switch | grep -qE '^sched:sched_switch +- +marker '"
echo > $K/trace
echo 3 > $W
expect_eq "the waiting name took effect at load: 3 steps recorded" \
	"$(grep -c ' kmark_sample_step: step=[0-2] of=3 comm=' $K/trace)" "3"
kmark disable kmark_sample:kmark_sample_step 2> /tmp/kd.err
diag "$(cat /tmp/kd.err)"
echo > $K/trace
echo 1 > $W
expect_eq "kmark disable MODULE:NAME: the marker is off" \
	"$(grep -c ' kmark_sample_step: ' $K/trace)" "0"
# '!' drops the waiting token while the module is loaded, too.
expect_eq "kmark disable dropped the waiting token (no warning, not in set_event)" \
	"$(grep -c 'still waits in set_event' /tmp/kd.err) $(grep -cx 'kmark_sample:kmark_sample_step' $K/set_event)" \
	"0 0"
echo > $K/set_event

out=$(kmark enable 'kmark_sample:*' 2>&1); rc=$?
expect_eq "kmark enable 'kmark_sample:*': exit 0, nothing said" "$rc $out" "0 "
echo > $K/trace
echo 3 > $W
expect_eq "a work write records 3 steps and the end of the batch" \
	"$(grep -c ' kmark_sample_step: step=[0-2] of=3 comm=sh$' $K/trace) $(grep -c ' kmark_sample_done:' $K/trace)" "3 1"
kmark disable 'kmark_sample:*'
expect_eq "kmark disable 'kmark_sample:*'" "$(cat $K/set_event)" ""

out=$(kmark enable kmark_sample:kmark_sample_work 2>&1); rc=$?
diag "$out"
expect_eq "enable MOD:SYM of a module function: exit 0" "$rc" "0"
expect_eq "it defined a kprobe on MOD:SYM and enabled it" \
	"$(cat $K/kprobe_events) / $(cat $K/set_event)" \
	"p:kprobes/kmark_sample_work kmark_sample:kmark_sample_work+0 / kprobes:kmark_sample_work"
echo > $K/trace
echo 2 > $W
check "and it records" grep -q ' kmark_sample_work: (kmark_sample_work+0x0/' $K/trace
kmark disable kmark_sample:kmark_sample_work
expect_eq "kmark disable MOD:SYM disables its kprobe event" "$(cat $K/set_event)" ""

echo > $K/kprobe_events
rmmod kmark_sample
check "cleaned up: no kprobe event, module unloaded" \
	sh -c "[ -z \"\$(cat $K/kprobe_events)\" ] && ! grep -q '^kmark_sample ' /proc/modules"
reset_kmark

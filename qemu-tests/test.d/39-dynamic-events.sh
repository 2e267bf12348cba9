#!/bin/sh
# needs: kprobes
# description: dynamic_events as ftrace's: kprobe events (p:, r:) and synthetic events (s:[synthetic/]) made, listed together by group and name, deleted by -:[GROUP/]NAME and by !DEFINITION; "> dynamic_events" deletes both kinds, none while one of either is busy, and a failed first write after it deletes nothing; a synthetic command among others, a group other than synthetic and a busy event are refused with error_log's line and nothing changed
. /tests/lib.sh
plan 26
reset_kmark
D=$K/dynamic_events
echo > $D
echo > $K/synthetic_events

echo 's:dyn_a u64 lat; pid_t pid' >> $D
echo 'p:dyn_p ksys_sync' >> $D
echo 's:synthetic/dyn_b char comm[16]; int v' >> $D
expect_eq "s:, p: and s:synthetic/ listed together by group and name, each as it is made" \
	"$(cat $D)" "$(printf 'p:kprobes/dyn_p ksys_sync+0\ns:synthetic/dyn_a\tu64 lat; pid_t pid\ns:synthetic/dyn_b\tchar[16] comm; int v')"
expect_eq "synthetic_events and kprobe_events list their own" \
	"$(cut -f1 $K/synthetic_events | tr '\n' ' ')$(cat $K/kprobe_events)" "dyn_a dyn_b p:kprobes/dyn_p ksys_sync+0"
check "an s: event is a synthetic event with its files" \
	test -e $K/events/synthetic/dyn_a/format -a -e $K/events/synthetic/dyn_b/enable

# Deleting by -:GROUP/NAME, -:NAME and !DEFINITION.
echo '-:synthetic/dyn_a' >> $D
echo '-:dyn_b' >> $D
expect_eq "-:synthetic/NAME and -:NAME delete synthetic events, the kprobe event stays" \
	"$(cat $D)" "p:kprobes/dyn_p ksys_sync+0"
echo '!p:dyn_p ksys_sync' >> $D
expect_eq "!p:DEFINITION deletes the kprobe event" "$(cat $D)" ""
echo 's:dyn_c u64 lat; pid_t pid' >> $D
echo '!s:dyn_c u64 lat; pid_t pid' >> $D
check "!s:DEFINITION deletes the synthetic event" test ! -e $K/events/synthetic/dyn_c

# Refusals: EINVAL (EBUSY), error_log's line, nothing changed.
echo 's:dyn_a u64 lat' >> $D
echo 'p:dyn_p ksys_sync' >> $D
before=$(cat $D)
check_error "a group other than synthetic for s:" dynamic_events \
	'^s:junk/dyn_x char str[' \
	"Command must be of the form: s or -:[synthetic/]<name> field[;field] ..." \
	"Invalid argument" synthetic_events
check_error "an s: field's error, its caret in the whole command" dynamic_events \
	's:dyn_x ^chr arg' "Invalid type" "Invalid argument" synthetic_events
check_error "s: of a name taken" dynamic_events \
	's:^dyn_a u64 lat' "Event already exists" "File exists" synthetic_events
echo > $K/error_log
if printf 'p:dyn_q ksys_sync\ns:dyn_y u64 v\n' >> $D 2>/dev/null; then
	not_ok "a synthetic command among others is refused"
else
	expect_eq "a synthetic command among others is refused (a write is all or nothing)" \
		"$(sed -n '1s/^\[[ 0-9.]*\] //p' $K/error_log)" \
		"dynamic_events: error: A synthetic event's command comes alone in a write (a write is all or nothing)"
fi
expect_eq "the refused writes changed nothing" "$(cat $D)" "$before"

# "> dynamic_events" while one event of either kind is busy: EBUSY at
# open, as ftrace's, and nothing goes.
busy() {
	echo > $K/error_log
	if err=$(sh -c ": > $D" 2>&1); then
		not_ok "$1: '> dynamic_events' succeeded"
		return
	fi
	case "$err" in
	*busy*) expect_eq "$1: EBUSY, and error_log says why" \
			"$(sed -n '1s/^\[[ 0-9.]*\] //p' $K/error_log)" "dynamic_events: error: $2" ;;
	*) not_ok "$1: wanted EBUSY, got: $err" ;;
	esac
}
echo 1 > $K/events/synthetic/dyn_a/enable
busy "a synthetic event enabled" "Some synthetic events are enabled or used by hist actions"
echo 0 > $K/events/synthetic/dyn_a/enable
echo 1 > $K/events/kprobes/dyn_p/enable
busy "a kprobe event enabled" "Some kprobe events are enabled: disable them in set_event first"
echo 0 > $K/events/kprobes/dyn_p/enable
expect_eq "busy: nothing was deleted" "$(cat $D)" "$before"

# A hist action that uses a synthetic event holds it.
W=$K/events/sched/sched_wakeup/trigger
S=$K/events/sched/sched_switch/trigger
echo 's:dyn_h u64 lat; pid_t pid' >> $D
echo 'hist:keys=pid:ts=common_timestamp' >> $W
echo 'hist:keys=next_pid:l=common_timestamp-$ts:onmatch(sched.sched_wakeup).trace(dyn_h,$l,next_pid)' >> $S
busy "a synthetic event a hist action uses" "Some synthetic events are enabled or used by hist actions"
check_error "-: of a synthetic event a hist action uses" dynamic_events \
	'^-:synthetic/dyn_h' "The synthetic event is enabled or a hist action uses it" \
	"Device or resource busy" synthetic_events
echo '!hist:keys=next_pid:l=common_timestamp-$ts:onmatch(sched.sched_wakeup).trace(dyn_h,$l,next_pid)' >> $S
echo '!hist:keys=pid:ts=common_timestamp' >> $W
echo '-:synthetic/dyn_h' >> $D
check "once the action is gone, -: deletes it" test ! -e $K/events/synthetic/dyn_h

# "> dynamic_events" and a first write that fails: nothing deleted.
before=$(cat $D)
(echo 's:dyn_bad char str[' >&3) 3> $D 2>/dev/null
expect_eq "'> dynamic_events' with a failed first write deletes nothing" "$(cat $D)" "$before"
# With a first write that succeeds: both kinds go, the new one stays.
echo 's:dyn_new u32 v' > $D
expect_eq "'echo s:... > dynamic_events': every event before it gone, of both kinds" \
	"$(cat $D)" "$(printf 's:synthetic/dyn_new\tu32 v')"
echo 'p:dyn_p ksys_sync' >> $D
echo 'p:dyn_p2 ksys_sync' > $D
expect_eq "'echo p:... > dynamic_events' deletes the synthetic ones too" \
	"$(cat $D)" "p:kprobes/dyn_p2 ksys_sync+0"
echo 's:dyn_a u64 lat' >> $D
echo > $D
expect_eq "'echo > dynamic_events' deletes them all" "$(cat $D)$(cat $K/synthetic_events)$(cat $K/kprobe_events)" ""

# The synthetic event made here records as one made in synthetic_events.
echo 's:dyn_w u64 lat; pid_t pid' >> $D
echo 'hist:keys=pid:ts=common_timestamp' >> $W
echo 'hist:keys=next_pid:l=common_timestamp-$ts:onmatch(sched.sched_wakeup).trace(dyn_w,$l,next_pid)' >> $S
echo 1 > $K/events/synthetic/dyn_w/enable
kmark-testprog pingpong 20 kmdya kmdyb 0 > /dev/null
echo 0 > $K/events/synthetic/dyn_w/enable
n=$(grep -c ' dyn_w: lat=[0-9]* pid=[0-9]*$' $K/trace)
check "an s: event fires from a hist action ($n records)" test "$n" -ge 10
echo '!hist:keys=next_pid:l=common_timestamp-$ts:onmatch(sched.sched_wakeup).trace(dyn_w,$l,next_pid)' >> $S
echo '!hist:keys=pid:ts=common_timestamp' >> $W
echo > $D
expect_eq "nothing left" "$(cat $D)" ""

# A "!" alone on its line deletes nothing: the next line's "p:" is not its
# definition (it was: "!\np:foo ..." deleted an existing foo).
echo 'p:dyn_keep ksys_sync' >> $D
check "'!' then 'p:NAME' on the next line fails" \
	sh -c "! printf '!\np:dyn_keep ksys_sync\n' >> $D 2> /dev/null"
check "and the probe of that name is still there" grep -q '^p:kprobes/dyn_keep ' $D
echo '-:dyn_keep' >> $D

# An event goes while its debugfs files are being opened: debugfs waits
# for the open()s in progress of a file it removes, and the removal holds
# kmark_mutex, so an open() that took kmark_mutex deadlocked with it (every
# control file hung after). 8 s of both, then the control files answer.
timeout 8 sh -c "while :; do echo 'race_ev int x' >> $K/synthetic_events; echo '!race_ev' >> $K/synthetic_events; done" 2> /dev/null &
a=$!
timeout 8 sh -c "while :; do cat $K/events/synthetic/race_ev/trigger $K/events/synthetic/race_ev/format $K/events/synthetic/race_ev/hist; done" > /dev/null 2>&1 &
b=$!
wait $a $b
check "an event removed while its files are opened: no deadlock (set_event answers)" \
	timeout 10 cat $K/set_event
echo '!race_ev' >> $K/synthetic_events 2> /dev/null
reset_kmark

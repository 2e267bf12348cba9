#!/bin/sh
# description: set_event: > replaces, >> adds, !name, globs, empty write; bad input changes nothing
. /tests/lib.sh
plan 23
reset_kmark
enabled() { sort $K/set_event | tr '\n' ' ' | sed 's/ $//'; }

expect_eq "nothing enabled after reset" "$(enabled)" ""
echo sched_switch > $K/set_event
expect_eq "'>' enables one" "$(enabled)" "sched:sched_switch"
echo sched_wakeup >> $K/set_event
expect_eq "'>>' adds" "$(enabled)" "sched:sched_switch sched:sched_wakeup"
echo sys_sync > $K/set_event
expect_eq "'>' replaces" "$(enabled)" "syscalls:sys_sync"
echo '!sys_sync' >> $K/set_event
expect_eq "'!name' disables" "$(enabled)" ""
echo 'sched_*' > $K/set_event
expect_eq "glob sched_* enables exactly the sched markers" "$(enabled)" \
	"sched:sched_process_exec sched:sched_process_exit sched:sched_process_fork sched:sched_process_free sched:sched_switch sched:sched_wakeup sched:sched_wakeup_new sched:sched_waking"
echo 'sched_process_*' > $K/set_event
expect_eq "glob sched_process_* is exact" "$(enabled)" "sched:sched_process_exec sched:sched_process_exit sched:sched_process_fork sched:sched_process_free"
echo '*' > $K/set_event
expect_eq "'*' enables all events" "$(enabled)" "$(sort $K/available_events | tr '\n' ' ' | sed 's/ $//')"
echo '!sched_*' >> $K/set_event
check "'!glob' disables the matching ones" sh -c "! grep -q ':sched_' $K/set_event"
echo > $K/set_event
expect_eq "empty write disables all" "$(enabled)" ""
echo 'sched_switch sched_wakeup' > $K/set_event
expect_eq "several names in one write" "$(enabled)" "sched:sched_switch sched:sched_wakeup"

# Bad input: EINVAL, a line in error_log with a caret, and no change at all.
check_error "unknown name" set_event '^no_such_marker' "Unknown event (one of a module not loaded yet: MODULE:NAME)"
check_error "unknown name after a good one" set_event 'sys_sync ^bogus' "Unknown event (one of a module not loaded yet: MODULE:NAME)"
check_error "glob without a match" set_event '^zzz*' "No event matches the glob"
# A system that exists (or is kmark's own) does not wait for a module: a typo
# is an error, not a token waiting forever.
check_error "a typo in a system that exists" set_event '^sched:sched_swich' "Unknown event (see available_events)"
check_error "a kprobe event that does not exist" set_event '^kprobes:nosuch' "Unknown event (see available_events)"
check_error "the old layout's vmlinux:NAME" set_event '^vmlinux:sched_switch' "The kernel's markers have systems now: sched:sched_switch, syscalls:sys_sync (see available_events)"
check_error "bad glob" set_event '^sched_[sw' "Bad glob: unmatched '[' or ']'"
check_error "lone !" set_event 'sys_sync ^!' "'!' must be followed by an event name"
expect_eq "bad writes changed nothing (not even the good names in them)" "$(enabled)" "sched:sched_switch sched:sched_wakeup"
echo > $K/error_log
if head -c 5000 /dev/zero | tr '\0' 'x' > $K/set_event 2>/tmp/long.err; then
	not_ok "a write of 5000 bytes is refused"
else
	expect_eq "a write of 5000 bytes: E2BIG and a line in error_log" \
		"$(grep -c 'Argument list too long' /tmp/long.err) $(sed -n 1p $K/error_log | sed 's/^\[[ 0-9.]*\] //')" \
		"1 kmark: error: Write too long: at most 4095 bytes at once"
fi
echo bogus > $K/set_event 2>/dev/null
expect_eq "a failed '>' does not clear" "$(enabled)" "sched:sched_switch sched:sched_wakeup"
: > $K/set_event
expect_eq "'> set_event' with no data disables all" "$(enabled)" ""
reset_kmark

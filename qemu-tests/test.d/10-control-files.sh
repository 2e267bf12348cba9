#!/bin/sh
# description: tracing_on, buffer_size_kb, available_markers, README, stats, error_log: good and bad input
. /tests/lib.sh
plan 27
reset_kmark

expect_eq "tracing_on reads 1" "$(cat $K/tracing_on)" "1"
echo 0 > $K/tracing_on
expect_eq "tracing_on 0 sticks" "$(cat $K/tracing_on)" "0"
check_error "tracing_on rejects words" tracing_on '^on' "tracing_on takes a number: 1 (on) or 0 (off)"
expect_eq "bad write left tracing_on at 0" "$(cat $K/tracing_on)" "0"
echo 1 > $K/tracing_on
expect_eq "tracing_on 1 sticks" "$(cat $K/tracing_on)" "1"

expect_eq "buffer_size_kb default is ftrace's 1408" "$(cat $K/buffer_size_kb)" "1408"
echo 64 > $K/buffer_size_kb
expect_eq "buffer_size_kb resizes" "$(cat $K/buffer_size_kb)" "64"
check_error "buffer_size_kb rejects text" buffer_size_kb '^big' "buffer_size_kb takes a size in KiB per CPU"
if echo 0 > $K/buffer_size_kb 2>/dev/null; then not_ok "buffer_size_kb 0 refused"; else ok "buffer_size_kb 0 refused"; fi
expect_eq "bad sizes left buffer_size_kb alone" "$(cat $K/buffer_size_kb)" "64"
echo 1408 > $K/buffer_size_kb

am=$(cat $K/available_markers)
expect_eq "available_markers: sched_switch with ftrace's fields" \
	"$(echo "$am" | grep '^sched:sched_switch ')" \
	"sched:sched_switch prev_comm=%s prev_pid=%d prev_prio=%d prev_state=%p ==> next_comm=%s next_pid=%d next_prio=%d"
expect_eq "available_markers: sched_wakeup" "$(echo "$am" | grep '^sched:sched_wakeup ')" \
	"sched:sched_wakeup comm=%s pid=%d prio=%d target_cpu=%03d"
expect_eq "available_markers: the zero-argument sys_sync" "$(echo "$am" | grep '^syscalls:sys_sync')" "syscalls:sys_sync "
for m in sched_process_fork sched_process_exit; do
	check "available_markers lists $m" grep -q "^sched:$m " $K/available_markers
done
check "README explains set_event" grep -q "set_event" $K/README

s=$(cat $K/per_cpu/cpu0/stats)
for f in entries overrun "commit overrun" bytes "oldest event ts" "now ts" "dropped events" "read events" written; do
	check "stats has '$f'" sh -c "echo '$s' | grep -q '^$f: '"
done

echo foo > $K/set_event 2>/dev/null
check "error_log has an entry" test -n "$(cat $K/error_log)"
echo > $K/error_log
expect_eq "'echo > error_log' clears it" "$(cat $K/error_log)" ""

#!/bin/sh
# needs: fault-injection
# description: hist triggers, event triggers and synthetic events written with their 1st, 2nd, ... allocation failing (fail-nth): each failure is an error and changes nothing (trigger files, soft mode, synthetic_events, events/synthetic, trace_clock), each success is a plain run's; then, with allocations failing no more, bad input gets ftrace's error and changes nothing
. /tests/lib.sh
plan 18
reset_kmark
echo > $K/kprobe_events
echo > $K/synthetic_events
fault_setup

SW=events/sched/sched_switch/trigger
WK=events/sched/sched_wakeup/trigger
SY=events/syscalls/sys_sync/trigger
TS='hist:keys=pid:ts0=common_timestamp.usecs:size=128'
LAT='hist:keys=next_pid:lat=common_timestamp.usecs-$ts0:onmatch(sched.sched_wakeup).trace(hf_lat,$lat,next_pid,next_comm):onmax($lat).save(prev_pid,next_comm):size=128'
HC='hist:keys=common_pid.execname,prev_prio:vals=hitcount,next_prio.percent:sort=hitcount.descending:size=128 if prev_pid > 0'
# sweepc NAME [-s ...]... OP ARGS: sweep, each run first taking away what
# the operations add (the setup's writes run in order: LAT before TS, whose
# variable it reads, and before hf_lat, which it fires).
sweepc() {
	name=$1
	shift
	sweep "$name" -s "a:$SW:!$HC" -s "a:$SW:!$LAT" -s "a:$WK:!$TS" -s "a:$SY:!traceoff" \
		-s "a:$SY:!enable_event:sched:sched_wakeup" -s "a:synthetic_events:!hf_new" \
		-s "a:synthetic_events:!hf_lat" -s "t:trace_clock:local" "$@"
}
# A table's 128 entries are allocated alike when the trigger is written:
# every one of the first 40 allocations fails in turn, then every 23rd.
D='-n 40:23'
sweepc "a hist trigger: execname and a number as keys, percent, sort, size, filter" \
	$D write $K/$SW "$HC"
sweepc "a synthetic event definition" \
	write $K/synthetic_events 'hf_new u64 lat; pid_t pid; char comm[16]; char str[]; unsigned int n'
sweepc "a hist with a timestamp variable (the clock becomes global)" $D write $K/$WK "$TS"
sweepc "wakeup_latency's hist: \$VAR of another hist, onmatch().trace(), onmax().save()" \
	-s "a:synthetic_events:hf_lat u64 lat; pid_t pid; char comm[16]" -s "a:$WK:$TS" \
	$D write $K/$SW "$LAT"
sweepc "'!' removes the hist (it is parsed to be found)" -s "a:$SW:$HC" write $K/$SW "!$HC"
sweepc "pause on the hist there" -s "a:$SW:$HC" write $K/$SW \
	'hist:keys=common_pid.execname,prev_prio:vals=hitcount,next_prio.percent:sort=hitcount.descending:size=128:pause if prev_pid > 0'
sweepc "a traceoff trigger with a count and a filter" write $K/$SY 'traceoff:3 if common_pid > 1'
sweepc "an enable_event trigger (its target in soft mode)" write $K/$SY 'enable_event:sched:sched_wakeup'
sweepc "'!' removes a synthetic event" -s 'a:synthetic_events:hf_new u64 lat' \
	write $K/synthetic_events '!hf_new'
sweep "an instance's hist trigger" -s t:instances/new:fi \
	-s 'a:instances/fi/events/sched/sched_switch/trigger:!hist:keys=prev_pid' \
	$D write $K/instances/fi/events/sched/sched_switch/trigger 'hist:keys=prev_pid:size=128'
# The snapshot buffer is made at registration, last: a failure leaves it
# unmade (the state has the instance's snapshot file).
SNA='hist:keys=prev_pid:v=next_pid:onchange($v).snapshot():size=128'
sweep "an instance's hist with a snapshot() action (its snapshot made then)" \
	-s t:instances/new:fi \
	-s "a:instances/fi/events/sched/sched_switch/trigger:!$SNA" \
	-s t:instances/fi/snapshot:0 \
	$D write $K/instances/fi/events/sched/sched_switch/trigger "$SNA"
fault_end
echo fi > $K/instances/remove
echo '!enable_event:sched:sched_wakeup' >> $K/$SY
echo > $K/synthetic_events
echo local > $K/trace_clock

# Bad input, allocations working: ftrace's error, nothing changed.
S0=$(K=$K kmark-testprog state 2>/dev/null)
L=hist:sched:sched_switch
check_error "an unknown field" $SW 'hist:keys=^nosuch_field' "Couldn't find field" "Invalid argument" $L
check_error "a wrong modifier" $SW 'hist:keys=prev_pid.^log3' "Invalid field modifier" "Invalid argument" $L
check_error "too many keys (ftrace logs nothing; kmark says why)" $SW \
	'^hist:keys=prev_pid,next_pid,prev_prio,next_prio' "Too many keys (at most 3)" "Invalid argument" $L
check_error "a table size over the limit (ftrace logs nothing; kmark says why)" $SW \
	'^hist:keys=prev_pid:size=262144' "Table size: 65 to 131072 entries (rounded up to a power of 2)" \
	"Invalid argument" $L
check_error "a synthetic event with a bad type" synthetic_events 'hf_bad ^chr arg' "Invalid type" \
	"Invalid argument" synthetic_events
check_error "a synthetic event with no field" synthetic_events '^hf_nofield' \
	"Command must be of the form: <name> field[;field] ..." "Invalid argument" synthetic_events
expect_eq "the bad input changed nothing" "$(K=$K kmark-testprog state 2>/dev/null)" "$S0"
reset_kmark

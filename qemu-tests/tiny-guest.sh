#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The small board: booted by scripts/guest.sh (guest_extra) with 32 MiB of
# RAM and two CPUs, kmark's defaults as they are. Traces sched_switch with
# a workload that switches more than the default buffer holds and a reader
# that falls behind: the events are recorded, what did not fit is counted
# and shown (never a failure), and the memory it took is reported.
# KTAP on the console (qemu-tests/ktap.py).
. /tests/lib.sh
tiny() {
plan 7
memkb() { sed -n "s/^$1: *\([0-9]*\) kB$/\1/p" /proc/meminfo; }
total=$(memkb MemTotal)
diag "MemTotal ${total} kB, MemAvailable $(memkb MemAvailable) kB at the start"
check "the guest has 32 MiB of RAM or less (MemTotal ${total} kB)" test "$total" -le 32768
expect_eq "both CPUs online" "$(cat /sys/devices/system/cpu/online)" "0-1"
# The first use allocates the buffers (booted with kunit.enable=0: KUnit's
# tests would have); an empty buffer and counters.
avail0=$(memkb MemAvailable)
reset_kmark
echo sched:sched_switch > $K/set_event
avail1=$(memkb MemAvailable)
diag "kmark's first use and sched_switch enabled (buffers of $(cat $K/buffer_size_kb) kB per CPU): MemAvailable $avail0 -> $avail1 kB ($((avail0 - avail1)) kB)"
expect_eq "sched_switch enabled with the default buffer size" "$(cat $K/set_event)" "sched:sched_switch"
# A reader that falls behind (it starts after the workload ended), a
# workload that switches more than the buffer holds.
kmark-testprog pingpong 40000 kmtping kmtpong 0 > /dev/null
echo 0 > $K/tracing_on
kmark-testprog drain $K/trace_pipe > /tmp/tiny.out
read=$(grep -c ' sched_switch: ' /tmp/tiny.out)
lost=$(lost_in < /tmp/tiny.out)
written=$(stat_total written)
diag "written=$written read=$read lost=$lost; MemAvailable $(memkb MemAvailable) kB at the end"
for c in 0 1; do
	diag "CPU$c: read $(grep -c "^ .*\[00$c\] .* sched_switch: " /tmp/tiny.out), lost $(lost_in $c < /tmp/tiny.out); stats: $(tr '\n' ' ' < $K/per_cpu/cpu$c/stats)"
done
check "the switches were recorded (kmtping and kmtpong in the trace)" \
	sh -c "grep -q 'next_comm=kmtping' /tmp/tiny.out && grep -q 'next_comm=kmtpong' /tmp/tiny.out"
check "more than the buffer held: some were lost" test "$lost" -gt 0
check "and shown where they were lost" grep -qE '^CPU:[01] \[LOST [0-9]+ EVENTS\]$' /tmp/tiny.out
expect_eq "written = read + lost: every event read or counted" "$written" "$((read + lost))"
echo > $K/set_event
echo 1 > $K/tracing_on
}
tiny > /tmp/tiny.ktap 2>&1
echo "KTAP version 1"
echo "1..1"
echo "    KTAP version 1"
echo "    # Subtest: tiny"
sed 's/^/    /' /tmp/tiny.ktap
if grep -q '^not ok' /tmp/tiny.ktap; then echo "not ok 1 - tiny"; else echo "ok 1 - tiny"; fi
echo "# kmark guest tests done"

#!/bin/sh
# description: splice() from per_cpu/cpuN/trace_pipe_raw: whole ring-buffer pages into a pipe (only full ones; the page being written stays for read()), the right events in them, EAGAIN, EINVAL, a blocking splice woken at buffer_percent, lost events marked on the page after them, a page in a pipe holds its instance
. /tests/lib.sh
plan 17
reset_kmark
R=$K/per_cpu/cpu0/trace_pipe_raw
S=$K/per_cpu/cpu0/stats
id=$(cat $K/events/syscalls/sys_sync/id)
stat0() { sed -n "s/^$1: //p" $S; }

expect_eq "nothing recorded: a non-blocking splice fails with EAGAIN" \
	"$(kmark-testprog splice $R 4096)" "EAGAIN"
expect_eq "less than a page asked: EINVAL" "$(kmark-testprog splice $R 100)" "EINVAL"

# 700 sys_sync events on CPU 0: 16 bytes each, 255 to a page: two full
# pages and the page being written.
echo sys_sync > $K/set_event
taskset 1 kmark-testprog sync 700
echo > $K/set_event
kmark-testprog rawdump --splice $R > /tmp/spl.out
kmark-testprog rawdump $R > /tmp/rd.out
diag "$(grep -c '^page' /tmp/spl.out) pages spliced, $(grep -vc '^page' /tmp/spl.out) events; $(wc -l < /tmp/rd.out) events read"
pages=$(grep -c '^page' /tmp/spl.out)
check "splice gave at least two pages" test "$pages" -ge 2
# A full page: the writer left it because the next event did not fit.
hdr=$(( $(sed -n 's/.*field: char data;.*offset:\([0-9]*\);.*/\1/p' $K/events/header_page) ))
full=$(awk -v cap=$((4096 - hdr)) '/^page/ && $2 + 32 >= cap { n++ } END { print n + 0 }' /tmp/spl.out)
expect_eq "every spliced page is full (data within 32 bytes of the page's $((4096 - hdr)))" "$full" "$pages"
expect_eq "the page being written came by read() afterwards, and nothing else" \
	"$(grep -c . /tmp/rd.out) $(grep -c '^page' /tmp/rd.out)" "$((700 - $(grep -vc '^page' /tmp/spl.out))) 0"
grep -v '^page' /tmp/spl.out > /tmp/all.out
cat /tmp/rd.out >> /tmp/all.out
expect_eq "700 events in all, every one a sys_sync (id $id) of one pid" \
	"$(wc -l < /tmp/all.out) $(awk -v id=$id '$2 == id' /tmp/all.out | wc -l) $(awk '{ print $3 }' /tmp/all.out | sort -u | wc -l)" \
	"700 700 1"
expect_eq "in time order across the spliced and the read pages" \
	"$(awk 'NR > 1 && $1 < t { bad++ } { t = $1 } END { print bad + 0 }' /tmp/all.out)" "0"
expect_eq "the counters: 700 read, none left" "$(stat0 'read events') $(stat0 entries)" "700 0"

# A read() that took part of a page: splice() waits for it to finish.
echo sys_sync > $K/set_event
taskset 1 kmark-testprog sync 300
echo > $K/set_event
expect_eq "splice after a read() of part of a page: EINVAL" "$(kmark-testprog readsplice $R)" "EINVAL"
kmark-testprog rawdump $R > /dev/null
echo > $K/trace

# A blocking splice waits for buffer_percent of the CPU's pages.
old_kb=$(cat $K/per_cpu/cpu0/buffer_size_kb)
echo 16 > $K/per_cpu/cpu0/buffer_size_kb
echo 50 > $K/buffer_percent
echo > $K/trace
echo sys_sync > $K/set_event
timeout 30 kmark-testprog splice $R 65536 wait > /tmp/wait.out &
w=$!
sleep 1
expect_eq "a blocking splice with nothing there waits" "$(cat /tmp/wait.out)" ""
taskset 1 kmark-testprog sync 700
wait $w
n=$(cat /tmp/wait.out)
diag "blocking splice: $n"
check "... and returns whole pages once they are there ($n bytes)" \
	sh -c "[ '$n' -gt 0 ] 2>/dev/null && [ \$(( $n % 4096 )) = 0 ]"

# Lost events: 3000 events into a 16 KiB buffer that overwrites.
echo > $K/trace
taskset 1 kmark-testprog sync 3000
echo > $K/set_event
over=$(stat0 overrun)
kmark-testprog rawdump --splice $R > /tmp/lost.out
kmark-testprog rawdump $R >> /tmp/lost.out
diag "overrun $over; $(grep -c '^lost' /tmp/lost.out) marked page(s): $(grep '^lost' /tmp/lost.out | tr '\n' ' ')"
check "events were overwritten (overrun $over)" test "$over" -gt 0
expect_eq "the first page after them is marked (RB_MISSED_EVENTS)" \
	"$(sed -n 2p /tmp/lost.out | cut -d' ' -f1)" "lost"
n=$(grep -v '^page' /tmp/lost.out | grep -vc '^lost')
expect_eq "events kept + overwritten = the 3000 written" "$((n + over))" "3000"
echo "$old_kb" > $K/per_cpu/cpu0/buffer_size_kb
echo > $K/trace

# A page in a pipe holds its instance: rmdir (instances/remove) waits.
I=$K/instances
inst_rm s86 2>/dev/null
inst_new s86
rm_s86="echo s86 > $I/remove 2>/dev/null"
! lacking debugfs || rm_s86="rmdir $I/s86 2>/dev/null"
echo sys_sync > $I/s86/set_event
taskset 1 kmark-testprog sync 600
echo > $I/s86/set_event
expect_eq "an instance whose page is in a pipe (its file closed) cannot go; it can once the pipe let the page go" \
	"$(kmark-testprog splicehold $I/s86/per_cpu/cpu0/trace_pipe_raw "$rm_s86")" \
	"held 1 released 0"
check "... and went" test ! -d $I/s86

# kmark record -S splices the same pages into its files.
kmark record -S -q -t 1 -o /tmp/spl.dat sys_sync 2> /tmp/rec.err &
r=$!
sleep 0.3
taskset 1 kmark-testprog sync 600
wait $r
diag "$(cat /tmp/rec.err)"
expect_eq "kmark record -S: 600 events on CPU 0, none lost" \
	"$(grep -c '^kmark: CPU 0: 600 events, .*; lost 0$' /tmp/rec.err) $(grep -c 'recorded 600 events, 0 lost' /tmp/rec.err)" "1 1"
rm -f /tmp/spl.out /tmp/rd.out /tmp/all.out /tmp/lost.out /tmp/wait.out /tmp/spl.dat
reset_kmark

#!/bin/sh
# description: buffer_subbuf_size_kb as ftrace's: the sub-buffers (trace_pipe_raw's pages) of 1 to 128 pages, a size rounded up to a power of two of pages, header_page's data size following it before and after the buffer is made; pages of the new size from read() (a file opened before the change too) and splice(), every event in them; the snapshot follows it; refused with error_log's line and nothing changed for bad sizes, while a reader of trace holds the buffer, and for the boot-mapped instance; the per-CPU sizes read the same before and after the buffer is made
. /tests/lib.sh
plan 24
reset_kmark
P=$(getconf PAGESIZE 2>/dev/null || echo 4096)
F=$K/buffer_subbuf_size_kb
R=$K/per_cpu/cpu0/trace_pipe_raw
hdr=$(sed -n 's/.*field: char data;.*offset:\([0-9]*\);.*/\1/p' $K/events/header_page)
data() { sed -n 's/.*field: char data;.*size:\([0-9]*\);.*/\1/p' $1/events/header_page; }

expect_eq "a page by default" "$(cat $F)" "$((P / 1024))"
# A file opened before the change reads pages of the new size.
exec 3< $R
echo 5 > $F
expect_eq "5 KiB is rounded up to two pages" "$(cat $F)" "$((2 * P / 1024))"
expect_eq "header_page: the data of a two-page sub-buffer" "$(data $K)" "$((2 * P - hdr))"
echo sys_sync > $K/set_event
taskset 1 kmark-testprog sync 900
RAWDUMP_PAGE=$((2 * P)) kmark-testprog rawdump - <&3 > /tmp/sb.fd 2>&1
exec 3<&-
expect_eq "trace_pipe_raw opened before the change: read() gives pages of the new size, all 900 events" \
	"$(grep -c '^[0-9]* [0-9]* [0-9]*$' /tmp/sb.fd) $(grep -vc '^[0-9]* [0-9]* [0-9]*$' /tmp/sb.fd)" "900 0"
taskset 1 kmark-testprog sync 900
RAWDUMP_PAGE=$((2 * P)) kmark-testprog rawdump --splice $R > /tmp/sb.spl
RAWDUMP_PAGE=$((2 * P)) kmark-testprog rawdump $R > /tmp/sb.rd
diag "$(grep -c '^page' /tmp/sb.spl) pages spliced, $(grep -vc '^page' /tmp/sb.spl) events; $(grep -c . /tmp/sb.rd) read"
check "splice() gave whole pages of the new size" test "$(grep -c '^page' /tmp/sb.spl)" -ge 1
expect_eq "splice() and then read(): the 900 events, each once" \
	"$(cat /tmp/sb.spl /tmp/sb.rd | grep -v '^page' | sort -u | wc -l)" "900"
echo > $K/set_event
# ftracetest's sizes (ringbuffer_subbuf_size.tc), and 64 KiB.
for a in 4 8 16 32 64; do
	echo $a > $F
	got=$(cat $F)
	[ "$got" = "$a" ] || break
done
expect_eq "4, 8, 16, 32 and 64 KiB taken and read back" "$got" "64"
expect_eq "header_page follows (64 KiB)" "$(data $K)" "$((65536 - hdr))"
echo "$((P / 1024))" > $F

check_error "0 refused" buffer_subbuf_size_kb '^0' \
	"A sub-buffer is 1 to 128 pages: its size in KiB, rounded up to a power of two of pages"
check_error "more than 128 pages refused" buffer_subbuf_size_kb "^$((129 * P / 1024))" \
	"A sub-buffer is 1 to 128 pages: its size in KiB, rounded up to a power of two of pages"
check_error "not a number" buffer_subbuf_size_kb '^8k' \
	"buffer_subbuf_size_kb takes a size in KiB"
exec 4< $K/trace
check_error "refused while a reader of trace holds the buffer" buffer_subbuf_size_kb '^8' \
	"The buffer is busy: a reader of trace holds it (close it and retry)" "Device or resource busy"
exec 4<&-
expect_eq "the refused writes changed nothing" "$(cat $F) $(data $K)" "$((P / 1024)) $((P - hdr))"

# The snapshot follows: a swap keeps the size.
echo 1 > $K/snapshot
echo 8 > $F
echo 1 > $K/snapshot
expect_eq "after a snapshot swap the sub-buffers keep the new size" \
	"$(cat $F) $(data $K)" "8 $((8192 - hdr))"
echo 0 > $K/snapshot

# kmark record takes the page size from header_page: read() and splice().
for how in read splice; do
	opt=
	[ $how = splice ] && opt=-S
	kmark record $opt -q -t 1 -o /tmp/sb.dat sys_sync 2> /tmp/sb.err &
	r=$!
	sleep 0.3
	taskset 1 kmark-testprog sync 600
	wait $r
	expect_eq "kmark record ($how) with 8 KiB sub-buffers: 600 events in 8 KiB pages, none lost" \
		"$(grep -c '^kmark: CPU 0: 600 events, [0-9]* KiB (2 pages); lost 0$' /tmp/sb.err)" "1"
	grep -q 'CPU 0: 600 events' /tmp/sb.err || diag "$(cat /tmp/sb.err)"
done
rm -f /tmp/sb.dat
echo "$((P / 1024))" > $F

# A size beyond memory with sub-buffers of several pages: ENOMEM and
# error_log's line, and no page allocation failure in the kernel log (the
# ring buffer's own check counts sub-buffers, not pages: the fuzzer's
# kmsg check saw the allocator fail loudly).
echo 16 > $F
echo > $K/error_log
b=$(dmesg | grep -c 'page allocation failure')
err=$(echo 1048576 2>&1 > $K/per_cpu/cpu1/buffer_size_kb)
a=$(dmesg | grep -c 'page allocation failure')
expect_eq "1 GiB for a CPU with 16 KiB sub-buffers: ENOMEM, error_log says so, the allocator is not reached" \
	"$(echo "$err" | grep -c 'Cannot allocate memory') $(grep -c 'Could not resize the buffer: out of memory' $K/error_log) $((a - b))" "1 1 0"
echo "$((P / 1024))" > $F

# An instance before its buffer is made: the setting and header_page
# show what it will have; the per-CPU sizes do not change when it is made.
inst_new sbi
I=$K/instances/sbi
echo 16 > $I/buffer_subbuf_size_kb
echo 100 > $I/buffer_size_kb
before="$(data $I) $(cat $I/per_cpu/cpu1/buffer_size_kb) $(cat $I/buffer_total_size_kb)"
echo made > $I/trace_marker
after="$(data $I) $(cat $I/per_cpu/cpu1/buffer_size_kb) $(cat $I/buffer_total_size_kb)"
expect_eq "header_page, per_cpu's and the total size read the same before and after the buffer is made" \
	"$after" "$before"
check "and it has 16 KiB sub-buffers" test "$(cat $I/buffer_subbuf_size_kb) $(data $I)" = "16 $((16384 - hdr))"
check "its marker is there" grep -q 'tracing_mark_write: made$' $I/trace
inst_rm sbi

# A reader of the snapshot holds it (its resize fails then): the buffer's
# new size or sub-buffer size is refused while a reader is open, and the
# snapshot stays. It was freed under the reader (use after free).
echo 1 > $K/snapshot
exec 3< $K/snapshot
echo > $K/error_log
err=$(echo 2048 2>&1 > $K/buffer_size_kb)
expect_eq "buffer_size_kb with a snapshot reader open: EBUSY" "${err##*: }" "Device or resource busy"
err=$(echo 8 2>&1 > $K/buffer_subbuf_size_kb)
expect_eq "buffer_subbuf_size_kb too" "${err##*: }" "Device or resource busy"
check "error_log says why" grep -q 'the snapshot buffer cannot follow a new size' $K/error_log
cat <&3 > /dev/null
exec 3<&-
check "the snapshot stayed: it frees as usual once its reader closed" sh -c "echo 0 > $K/snapshot"
reset_kmark

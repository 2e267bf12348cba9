#!/bin/sh
# needs: kprobes
# description: kprobe events where the review of e834a96 found holes: reserved argument names refused (a field named common_pid would shadow the header's), kmark's own code refused as a probe point, event names up to their limits each with files of their own, @SYM re-resolved when its module comes back, group directories that go with their last event
. /tests/lib.sh
plan 11
reset_kmark
echo > $K/kprobe_events

# Item 5: the names of the common fields and of kprobe's own fields.
for n in common_pid common_type common_comm_id __probe_ip; do
	if echo "p:kprobes/t do_sys_openat2 $n=\$arg1" >> $K/kprobe_events 2>/dev/null; then
		bad="$bad $n"
	fi
done
expect_eq "reserved argument names are refused" "${bad:-}" ""
echo > $K/kprobe_events

# Item 11: kmark's recording path cannot be probed: every function of its
# own in vmlinux (kallsyms: kmark_*, __kmark_*) is refused with the
# self-probe message, and nothing gets defined.
bad= n=0
for s in $(sed -n 's/^[0-9a-f]* [tT] \(_*kmark_[a-z0-9_]*\)$/\1/p' /proc/kallsyms | sort -u); do
	n=$((n + 1))
	echo > $K/error_log
	if echo "p:kprobes/self $s" >> $K/kprobe_events 2>/dev/null; then
		bad="$bad $s"
		echo '-:kprobes/self' >> $K/kprobe_events
	elif ! grep -q "kmark's recording path" $K/error_log; then
		bad="$bad $s(message)"
	fi
done
diag "$n kmark functions in kallsyms"
check "there are kmark functions to try" test "$n" -gt 20
expect_eq "each of kmark's own functions is refused as kmark's" "${bad:-}" ""

# Item N1: group and event names at their limits (63 characters each);
# two events whose names agree on the first 63 characters of GROUP/EVENT
# are two events, each with its own files.
A=$(printf 'a%.0s' $(seq 55))
G=$(printf 'g%.0s' $(seq 63))
E=$(printf 'e%.0s' $(seq 63))
echo "p:kprobes/$A do_sys_openat2" >> $K/kprobe_events
echo "p:kprobes/${A}b do_sys_openat2" >> $K/kprobe_events
echo "p:$G/$E do_sys_openat2" >> $K/kprobe_events
d=$K/events/kprobes
check "both long names have their directories" test -d "$d/$A" -a -d "$d/${A}b"
ia=$(cat "$d/$A/id" 2>&1) ib=$(cat "$d/${A}b/id" 2>&1)
check "their ids are two numbers ($ia, $ib)" \
	sh -c "[ '$ia' -gt 0 ] && [ '$ib' -gt 0 ] && [ '$ia' != '$ib' ]"
echo 'common_pid == 1' > "$d/${A}b/filter"
expect_eq "a filter written to one is not the other's" "$(cat "$d/$A/filter")" "none"
check "a 63-character group and event have a format" \
	grep -q "^name: $E\$" "$K/events/$G/$E/format"
check "names past the limit are refused" \
	sh -c "! echo 'p:kprobes/${E}x do_sys_openat2' >> $K/kprobe_events"
echo > $K/kprobe_events

# Minor: a group's directory goes with its last event.
for i in 1 2 3 4 5 6 7 8; do
	echo "p:grp$i/e do_sys_openat2" >> $K/kprobe_events
	echo "-:grp$i/e" >> $K/kprobe_events
done
expect_eq "no events/grpN/ left behind" "$(ls $K/events | grep -c '^grp')" "0"

# Item N3: @SYM in a module is looked up again when the module comes back
# (kmark_mark loaded in between takes the old place).
mod=/lib/modules/$(uname -r)/extra
insmod $mod/kmark_test.ko
echo 'p:kprobes/v kmark_test:kmark_test_fn v=@kmark_test_last:s32' >> $K/kprobe_events
rmmod kmark_test
insmod $mod/kmark_mark.ko
insmod $mod/kmark_test.ko
echo kprobes/v > $K/set_event
echo > $K/trace
echo 41 > /sys/kernel/debug/kmark_test/call
echo 43 > /sys/kernel/debug/kmark_test/call
got=$(sed -n 's/.* v: .* v=\(-\{0,1\}[0-9]*\)$/\1/p' $K/trace | tail -n 1)
expect_eq "@SYM reads the module's variable where it is now" "$got" "41"
echo > $K/set_event
echo > $K/kprobe_events
rmmod kmark_test
rmmod kmark_mark

# Minor: a resize refused because a reader holds the buffer says so.
exec 3< $K/trace
echo > $K/error_log
echo 2048 > $K/buffer_size_kb 2>/dev/null
exec 3<&-
check "a busy resize is not called out of memory" \
	sh -c "! grep -q 'out of memory' $K/error_log && grep -q -i 'busy\|open' $K/error_log"
echo 1408 > $K/buffer_size_kb

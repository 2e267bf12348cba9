#!/bin/sh
# needs: kprobes
# description: kprobe_events: define/enable/disable/delete, fetch args with known values, return probes, errors with carets, kprobe_profile
. /tests/lib.sh
plan 59
reset_kmark
echo > $K/kprobe_events

# A probe with a known filename string and a return probe with a known $retval.
echo 'p:myopen do_sys_openat2 dfd=$arg1:s32 fname=+0($arg2):ustring' > $K/kprobe_events
echo 'r:myopenret do_sys_openat2 ret=$retval:s32' >> $K/kprobe_events
expect_eq "kprobe_events lists both definitions" "$(cat $K/kprobe_events)" \
"p:kprobes/myopen do_sys_openat2+0 dfd=\$arg1:s32 fname=+0(\$arg2):ustring
r:kprobes/myopenret do_sys_openat2+0 ret=\$retval:s32"
expect_eq "available_markers: the probe and its fields" \
	"$(grep '^kprobes:myopen ' $K/available_markers)" "kprobes:myopen [kprobe] dfd=s32 fname=ustring"
expect_eq "available_markers: the return probe" \
	"$(grep '^kprobes:myopenret ' $K/available_markers)" "kprobes:myopenret [kretprobe] ret=s32"
echo 'myopen myopenret' > $K/set_event
expect_eq "set_event enables kprobe events by short name" "$(cat $K/set_event)" \
	"kprobes:myopen
kprobes:myopenret"
cat /no/such/file 2>/dev/null
cat /proc/version > /dev/null
echo > $K/set_event
grep 'myopen' $K/trace > /tmp/kp.out
diag "$(head -n 2 /tmp/kp.out)"
check "entry probe: dfd=-100 (AT_FDCWD) and the filename" \
	grep -qE '^ +cat-[0-9]+ +\[00[01]\] [.dDb][.nNp][.hsHzZ][.0-9a-f][.0-9a-f] +[0-9]+\.[0-9]{6}: myopen: \(do_sys_openat2\+0x0/0x[0-9a-f]+\) dfd=-100 fname="/no/such/file"$' /tmp/kp.out
check "return probe: \$retval is -ENOENT (-2) for the missing file" \
	grep -qE ': myopenret: \([a-z_0-9.]+\+0x[0-9a-f]+/0x[0-9a-f]+ <- do_sys_openat2\) ret=-2$' /tmp/kp.out
check "return probe: a file descriptor (>= 0) for /proc/version" \
	grep -qE ': myopenret: \(.* <- do_sys_openat2\) ret=[0-9]+$' /tmp/kp.out

# kprobe_profile counts exactly the calls made while enabled: ksys_sync()
# runs once per sync(2) and nothing else calls it.
echo 'p:syncp ksys_sync' >> $K/kprobe_events
hits() { awk -v n="$1" '$1 == n { print $2 }' $K/kprobe_profile; }
expect_eq "kprobe_profile: a new probe has 0 hits" "$(hits syncp)" "0"
echo syncp > $K/set_event
kmark-testprog sync 5
echo > $K/set_event
expect_eq "kprobe_profile: 5 hits for 5 sync() calls" "$(hits syncp)" "5"
expect_eq "kprobe_profile: no misses" "$(awk '$1 == "syncp" { print $3 }' $K/kprobe_profile)" "0"
expect_eq "the trace has the same 5" "$(grep -c ': syncp: (ksys_sync+0x0/' $K/trace)" "5"
kmark-testprog sync 3
expect_eq "a disabled probe does not count" "$(hits syncp)" "5"
echo '-:syncp' >> $K/kprobe_events
# Its records outlive it, as a module's markers' do (ftrace clears the buffer).
expect_eq "a deleted probe's records still render, with its name and fields" \
	"$(grep -c ': syncp: (ksys_sync+0x0/' $K/trace) $(grep -c 'unknown event' $K/trace)" "5 0"

# Deleting: refused while enabled, fine after.
echo myopen > $K/set_event
check_error "deleting an enabled probe is refused with EBUSY" kprobe_events '-:^myopen' "The event is enabled: disable it in set_event first" "Device or resource busy"
if echo > $K/kprobe_events 2>/dev/null; then not_ok "'>' refused while one is enabled"; else ok "'>' refused while one is enabled (EBUSY)"; fi
expect_eq "the refused '>' deleted nothing" "$(grep -c . $K/kprobe_events)" "2"
echo > $K/set_event
echo '-:myopen' >> $K/kprobe_events
expect_eq "-:myopen deletes it" "$(cat $K/kprobe_events)" "r:kprobes/myopenret do_sys_openat2+0 ret=\$retval:s32"
check "deleted probe is gone from available_markers" sh -c "! grep -q '^kprobes:myopen ' $K/available_markers"
echo > $K/kprobe_events
expect_eq "'> kprobe_events' deletes all" "$(cat $K/kprobe_events)" ""

# Define/enable/disable/delete cycles leave nothing behind (on ksys_sync,
# which no other CPU runs meanwhile: see stress.d/20-storm.sh).
i=0
while [ $i -lt 20 ]; do
	echo 'p:cyc ksys_sync' >> $K/kprobe_events && echo cyc > $K/set_event &&
		echo > $K/set_event && echo '-:cyc' >> $K/kprobe_events || break
	i=$((i + 1))
done
expect_eq "20 define/enable/disable/delete cycles" "$i" "20"

# Entry probes on __switch_to work; a unique compiler clone is resolved.
echo 'p:sw __switch_to' > $K/kprobe_events
echo sw > $K/set_event; sleep 1; echo > $K/set_event
check "entry probe on __switch_to records" grep -q ': sw: (__switch_to+0x0/' $K/trace
echo 'p:fts finish_task_switch' > $K/kprobe_events
expect_eq "finish_task_switch resolves to its .isra clone" "$(cat $K/kprobe_events)" "p:kprobes/fts finish_task_switch.isra.0+0"
# Found by kmark-fuzz: a made-up name keeps only letters, digits and '_'
# (ftrace's sanitize_event_name), whatever the MOD:SYM it is made from.
echo 'r nosuchmod:b:c' > $K/kprobe_events
check "a made-up name from 'r nosuchmod:b:c' is r_nosuchmod_b_c_0" \
	sh -c "grep -q '^r[0-9]*:kprobes/r_nosuchmod_b_c_0 ' $K/kprobe_events && [ -d $K/events/kprobes/r_nosuchmod_b_c_0 ]"
echo > $K/kprobe_events

# Every error: EINVAL, error_log with the message and a caret, nothing added.
echo > $K/kprobe_events
check_error "unknown command" kprobe_events '^x vfs_read' "Unknown command: use p, r or -"
check_error "unknown symbol" kprobe_events 'p ^no_such_function_xyz' "Unknown symbol: not in kallsyms (inlined functions, such as context_switch, cannot be probed)"
check_error "inlined function" kprobe_events 'p:cs ^context_switch' "Unknown symbol: not in kallsyms (inlined functions, such as context_switch, cannot be probed)"
check_error "kprobe blacklist: notify_die" kprobe_events 'p ^notify_die' "Symbol is on the kprobe blacklist (see /sys/kernel/debug/kprobes/blacklist)"
check_error "kprobe blacklist: do_int3" kprobe_events 'p ^do_int3' "Symbol is on the kprobe blacklist (see /sys/kernel/debug/kprobes/blacklist)"
check_error "kprobe blacklist: exc_int3" kprobe_events 'p ^exc_int3' "Symbol is on the kprobe blacklist (see /sys/kernel/debug/kprobes/blacklist)"
check_error "kretprobe blacklist: r __switch_to" kprobe_events 'r ^__switch_to' "Return probes on this function are refused (kretprobe blacklist); an entry probe works"
check_error "bad fetch arg" kprobe_events 'p vfs_read ^$arg0' 'Invalid $argN (N is 1 to 64)'
check_error "bad type" kprobe_events 'p vfs_read x=$arg1:^u7' "Unknown type: use u8..u64, s8..s64, x8..x64, bW@O/C, string, ustring, symbol, %pd or %pD"
check_error "\$retval on an entry probe" kprobe_events 'p vfs_read ^$retval' '$retval is only for return probes'
check_error "name clash with a marker of the same system" kprobe_events 'p:sched/^sched_switch vfs_read' "A static marker has this name"
echo 'p:dup vfs_read' > $K/kprobe_events
check_error "a return probe on an event of entry probes" kprobe_events '^r:dup vfs_write' "An event's probes are all entry probes or all return probes"
check_error "too many args" kprobe_events 'p vfs_read a1=$arg1 a2=$arg1 a3=$arg1 a4=$arg1 a5=$arg1 a6=$arg1 a7=$arg1 a8=$arg1 a9=$arg1 a10=$arg1 a11=$arg1 a12=$arg1 a13=$arg1 a14=$arg1 ^a15=$arg1' "Too many arguments (at most 14)"
# The first offset in vfs_read that is not an instruction boundary (the
# arches differ); offsets that are boundaries are accepted and removed.
off=1
while [ $off -le 8 ] && echo "p:bnd vfs_read+$off" >> $K/kprobe_events 2>/dev/null; do
	echo '-:bnd' >> $K/kprobe_events
	off=$((off + 1))
done
check_error "not on an instruction boundary (vfs_read+$off)" kprobe_events "p ^vfs_read+$off x=%ax" "Probe address is not on an instruction boundary"
expect_eq "failed writes added nothing" "$(cat $K/kprobe_events)" "p:kprobes/dup vfs_read+0"
printf 'p:one vfs_read\np:two no_such_function_xyz\n' >> $K/kprobe_events 2>/dev/null
expect_eq "a write with one bad line adds none of its lines" "$(cat $K/kprobe_events)" "p:kprobes/dup vfs_read+0"
echo 'p bad_symbol_xyz' > $K/kprobe_events 2>/dev/null
expect_eq "a failed '>' deletes nothing" "$(cat $K/kprobe_events)" "p:kprobes/dup vfs_read+0"
printf -- '-:dup\np:dup2 no_such_function_xyz\n' >> $K/kprobe_events 2>/dev/null
expect_eq "a deletion in a failed write is not made" "$(cat $K/kprobe_events)" "p:kprobes/dup vfs_read+0"

# kmark's own recording path, the ring buffer and its clock: refused.
check_error "self-probe: the marker hit" kprobe_events 'p ^__kmark_hit' "kmark's recording path, the ring buffer and its clock cannot be probed"
check_error "self-probe: the recorder" kprobe_events 'p ^kmark_record_probe' "kmark's recording path, the ring buffer and its clock cannot be probed"
check_error "self-probe: the ring buffer" kprobe_events 'p ^ring_buffer_lock_reserve' "kmark's recording path, the ring buffer and its clock cannot be probed"

# \$argN in a return probe is the argument the function was called with
# (saved at entry, as ftrace does), not what is in the register at return.
echo 'r:ra do_sys_openat2 dfd=$arg1:s32 ret=$retval:s32' > $K/kprobe_events
echo kprobes/ra > $K/set_event
cat /no/such/file 2>/dev/null
echo > $K/set_event
check "return probe: \$arg1 is the caller's dfd (-100), \$retval -ENOENT" \
	grep -qE ': ra: \(.* <- do_sys_openat2\) dfd=-100 ret=-2$' $K/trace

# Raw addresses (above LONG_MAX on both arches), from /proc/kallsyms.
a=$(awk '$3 == "ksys_sync" { print $1; exit }' /proc/kallsyms)
j=$(awk '$3 == "jiffies" { print $1; exit }' /proc/kallsyms)
diag "ksys_sync at 0x$a, jiffies at 0x$j"
echo > $K/trace
echo "p:rawp 0x$a j=@0x$j:u32" > $K/kprobe_events
expect_eq "a probe at a raw address" "$(cat $K/kprobe_events)" "p:kprobes/rawp 0x$a j=@0x$j:u32"
echo kprobes/rawp > $K/set_event
kmark-testprog sync 1
echo > $K/set_event
check "it fires, and @ADDR reads jiffies" \
	grep -qE ': rawp: \(ksys_sync\+0x0/0x[0-9a-f]+\) j=[1-9][0-9]*$' $K/trace

# ftrace 6.12's grammar: arguments listed back as written, bitfields, %pd
# and %pD (listed as the string fetch they stand for), several probes on
# one event (multiprobe).
echo > $K/trace
echo 'p:lst vfs_read $stack $stack0 s=+0($stack):x32 r=%ax:u16' > $K/kprobe_events
echo 'r:rlst vfs_read $retval' >> $K/kprobe_events
expect_eq "\$stack, \$stackN, +0(\$stack), \$retval listed back as written" "$(cat $K/kprobe_events)" \
"p:kprobes/lst vfs_read+0 arg1=\$stack arg2=\$stack0 s=+0(\$stack):x32 r=%ax:u16
r:kprobes/rlst vfs_read+0 arg1=\$retval"
echo 'p:bf do_sys_openat2 hi=$arg1:b4@4/32 lo=$arg1:b8@0/8 d=$arg1:s32' > $K/kprobe_events
expect_eq "a bitfield is listed as written" "$(cat $K/kprobe_events)" \
	'p:kprobes/bf do_sys_openat2+0 hi=$arg1:b4@4/32 lo=$arg1:b8@0/8 d=$arg1:s32'
echo bf > $K/set_event
cat /no/such/file 2>/dev/null
echo > $K/set_event
check "bitfields of AT_FDCWD (0xffffff9c): b4@4/32 is 9, b8@0/8 is 156" \
	grep -qE ': bf: \(do_sys_openat2\+0x0/0x[0-9a-f]+\) hi=9 lo=156 d=-100$' $K/trace
# A string that cannot be read: no data, printed (fault) unquoted, as ftrace.
echo 'p:flt vfs_symlink k=+0($arg3):ustring u=+u0($arg3):string n=$arg3:x64' > $K/kprobe_events
echo flt > $K/set_event
ln -s foo /tmp/kp-flt-link
echo > $K/set_event
rm -f /tmp/kp-flt-link
check "a user string at a kernel address: k=(fault) u=(fault)" \
	grep -qE ': flt: \(vfs_symlink\+0x0/0x[0-9a-f]+\) k=\(fault\) u=\(fault\) n=0x[0-9a-f]+$' $K/trace
echo 'p:pd vfs_read f=$arg1:%pD' > $K/kprobe_events
echo 'p:pd2 dput n=$arg1:%pd' >> $K/kprobe_events
expect_eq "%pD and %pd are listed as the string fetches they stand for" \
	"$(sed -E 's/0x[0-9a-f]+/0xN/g' $K/kprobe_events)" \
"p:kprobes/pd vfs_read+0 f=+0xN(+0xN(+0xN(\$arg1))):string
p:kprobes/pd2 dput+0 n=+0xN(+0xN(\$arg1)):string"
echo pd > $K/set_event
# dd reads with read(2) (busybox's cat may use sendfile(2), not vfs_read).
dd if=/proc/version of=/dev/null bs=64 count=1 2>/dev/null
echo > $K/set_event
check "%pD: the name of the file read" grep -qE '^ +dd-[0-9]+ .*: pd: \(vfs_read\+0x0/0x[0-9a-f]+\) f="version"$' $K/trace
echo > $K/kprobe_events
echo > $K/trace
echo 'p:mp ksys_sync' > $K/kprobe_events
echo 'p:mp do_sys_openat2' >> $K/kprobe_events
expect_eq "multiprobe: one event, each probe on its line" "$(cat $K/kprobe_events)" \
"p:kprobes/mp ksys_sync+0
p:kprobes/mp do_sys_openat2+0"
expect_eq "multiprobe: one event in available_markers" "$(grep -c '^kprobes:mp ' $K/available_markers)" 1
echo mp > $K/set_event
kmark-testprog sync 2
cat /no/such/file 2>/dev/null
echo > $K/set_event
check "multiprobe: both probes record the event" \
	sh -c "[ \$(grep -c ': mp: (ksys_sync+0x0/' $K/trace) = 2 ] && grep -q ': mp: (do_sys_openat2+0x0/' $K/trace"
check_error "multiprobe: a probe with other arguments is refused" kprobe_events 'p:mp vfs_read ^$stack' "An event's probes have the same arguments (names and types)"
echo '-:mp ksys_sync' >> $K/kprobe_events
expect_eq "multiprobe: -:EVENT PROBE deletes only that probe" "$(cat $K/kprobe_events)" "p:kprobes/mp do_sys_openat2+0"
echo 'p:mp ksys_sync' >> $K/kprobe_events
echo '-:mp' >> $K/kprobe_events
expect_eq "multiprobe: -:EVENT deletes all its probes" "$(cat $K/kprobe_events)" ""
echo > $K/kprobe_events
reset_kmark

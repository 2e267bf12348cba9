#!/bin/sh
# description: raw_syscalls:sys_enter and sys_exit, ftrace's raw syscall events, for every task: the number and arguments a syscall entered with and its return value, the fields in the format files, a hist keyed on id.syscall (the syscall's name), and nothing recorded once they are off
. /tests/lib.sh
plan 7
reset_kmark
E=$K/events/raw_syscalls
case $(uname -m) in
x86_64) SYNC=162 KILL=62 ;;
*) SYNC=36 KILL=37 ;;
esac

check "the formats have ftrace's fields: id, the arguments, ret" sh -c \
	"grep -q 'field:long id;' $E/sys_enter/format && grep -q 'field:unsigned long arg5;' $E/sys_enter/format && grep -q 'field:long ret;' $E/sys_exit/format"

echo 'raw_syscalls:*' > $K/set_event
kmark-testprog sync 3 &
pid=$!
wait $pid
# kill(2) with a known pid and signal 0: the arguments as entered
sleep 5 &
spid=$!
kill -0 $spid
kill $spid
echo > $K/set_event
kmark-testprog drain $K/trace_pipe > /tmp/rs.txt
enter=$(grep -c " kmark-testprog-$pid .* sys_enter: NR $SYNC (" /tmp/rs.txt)
ret=$(grep -c " kmark-testprog-$pid .* sys_exit: NR $SYNC = 0\$" /tmp/rs.txt)
expect_eq "the task's 3 syncs: 3 sys_enter, 3 sys_exit returning 0" "$enter $ret" "3 3"
[ "$enter $ret" = "3 3" ] || diag "$(grep -- "-$pid " /tmp/rs.txt | head -20)"
check "kill(pid, 0)'s arguments: the pid in hex, then 0" \
	grep -q " sys_enter: NR $KILL ($(printf %x $spid), 0, " /tmp/rs.txt
other=$(grep ' sys_enter: ' /tmp/rs.txt | grep -vc -- "-$pid ")
check "the shell's syscalls are recorded too ($other): no task is left out" test "$other" -ge 1

w0=$(stat_total written)
kmark-testprog sync 2
expect_eq "nothing is recorded once they are off" "$(stat_total written)" "$w0"

# ftrace's .syscall modifier: the id's name.
echo 'hist:keys=id.syscall:vals=hitcount' > $E/sys_exit/trigger
kmark-testprog sync 2
if lacking kallsyms; then
	# No names without kallsyms: ftrace's word for a syscall it cannot name.
	check "a hist keyed on id.syscall without kallsyms: unknown_syscall, the number kept" \
		grep -qE "^\{ id: unknown_syscall +\[ *$SYNC\] \} hitcount: +[0-9]+" $E/sys_exit/hist
else
	check "a hist keyed on id.syscall names sync(2)" \
		grep -qE "^\{ id: sys_sync +\[ *$SYNC\] \} hitcount: +[0-9]+" $E/sys_exit/hist
fi
[ $? = 0 ] || diag "$(cat $E/sys_exit/hist)"
echo '!hist:keys=id.syscall:vals=hitcount' >> $E/sys_exit/trigger
check_error "id.syscall is a key's modifier, not a value's" events/raw_syscalls/sys_exit/trigger \
	'hist:keys=common_pid:vals=^id.syscall' "Invalid field modifier" "Invalid argument" "hist:raw_syscalls:sys_exit"
reset_kmark

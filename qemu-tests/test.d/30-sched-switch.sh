#!/bin/sh
# description: a pipe ping-pong between two known tasks shows as exact sched_switch lines; the sched_process_* markers' fields (fork's parent filter, exec's program and pids)
. /tests/lib.sh
plan 11
reset_kmark
N=200
echo sched_switch > $K/set_event
out=$(kmark-testprog pingpong $N)
# A nap of this shell: its CPU goes idle and comes back, a switch from the
# idle task for sure (the ping-pong alone may have none: the i386-stress
# guest of a fresh clone's make check saw no <idle>-0 line once).
sleep 0.1
echo > $K/set_event
ping=${out#ping=}; ping=${ping%% *}; pong=${out##*pong=}
diag "ping-pong: ping=$ping pong=$pong"
cat $K/trace > /tmp/trace.ss
ts='[0-9]+\.[0-9]{6}'
fl='[.dDb][.nNp][.hsHzZ][.0-9a-f][.0-9a-f]'
p2c=$(grep -cE "^ +kmping-$ping +\[000\] $fl +$ts: sched_switch: prev_comm=kmping prev_pid=$ping prev_prio=120 prev_state=(S|R|R\+) ==> next_comm=kmpong next_pid=$pong next_prio=120\$" /tmp/trace.ss)
c2p=$(grep -cE "^ +kmpong-$pong +\[000\] $fl +$ts: sched_switch: prev_comm=kmpong prev_pid=$pong prev_prio=120 prev_state=(S|R|R\+) ==> next_comm=kmping next_pid=$ping next_prio=120\$" /tmp/trace.ss)
grep -E "kmp(ing|ong)" /tmp/trace.ss | head -n 6 | sed 's/^/# /'
diag "kmping->kmpong: $p2c, kmpong->kmping: $c2p (of $N round trips)"
check "kmping -> kmpong switches, exact lines (>= 90% of $N)" test "$p2c" -ge $((N * 9 / 10))
check "kmpong -> kmping switches, exact lines (>= 90% of $N)" test "$c2p" -ge $((N * 9 / 10))
check "no switch line is malformed" sh -c "! grep -v '^#' /tmp/trace.ss | grep -vE ' sched_switch: prev_comm=.* prev_pid=-?[0-9]+ prev_prio=[0-9]+ prev_state=(R\+|[RSDTtXZPI]) ==> next_comm=.* next_pid=[0-9]+ next_prio=[0-9]+\$' | grep -q ."
check "the header is ftrace's" grep -q '^# tracer: kmark$' /tmp/trace.ss
hdr=$(grep '^# entries-in-buffer' /tmp/trace.ss)
n=$(grep -vc '^#' /tmp/trace.ss)
case "$hdr" in
"# entries-in-buffer/entries-written: $n/"*"   #P:2") ok "header counts the $n entries" ;;
*) not_ok "header '$hdr' vs $n entries" ;;
esac
check "idle shows as <idle>-0" grep -qE '^ +<idle>-0 +\[00[01]\]' /tmp/trace.ss

# The fork/exit markers name the same tasks.
echo 'sched_process_fork sched_process_exit' > $K/set_event
out=$(kmark-testprog pingpong 1)
echo > $K/set_event
ping=${out#ping=}; ping=${ping%% *}; pong=${out##*pong=}
check "sched_process_fork: parent and child" grep -qE "sched_process_fork: comm=.* pid=[0-9]+ child_comm=.* child_pid=$ping\$" $K/trace
check "sched_process_exit of kmpong" grep -qE "^ +kmpong-$pong .* sched_process_exit: comm=kmpong pid=$pong prio=120\$" $K/trace
# ftrace's field names (parent_comm, parent_pid), its printed text:
# a filter on parent_pid keeps this shell's children only.
F=$K/events/sched/sched_process_fork
check "sched_process_fork's fields are ftrace's, its print fmt too" sh -c "
	grep -q 'field:char parent_comm\[16\];' $F/format &&
	grep -q 'field:pid_t parent_pid;\|field:int parent_pid;' $F/format &&
	grep -q '^print fmt: \"comm=%s pid=%d child_comm=%s child_pid=%d\", REC->parent_comm, REC->parent_pid, REC->child_comm, REC->child_pid\$' $F/format"
echo > $K/trace
echo "parent_pid == $$" > $F/filter
echo 1 > $F/enable
kmark-testprog pingpong 1 > /dev/null
sh -c true
echo 0 > $F/enable
echo 0 > $F/filter
n=$(grep -c 'sched_process_fork:' $K/trace)
other=$(grep 'sched_process_fork:' $K/trace | grep -vc " pid=$$ child_comm=")
check "a filter on parent_pid: this shell's forks only ($n, $other others)" test "$n" -ge 2 -a "$other" = 0
reset_kmark
# sched_process_exec: the program as exec was given it, the pid it keeps.
echo sched_process_exec > $K/set_event
pid=$(sh -c 'echo $$; exec /bin/sh -c :')
echo > $K/set_event
expect_eq "sched_process_exec: filename=/bin/sh pid=$pid old_pid=$pid, once" \
	"$(grep -c "sched_process_exec: filename=/bin/sh pid=$pid old_pid=$pid\$" $K/trace)" "1"
reset_kmark

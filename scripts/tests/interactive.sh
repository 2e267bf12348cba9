#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# interactive.sh: 'make run' driven as a person drives it. tmux runs it in a
# terminal; the README's commands are typed one by one (send-keys) and the
# screen is read back (capture-pane): a Ctrl-C stops the running
# 'cat trace_pipe', the prompt comes back and the VM is still alive (the
# console is mon:stdio, which hands Ctrl-C to the guest); 'kmark stream -n 3
# --pretty' prints; 'exit' powers off and make run returns 0. Prints "ok" /
# "not ok" lines and "N passed, N failed".
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
sess=kmark-interactive-$$
status=$(mktemp)
passed=0 failed=0
res() {
	if [ "$1" = 0 ]; then echo "ok - $2"; passed=$((passed + 1));
	else echo "not ok - $2"; failed=$((failed + 1)); fi
}
screen() { tmux capture-pane -p -t "$sess" -S -2000 2>/dev/null; }
# wait_for REGEX SECONDS: until the screen shows REGEX.
wait_for() {
	local i=0
	while [ $i -lt $(($2 * 5)) ]; do
		screen | grep -qE "$1" && return 0
		sleep 0.2
		i=$((i + 1))
	done
	return 1
}
# type LINE: type it and press Enter.
type_line() { tmux send-keys -t "$sess" -l "$1"; tmux send-keys -t "$sess" Enter; }
cleanup() { tmux kill-session -t "$sess" 2>/dev/null; rm -f "$status"; }
trap cleanup EXIT

tmux new-session -d -s "$sess" -x 200 -y 50 \
	"cd '$top' && make run; echo \$? > '$status'; sleep 60"
# The banner, then a shell that answers (kernel messages may follow the
# prompt on the console, so the answer is what is checked).
if wait_for 'kmark guest \(' 600 && sleep 2 && type_line 'echo ready-$((40 + 2))' &&
   wait_for '^ready-42' 60; then
	res 0 "make run: the guest's banner and a shell that answers"
else
	res 1 "make run: no banner or prompt"
	screen | tail -n 20 | sed 's/^/# /'
fi
type_line 'cd /sys/kernel/debug/kmark'
type_line 'cat available_markers'
wait_for '^sched:sched_switch prev_comm=%s' 20
res $? "cat available_markers"
type_line 'echo sched_switch > set_event'
type_line 'cat trace_pipe'
wait_for 'sched_switch: prev_comm=.* ==> next_comm=' 30
res $? "cat trace_pipe streams sched_switch lines"
tmux send-keys -t "$sess" C-c
sleep 2
type_line 'echo still-alive-$((6 * 7))'
wait_for '^still-alive-42' 30
res $? "Ctrl-C stopped cat, the shell and the VM are still there"
screen | grep -q 'terminating on signal'
[ $? != 0 ]
res $? "QEMU was not killed by the Ctrl-C"
type_line 'kmark stream -n 3 --pretty; echo stream-exit=$?'
wait_for 'stream-exit=0' 60
res $? "kmark stream -n 3 --pretty returns 0"
type_line 'echo > set_event'
type_line 'exit'
i=0
while [ ! -s "$status" ] && [ $i -lt 300 ]; do sleep 0.2; i=$((i + 1)); done
[ "$(cat "$status" 2>/dev/null)" = 0 ]
res $? "exit powers the guest off and make run returns 0 (got '$(cat "$status" 2>/dev/null)')"
echo "$passed passed, $failed failed"

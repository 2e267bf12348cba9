#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# make demo: trace context switches for a few seconds with kmark.
K=/sys/kernel/debug/kmark
echo "### kmark demo: context switches on $(uname -m)"
echo "### echo sched_switch > $K/set_event; cat $K/trace_pipe"
echo sched_switch > $K/set_event
( i=0; while [ $i -lt 20 ]; do echo ping; i=$((i + 1)); sleep 0.1; done ) | cat > /dev/null &
timeout 3 cat $K/trace_pipe | head -n 40
echo > $K/set_event
if command -v kmark > /dev/null; then
	echo "### kmark stream --pretty (the SystemTap marker script's view)"
	kmark enable sched_switch > /dev/null 2>&1
	kmark stream --pretty -n 15 -t 3 2>&1
	kmark disable sched_switch > /dev/null 2>&1
fi
echo "### demo done"

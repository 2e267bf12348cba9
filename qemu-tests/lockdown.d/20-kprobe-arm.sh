#!/bin/sh
# description: a kprobe event waiting for its module (MOD:SYM) is not armed when the module loads after lockdown was raised to confidentiality (LOCKDOWN_KPROBES is checked at every registration, as ftrace's __register_trace_kprobe does); integrity boot only (kprobes cannot be defined at confidentiality)
. /tests/lib.sh
mount -t securityfs securityfs /sys/kernel/security 2>/dev/null
mount -t tracefs nodev /sys/kernel/tracing 2>/dev/null
T=/sys/kernel/tracing/kmark
level=$(sed -n 's/.*\[\(.*\)\].*/\1/p' /sys/kernel/security/lockdown)
if [ "$level" != integrity ]; then
	# (a plan of 0 is "no results" to ktap.py: a named skip, in skips.py)
	plan 1
	skip "a waiting kprobe is not armed after the raise" \
		"lockdown is $level: no kprobe can be defined, nothing to arm"
	exit 0
fi
plan 4
mod=/lib/modules/$(uname -r)/extra/kmark_test.ko
echo 'p:kprobes/lk kmark_test:kmark_test_fn n=$arg1:s32' > $T/kprobe_events
echo kprobes/lk > $T/set_event
check "the probe waits for its module" grep -q 'not armed: module kmark_test is not loaded' $T/kprobe_events
# Opened before the raise: confidentiality refuses opening them afterwards.
exec 3< $T/kprobe_events
exec 4< $T/trace_pipe
echo confidentiality > /sys/kernel/security/lockdown
check "the module loads (signed)" insmod $mod
echo 5 > /sys/kernel/debug/kmark_test/call 2>/dev/null
ev=$(timeout 2 cat <&4 2>/dev/null)
list=$(cat <&3)
diag "$list"
case "$list" in
*"# not armed"*) ok "kprobe_events says it is not armed" ;;
*) not_ok "kprobe_events says it is armed" ;;
esac
case "$ev" in
*" lk: "*) not_ok "the probe recorded after lockdown: $ev" ;;
*) ok "nothing recorded through the probe" ;;
esac

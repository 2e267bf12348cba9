#!/bin/sh
# needs: kprobes modules
# description: a kprobe event waiting for its module (MOD:SYM) is not armed when the module loads after lockdown was raised to confidentiality (LOCKDOWN_KPROBES is checked at every registration, as ftrace's __register_trace_kprobe does); integrity boot only (kprobes cannot be defined at confidentiality)
. /tests/lib.sh
mount -t securityfs securityfs /sys/kernel/security 2>/dev/null
mount -t tracefs nodev /sys/kernel/tracing 2>/dev/null
T=/sys/kernel/tracing/kmark
level=$(sed -n 's/.*\[\(.*\)\].*/\1/p' /sys/kernel/security/lockdown)
if [ "$level" != integrity ]; then
	# skips.py expects this skip on the confidentiality boot only.
	plan 1
	skip "a MOD:SYM kprobe is not armed after lockdown" \
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
# Its init calls the probed function (debugfs' call file is refused now).
check "the module loads (signed)" insmod $mod call_at_load=5
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

#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# description: kmark-fuzz for FUZZ_TIME seconds (60 unless make check or the kernel command line says otherwise; FUZZ_SEED replays a run), two thirds in /sys/kernel/debug/kmark, one third in the tracefs copy: grammar writes and their mutations to every writable control file of the top directory and the instances, interleaved with instances, modules, kprobes, readers on both CPUs, renames and forks; after every step the kernel log and the state the files show are checked, one result per check family; then no leak
# timeout: 300 + FUZZ_TIME
. /tests/lib.sh
families="kmsg failed-write write-effect events set-event recorded comm alive"
plan 11
time=${FUZZ_TIME:-60}
case "$time" in ''|*[!0-9]*) time=60 ;; esac
# A seed of the clock's unless one is asked for; the tracefs run takes the next.
seed=${FUZZ_SEED:-$(( $(date +%s) % 1000000 ))}
t1=$((time * 2 / 3))
t2=$((time - t1))
kl=/sys/kernel/debug/kmemleak
[ -w $kl ] && echo clear > $kl

# run NAME SEED SECONDS ARGS...: the fuzzer's output in /tmp/fuzz.NAME,
# its exit status in /tmp/fuzz.NAME.rc
run() {
	name=$1 s=$2 secs=$3
	shift 3
	kmark-fuzz --seed "$s" --time "$secs" --summary "$@" > /tmp/fuzz.$name 2>&1
	echo $? > /tmp/fuzz.$name.rc
	steps=$(sed -n 's/^kmark-fuzz summary: .*steps=\([0-9]*\).*/\1/p' /tmp/fuzz.$name)
	diag "$name: seed=$s, $secs s, ${steps:-?} steps; replay: kmark-fuzz --seed $s --steps ${steps:-N} -v $*"
	diag "$name: actions: $(sed -n 's/^kmark-fuzz action //p' /tmp/fuzz.$name | tr '\n' ' ')"
}
run debugfs "$seed" "$t1"
runs=debugfs
if [ -d /sys/kernel/tracing/kmark ]; then
	run tracefs $((seed + 1)) "$t2" --tracefs
	runs="debugfs tracefs"
fi

# One result per check family, over both runs: not ok with every finding.
for f in $families; do
	checks=0 findings=0 skips=0 why= notes=
	for r in $runs; do
		line=$(grep "^kmark-fuzz check $f: " /tmp/fuzz.$r)
		if [ -z "$line" ]; then
			findings=$((findings + 1))
			notes="$notes $r: no summary (the fuzzer died);"
			continue
		fi
		n() { echo "$line" | sed -n "s/.* $1=\([0-9]*\).*/\1/p"; }
		checks=$((checks + $(n checks)))
		findings=$((findings + $(n findings)))
		skips=$((skips + $(n skips)))
		w=$(echo "$line" | sed -n 's/.* why=//p')
		[ -z "$w" ] || why=$w
	done
	diag "$f: $checks checks, $findings findings, $skips could not tell"
	if [ "$findings" -gt 0 ]; then
		not_ok "$f${notes:+:$notes}"
		for r in $runs; do
			grep -q "FUZZ-FINDING.*\[$f\]" /tmp/fuzz.$r || continue
			sed -n "/FUZZ-FINDING.*\[$f\]/,/^# replay/p" /tmp/fuzz.$r | sed "s/^/# $r: /"
		done
	elif [ "$checks" -gt 0 ]; then
		ok "$f"
	else
		skip "$f" "${why:-no check of this kind came up in the run}"
	fi
done

# Each run ended by itself, within its time and with status 0.
for r in $runs; do
	rc=$(cat /tmp/fuzz.$r.rc)
	if [ "$rc" = 0 ]; then
		ok "$r run: kmark-fuzz exited 0"
	elif grep -q FUZZ-FINDING /tmp/fuzz.$r; then
		not_ok "$r run: kmark-fuzz exited $rc (its findings are above)"
	else
		not_ok "$r run: kmark-fuzz exited $rc"
		grep -v '^kmark-fuzz \(check\|action\)' /tmp/fuzz.$r | sed 's/^/# /' | head -n 300
	fi
done
[ "$runs" != debugfs ] ||
	skip "tracefs run" "no /sys/kernel/tracing/kmark on this kernel"

# Leaks: objects kmemleak suspects since the fuzzer began, with kmark in
# their backtrace (the failure paths the fuzzer drives).
if [ -w $kl ]; then
	# (a kmemleak that disabled itself refuses the scan and lists nothing:
	# no pass then)
	# (kmemleak reports objects older than 5 s: the second scan 6 s on)
	if ! echo scan > $kl || ! { sleep 6; echo scan > $kl; }; then
		not_ok "kmemleak: no leak with kmark in its backtrace after the fuzzer"
		diag "kmemleak refused to scan (it disabled itself?): $(dmesg | grep -i kmemleak | tail -n 2)"
		exit 0
	fi
	cat $kl > /tmp/fuzz.leaks
	n=$(awk '/^unreferenced object/ { if (obj && k) n++; obj = 1; k = 0 } /kmark/ { k = 1 } END { if (obj && k) n++; print n + 0 }' /tmp/fuzz.leaks)
	grep -B2 -A20 kmark /tmp/fuzz.leaks | head -n 40 | sed 's/^/# /'
	expect_eq "kmemleak: no leak with kmark in its backtrace after the fuzzer" "$n" "0"
else
	skip "kmemleak" "this kernel has no kmemleak"
fi

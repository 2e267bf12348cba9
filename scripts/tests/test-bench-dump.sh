#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# make bench's dump figures (scripts/bench_report.py dump_figures,
# dump_checks) on a console log cut from a real dump boot
# (qemu-tests/bench-dump.sh): each dump timed from its first to its last
# line, its event lines counted without the [LOST] lines; a kmark dump
# whose lines and end line disagree fails.
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
fix=$top/scripts/tests/fixtures/bench/icount-dump.log
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
run() {
	python3 - "$1" <<'PY'
import os, sys
sys.path.insert(0, os.environ['TOP'] + '/scripts')
import bench_report as b
f = b.dump_figures(sys.argv[1])
b.dump_ms_per_mib(f)
print(' '.join(f'{k}={f[k]}' for k in sorted(f) if k.endswith(('.ns', '.lines', '.said'))))
for m in b.dump_checks(f):
    print('BAD ' + m)
PY
}
export TOP=$top
out=$(run "$fix")
want='dump.ftrace.lines=4 dump.ftrace.ns=111925000 dump.kmark.lines=5 dump.kmark.ns=109120000 dump.kmark.said=5'
if [ "$(echo "$out" | head -n 1)" = "$want" ] && ! echo "$out" | grep -q '^BAD'; then
	echo "ok - both dumps timed from their first to their last line, event lines counted"
else
	echo "not ok - both dumps timed from their first to their last line, event lines counted"
	echo "$out" | sed 's/^/# /'
fi
# One event line short of what the end line says: a failure.
sed '/\[000\].*a=19998 b=19998/d' "$fix" > "$t/short.log"
if run "$t/short.log" | grep -q '^BAD dump.kmark.lines  # 4 event lines dumped, its end line says 5'; then
	echo "ok - a kmark dump with an event line missing fails"
else
	echo "not ok - a kmark dump with an event line missing fails"
	run "$t/short.log" | sed 's/^/# /'
fi
# No dump at all (the boot did not panic): both figures missing.
grep '^BENCH' "$fix" > "$t/none.log"
if [ "$(run "$t/none.log" | grep -c '^BAD')" = 3 ]; then
	echo "ok - a boot without the dumps fails each check"
else
	echo "not ok - a boot without the dumps fails each check"
	run "$t/none.log" | sed 's/^/# /'
fi

#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# make check: everything, both arches. Installs what is missing, runs the
# host tests of userspace/, builds and boots x86_64 (lockdep) and i386, runs
# KUnit and the guest tests there, and ends with "N passed, N failed".
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/scripts/lib.sh"
INFO_TAG=CHECK
ARCHES=${ARCHES:-x86_64 i386}
start=$(date +%s)
passed=0 failed=0
add() { passed=$((passed + $1)); failed=$((failed + $2)); }
# Take "N passed, N failed" from a runner's output.
count() {
	local line
	line=$(grep -E '[0-9]+ passed, [0-9]+ failed' "$1" | tail -n 1)
	if [ -z "$line" ]; then
		echo "kmark: $2 printed no result line" >&2
		add 0 1
		return
	fi
	add "$(echo "$line" | sed -E 's/.*\b([0-9]+) passed.*/\1/')" \
	    "$(echo "$line" | sed -E 's/.*\b([0-9]+) failed.*/\1/')"
}

"$top/scripts/setup.sh" || { echo "0 passed, 1 failed"; exit 1; }

logdir=$BUILD/check
mkdir -p "$logdir"
if [ -f "$top/userspace/Makefile" ]; then
	info "userspace host tests"
	make -s -C "$top/userspace" check > "$logdir/userspace.log" 2>&1
	sed 's/^/[host] /' "$logdir/userspace.log" | grep -E 'not ok|passed,' || true
	count "$logdir/userspace.log" "userspace tests"
fi

# 00-boot.sh checks that these took effect before user space started.
boot_args='kmark_kprobe=p:bootsync,ksys_sync,c=$comm kmark_event=sys_sync,bootsync'
topics=()
for t in "$top"/qemu-tests/test.d/*.sh; do
	topics+=(--expect-guest "$(basename "$t" .sh)")
done
for arch in $ARCHES; do
	if ! "$top/scripts/build-kernel.sh" "$arch" ||
	   ! "$top/scripts/mkinitramfs.sh" "$arch"; then
		echo "[$arch] not ok build"
		add 0 1
		continue
	fi
	info "$arch: booting the check guest"
	LOG=$logdir/$arch.log TIMEOUT=${CHECK_TIMEOUT:-900} \
		KERNEL_ARGS="$boot_args ${KERNEL_ARGS:-}" \
		"$top/scripts/boot.sh" "$arch" check
	python3 "$top/qemu-tests/ktap.py" "$arch" "$logdir/$arch.log" \
		--expect-suite kmark "${topics[@]}" > "$logdir/$arch.result"
	grep -v '^\[.*\] ok ' "$logdir/$arch.result" || true
	count "$logdir/$arch.result" "$arch guest"
	info "$arch: console log in $logdir/$arch.log"
done
# The bench in one short round, so that it cannot rot: it asserts that
# every figure was produced, not what the figures are.
if [ "${CHECK_BENCH:-1}" = 1 ]; then
	info "make bench QUICK=1"
	QUICK=1 "$top/scripts/bench.sh" > "$logdir/bench.log" 2>&1
	grep -E '^\[bench\] not ok|passed, [0-9]+ failed' "$logdir/bench.log" || true
	count "$logdir/bench.log" "bench QUICK=1"
fi
info "done in $(( $(date +%s) - start )) s"
echo "$passed passed, $failed failed"
[ "$failed" = 0 ]

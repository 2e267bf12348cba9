#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# profile.sh OUT: where one event's instructions go, function by function.
# Boots the x86_64 kernel (already built, with its initramfs) with QEMU's
# gdbstub, runs qemu-tests/profile.sh in it, and single-steps one call of
# each path with gdb (scripts/insn_profile.py): kmark's marker, ftrace's
# TRACE_EVENT with the same fields, the ring buffer's reserve and commit
# alone, and both tracers' sched_switch. Writes "PROFILE ..." lines to OUT.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/scripts/lib.sh"
INFO_TAG=PROFILE
dest=${1:?usage: profile.sh OUT}
out=$BUILD/x86_64
log=$BUILD/bench/profile.console.log
mkdir -p "$BUILD/bench"
command -v gdb > /dev/null || die "no gdb: run scripts/setup.sh"
# A free TCP port for the gdbstub.
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
rm -f "$log" "$dest"
# Under -icount a stopped guest's clock stands still: the ring buffer sees
# the time between two events it sees without gdb (no time extends).
LOG=$log TIMEOUT=900 QEMU_ARGS="-icount shift=0,sleep=off -gdb tcp:127.0.0.1:$port" \
	"$top/scripts/boot.sh" x86_64 script "$top/qemu-tests/profile.sh" 2>/dev/null &
qpid=$!
trap 'kill $qpid 2>/dev/null || true; pkill -f "tcp:127.0.0.1:$port" 2>/dev/null || true' EXIT
for _ in $(seq 300); do
	grep -q PROFILE-READY "$log" 2>/dev/null && break
	kill -0 $qpid 2>/dev/null || die "the guest stopped before PROFILE-READY (see $log)"
	sleep 1
done
grep -q PROFILE-READY "$log" || die "no PROFILE-READY in 300 s (see $log)"
info "gdb on port $port"
SYSMAP=$out/System.map PORT=$port OUT=$dest REPS=${REPS:-5} \
TARGETS='kmark=kmark_bench_marker ftrace=kmark_bench_tracepoint ringbuf=kmark_bench_ringbuf kmark_switch=__kmark_hit@sched_switch ftrace_switch=__traceiter_sched_switch' \
	timeout 600 gdb -batch -nx -x "$top/scripts/insn_profile.py" "$out/vmlinux" \
	> "$BUILD/bench/profile.gdb.log" 2>&1 || die "gdb failed (see $BUILD/bench/profile.gdb.log)"
pkill -f "tcp:127.0.0.1:$port" 2>/dev/null || true
wait $qpid 2>/dev/null || true
grep -q ' total ' "$dest" 2>/dev/null ||
	die "no profile in $dest (see $BUILD/bench/profile.gdb.log)"

#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# make check: everything. Installs what is missing, runs the host tests of
# userspace/ and scripts/, then per kernel flavour builds, boots and runs
# KUnit and the guest tests:
#   x86_64         patched-NOP static keys, ftrace beside kmark
#   i386-stress    lockdep, kmemleak, KFENCE, no ftrace at all; both vCPUs
#                  really parallel (multi-threaded TCG, JUMP_LABEL off);
#                  the guest tests plus the stress tests of qemu-tests/stress.d
# (FLAVOURS= picks others: x86_64-stress is the same with KASAN, i386 the
# single-CPU i386 kernel with patched NOPs.)
# then the bench in one short round. Ends with one line, its last,
# "N passed, N failed, N skipped"; the skips are named above it, each with
# its reason, and only those qemu-tests/skips.py expects on their kernel
# count as skips (any other is a failure). A guest that timed out, did not
# reach the runner's end line or did not reboot cleanly fails too.
# All of it is read before any of it runs (main at the end), so that editing
# this file while a check runs cannot derail the run.
main() {
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/scripts/lib.sh"
. "$top/scripts/tally.sh"
. "$top/scripts/guest.sh"
INFO_TAG=CHECK
FLAVOURS=${FLAVOURS:-${ARCHES:-x86_64 i386-stress}}
start=$(date +%s)

"$top/scripts/setup.sh" || { echo "0 passed, 1 failed, 0 skipped"; exit 1; }

logdir=$BUILD/check
mkdir -p "$logdir"
tally_init "$logdir/skips"
# The configuration matrix (make configs) builds kmark's objects in six
# more configurations, niced: in the cycles the host tests and the
# single-threaded guests leave idle, not in the kernel builds' (it was
# measured slowing the x86_64 build from about 5 to 8.5 min un-niced).
# The kernel tree is prepared first: every build below reads it.
"$top/scripts/prepare-tree.sh" > "$logdir/prepare.log" 2>&1 ||
	{ cat "$logdir/prepare.log"; echo "0 passed, 1 failed, 0 skipped"; exit 1; }
configs_pid=
if [ "${CHECK_CONFIGS:-1}" = 1 ]; then
	info "configuration matrix (make configs), in the background"
	JOBS=2 KMARK_MATRIX_I386="off up" nice -n 19 "$top/scripts/configs.sh" \
		> "$logdir/configs.log" 2>&1 &
	configs_pid=$!
fi
# The host tests (one core) run beside the first kernel build.
info "userspace and scripts host tests, in the background"
(
	[ ! -f "$top/userspace/Makefile" ] ||
		make -s -C "$top/userspace" check > "$logdir/userspace.log" 2>&1
	"$top/scripts/tests/run.sh" > "$logdir/scripts.log" 2>&1
) &
host_pid=$!
host_report() {
	[ -n "$host_pid" ] || return 0
	wait "$host_pid"
	host_pid=
	if [ -f "$top/userspace/Makefile" ]; then
		sed 's/^/[host] /' "$logdir/userspace.log" | grep -E '^\[host\] not ok|passed, [0-9]+ failed' || true
		count "$logdir/userspace.log" "userspace tests"
	fi
	grep -E '^not ok|passed, [0-9]+ failed' "$logdir/scripts.log" | sed 's/^/[scripts] /' || true
	count "$logdir/scripts.log" "scripts tests"
}

report() {
	local flavour=$1 f
	for f in "$logdir/$flavour.result" "$logdir/$flavour.dat" \
		 "$logdir/$flavour"-lockdown-*.result \
		 "$logdir/$flavour-flight.result"; do
		[ -f "$f" ] || continue
		grep -v '^\[.*\] ok ' "$f" || true
		count "$f" "$flavour $(basename "$f")"
	done
	info "$flavour: console log in $logdir/$flavour.log"
}

# Once every kernel is built, niced, beside the guests still to run: kmark's
# files with clang (typecheck.sh's checks and no clang warning in kmark's
# files), and make patches: the series applies to pristine 6.12 with git
# am, is the code the test kernels were built from, passes checkpatch
# --strict, and kmark's objects build after each patch (with the x86_64
# kernel's config).
clang_pid= patches_pid=
side_checks() {
	[ -z "$patches_pid" ] || return 0
	if [ "${CHECK_CLANG:-1}" = 1 ]; then
		info "clang: kmark's objects and the type check (LLVM=1), in the background"
		KMARK_TREE_READY=1 nice -n 19 "$top/scripts/clang-check.sh" \
			> "$logdir/clang.log" 2>&1 &
		clang_pid=$!
	fi
	info "make patches: git am onto pristine 6.12, checkpatch --strict, a build after each patch, in the background"
	local each=()
	[ ! -f "$BUILD/x86_64/.config" ] || each=(--build-each "$BUILD/x86_64/.config")
	JOBS=2 nice -n 19 python3 "$top/scripts/mkpatches.py" --check "${each[@]}" \
		"$BUILD/patches" > "$logdir/patches.log" 2>&1 &
	patches_pid=$!
}

# Multi-threaded guests (the stress flavour) use both cores: they run last,
# with only the niced side checks beside them. The others boot while the next kernel builds.
ordered=
for flavour in $FLAVOURS; do
	case "$flavour" in *-stress) ;; *) ordered="$ordered $flavour" ;; esac
done
for flavour in $FLAVOURS; do
	case "$flavour" in *-stress) ordered="$ordered $flavour" ;; esac
done
pending= pending_pid= typechecked=
for flavour in $ordered; do
	ok=1
	rm -f "$logdir/$flavour.typecheck"
	if ! "$top/scripts/build-kernel.sh" "$flavour" ||
	   ! "$top/scripts/mkinitramfs.sh" "$flavour"; then
		echo "[$flavour] not ok build"
		add 0 1
		ok=0
	fi
	arch=$(flavour_arch "$flavour")
	if [ $ok = 1 ] && [[ " $typechecked " != *" $arch "* ]]; then
		# kmark()'s type check: mismatches are build errors (once per arch).
		typechecked="$typechecked $arch"
		"$top/scripts/typecheck.sh" "$flavour" > "$logdir/$flavour.typecheck" 2>&1
	fi
	if [ -n "$pending" ]; then
		wait "$pending_pid"
		report "$pending"
		pending=
	fi
	if [ -f "$logdir/$flavour.typecheck" ]; then
		grep -E '^not ok|^# ' "$logdir/$flavour.typecheck" | sed "s/^/[$flavour] /" || true
		count "$logdir/$flavour.typecheck" "$flavour typecheck"
	fi
	host_report
	[ $ok = 1 ] || continue
	info "$flavour: booting the check guest"
	case "$flavour" in
	*-stress)
		side_checks
		guest "$flavour"
		report "$flavour" ;;
	*)
		guest "$flavour" &
		pending=$flavour pending_pid=$! ;;
	esac
done
host_report
if [ -n "$pending" ]; then
	wait "$pending_pid"
	report "$pending"
fi
side_checks
if [ -n "$configs_pid" ]; then
	wait "$configs_pid"
	grep -E '^not ok|^# ' "$logdir/configs.log" | sed 's/^/[configs] /' || true
	count "$logdir/configs.log" "make configs"
fi
# make run as a person types into it (tmux): Ctrl-C, the prompt, exit.
case " $FLAVOURS " in
*" x86_64 "*)
	info "make run, typed into (tmux)"
	"$top/scripts/tests/interactive.sh" > "$logdir/interactive.log" 2>&1
	grep -E '^not ok|^# ' "$logdir/interactive.log" | sed 's/^/[interactive] /' || true
	count "$logdir/interactive.log" "interactive make run" ;;
esac
# The bench in one short round, so that it cannot rot. Its figures are not
# tests of kmark: a missing or insane figure is one failure, the figures
# produced are counted apart.
if [ "${CHECK_BENCH:-1}" = 1 ]; then
	info "make bench QUICK=1"
	QUICK=1 "$top/scripts/bench.sh" > "$logdir/bench.log" 2>&1
	grep -E '^\[bench\] not ok|passed, [0-9]+ failed' "$logdir/bench.log" || true
	line=$(grep -E '[0-9]+ passed, [0-9]+ failed' "$logdir/bench.log" | tail -n 1)
	figures=$(echo "$line" | sed -nE 's/.*\b([0-9]+) passed.*/\1/p')
	bad=$(echo "$line" | sed -nE 's/.*\b([0-9]+) failed.*/\1/p')
	if [ -n "$line" ] && [ "$bad" = 0 ]; then
		echo "[bench] ok all ${figures} figures produced"
		add 1 0
	else
		echo "[bench] not ok figures missing or insane (see $logdir/bench.log)"
		add 0 1
	fi
fi
if [ -n "$clang_pid" ]; then
	wait "$clang_pid"
	grep -E '^not ok|^# ' "$logdir/clang.log" | sed 's/^/[clang] /' || true
	count "$logdir/clang.log" "x86_64-clang"
fi
wait "$patches_pid"
grep -E '^not ok|^# ' "$logdir/patches.log" | sed 's/^/[patches] /' || true
count "$logdir/patches.log" "make patches"
info "done in $(( $(date +%s) - start )) s"
tally_close
}
main "$@"
exit $?

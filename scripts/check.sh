#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# make check: everything. Installs what is missing, runs the host tests of
# userspace/ and scripts/, then per kernel flavour builds, boots and runs
# KUnit and the guest tests:
#   x86_64         patched-NOP static keys, ftrace beside kmark
#   i386-lockdep   lockdep while static keys are patched: the tests that
#                  patch them most (toggles, module markers, the fuzzer)
#   i386-hardened  what kernel-hardening-checker leaves of a kernel (no
#                  debugfs, ftrace, kprobes, kallsyms, modules, LKDTM),
#                  lockdown=integrity, its .config checked against the
#                  list; one more boot at confidentiality; flight recorder
#   i386-stress    kmemleak, KFENCE, lock debugging, no ftrace at all; both
#                  vCPUs really parallel (multi-threaded TCG), so nothing
#                  that patches text (JUMP_LABEL and TRACING off); the
#                  guest tests plus the stress tests of qemu-tests/stress.d
# (FLAVOURS= picks others: x86_64-stress is the same with KASAN, i386 the
# i386 kernel with patched NOPs and lockdep that make run ARCH=i386 boots.)
# and the bench in one short round. The host commands README.md documents
# (make configs, make patches, make run, make bench QUICK=1, make demo...)
# run as typed in a clean clone of the checkout whose build/ is this one's
# (scripts/tests/readme-commands.sh), each at its place below. Ends with
# one line, its last, "N passed, N failed, N skipped"; the skips are named
# above it, each with its reason, and only those qemu-tests/skips.py
# expects on their kernel count as skips (any other is a failure). A guest
# that timed out, did not reach the runner's end line or did not reboot
# cleanly fails too.
# All of it is read before any of it runs (main at the end), so that editing
# this file while a check runs cannot derail the run.
main() {
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/scripts/lib.sh"
. "$top/scripts/tally.sh"
. "$top/scripts/guest.sh"
INFO_TAG=CHECK
# (FLAVOURS given: those, whatever the machine's speed)
flavours_asked=${FLAVOURS:-${ARCHES:-}}
# The tiers' settings are make check's own (an exported one left in the
# shell would drop tests without their named skips).
unset KMARK_SLOWER KMARK_NO_LOCKDEP
FLAVOURS=${flavours_asked:-x86_64 i386-hardened i386-lockdep i386-stress}
start=$(date +%s)
export KMARK_T0=$start

"$top/scripts/setup.sh" || { echo "0 passed, 1 failed, 0 skipped"; exit 1; }

logdir=$BUILD/check
mkdir -p "$logdir"
# Where the CPU time goes (lib.sh's cpu_note), shown at the end.
KMARK_CPU_LOG=$logdir/cpu
: > "$KMARK_CPU_LOG"
tally_init "$logdir/skips"
# The configuration matrix (make configs) builds kmark's objects in six
# more configurations, niced: in the cycles the host tests and the
# single-threaded guests leave idle, not in the kernel builds' (it was
# measured slowing the x86_64 build from about 5 to 8.5 min un-niced).
# The kernel tree is prepared first: every build below reads it.
"$top/scripts/prepare-tree.sh" > "$logdir/prepare.log" 2>&1 ||
	{ cat "$logdir/prepare.log"; echo "0 passed, 1 failed, 0 skipped"; exit 1; }
# The README's commands run in a clone: git clone of the checkout (and its
# uncommitted changes) into a temporary folder named kmark, build/ a
# symlink to this build (nothing is rebuilt or extracted again).
readme=$top/scripts/tests/readme-commands.sh
readme_tmp=$(mktemp -d)
clone=$readme_tmp/kmark
if ! "$readme" --clone "$readme_tmp" > "$logdir/readme-clone.log" 2>&1; then
	echo "[readme] not ok a clean clone of the checkout (the README's commands are not run)"
	fail_named "[readme] not ok a clean clone of the checkout"
	sed 's/^/[readme] # /' "$logdir/readme-clone.log"
	add 0 1
	clone=
fi
# readme_report LOG [TAG]: what a group of them printed, counted.
readme_report() {
	grep -E '^not ok|^# ' "$1" | sed "s/^/[${2:-readme}] /" || true
	grep -E '^\[readme\] skip ' "$1" || true
	count "$1" "README commands ($(basename "$1"))"
}
# collect PID NAME WHAT [PATTERN]: once PID (a job in the background; none
# was started if empty, - if it was waited for) ended, its log's lines of
# note (PATTERN) tagged [NAME], counted.
collect() {
	[ -n "$1" ] || return 0
	[ "$1" = - ] || wait "$1"
	grep -E "${4:-^not ok|^# }" "$logdir/$2.log" | sed "s/^/[$2] /" || true
	count "$logdir/$2.log" "$3"
}
# The matrix, less what the test kernels already build whole and what
# make check's time has no room for: x86_64 off (the markers compiled
# away), i386 up (the uniprocessor build); nojumplabel is i386-stress
# itself. make configs alone builds all of it (nokprobes, nomodules,
# ftrace too).
# (started with the other side checks, once x86_64 is built: on a slower
# machine it is left out)
configs_pid=
configs_start() {
	[ "${CHECK_CONFIGS:-1}" = 1 ] && [ -n "$clone" ] || return 0
	info "configuration matrix (make configs, in the clone), in the background"
	JOBS=2 KMARK_MATRIX="${KMARK_MATRIX:-off}" \
		KMARK_MATRIX_I386="${KMARK_MATRIX_I386:-up}" \
		cpu_note configs nice -n 19 "$readme" --in "$clone" configs \
		> "$logdir/configs.log" 2>&1 &
	configs_pid=$!
}
# The host tests (one core) run beside the first kernel build.
info "userspace and scripts host tests, in the background"
host_tests() {
	[ ! -f "$top/userspace/Makefile" ] ||
		make -s -C "$top/userspace" check > "$logdir/userspace.log" 2>&1
	"$top/scripts/tests/run.sh" > "$logdir/scripts.log" 2>&1
}
cpu_note host-tests host_tests &
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

# cpu_report: where the CPU time went (KMARK_CPU_LOG), the most first,
# and the whole run's: user + system of everything make check waited for.
cpu_report() {
	local st hz all wall
	read -r -a st < "/proc/$BASHPID/stat"
	hz=$(getconf CLK_TCK)
	all=$(( (st[13] + st[14] + st[15] + st[16]) / hz ))
	wall=$(( $(date +%s) - start ))
	info "CPU time (user + system), most first: PART CPU-seconds (wall seconds)"
	sort -k2,2nr "$KMARK_CPU_LOG" | while read -r part cpu w; do
		info "  $part $cpu s ($w s)"
	done
	info "all of make check: $all s of CPU in $wall s, $(awk -v a="$all" -v w="$wall" 'BEGIN { printf "%.2f", a / (w ? w : 1) }') cores busy on average"
}

# report FLAVOUR: its check boot's results (guest_main).
report() {
	local flavour=$1 f
	if [ ! -f "$logdir/$flavour.result" ]; then
		echo "[$flavour] not ok check boot  # no result: the guest did not run to its end"
		fail_named "[$flavour] not ok check boot  # no result"
		add 0 1
	fi
	for f in "$logdir/$flavour.result" "$logdir/$flavour.dat"; do
		[ -f "$f" ] || continue
		grep -v '^\[.*\] ok ' "$f" || true
		count "$f" "$flavour $(basename "$f")"
	done
	info "$flavour: console log in $logdir/$flavour.log"
}

# report_extra FLAVOUR: its other boots' results (guest_extra), each of
# which must be there: the flight recorder's, x86_64's two lockdown boots.
report_extra() {
	local flavour=$1 f
	local want=("$logdir/$flavour-flight.result")
	[ "$flavour" != x86_64 ] || want+=("$logdir/$flavour-lockdown-integrity.result"
					     "$logdir/$flavour-lockdown-confidentiality.result")
	[ "$flavour" != i386-hardened ] ||
		want+=("$logdir/$flavour-lockdown-confidentiality.result"
		       "$logdir/$flavour-tiny.result")
	for f in "${want[@]}"; do
		if [ ! -f "$f" ]; then
			echo "[$flavour] not ok $(basename "$f" .result)  # no result: the boots did not run"
			fail_named "[$flavour] not ok $(basename "$f" .result)  # no result"
			add 0 1
			continue
		fi
		grep -v '^\[.*\] ok ' "$f" || true
		count "$f" "$flavour $(basename "$f")"
	done
}

# The boots that need no kernel still to build, in the background beside
# the stress guest (whose two vCPUs leave a core idle most of the time):
# the other kernels' flight recorder and lockdown boots (guest_extra), then
# make run typed into (tmux) and the README's other host commands (make
# demo, make run SCRIPT=...), then make bench QUICK=1, each a
# single-threaded QEMU. Their builds (make run: build) take turns under one
# lock: they share build/.
# make bench QUICK=1 (in the clone) is there so that the bench cannot rot.
# Its figures are not tests of kmark: a missing or insane figure is one
# failure, the figures produced are counted apart. Its headline figures
# count instructions (-icount), which a QEMU beside it does not change; its
# plain-TCG boot (wall clock) is left out (BENCH_MODES=icount).
extras_pid= extras=
extras_start() {
	[ -z "$extras_pid" ] || return 0
	export KMARK_BUILD_LOCK=$logdir/tail.lock
	(
		for f in $extras; do
			cpu_note "$f-extra-boots" guest_extra "$f"
		done
		case " $FLAVOURS " in
		*" x86_64 "*)
			[ -z "$clone" ] || cpu_note make-run "$readme" --in "$clone" run > "$logdir/interactive.log" 2>&1 ;;
		esac
		[ -z "$clone" ] || cpu_note readme-late "$readme" --in "$clone" late > "$logdir/readme-late.log" 2>&1
		if [ "${CHECK_BENCH:-1}" = 1 ] && [ -n "$clone" ]; then
			info "make bench QUICK=1 (PROFILE=0 BENCH_MODES=icount: no single-stepped profile, no wall-clock boot), in the clone"
			PROFILE=${PROFILE:-0} BENCH_MODES=${BENCH_MODES:-icount} \
				cpu_note bench "$readme" --in "$clone" bench > "$logdir/bench.log" 2>&1
		fi
	) &
	extras_pid=$!
}
extras_report() {
	local f
	[ -n "$extras_pid" ] || return 0
	wait "$extras_pid"
	for f in $extras; do
		report_extra "$f"
	done
	case " $FLAVOURS " in
	*" x86_64 "*)
		[ -z "$clone" ] || readme_report "$logdir/interactive.log" interactive ;;
	esac
	# (a command the README documents that nothing here runs: a failure
	# that names it, in the late group)
	[ -z "$clone" ] || readme_report "$logdir/readme-late.log"
}

# Once x86_64's kernel is built, niced, beside the builds and guests still to run: kmark's
# files with clang (typecheck.sh's checks and no clang warning in kmark's
# files), and make patches typed in the clone (and the README's git am of
# its series), then the series it wrote: it applies to pristine 6.12 with
# git am, is the code the test kernels were built from, passes checkpatch
# --strict, and kmark's objects build after each patch (with the x86_64
# kernel's config).
clang_pid= patches_pid= size_pid= side_started=
side_checks() {
	[ -z "$side_started" ] || return 0
	side_started=1
	configs_start
	if [ "${CHECK_CLANG:-1}" = 1 ]; then
		# Below the per-patch builds too (SCHED_IDLE: what nice 19
		# leaves): they are one long chain of small makes, one core at
		# a time, and were the last to end, 2-3 min after everything
		# else; clang's build can use both cores at the end.
		local idle=(nice -n 19)
		! chrt --idle 0 true 2>/dev/null || idle=(chrt --idle 0 nice -n 19)
		info "clang: kmark's objects and the type check (LLVM=1), in the background"
		KMARK_TREE_READY=1 cpu_note clang "${idle[@]}" "$top/scripts/clang-check.sh" \
			> "$logdir/clang.log" 2>&1 &
		clang_pid=$!
	fi
	# make size's eight configurations (the builds take eight kernels'
	# time): each keeps what it asks for.
	if [ "${CHECK_SIZE:-1}" = 1 ]; then
		info "make size's configurations (scripts/size.sh --configs), in the background"
		KMARK_TREE_READY=1 cpu_note size-configs nice -n 19 "$top/scripts/size.sh" --configs > "$logdir/size.log" 2>&1 &
		size_pid=$!
	fi
	[ -n "$clone" ] || return 0
	local each=()
	[ ! -f "$BUILD/x86_64/.config" ] || [ "${CHECK_PATCH_BUILDS:-1}" != 1 ] ||
		each=(--build-each "$BUILD/x86_64/.config")
	info "make patches (in the clone), then its series: git am onto pristine 6.12, checkpatch --strict${each:+, a build after each patch}, in the background"
	(
		cpu_note make-patches nice -n 19 "$readme" --in "$clone" patches > "$logdir/readme-patches.log" 2>&1
		JOBS=2 cpu_note patches-check nice -n 19 python3 "$clone/scripts/mkpatches.py" --check --no-write \
			"${each[@]}" "$clone/build/patches" > "$logdir/patches.log" 2>&1
	) &
	patches_pid=$!
}

# Multi-threaded guests (the stress flavour) use both cores: they run last,
# with only the niced side checks beside them. The others boot while the
# next kernels build, one after another in a lane of their own (one
# single-threaded QEMU at a time): a build never waits for a guest.
ordered=
for flavour in $FLAVOURS; do
	case "$flavour" in *-stress) ;; *) ordered="$ordered $flavour" ;; esac
done
for flavour in $FLAVOURS; do
	case "$flavour" in *-stress) ordered="$ordered $flavour" ;; esac
done
# A slow machine: make check's 25 minutes hold with two kernels, not three.
# When the first kernel (x86_64) took longer than KMARK_SLOW_BUILD seconds
# to build, i386-lockdep is left out, a skip named with the time, unless
# FLAVOURS asked for it (.ci/run does: CI's limit is 90 min). 240: with
# three kernels, make check took 29.8 min on a machine that built x86_64
# in 270 s (the work left out of x86_64's guest since saves about 4 min;
# a machine that builds in 160 s ran all three in 18.5 min).
# A slower machine still (the x86_64 build, with its initramfs, over
# KMARK_SLOWER_BUILD seconds; 270: three kernels took 31 min on a machine
# that built x86_64 in 288 s, its stress guest still waiting for the lane
# then, and two kernels fit where it took 312 s): three kernels' builds
# alone then take two thirds of the 25 minutes (measured, 1.5 CPUs: 1451
# CPU seconds for the three, 2800 for the whole check), so make check
# builds two, x86_64 and i386-stress, and leaves out, each a named skip:
# i386-hardened's build, guest and boots (its configuration is still made
# and checked against the hardening list), make bench QUICK=1, the builds
# of the side checks (make configs, make size's configurations, clang, the
# build after each patch: make patches, git am and checkpatch still run),
# two of x86_64's three resets at random instants, and x86_64's
# ftracetest (its fuzzer runs 10 s). Unless FLAVOURS was given (.ci/run
# gives it).
slower_build=${KMARK_SLOWER_BUILD:-270}
# slower_skip WHAT: one named skip of the slower tier.
slower_skip() {
	echo "[check] skip $1  # SKIP this machine built x86_64 in $t_build s (over KMARK_SLOWER_BUILD=$slower_build): make check's 25 minutes have no room for it; FLAVOURS='$FLAVOURS' make check runs it" |
		tee -a "$tally_skips"
	add 0 0 1
}
# hardened_config_only: i386-hardened's configuration made (no build) and
# checked against the hardening list, as after its build.
hardened_config_only() {
	local f=i386-hardened
	if ! "$top/scripts/configure.sh" $f > "$logdir/$f.configure" 2>&1; then
		fail_named "[$f] not ok configuration (its log: $logdir/$f.configure)"
		add 0 1
		return
	fi
	"$top/scripts/hardening-check.sh" "$BUILD/$f/.config" > "$logdir/$f.hardening" 2>&1
	grep -E '^not ok' "$logdir/$f.hardening" | sed "s/^/[$f] hardening: /" || true
	count "$logdir/$f.hardening" "$f hardening check"
}
slow_build=${KMARK_SLOW_BUILD:-240} dropped=
typechecked=
# lane_start FLAVOUR: its check guest (guest_main) in the background, once
# the lane's guest before it ended. lane_report: wait for the lane's
# guests, and report each.
lane_pids=() lane_flavours=() lane_prev=
lane_start() {
	local prev=$lane_prev done=$logdir/$1.lane-done
	rm -f "$done"
	(
		[ -z "$prev" ] || while [ ! -e "$prev" ]; do sleep 1; done
		info "$1: booting the check guest"
		cpu_note "$1-guest" guest_main "$1"
		touch "$done"
	) &
	lane_pids+=("$!") lane_flavours+=("$1") lane_prev=$done
}
lane_report() {
	local i
	for i in "${!lane_pids[@]}"; do
		wait "${lane_pids[$i]}"
		report "${lane_flavours[$i]}"
	done
	lane_pids=() lane_flavours=()
}
for flavour in $ordered; do
	case " $dropped " in *" $flavour "*) continue ;; esac
	ok=1
	rm -f "$logdir/$flavour.typecheck"
	t_build=$(date +%s)
	if ! cpu_note "$flavour-build" "$top/scripts/build-kernel.sh" "$flavour" ||
	   ! cpu_note "$flavour-initramfs" "$top/scripts/mkinitramfs.sh" "$flavour"; then
		echo "[$flavour] not ok build"
		fail_named "[$flavour] not ok build (its log: $BUILD/$flavour/build.log)"
		add 0 1
		ok=0
	fi
	t_build=$(( $(date +%s) - t_build ))
	if [ -z "$flavours_asked" ] && [ "$flavour" = x86_64 ] &&
	   [ "$t_build" -gt "$slow_build" ]; then
		dropped=i386-lockdep
		export KMARK_NO_LOCKDEP=1	# (guest.sh: x86_64 toggles keys then)
		echo "[i386-lockdep] skip   the kernel  # SKIP this machine built x86_64 in $t_build s (over KMARK_SLOW_BUILD=$slow_build): make check's 25 minutes have room for three kernels; FLAVOURS='x86_64 i386-hardened i386-lockdep i386-stress' make check runs all four" |
			tee -a "$tally_skips"
		add 0 0 1
		info "x86_64 built in $t_build s: i386-lockdep is left out (a named skip)"
	fi
	if [ -z "$flavours_asked" ] && [ "$flavour" = x86_64 ] &&
	   [ "$t_build" -gt "$slower_build" ]; then
		info "x86_64 built in $t_build s: a slower machine, less of the check (named skips)"
		CHECK_BENCH=0 CHECK_CONFIGS=0 CHECK_SIZE=0 CHECK_CLANG=0 CHECK_PATCH_BUILDS=0
		export GH_RESETS=1 KMARK_SLOWER=1	# (guest.sh)
		case " $FLAVOURS " in *" i386-hardened "*)
			dropped="$dropped i386-hardened"
			slower_skip "i386-hardened: its kernel, guest and boots (lockdown.d, the 32 MiB boot, trace-cmd:i386; its configuration is checked below)"
			hardened_config_only ;;
		esac
		slower_skip "make bench QUICK=1"
		slower_skip "make configs"
		slower_skip "make size's configurations"
		slower_skip "x86_64-clang"
		slower_skip "make patches: a build after each patch"
		slower_skip "x86_64-flight: two of the three resets at random instants"
		slower_skip "x86_64: 95-ftracetest (and its fuzzer 10 s, not 30)"
	fi
	# The side checks as soon as x86_64's .config is there (the per-patch
	# builds use it): niced, they take little from the kernel builds, and
	# started at the stress guest they were the last to end (100 s).
	[ $ok = 0 ] || [ ! -f "$BUILD/x86_64/.config" ] || side_checks
	arch=$(flavour_arch "$flavour")
	if [ $ok = 1 ] && [[ " $typechecked " != *" $arch "* ]]; then
		# kmark()'s type check: mismatches are build errors (once per arch).
		typechecked="$typechecked $arch"
		cpu_note "$flavour-typecheck" "$top/scripts/typecheck.sh" "$flavour" > "$logdir/$flavour.typecheck" 2>&1
	fi
	# The hardened kernel's .config against kernel-hardening-checker's
	# list (scripts/config/hardening.list): every option there is off.
	if [ $ok = 1 ] && [ "$flavour" = i386-hardened ]; then
		"$top/scripts/hardening-check.sh" "$BUILD/$flavour/.config" \
			> "$logdir/$flavour.hardening" 2>&1
		grep -E '^not ok' "$logdir/$flavour.hardening" | sed "s/^/[$flavour] hardening: /" || true
		count "$logdir/$flavour.hardening" "$flavour hardening check"
	fi
	if [ -f "$logdir/$flavour.typecheck" ]; then
		grep -E '^not ok|^# ' "$logdir/$flavour.typecheck" | sed "s/^/[$flavour] /" || true
		count "$logdir/$flavour.typecheck" "$flavour typecheck"
	fi
	host_report
	[ $ok = 1 ] || continue
	case "$flavour" in
	*-stress)
		# The stress guest starts as soon as its kernel is built,
		# beside the lane's guests: waiting for them (as it did) left
		# a core idle while the lane's single-threaded guests ended,
		# three minutes of a 25 (fresh clone, three kernels). The
		# other boots, make run typed into, the README's other host
		# commands and make bench wait for the lane, as before.
		info "$flavour: booting the check guest, beside the lane's"
		side_checks
		cpu_note "$flavour-guest" guest_main "$flavour" &
		stress_pid=$!
		lane_report
		info "beside it: ${extras:+the other boots of$extras, }make run typed into, the README's other host commands$([ "${CHECK_BENCH:-1}" != 1 ] || echo ', make bench QUICK=1')"
		extras_start
		wait "$stress_pid"
		cpu_note "$flavour-extra-boots" guest_extra "$flavour"
		report "$flavour"
		report_extra "$flavour" ;;
	*)
		lane_start "$flavour"
		# (i386-lockdep's flight recorder is i386-stress's)
		[ "$flavour" = i386-lockdep ] || extras="$extras $flavour" ;;
	esac
done
host_report
lane_report
side_checks
# Without a stress flavour, they run now.
extras_start
extras_report
[ "${CHECK_BENCH:-1}" != 1 ] || [ -z "$clone" ] ||
	collect - bench "make bench QUICK=1" '^ok|^not ok|^# '
# The niced side checks, ended last.
collect "$configs_pid" configs "make configs"
collect "$clang_pid" clang "x86_64-clang"
collect "$size_pid" size "make size's configurations"
if [ -n "$patches_pid" ]; then
	wait "$patches_pid"
	readme_report "$logdir/readme-patches.log"
	collect - patches "make patches"
fi
# make clean last, in the clone, with a build/ of its own (never this one).
if [ -n "$clone" ]; then
	"$readme" --in "$clone" clean > "$logdir/readme-clean.log" 2>&1
	readme_report "$logdir/readme-clean.log"
	rm -f "$clone/build"
fi
rm -rf "$readme_tmp"
info "done in $(( $(date +%s) - start )) s"
cpu_report
tally_close
}
main "$@"
exit $?

# SPDX-License-Identifier: GPL-2.0
# make check's guests (sourced by scripts/check.sh; scripts/tests/
# test-guest-status.sh runs guest() with a stand-in for boot.sh,
# KMARK_BOOT_SH, that writes a canned console log and exits with a
# given status). Needs $top and $logdir.
# guest FLAVOUR: all of a kernel's boots, parsed: guest_main's, then
# guest_extra's.
guest() {
	guest_main "$1"
	guest_extra "$1"
}

# guest_main FLAVOUR: boot the check guest and parse its log (in the
# background while the next kernel builds: a single-threaded guest leaves a
# core free).
guest_main() {
	local boot_sh=${KMARK_BOOT_SH:-$top/scripts/boot.sh} flavour=$1 dirs=test.d skip= args
	local topics=() dats=() t d log rc extra
	# The boot parameters 00-boot.sh checks, on x86_64; the others boot
	# without them, so that their first test finds no buffer allocated
	# yet (and drives its allocation through failures).
	args='kmark_kprobe=p:bootsync,ksys_sync,c=$comm;p:initp,kernel_init_freeable kmark_event=sys_sync,bootsync'
	local fuzz=${FUZZ_TIME:-}
	case "$flavour" in
	# x86_64 also fuzzes, half as long as the stress kernels: static keys
	# patched while it writes (the stress kernels have none), one CPU.
	# Not the storm: it needs two real CPUs.
	# What another kernel of the check runs already is left out, for
	# make check's time: 60-toggle-stress (i386-lockdep's, with lockdep,
	# unless that kernel was left out: check.sh) and 65-fault-injection
	# (i386-stress's, with kmemleak and two real CPUs).
	x86_64) dirs="test.d stress.d"; skip=20-storm; fuzz=${FUZZ_TIME:-30}
		case " ${FLAVOURS:-} " in *" i386-lockdep "*)
			[ -n "${KMARK_NO_LOCKDEP:-}" ] || skip="$skip 60-toggle-stress" ;;
		esac
		case " ${FLAVOURS:-} " in *" i386-stress "*) skip="$skip 65-fault-injection" ;; esac
		# A slower machine (check.sh's named skips): no ftracetest,
		# the fuzzer 10 s.
		if [ -n "${KMARK_SLOWER:-}" ]; then
			skip="$skip 95-ftracetest"
			fuzz=${FUZZ_TIME:-10}
		fi ;;
	# A stress kernel runs the same suite on two real CPUs, less what
	# only repeats x86_64's run: 60-toggle-stress (it patches static
	# keys; there is no patching here, and the storm toggles
	# concurrently), 72 (the parser), the documents' commands, 99 (it
	# fills the table of task names, and stress.d comes after it), and on
	# x86_64 the viewers' files (i386's are the only 32-bit ones), and
	# 88 (trace-cmd: x86_64's and i386-hardened's).
	# slab_nomerge: with kmemleak, fault injection fails only the kmalloc
	# caches (qemu-tests/lib.sh), and a cache others merged into refuses.
	# The fuzzer 30 s there too in make check (FUZZ_TIME= for longer).
	*-stress) dirs="test.d stress.d"; args=slab_nomerge; fuzz=${FUZZ_TIME:-30}
		skip="60-toggle-stress 72-kprobe-syntax-errors 15-doc-commands 99-comm-table-full 88-trace-cmd"
		[ "$flavour" = i386-stress ] || skip="$skip 85-trace-dat" ;;
	# i386-lockdep: lockdep while static keys are patched (JUMP_LABEL
	# on, single-threaded TCG), which neither x86_64 (no lockdep: it is
	# the bench kernel) nor the stress kernels (no patching) have. The
	# tests that patch keys most: markers toggled while recording,
	# module markers loaded and unloaded, the fuzzer; and, lockdep's
	# only kernel since the stress one has none (PROVE_LOCKING selects
	# TRACING, whose static calls multi-threaded TCG cannot patch), the
	# tests that take most locks: instances, triggers, hist, dynamic
	# events. Its flight
	# recorder is i386-stress's (no extra boots). Its function tracer
	# (DYNAMIC_FTRACE) knows the notrace functions (73-kprobe-notrace),
	# and makes a kprobe at a function's entry ftrace-based, as on a
	# distribution kernel: the kprobe tests run through that too.
	i386-lockdep) dirs="test.d stress.d"; args=; fuzz=${FUZZ_TIME:-30}
		skip="15-doc-commands 20-storm"
		for t in "$top"/qemu-tests/test.d/*.sh; do
			t=$(basename "$t" .sh)
			case " 28-instances 34-triggers 36-hist 39-dynamic-events 60-toggle-stress 70-kprobes 71-kprobe-review 73-kprobe-notrace 75-kprobe-context-switch 90-modules 92-module-markers " in
			*" $t "*) ;;
			*) skip="$skip $t" ;;
			esac
		done ;;
	# i386-hardened: what a product kernel that follows
	# kernel-hardening-checker keeps (no debugfs, ftrace, kprobes,
	# kallsyms, modules, fault injection), booted lockdown=integrity, as
	# a Secure Boot board: every guest test, each part that needs what
	# the kernel lacks a skip that names it; and lockdown.d. No fuzzer
	# (make check's time: i386-stress fuzzes i386). 60-toggle-stress is
	# i386-lockdep's and x86_64's.
	i386-hardened) dirs="test.d lockdown.d"; args=lockdown=integrity
		skip=60-toggle-stress ;;
	*) args= ;;
	esac
	# test.d/15-doc-commands is made from the documents by mkinitramfs.sh.
	for d in $dirs; do
		extra=
		[ "$d" != test.d ] || extra=15-doc-commands.sh
		for t in "$top"/qemu-tests/$d/*.sh $extra; do
			t=$(basename "$t" .sh)
			case " $skip " in *" $t "*) continue ;; esac
			topics+=(--expect-guest "$t")
		done
	done
	log=$logdir/$flavour.log
	rm -f "$log" "$logdir/$flavour.result" "$logdir/$flavour.dat" \
		"$logdir/$flavour"-lockdown-* "$logdir/$flavour"-flight.* "$logdir/$flavour"-tiny.*
	LOG=$log TIMEOUT=${CHECK_TIMEOUT:-1200} TESTDIRS=$dirs TESTSKIP="$skip" \
		FUZZ_TIME=$fuzz KERNEL_ARGS="$args ${KERNEL_ARGS:-}" \
		"$boot_sh" "$flavour" check \
		2> "$logdir/$flavour.boot"
	rc=$?
	if [ ! -s "$log" ]; then
		echo "[$flavour] not ok boot  # QEMU did not start (boot.sh exit $rc)" \
			> "$logdir/$flavour.result"
		echo "$flavour: 0 passed, 1 failed, 0 skipped" >> "$logdir/$flavour.result"
		return
	fi
	# boot.sh's status: QEMU's (124: killed by the timeout).
	python3 "$top/qemu-tests/ktap.py" "$flavour" "$log" --boot-status "$rc" \
		--expect-suite kmark "${topics[@]}" > "$logdir/$flavour.result"
	case " $skip " in
	*" 85-trace-dat "*) ;;
	*)	# The trace.dat files the guest wrote, opened by the viewers:
		# each recording 85-trace-dat.sh makes (dat_dump NAME MODE).
		dats=()
		for t in $(sed -n 's/^dat_dump \([^ ]*\) .*/\1/p' \
				"$top/qemu-tests/test.d/85-trace-dat.sh"); do
			dats+=(--expect "$t")
		done
		python3 "$top/qemu-tests/dat_check.py" "$flavour" "$log" \
			"${dats[@]}" > "$logdir/$flavour.dat" 2>&1 ;;
	esac
}

# guest_extra FLAVOUR: the kernel's other boots, after its check boot (make
# check runs x86_64's beside the stress guest).
guest_extra() {
	local boot_sh=${KMARK_BOOT_SH:-$top/scripts/boot.sh} flavour=$1 log rc level
	# The flight recorder: boots that crash, reboot and find their trace
	# again (qemu-tests/flight.py: nine boots in six QEMU runs), on every
	# kernel (i386-stress: CONFIG_FTRACE=n, multi-threaded TCG).
	rm -f "$logdir/$flavour"-flight.*
	if [ -z "${KMARK_BOOT_SH:-}" ]; then
		# (the resets at random instants: three on x86_64, where the
		# firmware's writes reach the region's pages, one elsewhere)
		GH_RESETS=${GH_RESETS:-$([ "$flavour" = x86_64 ] && echo 3 || echo 1)} \
		python3 "$top/qemu-tests/flight.py" "$flavour" \
			--logdir "$logdir/$flavour-flight" \
			> "$logdir/$flavour-flight.result" 2> "$logdir/$flavour-flight.err"
	fi
	# The hardened kernel is also the small board's: a boot with 32 MiB
	# of RAM traces sched_switch with kmark's defaults, counts what it
	# loses (qemu-tests/tiny-guest.sh).
	if [ "$flavour" = i386-hardened ]; then
		log=$logdir/$flavour-tiny.log
		rm -f "$log"
		LOG=$log TIMEOUT=${CHECK_TIMEOUT:-1200} QEMU_ARGS="-m 32M" KERNEL_ARGS=kunit.enable=0 \
			"$boot_sh" "$flavour" script "$top/qemu-tests/tiny-guest.sh" \
			2> "$logdir/$flavour-tiny.boot"
		rc=$?
		python3 "$top/qemu-tests/ktap.py" "$flavour-tiny" "$log" \
			--boot-status "$rc" --expect-guest tiny > "$logdir/$flavour-tiny.result"
	fi
	# x86_64 has the lockdown LSM: two short boots locked down; the
	# hardened kernel's check boot is locked down at integrity already:
	# one more at confidentiality.
	local levels="integrity confidentiality"
	case "$flavour" in
	x86_64) ;;
	i386-hardened) levels=confidentiality ;;
	*) return 0 ;;
	esac
	for level in $levels; do
		log=$logdir/$flavour-lockdown-$level.log
		rm -f "$log"
		LOG=$log TIMEOUT=${CHECK_TIMEOUT:-1200} TESTDIRS=lockdown.d \
			KERNEL_ARGS="lockdown=$level kmark_kprobe=p:lockp,ksys_sync" \
			"$boot_sh" "$flavour" check \
			2> "$logdir/$flavour-lockdown-$level.boot"
		rc=$?
		python3 "$top/qemu-tests/ktap.py" "$flavour-lockdown-$level" "$log" \
			--boot-status "$rc" --expect-suite kmark $(for t in "$top"/qemu-tests/lockdown.d/*.sh; do
				printf -- '--expect-guest %s ' "$(basename "$t" .sh)"; done) \
			> "$logdir/$flavour-lockdown-$level.result"
	done
}

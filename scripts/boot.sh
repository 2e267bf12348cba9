#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# boot.sh FLAVOUR MODE [SCRIPT]: boot build/FLAVOUR in QEMU.
#   MODE check   run KUnit (at boot) and the guest tests, then power off
#   MODE demo    trace context switches for a few seconds, then power off
#   MODE run     an interactive shell (Ctrl-A X leaves QEMU)
#   MODE script  run SCRIPT in the guest; exit with its exit status
# Environment: KERNEL_ARGS (appended to the command line), QEMU_ARGS (extra
# QEMU options), TIMEOUT (seconds, non-interactive modes), LOG (console copy),
# FUZZ_TIME and FUZZ_SEED (the fuzzer's run in qemu-tests/stress.d/30-fuzz.sh:
# seconds, and a seed to replay; FUZZ_TIME is added to TIMEOUT).
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/scripts/lib.sh"
INFO_TAG=QEMU
flavour=${1:?usage: boot.sh FLAVOUR MODE [SCRIPT]}
mode=${2:?usage: boot.sh FLAVOUR MODE [SCRIPT]}
script=${3:-}
arch=$(flavour_arch "$flavour")
out=$BUILD/$flavour
kernel=$out/arch/x86/boot/bzImage
[ -f "$kernel" ] || die "no kernel at $kernel: run 'make ARCH=$arch build'"
[ -f "$out/initramfs.cpio" ] || die "no initramfs: run scripts/mkinitramfs.sh $flavour"

# The run's own small cpio: what to do, and the user's script. Made in a
# folder of this boot's own: boots of one kernel at once (make check's bench
# beside its make run; a user's two shells) each boot what they asked for.
run=$out/run
mkdir -p "$run"
work=$(mktemp -d "$run/boot.XXXXXX")
trap 'rm -rf "$work"' EXIT
{
	echo "dir /etc 0755 0 0"
	echo "file /etc/kmark-run.conf $work/kmark-run.conf 0644 0 0"
} > "$work/list"
for v in FUZZ_TIME FUZZ_SEED; do
	case "${!v:-}" in
	*[!0-9]*) die "$v=${!v}: a number, please" ;;
	esac
done
{
	echo "MODE=$mode"
	echo "TESTDIRS=\"${TESTDIRS:-test.d}\""
	echo "TESTSKIP=\"${TESTSKIP:-}\""
	# For the guest's tests (/init reads this file): exported.
	[ -z "${FUZZ_TIME:-}" ] || echo "export FUZZ_TIME=$FUZZ_TIME"
	[ -z "${FUZZ_SEED:-}" ] || echo "export FUZZ_SEED=$FUZZ_SEED"
	# A multi-threaded TCG boot (the stress kernels, below): /init
	# turns the kprobe optimizer off and 00-boot checks that nothing in
	# the kernel can patch its text.
	case "$flavour" in *-stress) echo "export KMARK_MTTCG=1" ;; esac
} > "$work/kmark-run.conf"
if [ "$mode" = script ]; then
	[ -f "$script" ] || die "SCRIPT=$script: no such file"
	echo "file /etc/kmark-script.sh $(cd "$(dirname "$script")" && pwd)/$(basename "$script") 0755 0 0" >> "$work/list"
fi
"$BUILD/gen_init_cpio" "$work/list" > "$work/run.cpio"
cat "$out/initramfs.cpio" "$work/run.cpio" > "$work/initramfs.cpio"

# Guest TSC: the host's rate, or 1 GHz under -icount (1 insn = 1 ns).
case "${QEMU_ARGS:-}" in
*-icount*) tsc_khz=1000000 ;;
*)
	mhz=$(dmesg 2>/dev/null | sed -n 's/.*Refined TSC clocksource calibration: \([0-9.]*\) MHz.*/\1/p' | tail -n 1)
	[ -n "$mhz" ] || mhz=$(dmesg 2>/dev/null | sed -n 's/.*tsc: Detected \([0-9.]*\) MHz.*/\1/p' | tail -n 1)
	[ -n "$mhz" ] || mhz=$(awk -F': ' '/^cpu MHz/ { print $2; exit }' /proc/cpuinfo)
	tsc_khz=$(awk -v m="$mhz" 'BEGIN { printf "%d", m * 1000 }')
	;;
esac

# KVM only if a probe boot (cached per machine, 15 s at most) showed that it
# works. Else TCG. The stress flavour (JUMP_LABEL off) runs its vCPUs on
# host threads of their own (thread=multi): real two-CPU parallelism. The
# others keep one host thread for all vCPUs: with multi-threaded TCG (QEMU
# 7.2) a vCPU can run a stale int3 after the kernel patched a static key
# (text_poke_bp) and oops; ftrace's event toggling hits it too.
# -icount (make bench) needs TCG and one thread.
case "$flavour" in
*-stress) accel=tcg,thread=multi ;;
*) accel=tcg,thread=single ;;
esac
probe=$BUILD/.kvm-probe
case "${QEMU_ARGS:-}" in *-icount*) KMARK_ACCEL=tcg ;; esac
if [ -w /dev/kvm ] && [ "${KMARK_ACCEL:-}" != tcg ]; then
	if [ ! -f "$probe" ]; then
		if timeout 15 qemu-system-x86_64 -accel kvm -nodefaults -nographic \
			-serial stdio -no-reboot -m 256M -kernel "$kernel" \
			-append "console=ttyS0 panic=-1 rdinit=/bin/false" \
			</dev/null 2>/dev/null | grep -q 'Linux version'; then
			echo kvm > "$probe"
		else
			echo tcg > "$probe"
		fi
	fi
	[ "$(cat "$probe")" != kvm ] || accel=kvm
fi

case "$arch" in
x86_64) qemu=qemu-system-x86_64 ;;
i386) qemu=qemu-system-i386 ;;
esac
append="console=ttyS0 panic=-1 tsc_early_khz=$tsc_khz tsc=reliable ${KERNEL_ARGS:-}"
# shellcheck disable=SC2206
# Interactive: the console multiplexed with QEMU's monitor (mon:stdio), so
# that Ctrl-C reaches the guest's foreground program instead of killing
# QEMU; Ctrl-A X still quits.
serial=stdio
[ "$mode" != run ] || serial=mon:stdio
cmd=($qemu -accel $accel -nodefaults -nographic -serial $serial -no-reboot
     -smp 2,sockets=2 -m 512M -kernel "$kernel" -initrd "$work/initramfs.cpio"
     -append "$append" ${QEMU_ARGS:-})
info "accelerator: $accel$([ "${accel%%,*}" = tcg ] && [ -f "$probe" ] && echo " (KVM probe: $(cat "$probe"))")"
printf '  %-8s %s\n' QEMU "$(printf '%q ' "${cmd[@]}")" >&2

if [ "$mode" = run ]; then
	"${cmd[@]}"	# (not exec'd: the trap removes $work)
	exit 0
fi
log=${LOG:-$run/console.log}
limit=$(( ${TIMEOUT:-600} + 10#${FUZZ_TIME:-0} ))
set +e
timeout --foreground "$limit" "${cmd[@]}" < /dev/null > "$log" 2>&1
rc=$?
set -e
if [ $rc = 124 ]; then
	echo "kmark: QEMU timed out after $limit s (hang?); last lines:" >&2
	tail -n 20 "$log" >&2
fi
exit $rc

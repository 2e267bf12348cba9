#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# mkinitramfs.sh FLAVOUR: build/FLAVOUR/initramfs.cpio with the kernel's own
# usr/gen_init_cpio and a list file: static busybox, /init, the guest tests
# from qemu-tests/ and the static kmark tool (when userspace/ has it).
# What a run does (check, demo, run, script) comes in a second, small cpio
# made by boot.sh; the kernel unpacks both.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/scripts/lib.sh"
build_lock "$@"
INFO_TAG=CPIO
flavour=${1:?usage: mkinitramfs.sh FLAVOUR}
arch=$(flavour_arch "$flavour")
out=$BUILD/$flavour
gen=$BUILD/gen_init_cpio

if [ ! -x "$gen" ] || [ "$SRC/usr/gen_init_cpio.c" -nt "$gen" ]; then
	cc -O2 -o "$gen" "$SRC/usr/gen_init_cpio.c"
fi
case "$arch" in
x86_64) busybox=/bin/busybox ;;
i386) busybox=$BUILD/busybox-i386/bin/busybox ;;
esac
[ -x "$busybox" ] || die "no busybox for $arch at $busybox: run 'make setup'"

kmark_bin=
if [ -f "$top/userspace/Makefile" ]; then
	make -s -C "$top/userspace" static ARCH="$arch" >/dev/null ||
		die "building the static kmark tool for $arch failed"
	kmark_bin=$top/userspace/build/$arch/kmark
	[ -x "$kmark_bin" ] || die "userspace build did not produce $kmark_bin"
fi

# The guest tests' helper programs, static for the guest's arch:
# kmark-testprog and the fuzzer kmark-fuzz (qemu-tests/stress.d/30-fuzz.sh).
m32=; [ "$arch" = i386 ] && m32=-m32
for prog in kmark-testprog kmark-fuzz; do
	bin=$out/$prog
	if [ ! -x "$bin" ] || [ "$top/qemu-tests/$prog.c" -nt "$bin" ]; then
		cc $m32 -static -O2 -std=gnu11 -Wall -Wextra -Werror -o "$bin" \
			"$top/qemu-tests/$prog.c" || die "building $prog failed"
	fi
done

# task_struct offsets for the guest's kprobe tests, from this very build:
# qemu-tests/offsets/kmark_offsets.c as the single target of an M= build,
# from a copy (kbuild writes next to the sources of an M= build).
# The libtracefs program, static with Debian's libtracefs and
# libtraceevent of this arch (setup.sh unpacks them).
tc=$BUILD/tracecmd-$arch
tclib=$(find "$tc/usr/lib" -maxdepth 2 -name libtracefs.a 2>/dev/null | head -n 1)
tracefs_bin=
if [ -n "$tclib" ]; then
	tracefs_bin=$out/kmark-tracefs
	if [ ! -x "$tracefs_bin" ] || [ "$top/qemu-tests/kmark-tracefs.c" -nt "$tracefs_bin" ]; then
		cc $m32 -static -O2 -std=gnu11 -Wall -Wextra -Werror \
			-I"$tc/usr/include/tracefs" -I"$tc/usr/include/traceevent" \
			-o "$tracefs_bin" "$top/qemu-tests/kmark-tracefs.c" \
			"$tclib" "$(dirname "$tclib")/libtraceevent.a" -ldl 2> "$out/kmark-tracefs.log" ||
			{ cat "$out/kmark-tracefs.log" >&2; die "building kmark-tracefs failed"; }
	fi
fi

karch=$(kernel_arch "$arch")
osrc=$out/kmark-offsets
mkdir -p "$osrc"
for f in "$top"/qemu-tests/offsets/*; do
	cmp -s "$f" "$osrc/$(basename "$f")" || cp "$f" "$osrc/"
done
make -s -C "$SRC" O="$out" ARCH="$karch" M="$osrc" kmark_offsets.s ||
	die "computing task_struct offsets failed"
sed -n 's/^\.ascii "->\([A-Z_]*\) \$\{0,1\}\([0-9]*\) .*/\1=\2/p' \
	"$osrc/kmark_offsets.s" > "$out/task-offsets.sh"
grep -q '^TASK_PID=[0-9]' "$out/task-offsets.sh" ||
	die "no TASK_PID in $osrc/kmark_offsets.s"

# Modules: the kernel's own (modules_install) and the test modules, under
# /lib/modules/RELEASE/ as a user's system has them.
kver=$(cat "$out/include/config/kernel.release")
modroot=$out/modroot
rm -rf "$modroot"
if grep -q '^CONFIG_MODULES=y' "$out/.config"; then
	make -s -C "$SRC" O="$out" ARCH="$karch" INSTALL_MOD_PATH="$modroot" \
		modules_install >/dev/null ||
		die "installing the modules into $modroot failed"
	mkdir -p "$modroot/lib/modules/$kver/extra"
	for ko in "$out"/kmark-modules/*/*.ko; do
		[ -f "$ko" ] && cp "$ko" "$modroot/lib/modules/$kver/extra/"
	done
	# Signed with the build's own key where the kernel checks signatures
	# (x86_64: the lockdown LSM selects MODULE_SIG): a locked-down guest
	# loads them as a Secure Boot system loads its distribution's modules
	# (lockdown.d/20-kprobe-arm.sh needs a module load after lockdown).
	hash=$(sed -n 's/^CONFIG_MODULE_SIG_HASH="\(.*\)"/\1/p' "$out/.config")
	if grep -q '^CONFIG_MODULE_SIG=y' "$out/.config" && [ -n "$hash" ]; then
		[ -x "$out/scripts/sign-file" ] && [ -f "$out/certs/signing_key.pem" ] ||
			die "CONFIG_MODULE_SIG=y but no scripts/sign-file or certs/signing_key.pem in $out"
		for ko in $(find "$modroot" -name '*.ko'); do
			"$out/scripts/sign-file" "$hash" "$out/certs/signing_key.pem" \
				"$out/certs/signing_key.x509" "$ko" ||
				die "signing $ko failed"
		done
	fi
fi

list=$out/initramfs.list
# The ftracetest suites of qemu-tests/test.d/95-ftracetest.sh (its SUITES).
FTRACETEST_SUITES=$(sed -n 's/^SUITES="\(.*\)"$/\1/p' "$top/qemu-tests/test.d/95-ftracetest.sh")
[ -n "$FTRACETEST_SUITES" ] || die "no SUITES= line in qemu-tests/test.d/95-ftracetest.sh"
(cd "$top" && python3 qemu-tests/doc_commands.py README.md \
	Documentation/trace/kmark.rst) > "$out/doc-commands.sh.new"
mv "$out/doc-commands.sh.new" "$out/doc-commands.sh"
{
	for d in /dev /proc /sys /tmp /bin /sbin /usr /usr/bin /usr/sbin /root \
		 /etc /tests /lib; do
		echo "dir $d 0755 0 0"
	done
	echo "nod /dev/console 0600 0 0 c 5 1"
	echo "nod /dev/null 0666 0 0 c 1 3"
	echo "file /bin/busybox $busybox 0755 0 0"
	echo "slink /bin/sh /bin/busybox 0777 0 0"
	echo "file /init $top/qemu-tests/init 0755 0 0"
	for f in "$top"/qemu-tests/*.sh; do
		echo "file /tests/$(basename "$f") $f 0755 0 0"
	done
	for d in test.d stress.d lockdown.d; do
		[ -d "$top/qemu-tests/$d" ] || continue
		echo "dir /tests/$d 0755 0 0"
		for f in "$top"/qemu-tests/$d/*.sh; do
			echo "file /tests/$d/$(basename "$f") $f 0755 0 0"
		done
	done
	# The kernel's own ftracetest with the test files of the suites
	# 95-ftracetest.sh runs, unchanged, and the verdicts it expects.
	ft=$SRC/tools/testing/selftests/ftrace
	echo "dir /tests/ftrace 0755 0 0"
	echo "file /tests/ftrace/ftracetest $ft/ftracetest 0755 0 0"
	echo "dir /tests/ftrace/test.d 0755 0 0"
	echo "file /tests/ftrace/test.d/functions $ft/test.d/functions 0644 0 0"
	(cd "$ft/test.d" && find $FTRACETEST_SUITES -type d | LC_ALL=C sort) |
		while read -r d; do echo "dir /tests/ftrace/test.d/$d 0755 0 0"; done
	(cd "$ft/test.d" && find $FTRACETEST_SUITES -type f -name '*.tc' | LC_ALL=C sort) |
		while read -r f; do echo "file /tests/ftrace/test.d/$f $ft/test.d/$f 0755 0 0"; done
	echo "file /tests/ftracetest-expected.txt $top/qemu-tests/ftracetest-expected.txt 0644 0 0"
	# The documents' guest commands, as a test (qemu-tests/doc_commands.py).
	echo "file /tests/test.d/15-doc-commands.sh $out/doc-commands.sh 0755 0 0"
	echo "file /bin/kmark-testprog $out/kmark-testprog 0755 0 0"
	echo "file /bin/kmark-fuzz $out/kmark-fuzz 0755 0 0"
	echo "file /tests/task-offsets.sh $out/task-offsets.sh 0644 0 0"
	[ -z "$kmark_bin" ] || echo "file /bin/kmark $kmark_bin 0755 0 0"
	# Debian's trace-cmd (setup.sh unpacks it): the program, the
	# libraries it loads, libtraceevent's plugins (the function plugin
	# prints kernel_stack records), the loader; where Debian has them.
	[ -z "$tracefs_bin" ] || echo "file /bin/kmark-tracefs $tracefs_bin 0755 0 0"
	if [ -x "$tc/usr/bin/trace-cmd" ]; then
		(cd "$tc" && find . \( -name trace-cmd -path './usr/bin/*' -o \
			-name 'ld-linux*' -o -name libc.so.6 -o -name 'libtracefs.so.1*' -o \
			-name 'libtraceevent.so.1*' -o -name 'libzstd.so.1*' -o \
			-path '*/traceevent/plugins/*.so' \) | sed 's|^\.||' | LC_ALL=C sort) > "$out/tracecmd.files"
		sed 's|/[^/]*$||' "$out/tracecmd.files" | LC_ALL=C sort -u |
			while read -r d; do
				p=
				for c in ${d//\// }; do
					p=$p/$c
					case " /usr /usr/bin /lib " in *" $p "*) continue ;; esac
					echo "dir $p 0755 0 0"
				done
			done | awk '!seen[$0]++'
		while read -r f; do
			if [ -L "$tc$f" ]; then
				echo "slink $f $(readlink "$tc$f") 0777 0 0"
			else
				echo "file $f $tc$f 0755 0 0"
			fi
		done < "$out/tracecmd.files"
	fi
	if [ -d "$modroot/lib/modules" ]; then
		(cd "$modroot" && find lib -mindepth 1 -type d | LC_ALL=C sort) |
			while read -r d; do echo "dir /$d 0755 0 0"; done
		(cd "$modroot" && find lib -type f | LC_ALL=C sort) |
			while read -r f; do echo "file /$f $modroot/$f 0644 0 0"; done
	fi
} > "$list.new"
mv "$list.new" "$list"
"$gen" "$list" > "$out/initramfs.cpio.new"
mv "$out/initramfs.cpio.new" "$out/initramfs.cpio"

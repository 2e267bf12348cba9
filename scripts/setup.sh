#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Install what kmark needs on a Debian 12 machine, idempotently and quietly:
# Debian packages (only the missing ones), and the i386 static busybox
# unpacked into build/ (never installed system-wide).
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/scripts/lib.sh"
build_lock "$@"

pkgs=(linux-source-6.12 qemu-system-x86 busybox-static flex bison bc
      libelf-dev libssl-dev cpio xz-utils gcc-multilib make gcc python3
      perl rsync
      # the tools that open kmark's trace.dat, in the host tests
      # (userspace/tests/datcheck.py, qemu-tests/dat_check.py): trace-cmd
      # (libtraceevent, libtracecmd), KernelShark's libkshark and its
      # plugins, traceshark under a private Xvfb (xwininfo lists its windows)
      trace-cmd kernelshark libkshark2 traceshark xvfb x11-utils
      # depmod, so that the guests can modprobe kmark's modules
      kmod
      # a terminal to type into 'make run' as a person does (scripts/tests)
      tmux
      # kmark's files built with clang too (scripts/clang-check.sh)
      clang lld llvm
      # single-steps one event through QEMU's gdbstub (scripts/profile.sh)
      gdb
      # builds kmark's documents with the kernel's Sphinx setup
      # (scripts/docs-check.sh; the kernel's conf.py wants nothing more:
      # its default theme, alabaster, comes with it)
      python3-sphinx)

missing=()
for p in "${pkgs[@]}"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' ||
		missing+=("$p")
done
sudo_=""
[ "$(id -u)" = 0 ] || sudo_=sudo
# apt-get update, tried again while a mirror is being synced ("File has
# unexpected size ... Mirror sync in progress?": seen here, on the i386
# index of bookworm-security). Still failing, it warns and goes on: the
# install or download after it fails if an index it needs is missing.
apt_update() {
	local i
	for i in 1 2 3; do
		$sudo_ apt-get update -qq && return 0
		[ "$i" = 3 ] || { info "apt-get update failed; again in $((i * 15)) s"; sleep $((i * 15)); }
	done
	info "apt-get update still fails; going on with the indexes there are"
}
if [ ${#missing[@]} -gt 0 ]; then
	info "installing: ${missing[*]}"
	apt_update
	DEBIAN_FRONTEND=noninteractive $sudo_ apt-get install -y -qq \
		--no-install-recommends "${missing[@]}" >/dev/null
fi

# i386 busybox: extracted from the Debian package, not installed.
bb32="$BUILD/busybox-i386/bin/busybox"
if [ ! -x "$bb32" ]; then
	info "fetching busybox-static:i386"
	if ! dpkg --print-foreign-architectures | grep -qx i386; then
		$sudo_ dpkg --add-architecture i386
		apt_update
	fi
	tmp=$(mktemp -d)
	(cd "$tmp" && apt-get download -q busybox-static:i386 >/dev/null 2>&1) || {
		apt_update
		(cd "$tmp" && apt-get download -q busybox-static:i386 >/dev/null)
	}
	rm -rf "$BUILD/busybox-i386"
	mkdir -p "$BUILD/busybox-i386"
	dpkg -x "$tmp"/busybox-static_*_i386.deb "$BUILD/busybox-i386"
	rm -rf "$tmp"
	file_type=$(od -An -tx1 -j4 -N1 "$bb32" | tr -d ' ')
	[ "$file_type" = 01 ] || die "$bb32 is not a 32-bit ELF"
fi
# Debian's trace-cmd for the guests (qemu-tests/test.d/88-trace-cmd.sh):
# the packages of each arch, unpacked into build/tracecmd-ARCH (never
# installed), from which mkinitramfs.sh takes the program, the libraries it
# and libtraceevent's plugins load, and the dynamic loader; and links the
# libtracefs program (qemu-tests/kmark-tracefs.c) with the static
# libtracefs and libtraceevent of the -dev packages.
tracecmd_debs=(trace-cmd libtracefs1 libtraceevent1 libtraceevent1-plugin
	       libtracefs-dev libtraceevent-dev
	       libzstd1 libc6)
for a in amd64:x86_64 i386:i386; do
	dir=$BUILD/tracecmd-${a#*:}
	[ "$(cat "$dir/.debs" 2>/dev/null)" != "${tracecmd_debs[*]}" ] || continue
	info "fetching trace-cmd:${a%%:*} and the libraries it loads"
	tmp=$(mktemp -d)
	chmod 755 "$tmp"	# (apt's _apt user writes there)
	debs=("${tracecmd_debs[@]/%/:${a%%:*}}")
	(cd "$tmp" && apt-get download -q "${debs[@]}" >/dev/null 2>&1) || {
		apt_update
		(cd "$tmp" && apt-get download -q "${debs[@]}" >/dev/null)
	}
	rm -rf "$dir"
	mkdir -p "$dir"
	for d in "$tmp"/*.deb; do
		dpkg -x "$d" "$dir"
	done
	rm -rf "$tmp"
	[ -x "$dir/usr/bin/trace-cmd" ] || die "no usr/bin/trace-cmd in trace-cmd:${a%%:*}"
	echo "${tracecmd_debs[*]}" > "$dir/.debs"
done
[ -f /usr/src/linux-source-6.12.tar.xz ] ||
	die "/usr/src/linux-source-6.12.tar.xz missing after installing linux-source-6.12"
exit 0

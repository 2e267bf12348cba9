#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# build-kernel.sh FLAVOUR: prepare the tree, configure and build bzImage and
# modules out of tree in build/FLAVOUR, then the guest test module
# (qemu-tests/modules/, built with M= as any out-of-tree module is).
# Incremental: only what changed is rebuilt.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/scripts/lib.sh"
build_lock "$@"
INFO_TAG=BUILD
flavour=${1:?usage: build-kernel.sh FLAVOUR}
arch=$(kernel_arch "$(flavour_arch "$flavour")")
out=$BUILD/$flavour

"$top/scripts/prepare-tree.sh"
"$top/scripts/configure.sh" "$flavour"
# (a kernel without modules, i386-hardened, has no modules target)
targets=(bzImage)
! grep -q '^CONFIG_MODULES=y' "$out/.config" || targets+=(modules)
info "$flavour: make -j$JOBS ${targets[*]}"
start=$(date +%s)
log=$out/build.log
if ! make -C "$SRC" O="$out" ARCH="$arch" -j"$JOBS" "${targets[@]}" \
	>"$log" 2>&1; then
	grep -E 'error|Error|undefined reference' "$log" | head -n 40 >&2
	die "$flavour: kernel build failed (full log: $log)"
fi

# The test module, from a copy (kbuild writes its objects next to the
# sources of an M= build).
msrc=$out/kmark-modules
mkdir -p "$msrc"
for m in "$top"/qemu-tests/modules/*/; do
	[ "${targets[1]:-}" = modules ] || break
	name=$(basename "$m")
	mkdir -p "$msrc/$name"
	for f in "$m"*; do
		cmp -s "$f" "$msrc/$name/$(basename "$f")" || cp "$f" "$msrc/$name/"
	done
	if ! make -C "$SRC" O="$out" ARCH="$arch" M="$msrc/$name" modules \
		>>"$log" 2>&1; then
		grep -E 'error|Error|WARNING' "$log" | tail -n 20 >&2
		die "$flavour: building the test module $name failed (full log: $log)"
	fi
done

# Warnings in the files kmark adds or patches fail the build: their paths
# inside the kernel tree (never the checkout's path, which may hold "kmark").
mapfile -t ours < <(kmark_tree_files)
if warn=$(kmark_warnings "$log" "${ours[@]}"); then
	printf '%s\n' "$warn" >&2
	die "$flavour: compiler warnings in kmark's files (see above)"
fi
info "$flavour: built in $(( $(date +%s) - start )) s: $out/arch/x86/boot/bzImage"

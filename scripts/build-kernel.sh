#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# build-kernel.sh FLAVOUR: prepare the tree, configure and build bzImage out of
# tree in build/FLAVOUR. Incremental: only what changed is rebuilt.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/scripts/lib.sh"
INFO_TAG=BUILD
flavour=${1:?usage: build-kernel.sh FLAVOUR}
arch=$(kernel_arch "$(flavour_arch "$flavour")")
out=$BUILD/$flavour

"$top/scripts/prepare-tree.sh"
"$top/scripts/configure.sh" "$flavour"
info "$flavour: make -j$JOBS bzImage"
start=$(date +%s)
log=$out/build.log
if ! make -C "$SRC" O="$out" ARCH="$arch" -j"$JOBS" bzImage \
	>"$log" 2>&1; then
	grep -E 'error|Error|undefined reference' "$log" | head -n 40 >&2
	die "$flavour: kernel build failed (full log: $log)"
fi
# Warnings in kmark's own files fail the build: we keep them clean.
if grep -E '(kmark|include/trace/kmark).*warning:' "$log" >&2; then
	die "$flavour: compiler warnings in kmark files (see above)"
fi
info "$flavour: built in $(( $(date +%s) - start )) s: $out/arch/x86/boot/bzImage"

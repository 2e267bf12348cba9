#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# configure.sh FLAVOUR: tinyconfig + our fragments, merged with the kernel's
# merge_config.sh, then olddefconfig. Fails if any requested option did not
# survive (as kunit.py does). Only rewrites .config when it would change, so
# an unchanged configuration never triggers a full rebuild.
#   x86_64         common + x86_64 + ftrace + bench: the x86_64 test kernel (patched
#                  NOPs, ftrace beside kmark) and make bench's kernel
#   i386-stress    common + i386 + stress: kmemleak, KFENCE, lock
#                  debugging without lockdep's proofs, nothing that patches
#                  text (no JUMP_LABEL, no TRACING); booted with both vCPUs
#                  parallel (make check's i386 kernel)
#   x86_64-stress  the same on x86_64, + kasan (on request only)
#   i386-hardened  common + i386 + hardened: what kernel-hardening-checker
#                  asks a product kernel to leave out is off (no debugfs,
#                  ftrace, kprobes, kallsyms, modules, LKDTM, fault
#                  injection, SysRq), the lockdown LSM on (make check's)
#   i386           common + i386 + debug (lockdep, so TRACING but no
#                  FTRACE; patched NOPs): make run ARCH=i386
#   i386-lockdep   the same + dynftrace, make check's: lockdep while static
#                  keys are patched (the stress kernels have no patching),
#                  and the function tracer (DYNAMIC_FTRACE), which tells
#                  kmark's kprobe events which functions are notrace
#   i386-bench     common + i386 + bench: make bench's kmark-only i386 figures
#   x86_64-nokmark common + x86_64 + ftrace + bench + nokmark (make bench's size figure)
#   ARCH-matrix    common + ARCH + matrix: the base of the configuration
#                  matrix (scripts/configs.sh adds each variation to it)
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/scripts/lib.sh"
INFO_TAG=CONFIG

flavour=${1:?usage: configure.sh FLAVOUR}
arch=$(kernel_arch "$(flavour_arch "$flavour")")
cdir=$top/scripts/config
case "$flavour" in
x86_64) frags=(common x86_64 ftrace bench) ;;
x86_64-stress) frags=(common x86_64 stress kasan) ;;
i386-stress) frags=(common i386 stress) ;;
i386-hardened) frags=(common i386 hardened) ;;
i386) frags=(common i386 debug) ;;
i386-lockdep) frags=(common i386 debug dynftrace) ;;
i386-bench) frags=(common i386 bench) ;;
x86_64-nokmark) frags=(common x86_64 ftrace bench nokmark) ;;
x86_64-clang) frags=(common x86_64 ftrace bench) ;;
x86_64-matrix) frags=(common x86_64 ftrace matrix) ;;
*-matrix) frags=(common "$(flavour_arch "$flavour")" matrix) ;;
*) die "unknown flavour $flavour" ;;
esac
out=$BUILD/$flavour
case "$flavour" in *-matrix) out=$BUILD/$flavour-base ;; esac
mkdir -p "$out"
files=()
for f in "${frags[@]}"; do files+=("$cdir/$f.config"); done

# Skip when neither the fragments, our Kconfig nor our patches changed.
sum=$(cat "${files[@]}" "$top"/scripts/patches/* \
	"$SRC/.kmark/source-version" 2>/dev/null | sha1sum)
if [ -f "$out/.config" ] && [ -f "$out/.kmark-config-sum" ] &&
   [ "$(cat "$out/.kmark-config-sum")" = "$sum" ]; then
	exit 0
fi

info "$flavour: tinyconfig + ${frags[*]}"
tmp=$out/.kmark-tmp
rm -rf "$tmp"; mkdir -p "$tmp"
make -s -C "$SRC" O="$tmp" ARCH="$arch" $(flavour_make_args "$flavour") tinyconfig >/dev/null
(cd "$tmp" && KCONFIG_CONFIG=.config "$SRC/scripts/kconfig/merge_config.sh" \
	-m -O "$tmp" .config "${files[@]}" >/dev/null)
make -s -C "$SRC" O="$tmp" ARCH="$arch" $(flavour_make_args "$flavour") olddefconfig >/dev/null

config_requested "$tmp/.config" "${files[@]}" ||
	die "$flavour: options above were dropped by olddefconfig (missing dependency?)"

if ! cmp -s "$tmp/.config" "$out/.config"; then
	cp "$tmp/.config" "$out/.config"
fi
rm -rf "$tmp"
echo "$sum" > "$out/.kmark-config-sum"

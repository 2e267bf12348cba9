#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# configs.sh [ARCH...]: the configuration matrix (make configs; make check
# runs it). Each configuration is tinyconfig + common + ARCH + matrix
# (CONFIG_WERROR=y) + one variation:
#   off        CONFIG_KMARK=n: the markers in the scheduler, fs/sync.c,
#              fork/exit and the module loader compile away
#   nokprobes  CONFIG_KPROBES=n: markers without kprobe events
#   up         CONFIG_SMP=n
#   nomodules  CONFIG_MODULES=n
#   nojumplabel CONFIG_JUMP_LABEL=n (on i386 the i386-stress test kernel
#              is built and booted so, whole)
#   ftrace     ftrace's function tracer with DYNAMIC_FTRACE (the notrace
#              refusal of kprobe events; no test kernel has it)
# The base
# (configure.sh ARCH-matrix, kept in build/ARCH-matrix-base) is made once;
# each variation is merged onto it and olddefconfig'd, and must keep every
# option it asks for. In each,
# after make prepare, the objects kmark adds or patches are built: the
# kmark objects the configuration enables, the files with markers, and the
# sample module (mkpatches.py --objects, as the per-patch builds). A warning in any of them fails (CONFIG_WERROR=y, and the
# log is searched too). All of an arch's configurations share one output
# directory (build/ARCH-matrix): what a variation does not touch is built
# once. Prints one KTAP-style line per configuration, then
# "N passed, N failed".
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/scripts/lib.sh"
INFO_TAG=CONFIGS
ARCHES=("$@")
[ ${#ARCHES[@]} -gt 0 ] || ARCHES=(x86_64 i386)
VARIANTS=${KMARK_MATRIX:-off nokprobes up nomodules nojumplabel ftrace}
# i386's own list (make check: off and up, the small boards' kernels).
VARIANTS_I386=${KMARK_MATRIX_I386:-$VARIANTS}

"$top/scripts/prepare-tree.sh" || die "prepare-tree.sh failed"

# configure ARCH VARIANT: $out/.config = the base + the variation, checked.
configure() {
	local arch=$1 v=$2 frag=$top/scripts/config/matrix-$2.config
	[ -f "$frag" ] || { echo "no matrix configuration $v"; return 1; }
	cp "$BUILD/$arch-matrix-base/.config" "$out/.config"
	(cd "$out" && "$SRC/scripts/kconfig/merge_config.sh" -m -O "$out" \
		.config "$frag" > /dev/null) || return 1
	make -s -C "$SRC" O="$out" ARCH="$arch" olddefconfig > /dev/null || return 1
	config_requested "$out/.config" "$frag" 2>&1
}

pass=0 fail=0
for arch in "${ARCHES[@]}"; do
	out=$BUILD/$arch-matrix
	mkdir -p "$out"
	if ! "$top/scripts/configure.sh" "$arch-matrix" > "$out/config-base.log" 2>&1; then
		echo "not ok $arch-matrix: the base configuration"
		sed 's/^/# /' "$out/config-base.log"
		fail=$((fail + 1))
		continue
	fi
	vs=$VARIANTS
	[ "$arch" != i386 ] || vs=$VARIANTS_I386
	for v in $vs; do
		name=$arch-matrix-$v
		log=$out/build-$v.log
		t0=$(date +%s)
		if ! configure "$arch" "$v" > "$out/config-$v.log" 2>&1; then
			echo "not ok $name: configuration"
			sed 's/^/# /' "$out/config-$v.log"
			fail=$((fail + 1))
			continue
		fi
		mapfile -t objs < <(python3 "$top/scripts/mkpatches.py" \
			--objects "$SRC" "$out/.config")
		info "$name: ${objs[*]}"
		if ! make -C "$SRC" O="$out" ARCH="$arch" -j"$JOBS" "${objs[@]}" \
			> "$log" 2>&1; then
			echo "not ok $name: build failed ($log)"
			grep -E 'error|warning' "$log" | head -n 20 | sed 's/^/# /'
			fail=$((fail + 1))
		elif grep -E ': warning:' "$log" > /dev/null; then
			echo "not ok $name: warnings ($log)"
			grep -E ': warning:' "$log" | head -n 20 | sed 's/^/# /'
			fail=$((fail + 1))
		else
			echo "ok $name: ${#objs[@]} targets, no warning ($(( $(date +%s) - t0 )) s)"
			pass=$((pass + 1))
		fi
	done
done
echo "$pass passed, $fail failed"
[ $fail = 0 ]

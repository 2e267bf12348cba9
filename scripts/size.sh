#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# size.sh [--configs] [ARCH]: what kmark and ftrace each add to a tinyconfig vmlinux
# (make size; i386 by default, the small boards' arch). Every kernel is
# tinyconfig + SMP, PRINTK and JUMP_LABEL (the base) + one variation, built
# whole in build/size-ARCH/NAME; its vmlinux's text, data and bss (size(1),
# Berkeley format) less the base's is what the variation adds:
#   kmark          KMARK alone: markers, events, filters, instances,
#                  triggers, the ring buffer and tracefs it selects
#   kmark+kprobes  + KPROBES and KMARK_KPROBES
#   kmark+hist     + KMARK_HIST (tracing_map, hist triggers, synthetic
#                  events)
#   kmark+flight   + KMARK_FLIGHT
#   ftrace         FTRACE + ENABLE_DEFAULT_TRACERS: TRACING and
#                  EVENT_TRACING, the least that gives trace events, no
#                  function tracer
#   ftrace+kprobes + KPROBES and KPROBE_EVENTS
#   ftrace+hist    + HIST_TRIGGERS
# Each configuration must keep what it asks for (configure.sh's check).
# Prints the table (markdown), also written to build/size-ARCH/table.md
# and BENCHMARKS.md, and "ok"/"not ok" per build, then "N passed, N
# failed". --configs: only make each configuration and check it (make
# check does, niced: a minute instead of eight kernel builds).
configs_only=
[ "${1:-}" != --configs ] || { configs_only=1; shift; }
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/scripts/lib.sh"
INFO_TAG=SIZE
arch=${1:-i386}
karch=$(kernel_arch "$arch")
out=$BUILD/size-$arch
mkdir -p "$out"
# (make check prepared the tree already: KMARK_TREE_READY=1)
[ "${KMARK_TREE_READY:-}" = 1 ] ||
	"$top/scripts/prepare-tree.sh" > "$out/prepare.log" 2>&1 ||
	{ cat "$out/prepare.log"; die "prepare-tree.sh failed"; }

base='CONFIG_SMP=y
CONFIG_PRINTK=y
CONFIG_JUMP_LABEL=y'
[ "$arch" = x86_64 ] && base="$base
CONFIG_64BIT=y"
[ "$arch" = i386 ] && base="$base
# CONFIG_64BIT is not set"
nokmark='# CONFIG_KMARK_KPROBES is not set
# CONFIG_KMARK_HIST is not set
# CONFIG_KMARK_FLIGHT is not set
# CONFIG_KMARK_BENCH is not set
# CONFIG_KMARK_KUNIT_TEST is not set'
noftrace='# CONFIG_FUNCTION_TRACER is not set
# CONFIG_FUNCTION_GRAPH_TRACER is not set
# CONFIG_DYNAMIC_FTRACE is not set
# CONFIG_STACK_TRACER is not set
# CONFIG_IRQSOFF_TRACER is not set
# CONFIG_SCHED_TRACER is not set
# CONFIG_HWLAT_TRACER is not set
# CONFIG_OSNOISE_TRACER is not set
# CONFIG_TIMERLAT_TRACER is not set
# CONFIG_FTRACE_SYSCALLS is not set
# CONFIG_TRACER_SNAPSHOT is not set
# CONFIG_BLK_DEV_IO_TRACE is not set
# CONFIG_KPROBE_EVENTS is not set
# CONFIG_UPROBE_EVENTS is not set
# CONFIG_SYNTH_EVENTS is not set
# CONFIG_USER_EVENTS is not set
# CONFIG_HIST_TRIGGERS is not set
# CONFIG_TRACE_EVENT_INJECT is not set
# CONFIG_RV is not set
# CONFIG_KMARK is not set'
variant() {
	case "$1" in
	base) echo "# CONFIG_KMARK is not set
# CONFIG_FTRACE is not set" ;;
	kmark) printf 'CONFIG_KMARK=y\n%s\n# CONFIG_FTRACE is not set\n' "$nokmark" ;;
	kmark+kprobes) printf 'CONFIG_KMARK=y\n%s\nCONFIG_KPROBES=y\nCONFIG_KMARK_KPROBES=y\n# CONFIG_FTRACE is not set\n' \
		"$(echo "$nokmark" | grep -v KMARK_KPROBES)" ;;
	kmark+hist) printf 'CONFIG_KMARK=y\n%s\nCONFIG_KMARK_HIST=y\n# CONFIG_FTRACE is not set\n' \
		"$(echo "$nokmark" | grep -v KMARK_HIST)" ;;
	kmark+flight) printf 'CONFIG_KMARK=y\n%s\nCONFIG_KMARK_FLIGHT=y\n# CONFIG_FTRACE is not set\n' \
		"$(echo "$nokmark" | grep -v KMARK_FLIGHT)" ;;
	ftrace) printf 'CONFIG_FTRACE=y\nCONFIG_ENABLE_DEFAULT_TRACERS=y\n%s\n' "$noftrace" ;;
	ftrace+kprobes) printf 'CONFIG_FTRACE=y\nCONFIG_ENABLE_DEFAULT_TRACERS=y\nCONFIG_KPROBES=y\nCONFIG_KPROBE_EVENTS=y\n%s\n' \
		"$(echo "$noftrace" | grep -v KPROBE_EVENTS)" ;;
	ftrace+hist) printf 'CONFIG_FTRACE=y\nCONFIG_ENABLE_DEFAULT_TRACERS=y\nCONFIG_HIST_TRIGGERS=y\n%s\n' \
		"$(echo "$noftrace" | grep -Ev 'HIST_TRIGGERS|SYNTH_EVENTS')" ;;
	esac
}
names="base kmark kmark+kprobes kmark+hist kmark+flight ftrace ftrace+kprobes ftrace+hist"
pass=0 fail=0
declare -A text data bss
for n in $names; do
	d=$out/$n
	mkdir -p "$d"
	{ echo "$base"; variant "$n"; } > "$d/fragment.config"
	t0=$(date +%s)
	if ! make -s -C "$SRC" O="$d" ARCH="$karch" tinyconfig > "$d/build.log" 2>&1 ||
	   ! (cd "$d" && "$SRC/scripts/kconfig/merge_config.sh" -m -O "$d" .config fragment.config) >> "$d/build.log" 2>&1 ||
	   ! make -s -C "$SRC" O="$d" ARCH="$karch" olddefconfig >> "$d/build.log" 2>&1; then
		echo "not ok $n: configuration ($d/build.log)"
		fail=$((fail + 1))
		continue
	fi
	if ! config_requested "$d/.config" "$d/fragment.config" 2>> "$d/build.log"; then
		echo "not ok $n: options dropped by olddefconfig ($d/build.log)"
		tail -n 5 "$d/build.log" | sed 's/^/# /'
		fail=$((fail + 1))
		continue
	fi
	if [ -n "$configs_only" ]; then
		echo "ok $n: configuration keeps what it asks for"
		pass=$((pass + 1))
		continue
	fi
	if ! make -C "$SRC" O="$d" ARCH="$karch" -j"$JOBS" vmlinux >> "$d/build.log" 2>&1; then
		echo "not ok $n: build failed ($d/build.log)"
		fail=$((fail + 1))
		continue
	fi
	read -r t dt b _ < <(size -B "$d/vmlinux" | tail -n 1)
	text[$n]=$t data[$n]=$dt bss[$n]=$b
	echo "ok $n: text $t data $dt bss $b (built in $(( $(date +%s) - t0 )) s)"
	pass=$((pass + 1))
done
if [ -n "$configs_only" ]; then
	echo "$pass passed, $fail failed"
	[ "$fail" = 0 ]
	exit
fi
kb() { awk -v v="$1" 'BEGIN { printf "%.1f", v / 1024 }'; }
# row NAME OVER: what NAME adds over OVER
row() {
	local n=$1 o=$2 t d b
	[ -n "${text[$n]:-}" ] && [ -n "${text[$o]:-}" ] || { echo "| $n | | | | | |"; return; }
	t=$((text[$n] - text[$o])) d=$((data[$n] - data[$o])) b=$((bss[$n] - bss[$o]))
	echo "| $n | $o | $(kb $t) | $(kb $d) | $(kb $b) | $(kb $((t + d + b))) |"
}
total() { echo $(( text[$1] + data[$1] + bss[$1] - text[base] - data[base] - bss[base] )); }
{
	echo "| kernel | over | text KB | data KB | bss KB | total KB |"
	echo "|---|---|---:|---:|---:|---:|"
	row kmark base
	row kmark+kprobes kmark
	row kmark+hist kmark
	row kmark+flight kmark
	row ftrace base
	row ftrace+kprobes ftrace
	row ftrace+hist ftrace
	if [ -n "${text[kmark]:-}" ] && [ -n "${text[ftrace]:-}" ] && [ -n "${text[base]:-}" ]; then
		echo
		echo "kmark's core over ftrace's least event tracing (both with the ring buffer and tracefs): $(awk -v a="$(total kmark)" -v b="$(total ftrace)" 'BEGIN { printf "%.2fx", a / b }')"
	fi
} | tee "$out/table.md"
# BENCHMARKS.md's section (make bench keeps it), when every kernel built.
if [ "$fail" = 0 ]; then
	# Runtime memory, from make check's 32 MiB boot of i386-hardened
	# (qemu-tests/tiny-guest.sh), when there is one.
	mem=$(sed -n "s/^ *# \(kmark's first use and sched_switch enabled .*\)\r*$/\1/p" \
		"$BUILD/check/i386-hardened-tiny.log" 2>/dev/null | tail -n 1)
	[ -z "$mem" ] || mem="Runtime memory, make check's 32 MiB i386-hardened boot (qemu-tests/tiny-guest.sh, two CPUs, kmark's defaults): $mem."
	python3 - "$top/BENCHMARKS.md" "$out/table.md" "$arch" "$(git -C "$top" rev-parse --short HEAD 2>/dev/null)" "$mem" <<'PY'
import datetime, sys
dest, table, arch, rev, mem = sys.argv[1:6]
B, E = '<!-- make size: begin -->', '<!-- make size: end -->'
try:
    old = open(dest).read()
except OSError:
    old = '# kmark benchmarks\n'
sec = [B, f'## What each part adds to a kernel ({arch}, make size)', '',
       f'Measured by `make size` on {datetime.date.today()} at {rev}: each kernel is '
       f'tinyconfig + SMP, PRINTK and JUMP_LABEL + the part, built whole; the '
       f'figures are its vmlinux\'s text, data and bss (`size -B`) less those of '
       f'the kernel it is added to. kmark counts the ring buffer and tracefs it '
       f'selects, as ftrace does. Both kprobes rows hold the kallsyms table '
       f'(KPROBES selects KALLSYMS): most of their data.', '',
       open(table).read().rstrip('\n')]
if mem:
    sec += ['', mem]
sec.append(E)
i, j = old.find(B), old.find(E)
new = old[:i] + '\n'.join(sec) + old[j + len(E):] if 0 <= i < j else \
    old.rstrip('\n') + '\n\n' + '\n'.join(sec) + '\n'
open(dest, 'w').write(new)
PY
	info "BENCHMARKS.md: the size section"
fi
echo "$pass passed, $fail failed"
[ "$fail" = 0 ]

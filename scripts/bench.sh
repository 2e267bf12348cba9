#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# make bench [QUICK=1]: kmark against ftrace, side by side in one boot of
# the x86_64 bench kernel (no lockdep), once under instruction counting
# (-icount shift=0: 1 guest ns = 1 instruction; the headline) and once under
# plain TCG (wall clock, noisy), then one call of each path single-stepped
# (scripts/profile.sh). Writes BENCHMARKS.md (QUICK: only
# build/bench/BENCHMARKS.quick.md) and ends with "N passed, N failed",
# where each figure that was produced is a pass.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/scripts/lib.sh"
INFO_TAG=BENCH
quick=${QUICK:-0}
out=$BUILD/bench
mkdir -p "$out"
if [ "$quick" = 1 ]; then
	env='N=20000 RUNS=1 PP=500 FLOOD=100000 DRAIN=20000 IDLE=2 LAT=20 LONG=1'
else
	env='N=200000 RUNS=5 PP=5000 FLOOD=300000 DRAIN=100000 IDLE=5 LAT=100 LONG=60'
fi

"$top/scripts/setup.sh"
"$top/scripts/build-kernel.sh" x86_64
"$top/scripts/mkinitramfs.sh" x86_64
printf '#!/bin/sh\ntaskset -p 1 $$ > /dev/null\n%s . /tests/bench.sh\n' \
	"$(echo "$env" | sed 's/\([A-Z]*=[0-9]*\)/export \1;/g')" > "$out/run.sh"

# BENCH_MODES=icount leaves the plain-TCG boot out (make check: its
# wall-clock figures are noise on a busy machine, and a boot long).
for mode in ${BENCH_MODES:-icount tcg}; do
	qa=
	[ $mode = icount ] && qa='-icount shift=0,sleep=off'
	info "boot ($mode): $env"
	start=$(date +%s)
	LOG=$out/$mode.log TIMEOUT=3000 QEMU_ARGS="$qa" \
		"$top/scripts/boot.sh" x86_64 script "$out/run.sh" 2>"$out/$mode.cmd" || true
	echo "$(( $(date +%s) - start ))" > "$out/$mode.secs"
done

# The dump at a panic: kmark's and ftrace's, a DUMP_KB KiB buffer each, in
# one panic (qemu-tests/bench-dump.sh), under -icount.
dump_kb=1024
[ "$quick" != 1 ] || dump_kb=256
printf '#!/bin/sh\nexport DUMP_KB=%s\n. /tests/bench-dump.sh\n' "$dump_kb" > "$out/run-dump.sh"
info "boot (icount): the dump of a $dump_kb KiB buffer at a panic, kmark's and ftrace's"
LOG=$out/icount-dump.log TIMEOUT=1200 QEMU_ARGS='-icount shift=0,sleep=off' \
	"$top/scripts/boot.sh" x86_64 script "$out/run-dump.sh" 2>/dev/null || true

# One call of each path single-stepped under gdb: where its instructions
# go, function by function (the report's "Where the instructions go").
# PROFILE=0 leaves it out (make check's QUICK run: several minutes of
# single steps on a busy machine, and a figure, not a test).
rm -f "$out/profile.txt"
if [ "${PROFILE:-1}" = 0 ]; then
	info "profile: left out (PROFILE=0)"
else
	info "profile: one call of each path, single-stepped (gdb)"
	REPS=$([ "$quick" = 1 ] && echo 3 || echo 5) \
		"$top/scripts/profile.sh" "$out/profile.txt" || true
fi

vmlinux=$BUILD/x86_64/vmlinux
# The disabled marker site: kmark_bench_marker's code, for the table.
objdump -d --no-show-raw-insn "$vmlinux" > "$out/vmlinux.dis"
awk '/<kmark_bench_marker>:$/ { p = 1 } p && /^$/ { exit } p' "$out/vmlinux.dis" > "$out/site.txt"
rm -f "$out/vmlinux.dis"
# kmark's run-time objects (not its KUnit tests or this bench facility).
(cd "$BUILD/x86_64/kernel/trace" && size kmark.o kmark_record.o \
	kmark_output.o kmark_fs.o kmark_filter.o kmark_kprobe.o) > "$out/objsize.txt"
# What a build holds: code (the sizes of all functions: .text itself is
# padded to 2 MiB on x86_64), read-only data and data.
vmsize() {
	nm -S --defined-only "$1" | python3 -c '
import sys
code, sym = 0, {}
for l in sys.stdin:
    f = l.split()
    if len(f) == 4 and f[2] in "tTwW":
        code += int(f[1], 16)
    if len(f) >= 3:
        sym[f[-1]] = int(f[0], 16)
print("code=%d rodata=%d data=%d" % (code, sym["__end_rodata"] - sym["__start_rodata"],
                                     sym["_edata"] - sym["_sdata"]))'
}
vmsize "$vmlinux" > "$out/size-kmark.txt"
if [ "$quick" != 1 ]; then
	# The same kernel without kmark: its text size, and the ping-pong
	# untraced, against the kmark kernel's untraced (markers compiled in,
	# disabled) run; -icount makes the two boots comparable.
	"$top/scripts/build-kernel.sh" x86_64-nokmark
	"$top/scripts/mkinitramfs.sh" x86_64-nokmark
	vmsize "$BUILD/x86_64-nokmark/vmlinux" > "$out/size-nokmark.txt"
	pp=$(echo "$env" | sed 's/.*PP=\([0-9]*\).*/\1/')
	runs=$(echo "$env" | sed 's/.*RUNS=\([0-9]*\).*/\1/')
	printf '#!/bin/sh\ntaskset -p 1 $$ > /dev/null\nkmark-testprog pingpong-time 500 > /dev/null\nfor i in $(seq %s); do echo "BENCH switch.nokmark $(kmark-testprog pingpong-time %s)"; done\n' \
		"$runs" "$pp" > "$out/run-nokmark.sh"
	info "boot (icount, kernel without kmark)"
	LOG=$out/icount-nokmark.log TIMEOUT=1200 QEMU_ARGS='-icount shift=0,sleep=off' \
		"$top/scripts/boot.sh" x86_64-nokmark script "$out/run-nokmark.sh" 2>/dev/null || true
	# i386 (no ftrace there): kmark's per-event figures alone, on a bench
	# kernel of its own (no lockdep), under icount.
	"$top/scripts/build-kernel.sh" i386-bench
	"$top/scripts/mkinitramfs.sh" i386-bench
	sed 's/^\(export N=\)/export ONLY_KMARK=1; \1/' "$out/run.sh" > "$out/run-i386.sh"
	info "boot (icount, i386 bench kernel, kmark only)"
	LOG=$out/icount-i386.log TIMEOUT=3000 QEMU_ARGS='-icount shift=0,sleep=off' \
		"$top/scripts/boot.sh" i386-bench script "$out/run-i386.sh" 2>/dev/null || true
else
	rm -f "$out/size-nokmark.txt" "$out/icount-nokmark.log" "$out/icount-i386.log"
fi
dest=$top/BENCHMARKS.md
[ "$quick" = 1 ] && dest=$out/BENCHMARKS.quick.md
python3 "$top/scripts/bench_report.py" "$out" "$dest" "$quick" "$env" \
	"$(qemu-system-x86_64 --version | head -n 1)" \
	"$(dpkg-query -W -f='${Version}' linux-source-6.12)"

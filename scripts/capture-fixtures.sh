#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# capture-fixtures.sh ARCH: boot ARCH, run qemu-tests/capture.sh, and store
# its trace_pipe output and the kernel's counts as fixtures for the host
# tests of userspace/ (userspace/tests/fixtures/real-ARCH.trace and .counts).
# capture-fixtures.sh --raw ARCH: run qemu-tests/capture-raw.sh instead and
# unpack its raw pages, format files (events/SYS/NAME/), text, saved_comms
# and saved_cmdlines into
# userspace/tests/fixtures/raw-ARCH-ids/ (records that name their task by
# common_comm_id; raw-ARCH/ are older captures, with common_comm).
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/scripts/lib.sh"
raw=0
[ "${1:-}" != --raw ] || { raw=1; shift; }
arch=${1:?usage: capture-fixtures.sh [--raw] ARCH}
log=$BUILD/$arch/run/capture.log
"$top/scripts/build-kernel.sh" "$arch"
"$top/scripts/mkinitramfs.sh" "$arch"
if [ $raw = 1 ]; then
	LOG=$log TIMEOUT=300 "$top/scripts/boot.sh" "$arch" script "$top/qemu-tests/capture-raw.sh"
	dest=$top/userspace/tests/fixtures/raw-$arch-ids
	rm -rf "$dest"; mkdir -p "$dest"
	tr -d '\r' < "$log" | sed -n '/^KMARK-RAW-BEGIN$/,/^KMARK-RAW-END$/p' |
		sed '1d;$d' | grep -E '^[A-Za-z0-9+/=]+$' | base64 -d | tar -C "$dest" -xzf - ||
		die "capture failed; console log: $log"
	echo "$dest: $(grep -vc "^#" "$dest/trace.txt") records; $(ls "$dest" | tr "\n" " ")"
	exit 0
fi
LOG=$log TIMEOUT=300 "$top/scripts/boot.sh" "$arch" script "$top/qemu-tests/capture.sh"
fx=$top/userspace/tests/fixtures
tr -d '\r' < "$log" | sed -n '/^KMARK-CAPTURE-BEGIN$/,/^KMARK-CAPTURE-END$/p' |
	sed '1d;$d' > "$fx/real-$arch.trace"
tr -d '\r' < "$log" | sed -n 's/^KMARK-CAPTURE-COUNTS //p' > "$fx/real-$arch.counts"
[ -s "$fx/real-$arch.trace" ] && [ -s "$fx/real-$arch.counts" ] ||
	die "capture failed; console log: $log"
echo "$fx/real-$arch.trace: $(wc -l < "$fx/real-$arch.trace") lines; $(cat "$fx/real-$arch.counts")"

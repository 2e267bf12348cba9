#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# capture-fixtures.sh ARCH: boot ARCH, run qemu-tests/capture.sh, and store
# its trace_pipe output and the kernel's counts as fixtures for the host
# tests of userspace/ (userspace/tests/fixtures/real-ARCH.trace and .counts).
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/scripts/lib.sh"
arch=${1:?usage: capture-fixtures.sh ARCH}
log=$BUILD/$arch/run/capture.log
"$top/scripts/build-kernel.sh" "$arch"
"$top/scripts/mkinitramfs.sh" "$arch"
LOG=$log TIMEOUT=300 "$top/scripts/boot.sh" "$arch" script "$top/qemu-tests/capture.sh"
fx=$top/userspace/tests/fixtures
tr -d '\r' < "$log" | sed -n '/^KMARK-CAPTURE-BEGIN$/,/^KMARK-CAPTURE-END$/p' |
	sed '1d;$d' > "$fx/real-$arch.trace"
tr -d '\r' < "$log" | sed -n 's/^KMARK-CAPTURE-COUNTS //p' > "$fx/real-$arch.counts"
[ -s "$fx/real-$arch.trace" ] && [ -s "$fx/real-$arch.counts" ] ||
	die "capture failed; console log: $log"
echo "$fx/real-$arch.trace: $(wc -l < "$fx/real-$arch.trace") lines; $(cat "$fx/real-$arch.counts")"

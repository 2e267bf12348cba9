# SPDX-License-Identifier: GPL-2.0
# Shared helpers for kmark's scripts (sourced, not run).
top=${top:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)}
BUILD=${BUILD:-$top/build}
SRC=$BUILD/linux
JOBS=${JOBS:-$(nproc)}

info() { printf '  %-8s %s\n' "${INFO_TAG:-KMARK}" "$*" >&2; }
die() { printf 'kmark: error: %s\n' "$*" >&2; exit 1; }

# Kernel ARCH= and the output folder for our ARCH names.
kernel_arch() {
	case "$1" in
	x86_64) echo x86_64 ;;
	i386) echo i386 ;;
	*) die "unknown ARCH '$1' (use x86_64 or i386)" ;;
	esac
}
# A build flavour: x86_64 (tests, lockdep), i386, x86_64-bench.
flavour_arch() { echo "${1%%-*}"; }

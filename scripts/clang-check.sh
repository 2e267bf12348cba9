#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# clang-check.sh: kmark with clang (LLVM=1), in an x86_64 tree configured
# and prepared for clang: the objects kmark adds or patches built without a
# warning in kmark's files, then kmark()'s type check (typecheck.sh) with
# clang's -Wformat. Not a whole kernel: what a clang user's build of these
# files would say. Prints "ok"/"not ok" lines and "N passed, N failed".
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/scripts/lib.sh"
INFO_TAG=CLANG
flavour=x86_64-clang
out=$BUILD/$flavour
passed=0 failed=0
res() {
	if [ "$1" = 0 ]; then echo "ok - $2"; passed=$((passed + 1));
	else echo "not ok - $2"; failed=$((failed + 1)); fi
}

if ! command -v clang > /dev/null || ! command -v ld.lld > /dev/null; then
	res 1 "$flavour: clang and ld.lld are not installed (make setup installs them)"
	echo "$passed passed, $failed failed"
	exit 0
fi
# check.sh has the tree ready (and another build may be preparing it).
[ -n "${KMARK_TREE_READY:-}" ] ||
	"$top/scripts/prepare-tree.sh" > /dev/null || die "preparing the tree failed"
"$top/scripts/configure.sh" "$flavour" || die "configuring $flavour failed"
log=$out/build.log
start=$(date +%s)
# Every object of the tree that holds a kmark() site or kmark's code.
objs=(fs/sync.o kernel/fork.o kernel/exit.o kernel/sched/core.o)
for f in "$top"/kernel/trace/kmark*.c; do
	case "$f" in *kmark_tc_*) continue ;; esac
	objs+=("kernel/trace/$(basename "$f" .c).o")
done
if make -C "$SRC" O="$out" ARCH=x86_64 LLVM=1 -j"$JOBS" prepare > "$log" 2>&1 &&
   make -C "$SRC" O="$out" ARCH=x86_64 LLVM=1 -j"$JOBS" "${objs[@]}" >> "$log" 2>&1; then
	res 0 "$flavour: ${#objs[@]} objects with kmark's code or sites build with $(clang --version | sed -n 's/.*clang version \([^ ]*\).*/clang \1/p;q')"
else
	res 1 "$flavour: the objects with kmark's code or sites do not build (log: $log)"
	grep -E 'error' "$log" | head -n 5 | sed 's/^/# /'
fi
mapfile -t ours < <(kmark_tree_files)
if warn=$(kmark_warnings "$log" "${ours[@]}"); then
	res 1 "$flavour: clang warns in kmark's files"
	printf '%s\n' "$warn" | head -n 10 | sed 's/^/# /'
else
	res 0 "$flavour: no clang warning in kmark's files"
fi
info "$flavour: built in $(( $(date +%s) - start )) s"
"$top/scripts/typecheck.sh" "$flavour" > "$out/typecheck.log" 2>&1
grep -E '^(ok|not ok)' "$out/typecheck.log"
p=$(sed -n 's/^\([0-9]*\) passed, \([0-9]*\) failed$/\1/p' "$out/typecheck.log")
f=$(sed -n 's/^\([0-9]*\) passed, \([0-9]*\) failed$/\2/p' "$out/typecheck.log")
passed=$((passed + ${p:-0}))
failed=$((failed + ${f:-1}))
echo "$passed passed, $failed failed"

#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# typecheck.sh FLAVOUR: kmark()'s compile-time type check, in the built tree
# of FLAVOUR: scripts/tests/typecheck/kmark_tc_bad.c (each site passes an
# argument its format does not take) must fail with one -Wformat error per
# site; kmark_tc_good.c must build without a warning. The files are copied
# into kernel/trace/ for the build and removed after it. Prints "ok"/"not ok"
# lines and "N passed, N failed". Both sides of kmark.h are checked:
# CONFIG_KMARK=y, and !CONFIG_KMARK (the files with CONFIG_KMARK undefined).
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/scripts/lib.sh"
flavour=${1:?usage: typecheck.sh FLAVOUR}
arch=$(kernel_arch "$(flavour_arch "$flavour")")
out=$BUILD/$flavour
tc=$top/scripts/tests/typecheck
passed=0 failed=0
res() {
	if [ "$1" = 0 ]; then echo "ok - $2"; passed=$((passed + 1));
	else echo "not ok - $2"; failed=$((failed + 1)); fi
}
cp "$tc"/kmark_tc_*.c "$SRC/kernel/trace/"
# The !CONFIG_KMARK side of kmark.h, in the same tree: the same files with
# CONFIG_KMARK undefined before anything is included.
for f in bad good; do
	printf '/* SPDX-License-Identifier: GPL-2.0 */\n#undef CONFIG_KMARK\n#include "kmark_tc_%s.c"\n' \
		"$f" > "$SRC/kernel/trace/kmark_tc_${f}_off.c"
done
trap 'rm -f "$SRC"/kernel/trace/kmark_tc_*.c "$out"/kernel/trace/kmark_tc_*.o' EXIT

for variant in "" _off; do
case "$variant" in
_off) what="$flavour, !CONFIG_KMARK" ;;
*) what=$flavour ;;
esac
# Both files in one make (-k: on past the bad one's errors): each make of
# the kernel tree costs 15-20 s before it compiles anything here.
log=$out/typecheck$variant.log
rm -f "$out"/kernel/trace/kmark_tc_*.o
make -k -C "$SRC" O="$out" ARCH="$arch" $(flavour_make_args "$flavour") \
	kernel/trace/kmark_tc_bad$variant.o kernel/trace/kmark_tc_good$variant.o > "$log" 2>&1
if [ -e "$out/kernel/trace/kmark_tc_bad$variant.o" ]; then
	res 1 "$what: kmark_tc_bad.c built: mismatched arguments were no error"
else
	res 0 "$what: kmark_tc_bad.c does not build"
fi
# Each error, with the notes after it, names the site it comes from.
while read -r n line hit; do
	if [ "$hit" = 1 ]; then
		res 0 "$what: site TC-$n (line $line) is a build error"
	else
		res 1 "$what: site TC-$n (line $line) is no build error"
	fi
done < <(python3 - "$tc/kmark_tc_bad.c" "$log" <<'PY'
import re, sys
src, log = sys.argv[1], sys.argv[2]
sites = {}
for i, l in enumerate(open(src), 1):
    m = re.search(r'TC-(\d+)', l)
    if m:
        sites[int(m.group(1))] = i
hit, cur = set(), None
for l in open(log, errors='replace'):
    if re.search(r': error: ', l):
        cur = True
        m = re.search(r'kmark_tc_bad\.c:(\d+):', l)
        if m:
            hit.add(int(m.group(1)))
        continue
    if re.search(r': warning: ', l):
        cur = None
        continue
    m = re.search(r'kmark_tc_bad\.c:(\d+):\d+: note:', l)
    if cur and m:
        hit.add(int(m.group(1)))
for n in sorted(sites):
    print(n, sites[n], 1 if sites[n] in hit else 0)
PY
)
# (the good file's own lines: its warnings name it, or a header it
# includes after an "In file included from ...kmark_tc_good" line)
good=$(awk '/kmark_tc_good/ { g = 1 } /kmark_tc_bad/ { g = 0 } g && /warning:|error:/' "$log")
if [ -e "$out/kernel/trace/kmark_tc_good$variant.o" ] && [ -z "$good" ]; then
	res 0 "$what: kmark_tc_good.c builds without a warning (\"\", kmark_comm(), bit-field)"
else
	res 1 "$what: kmark_tc_good.c did not build cleanly"
	printf '%s\n' "$good" | head -n 5 | sed 's/^/# /'
fi
done
echo "$passed passed, $failed failed"

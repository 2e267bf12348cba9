#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# scripts/docs-check.sh: kmark's documents (Documentation/trace/kmark.rst,
# Documentation/dev-tools/kmark-testing.rst) build with the prepared tree's
# Sphinx setup without a warning, and every documented function's
# kernel-doc comment in kmark's sources matches its parameters. This is
# how make check runs the check (its lines below are the checkout's). Then
# a copy of the files with one defect each must fail it: an unknown
# directive, a bad indentation, a parameter misnamed in a comment, a
# comment separated from its function; and no tree must fail, not skip.
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
check=$top/scripts/docs-check.sh
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT

# The checkout's files: docs-check.sh's own lines are the results.
"$check" > "$t/out" 2>&1
rc=$?
grep -E '^(ok|not ok|#) ' "$t/out"
[ "$rc" = 0 ] || echo "not ok - docs-check.sh fails on the checkout (exit status $rc)"

# copy: a fresh copy of what docs-check.sh reads, in $t/k.
copy() {
	rm -rf "$t/k"
	mkdir -p "$t/k/Documentation/trace" "$t/k/Documentation/dev-tools" \
		"$t/k/kernel/trace" "$t/k/include/trace"
	cp "$top/Documentation/trace/kmark.rst" "$t/k/Documentation/trace/"
	cp "$top/Documentation/dev-tools/kmark-testing.rst" "$t/k/Documentation/dev-tools/"
	cp "$top"/kernel/trace/kmark* "$t/k/kernel/trace/"
	cp "$top"/include/trace/kmark* "$t/k/include/trace/"
}
# broken WHAT FILE PATTERN [OPTION]: docs-check.sh [OPTION] on the copy,
# FILE changed before, must fail with a "not ok" line and a diagnostic
# that names FILE and matches PATTERN.
broken() {
	local what=$1 file=$2 pattern=$3
	shift 3
	if cmp -s "$t/k/$file" "$top/$file"; then
		echo "not ok - $what: the defect was not made in $file (the test is stale)"
		return
	fi
	if "$check" "$@" "$t/k" > "$t/out" 2>&1; then
		echo "not ok - docs-check.sh passes $what"
		sed 's/^/# /' "$t/out"
	elif grep -q '^not ok ' "$t/out" && grep -E "^# .*$file:[0-9]+: .*$pattern" "$t/out" > "$t/why"; then
		echo "ok - docs-check.sh fails $what ($(head -n 1 "$t/why" | sed -e "s/^\# //" -e "s#^$t/k/##"))"
	else
		echo "not ok - docs-check.sh fails $what, but without naming it"
		sed 's/^/# /' "$t/out"
	fi
}

copy
printf '\n.. kmark-no-such-directive::\n\n   text\n' >> "$t/k/Documentation/trace/kmark.rst"
broken "an unknown directive in kmark.rst" Documentation/trace/kmark.rst \
	'Unknown directive type' --sphinx

copy
sed -i '0,/^kernels, what counts as a skip/s//kernels, what counts as a skip,\n    indented past its paragraph/' \
	"$t/k/Documentation/dev-tools/kmark-testing.rst"
broken "a line indented past its paragraph in kmark-testing.rst" \
	Documentation/dev-tools/kmark-testing.rst 'Unexpected indentation' --sphinx

copy
sed -i 's/^ \* @task:\tthe task$/ * @tsk:\tthe task/' "$t/k/include/trace/kmark.h"
broken "a parameter misnamed in kmark_comm()'s kernel-doc (include/trace/kmark.h)" \
	include/trace/kmark.h "(not described|Excess function parameter)" --kernel-doc

copy
sed -i 's/^void kmark_layout_finish(struct kmark_layout \*l)$/static int kmark_stray;\n&/' \
	"$t/k/kernel/trace/kmark.c"
broken "a declaration between kmark_layout_finish()'s kernel-doc and the function (kernel/trace/kmark.c)" \
	kernel/trace/kmark.c "(cannot understand function prototype|expecting prototype)" --kernel-doc

# No prepared tree: a failure that says so.
if BUILD=$t/no-build "$check" > "$t/out" 2>&1; then
	echo "not ok - docs-check.sh passes without a kernel tree"
elif grep -q '^not ok - no prepared kernel tree' "$t/out"; then
	echo "ok - docs-check.sh fails without a kernel tree, and says so"
else
	echo "not ok - docs-check.sh fails without a kernel tree, without saying why"
	sed 's/^/# /' "$t/out"
fi

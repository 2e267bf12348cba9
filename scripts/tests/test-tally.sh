#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# make check's counting (scripts/tally.sh, as scripts/check.sh uses it) on
# results: the console logs of fixtures/console/ through qemu-tests/ktap.py,
# and canned result files (fixtures/results/). The closing line is exactly
# "N passed, N failed, N skipped" and the last line; every skip is named
# above it; a red guest run, a runner without its closing line, or a skip
# counted but not named makes the whole run red.
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
fix=$top/scripts/tests/fixtures
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
. "$top/scripts/tally.sh"
topics=(--expect-suite kmark --expect-guest 00-boot
	--expect-guest 32-sched-vs-ftrace --expect-guest 99-last)
# guest FLAVOUR LOG STATUS: ktap.py's result of a canned console log.
guest() {
	python3 "$top/qemu-tests/ktap.py" "$1" "$fix/console/$2" \
		--boot-status "$3" "${topics[@]}" > "$t/$1-$2-$3.result"
	echo "$t/$1-$2-$3.result"
}
# tally WANT-EXIT WANT-LAST-LINE NAME FILE...: count FILEs, close.
tally() {
	local want=$1 last=$2 name=$3 out rc f
	shift 3
	out=$(
		tally_init "$t/skips"
		for f in "$@"; do count "$f" "$(basename "$f")"; done
		tally_close
	)
	rc=$?
	if [ "$rc" = "$want" ] && [ "$(echo "$out" | tail -n 1)" = "$last" ]; then
		echo "ok - $name"
	else
		echo "not ok - $name (exit $rc, want $want and last line '$last')"
		echo "$out" | sed 's/^/# /'
	fi
	echo "$out" > "$t/out"
}
tally 0 "10 passed, 0 failed, 0 skipped" "a green run ends with 'N passed, N failed, N skipped'" \
	"$(guest x86_64 good.log 0)" "$fix/results/host.result"
tally 0 "13 passed, 0 failed, 3 skipped" "expected skips are counted ..." \
	"$(guest x86_64 good.log 0)" "$(guest i386-stress skips.log 0)"
n=$(grep -c '^  \[i386-stress\] skip ' "$t/out")
if [ "$n" = 3 ] && sed -n '/^skipped/,$p' "$t/out" | grep -q 'kmark vs ftrace 1  # SKIP no ftrace in this kernel$'; then
	echo "ok - ... and each is named, with its reason, above the closing line"
else
	echo "not ok - ... and each is named above the closing line ($n named)"
	sed 's/^/# /' "$t/out"
fi
tally 1 "13 passed, 3 failed, 0 skipped" "a skip not expected on the flavour makes the run red" \
	"$(guest x86_64 good.log 0)" "$(guest x86_64 skips.log 0)"
# CI shows only the tail of make check's output: the failures are named
# again there, between the results and the closing line.
n=$(sed -n '/^failed (each above/,/^skipped\|passed, /p' "$t/out" | grep -c '^  .*not ok')
if [ "$n" = 3 ] && [ "$(grep -c '^failed (each above' "$t/out")" = 1 ]; then
	echo "ok - ... and the three failures are named again above the closing line"
else
	echo "not ok - ... and the failures are named again above the closing line ($n named)"
	sed 's/^/# /' "$t/out"
fi
# ... and last of all, below the skips: CI keeps only the log's tail.
tally 1 "18 passed, 3 failed, 3 skipped" "a run with skips and failures is red" \
	"$(guest x86_64 good.log 0)" "$(guest i386-stress skips.log 0)" "$(guest x86_64 skips.log 0)"
if [ "$(tail -n 5 "$t/out" | head -n 1)" = "failed (each above, with its diagnostics):" ] &&
   [ "$(tail -n 4 "$t/out" | grep -c '^  .*not ok')" = 3 ]; then
	echo "ok - ... its failures are the last lines above the closing line, below the skips"
else
	echo "not ok - ... its failures are the last lines above the closing line, below the skips"
	sed 's/^/# /' "$t/out"
fi
tally 1 "16 passed, 1 failed, 0 skipped" "a guest that timed out after all its results makes the run red" \
	"$(guest x86_64 good.log 0)" "$(guest x86_64 good.log 124)"
tally 1 "16 passed, 1 failed, 0 skipped" "a guest that never reached the runner's end line makes the run red" \
	"$(guest x86_64 good.log 0)" "$(guest x86_64 no-end-line.log 0)"
tally 1 "2 passed, 1 failed, 0 skipped" "a runner without its closing line makes the run red" \
	"$fix/results/host.result" "$fix/results/no-summary.result"
tally 1 "4 passed, 1 failed, 1 skipped" "a skip counted but not named makes the run red" \
	"$fix/results/host.result" "$fix/results/skip-unnamed.result"

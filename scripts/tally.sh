# SPDX-License-Identifier: GPL-2.0
# make check's counting (sourced by scripts/check.sh; scripts/tests/
# test-tally.sh feeds it canned results). Every runner ends its output with
# "N passed, N failed[, N skipped]"; a runner's skips are its lines
# "[WHERE] skip NAME  # SKIP reason" (qemu-tests/ktap.py, dat_check.py),
# and only the skips qemu-tests/skips.py expects are printed so: the
# runners count any other as a failure.
#   tally_init FILE   start from zero; the named skips are collected in FILE
#   add P F [S]       add P passed, F failed, S skipped
#   count FILE WHAT   add FILE's closing line; a FILE without one, or whose
#                     skips are not each named on a line, is a failure
#   tally_close       print the skips, the failures again (CI shows a log's
#                     tail), then "N passed, N failed, N skipped" as the
#                     last line; fails if anything failed
tally_init() {
	passed=0 failed=0 skipped=0 tally_skips=$1 tally_fails=$1.failed
	: > "$tally_skips"
	: > "$tally_fails"
}
# fail_named LINE...: a failure's line, shown again before the closing line.
fail_named() { printf '%s\n' "$@" >> "$tally_fails"; }
add() {
	passed=$((passed + $1))
	failed=$((failed + $2))
	skipped=$((skipped + ${3:-0}))
}
count() {
	local line p f s named
	line=$(grep -E '[0-9]+ passed, [0-9]+ failed' "$1" | tail -n 1)
	if [ -z "$line" ]; then
		echo "kmark: $2 printed no result line" >&2
		echo "not ok $2  # printed no result line"
		fail_named "not ok $2  # printed no result line"
		add 0 1
		return
	fi
	p=$(echo "$line" | sed -E 's/.*\b([0-9]+) passed.*/\1/')
	f=$(echo "$line" | sed -E 's/.*\b([0-9]+) failed.*/\1/')
	s=$(echo "$line" | sed -nE 's/.*\b([0-9]+) skipped.*/\1/p')
	named=$(grep -cE '^\[[^]]*\] skip ' "$1")
	grep -E '^\[[^]]*\] skip ' "$1" >> "$tally_skips"
	add "$p" "$f" "${s:-0}"
	if [ "$f" != 0 ]; then
		# Its failed tests by name (at most 20), or the file if none is.
		grep -E '^(\[[^]]*\] )?not ok' "$1" | head -n 20 | sed "s|^|$2: |" > "$tally_fails.one"
		[ -s "$tally_fails.one" ] || echo "$2: $f failed (see $1)" > "$tally_fails.one"
		cat "$tally_fails.one" >> "$tally_fails"
		rm -f "$tally_fails.one"
	fi
	if [ "$named" != "${s:-0}" ]; then
		echo "not ok $2  # ${s:-0} skipped, $named named with a reason"
		fail_named "not ok $2  # ${s:-0} skipped, $named named with a reason"
		add 0 1
	fi
}
tally_close() {
	if [ -s "$tally_skips" ]; then
		echo "skipped, each expected on its kernel (qemu-tests/skips.py):"
		sed 's/^/  /' "$tally_skips"
	fi
	# The failures last, just above the closing line: CI keeps only the
	# log's last twenty-odd lines (the skips pushed them out of it once).
	if [ -s "$tally_fails" ]; then
		echo "failed (each above, with its diagnostics):"
		sed 's/^/  /' "$tally_fails"
	fi
	echo "$passed passed, $failed failed, $skipped skipped"
	[ "$failed" = 0 ]
}

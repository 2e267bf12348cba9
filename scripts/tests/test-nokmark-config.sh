#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# make bench's kernel without kmark (scripts/config/nokmark.config) must
# turn off every kmark option the other fragments turn on: configure.sh
# refuses a configuration where olddefconfig dropped a requested option,
# and an option of kmark's that nokmark.config leaves on is dropped with
# CONFIG_KMARK (CONFIG_KMARK_HIST was: the full make bench stopped there).
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
cfg=$top/scripts/config
fail=0
for opt in $(sed -n 's/^\(CONFIG_[A-Z0-9_]*KMARK[A-Z0-9_]*\)=[ym].*/\1/p' "$cfg"/*.config | sort -u); do
	if ! grep -qx "# $opt is not set" "$cfg/nokmark.config"; then
		echo "not ok - nokmark.config leaves $opt as another fragment sets it"
		fail=1
	fi
done
[ "$fail" = 1 ] || echo "ok - nokmark.config turns off every kmark option the fragments turn on"
# The check itself: a fragment that turns a new option on must fail it.
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
cp "$cfg"/*.config "$t/"
echo CONFIG_KMARK_NEW_THING=y >> "$t/common.config"
if sed -n 's/^\(CONFIG_[A-Z0-9_]*KMARK[A-Z0-9_]*\)=[ym].*/\1/p' "$t"/*.config | sort -u |
	while read -r opt; do grep -qx "# $opt is not set" "$t/nokmark.config" || exit 1; done; then
	echo "not ok - the check misses an option only common.config names"
else
	echo "ok - the check sees an option nokmark.config does not turn off"
fi

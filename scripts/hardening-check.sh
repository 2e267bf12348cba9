#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# hardening-check.sh CONFIG [LIST]: CONFIG (a kernel's .config) against
# LIST (scripts/config/hardening.list): one KTAP line per option, "ok"
# when it is off (or, for "need OPTION", y), then "N passed, N failed".
# Exit status 1 if any failed.
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
config=${1:?usage: hardening-check.sh CONFIG [LIST]}
list=${2:-$top/scripts/config/hardening.list}
[ -r "$config" ] || { echo "not ok $config: unreadable"; echo "0 passed, 1 failed"; exit 1; }
pass=0 fail=0
while read -r a b; do
	case "$a" in ''|'#'*) continue ;; esac
	if [ "$a" = need ]; then
		if grep -qx "CONFIG_$b=y" "$config"; then
			echo "ok CONFIG_$b=y"; pass=$((pass + 1))
		else
			echo "not ok CONFIG_$b=y  # got: $(grep -E "^(# )?CONFIG_$b[= ]" "$config" || echo absent)"
			fail=$((fail + 1))
		fi
	elif v=$(grep -E "^CONFIG_$a=" "$config"); then
		echo "not ok CONFIG_$a off  # got: $v"; fail=$((fail + 1))
	else
		echo "ok CONFIG_$a off"; pass=$((pass + 1))
	fi
done < "$list"
echo "$pass passed, $fail failed"
[ "$fail" = 0 ]

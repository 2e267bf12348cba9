#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The documents' guest commands test (qemu-tests/doc_commands.py), its
# doc() check run on the host: a 'cat trace_pipe' that printed an error
# (no such file) fails, as does one that printed no trace line; one that
# printed trace lines passes, also when the timeout that stopped it made
# the guest's shell say "Terminated" (a stand-in cat says it here).
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
python3 "$top/qemu-tests/doc_commands.py" "$top/README.md" \
	"$top/Documentation/trace/kmark.rst" > "$t/gen.sh" || exit 1
# The generated script's TRACE_LINE and doc(), with lib.sh's ok/not_ok.
sed -n '/^TRACE_LINE=/,/^}$/p' "$t/gen.sh" | sed "s#/tmp/doc\.#$t/doc.#g" > "$t/doc.sh"
line='          kmping-334     [000] d....     1.961910: sched_switch: prev_comm=kmping prev_pid=334 prev_prio=120 prev_state=R ==> next_comm=kmpong next_pid=335 next_prio=120'
# run DIR [PATH]: doc() of 'cat trace_pipe' in DIR; prints ok or not ok.
run() {
	(
		. "$top/qemu-tests/lib.sh"
		. "$t/doc.sh"
		[ -z "${2:-}" ] || PATH=$2:$PATH
		cd "$1" && doc here 'cat trace_pipe' 0
	) 2>&1 | sed -n 's/^\(not ok\|ok\) [0-9]* - .*/\1/p'
}
expect() {
	if [ "$2" = "$3" ]; then echo "ok - $1"; else echo "not ok - $1: got '$2'"; fi
}
mkdir "$t/none" "$t/lines" "$t/other" "$t/bin"
printf '#!/bin/sh\n/bin/cat "$@"\necho Terminated >&2\n' > "$t/bin/cat"
chmod +x "$t/bin/cat"
echo "$line" > "$t/lines/trace_pipe"
echo 'hello' > "$t/other/trace_pipe"
expect "cat trace_pipe printed trace lines: ok" "$(run "$t/lines")" ok
expect "cat trace_pipe printed an error (no such file): not ok" "$(run "$t/none")" "not ok"
expect "cat trace_pipe printed no trace line: not ok" "$(run "$t/other")" "not ok"
expect "cat trace_pipe printed trace lines, then the shell's 'Terminated': ok" \
	"$(run "$t/lines" "$t/bin")" ok
expect "cat trace_pipe printed an error and 'Terminated': not ok" \
	"$(run "$t/none" "$t/bin")" "not ok"

#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The documents' guest commands test (qemu-tests/doc_commands.py), its
# doc() check run on the host: a 'cat trace_pipe' that printed an error
# (no such file) fails, as does one that printed no trace line; one that
# printed trace lines passes, also when the timeout that stopped it made
# the guest's shell say "Terminated" (a stand-in cat says it here). And
# the host commands scripts/tests/readme-commands.sh runs
# (scripts/tests/readme_commands.py) include kmark.rst's.
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
# The host commands (scripts/tests/readme_commands.py): kmark.rst's literal
# block after '.. host commands' is read, its lines as typed, and only it
# (no guest session, code or output of kmark.rst); a marker with no block
# after it is an error, not nothing.
rc=$top/scripts/tests/readme_commands.py
got=$(python3 "$rc" "$top/Documentation/trace/kmark.rst" | cut -f2)
want=$(sed -n '/^\.\. host commands$/,/^[^ ].*[^:]$/p' "$top/Documentation/trace/kmark.rst" |
	sed -n 's/^  \([^ ].*\)$/\1/p')
expect "kmark.rst's host commands are its '.. host commands' blocks' lines ($(echo "$got" | wc -l))" \
	"$got:$([ -n "$got" ] && echo some)" "$want:some"
printf 'Text.\n\n.. host commands\n\nMore text.\n' > "$t/bad.rst"
expect "a '.. host commands' with no literal block after it: an error" \
	"$(python3 "$rc" "$t/bad.rst" > /dev/null 2>&1; echo $?)" 1
printf 'Text::\n\n  # echo guest\n\n.. host commands\n\n::\n\n  make one  # why\n  make two\n\nText::\n\n  make not-this\n' > "$t/good.rst"
expect "a '.. host commands' block: its lines, comments dropped, nothing else" \
	"$(python3 "$rc" "$t/good.rst" | cut -f2 | tr '\n' ,)" "make one,make two,"
both=$(python3 "$rc" "$top/README.md" "$top/Documentation/trace/kmark.rst" | cut -f2 | sort)
readme=$(python3 "$rc" "$top/README.md" | cut -f2 | sort)
expect "README.md and kmark.rst together: each command once, the README's all there" \
	"$(comm -23 <(echo "$readme") <(echo "$both")):$(echo "$both" | uniq -d)" ":"

#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Turn the guest commands of the user documentation into a guest test.

Usage: doc_commands.py README.md Documentation/trace/kmark.rst > test.sh

What a user is told to type in the guest:
- README.md: the indented block after a line '<!-- guest commands -->',
  one command a line (a trailing '  # comment' is dropped);
- kmark.rst: in every literal block, the lines that start with the root
  prompt '# '; the lines after one, up to the next prompt, a blank line or
  the end of the block, are the output the document shows for it.

The generated script (for qemu-tests/lib.sh) runs the commands in order in
one shell, starting in /sys/kernel/debug/kmark as the documents do, and
checks for each: its status (a command whose shown output has 'write
error' must fail, a 'cat' of trace_pipe is stopped after a few seconds and
must have printed trace lines and no error, every other command must
succeed); that each
line of the shown output has a line of the same shape in the real output
(numbers, hex, task names, flags and field values may differ; words, field
names and their order may not); and that every trace line printed has
ftrace's layout. So the documents cannot drift from the product.
"""
import re
import sys

# ftrace's trace line: TASK-PID [CPU] FLAGS TIMESTAMP: EVENT: ..., or a
# stack's "<stack trace>" after the timestamp; trace-cmd report's has no
# FLAGS (without -l).
TRACE_LINE = (r'^[[:space:]]*[^[:space:]].*-[0-9]+[[:space:]]+\[[0-9]{3}\][[:space:]]+'
              r'[^[:space:]]{5}[[:space:]]+[0-9]+\.[0-9]{6}: '
              r'([^[:space:]]+: |<stack trace>$)')
# trace-cmd report's lines (a command starting with trace-cmd): the same
# without the FLAGS column.
TC_LINE = (r'^[[:space:]]*[^[:space:]].*-[0-9]+[[:space:]]+\[[0-9]{3}\][[:space:]]+'
           r'([^[:space:]]{5}[[:space:]]+)?[0-9]+\.[0-9]{6}: '
           r'([^[:space:]]+: |<stack trace>$)')


def readme_commands(path):
    cmds, take, lines = [], False, open(path).read().splitlines()
    for no, line in enumerate(lines, 1):
        if line.strip() == '<!-- guest commands -->':
            take = 'start'
            continue
        if take == 'start' and not line.strip():
            continue
        if take and line.startswith('    '):
            take = True
            cmd = re.sub(r'\s{2,}#.*$', '', line.strip())
            cmds.append((f'{path}:{no}', cmd, []))
        elif take is True or (take == 'start' and line.strip()):
            take = False
    return cmds


def rst_commands(path):
    cmds, lines = [], open(path).read().splitlines()
    in_block, indent, cur = False, None, None
    for no, line in enumerate(lines, 1):
        if in_block:
            if line.strip():
                if indent is None:
                    indent = len(line) - len(line.lstrip())
                if len(line) - len(line.lstrip()) < indent:
                    in_block, cur = False, None
            if in_block:
                body = line[indent:] if indent is not None else ''
                if body.startswith('# '):
                    cur = (f'{path}:{no}', body[2:], [])
                    cmds.append(cur)
                elif body.strip() and cur is not None:
                    cur[2].append(body)
                elif not body.strip():
                    cur = None      # a blank line ends the output shown
                continue
        if line.rstrip().endswith('::'):
            in_block, indent, cur = True, None, None
    return cmds


def shape(line):
    """An ERE matching lines of the same shape as @line."""
    if re.fullmatch(r'\s*\^', line):    # a caret: its column matters
        return '^' + line.rstrip().replace('^', r'\^') + '$'
    toks = line.split()
    out = []
    for i, t in enumerate(toks):
        if i == 0 and re.fullmatch(r'.+-\d+', t) and len(toks) > 1 and \
                re.fullmatch(r'\[\d{3}\]', toks[1]):
            out.append('[^[:space:]].*-[0-9]+')
            continue
        if i == 2 and len(t) == 5 and re.fullmatch(r'\[\d{3}\]', toks[1]):
            out.append('[^[:space:]]{5}')
            continue
        m = re.fullmatch(r'([A-Za-z_][A-Za-z0-9_]*)=(.*)', t)
        if m:
            val = '"[^"]*"?' if m.group(2).startswith('"') else '[^[:space:]]*'
            out.append(re.escape(m.group(1)) + '=' + val)
            continue
        if t.endswith('"') and not t.startswith('"') and out and \
                out[-1].endswith('"[^"]*"?'):
            continue    # the rest of a quoted value with spaces
        p = ''
        m = re.match(r'(\(?)[A-Za-z_][\w.]*(\+0x.*)', t)
        if m:   # sym+0xOFF/0xSIZE: an address, whatever the symbol
            p, t = re.escape(m.group(1)) + '[^[:space:]]+', m.group(2)
        for part in re.split(r'(0x[0-9a-fA-F]+|\d+)', t):
            if re.fullmatch(r'0x[0-9a-fA-F]+', part):
                p += '0x[0-9a-f]+'
            elif re.fullmatch(r'\d+', part):
                p += '[0-9]+'
            else:
                p += re.sub(r'([][.*+?^$(){}|\\])', r'\\\1', part)
        out.append(p)
    return '^[[:space:]]*' + '[[:space:]]+'.join(out) + '[[:space:]]*$'


def sq(s):
    return "'" + s.replace("'", "'\\''") + "'"


def main():
    cmds = readme_commands(sys.argv[1])
    for path in sys.argv[2:]:
        cmds += rst_commands(path)
    if not cmds:
        sys.exit('doc_commands.py: no guest commands found')
    print('#!/bin/sh')
    print('# description: every command the README and Documentation/trace/kmark.rst '
          'tell a user to type in the guest, run in order; status, the shape of the '
          'output they show, ftrace\'s line layout (generated by '
          'qemu-tests/doc_commands.py)')
    print('. /tests/lib.sh')
    print('if [ "$(uname -m)" != x86_64 ]; then')
    print('\tplan 1')
    print(f'\tskip "the documents\' {len(cmds)} guest commands" '
          '"the documents show x86_64 output"')
    print('\texit 0')
    print('fi')
    print(f'plan {len(cmds)}')
    print('reset_kmark')
    print("echo > $K/kprobe_events")
    print('cd $K')
    print(f"TRACE_LINE={sq(TRACE_LINE)}")
    print(f"TC_LINE={sq(TC_LINE)}")
    print(r'''doc() {	# doc WHERE CMD [SHAPE...]
	where=$1 cmd=$2 fails=$3; shift 3
	case "$cmd" in
	"cd "*) if eval "$cmd"; then ok "$where: $cmd"; else not_ok "$where: $cmd"; fi; return ;;
	esac
	: > /tmp/doc.err
	case "$cmd" in
	cat*trace_pipe*)	# stopped after 3 s: its errors apart
		timeout 3 sh -c "$cmd" > /tmp/doc.out 2> /tmp/doc.err
		st=$? ;;
	*)	timeout 60 sh -c "$cmd" > /tmp/doc.out 2>&1
		st=$? ;;
	esac
	why=
	if [ "$fails" = 1 ]; then
		[ $st -ne 0 ] || why="succeeded, the document shows it failing"
	else
		case "$cmd" in
		cat*trace_pipe*)
			# (but the shell's "Terminated": the timeout stopped it)
			err=$(grep -v '^Terminated$' /tmp/doc.err | head -n 1)
			if [ -n "$err" ]; then
				why="it printed an error: $err"
			elif ! grep -Eq -- "$TRACE_LINE" /tmp/doc.out; then
				why="printed no trace line in 3 s"
			fi ;;
		*) [ $st -eq 0 ] || why="exit status $st" ;;
		esac
	fi
	for s in "$@"; do
		grep -Eq -- "$s" /tmp/doc.out || why="${why:+$why; }no output line of the shape $s"
	done
	case "$cmd" in trace-cmd*) tl=$TC_LINE ;; *) tl=$TRACE_LINE ;; esac
	bad=$(grep -E '^[[:space:]]*[^[:space:]].*-[0-9]+[[:space:]]+\[[0-9]{3}\]' /tmp/doc.out | grep -Ev -- "$tl" | head -n 1)
	[ -z "$bad" ] || why="${why:+$why; }a trace line not in ftrace's layout: $bad"
	if [ -z "$why" ]; then
		ok "$where: $cmd"
	else
		not_ok "$where: $cmd"
		diag "$why"
		head -n 5 /tmp/doc.out | sed 's/^/# out: /'
		head -n 5 /tmp/doc.err | sed 's/^/# err: /'
	fi
}''')
    for where, cmd, output in cmds:
        shapes = ' '.join(sq(shape(o)) for o in output)
        fails = int(any('write error' in o for o in output))
        print(f'doc {sq(where)} {sq(cmd)} {fails} {shapes}'.rstrip())
    print('cd /')
    print('reset_kmark')
    print('echo > $K/kprobe_events')


if __name__ == '__main__':
    main()

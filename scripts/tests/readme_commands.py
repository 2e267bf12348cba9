#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The host commands README.md and kmark.rst tell a user to type, one a line.

Usage: readme_commands.py README.md [Documentation/trace/kmark.rst...]

Prints "FILE:LINE<TAB>COMMAND" for each command, once (where it is first
shown), in the order of the files and of each file. In a Markdown file
(README.md), a command is:
- a line of a code block (indented by four spaces, or fenced with ```),
  without its trailing "  # comment", unless the block follows a line
  '<!-- guest commands -->' (typed in the guest: qemu-tests/doc_commands.py
  runs those) or '<!-- output -->' (what a command printed);
- the first cell of a row of a table whose header's first cell is
  "command", without its backquotes.
In a reST file (kmark.rst), whose literal blocks are mostly guest sessions
(qemu-tests/doc_commands.py runs their '# ' lines), code and output, a
command is a line of the literal block that follows the comment
'.. host commands' (the comment does not show in the built document).
scripts/tests/readme-commands.sh runs each as typed (or says why not), so
that a command the documents gain is either checked or named as unchecked.
"""
import re
import sys

SKIP_MARKERS = ('<!-- guest commands -->', '<!-- output -->')


def commands(path):
    out, seen = [], set()
    lines = open(path).read().splitlines()

    def add(no, cmd):
        cmd = re.sub(r'\s{2,}#.*$', '', cmd).strip()
        if cmd and cmd not in seen:
            seen.add(cmd)
            out.append((no, cmd))

    skip = False            # the next block is not host commands
    prev_blank = True       # an indented block starts after a blank line
    in_indented = in_fence = in_table = False
    for no, line in enumerate(lines, 1):
        text = line.strip()
        if in_fence:
            if text.startswith('```'):
                in_fence = skip = False
            elif not skip:
                add(no, text)
            continue
        if text in SKIP_MARKERS:
            skip = True
            continue
        if text.startswith('```'):
            in_fence = True
            continue
        if line.startswith('    ') and (in_indented or prev_blank) and \
                not in_table and text:
            in_indented = True
            if not skip:
                add(no, text)
            continue
        if text and in_indented:
            in_indented = skip = False
        if text.startswith('|'):
            cells = [c.strip() for c in text.strip('|').split('|')]
            if not in_table:
                in_table = 'command' if cells[0].lower() == 'command' else 'other'
            elif in_table == 'command' and not re.fullmatch(r':?-+:?', cells[0]):
                add(no, cells[0].strip('`'))
        else:
            in_table = False
        prev_blank = not text
    return out


HOST_MARKER = '.. host commands'


def rst_commands(path):
    """The lines of the literal block after each '.. host commands'."""
    out, lines = [], open(path).read().splitlines()
    state, indent = None, None   # None, 'marker' (seen), 'block' (in it)
    for no, line in enumerate(lines, 1):
        text = line.strip()
        if state == 'block':
            if not text:
                continue
            width = len(line) - len(line.lstrip())
            if indent is None:
                if width == 0:
                    sys.exit(f'{path}:{no}: no literal block after "{HOST_MARKER}"')
                indent = width
            if width >= indent:
                out.append((no, re.sub(r'\s{2,}#.*$', '', text)))
                continue
            state = None
        if text == HOST_MARKER:
            if state == 'marker':
                sys.exit(f'{path}:{no}: "{HOST_MARKER}" twice, no literal block between')
            state = 'marker'
        elif state == 'marker' and text.endswith('::'):
            state, indent = 'block', None
    if state == 'marker':
        sys.exit(f'{path}: no literal block after the last "{HOST_MARKER}"')
    return out


def main():
    if len(sys.argv) < 2:
        sys.exit('usage: readme_commands.py README.md [FILE.rst...]')
    seen = set()
    for path in sys.argv[1:]:
        cmds = rst_commands(path) if path.endswith('.rst') else commands(path)
        if not cmds and path == sys.argv[1]:
            sys.exit(f'readme_commands.py: no host command in {path}')
        for no, cmd in cmds:
            if cmd not in seen:
                seen.add(cmd)
                print(f'{path}:{no}\t{cmd}')


if __name__ == '__main__':
    main()

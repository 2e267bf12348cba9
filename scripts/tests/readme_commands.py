#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The host commands README.md tells a user to type, one a line.

Usage: readme_commands.py README.md

Prints "README.md:LINE<TAB>COMMAND" for each command, once (where it is
first shown), in the document's order. A command is:
- a line of a code block (indented by four spaces, or fenced with ```),
  without its trailing "  # comment", unless the block follows a line
  '<!-- guest commands -->' (typed in the guest: qemu-tests/doc_commands.py
  runs those) or '<!-- output -->' (what a command printed);
- the first cell of a row of a table whose header's first cell is
  "command", without its backquotes.
scripts/tests/readme-commands.sh runs each as typed (or says why not), so
that a command the README gains is either checked or named as unchecked.
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


def main():
    if len(sys.argv) != 2:
        sys.exit('usage: readme_commands.py README.md')
    cmds = commands(sys.argv[1])
    if not cmds:
        sys.exit(f'readme_commands.py: no host command in {sys.argv[1]}')
    for no, cmd in cmds:
        print(f'{sys.argv[1]}:{no}\t{cmd}')


if __name__ == '__main__':
    main()

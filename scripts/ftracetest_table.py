#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""ftracetest's expected verdicts: qemu-tests/ftracetest-expected.txt.

The table qemu-tests/test.d/95-ftracetest.sh compares each run with, one
row per ftracetest case ("SUITE/FILE.tc", "...@instance" for its run in an
instance):

    ID  FTRACE  KMARK-X86_64  KMARK-I386  [NOTE]

FTRACE is ftrace's verdict on the x86_64 test kernel (the reference), the
others kmark's on each test kernel. A row where ftrace passes and kmark
does not, or where kmark fails, names a NOTE, defined on a line
"# note NAME: why" of the file.

  ftracetest_table.py rst [TABLE]
      the table as Documentation/trace/kmark.rst shows it
  ftracetest_table.py update --arch x86_64|i386 LOG [TABLE]
      the table's columns of that kernel set from a guest log of
      95-ftracetest.sh (its "# ftt-result ID FTRACE KMARK" lines), in place;
      rows and notes kept, a new case's other columns UNTESTED
  ftracetest_table.py check [--tree SUITES_DIR] [--doc RST] [TABLE]
      the rules above, every case of the suites in the kernel tree's
      tools/testing/selftests/ftrace/test.d (SUITES_DIR) and no other,
      and the document's copy; prints one "ok"/"not ok" line per check
"""
import argparse
import os
import re
import sys

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TABLE = os.path.join(TOP, 'qemu-tests', 'ftracetest-expected.txt')
DOC = os.path.join(TOP, 'Documentation', 'trace', 'kmark.rst')
GUEST = os.path.join(TOP, 'qemu-tests', 'test.d', '95-ftracetest.sh')
VERDICTS = {'PASS', 'FAIL', 'UNSUPPORTED', 'UNRESOLVED', 'UNTESTED', 'XFAIL'}
BEGIN = '.. ftracetest table begin (scripts/ftracetest_table.py rst)'
END = '.. ftracetest table end'


def load(path):
    """(rows, notes, errors): rows [(id, ftrace, x86, i386, note)]."""
    rows, notes, errors = [], {}, []
    for n, line in enumerate(open(path), 1):
        line = line.rstrip('\n')
        m = re.match(r'# note ([a-z0-9-]+): (.+)$', line)
        if m:
            notes[m.group(1)] = m.group(2)
            continue
        if not line.strip() or line.startswith('#'):
            continue
        f = line.split()
        if len(f) not in (4, 5):
            errors.append(f'line {n}: {len(f)} fields')
            continue
        f += [''] * (5 - len(f))
        bad = [v for v in f[1:4] if v not in VERDICTS]
        if bad:
            errors.append(f'line {n}: unknown verdict {bad[0]}')
        rows.append(tuple(f))
    return rows, notes, errors


def rst(rows, notes):
    """The document's table, then its notes."""
    w = max(len(r[0]) for r in rows)
    hdr = ['=' * w, '=' * 11, '=' * 11, '=' * 11, '=' * 14]
    out = [BEGIN, '', '  '.join(hdr),
           '  '.join(h.ljust(len(d)) for h, d in
                     zip(['test', 'ftrace', 'kmark', 'kmark', 'note'], hdr)).rstrip(),
           '  '.join(h.ljust(len(d)) for h, d in
                     zip(['', 'x86_64', 'x86_64', 'i386', ''], hdr)).rstrip(),
           '  '.join(hdr)]
    for r in rows:
        out.append('  '.join(v.ljust(len(d)) for v, d in zip(r, hdr)).rstrip())
    out += ['  '.join(hdr), '']
    for k in sorted(notes):
        out.append(f'{k}')
        out.append(f'  {notes[k]}')
    out += ['', END]
    return '\n'.join(out) + '\n'


def tree_cases(suites_dir, suites):
    """The cases ftracetest runs, as 95-ftracetest.sh names them."""
    ids, inst = [], []
    for s in suites:
        files = []
        for root, _, names in os.walk(os.path.join(suites_dir, s)):
            files += [os.path.join(root, f) for f in names if f.endswith('.tc')]
        for f in sorted(files):
            rel = os.path.relpath(f, suites_dir)
            ids.append(rel)
            if re.search(r'^#[ \t]*flags:.*instance', open(f).read(), re.M):
                inst.append(rel + '@instance')
    return ids + inst


def check(args):
    res = []

    def result(ok, what):
        res.append(ok)
        print(('ok' if ok else 'not ok') + ' - ' + what)

    rows, notes, errors = load(args.table)
    result(not errors, 'the table parses' + (': ' + '; '.join(errors) if errors else ''))
    used = set()
    bad = []
    for i, fw, x86, i386, note in rows:
        if note:
            used.add(note)
            if note not in notes:
                bad.append(f'{i}: note {note} is not defined')
        for k in (x86, i386):
            if k == 'UNTESTED':     # no run of that kernel in the table
                continue
            if fw == 'PASS' and k != 'PASS' and not note:
                bad.append(f'{i}: passes on ftrace, kmark {k}, no note')
            if k == 'FAIL' and not note:
                bad.append(f'{i}: fails on kmark, no note')
    bad += [f'note {k} is not used' for k in sorted(set(notes) - used)]
    result(not bad, 'every test that passes on ftrace and not on kmark, or '
           'fails on kmark, names a note, and every note is used' +
           (': ' + '; '.join(bad) if bad else ''))
    ids = [r[0] for r in rows]
    dup = sorted({i for i in ids if ids.count(i) > 1})
    result(not dup, 'each case once' + (': ' + ' '.join(dup) if dup else ''))
    if args.tree:
        suites = re.search(r'^SUITES="(.*)"$', open(GUEST).read(), re.M).group(1).split()
        want = tree_cases(args.tree, suites)
        missing = [i for i in want if i not in ids]
        extra = [i for i in ids if i not in want]
        result(ids == want, "the table's cases are the suites' in ftracetest's "
               'order' + (f': missing {missing}' if missing else '') +
               (f', not in the suites {extra}' if extra else ''))
    doc = open(args.doc).read()
    m = re.search(re.escape(BEGIN) + r'.*?' + re.escape(END) + r'\n', doc, re.S)
    result(m is not None and m.group(0) == rst(rows, notes),
           f'{os.path.relpath(args.doc, TOP)} shows the table as it is '
           '(scripts/ftracetest_table.py rst)')
    return 0 if all(res) else 1


def update(args):
    """Set the columns of args.arch from a guest log, the rest kept."""
    got = {}
    for line in open(args.log, errors='replace'):
        m = re.search(r'# ftt-result (\S+) (\S+) (\S+)\s*$', line)
        if m:
            got[m.group(1)] = (m.group(2), m.group(3))
    if not got:
        sys.exit(f'{args.log}: no "# ftt-result" lines')
    lines = open(args.table).read().splitlines()
    out, seen = [], set()
    for line in lines:
        if not line.strip() or line.startswith('#'):
            out.append(line)
            continue
        f = line.split()
        f += [''] * (5 - len(f))
        if f[0] in got:
            seen.add(f[0])
            fw, k = got[f[0]]
            # FTRACE is x86_64's (the reference kernel's) alone
            if fw != '-' and args.arch == 'x86_64':
                f[1] = fw
            f[2 if args.arch == 'x86_64' else 3] = k
        out.append(' '.join(v for v in f if v))
    for i, (fw, k) in got.items():
        if i in seen:
            continue
        f = [i, fw if fw != '-' and args.arch == 'x86_64' else 'UNTESTED',
             'UNTESTED', 'UNTESTED']
        f[2 if args.arch == 'x86_64' else 3] = k
        out.append(' '.join(f))
    with open(args.table, 'w') as t:
        t.write('\n'.join(out) + '\n')
    return 0


def main():
    p = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    sub = p.add_subparsers(dest='cmd', required=True)
    r = sub.add_parser('rst', help="the document's table")
    r.add_argument('table', nargs='?', default=TABLE)
    c = sub.add_parser('check', help='the rules, the tree, the document')
    c.add_argument('--tree', help="the kernel tree's ftrace test.d")
    c.add_argument('--doc', default=DOC)
    c.add_argument('table', nargs='?', default=TABLE)
    u = sub.add_parser('update', help="a kernel's columns from a guest log")
    u.add_argument('--arch', required=True, choices=('x86_64', 'i386'))
    u.add_argument('log')
    u.add_argument('table', nargs='?', default=TABLE)
    args = p.parse_args()
    if args.cmd == 'update':
        return update(args)
    if args.cmd == 'rst':
        rows, notes, errors = load(args.table)
        if errors:
            sys.exit('; '.join(errors))
        sys.stdout.write(rst(rows, notes))
        return 0
    return check(args)


if __name__ == '__main__':
    sys.exit(main())

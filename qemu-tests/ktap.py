#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Parse a kmark guest's console log: KTAP results and kernel trouble.

Usage: ktap.py FLAVOUR LOG [--boot-status N] [--expect-suite NAME]...
                 [--expect-guest TOPIC]...

The log holds KTAP documents (Documentation/dev-tools/ktap.rst): KUnit's,
printed by the kernel at boot (with printk timestamps), and the guest
runner's. Every leaf test becomes one line "[FLAVOUR] ok|not ok|skip PATH".
A test skipped without a reason, a plan that does not match the results, a
missing suite or topic, or a kernel problem in the log (panic, oops, BUG:,
WARNING:, lockdep) is a failure; one that ended a kmark-fuzz run is named
with the run's seed (fuzzlog.py). So is a skip that qemu-tests/skips.py
does not expect on FLAVOUR (a test skipped on a kernel where it is meant to
run). With --expect-guest, the runner must have reached its end line
("# kmark guest tests done") and the guest rebooted cleanly after it
("reboot: Restarting system"); --boot-status is QEMU's exit status
(scripts/boot.sh: 124 when it timed out), a failure unless 0. Prints
"FLAVOUR: N passed, N failed, N skipped" (an expected skip, with its
reason, is neither passed nor failed) and exits 1 if anything failed.
"""
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import fuzzlog  # noqa: E402
import skips  # noqa: E402

TS = re.compile(r'^\[\s*\d+\.\d+\] ?')
RESULT = re.compile(r'^(not ok|ok) (\d+)(?: -)? ?([^#]*?)\s*(?:#\s*(.*))?$')
TROUBLE = re.compile(
    r'Kernel panic|Oops|BUG:|WARNING:|possible recursive locking|'
    r'possible circular locking|suspicious RCU usage|inconsistent lock state|'
    r'INFO: task .* blocked|Call Trace:|general protection fault|'
    r'UBSAN:|KASAN:')


class Result:
    def __init__(self):
        self.passed = 0
        self.failed = 0
        self.skipped = 0
        self.lines = []

    def add(self, arch, ok, path, note=''):
        word = 'ok' if ok is True else 'not ok'
        if not note.upper().startswith('SKIP') and skips.must_skip(arch, path):
            ok, word = False, 'not ok'
            note += (f'  (ran on {arch}, whose kernel is built without what it '
                     'needs: qemu-tests/skips.py MUST_SKIP)')
        if ok and note.upper().startswith('SKIP') and \
                not skips.allowed(arch, path, note[4:].strip()):
            ok, word = False, 'not ok'
            note += f'  (not an expected skip on {arch}: qemu-tests/skips.py)'
        if ok and note.upper().startswith('SKIP'):
            word = 'skip'
            self.skipped += 1   # neither passed nor failed
        elif ok:
            self.passed += 1
        else:
            self.failed += 1
        self.lines.append(f'[{arch}] {word:6} {path}' +
                          (f'  # {note}' if note else ''))


# Guest tests that inject allocation failures (fail-nth) bracket them with
# these lines in the kernel log; inside, the kernel's own reports of a
# failed allocation are expected and not trouble: warn_alloc's (a header
# line, then a stack dump that ends with </TASK> on x86_64 and before
# "Mem-Info:" on both arches) and the ring buffer's, whose allocation of
# another CPU's buffer when a buffer is made (trace_rb_cpu_prepare(), a
# snapshot's too) reports a failure with a WARN (its message first, then
# the dump, ended by </TASK> on x86_64 and by "---[ end trace" on both).
# Anything else still is.
FAULT_BEGIN = 'KMARK-FAULT-INJECTION begin'
FAULT_END = 'KMARK-FAULT-INJECTION end'
ALLOC_FAILURE = re.compile(r'(vmalloc error: size \d+, |'
                           r'page allocation failure: order:|'
                           r'^(\[ *[0-9.]+\] )?failed to allocate ring buffer on CPU \d+$)')
ALLOC_FAILURE_END = re.compile(r'</TASK>|Mem-Info:|---\[ end trace ')

# qemu-tests/runner.sh's last line, and the kernel's when /init's
# "reboot -f" restarts it (QEMU's -no-reboot then exits).
RUNNER_END = '# kmark guest tests done'
REBOOT = re.compile(r'^reboot: Restarting system')


def find_trouble(lines):
    trouble = []
    injecting = skipping = False
    for x in lines:
        if FAULT_BEGIN in x:
            injecting = True
            continue
        if FAULT_END in x:
            injecting = skipping = False
            continue
        if injecting and ALLOC_FAILURE.search(x):
            skipping = True
            continue
        if skipping:
            if ALLOC_FAILURE_END.search(x):
                skipping = False
            continue
        if TROUBLE.search(x):
            trouble.append(x)
    return trouble


def strip(line):
    line = TS.sub('', line.rstrip('\r\n'))
    return line


def parse_block(lines, i, indent, prefix, arch, res, top_names):
    """Parse results at @indent starting at lines[i] (after the header).

    Returns (index after the block, list of (ok, name) at this level).
    """
    plan = None
    seen = []
    pad = ' ' * indent
    pending_sub = None  # (name, ok_children) of the subtest just parsed
    while i < len(lines):
        raw = lines[i]
        if not raw.startswith(pad) and raw.strip():
            bare = raw.lstrip()
            if RESULT.match(bare) or re.match(r'(1\.\.\d|KTAP version|# Subtest:)', bare):
                break
            i += 1      # kernel messages between results: not ours
            continue
        line = raw[indent:]
        if indent == 0 and line.rstrip() == 'KTAP version 1':
            break       # the next document
        if line.startswith('    KTAP version') or line.startswith('    # Subtest:'):
            # A nested subtest: parse it, its result line follows at our level.
            j = i
            name = None
            while j < len(lines) and lines[j].startswith(pad + '    '):
                sub = lines[j][indent + 4:]
                m = re.match(r'# Subtest: (.*)', sub)
                if m:
                    name = m.group(1).strip()
                if re.match(r'(KTAP version|# Subtest:)', sub):
                    j += 1
                    continue
                break
            j, children = parse_block(lines, j, indent + 4,
                                      prefix + [name or '?'], arch, res, None)
            pending_sub = (name, children)
            i = j
            continue
        m = re.match(r'^1\.\.(\d+)', line)
        if m:
            plan = int(m.group(1))
            i += 1
            continue
        m = RESULT.match(line)
        if m:
            ok = m.group(1) == 'ok'
            name = m.group(3).strip() or f'test{m.group(2)}'
            note = (m.group(4) or '').strip()
            if pending_sub and pending_sub[0] in (None, name):
                # A subtest's own result: its children were counted already.
                if not pending_sub[1]:
                    res.add(arch, False, '.'.join(prefix + [name]),
                            'subtest reported no results')
                elif not ok and all(c for c, _ in pending_sub[1]):
                    res.add(arch, False, '.'.join(prefix + [name]),
                            'subtest failed: ' + (note or 'exit status'))
                pending_sub = None
            else:
                if ok and note.upper().startswith('SKIP') and \
                        len(note.split(None, 1)) < 2:
                    res.add(arch, False, '.'.join(prefix + [name]),
                            'skipped without a reason')
                else:
                    res.add(arch, ok, '.'.join(prefix + [name]), note)
            seen.append((ok, name))
            i += 1
            continue
        i += 1
    if plan is not None and plan != len(seen):
        res.add(arch, False, '.'.join(prefix) or 'ktap',
                f'plan says {plan} tests, {len(seen)} reported')
    return i, seen


def main():
    args = sys.argv[1:]
    if len(args) < 2:
        print(__doc__, file=sys.stderr)
        return 2
    arch, path = args[0], args[1]
    want_suites, want_topics, status = [], [], None
    k = 2
    while k < len(args):
        if k + 1 >= len(args):
            print(__doc__, file=sys.stderr)
            return 2
        if args[k] == '--expect-suite':
            want_suites.append(args[k + 1])
        elif args[k] == '--expect-guest':
            want_topics.append(args[k + 1])
        elif args[k] == '--boot-status':
            status = int(args[k + 1])
        else:
            print(__doc__, file=sys.stderr)
            return 2
        k += 2
    with open(path, errors='replace') as f:
        lines = [strip(x) for x in f]
    res = Result()

    trouble = find_trouble(lines)
    if trouble:
        res.add(arch, False, 'kernel-log', 'problems in the console log:')
        for t in trouble[:20]:
            res.lines.append(f'[{arch}]          | {t}')

    # A fuzzer run the kernel ended: its seed, to replay it.
    for finding, replay in fuzzlog.findings(lines):
        res.add(arch, False, 'fuzz-crash', finding)
        res.lines.append(f'[{arch}]          | replay: {replay}')

    docs = [i for i, x in enumerate(lines) if x.strip() == 'KTAP version 1'
            and not x.startswith(' ')]
    top = []
    for d in docs:
        _, seen = parse_block(lines, d + 1, 0, [], arch, res, top)
        top += [n for _, n in seen]
    for s in want_suites:
        if s not in top:
            res.add(arch, False, s, 'KUnit suite missing from the log')
    for t in want_topics:
        if t not in top:
            res.add(arch, False, t, 'guest test missing from the log (crash or timeout?)')
    if not docs:
        res.add(arch, False, 'ktap', 'no KTAP output in the log')
    if status:
        res.add(arch, False, 'boot', f'QEMU exited with status {status}' +
                (' (timed out: a hang?)' if status == 124 else ''))
    if want_topics:
        ends = [i for i, x in enumerate(lines) if x.rstrip() == RUNNER_END]
        if not ends:
            res.add(arch, False, 'end', "the guest runner never reached its "
                    f"end line '{RUNNER_END}' (it died or hung)")
        elif not any(REBOOT.match(x) for x in lines[ends[-1]:]):
            res.add(arch, False, 'reboot', 'the guest did not reboot cleanly '
                    "after the tests (no 'reboot: Restarting system')")

    for line in res.lines:
        print(line)
    print(f'{arch}: {res.passed} passed, {res.failed} failed, '
          f'{res.skipped} skipped')
    return 1 if res.failed else 0


if __name__ == '__main__':
    sys.exit(main())

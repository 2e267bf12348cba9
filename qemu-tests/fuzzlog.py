#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Find kmark-fuzz runs that the kernel ended, in a guest's console log.

Usage: fuzzlog.py LOG...

kmark-fuzz (qemu-tests/kmark-fuzz.c) writes to the kernel log, so that the
console keeps it whatever happens to the guest:
    kmark-fuzz: seed=N start opts=-d DIR [-x FAMILY]...
    kmark-fuzz: seed=N step=M          (every 50 steps)
    kmark-fuzz: seed=N finding step=M  (it reported a finding itself)
    kmark-fuzz: seed=N done after M steps
A kernel problem (panic, oops, BUG:, WARNING:, a stack guard page hit, ...)
after a start that no 'finding' or 'done' line of the same run follows is
a finding the guest could not report: the kernel crashed or killed the
fuzzer. Each is printed as
    FUZZ-FINDING seed=N step>=M: the kernel ... : FIRST LINE OF THE SPLAT
with the replay command (the steps from M on are the suspects). Exits 1 if
there is one. ktap.py calls findings() on every guest log.
"""
import re
import sys

TS = re.compile(r'^\[\s*\d+\.\d+\] ?')
NOTE = re.compile(r'kmark-fuzz: seed=(\d+) (start(?: opts=(.*))?|step=(\d+)|'
                  r'finding step=(\d+)|done after (\d+) steps)')
TROUBLE = re.compile(
    r'Kernel panic|Oops|BUG:|WARNING:|possible recursive locking|'
    r'possible circular locking|suspicious RCU usage|inconsistent lock state|'
    r'general protection fault|stack guard page|stack-protector|'
    r'UBSAN:|KASAN:|KFENCE:|kmemleak:.*leak|blocked for more than|'
    r'soft lockup|detected stall')


def findings(lines):
    """(FUZZ-FINDING line, replay command) for each run the kernel ended."""
    out = []
    run = None      # [seed, last step, first trouble line or None, options]
    for raw in lines:
        line = TS.sub('', raw.rstrip('\r\n'))
        m = NOTE.search(line)
        if m:
            seed, what = m.group(1), m.group(2)
            if what.startswith('start'):
                run = [seed, 0, None, (m.group(3) or '').strip()]
            elif run and run[0] == seed and m.group(4):
                if run[2] is None:
                    run[1] = int(m.group(4))
            elif run and run[0] == seed:
                run = None  # the fuzzer reported (finding) or finished
            continue
        if run and run[2] is None and TROUBLE.search(line):
            run[2] = line.strip()
        if run and run[2] is not None and line.startswith('KMARK-SCRIPT-EXIT'):
            break
    if run and run[2] is not None:
        seed, step, splat, opts = run
        out.append((f'FUZZ-FINDING seed={seed} step>={step}: the kernel crashed '
                    f'or killed the fuzzer before it could report: {splat}',
                    f'kmark-fuzz --seed {seed} --steps {step + 50} -v {opts}'
                    .rstrip()))
    return out


def main():
    if len(sys.argv) < 2:
        print(__doc__, file=sys.stderr)
        return 2
    found = False
    for path in sys.argv[1:]:
        with open(path, errors='replace') as f:
            for finding, replay in findings(f):
                print(f'{path}: {finding}')
                print(f'{path}:   replay (the last action printed is the '
                      f'suspect): {replay}')
                found = True
    return 1 if found else 0


if __name__ == '__main__':
    sys.exit(main())

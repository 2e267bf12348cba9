#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# qemu-tests/fuzzlog.py: a kernel crash during a kmark-fuzz run is named
# with the run's seed, its last checkpoint and the replay command; a crash
# after the run finished or reported, or before it began, is not the run's.
top=$(cd "$(dirname "$0")/../.." && pwd)
python3 - "$top/qemu-tests" <<'PY'
import sys
sys.path.insert(0, sys.argv[1])
from fuzzlog import findings

start = ['[ 1.0] kmark-fuzz: seed=42 start opts=-d /sys/kernel/debug/kmark -x limit',
         '[ 1.1] kmark-fuzz: seed=42 step=1', '[ 1.5] kmark-fuzz: seed=42 step=51']
guard = ['[ 1.6] BUG: TASK stack guard page was hit at (____ptrval____)',
         '[ 1.6] Oops: stack guard page: 0000 [#1] SMP',
         '[ 1.7] Kernel panic - not syncing: Fatal exception in interrupt']
done = ['[ 9.0] kmark-fuzz: seed=42 done after 700 steps']
reported = ['[ 1.6] kmark-fuzz: seed=42 finding step=52']
warn = ['[ 9.5] WARNING: CPU: 1 PID: 7 at kernel/trace/kmark.c:10 f+0x1/0x2']
other = ['[ 0.5] kmark-fuzz: seed=7 start opts=-d /sys/kernel/tracing/kmark',
         '[ 0.6] kmark-fuzz: seed=7 step=1', '[ 0.9] kmark-fuzz: seed=7 done after 20 steps']
cases = [
    ('a crash during a run: its seed, its last checkpoint, the replay',
     start + guard, ['seed=42 step>=51', 'stack guard page',
                     '--seed 42 --steps 101 -v -d /sys/kernel/debug/kmark -x limit']),
    ('the checkpoints after a splat do not move the step',
     start + guard[:1] + ['[ 1.7] kmark-fuzz: seed=42 step=101'], ['step>=51']),
    ('a splat after the run finished is not the run\'s', start + done + warn, []),
    ('a finding the fuzzer reported itself is not reported again',
     start + warn + reported, []),
    ('a splat before the run began is not the run\'s', warn + start + done, []),
    ('of two runs, the one the kernel ended', other + start + guard, ['seed=42']),
    ('a run cut short without a splat is no crash finding', start, []),
]
for name, lines, want in cases:
    got = findings(lines)
    text = ' '.join(f + ' ' + r for f, r in got)
    good = (len(got) > 0) == (len(want) > 0) and all(w in text for w in want)
    print(('ok - ' if good else 'not ok - ') + name + ('' if good else f' (got {got})'))
PY

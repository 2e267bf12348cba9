# SPDX-License-Identifier: GPL-2.0
"""Instruction profile of one call, single-stepped through QEMU's gdbstub.

Run inside gdb (scripts/profile.sh does):
  gdb -batch -nx -x scripts/insn_profile.py vmlinux
with, in the environment:
  PORT     QEMU's gdbstub port (QEMU started with -gdb tcp::PORT)
  SYSMAP   the kernel's System.map (functions by address)
  TARGETS  "label=function[@marker]" words: break at function's entry,
           when @marker is given only where the first argument is a kmark
           site of that marker (__kmark_hit), and count each instruction
           until the function returns to its caller
  REPS     calls stepped per target (default 5)
  OUT      the result: "PROFILE label rep N total T" then one
           "PROFILE label rep N fn F C" line per function (C instructions)

QEMU single-steps with interrupts and timers masked (its gdbstub default),
so a step stays in the call. Inlined code counts for the function it is
inlined into.
"""
import bisect
import collections
import os

import gdb  # pylint: disable=import-error


def load_symbols(path):
    syms = []
    with open(path) as f:
        for line in f:
            a = line.split()
            if len(a) >= 3 and a[1] in 'tTwW':
                syms.append((int(a[0], 16), a[2]))
    syms.sort()
    return [a for a, _ in syms], [n for _, n in syms]


def main():
    addrs, names = load_symbols(os.environ['SYSMAP'])

    def sym(pc):
        i = bisect.bisect_right(addrs, pc) - 1
        return names[i] if i >= 0 else '?'

    reps = int(os.environ.get('REPS', '5'))
    gdb.execute('set pagination off')
    gdb.execute('set confirm off')
    gdb.execute('target remote :%s' % os.environ['PORT'])
    # Only the stepped vCPU runs while stepping (the other would hit the
    # breakpoint too); all run on 'continue'.
    gdb.execute('set scheduler-locking step')
    inf = gdb.selected_inferior()
    width = 8 if gdb.lookup_type('long').sizeof == 8 else 4
    with open(os.environ['OUT'], 'w') as out:
        for target in os.environ['TARGETS'].split():
            label, fn = target.split('=', 1)
            fn, _, marker = fn.partition('@')
            if marker:
                # struct kmark_site: the static key (an int and a pointer,
                # two words), then the name; the first argument is in
                # rdi (x86_64) or eax (i386, regparm).
                cond = ' if $_streq(*(char **)((char *)$%s + %d), "%s")' % (
                    'rdi' if width == 8 else 'eax', 2 * width, marker)
            else:
                cond = ''
            gdb.execute('hbreak *%s%s' % (fn, cond), to_string=True)
            for rep in range(reps):
                gdb.execute('continue', to_string=True)
                sp = int(gdb.parse_and_eval('$sp'))
                ret = int.from_bytes(inf.read_memory(sp, width).tobytes(),
                                     'little')
                counts = collections.Counter()
                n = 0
                while n < 100000:
                    pc = int(gdb.parse_and_eval('$pc'))
                    if pc == ret:
                        break
                    counts[sym(pc)] += 1
                    n += 1
                    gdb.execute('stepi', to_string=True)
                out.write('PROFILE %s rep %d total %d\n' % (label, rep, n))
                for name, c in counts.most_common():
                    out.write('PROFILE %s rep %d fn %s %d\n' %
                              (label, rep, name, c))
                out.flush()
            gdb.execute('delete', to_string=True)
    gdb.execute('kill', to_string=True)


main()

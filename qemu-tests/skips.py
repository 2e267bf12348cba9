# SPDX-License-Identifier: GPL-2.0
"""The skips a run may have: everything else a test skips is a failure.

A test that skips on a kernel where it is meant to run hides a failure
(a test that skips "no ftrace" on x86_64, which has ftrace, tests
nothing). qemu-tests/ktap.py and qemu-tests/dat_check.py count a skip
found here as a skip, named with its reason; any other skip as a failure.

Each entry: (flavours, test, reason, why it is expected)
  flavours  space-separated globs of the flavour, as ktap.py and
            dat_check.py are given it (x86_64, i386-stress,
            x86_64-lockdown-integrity, ...)
  test      a glob of the result's path ("32-sched-vs-ftrace.*",
            "kmark.kmark_test_comm_current", "owners: *")
  reason    a regular expression the skip's reason must match (re.search)
"""
import fnmatch
import re

# The flavours whose kernels have no ftrace (scripts/config: i386.config
# and stress.config turn CONFIG_FTRACE off; ftrace.config and
# dynftrace.config, i386-lockdep's, turn it on).
NO_FTRACE = 'i386 i386-stress x86_64-stress i386-hardened'
# The hardened kernel (scripts/config/hardened.config): no debugfs,
# kprobes, modules, kallsyms, fault injection or LKDTM. A test skips what
# needs one of them, saying "no WHAT in this kernel" (lib.sh's lacking;
# runner.sh for a script's "# needs:" line).
HARDENED = 'i386-hardened i386-hardened-*'
LACKS = (r'^no (debugfs|kprobes|modules|kallsyms|fault-injection|LKDTM)'
         r'((, | or )(debugfs|kprobes|modules|kallsyms|fault-injection))*'
         r' in this kernel($|[ :(])')
# The flavours whose kernels have no DYNAMIC_FTRACE (the function tracer:
# only i386-lockdep's dynftrace.config has it).
NO_DYNFTRACE = 'x86_64 x86_64-clang x86_64-stress i386 i386-stress'

ALLOWED = [
    (NO_FTRACE, '32-sched-vs-ftrace.*', r'^no ftrace in this kernel$',
     'the comparison with ftrace needs ftrace'),
    (NO_FTRACE, '38-hist-vs-ftrace.*', r'^no ftrace in this kernel$',
     "the comparison with ftrace's hist triggers needs ftrace"),
    (NO_FTRACE, '35-stack-vs-ftrace.*', r'^no ftrace in this kernel$',
     "the comparison with ftrace's stacks needs ftrace"),
    (NO_FTRACE, '88-trace-cmd.*', r'^no ftrace in this kernel$',
     "the comparison with ftrace's recordings by trace-cmd needs ftrace"),
    ('i386-hardened *-lockdown-confidentiality', "29-trace-options.a stack taken inside another's scan*",
     r'^no (kprobes|unwinder function to probe) in this kernel$',
     'no kprobes there (or no kallsyms to name the unwinder by)'),
    # trace-cmd 3.1.6's profile deadlocks when its recorder's output
    # outgrows a pipe (88-trace-cmd.sh sees the signature before it says so).
    ('*', '88-trace-cmd.profile reports the tasks',
     r"^trace-cmd 3\.1\.6's profile deadlocked: its recorder blocked in pipe_write",
     "trace-cmd 3.1.6's bug, on ftrace too: its parent reads the pipe only after waiting"),
    (NO_FTRACE, "29-trace-options.kernel_stack's format is ftrace's file*",
     r'^no ftrace in this kernel$', "the comparison with ftrace's file needs ftrace"),
    (HARDENED, '*', LACKS,
     'the hardened kernel leaves them out: its tests of what it keeps run'),
    ('i386-hardened-flight', 'O: *', r'^no LKDTM in this kernel',
     'nothing oopses on request there: P panics when init exits'),
    ('i386 i386-bench i386-hardened', '15-doc-commands.*',
     r'^the documents show x86_64 output$',
     "the documents' commands are compared with their x86_64 output"),
    # Only x86_64's check boot has kmark_event= on its command line, which
    # allocates the buffer (and the table of names) before KUnit runs.
    ('i386 i386-lockdep i386-stress x86_64-stress x86_64-lockdown-* i386-hardened i386-hardened-*',
     'kmark.kmark_test_comm_current', r'^no buffer allocated yet',
     'no kmark_event= at boot: the table of names is made later'),
    # Which functions are notrace only a DYNAMIC_FTRACE kernel knows.
    (NO_DYNFTRACE, '73-kprobe-notrace.*', r'^no DYNAMIC_FTRACE in this kernel$',
     'i386-lockdep has the function tracer; the others leave it out (build time)'),
    # The single-CPU kernel has no CPU to leave out of the mask.
    ('i386', '27-cpumask.*', r'^one CPU: nothing to leave out$',
     'make run ARCH=i386 and FLAVOURS=i386 boot one vCPU'),
    # At confidentiality no kprobe can be defined: the integrity boot arms.
    ('x86_64-lockdown-confidentiality', '20-kprobe-arm.*',
     r'^lockdown is confidentiality: no kprobe can be defined',
     'the integrity boot defines the probe and raises the level'),
    # x86_64 is also the bench kernel: no kmemleak. The fuzzer's leak
    # check runs on the stress kernels.
    ('x86_64', '30-fuzz.kmemleak', r'^this kernel has no kmemleak$',
     'x86_64 is the bench kernel (no kmemleak); i386-stress has it'),
    ('i386-lockdep', '30-fuzz.kmemleak', r'^this kernel has no kmemleak$',
     'i386-lockdep is lockdep only (on patched keys); i386-stress has kmemleak'),
    # 95-ftracetest: ftrace's own run doubles the test's time; make check
    # compares with the table's ftrace column (ftracetest=full runs it).
    ('x86_64', '95-ftracetest.*',
     r"^not run without ftracetest=full on the kernel's command line",
     "make check's time: the table's ftrace verdicts instead"),
    (NO_FTRACE, '95-ftracetest.*', r'^no ftrace in this kernel$',
     'the reference run needs ftrace'),
    # A 32-bit kernel's pid_max cannot exceed 32768 (PID_MAX_LIMIT): no
    # pid beyond saved_cmdlines' own lines there.
    ('i386 i386-stress i386-hardened', '99-pid-names.*',
     r'^pid_max cannot exceed 32768 on this kernel$',
     "a 32-bit kernel has no pid over 32767: every pid has its own line"),
    # make check's i386 kernel is the stress one, where ftracetest takes
    # 146 s more than make check's 25 minutes have: ftracetest=run checks
    # the i386 column (recorded from an i386-stress run, ftracetest=full).
    ('i386 i386-stress', '95-ftracetest.*',
     r"^make check's time: the i386 column is checked with ftracetest=run",
     "make check's time: FLAVOURS=i386-stress KERNEL_ARGS=ftracetest=run checks it"),
    ('i386 i386-stress', "95-ftracetest.ftracetest on ftrace's directory",
     r"^the table's ftrace column is x86_64's$",
     "the reference is x86_64's ftrace: an i386 run compares kmark alone"),
    # x86_64 (the bench kernel) tracks no locks; the stress kernels do
    # (DEBUG_LOCK_ALLOC selects LOCKDEP), and i386-lockdep proves them.
    ('x86_64', '90-modules.lockdep sees*', r'^no lockdep in this kernel$',
     'x86_64 is the bench kernel: no lock tracking; the i386 kernels have it'),
    # 85-trace-dat's "owners" recording has no sched events by design.
    ('*', 'owners: *', r'^no sched_switch( or sched_wakeup)? events$',
     'the recording without sched events has none for the sched plugins'),
]


# Tests that must skip on these flavours, whose kernels are built without
# what they need: a result there means the kernel is not what its
# configuration says (lockdep's PROVE_LOCKING once brought TRACING into
# i386-stress, and 32-sched-vs-ftrace enabled ftrace's events, patching
# text under multi-threaded TCG, which oopsed). (flavours, test)
MUST_SKIP = [
    ('i386-stress x86_64-stress', '32-sched-vs-ftrace.*'),
    ('i386-stress x86_64-stress', '35-stack-vs-ftrace.*'),
    ('i386-stress x86_64-stress', '38-hist-vs-ftrace.*'),
    (NO_DYNFTRACE, '73-kprobe-notrace.*'),
] + [('i386-hardened', t + '.*') for t in (
    # what the hardened kernel has not: debugfs, kprobes, modules,
    # fault injection (and ftrace, above)
    '12-tracefs', '39-dynamic-events', '65-fault-injection', '66-hist-faults',
    '70-kprobes', '71-kprobe-review', '72-kprobe-syntax-errors',
    '73-kprobe-notrace', '75-kprobe-context-switch', '90-modules',
    '92-module-markers', '93-module-hist', '95-ftracetest',
    '32-sched-vs-ftrace', '35-stack-vs-ftrace', '38-hist-vs-ftrace')] + [
    (HARDENED, '20-kprobe-arm.*')]


def must_skip(flavour, test):
    """Whether @test may only skip on @flavour."""
    return any(any(fnmatch.fnmatchcase(flavour, f) for f in flavours.split())
               and fnmatch.fnmatchcase(test, pattern)
               for flavours, pattern in MUST_SKIP)


def allowed(flavour, test, reason):
    """Whether @test may skip on @flavour for @reason."""
    for flavours, pattern, why, _ in ALLOWED:
        if any(fnmatch.fnmatchcase(flavour, f) for f in flavours.split()) \
                and fnmatch.fnmatchcase(test, pattern) \
                and re.search(why, reason):
            return True
    return False

#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Write kmark as a git format-patch series for one's own 6.12 tree.

Usage: mkpatches.py [--check [--no-write]] OUTDIR
       (OUTDIR relative to the working directory; the NNNN-*.patch files
       a series left there before are removed, nothing else)
       mkpatches.py --pristine DEST

The series is made from the same files the test kernels are built from:
the overlay (kernel/, include/, samples/, Documentation/) and the edits of
scripts/patches/. In a throwaway git repository holding the pristine
6.12 versions of the kernel files those edits touch (from Debian's
linux-source-6.12 tarball), each patch of the split below is one commit,
then ``git format-patch --cover-letter`` writes OUTDIR/*.patch.

Each commit holds everything its part needs: the Kconfig options and
Makefile objects of kernel/trace are cut to the parts applied so far, so
that the kernel builds after each patch.

--check then applies the series with ``git am`` onto a second pristine
repository and compares every file it touches with the tree
scripts/prepare-tree.sh made (build/linux): the series and the test
kernels are the same code. It prints TAP and "N passed, N failed".
With --no-write it checks the series already in OUTDIR (make patches
wrote it) instead of writing it again. --pristine makes DEST a git
repository of the pristine 6.12 files the series touches (all that git am
reads), for a test to apply the series to as a user does.

The pristine files (the xz tarball takes about 15 s to read) and
checkpatch's findings for a patch (keyed by its text, checkpatch.pl and
the tarball) are kept in build/mkpatches-cache, so that make patches and
a check of what it wrote read the tarball and run checkpatch once.
"""
import argparse
import hashlib
import os
import re
import shutil
import subprocess
import sys
import tempfile

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TARBALL = '/usr/src/linux-source-6.12.tar.xz'
TARDIR = 'linux-source-6.12'
PATCHES = os.path.join(TOP, 'scripts', 'patches')
# Set by main(): beside the tree of --src (build/mkpatches-cache).
CACHE = None

# Overlay files that are kmark's own and no part of the series: the manual
# of kmark's tests (make check, QEMU), which a kernel tree has no use for.
NOT_IN_SERIES = ['Documentation/dev-tools/kmark-testing.rst']

# The split, in the order a reviewer reads it. 'files' are overlay files,
# 'patches' entries of scripts/patches/series, 'kconfig' the options of
# kernel/trace/Kconfig and 'make' the words that mark its Makefile lines.
PARTS = [
    {
        'subject': 'tracefs: allow more than one instances directory',
        'files': [],
        'patches': ['0010-tracefs-instance-dirs.patch'],
        'kconfig': [],
        'make': [],
        'body': """\
tracefs_create_instance_dir() gives a directory mkdir and rmdir callbacks,
so that "mkdir instances/foo" makes a tracing instance. Its callbacks were
kept in one static struct, and a second caller got a WARN and NULL: only
ftrace could have instances.

Keep each instances directory's callbacks in its inode's i_private, which
tracefs_syscall_mkdir() and tracefs_syscall_rmdir() are handed as the
parent directory's inode. ftrace's instances/ works as before; another
tracer (kmark, next in this series) can give its own directory instances
that users make and remove the way they do ftrace's.
""",
    },
    {
        'subject': 'tracefs: build it for a tracer other than ftrace',
        'files': [],
        'patches': ['0015-tracefs-without-tracing.patch'],
        'kconfig': [],
        'make': [],
        'body': """\
tracefs was built only with CONFIG_TRACING, which brings all of ftrace's
event tracing along. A kernel that leaves ftrace out (a hardened product
kernel, a tiny board) but carries another tracer with ftrace's directory
layout (kmark, next in this series) could then offer its users debugfs at
best, which hardened kernels turn off too.

Give tracefs a hidden symbol of its own, TRACEFS_FS, which TRACING
selects: every kernel that had tracefs has it as before, and another
tracer can select it alone. include/linux/tracefs.h keeps its stubs for a
kernel without it.
""",
    },
    {
        'subject': 'ring-buffer: drop a damaged sub-buffer of the last boot alone',
        'files': [],
        'patches': ['0016-ring-buffer-persistent-per-subbuf.patch'],
        'kconfig': [],
        'make': [],
        'body': """\
A persistent ring buffer (ring_buffer_alloc_range()) is checked at boot
one CPU at a time: rb_meta_valid() rejected a CPU's whole buffer when
one sub-buffer's commit was too large, and rb_meta_validate_events()
zeroed every sub-buffer of a CPU when one of them did not parse. On
every reset the firmware writes somewhere near the top of RAM, where
reserve_mem= places the region (SeaBIOS: 120 KiB under QEMU); a stray
DMA write or a torn line can hit any page. One bad page then cost the
CPU its whole trace, the part a user reads after a crash.

Check the meta data (magic, sizes, the head and commit sub-buffers,
now also that they start on a sub-buffer, and the order of the
sub-buffers) per CPU as before, and the content one sub-buffer at a
time: a sub-buffer whose commit is larger than its data, whose events
do not parse, or which is empty between the head and the commit
sub-buffers is turned into one discarded event that fills it (readers
skip it; three empty sub-buffers in a row would stop the reader), and
counted. The CPU keeps every other sub-buffer. The commit check also
stops at the data's end: a commit of PAGE_SIZE read past the page.

ring_buffer_range_last_boot() tells a tracer, per CPU, whether its
sub-buffers are the last boot's and how many were dropped, so that it
can say what was lost instead of showing an empty CPU.
""",
    },
    {
        'subject': 'ring-buffer: do not wait for a reader lock while an oops is printed',
        'files': [],
        'patches': ['0017-ring-buffer-dump-trylock-on-oops.patch'],
        'kconfig': [],
        'make': [],
        'body': """\
A tracer that dumps its buffer when the kernel oopses or panics (ftrace's
ftrace_dump_on_oops, kmark's flight recorder) reads it through the
ring buffer's readers, which take the per-CPU reader lock. Only in an
NMI did rb_reader_lock() fall back to a trylock; the iterator functions
never did. The lock's holder may be the very CPU that oopsed inside a
reader, or another CPU that panic() stopped by NMI while it read
trace_pipe: the dump then spins for ever with interrupts off, instead of
printing and rebooting (panic_timeout) or handing over to kdump.

While oops_in_progress is set (bust_spinlocks(1) in oops_begin() and
panic()), take the reader lock only if it is free, as in an NMI; if it
is not, read without it and disable the buffer's writes. The iterator
functions (ring_buffer_iter_reset(), _peek(), _advance()) do the same.
""",
    },
    {
        'subject': 'kmark: static markers with an ftrace-style control directory',
        'files': ['include/trace/kmark.h', 'kernel/trace/kmark.c',
                  'kernel/trace/kmark_internal.h', 'kernel/trace/kmark_record.c',
                  'kernel/trace/kmark_output.c', 'kernel/trace/kmark_fs.c',
                  'kernel/trace/kmark_events.c', 'kernel/trace/kmark_instance.c',
                  'kernel/trace/kmark_read.c',
                  'kernel/trace/kmark_filter.c', 'kernel/trace/kmark_pid.c',
                  'kernel/trace/kmark_trigger.c',
                  'kernel/trace/kmark_dynevent.c',
                  'kernel/trace/kmark_module.c', 'Documentation/trace/kmark.rst'],
        'patches': ['0001-kmark-kconfig-and-makefile.patch',
                    '0002-kmark-linker-section.patch',
                    '0005-kmark-kernel-parameters.patch',
                    '0006-kmark-module-sites.patch',
                    '0008-kmark-documentation-index.patch',
                    '0009-kmark-maintainers.patch'],
        'kconfig': ['KMARK'],
        'make': [],
        'body': """\
kmark() places a named static marker in kernel or module code:

	kmark(mydrv_irq, "irq=%d status=%#x", irq, status);

While nobody listens, a site is one jump patched to a NOP (a static key)
and its arguments are not evaluated. The compiler packs the arguments,
with the C types it knows, into a block described by a per-site table;
-Wformat is an error at the site, so an argument that does not match its
conversion does not build. All sites of a name form one marker; they are
found at boot from the __kmark_sites section and at module load from the
module's, so nothing registers at the site.

The recorder copies a site's argument block after ftrace's common header
into the kernel's ring buffer, so that a record is exactly what its
events/NAME/format file describes and trace-cmd, libtraceevent and
KernelShark read kmark's raw pages. The control files live in debugfs
and, when the kernel has tracefs, in /sys/kernel/tracing/kmark too (so
that lockdown=integrity, which refuses debugfs writes, does not lock kmark
out): available_markers, set_event (ftrace's write semantics, MODULE:NAME
and globs, all or nothing), tracing_on, buffer_size_kb, trace, trace_pipe
(batched wakeups, lost events shown), per-CPU raw pages and stats,
events/NAME/{format,id,filter} with ftrace's filter grammar,
set_event_pid, trace_marker and an ftrace-style error_log.

This is for kernels that cannot use eBPF and do not want the cost of
TRACE_EVENT() boilerplate for a driver's own events: kmark needs neither
ftrace nor BPF, and one line marks a point.
""",
    },
    {
        'subject': 'sched, fs, mm, hrtimer, entry: kmark markers beside tracepoints of the same names',
        'files': ['include/trace/kmark_sched.h'],
        'patches': ['0003-kmark-sched-markers.patch', '0004-kmark-sys-sync-marker.patch',
                    '0012-kmark-kmem-markers.patch',
                    '0013-kmark-timer-hrtimer-markers.patch',
                    '0014-kmark-raw-syscalls-markers.patch'],
        'kconfig': [], 'make': [],
        'body': """\
sched_switch, sched_wakeup, sched_process_fork, sched_process_exit,
sched_process_free and sched_process_exec markers, placed beside
ftrace's tracepoints of the same names and with their fields (comms
inline, prev_state in ftrace's encoding), so that tools that read
ftrace's sched events read kmark's.
sync(2) gets the zero-argument marker sys_sync, a point a user can fire
from a shell. The slab allocator's kmalloc entry points get kmem:kmalloc
beside each trace_kmalloc(), with its fields (call_site, ptr, bytes_req,
bytes_alloc, gfp_flags, node), and kmem_cache_free()
kmem:kmem_cache_free, for the hist triggers and function filters that
ftrace's documentation and selftests run on them; the hrtimer interrupt
gets timer:hrtimer_expire_entry and timer:hrtimer_expire_exit around
each expired timer's function. The generic syscall entry gets
raw_syscalls:sys_enter and sys_exit for every task: a patched-out jump
each while disabled, where ftrace's tracepoints are reached through a
per-task work flag.

With CONFIG_KMARK=n the markers compile to nothing.
""",
    },
    {
        'subject': 'kmark: kprobe events with ftrace\'s kprobe_events grammar',
        'files': ['kernel/trace/kmark_kprobe.c', 'kernel/trace/kmark_kprobe.h'],
        'patches': [],
        'kconfig': ['KMARK_KPROBES'], 'make': ['KMARK_KPROBES'],
        'body': """\
kprobe_events takes ftrace's probe definitions (p/r, MOD:SYM, fetch
arguments and types); each probe becomes an event in kmark's namespace,
enabled through set_event and recorded into the same buffer as the
markers, without ftrace. A probe on a module that is not loaded is armed
when it loads and re-armed when it comes back.
""",
    },
    {
        'subject': 'kmark: hist triggers and synthetic events over tracing_map',
        'files': ['kernel/trace/kmark_hist.c', 'kernel/trace/kmark_synth.c'],
        'patches': [],
        'kconfig': ['KMARK_HIST'], 'make': ['KMARK_HIST', 'ifneq ($(CONFIG_TRACING_MAP),y)',
                                           "# tracing_map is ftrace's"],
        'body': """\
ftrace's hist triggers, with ftrace's grammar and its hist file's output,
on kmark's events: keys (fields, common_pid with .execname,
common_stacktrace, strings), values, sort, size, name, pause, continue,
clear, nohitcount, 'if FILTER', the modifiers hex, sym, sym-offset,
execname, log2, buckets=N, usecs, percent and graph, and Totals with Hits,
Entries and Dropped. The table is the kernel's tracing_map: preallocated
and lock-free, so a hit never allocates and a full table counts its drops.
tracing_map.o is built for kmark when ftrace's hist triggers do not build
it (kmark works with FTRACE=n).

Variables, $VAR across two events' hists, onmatch().trace() into
synthetic events (the synthetic_events file) and onmax().save() measure
the latency between two events, as histogram.rst's wakeup_latency does.
""",
    },
    {
        'subject': 'kmark: a flight recorder: dump on oops, traceoff on warning, a trace that survives a reboot',
        'files': ['kernel/trace/kmark_flight.c'],
        'patches': ['0011-kmark-flight-recorder.patch'],
        'kconfig': ['KMARK_FLIGHT'], 'make': ['KMARK_FLIGHT'],
        'body': """\
What happened right before the machine died, without ftrace:
kmark_dump_on_oops[=orig_cpu|=INSTANCE] (and kernel.kmark_dump_on_oops)
prints an instance's last events to the console at an oops or a panic,
merged by time, the last kmark_dump_lines of each CPU, saying how many it
left out, from a static buffer and without a lock the dying CPU may hold;
kmark_traceoff_on_warning stops recording in every instance at a WARN (a
hook in __warn() beside disable_trace_on_warning()); and
kmark_instance=NAME@LABEL makes an instance whose buffer is
ring_buffer_alloc_range() over reserve_mem=SIZE:ALIGN:LABEL, so that the
next boot reads the trace a warm reboot or a crash left, with the task
names, event formats and kprobe definitions of the boot that wrote it
(kept in a checked header in front of the range), and last_boot_info says
what that boot was and why it ended. Garbage in the region gives "no
previous trace"; a trace of another kernel build is refused.
""",
    },
    {
        'subject': 'kmark: KUnit tests',
        'files': ['kernel/trace/kmark_kunit.c'],
        'patches': [],
        'kconfig': ['KMARK_KUNIT_TEST'], 'make': ['KMARK_KUNIT_TEST'],
        'body': """\
The format parser, the site's argument table and the layout bound to it,
the record -> text round trip checked against the kernel's own snprintf,
the format file, set_event parsing and its all-or-nothing apply, a
module's sites joining and leaving, the probe API, a hit where RCU is not
watching, the filter compiler and the kprobe_events parser.
""",
    },
    {
        'subject': 'kmark: benchmark facility',
        'files': ['kernel/trace/kmark_bench.c', 'kernel/trace/kmark_bench_trace.h'],
        'patches': [],
        'kconfig': ['KMARK_BENCH'], 'make': ['kmark_bench'],
        'body': """\
debugfs kmark/bench runs N calls of a function without a marker, with a
kmark marker and (with ftrace) with a TRACE_EVENT of the same fields, so
that the cost of an enabled and a disabled marker is measured against
ftrace's on the same boot. Not for production kernels.
""",
    },
    {
        'subject': 'samples: kmark markers in a module',
        'files': ['samples/kmark/Makefile', 'samples/kmark/kmark_sample.c'],
        'patches': ['0007-kmark-sample-module.patch'],
        'kconfig': [], 'make': [],
        'body': """\
kmark_sample.ko marks a kthread on a timer and a parameter write, as a
driver would, so that users can see module markers (and
Documentation/trace/kmark.rst's "how to mark your driver" can show them)
without writing code.
""",
    },
]

COVER = """\
kmark: static markers and kprobe events for kernels without eBPF

kmark is an ftrace-style tracer for kernels that cannot or will not use
eBPF (BPF off, hardened or tiny kernels, i386 boards): named static
markers placed with one line, kmark(name, "field=%d", ...), which cost a
patched-out jump while disabled, kprobe events with ftrace's grammar, and
a control directory with ftrace's habits (echo into set_event, cat
trace_pipe, error_log). Its records use ftrace's binary format, so
trace-cmd, KernelShark and Perfetto read them.

The series applies to Linux 6.12 (tested on Debian's linux-source-6.12
@VERSION@). Each patch brings its own Kconfig options, Makefile objects
and MAINTAINERS lines; the tree builds and links (vmlinux and modules,
x86_64, every kmark option on) after each one, without a warning.

@PARTS@
checkpatch.pl --strict: what it still reports is listed here with the
reason, when anything is:
@NOTES@
"""


def run(cmd, **kw):
    return subprocess.run(cmd, check=True, **kw)


def git(repo, *args, **kw):
    env = dict(os.environ, GIT_AUTHOR_NAME='kmark developers',
               GIT_AUTHOR_EMAIL='kmark@localhost',
               GIT_COMMITTER_NAME='kmark developers',
               GIT_COMMITTER_EMAIL='kmark@localhost',
               GIT_AUTHOR_DATE=DATE, GIT_COMMITTER_DATE=DATE)
    return run(['git', '-C', repo, '-c', 'core.autocrlf=false', *args],
               env=env, **kw)


def series():
    return [l.strip() for l in open(os.path.join(PATCHES, 'series'))
            if l.strip() and not l.startswith('#')]


def touched(patch):
    out = []
    for line in open(os.path.join(PATCHES, patch)):
        m = re.match(r'\+\+\+ b/(\S+)', line)
        if m:
            out.append(m.group(1))
    return out


def tarball_id():
    st = os.stat(TARBALL)
    return f'{TARBALL} {st.st_size} {st.st_mtime_ns}'


def cache_put(path, write):
    """Make path (a file or a folder) with write(tmp), atomically: a run
    beside this one sees all of it or none."""
    os.makedirs(os.path.dirname(path), exist_ok=True)
    tmp = tempfile.mkdtemp(dir=os.path.dirname(path), prefix='.new-')
    try:
        write(os.path.join(tmp, 'x'))
        os.replace(os.path.join(tmp, 'x'), path)
    except OSError:
        if not os.path.exists(path):
            raise
        # Another run put it there first (a folder is not replaced).
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def pristine_files(paths):
    """A folder with the pristine 6.12 versions of paths, from the tarball,
    kept in CACHE under a name made of the tarball and the paths."""
    key = hashlib.sha1('\n'.join([tarball_id()] + paths).encode()).hexdigest()[:16]
    cache = os.path.join(CACHE, 'pristine-' + key)
    if os.path.isdir(cache):
        return cache
    for old in os.listdir(CACHE) if os.path.isdir(CACHE) else []:
        if old.startswith('pristine-'):     # other paths or another tarball
            shutil.rmtree(os.path.join(CACHE, old), ignore_errors=True)

    def extract(dest):
        os.makedirs(dest)
        run(['tar', '-xf', TARBALL, '-C', dest, '--strip-components=1'] +
            [f'{TARDIR}/{p}' for p in paths])
    cache_put(cache, extract)
    return cache


def pristine(dest, paths):
    """A git repository at dest with the pristine 6.12 versions of paths."""
    shutil.copytree(pristine_files(paths), dest)
    git(dest, 'init', '-q')
    git(dest, 'add', '-A')
    git(dest, 'commit', '-q', '-m', 'pristine linux-source-6.12 (the files kmark patches)')


def cut_kconfig(text, drop):
    """kernel/trace/Kconfig without the config blocks named in drop."""
    out, skip = [], False
    for line in text.splitlines(keepends=True):
        m = re.match(r'(menu)?config (\w+)', line)
        if m:
            skip = m.group(2) in drop
        if not skip:
            out.append(line)
    # The blank line before a block cut off at the end goes too.
    return ''.join(out).rstrip('\n') + '\n'


def cut_makefile(text, drop_words):
    """The Makefile without the lines naming drop_words; a conditional
    whose line goes takes its block with it, up to its endif."""
    out, depth = [], 0
    for l in text.splitlines(keepends=True):
        word = l.split()[0] if l.split() else ''
        if depth:
            if word in ('ifeq', 'ifneq', 'ifdef', 'ifndef'):
                depth += 1
            elif word == 'endif':
                depth -= 1
            continue
        if any(w in l for w in drop_words):
            if word in ('ifeq', 'ifneq', 'ifdef', 'ifndef'):
                depth = 1
            continue
        out.append(l)
    return ''.join(out)


def build(outdir, work):
    all_patches = series()
    listed = [p for part in PARTS for p in part['patches']]
    missing = sorted(set(all_patches) - set(listed))
    if missing:
        sys.exit(f'mkpatches: {", ".join(missing)} in no part of the split')
    overlay = []
    for d in ('kernel', 'include', 'samples', 'Documentation'):
        for root, _, files in os.walk(os.path.join(TOP, d)):
            overlay += [os.path.relpath(os.path.join(root, f), TOP)
                        for f in files if not f.endswith('~')]
    listed = [f for part in PARTS for f in part['files']] + NOT_IN_SERIES
    missing = sorted(set(overlay) - set(listed))
    if missing:
        sys.exit(f'mkpatches: {", ".join(missing)} in no part of the split')
    paths = sorted({p for patch in all_patches for p in touched(patch)})
    repo = os.path.join(work, 'series')
    pristine(repo, paths)
    # The whole of kernel/trace/{Kconfig,Makefile} once every part is in.
    for patch in all_patches:
        run(['patch', '-d', repo, '-p1', '-s', '-N', '--no-backup-if-mismatch',
             '-i', os.path.join(PATCHES, patch)])
    full = {f: open(os.path.join(repo, f)).read()
            for f in ('kernel/trace/Kconfig', 'kernel/trace/Makefile',
                      'MAINTAINERS')}
    git(repo, 'checkout', '-q', '--', '.')
    # A part before kmark's own (tracefs) leaves the files kmark's patches
    # touch as they are: 0001 and 0009 must still apply to them.
    applied = set()
    for n, part in enumerate(PARTS):
        for patch in part['patches']:
            applied.add(patch)
            run(['patch', '-d', repo, '-p1', '-s', '-N', '--no-backup-if-mismatch',
                 '-i', os.path.join(PATCHES, patch)])
        for f in part['files']:
            os.makedirs(os.path.dirname(os.path.join(repo, f)), exist_ok=True)
            shutil.copyfile(os.path.join(TOP, f), os.path.join(repo, f))
        later_kconfig = [o for p in PARTS[n + 1:] for o in p['kconfig']]
        later_make = [w for p in PARTS[n + 1:] for w in p['make']]
        if '0001-kmark-kconfig-and-makefile.patch' in applied:
            with open(os.path.join(repo, 'kernel/trace/Kconfig'), 'w') as fh:
                fh.write(cut_kconfig(full['kernel/trace/Kconfig'], later_kconfig))
            with open(os.path.join(repo, 'kernel/trace/Makefile'), 'w') as fh:
                fh.write(cut_makefile(full['kernel/trace/Makefile'], later_make))
        if '0009-kmark-maintainers.patch' in applied:
            # The entry lists the files of the parts applied so far.
            later_files = [f for p in PARTS[n + 1:] for f in p['files']]
            with open(os.path.join(repo, 'MAINTAINERS'), 'w') as fh:
                fh.write(''.join(
                    l for l in full['MAINTAINERS'].splitlines(keepends=True)
                    if not (l.startswith('F:\t') and 'kmark' in l and
                            any(f.startswith(l[3:].strip()) for f in later_files))))
        git(repo, 'add', '-A')
        msg = part['subject'] + '\n\n' + part['body']
        git(repo, 'commit', '-q', '-s', '-m', msg)
    # A series written there before goes, nothing else: OUTDIR may be any
    # folder a user names.
    os.makedirs(outdir, exist_ok=True)
    for f in os.listdir(outdir):
        if re.fullmatch(r'\d{4}-.*\.patch', f):
            os.unlink(os.path.join(outdir, f))
    git(repo, 'format-patch', '-q', '--zero-commit', '--cover-letter',
        '--no-signature', '-o', outdir, 'HEAD~%d' % len(PARTS))
    return repo


def fill_cover(outdir, notes):
    cover = os.path.join(outdir, '0000-cover-letter.patch')
    text = open(cover).read()
    version = subprocess.run(['dpkg-query', '-W', '-f=${Version}', 'linux-source-6.12'],
                             capture_output=True, text=True).stdout or 'unknown'
    parts = ''.join(f'  {n}. {p["subject"]}\n' for n, p in enumerate(PARTS, 1))
    cover_text = COVER.replace('@VERSION@', version).replace('@PARTS@', parts)
    cover_text = cover_text.replace('@NOTES@', notes or '  (nothing)\n')
    subject, _, blurb = cover_text.partition('\n\n')
    text = text.replace('*** SUBJECT HERE ***', subject)
    text = text.replace('*** BLURB HERE ***', blurb.rstrip('\n'))
    with open(cover, 'w') as fh:
        fh.write(text)


# checkpatch findings kept on purpose: (type regex, most per patch, why),
# listed in the cover letter; --check fails on one more than that.
ACCEPTED = [
    (r'WARNING:PREFER_PR_LEVEL', 1,
     "the dump on oops prints trace lines with printk(KERN_EMERG) as "
     "ftrace_dump() does: pr_emerg() would put pr_fmt's prefix in front "
     "of each"),
]


# Why the CHECKs that remain are kept, by type (the cover letter says).
CHECK_WHY = {
    'MACRO_ARG_REUSE': "kmark.h's type helpers use x only in _Generic, "
                       "__typeof__ and __builtin_classify_type, which do not "
                       "evaluate it; fmt must be a string literal",
    'LINE_SPACING': 'NOKPROBE_SYMBOL() and kunit_test_suite() right after '
                    'their function, as the kernel writes them',
    'CAMELCASE': '_Generic is a C11 keyword',
    'BIT_MACRO': 'KMARK_BUFFER_KB_MAX is a size in KiB, not a bit',
    'UNDOCUMENTED_SETUP': 'kmark_kprobe= is documented in '
                          'kernel-parameters.txt by the first patch',
    'PARENTHESIS_ALIGNMENT': "TRACE_EVENT()'s own layout",
    'OPEN_ENDED_LINE': "TRACE_EVENT()'s own layout",
}


def accepted(line):
    return any(re.search(rx, line) for rx, _, _ in ACCEPTED)


def checkpatch(src, patch):
    """ERROR/WARNING/CHECK lines of checkpatch.pl --strict for one patch
    (from CACHE when checkpatch.pl and the tarball have seen this text)."""
    script = os.path.join(src, 'scripts', 'checkpatch.pl')
    h = hashlib.sha1(tarball_id().encode())
    for f in (script, patch):
        h.update(b'\0' + open(f, 'rb').read())
    cache = os.path.join(CACHE, 'checkpatch', h.hexdigest())
    if not os.path.exists(cache):
        res = subprocess.run([script, '--strict', '--terse', '--no-summary',
                              '--show-types', patch],
                             cwd=src, capture_output=True, text=True)
        if res.returncode not in (0, 1) or (res.returncode and not res.stdout):
            sys.exit(f'mkpatches: checkpatch.pl failed on {patch}: {res.stderr}')
        # The patch's name is in every line: kept as @PATCH@.
        lines = [l.replace(patch, '@PATCH@') for l in res.stdout.splitlines()
                 if re.search(r': (ERROR|WARNING|CHECK):', l)]

        def write(tmp):
            with open(tmp, 'w') as fh:
                fh.write(''.join(l + '\n' for l in lines))
        cache_put(cache, write)
    return [l.replace('@PATCH@', patch) for l in open(cache).read().splitlines()]


def main():
    global DATE
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('outdir', nargs='?')
    ap.add_argument('--check', action='store_true',
                    help='git am the series onto a pristine copy, compare with build/linux, run checkpatch')
    ap.add_argument('--no-write', action='store_true',
                    help='with --check: check the series already in OUTDIR '
                         '(make patches wrote it), do not write it')
    ap.add_argument('--build-each', metavar='CONFIG',
                    help='with --check: after each patch, build the objects the '
                         'series adds or patches, with this .config (a bisect test)')
    ap.add_argument('--link', action='store_true',
                    help='with --build-each: build and link the whole kernel '
                         '(vmlinux, modules) after each patch, not only the objects')
    ap.add_argument('--objects', nargs=2, metavar=('TREE', 'CONFIG'),
                    help="print the objects kmark adds or patches that TREE builds "
                         "with CONFIG, one per line (scripts/configs.sh), and exit")
    ap.add_argument('--pristine', metavar='DEST',
                    help='make DEST a git repository of the pristine 6.12 files '
                         'the series touches, and exit')
    ap.add_argument('--src', default=os.path.join(TOP, 'build', 'linux'),
                    help='the tree prepare-tree.sh made (for --check and checkpatch)')
    args = ap.parse_args()
    if args.objects:
        print('\n'.join(step_objects(*args.objects)))
        return 0
    global CACHE
    CACHE = os.path.join(os.path.dirname(os.path.abspath(args.src)), 'mkpatches-cache')
    DATE = subprocess.run(['git', '-C', TOP, 'log', '-1', '--format=%cI'],
                          capture_output=True, text=True).stdout.strip() or \
        '2026-01-01T00:00:00+00:00'
    if args.pristine:
        pristine(args.pristine, sorted({p for patch in series() for p in touched(patch)}))
        return 0
    if not args.outdir:
        ap.error('OUTDIR is needed')
    if args.no_write and not args.check:
        ap.error('--no-write is for --check')
    # git format-patch runs in the temporary repository: a relative OUTDIR
    # is the caller's, so it is made absolute first (issue 31).
    args.outdir = os.path.abspath(args.outdir)
    with tempfile.TemporaryDirectory() as work:
        if not args.no_write:
            build(args.outdir, work)
        found, notes = {}, []
        patches = sorted(f for f in os.listdir(args.outdir)
                         if f.endswith('.patch') and not f.startswith('0000'))
        if not patches:
            sys.exit(f'mkpatches: no patch in {args.outdir}')
        for p in patches:
            found[p] = checkpatch(args.src, os.path.join(args.outdir, p))
        if args.no_write:
            return check(args, work, patches, found)
        for rx, _, why in ACCEPTED:
            n = sum(1 for p in patches for l in found[p] if re.search(rx, l))
            if n:
                shown = rx.replace('\\', '')
                notes.append(f'  - {n} x "{shown}": {why}\n')
        counts = {}
        for p in patches:
            for l in found[p]:
                m = re.search(r': CHECK:(\w+):', l)
                if m and not accepted(l):
                    counts[m.group(1)] = counts.get(m.group(1), 0) + 1
        for t, n in sorted(counts.items()):
            notes.append(f'  - {n} x CHECK {t}: '
                         f'{CHECK_WHY.get(t, "not looked at yet")}\n')
        fill_cover(args.outdir, ''.join(notes))
        print(f'mkpatches: {len(patches)} patches and a cover letter in {args.outdir}',
              file=sys.stderr)
        if not args.check:
            return 0
        return check(args, work, patches, found)


# The files with markers that the series patches (built at every step).
SITE_OBJECTS = ['kernel/sched/core.o', 'fs/sync.o', 'kernel/fork.o',
                'kernel/exit.o', 'kernel/module/main.o', 'mm/slub.o',
                'kernel/time/hrtimer.o', 'kernel/entry/common.o',
                'arch/x86/entry/common.o', 'fs/exec.o']


# A patched header whose inline functions hold markers: the objects that
# expand them (raw_syscalls:sys_enter is in syscall_enter_from_user_mode_work()).
HEADER_SITES = {'include/linux/entry-common.h': ['arch/x86/entry/common.o']}


def step_objects(tree, config, sites=None):
    """The objects to build in tree with config: the site files (sites, or
    SITE_OBJECTS), each kmark object of kernel/trace/Makefile whose option
    is on, the sample. (The configuration matrix and the per-patch builds
    both use it.)"""
    on = set(re.findall(r'^CONFIG_(\w+)=[ym]$', open(config).read(), re.M))
    objs = [o for o in (SITE_OBJECTS if sites is None else sites)
            if o != 'kernel/module/main.o' or 'MODULES' in on]
    if 'KMARK' not in on:    # the rest is inside ifeq ($(CONFIG_KMARK),y) too
        return objs
    opt = None
    for line in open(os.path.join(tree, 'kernel/trace/Makefile')):
        m = re.match(r'obj-\$\(CONFIG_(\w+)\)\s*\+=', line)
        if m:
            opt = m.group(1)
        for o in re.findall(r'\b(kmark\w*\.o)\b', line):
            if opt in on:
                objs.append('kernel/trace/' + o)
    if 'SAMPLE_KMARK' in on and os.path.exists(os.path.join(tree, 'samples/kmark/Makefile')):
        objs.append('samples/kmark/')
    return objs


def build_each(args, repo, patches, tap):
    """After each patch of the series (the commits of repo, git am'd onto
    the pristine files), the kernel tree is args.src with the files the
    series touches as they are at that step (a hard-linked copy: untouched
    files are shared, touched ones written anew). In one output directory
    with args.build_each as its .config (olddefconfig drops the options
    the step does not have yet), the objects the series adds or patches are
    built (with --link: the whole kernel, vmlinux and modules); a warning in
    them fails the step (-Werror is not forced: the step is built as the
    test kernels are)."""
    build = os.path.dirname(os.path.abspath(args.src))
    tree = os.path.join(build, 'series-src')
    out = os.path.join(build, 'series-obj')
    shutil.rmtree(tree, ignore_errors=True)
    run(['cp', '-al', args.src, tree])
    shutil.rmtree(os.path.join(tree, '.kmark'), ignore_errors=True)
    os.makedirs(out, exist_ok=True)
    final = set(git(repo, 'ls-files', capture_output=True, text=True).stdout.split())
    log = subprocess.run(['git', '-C', repo, 'log', '--reverse', '--format=%H %s',
                          '-%d' % len(patches)], capture_output=True, text=True).stdout
    base = None
    for i, line in enumerate(log.splitlines()):
        commit, subject = line.split(' ', 1)
        base = base or commit + '~1'
        # The kernel's own files the series has patched so far, compiled
        # (a pristine one is not: it tells nothing, and the scheduler's
        # took the first steps' time; patch 1's tracefs was never built).
        changed = subprocess.run(['git', '-C', repo, 'diff', '--name-only', base, commit],
                                 capture_output=True, text=True).stdout.split()
        sites = sorted({f[:-2] + '.o' for f in changed
                        if f.endswith('.c') and
                        not f.startswith(('kernel/trace/kmark', 'samples/'))} |
                       {o for f in changed for o in HEADER_SITES.get(f, ())})
        have = set(subprocess.run(['git', '-C', repo, 'ls-tree', '-r', '--name-only', commit],
                                  capture_output=True, text=True).stdout.split())
        # A file the step leaves as it was keeps its time: make rebuilds
        # only what the step changed (the scheduler's objects once, not
        # after every patch).
        for f in final:
            dst = os.path.join(tree, f)
            data = None
            if f in have:
                data = subprocess.run(['git', '-C', repo, 'show', f'{commit}:{f}'],
                                      capture_output=True).stdout
                if os.path.isfile(dst) and not os.path.islink(dst):
                    with open(dst, 'rb') as fh:
                        if fh.read() == data:
                            continue
            if os.path.lexists(dst):
                os.unlink(dst)
            if data is not None:
                os.makedirs(os.path.dirname(dst), exist_ok=True)
                with open(dst, 'wb') as fh:
                    fh.write(data)
        make = ['make', '-C', tree, f'O={out}', 'ARCH=x86_64',
                f'-j{os.environ.get("JOBS", "3")}']
        # The whole configuration at every step: an option whose Kconfig a
        # later patch adds would have been dropped at an earlier step.
        # kbuild's own syncconfig takes it in (as olddefconfig would: an
        # option the step has no Kconfig for is dropped); the objects are
        # the step's Makefile's for the options of the whole configuration.
        shutil.copyfile(args.build_each, os.path.join(out, '.config'))
        objs = last = step_objects(tree, args.build_each, sites)
        what = f'{len(objs)} kmark targets'
        if args.link:
            what = f'vmlinux and modules ({len(objs)} kmark targets in them)'
            objs = ['vmlinux', 'modules']
        res = subprocess.run(make + objs, capture_output=True, text=True,
                             stdin=subprocess.DEVNULL)
        text = res.stdout + res.stderr
        warn = [l for l in text.splitlines() if ': warning:' in l or ': error:' in l]
        tap(res.returncode == 0 and not warn,
            f'builds after patch {i + 1} ({subject}): {what}',
            (warn or text.splitlines())[-8:] if res.returncode or warn else ())
    # The last step is the whole series: it builds all that the test
    # kernel has (an option dropped along the way would show here).
    want = step_objects(args.src, args.build_each,
                        sorted(set(SITE_OBJECTS) | {o for o in last if '/kmark' not in o}))
    tap(sorted(last) == sorted(want),
        f'the last step built all {len(want)} kmark targets of the kernel',
        [f'missing: {sorted(set(want) - set(last))}'] if sorted(last) != sorted(want) else ())
    shutil.rmtree(tree, ignore_errors=True)


def check(args, work, patches, found):
    ok = bad = 0
    n = 0

    def tap(good, what, diag=()):
        nonlocal ok, bad, n
        n += 1
        print(f'{"ok" if good else "not ok"} {n} - {what}')
        for d in diag:
            print(f'# {d}')
        if good:
            ok += 1
        else:
            bad += 1

    paths = sorted({p for patch in series() for p in touched(patch)})
    repo = os.path.join(work, 'am')
    pristine(repo, paths)
    res = subprocess.run(['git', '-C', repo, 'am', '-q'] +
                         [os.path.join(args.outdir, p) for p in patches],
                         capture_output=True, text=True)
    tap(res.returncode == 0, f'git am applies all {len(patches)} patches to pristine 6.12',
        (res.stdout + res.stderr).splitlines()[-5:])
    diff = []
    out = subprocess.run(['git', '-C', repo, 'ls-files'], capture_output=True,
                         text=True).stdout.split()
    for f in out:
        built = os.path.join(args.src, f)
        if not os.path.exists(built) or \
           open(built, 'rb').read() != open(os.path.join(repo, f), 'rb').read():
            diff.append(f)
    tap(res.returncode == 0 and not diff,
        f'the series\' {len(out)} files are byte for byte the tree the test kernels are built from',
        diff[:10])
    for p in patches:
        left = [l for l in found[p]
                if (': ERROR:' in l or ': WARNING:' in l) and not accepted(l)]
        for rx, most, _ in ACCEPTED:
            hits = sum(1 for l in found[p] if re.search(rx, l))
            if hits > most:
                left.append(f'{hits} x {rx}: more than the {most} accepted')
        kept = [f'accepted: {l} ({why})' for l in found[p]
                for rx, _, why in ACCEPTED if re.search(rx, l)]
        tap(not left, f'checkpatch --strict: no ERROR or WARNING in {p}' +
            (' (but the accepted ones the cover letter lists)' if ACCEPTED else ''),
            left[:15] + kept)
    if args.build_each and res.returncode == 0:
        build_each(args, repo, patches, tap)
    print(f'{ok} passed, {bad} failed')
    return 0 if not bad else 1


if __name__ == '__main__':
    sys.exit(main())

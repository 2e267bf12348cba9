#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Turn the bench guests' "BENCH name value" lines into BENCHMARKS.md.

Usage: bench_report.py OUTDIR DEST QUICK ENV QEMU_VERSION KERNEL_VERSION

Every figure is a ratio or difference of runs from the same boot. Prints the
table and "N passed, N failed", where each expected figure that was produced
is a pass (the bench asserts that it measured, never what it measured).
"""
import os
import platform
import re
import statistics
import sys


# make size's section of BENCHMARKS.md (scripts/size.sh), kept by make bench.
SIZE_BEGIN = '<!-- make size: begin -->'
SIZE_END = '<!-- make size: end -->'

def load(path):
    vals = {}
    if not os.path.exists(path):
        return vals
    with open(path, errors='replace') as f:
        for line in f:
            m = re.match(r'^BENCH (\S+) (-?\d+)\s*$', line.strip('\r\n'))
            if m:
                vals.setdefault(m.group(1), []).append(int(m.group(2)))
    return vals


def med(vals, key):
    v = vals.get(key)
    return statistics.median(v) if v else None


def env_int(env, name):
    m = re.search(name + r'=(\d+)', env)
    return int(m.group(1))


# the readers of the reader figures (qemu-tests/bench.sh), and what they are
READERS = ('kmark_cat', 'ftrace_cat', 'kmark_raw', 'kmark_dat', 'ftrace_raw')
# readers measured in the drain only (the flood: READERS and FLOOD_ONLY)
DRAIN_ONLY = ('kmark_dat_splice', 'kmark_raw_file', 'ftrace_raw_file')
FLOOD_ONLY = ('kmark_dat_splice',)


def figures(vals, env):
    n, pp = env_int(env, 'N'), env_int(env, 'PP')
    f = {}

    def per_hit(key):
        v = med(vals, key)
        return None if v is None else v / n

    plain = per_hit('hit.plain')
    if plain is not None:
        f['hit.plain'] = plain
        for k in ('marker_off', 'marker_on', 'marker_paused', 'marker_filtered',
                  'marker_hist', 'kmark_kprobe', 'ftrace_kprobe', 'ringbuf',
                  'marker_stack'):
            v = per_hit('hit.' + k)
            if v is not None:
                f['hit.' + k] = v - plain
    tp_off, tp_on = per_hit('hit.tracepoint_off'), per_hit('hit.tracepoint_on')
    if tp_off is not None and tp_on is not None:
        f['hit.tracepoint_on'] = tp_on - tp_off
    tp_flt = per_hit('hit.tracepoint_filtered')
    if tp_off is not None and tp_flt is not None:
        f['hit.tracepoint_filtered'] = tp_flt - tp_off
    tp_stack = per_hit('hit.tracepoint_stack')
    if tp_off is not None and tp_stack is not None:
        f['hit.tracepoint_stack'] = tp_stack - tp_off
    tp_hist = per_hit('hit.tracepoint_hist')
    if tp_off is not None and tp_hist is not None:
        f['hit.tracepoint_hist'] = tp_hist - tp_off
    for r in ('kmark', 'ftrace'):
        for k in ('hist_entry', 'instance_kb', 'instance_buffers_kb',
                  'instance_freed_kb'):
            v = med(vals, f'mem.{r}.{k}')
            if v is not None:
                f[f'mem.{r}.{k}'] = v
        # what an instance takes besides its buffers
        if (f.get(f'mem.{r}.instance_kb') is not None and
                f.get(f'mem.{r}.instance_buffers_kb') is not None):
            f[f'mem.{r}.instance_other_kb'] = (f[f'mem.{r}.instance_kb'] -
                                               f[f'mem.{r}.instance_buffers_kb'])
    if f.get('hit.marker_on') is not None and f.get('hit.ringbuf') is not None:
        f['hit.marker_own'] = f['hit.marker_on'] - f['hit.ringbuf']
    if plain and per_hit('hit.marker_off') is not None:
        f['hit.marker_off_ratio'] = per_hit('hit.marker_off') / plain
    none = med(vals, 'switch.none')
    for k in ('kmark', 'ftrace', 'ftrace_nocmd'):
        v = med(vals, 'switch.' + k)
        if none is not None and v is not None:
            f['switch.' + k] = (v - none) / (2 * pp)
    for r in READERS + DRAIN_ONLY:
        ev, ns = med(vals, f'drain.{r}.events'), med(vals, f'drain.{r}.ns')
        fill_lost = med(vals, f'drain.{r}.fill_lost')
        f[f'drain.{r}.fill_lost'] = fill_lost
        # Events lost before the reader started: not a drain (no figure).
        # (and a difference of two wall-clock times can be noise, < 0)
        if ev is not None and ns and ns > 0 and fill_lost == 0:
            f[f'drain.{r}.eps'] = ev / (ns / 1e9)
        lost = med(vals, f'flood.{r}.lost')
        if lost is not None:
            f[f'flood.{r}.lost'] = lost
            f[f'flood.{r}.events'] = med(vals, f'flood.{r}.events')
    for r in ('kmark', 'kmark_per_event', 'ftrace'):
        own, every = med(vals, f'idle.{r}.own'), med(vals, f'idle.{r}.all')
        ms = med(vals, f'idle.{r}.ms')
        if own is not None and every is not None and ms:
            f[f'idle.{r}.own_ps'] = own / (ms / 1000)
            f[f'idle.{r}.all_ps'] = every / (ms / 1000)
    for r in ('kmark', 'ftrace'):
        b, e = med(vals, f'size.{r}.bytes'), med(vals, f'size.{r}.entries')
        if b is not None and e:
            f[f'size.{r}'] = b / e
    # The long recording: the recorder's CPU time per MB it wrote.
    by, cpu = med(vals, 'long.kmark.bytes'), med(vals, 'long.kmark.cpu_us')
    if by and cpu is not None:
        f['long.mb'] = by / 1e6
        f['long.cpu_ms_per_mb'] = cpu / 1000 / (by / 1e6)
        for k in ('s', 'events', 'lost', 'report_events'):
            f['long.' + k] = med(vals, 'long.kmark.' + k)
    for r in ('kmark', 'ftrace'):
        for q in ('p50', 'p90', 'p99', 'max'):
            v = med(vals, f'lat.{r}.{q}_us')
            if v is not None:
                f[f'lat.{r}.{q}'] = v / 1000
    return f


def dump_figures(path):
    """The panic's two dumps in the console log of bench-dump.sh's boot:
    {dump.TRACER.ns|lines|bytes|entries}, ns from the printk times of each
    dump's first and last line (under -icount: instructions)."""
    f = {}
    vals = load(path)
    for k, v in vals.items():
        if k.startswith('dump.'):
            f[k] = v[-1]
    if not os.path.exists(path):
        return f
    ts = re.compile(r'^\[\s*(\d+)\.(\d+)\] (.*)$')
    lines = []
    with open(path, errors='replace') as fh:
        for line in fh:
            m = ts.match(line.strip('\r\n'))
            if m:
                lines.append((int(m.group(1)) * 10**9 + int(m.group(2).ljust(9, '0')),
                              m.group(3)))

    def find(start, pred):
        for i in range(start, len(lines)):
            if pred(lines[i][1]):
                return i
        return None
    # kmark: "kmark: dump of instance ..." to "kmark: end of dump: N events"
    a = find(0, lambda t: t.startswith('kmark: dump of instance'))
    b = a is not None and find(a, lambda t: t.startswith('kmark: end of dump:'))
    lost = re.compile(r'^CPU:\d+ \[LOST \d+ EVENTS\]$')

    def events(i, j):
        return sum(1 for _, t in lines[i + 1:j] if not lost.match(t.strip()))
    if a is not None and b:
        f['dump.kmark.ns'] = lines[b][0] - lines[a][0]
        f['dump.kmark.lines'] = events(a, b)
        m = re.match(r'kmark: end of dump: (\d+) events', lines[b][1])
        f['dump.kmark.said'] = int(m.group(1)) if m else None
    # ftrace: "Dumping ftrace buffer:", its lines between two dashed lines
    a = find(0, lambda t: t.startswith('Dumping ftrace buffer:'))
    dash = '---------------------------------'
    s1 = a is not None and find(a, lambda t: t.strip() == dash)
    s2 = s1 and find(s1 + 1, lambda t: t.strip() == dash)
    if a is not None and s2:
        f['dump.ftrace.ns'] = lines[s2][0] - lines[a][0]
        f['dump.ftrace.lines'] = events(s1, s2)
    return f


def dump_checks(ic):
    """The dump boot's three checks: both dumps timed, and kmark's printed
    every event of its buffer (kernel.kmark_dump_lines=0), one line each,
    as many as its end line says, at least as many as the buffer held
    before the panic (which adds a note). Their failures' lines."""
    bad = []
    for k in ('dump.kmark.ms_per_mib', 'dump.ftrace.ms_per_mib'):
        if ic.get(k) is None:
            bad.append(f'icount.{k}  # figure missing (build/bench/icount-dump.log)')
    n, said, held = (ic.get(f'dump.kmark.{k}') for k in ('lines', 'said', 'entries'))
    if n is None or n != said or not held or said < held:
        bad.append(f'dump.kmark.lines  # {n} event lines dumped, its end line '
                   f'says {said}, the buffer held {held} before the panic')
    return bad


def dump_ms_per_mib(ic):
    for r in ('kmark', 'ftrace'):
        ns, b = ic.get(f'dump.{r}.ns'), ic.get(f'dump.{r}.bytes')
        if ns is not None and b:
            ic[f'dump.{r}.ms_per_mib'] = ns / 1e6 * (1 << 20) / b


def per_run(vals, env):
    """The figures of each run alone (a run's events against the same run's
    baseline); measurements taken once (the idle reader, the latency) are
    in every run's."""
    runs = max((len(v) for k, v in vals.items() if k.startswith('hit.')),
               default=0)
    out = []
    for r in range(runs):
        vr = {k: ([v[r]] if len(v) == runs else v) for k, v in vals.items()}
        out.append(figures(vr, env))
    return out


def spread(runs, key, key2=None):
    """'min - max' of a figure (or of the ratio key/key2) over the runs."""
    v = []
    for f in runs:
        a = f.get(key)
        if key2 is not None:
            b = f.get(key2)
            a = None if a is None or not b else a / b
        if a is not None:
            v.append(a)
    if len(v) < 2:
        return ''
    if key2 is not None:
        return f'{min(v):.2f}x - {max(v):.2f}x'
    if key.endswith('_ratio'):
        return f'{rfmt(min(v))} - {rfmt(max(v))}'
    return f'{fmt(min(v))} - {fmt(max(v))}'


def ratio(a, b):
    if a is None or b is None or b == 0:
        return 'n/a'
    return f'{a / b:.2f}x'


def fmt(v, unit=''):
    if v is None:
        return 'missing'
    if isinstance(v, float) and abs(v) < 100:
        return f'{v:.1f}{unit}'
    return f'{v:,.0f}{unit}'


def rfmt(v):
    return 'missing' if v is None else f'{v:.3f}x'


# The profile's columns (scripts/profile.sh's labels) and their headings.
PROFILE_COLS = [('kmark', 'kmark marker'), ('ftrace', 'ftrace TRACE_EVENT'),
                ('ringbuf', 'ring buffer alone'),
                ('kmark_switch', 'kmark sched_switch'),
                ('ftrace_switch', 'ftrace sched_switch (record-cmd 1)')]


def load_profile(path):
    """{label: (total, {fn: count})}, the call whose total is the median."""
    reps = {}
    if not os.path.exists(path):
        return {}
    with open(path) as f:
        for line in f:
            a = line.split()
            # PROFILE label rep N total T / PROFILE label rep N fn F C
            if len(a) == 6 and a[0] == 'PROFILE' and a[4] == 'total':
                reps.setdefault(a[1], {})[int(a[3])] = [int(a[5]), {}]
            elif len(a) == 7 and a[0] == 'PROFILE' and a[4] == 'fn':
                reps[a[1]][int(a[3])][1][a[5]] = int(a[6])
    prof = {}
    for label, r in reps.items():
        calls = sorted(r.values(), key=lambda x: x[0])
        t, fns = calls[(len(calls) - 1) // 2]
        prof[label] = (t, fns, [c[0] for c in calls])
    return prof


def profile_group(fn):
    """Which part of the path a function is."""
    if fn.startswith(('trace_clock', 'sched_clock', 'native_sched_clock')):
        return 'clock'
    if fn.startswith(('ring_buffer_', 'rb_', '__rb_')):
        return 'ring buffer'
    return 'own'


def profile_part(prof, label, group):
    """Instructions of one profiled call in one part (profile_group)."""
    return sum(c for fn, c in prof[label][1].items()
               if profile_group(fn) == group)


def profile_section(prof):
    L = ['## Where the instructions go', '',
         'One call of each path, single-stepped instruction by instruction '
         'through QEMU\'s gdbstub (`scripts/profile.sh`, '
         '`scripts/insn_profile.py`; -icount, so that the stopped guest\'s '
         'clock stands still and the ring buffer sees the same time between '
         'events as without gdb), counted by the function the instruction is '
         'in (inlined code counts for its caller). The call of median length; '
         'the totals of all the calls stepped under the table. "ring buffer" '
         'and "clock" are the kernel\'s (shared by both tracers), "own" is '
         'the tracer\'s.', '']
    cols = [(k, h) for k, h in PROFILE_COLS if k in prof]
    L.append('| function | part | ' + ' | '.join(h for _, h in cols) + ' |')
    L.append('|---|---|' + '---:|' * len(cols))
    fns = {}
    for k, _ in cols:
        for fn, c in prof[k][1].items():
            fns[fn] = max(fns.get(fn, 0), c)
    order = sorted(fns, key=lambda fn: (['ring buffer', 'clock', 'own'].index(
        profile_group(fn)), -fns[fn], fn))
    for fn in order:
        L.append(f'| {fn} | {profile_group(fn)} | ' + ' | '.join(
            str(prof[k][1].get(fn, '')) for k, _ in cols) + ' |')
    for g in ('ring buffer', 'clock', 'own'):
        L.append(f'| **{g}, total** | | ' + ' | '.join(
            str(profile_part(prof, k, g)) for k, _ in cols) + ' |')
    L.append('| **the call** | | ' + ' | '.join(
        f'**{prof[k][0]}**' for k, _ in cols) + ' |')
    L.append('')
    L.append('All the calls: ' + '; '.join(
        f'{h}: {", ".join(str(t) for t in prof[k][2])}' for k, h in cols) + '.')
    L.append('')
    return L


def main():
    outdir, dest, quick, env, qemu, kver = sys.argv[1:7]
    quick = quick == '1'
    # BENCH_MODES=icount (make check's QUICK run): no plain-TCG boot, its
    # column says so and none of its figures is asked for.
    ran = os.environ.get('BENCH_MODES', 'icount tcg').split()
    modes = {m: figures(load(os.path.join(outdir, m + '.log')), env)
             for m in ('icount', 'tcg') if m in ran}
    modes.setdefault('icount', {})
    nok = med(load(os.path.join(outdir, 'icount-nokmark.log')), 'switch.nokmark')
    ic_none = med(load(os.path.join(outdir, 'icount.log')), 'switch.none')
    if nok and ic_none:
        modes['icount']['switch.disabled_vs_nokmark'] = ic_none / nok
    ic, tc = modes['icount'], modes.get('tcg', {})
    ic.update(dump_figures(os.path.join(outdir, 'icount-dump.log')))
    dump_ms_per_mib(ic)
    ic_runs = per_run(load(os.path.join(outdir, 'icount.log')), env)
    nruns = len(ic_runs)
    probe = os.path.join(os.path.dirname(outdir), '.kvm-probe')
    accel_note = ('the KVM probe boot failed on this machine' if os.path.exists(probe)
                  else 'no usable /dev/kvm') + '; -icount needs TCG anyway'
    L = []
    L.append('# kmark benchmarks' + (' (QUICK: one short round)' if quick else ''))
    L.append('')
    L.append('Produced by `make bench`' + (' QUICK=1' if quick else '') +
             f' ({env}). All figures of a column come from one boot of the '
             'x86_64 bench kernel (kmark and ftrace both built in, no lockdep), '
             'configurations interleaved, medians of the runs.')
    L.append('')
    L.append(f'- Machine: {platform.machine()}, {os.cpu_count()} cores; '
             f'{qemu}; TCG ({accel_note}).')
    L.append(f'- Kernel: Debian linux-source-6.12 {kver}, tinyconfig + '
             'scripts/config/{common,x86_64,bench}.config.')
    L.append('- **icount**: `-icount shift=0,sleep=off` with `tsc_early_khz=1000000`: '
             'one guest ns is one guest instruction, so these are instruction '
             'counts and repeatable. **tcg**: plain TCG wall clock, noisy.')
    L.append('- Command: `make bench`' + (' QUICK=1' if quick else '') + '.')
    L.append('')
    L.append(f'| figure | icount (median) | icount spread, min - max of {nruns} runs | tcg | goal |')
    L.append('|---|---:|---:|---:|---|')

    def tcg(v, key, text):
        if 'tcg' not in ran:
            return 'not run'
        # A drain's wall-clock difference can be lost in TCG's noise.
        return 'noise' if v is None and key.startswith('drain.') else text

    def row(name, key, unit, goal=''):
        L.append(f'| {name} | {fmt(ic.get(key), unit)} | {spread(ic_runs, key)} | '
                 f'{tcg(tc.get(key), key, fmt(tc.get(key), unit))} | {goal} |')

    def rrow(name, a, b, goal=''):
        t = ratio(tc.get(a), tc.get(b))
        if tc.get(a) is None or tc.get(b) is None:
            t = tcg(None, a, t)
        L.append(f'| {name} | {ratio(ic.get(a), ic.get(b))} | {spread(ic_runs, a, b)} | '
                 f'{t} | {goal} |')

    row('call of a function with no marker (ns/insns per call)', 'hit.plain', '')
    row('+ disabled kmark marker, per call', 'hit.marker_off', '')
    L.append(f"| disabled marker / no marker (whole call) | "
             f"{rfmt(ic.get('hit.marker_off_ratio'))} | {spread(ic_runs, 'hit.marker_off_ratio')} | "
             f"{tcg(0, '', rfmt(tc.get('hit.marker_off_ratio')))} | the NOP alone: +1 instruction per call |")
    L.append(f"| ping-pong, sched_switch marker compiled in but disabled / kernel without kmark | "
             f"{rfmt(ic.get('switch.disabled_vs_nokmark'))} |  | not measured | within 1.01x |")
    row('+ kmark marker enabled, per event', 'hit.marker_on', '')
    row('of which the ring buffer: reserve and commit alone, same record size',
        'hit.ringbuf', '')
    row("of which kmark's own part (enabled event less the ring buffer)",
        'hit.marker_own', '')
    row('+ kmark marker enabled, tracing_on 0', 'hit.marker_paused', '')
    row('+ ftrace TRACE_EVENT (same fields) enabled, per event', 'hit.tracepoint_on', '')
    rrow('**kmark / ftrace, enabled event**', 'hit.marker_on', 'hit.tracepoint_on', '<= 0.75x')
    row('+ kmark marker enabled, filtered out (a == -1), per event',
        'hit.marker_filtered', '')
    row('+ ftrace TRACE_EVENT enabled, filtered out (a == -1), per event',
        'hit.tracepoint_filtered', '')
    rrow('kmark / ftrace, filtered-out event', 'hit.marker_filtered',
         'hit.tracepoint_filtered', '')
    row('+ kmark marker enabled with options/stacktrace, per event (event and stack)',
        'hit.marker_stack', '')
    row('+ ftrace TRACE_EVENT enabled with options/stacktrace, per event',
        'hit.tracepoint_stack', '')
    rrow('**kmark / ftrace, event with its stack**', 'hit.marker_stack',
         'hit.tracepoint_stack', '<= 1x')
    row('bytes per recorded event, kmark (buffer counters)', 'size.kmark', '')
    row('bytes per recorded event, ftrace (same fields)', 'size.ftrace', '')
    rrow('**kmark / ftrace, bytes per event**', 'size.kmark', 'size.ftrace', '<= 1x')
    row('+ kmark hist trigger (keys=common_pid:vals=a, event not recorded), per hit',
        'hit.marker_hist', '')
    row('+ ftrace hist trigger (the same text), per hit', 'hit.tracepoint_hist', '')
    rrow('**kmark / ftrace, hist trigger**', 'hit.marker_hist', 'hit.tracepoint_hist',
         '<= 1x')
    row('hist table memory per entry, kmark (bytes; size=65536, all preallocated)',
        'mem.kmark.hist_entry', '')
    row('hist table memory per entry, ftrace (the same text)', 'mem.ftrace.hist_entry', '')
    rrow('kmark / ftrace, hist table memory', 'mem.kmark.hist_entry',
         'mem.ftrace.hist_entry', '')
    row('an instance (mkdir) with sched_switch enabled, kmark: memory taken (kB, MemFree)',
        'mem.kmark.instance_kb', '')
    row('  of which its buffers (buffer_total_size_kb, kmark\'s default size)',
        'mem.kmark.instance_buffers_kb', '')
    row('  the rest (event files, per-CPU data...)', 'mem.kmark.instance_other_kb', '')
    row('  given back by rmdir', 'mem.kmark.instance_freed_kb', '')
    row('the same instance, ftrace: memory taken (kB)', 'mem.ftrace.instance_kb', '')
    row('  of which its buffers (buffer_total_size_kb, ftrace\'s default size)',
        'mem.ftrace.instance_buffers_kb', '')
    row('  the rest (event files, per-CPU data...)', 'mem.ftrace.instance_other_kb', '')
    row('  given back by rmdir', 'mem.ftrace.instance_freed_kb', '')
    rrow('kmark / ftrace, an instance\'s memory', 'mem.kmark.instance_kb',
         'mem.ftrace.instance_kb', '')
    rrow('kmark / ftrace, an instance\'s memory besides its buffers',
         'mem.kmark.instance_other_kb', 'mem.ftrace.instance_other_kb', '')
    row('+ kmark kprobe event (3 args), per hit', 'hit.kmark_kprobe', '')
    row('+ ftrace kprobe_event (same args), per hit', 'hit.ftrace_kprobe', '')
    rrow('kmark / ftrace, kprobe', 'hit.kmark_kprobe', 'hit.ftrace_kprobe', '')
    row('sched_switch: kmark, added per switch', 'switch.kmark', '')
    row('sched_switch: ftrace (its defaults: record-cmd 1), added per switch',
        'switch.ftrace', '')
    rrow('**kmark / ftrace, sched_switch**', 'switch.kmark', 'switch.ftrace', '<= 0.75x')
    row('sched_switch: ftrace with options/record-cmd 0, added per switch',
        'switch.ftrace_nocmd', '')
    rrow('**kmark / ftrace with record-cmd 0, sched_switch**', 'switch.kmark',
         'switch.ftrace_nocmd', '<= 0.75x')
    drain, flood = env_int(env, 'DRAIN'), env_int(env, 'FLOOD')
    row(f'reader alone, the last {drain - drain // 4:,} of {drain:,} events: kmark '
        'trace_pipe, 4 KiB reads, events/s', 'drain.kmark_cat.eps', '')
    row('reader alone: ftrace trace_pipe, 4 KiB reads, events/s',
        'drain.ftrace_cat.eps', '')
    rrow('**kmark / ftrace, text reader (trace_pipe)**', 'drain.kmark_cat.eps',
         'drain.ftrace_cat.eps', '>= 1x')
    row('reader alone: kmark trace_pipe_raw (pages), events/s',
        'drain.kmark_raw.eps', '')
    row('reader alone: kmark record -o x.dat (pages into a trace.dat), events/s',
        'drain.kmark_dat.eps', '')
    row('reader alone: kmark record -S -o x.dat (the pages spliced), events/s',
        'drain.kmark_dat_splice.eps', '')
    row('reader alone: ftrace trace_pipe_raw (pages), events/s',
        'drain.ftrace_raw.eps', '')
    rrow('**kmark / ftrace, raw pages**', 'drain.kmark_raw.eps',
         'drain.ftrace_raw.eps', '>= 1x')
    rrow('**kmark record -o x.dat / ftrace raw pages**', 'drain.kmark_dat.eps',
         'drain.ftrace_raw.eps', '>= 1x')
    row('reader alone: kmark trace_pipe_raw into a file (1 MiB writes), events/s',
        'drain.kmark_raw_file.eps', '')
    row('reader alone: ftrace trace_pipe_raw into a file (1 MiB writes), events/s',
        'drain.ftrace_raw_file.eps', '')
    rrow('**kmark record -o x.dat / ftrace raw pages into a file**',
         'drain.kmark_dat.eps', 'drain.ftrace_raw_file.eps', '>= 1x')

    def joined(name, keys):
        L.append(f'| {name} | ' + ' / '.join(fmt(ic.get(k)) for k in keys) +
                 ' |  | ' + ' / '.join(fmt(tc.get(k)) for k in keys) + ' |  |')
    joined('events lost while the buffers filled (the drain needs 0): kmark text / '
           'raw / record, ftrace text / raw',
           [f'drain.{r}.fill_lost' for r in ('kmark_cat', 'kmark_raw', 'kmark_dat',
                                             'ftrace_cat', 'ftrace_raw')])
    for r, what in (('kmark_cat', 'kmark trace_pipe + cat (counted, shown)'),
                    ('ftrace_cat', 'ftrace trace_pipe + cat'),
                    ('kmark_raw', 'kmark trace_pipe_raw + cat'),
                    ('kmark_dat', 'kmark record -o x.dat'),
                    ('kmark_dat_splice', 'kmark record -S -o x.dat'),
                    ('ftrace_raw', 'ftrace trace_pipe_raw + cat')):
        row(f'flood of {flood:,} events at the writer\'s full rate, lost: {what}',
            f'flood.{r}.lost', '')
    long_s = ic.get('long.s')
    L.append(f'| long recording, kmark record -o x.dat of {fmt(long_s)} s of sched_switch '
             'under ping-pong load: events / lost / MB written | '
             + ' / '.join(fmt(ic.get(k)) for k in ('long.events', 'long.lost', 'long.mb'))
             + ' |  | not run |  |')
    row('long recording: the recorder\'s CPU time (user + system) per MB written, ms',
        'long.cpu_ms_per_mb', '')
    L.append('| long recording: events kmark report reads in the trace.dat / '
             'the summary\'s count | '
             + ' / '.join(fmt(ic.get(k)) for k in ('long.report_events', 'long.events'))
             + ' |  | not run | equal |')
    for r, what in (('kmark', 'kmark (kmark_dump_on_oops, kernel.kmark_dump_lines=0)'),
                    ('ftrace', 'ftrace (ftrace_dump_on_oops)')):
        L.append(f'| dump at a panic, {what}: buffer bytes / events / console lines | '
                 + ' / '.join(fmt(ic.get(f'dump.{r}.{k}'))
                              for k in ('bytes', 'entries', 'lines')) + ' |  | not run |  |')
        row(f'dump at a panic, {what}: ms (icount: M instructions) per MiB of buffer',
            f'dump.{r}.ms_per_mib', '')
    rrow('**kmark / ftrace, dump at a panic, per MiB of buffer**', 'dump.kmark.ms_per_mib',
         'dump.ftrace.ms_per_mib', '<= 1x')
    row('idle reader: its own switches/s, kmark (read_delay_ms 50)', 'idle.kmark.own_ps', '')
    row('idle reader: its own switches/s, kmark woken per event (read_delay_ms 0)',
        'idle.kmark_per_event.own_ps', '')
    row('idle reader: its own switches/s, ftrace', 'idle.ftrace.own_ps', '')

    def fewer(f):
        k, t = f.get('idle.kmark.own_ps'), f.get('idle.ftrace.own_ps')
        if k is None or t is None:
            return 'n/a'
        if k == 0:
            return f'no own switch in kmark (ftrace: {t:.0f}/s)'
        return f'{t / k:.0f}x'
    L.append(f'| **idle reader: ftrace\'s own switches / kmark\'s** | {fewer(ic)} |  | '
             f'{fewer(tc)} | >= 50x |')
    row('idle reader: all switches/s recorded, kmark', 'idle.kmark.all_ps', '')
    row('idle reader: all switches/s recorded, ftrace', 'idle.ftrace.all_ps', '')
    for r, what, goal in (('kmark', 'kmark (read_delay_ms 50)',
                           '<= 50 ms + scheduling'),
                          ('ftrace', 'ftrace (kprobe event, wakes per event)', '')):
        lat = [' / '.join(fmt(m.get(f'lat.{r}.{q}')) for q in ('p50', 'p90', 'p99', 'max'))
               for m in (ic, tc)]
        L.append(f'| latency to a blocked reader, {what}: p50 / p90 / p99 / max ms | '
                 f'{lat[0]} |  | {lat[1]} | {goal} |')
    L.append('')
    L.append('Per-event figures are the difference to the same loop without the '
             'event (kprobes: the plain function; ftrace event: its disabled '
             'tracepoint).')
    L.append('')
    L.append('Reader figures, in every run: **reader alone**: the writer on CPU 0 '
             'records the events with no reader (the buffer holds them all: the '
             '"lost while the buffers filled" row must be 0), then the reader on '
             'CPU 1 takes them until the buffer is empty, once for a quarter of '
             'the events and once for all: the extra events per second of the '
             'extra time (the reader\'s start and end cancel out; under icount '
             'the time is its instructions, nothing else runs), the highest '
             'event rate it keeps up with at zero loss on a CPU of its own. Both '
             'tracers\' files are read by the same program (`kmark-testprog '
             'drain`: O_NONBLOCK reads of 4 KiB, as cat reads, until EAGAIN, '
             'into /dev/null); `kmark record -k -t 0.000001 -o x.dat` (stopped '
             'at once: it takes every page there is, no -t floor under a short '
             'drain) reads every CPU\'s pages (a thread per CPU, read() into '
             '1 MiB, written when full and before each sleep; `-S`: spliced into the files) and '
             'writes the trace.dat, into the guest\'s ramfs (/tmp), whose page '
             'cache it pays for; "into a file" is the raw pages read the same '
             'way into a file there (`kmark-testprog readdrain`, 1 MiB writes): '
             'what any recorder pays for the file. Each run\'s file is removed '
             'before the next is timed. '
             '**flood**: the writer at its full rate (faster than any reader) '
             'while a blocking reader (`cat`, `kmark record`) runs on CPU 1; both '
             'vCPUs share one host thread (single-threaded TCG; -icount needs '
             'it), so the loss says how much a reader keeps when it gets turns '
             'with the writer, the same for both tracers, not what it would keep '
             'on real hardware.')
    L.append('')
    L.append('What the per-event figures record: kmark, a 12-byte header (ftrace\'s '
             'type/flags/preempt_count/pid and the id of the task\'s name in '
             '`saved_comms`, which every line is named by) and the '
             'site\'s packed arguments (a=%d, b=%ld, comm=%s: 4 + 8 + an 8-byte '
             '__data_loc slot and the string); ftrace\'s TRACE_EVENT, its 8-byte '
             'header and int a, long b, char comm[16]. Both reserve and commit in '
             'the kernel ring buffer. kmark\'s marker packs its arguments at the '
             'site (no va_list, no format walk) and copies them with one memcpy; '
             'the rest is the ring buffer, the context flags and the name\'s id '
             '(the id the CPU gave last, checked against the task\'s name).')
    L.append('')
    rb, on, tp = ic.get('hit.ringbuf'), ic.get('hit.marker_on'), ic.get('hit.tracepoint_on')
    prof = load_profile(os.path.join(outdir, 'profile.txt'))
    if rb is not None and on is not None and tp is not None:
        room = 0.75 * tp - rb
        L.append(f'Where the enabled event goes (icount): the ring buffer\'s reserve and '
                 f'commit alone, for a record of the same size, take {fmt(rb)} of '
                 f'kmark\'s {fmt(on)} instructions per event; kmark\'s own part (the '
                 f'hit, the probe call, the filters\' checks, the header, the copy) is '
                 f'the other {fmt(on - rb)}. At 0.75x of ftrace\'s {fmt(tp)}, on the '
                 f'same ring buffer, kmark\'s own part would have to fit in '
                 f'{fmt(room)} instructions ({room / (on - rb):.0%} of what it takes).')
        if 'kmark' in prof and 'ftrace' in prof:
            def own(k):
                return profile_part(prof, k, 'own')
            L.append(f'The single-stepped calls (section "Where the instructions go") '
                     f'say the same: kmark\'s own part is {own("kmark")} instructions, '
                     f'ftrace\'s {own("ftrace")}; the rest of both is the kernel\'s '
                     f'ring buffer and clock. kmark\'s own part would have to be '
                     f'{room / own("ftrace"):.0%} of ftrace\'s own part: only a '
                     f'lighter buffer than the kernel ring buffer gets there, and '
                     f'every reader (trace_pipe, trace, the raw pages, per-CPU '
                     f'stats, resizing, instances) is built on that buffer: not '
                     f'attempted. Tried so far, each measured by this bench: the '
                     f'arguments packed at the site (no va_list, no format walk), '
                     f'a 4-byte id of the task\'s name instead of its 16 bytes, '
                     f'and the recorder\'s reserve, commit and record address '
                     f'inlined into one function (the profile above is the '
                     f'result).')
        L.append('')
    sk, sf = ic.get('switch.kmark'), ic.get('switch.ftrace_nocmd')
    if sk is not None and sf is not None and 'kmark_switch' in prof:
        rbk = (profile_part(prof, 'kmark_switch', 'ring buffer') +
               profile_part(prof, 'kmark_switch', 'clock'))
        L.append(f'sched_switch against ftrace with record-cmd 0 ({fmt(sk)} vs '
                 f'{fmt(sf)} added per switch): both record one event per switch '
                 f'into the same ring buffer, whose reserve, commit and clock are '
                 f'{rbk} instructions of kmark\'s stepped call; 0.75x of ftrace\'s '
                 f'would leave kmark {fmt(0.75 * sf - rbk)} for its own part and '
                 f'the rest of the switch path: the same wall as the enabled '
                 f'event.')
        L.append('')
    L.append('Idle reader: sched_switch alone enabled on an otherwise idle guest, '
             '`cat trace_pipe` into a file for a fixed time; "own" are the switches '
             'whose prev_comm is the reader. Latency: sys_sync fired 20-80 ms apart '
             'while the reader blocks, measured from before sync() to the line '
             'reaching the reader (`kmark-testprog latency`); ftrace reads the same '
             'from a kprobe event named sys_sync on ksys_sync.')
    L.append('')

    if prof:
        L += profile_section(prof)
    else:
        L.append('')
        L.append('No single-stepped profile in this run (`PROFILE=0`, or gdb did not '
                 'finish: build/bench/profile.gdb.log).')
        L.append('')

    # i386: kmark alone (no ftrace in that kernel).
    i386_log = os.path.join(outdir, 'icount-i386.log')
    i3 = figures(load(i386_log), env) if os.path.exists(i386_log) else {}
    i3_runs = per_run(load(i386_log), env) if i3 else []
    if not quick:
        L.append('## i386 (kmark only)')
        L.append('')
        L.append('The same guest loop on the i386 bench kernel (tinyconfig + '
                 'scripts/config/{common,i386,bench}.config: no ftrace, no lockdep), '
                 'one boot under icount; there is no ftrace to compare with.')
        L.append('')
        L.append(f'| figure (i386) | icount (median) | spread, min - max of {len(i3_runs)} runs |')
        L.append('|---|---:|---:|')
        for name, key in (('call of a function with no marker', 'hit.plain'),
                          ('+ disabled kmark marker, per call', 'hit.marker_off'),
                          ('+ kmark marker enabled, per event', 'hit.marker_on'),
                          ('+ kmark marker enabled, tracing_on 0', 'hit.marker_paused'),
                          ('+ kmark marker enabled, filtered out', 'hit.marker_filtered'),
                          ('sched_switch: kmark, added per switch', 'switch.kmark'),
                          ('bytes per recorded event, kmark', 'size.kmark'),
                          ('long recording: events', 'long.events'),
                          ('long recording: events lost', 'long.lost'),
                          ('long recording: MB written', 'long.mb'),
                          ('long recording: CPU ms per MB written', 'long.cpu_ms_per_mb'),
                          ('long recording: events kmark report reads back',
                           'long.report_events')):
            L.append(f'| {name} | {fmt(i3.get(key))} | {spread(i3_runs, key)} |')
        L.append(f"| disabled marker / no marker (whole call) | "
                 f"{rfmt(i3.get('hit.marker_off_ratio'))} | {spread(i3_runs, 'hit.marker_off_ratio')} |")
        L.append('')

    # Size.
    L.append('## Size')
    L.append('')
    site = open(os.path.join(outdir, 'site.txt')).read().strip().splitlines()
    L.append('The disabled marker in `kmark_bench_marker()` (bench vmlinux), as '
             'disassembled from this build (the first instruction is the site\'s '
             'NOP, a `jmp` when enabled):')
    L.append('')
    L.append('```')
    L.extend(site[:24])
    L.append('```')
    L.append('')
    objs = open(os.path.join(outdir, 'objsize.txt')).read().strip().splitlines()
    text = sum(int(x.split()[0]) for x in objs[1:])
    L.append(f'kmark objects (kernel/trace/kmark*.o) text: {text:,} bytes.')
    sk = os.path.join(outdir, 'size-kmark.txt')
    sn = os.path.join(outdir, 'size-nokmark.txt')
    size_delta = None
    if os.path.exists(sn):
        def parse(path):
            return dict(kv.split('=') for kv in open(path).read().split())
        a, b = parse(sk), parse(sn)
        size_delta = int(a['code']) - int(b['code'])
        L.append('| vmlinux (x86_64 bench config) | with CONFIG_KMARK | without | added |')
        L.append('|---|---:|---:|---:|')
        for k, what in (('code', 'code (sum of function sizes)'),
                        ('rodata', 'read-only data'), ('data', 'data')):
            x, y = int(a[k]), int(b[k])
            L.append(f'| {what} | {x:,} | {y:,} | {x - y:+,} ({100.0 * (x - y) / y:+.2f} %) |')
        L.append('')
        L.append('(with CONFIG_KMARK also KMARK_KPROBES, the KUnit suite and the bench '
                 'facility, as the bench config has them)')
    else:
        L.append('vmlinux text with and without CONFIG_KMARK: full `make bench` only.')
    L.append('')

    # The checks: every figure produced, nothing about its value.
    want = ['hit.plain', 'hit.marker_off', 'hit.marker_on', 'hit.marker_paused',
            'hit.tracepoint_on', 'hit.kmark_kprobe', 'hit.ftrace_kprobe',
            'switch.kmark', 'switch.ftrace', 'switch.ftrace_nocmd'] + [
            f'drain.{r}.eps' for r in READERS + DRAIN_ONLY] + [
            f'flood.{r}.lost' for r in READERS + FLOOD_ONLY] + [
            'idle.kmark.own_ps', 'idle.kmark_per_event.own_ps',
            'idle.ftrace.own_ps', 'lat.kmark.p50', 'lat.ftrace.p50',
            'size.kmark', 'size.ftrace', 'hit.marker_filtered',
            'hit.tracepoint_filtered', 'hit.ringbuf', 'hit.marker_hist',
            'hit.tracepoint_hist', 'mem.kmark.hist_entry', 'mem.ftrace.hist_entry',
            'mem.kmark.instance_kb', 'mem.ftrace.instance_kb',
            'hit.marker_stack', 'hit.tracepoint_stack']
    passed = failed = 0
    for mode, f in modes.items():
        for k in want:
            # TCG's drains are wall clock: too short for pages (see tcg())
            if mode == 'tcg' and k.startswith('drain.'):
                continue
            if f.get(k) is None:
                failed += 1
                print(f'[bench] not ok {mode}.{k}  # figure missing')
            else:
                passed += 1
    # An event that records costs more than the call it is added to: a
    # figure of 0 or less measured the call alone (a probe that was not
    # defined, an event that did not fire). icount only: repeatable.
    for k in ('hit.marker_on', 'hit.tracepoint_on', 'hit.kmark_kprobe',
              'hit.ftrace_kprobe', 'hit.marker_hist', 'hit.tracepoint_hist',
              'hit.marker_stack', 'hit.tracepoint_stack'):
        v = ic.get(k)
        if v is None:
            continue
        if v > 0:
            passed += 1
        else:
            failed += 1
            print(f'[bench] not ok icount.{k}  # {v:.1f} per event: '
                  'no more than the call without it, so nothing was measured')
    # The long recording's file holds what its summary says it recorded.
    for lab, d in (('icount', ic),) + ((('i386', i3),) if not quick else ()):
        e, r = d.get('long.events'), d.get('long.report_events')
        if e is not None and e > 0 and e == r:
            passed += 1
        else:
            failed += 1
            print(f'[bench] not ok {lab}.long  # recorded {e}, '
                  f'kmark report reads {r} in the trace.dat')
    bad = dump_checks(ic)
    for m in bad:
        print(f'[bench] not ok {m}')
    failed += len(bad)
    passed += 3 - len(bad)
    for k, _ in PROFILE_COLS if os.environ.get('PROFILE', '1') != '0' else []:
        if k in prof:
            passed += 1
        else:
            failed += 1
            print(f'[bench] not ok profile.{k}  # no single-stepped call')
    # The two methods must agree: a stepped call against the loop's
    # instructions per call under icount (which also pays, spread over the
    # calls, what a single call does not show: page changes, interrupts).
    for k, fig in (('kmark', 'hit.marker_on'), ('ftrace', 'hit.tracepoint_on'),
                   ('ringbuf', 'hit.ringbuf')):
        if k in prof and ic.get(fig):
            r = prof[k][0] / ic[fig]
            if abs(r - 1) <= 0.1:
                passed += 1
            else:
                failed += 1
                print(f'[bench] not ok profile.{k}  # one stepped call takes '
                      f'{prof[k][0]}, icount says {ic[fig]:.0f} per call')
    if any(l.strip() for l in site):
        passed += 1
    else:
        failed += 1
        print('[bench] not ok site-disassembly  # missing')
    if not quick:
        if ic.get('switch.disabled_vs_nokmark') is None:
            failed += 1
            print('[bench] not ok icount.switch.disabled_vs_nokmark  # missing')
        else:
            passed += 1
        if size_delta is None:
            failed += 1
            print('[bench] not ok vmlinux-size  # missing')
        else:
            passed += 1
        for k in ('hit.plain', 'hit.marker_off', 'hit.marker_on', 'switch.kmark',
                  'size.kmark'):
            if i3.get(k) is None:
                failed += 1
                print(f'[bench] not ok i386.{k}  # figure missing')
            else:
                passed += 1
    # make size's section (scripts/size.sh writes it) stays as it was.
    try:
        old = open(dest).read()
        i, j = old.find(SIZE_BEGIN), old.find(SIZE_END)
        if 0 <= i < j:
            L += ['', old[i:j + len(SIZE_END)]]
    except OSError:
        pass
    with open(dest, 'w') as f:
        f.write('\n'.join(L) + '\n')
    print('\n'.join(L))
    print(f'bench: {passed} passed, {failed} failed')
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())

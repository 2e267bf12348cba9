#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The flight recorder's tests: a trace that survives a reboot or a crash.

usage: flight.py FLAVOUR [--logdir DIR]

Boots build/FLAVOUR (scripts/boot.sh, script mode) with
qemu-tests/flight-guest.sh, the same kernel command line and initramfs
every time, its RAM in a file (-object memory-backend-file, share=on) that
outlives each QEMU process, in six runs (nine boots):

  A  one QEMU process, reboots kept in it (-action reboot=reset after
     boot.sh's -no-reboot): a cold start, a warm reboot (reboot -f), an
     oops that panics (panic=-1 reboots), three boots
  B  a second QEMU process on the same RAM file: a hung task that panics
     (LKDTM's HUNG_TASK, hung_task_panic), the dump at the panic, a
     reboot kept in it, two boots
  C  after random bytes over the region (its first 8 bytes, the magic,
     kept): the header does not check
  D  after the header got another kernel's banner (checksum made right):
     refused as another build
  E  after random bytes over the ring buffer's part only
  F  after every event table entry was made to lie (its first field
     outside its record, or a record shorter than its header), each
     entry's checksum made right: every event must show as unknown

Each boot ends through isa-debug-exit (kmark-testprog outb), a reboot or a
panic. What the guest checks comes as "FLIGHT ok|not ok - PHASE: ..."; the
host checks the boots' order, the console's dumps at the two oopses (A2:
the boot-mapped instance, every CPU, the last kmark_dump_lines=20 of each;
A3: the top instance, the oopsing CPU's last 5): their head, the left-out
count (A2's against the events A3 found), one CPU's lines at most the
limit, timestamps in order, the last line the oops note; the previous
boot's trace.dat (kmark dump -o) in trace-cmd report; and no kernel
trouble outside the oopses and warnings asked for.

Prints "[FLAVOUR-flight] ok|not ok|skip NAME" lines, then
"FLAVOUR-flight: N passed, N failed, N skipped"; exits 1 if anything
failed. A skip must be one qemu-tests/skips.py expects.
"""
import argparse
import base64
import binascii
import os
import random
import re
import subprocess
import sys
import tempfile
import zlib

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.dirname(HERE)
sys.path.insert(0, HERE)
import skips  # noqa: E402

RAM = '512M'
# kmpad first: reserve_mem= allocates top-down in command line order, and
# SeaBIOS's POST writes its temporary copy of itself and its tables into
# the top of RAM below the initrd on every reset (measured: the 120 KiB
# below 0x1f000000 with -m 512M, e820 RAM for the kernel). The pad takes
# that part, so that kmflight lies below what the firmware scribbles on.
ARGS = ('reserve_mem=2M:4096:kmpad reserve_mem=2M:4096:kmflight '
        'kmark_instance=flight@kmflight,sched:sched_switch,syscalls:sys_sync,'
        'kmark_test:crash_request '
        'kmark_dump_on_oops=flight kmark_dump_lines=20 '
        'kmark_traceoff_on_warning kunit.enable=0')
TS = re.compile(r'^\[\s*\d+\.\d+\] ?')
TRACE_LINE = re.compile(r'^\s*(\S.*)-(\d+)\s+\[(\d{3})\] \S{5}\s+(\d+\.\d{6}): (\S+): (.*)$')
# Kernel trouble that no step asks for (the oopses and WARNs are asked for).
TROUBLE = re.compile(r'possible recursive locking|possible circular locking|'
                     r'suspicious RCU usage|inconsistent lock state|'
                     r'general protection fault|UBSAN:|KASAN:|'
                     r'stack-protector|kernel BUG at|INFO: task .* blocked|'
                     r'RCU detected stall|Ring buffer disabled')
CRASH = re.compile(r'Oops|BUG:|WARNING:|Call Trace|Kernel panic')


class Results:
    def __init__(self, flavour):
        self.where = f'{flavour}-flight'
        self.flavour = flavour
        self.passed = self.failed = self.skipped = 0

    def check(self, name, ok, why=''):
        if ok:
            self.passed += 1
            print(f'[{self.where}] ok     {name}')
        else:
            self.failed += 1
            print(f'[{self.where}] not ok {name}' + (f'  # {why}' if why else ''))
        return ok

    def skip(self, name, why):
        if skips.allowed(self.where, name, why):
            self.skipped += 1
            print(f'[{self.where}] skip   {name}  # SKIP {why}')
        else:
            self.check(name, False, f'skipped ({why}), not an expected skip')


def console(path):
    """The log's lines, printk's timestamps gone, CRs dropped."""
    with open(path, errors='replace') as f:
        return [TS.sub('', l.rstrip('\r\n').replace('\r', '')) for l in f]


def boot(flavour, log, extra_qemu, timeout, args=ARGS, wait=True):
    env = dict(os.environ, LOG=log, TIMEOUT=str(timeout), KERNEL_ARGS=args,
               QEMU_ARGS=extra_qemu)
    with open(log + '.boot', 'w') as err:
        p = subprocess.Popen([os.path.join(TOP, 'scripts', 'boot.sh'), flavour,
                              'script', os.path.join(HERE, 'flight-guest.sh')],
                             env=env, stdout=err, stderr=err)
    return p.wait() if wait else p


# G and H: a region of their own with no pad below it (the firmware may
# write over part of it at a reset, as it may on a board), a writer on
# each CPU, only trace_marker's lines in the instance.
def gh_args(g, size='8M'):
    # (aligned to its size: it ends where the firmware writes, below 0x1f000000)
    return (f'reserve_mem={size}:{size}:kmflight{g} kmark_instance=flight@kmflight{g} '
            'kunit.enable=0')


def wait_for(log, text, timeout):
    """Whether @text came in the console log @log within @timeout s."""
    import time
    end = time.time() + timeout
    while time.time() < end:
        try:
            if text in open(log, errors='replace').read():
                return True
        except OSError:
            pass
        time.sleep(0.2)
    return False


def monitor(sock, command):
    """Send @command to QEMU's monitor at @sock; the error, or None."""
    import socket
    import time
    try:
        with socket.socket(socket.AF_UNIX) as c:
            c.connect(sock)
            c.sendall(command.encode() + b'\n')
            time.sleep(0.5)
    except OSError as e:
        return f'the monitor: {e}'
    return None


def reset_at(log, sock, delay, timeout):
    """Once the guest's writers run, QEMU's system_reset after @delay s
    (the monitor: no shutdown path, as a watchdog's reset)."""
    import time
    if not wait_for(log, 'KMARK-FLIGHT-WRITING', timeout):
        return 'the writers never started'
    time.sleep(delay)
    return monitor(sock, 'system_reset')


def quit_at_end(log, sock, timeout):
    """A kernel with no way to end QEMU from the guest (i386-hardened: no
    module, no debugfs, so no isa-debug-exit): once the run's boot prints
    its KMARK-FLIGHT-END line, QEMU's quit from the monitor. The reason it
    did not, or None."""
    import time
    if not wait_for(log, 'KMARK-FLIGHT-END ', timeout):
        return 'the run never reached its end line'
    time.sleep(1)
    return monitor(sock, 'quit')


def kept_counts(lines):
    """kept() of flight-guest.sh: {cpu: (lines, gaps, dropped)}."""
    out = {}
    for l in lines:
        m = re.match(r'^FLIGHT # kept CPU(\d) lines=(\d+) .* gaps=(\d+) dropped=(\d+)', l)
        if m:
            out[int(m.group(1))] = tuple(int(x) for x in m.group(2, 3, 4))
    return out


def writer_pages(ram, phys, size, hsize, per_cpu, rnd):
    """@per_cpu random pages of each CPU's part of the ring buffer that
    hold its writer's lines, each overwritten whole with random bytes."""
    hit = {0: [], 1: []}
    with open(ram, 'r+b') as f:
        for off in range(phys + hsize, phys + size, 4096):
            f.seek(off)
            page = f.read(4096)
            for c in (0, 1):
                if f'W c={c} n='.encode() in page:
                    hit[c].append(off)
        if not hit[0] or not hit[1]:
            return None, f'pages with lines: CPU0 {len(hit[0])}, CPU1 {len(hit[1])}'
        chosen = {c: rnd.sample(hit[c], min(per_cpu, len(hit[c]))) for c in (0, 1)}
        for c in (0, 1):
            for off in chosen[c]:
                f.seek(off)
                f.write(bytes(rnd.getrandbits(8) for _ in range(4096)))
    return {c: len(v) for c, v in chosen.items()}, None


def guest_results(res, lines, run):
    """The guest's FLIGHT lines; the phases in order."""
    phases = []
    for l in lines:
        m = re.match(r'^KMARK-FLIGHT-PHASE (\S+)', l)
        if m:
            phases.append(m.group(1))
        m = re.match(r'^FLIGHT (ok|not ok) - (.*)$', l)
        if m:
            res.check(f'{run}: {m.group(2)}', m.group(1) == 'ok')
    return phases


def segment(lines, start, end):
    """The lines after the first line matching @start up to @end."""
    out, on = [], False
    for l in lines:
        if on and re.search(end, l):
            break
        if on:
            out.append(l)
        elif re.search(start, l):
            on = True
    return out


def check_dump(res, lines, name, instance, cpus, limit, only_cpu=None,
               request='oops', note='oops: Oops'):
    """A console dump: its head, lines, order, count; the crash request
    (kmark_test's, what=@request; None: none) in it and the note "kmark:
    tracing stopped: @note..." its last line. Return (shown, left)."""
    head = [i for i, l in enumerate(lines) if l.startswith('kmark: dump of instance ')]
    if not res.check(f'{name}: a dump on the console', len(head) == 1,
                     f'{len(head)} dump heads'):
        return None, None
    h = lines[head[0]]
    m = re.match(r'kmark: dump of instance (\S+), (all CPUs|CPU \d+), oldest first: '
                 r'the last (\d+) events of each CPU, (\d+) older events left out', h)
    res.check(f'{name}: its head names the instance, the CPUs, the limit and '
              'what was left out', m and m.group(1) == instance and
              m.group(2) == cpus and int(m.group(3)) == limit, h)
    if not m:
        return None, None
    left = int(m.group(4))
    body, end = [], None
    for l in lines[head[0] + 1:]:
        e = re.match(r'kmark: end of dump: (\d+) events', l)
        if e:
            end = int(e.group(1))
            break
        t = TRACE_LINE.match(l)
        if t:
            body.append(t)
    res.check(f'{name}: its end line counts the lines shown', end == len(body),
              f'end says {end}, {len(body)} trace lines')
    ts = [float(t.group(4)) for t in body]
    res.check(f'{name}: merged by time (timestamps in order)', ts == sorted(ts))
    per_cpu = {}
    for t in body:
        per_cpu[t.group(3)] = per_cpu.get(t.group(3), 0) + 1
    res.check(f'{name}: at most {limit} lines of each CPU',
              all(n <= limit for n in per_cpu.values()), str(per_cpu))
    if only_cpu is not None:
        res.check(f'{name}: only CPU {only_cpu}\'s events',
                  set(per_cpu) == {f'{only_cpu:03d}'}, str(per_cpu))
    if request:
        res.check(f'{name}: the crash request is in it',
                  any(t.group(5) == 'crash_request' and t.group(6) == f'what={request}'
                      for t in body))
    res.check(f'{name}: its last line is the {note.split(":")[0]} note',
              bool(body) and body[-1].group(5) == 'tracing_mark_write' and
              body[-1].group(6).startswith(f'kmark: tracing stopped: {note}'),
              body[-1].group(0) if body else 'no lines')
    return len(body), left


def region(lines):
    """(phys, size, header bytes) of the region, from the kernel log."""
    for l in lines:
        m = re.search(r'kmark: instance flight on reserve_mem kmflight\w* at '
                      r'(0x[0-9a-f]+), (\d+) KiB \(header (\d+) KiB', l)
        if m:
            return int(m.group(1), 16), int(m.group(2)) << 10, int(m.group(3)) << 10
    return None


def check_dat(res, lines, name):
    body = segment(lines, r'^KMARK-FLIGHT-DAT-BEGIN', r'^KMARK-FLIGHT-DAT-END')
    try:
        data = base64.b64decode(''.join(l.strip() for l in body), validate=True)
    except (binascii.Error, ValueError):
        data = b''
    if not res.check(f'{name}: kmark dump -o prev.dat came through the console',
                     len(data) > 0):
        return
    with tempfile.NamedTemporaryFile(suffix='.dat') as f:
        f.write(data)
        f.flush()
        try:
            out = subprocess.run(['trace-cmd', 'report', '-i', f.name],
                                 capture_output=True, text=True, timeout=60)
        except FileNotFoundError:
            res.check(f'{name}: prev.dat opens in trace-cmd report', False,
                      'no trace-cmd on the host (scripts/setup.sh installs it)')
            return
    res.check(f'{name}: prev.dat opens in trace-cmd report', out.returncode == 0,
              out.stderr.strip()[-200:])
    res.check(f'{name}: trace-cmd shows FLIGHT-1 with its task, and sched_switch',
              re.search(r'^\s*sh-\d+\s.*FLIGHT-1 pid=', out.stdout, re.M) is not None and
              'sched_switch' in out.stdout, out.stdout[-300:])


def scribble(ram, start, end, keep=0):
    rnd = random.Random(0x6b6d61726b)
    with open(ram, 'r+b') as f:
        f.seek(start + keep)
        f.write(bytes(rnd.getrandbits(8) for _ in range(end - start - keep)))


def other_banner(ram, phys):
    """Give the header another build's banner, its checksum made right."""
    with open(ram, 'r+b') as f:
        f.seek(phys)
        hdr = bytearray(f.read(4096))
        b = hdr.find(b'Linux version ')
        if b < 0:
            return 'no banner in the header'
        crc_off = b + 384
        crc = int.from_bytes(hdr[crc_off:crc_off + 4], 'little')
        if zlib.crc32(bytes(hdr[:crc_off])) != crc:
            return 'the header checksum is not crc32 of what precedes it'
        text = bytes(hdr[b:crc_off]).split(b'\0')[0]
        new = (b'Linux version 6.12.0-KMARK-OTHER-BUILD ' + text[14:])[:383]
        hdr[b:crc_off] = new.ljust(384, b'\0')
        hdr[crc_off:crc_off + 4] = zlib.crc32(bytes(hdr[:crc_off])).to_bytes(4, 'little')
        f.seek(phys)
        f.write(hdr)
    return None


def lying_events(ram, phys):
    """Make every event table entry lie, checksums made right."""
    with open(ram, 'r+b') as f:
        f.seek(phys)
        hdr = f.read(4096)
        b = hdr.find(b'Linux version ')
        if b != 56:
            return f'the banner is at {b}, not 56: the header\'s layout changed'
        long_size = int.from_bytes(hdr[24:28], 'little')
        evtab_off = int.from_bytes(hdr[44:48], 'little')
        evtab_size = int.from_bytes(hdr[48:52], 'little')
        id_size = 440 + 4 + (4 if long_size == 8 else 0)
        used_off = id_size + 8 + 8 + 4
        used = int.from_bytes(hdr[used_off:used_off + 4], 'little')
        if not 0 < used <= evtab_size:
            return f'evtab_used {used} out of range'
        f.seek(phys + evtab_off)
        tab = bytearray(f.read(used))
        off = n = 0
        while off + 12 <= used:
            ln = int.from_bytes(tab[off + 4:off + 6], 'little')
            if ln < 12 or off + ln > used:
                return f'entry at {off}: length {ln}'
            if zlib.crc32(bytes(tab[off + 4:off + ln])) != int.from_bytes(tab[off:off + 4], 'little'):
                return f'entry at {off}: its checksum is not crc32 of the rest'
            if tab[off + 10]:       # nr_fields: the first field's offset
                tab[off + 12:off + 14] = (0xfff0).to_bytes(2, 'little')
            else:                   # no field: a record shorter than its header
                tab[off + 8:off + 10] = (4).to_bytes(2, 'little')
            tab[off:off + 4] = zlib.crc32(bytes(tab[off + 4:off + ln])).to_bytes(4, 'little')
            off += ln
            n += 1
        if not n:
            return 'no entry'
        f.seek(phys + evtab_off)
        f.write(tab)
    return None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('flavour')
    ap.add_argument('--logdir', default=None)
    ap.add_argument('--timeout', type=int, default=240)
    a = ap.parse_args()
    build = os.environ.get('BUILD', os.path.join(TOP, 'build'))
    logdir = a.logdir or os.path.join(build, a.flavour, 'flight')
    os.makedirs(logdir, exist_ok=True)
    res = Results(a.flavour)
    # A kernel without LKDTM crashes only by a panic (init exits); one
    # without modules has no test module, so no isa-debug-exit: the host
    # quits QEMU from the monitor (i386-hardened has neither).
    try:
        with open(os.path.join(build, a.flavour, '.config')) as f:
            cfg = f.read()
    except OSError:
        cfg = 'CONFIG_LKDTM=y\nCONFIG_MODULES=y\n'
    lkdtm = 'CONFIG_LKDTM=y\n' in cfg
    modexit = 'CONFIG_MODULES=y\n' in cfg
    shm = '/dev/shm' if os.path.isdir('/dev/shm') else tempfile.gettempdir()
    ram = os.path.join(shm, f'kmark-flight-{a.flavour}-{os.getpid()}.ram')
    mem = (f'-object memory-backend-file,id=pc.ram,size={RAM},mem-path={ram},'
           f'share=on -machine memory-backend=pc.ram '
           f'-device isa-debug-exit,iobase=0xf4,iosize=0x04')
    def gh_tests():
        """G and H: the resets at random instants, the damaged pages."""
        def gh_run(name, g, extra, then=None, size='8M', crash=None):
            """A QEMU run of G or H: both boots in it (G), or one (H)."""
            log = os.path.join(logdir, f'{name}.log')
            if os.path.exists(log):     # (reset_at() reads it as it grows)
                os.unlink(log)
            # Without modules there is no test module: the host ends QEMU
            # (quit, status 0) when the guest says it is done.
            qsock = os.path.join(logdir, f'{name}.quit.sock')
            if os.path.exists(qsock):
                os.unlink(qsock)
            if not modexit:
                extra += f' -monitor unix:{qsock},server=on,wait=off'
            p = boot(a.flavour, log, mem + extra, a.timeout, args=gh_args(g, size),
                     wait=False)
            why = then(log) if then else None
            if why is None and not modexit:
                why = quit_at_end(log, qsock, a.timeout)
            rc = p.wait()
            lines = console(log)
            guest_results(res, lines, name)
            res.check(f'{name}: it ended where it meant to (the host: {why or "as asked"})',
                      why is None and rc == (1 if modexit else 0) and
                      any(l.startswith('KMARK-FLIGHT-END ') for l in lines), f'boot.sh {rc}')
            # (a crash asked for: its boot, from its phase line to the next
            # boot's; a line echoed just before it may die in the tty)
            asked = []
            if crash:
                asked = segment(lines, rf'^KMARK-FLIGHT-PHASE {g}1', rf'^KMARK-FLIGHT-PHASE {g}2')
                res.check(f'{name}: {crash} came',
                          any('Kernel panic - not syncing' in l for l in asked))
                i = lines.index(f'KMARK-FLIGHT-PHASE {g}1') + 1
                lines = lines[:i] + lines[i + len(asked):]
            bad = [l for l in lines if not l.startswith('FLIGHT') and
                   (TROUBLE.search(l) or CRASH.search(l))]
            res.check(f'{name}: no oops, no warning, no kernel trouble'
                      f'{" but the crash asked for" if crash else ""}', not bad,
                      '; '.join(bad[:3]))
            return lines

        # G: resets at random instants (one seed a run; make check's
        # seeds are fixed, GH_SEED= picks others), both CPUs writing.
        # The firmware writes over the region's top at the reset (SeaBIOS:
        # 120 KiB): in an 8 MiB region onto pages not written yet, in a
        # 1 MiB one (the ring wraps in about a second) onto pages that
        # hold lines: dropped one by one, the CPU's others kept.
        base = int(os.environ.get('GH_SEED', '41'))
        for i in range(int(os.environ.get('GH_RESETS', '3'))):
            size = '8M' if i % 3 == 0 else '1M'

            rnd = random.Random(base + i)
            delay = round(rnd.uniform(0.3, 3.0), 2)
            with open(ram, 'wb') as f:
                f.truncate(512 << 20)
            sock = os.path.join(logdir, 'monitor.sock')
            if os.path.exists(sock):
                os.unlink(sock)
            name = f'G{i}'
            lines = gh_run(name, 'G', f' -action reboot=reset -monitor unix:{sock},server=on,wait=off',
                           lambda log: reset_at(log, sock, delay, a.timeout), size=size)
            phases = [m.group(1) for m in (re.match(r'^KMARK-FLIGHT-PHASE (\S+)', l)
                                           for l in lines) if m]
            res.check(f'{name}: writers, a reset {delay} s later ({size} region), the next boot finds their trace',
                      phases == ['G1', 'G2'], f'phases {phases}')
            k = kept_counts(lines)
            res.check(f'{name}: every CPU kept its lines (per CPU: lines, gaps, pages dropped: {k})',
                      sorted(k) == [0, 1] and all(v[0] > 0 and v[1] <= v[2] for v in k.values()))
        # P and O: a panic, an oops that panics, both CPUs writing. A
        # kernel without LKDTM (i386-hardened) panics when its init exits,
        # and has no way to oops on request.
        for g, what in (('P', 'a panic'), ('O', 'an oops that panics')):
            if g == 'O' and not lkdtm:
                res.skip('O: writers, an oops that panics, the next boot finds their trace',
                         'no LKDTM in this kernel: nothing oopses on request')
                continue
            with open(ram, 'wb') as f:
                f.truncate(512 << 20)
            lines = gh_run(g, g, ' -action reboot=reset', size='1M', crash=what)
            phases = [m.group(1) for m in (re.match(r'^KMARK-FLIGHT-PHASE (\S+)', l)
                                           for l in lines) if m]
            res.check(f'{g}: writers, {what}, the next boot finds their trace',
                      phases == [f'{g}1', f'{g}2'], f'phases {phases}')
            k = kept_counts(lines)
            res.check(f'{g}: every CPU kept its lines (per CPU: lines, gaps, pages dropped: {k})',
                      sorted(k) == [0, 1] and all(v[0] > 0 and v[1] <= v[2] for v in k.values()))
        # H: two pages of each CPU's lines overwritten between two QEMUs.
        with open(ram, 'wb') as f:
            f.truncate(512 << 20)
        lines = gh_run('H1', 'H', '')
        hreg = region(lines)
        if res.check('H1: the kernel says where its region is', hreg is not None):
            hit, why = writer_pages(ram, *hreg, 2, random.Random(base))
            if res.check('H: the host overwrote two pages of each CPU\'s lines', why is None, why):
                lines = gh_run('H2', 'H', '')
                k = kept_counts(lines)
                res.check(f'H2: exactly those pages were dropped, every other line kept '
                          f'(per CPU: lines, gaps, pages dropped: {k}; overwritten: {hit})',
                          sorted(k) == [0, 1] and
                          all(k[c][0] > 0 and k[c][2] == hit[c] and k[c][1] <= hit[c]
                              for c in (0, 1)))

    try:
        # FLIGHT_ONLY=GH: the G and H runs alone (a developer's loop); all
        # a kernel without LKDTM, debugfs and modules can run (the other
        # runs crash it with LKDTM and record the test module's marker).
        if os.environ.get('FLIGHT_ONLY') == 'GH' or not lkdtm:
            gh_tests()
            return
        with open(ram, 'wb') as f:      # zeros: a cold start
            f.truncate(512 << 20)
        # Run A: three boots in one QEMU.
        log = os.path.join(logdir, 'A.log')
        rc = boot(a.flavour, log, mem + ' -action reboot=reset', a.timeout)
        lines = console(log)
        phases = guest_results(res, lines, 'A')
        res.check('A: a cold start, a warm reboot, a panic: boots A1 A2 A3 in one QEMU',
                  phases == ['A1', 'A2', 'A3'], f'phases {phases}')
        res.check('A: it ended where it meant to (isa-debug-exit)',
                  rc == 1 and 'KMARK-FLIGHT-END A3' in lines, f'boot.sh {rc}')
        # Whole boots: a line the guest echoes just before it crashes can
        # die in the tty's buffer when the oops panics (seen once), and
        # one that does not panic may come out after the oops.
        a2 = segment(lines, r'^KMARK-FLIGHT-PHASE A2', r'^KMARK-FLIGHT-PHASE A3')
        shown, left = check_dump(res, a2, 'A2 oops dump', 'flight', 'all CPUs', 20)
        found = [int(m.group(1)) for m in
                 (re.match(r'^FLIGHT # events in the previous trace: (\d+)', l)
                  for l in lines) if m]
        if shown is not None and found:
            res.check('A2 oops dump: the events shown and left out are the next '
                      'boot\'s trace (the dump kept it)', shown + left == found[0],
                      f'{shown} + {left} != {found[0]}')
        res.check('A2: the oops panicked (panic_on_oops) and the dump came once',
                  any('Kernel panic - not syncing: Fatal exception' in l for l in a2) and
                  any('kmark: dump_on_oops: dumped already' in l for l in a2))
        a3 = segment(lines, r'^KMARK-FLIGHT-PHASE A3', r'^KMARK-FLIGHT-END A3')
        check_dump(res, a3, 'A3 top oops dump', '(top)', 'CPU 1', 5, only_cpu=1)
        check_dat(res, lines, 'A2')
        bad = [l for l in lines if TROUBLE.search(l)]
        res.check('A: no kernel trouble but the oopses and warnings asked for',
                  not bad, '; '.join(bad[:3]))
        reg = region(lines)
        if not res.check('the kernel says where the region is', reg is not None):
            return
        phys, size, hsize = reg

        def run(name, phase, prep=None, then=None):
            """One QEMU run: boot @phase, and @then after a reboot in it
            (a crash between, its part of the console returned)."""
            if prep:
                why = prep()
                if not res.check(f'{name}: the host changed the region', why is None, why):
                    return None
            log = os.path.join(logdir, f'{name}.log')
            rc = boot(a.flavour, log, mem + (' -action reboot=reset' if then else ''),
                      a.timeout)
            lines = console(log)
            phases = guest_results(res, lines, name)
            want = [phase] + ([then] if then else [])
            res.check(f'{name}: boot{"s" if then else ""} {" ".join(want)}',
                      phases == want, f'phases {phases}')
            res.check(f'{name}: it ended where it meant to',
                      rc == 1 and f'KMARK-FLIGHT-END {want[-1]}' in lines, f'boot.sh {rc}')
            crash = []
            if then:
                crash = segment(lines, rf'^KMARK-FLIGHT-HUNG {phase}',
                                rf'^KMARK-FLIGHT-PHASE {then}')
                i = lines.index(f'KMARK-FLIGHT-HUNG {phase}') \
                    if f'KMARK-FLIGHT-HUNG {phase}' in lines else len(lines)
                lines = lines[:i] + lines[i + 1 + len(crash):]
            # (not the guest's own lines: last_boot_info quotes the
            # previous boot's oopses)
            bad = [l for l in lines if not l.startswith('FLIGHT') and
                   (TROUBLE.search(l) or CRASH.search(l))]
            res.check(f'{name}: no oops, no warning, no kernel trouble'
                      f'{" but the crash asked for" if then else ""}', not bad,
                      '; '.join(bad[:3]))
            res.check(f'{name}: the region is where it was', region(lines) == reg,
                      f'{region(lines)} != {reg}')
            return crash

        # B: a hung task that panics (hung_task_panic), the dump at the
        # panic (every CPU, the last 20 of each), B2 finds the trace.
        hung = run('B', 'B1', then='B2')
        if hung is not None:
            res.check('B1: the hung-task detector found the task and panicked',
                      any(re.search(r'INFO: task .* blocked for more than', l) for l in hung) and
                      any('Kernel panic - not syncing: hung_task: blocked tasks' in l
                          for l in hung))
            check_dump(res, hung, 'B1 hung-task panic dump', 'flight', 'all CPUs', 20,
                       request=None, note='panic: hung_task: blocked tasks')
        run('C', 'C1', lambda: scribble(ram, phys, phys + size, keep=8))
        run('D', 'D1', lambda: other_banner(ram, phys))
        run('E', 'E1', lambda: scribble(ram, phys + hsize, phys + size))
        run('F', 'F1', lambda: lying_events(ram, phys))

        gh_tests()
    except Exception as e:     # a bug here is a failure, never a pass
        res.check('flight.py ran to its end', False, repr(e))
    finally:
        if os.path.exists(ram):
            os.unlink(ram)
        print(f'{res.where}: {res.passed} passed, {res.failed} failed, '
              f'{res.skipped} skipped')
    sys.exit(1 if res.failed else 0)


if __name__ == '__main__':
    main()

#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Check the trace.dat files a guest wrote with 'kmark record -o FILE.dat'.

usage: dat_check.py FLAVOUR CONSOLE_LOG [--expect NAME]... [--no-traceshark]

The guest prints each recording as base64 of a gzip'ed tar between the
lines 'KMARK-DAT-BEGIN NAME' and 'KMARK-DAT-END NAME' (see dat_dump in
qemu-tests/lib.sh). The tar holds:

  trace.dat    written by 'kmark record -o trace.dat' (required)
  trace.txt    the kernel's 'trace' file for the same records (optional:
               then every event is compared field by field)
  record.txt   a 'kmark record -o record.txt' text recording (optional:
               Perfetto's systrace checks)
  record.err   kmark record's stderr ("recorded N events, M lost, ...")
  cpus         the number of per_cpu/cpuN directories
  expect       lines "EVENT MIN": at least MIN such events

Without trace.txt, trace-cmd and libkshark are compared with each other
and with kmark's count. The checks are those of the host tests
(userspace/tests/datcheck.py): trace-cmd report (print fmt and default
plugins), --ts-check, -l, convert --file-version 7, KernelShark's
libkshark and its scheduling plugin, and traceshark (unless
--no-traceshark).

Each --expect NAME must have its block (85-trace-dat.sh writes three:
same, live, owners); without --expect, at least one block must be there.
Prints "[FLAVOUR] ok NAME" or "[FLAVOUR] not ok NAME  # WHY" per check, or
"[FLAVOUR] skip NAME  # SKIP WHY" for a check that cannot apply to the
recording and that qemu-tests/skips.py expects (any other skip is a
failure), then "FLAVOUR dat: N passed, N failed, N skipped"; exits 1 when
a check failed or a recording is missing.
"""

import base64
import binascii
import io
import os
import re
import sys
import tarfile
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "userspace", "tests"))
sys.path.insert(0, HERE)
import datcheck  # noqa: E402
import skips  # noqa: E402

B64_LINE = re.compile(r"^[A-Za-z0-9+/=]+$")


class ArchChecks(datcheck.Checks):
    def __init__(self, arch):
        super().__init__()
        self.arch = arch

    def skip(self, name, why):
        if skips.allowed(self.arch, name, why):
            super().skip(name, why)
        else:
            self.ok(False, name, "SKIP %s  (not an expected skip on %s: "
                    "qemu-tests/skips.py)" % (why, self.arch))

    def emit(self, ok, name, note):
        if ok and note.startswith("SKIP "):
            print("[%s] skip %s  # %s" % (self.arch, name, note))
        elif ok:
            print("[%s] ok %s%s" % (self.arch, name,
                                     "  # " + note if note else ""))
        else:
            why = note.split("\n")
            print("[%s] not ok %s  # %s" % (self.arch, name, why[0]))
            for line in why[1:]:
                print("[%s] %s" % (self.arch, line if line.startswith("#")
                                   else "# " + line))
        sys.stdout.flush()


def blocks(log):
    """{name: [base64 lines]} of the KMARK-DAT blocks of a console log.
    Lines that are not base64 (kernel messages in between) are left out."""
    found, cur, name = {}, None, None
    for raw in log.splitlines():
        line = raw.strip("\r\n\t ")
        m = re.search(r"KMARK-DAT-BEGIN (\S+)", line)
        if m:
            name, cur = m.group(1), []
            continue
        m = re.search(r"KMARK-DAT-END (\S+)", line)
        if m and cur is not None and m.group(1) == name:
            found[name] = cur
            cur = None
            continue
        if cur is not None and B64_LINE.match(line):
            cur.append(line)
    return found


def unpack(lines, dest):
    data = base64.b64decode("".join(lines), validate=True)
    with tarfile.open(fileobj=io.BytesIO(data), mode="r:gz") as tar:
        for member in tar.getmembers():
            base = os.path.basename(member.name)
            if not member.isfile() or base != member.name.lstrip("./"):
                continue
            with open(os.path.join(dest, base), "wb") as f:
                f.write(tar.extractfile(member).read())
    return sorted(os.listdir(dest))


def read(path):
    if not os.path.exists(path):
        return None
    with open(path, errors="replace") as f:
        return f.read()


def check_block(c, arch, name, lines, traceshark):
    label = "%s: " % name
    with tempfile.TemporaryDirectory(prefix="kmark-dat.") as tmp:
        try:
            files = unpack(lines, tmp)
        except (binascii.Error, ValueError, OSError, tarfile.TarError) as e:
            c.ok(False, label + "decode the block (base64, gzip, tar)",
                 "%s: %s" % (type(e).__name__, e))
            return
        dat = os.path.join(tmp, "trace.dat")
        if not c.ok("trace.dat" in files, label + "the block holds trace.dat",
                    "files: %s" % ", ".join(files)):
            return
        text = read(os.path.join(tmp, "trace.txt"))
        err = read(os.path.join(tmp, "record.err")) or ""
        m = re.search(r"recorded (\d+) events, (\d+) lost, to \S+ \(trace\.dat",
                      err)
        c.ok(m is not None, label + "kmark record's summary",
             "record.err: %r" % err.strip()[:300])
        if text is not None:
            datcheck.check_tracecmd(c, label, dat, text)
            datcheck.check_kshark(c, label, dat, text)
            datcheck.check_perfetto(c, label + "trace.txt: ", text)
        else:
            cpus = (read(os.path.join(tmp, "cpus")) or "?").strip()
            expect = []
            for line in (read(os.path.join(tmp, "expect")) or "").splitlines():
                parts = line.split()
                if len(parts) == 2 and parts[1].isdigit():
                    expect.append((parts[0], int(parts[1])))
            datcheck.check_live(c, label, dat, cpus, expect,
                                int(m.group(1)) if m else None)
        rec = read(os.path.join(tmp, "record.txt"))
        if rec is not None:
            datcheck.check_perfetto(c, label + "kmark record -o x.txt: ", rec)
        if traceshark:
            datcheck.check_traceshark(c, label, dat)


def main(argv):
    args, expect, traceshark = [], [], True
    i = 0
    while i < len(argv):
        if argv[i] == "--no-traceshark":
            traceshark = False
        elif argv[i] == "--expect" and i + 1 < len(argv):
            i += 1
            expect.append(argv[i])
        elif argv[i].startswith("--"):
            args = []
            break
        else:
            args.append(argv[i])
        i += 1
    if len(args) != 2:
        print(__doc__.split("\n\n")[1], file=sys.stderr)
        return 2
    arch, log_path = args
    c = ArchChecks(arch)
    try:
        with open(log_path, errors="replace") as f:
            log = f.read()
    except OSError as e:
        c.ok(False, "read the console log", str(e))
        log = ""
    found = blocks(log)
    if expect:
        for name in expect:
            c.ok(name in found, "%s: its KMARK-DAT block is in the console "
                 "log" % name, "no complete 'KMARK-DAT-BEGIN %s' ... "
                 "'KMARK-DAT-END %s' block (blocks: %s)" % (
                     name, name, " ".join(sorted(found)) or "none"))
    else:
        c.ok(bool(found), "KMARK-DAT blocks in the console log",
             "no 'KMARK-DAT-BEGIN NAME' ... 'KMARK-DAT-END NAME' block")
    for name in sorted(found):
        check_block(c, arch, name, found[name], traceshark)
    print("%s dat: %d passed, %d failed, %d skipped" % (
        arch, c.passed, c.failed, c.skipped))
    return 1 if c.failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

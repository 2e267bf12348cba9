#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Check a trace.dat written by 'kmark record -o FILE.dat' with the tools
users open it in, against the kernel's own text ('trace' file) of the same
records.

  datcheck.py [--label L] [--traceshark] DAT TRACE_TXT
      trace-cmd report (print fmt and default plugins), --ts-check, -l,
      convert --file-version 7, KernelShark's libkshark (and its scheduling
      plugin); with --traceshark also traceshark on the report output.
  datcheck.py --text [--label L] FILE
      Perfetto's systrace conformance of a text trace.
  datcheck.py --kshark-dump [--plugin SO] DAT
      (internal) the entries libkshark loads, one JSON object a line.

Every check prints one line, "ok - NAME" or "not ok - NAME  # WHY" (a check
that cannot apply to this input, as the sched plugins to a recording
without sched events, says "ok - NAME  # SKIP WHY" and is counted as
skipped, not passed); the exit status is 1 when a check failed. A field
the viewers cannot read as ftrace's (a comm that is a __data_loc string, a
prev_state that is a string) is not a reason to skip: the check compares
what the viewer shows with the kernel's text all the same, and fails.
Python standard library only (ctypes).
"""

import ctypes
import glob
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

KSHARK_LIB = "libkshark.so.2"
KSHARK_SCHED_PLUGIN = next(iter(sorted(glob.glob(
    "/usr/lib/*/kernelshark/plugins/plugin-sched_events.so"))),
    "/usr/lib/x86_64-linux-gnu/kernelshark/plugins/plugin-sched_events.so")
SETUP_HINT = "install it: scripts/setup.sh"

# Perfetto's systrace line pattern (systrace_line_tokenizer.cc; five
# context characters since the migrate-disable column)
SYSTRACE_RE = re.compile(r"-(\d+)\s+\(?\s*(\d+|-+)?\)?\s?\[(\d+)\]\s*"
                         r"[a-zA-Z0-9.]{0,5}\s+(\d+\.\d+):\s+(\S+):")
# the kernel's trace line: "COMM-PID [CPU] FLAGS SECS.USECS: NAME: ARGS"
TEXT_RE = re.compile(r"^\s*(?P<comm>.*)-(?P<pid>\d+)\s+\[(?P<cpu>\d+)\]\s+"
                     r"(?P<flags>\S{5})\s+(?P<s>\d+)\.(?P<us>\d{6}):\s"
                     r"(?P<name>[^:\s]+): ?(?P<args>.*)$")
# trace-cmd report -t: "COMM-PID [CPU] SECS.NSECS: NAME: ARGS"
TC_RE = re.compile(r"^\s*(?P<comm>.*)-(?P<pid>\d+)\s+\[(?P<cpu>\d+)\]\s+"
                   r"(?P<s>\d+)\.(?P<frac>\d+):\s+(?P<name>[^:\s]+):\s*"
                   r"(?P<args>.*?)\s*$")
# trace-cmd report -l -t: "COMM-PID CPU+FLAGS SECS.NSECS: NAME: ARGS"
TCL_RE = re.compile(r"^\s*(?P<comm>.*)-(?P<pid>\d+)\s+(?P<cpu>\d+)"
                    r"(?P<flags>[^\s\d]\S*)\s+(?P<s>\d+)\.(?P<frac>\d+):\s+"
                    r"(?P<name>[^:\s]+):")
# libtraceevent's sched_switch / sched_wakeup plugin output
PLUGIN_SWITCH_RE = re.compile(
    r"^(?P<pc>.*):(?P<pp>-?\d+) \[(?P<ppr>-?\d+)\] (?P<st>\S+) ==> "
    r"(?P<nc>.*):(?P<np>-?\d+) \[(?P<npr>-?\d+)\]$")
PLUGIN_WAKEUP_RE = re.compile(
    r"^(?P<c>.*):(?P<p>-?\d+) \[(?P<pr>-?\d+)\]( success=\d+)?"
    r"( CPU:(?P<cpu>\d+))?$")
HEX_RE = re.compile(r"^\(?0x[0-9a-f]+\)?$")
SYM_RE = re.compile(r"^\(?[A-Za-z_][\w.]*(\+0x[0-9a-f]+/0x[0-9a-f]+)?\)?$")


class Checks:
    """Counts checks; emit() prints one line per check (override it to
    print another layout)."""

    def __init__(self):
        self.failed = 0
        self.passed = 0
        self.skipped = 0

    def emit(self, ok, name, note):
        if ok:
            print("ok - %s%s" % (name, "  # " + note if note else ""))
        else:
            why = note.split("\n")
            print("not ok - %s  # %s" % (name, why[0]))
            for line in why[1:]:
                print(line if line.startswith("#") else "# " + line)
        sys.stdout.flush()

    def ok(self, cond, name, why=""):
        if cond:
            self.passed += 1
            self.emit(True, name, "")
        else:
            self.failed += 1
            self.emit(False, name, why or "failed")
        return bool(cond)

    def skip(self, name, why):
        """A check that cannot apply to this input: counted apart."""
        self.skipped += 1
        self.emit(True, name, "SKIP " + why)


def run(cmd, timeout=120, env=None):
    try:
        p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           timeout=timeout, env=env)
    except FileNotFoundError:
        return 127, "", "%s: not found" % cmd[0]
    except subprocess.TimeoutExpired:
        return 124, "", "%s: timed out after %d s" % (cmd[0], timeout)
    return (p.returncode, p.stdout.decode("utf-8", "replace"),
            p.stderr.decode("utf-8", "replace"))


# --- the kernel's text ----------------------------------------------------------

def parse_text(text):
    """(ncpus from '#P:N' or None, [event dict]) of a trace file's text."""
    ncpus = None
    events = []
    for line in text.splitlines():
        if line.startswith("#"):
            m = re.search(r"#P:(\d+)", line)
            if m:
                ncpus = int(m.group(1))
            continue
        m = TEXT_RE.match(line)
        if not m:
            continue
        events.append({
            "comm": m.group("comm").strip(), "pid": int(m.group("pid")),
            "cpu": int(m.group("cpu")), "flags": m.group("flags"),
            "us": int(m.group("s")) * 1000000 + int(m.group("us")),
            "name": m.group("name"), "args": m.group("args").rstrip(),
            "line": line,
        })
    return ncpus, events


def kv(args):
    """key=value pairs of an args text, Perfetto's way (split on spaces)."""
    d = {}
    for tok in args.split(" "):
        if "=" in tok and not tok.startswith("="):
            k, v = tok.split("=", 1)
            d[k] = v
    return d


KV_SPLIT_RE = re.compile(r" (?:==> )?(?=[A-Za-z_]\w*=)")


def kv_spaced(args):
    """key=value pairs of an args text whose values may hold spaces (a
    comm such as "ping pong"): split only before the next "key=", and
    drop sched_switch's "==>"."""
    d = {}
    for tok in KV_SPLIT_RE.split(args):
        if "=" in tok and not tok.startswith("="):
            k, v = tok.split("=", 1)
            d[k] = v
    return d


def comms_by_pid(events):
    """{pid: (its comms, its last comm)}: saved cmdlines keep one name per
    task, the last one the trace shows (a task that exec'ed changes it)."""
    m = {}
    for e in sorted(events, key=lambda x: x["us"]):
        comms, _ = m.get(e["pid"], (set(), None))
        comms.add(e["comm"])
        m[e["pid"]] = (comms, e["comm"])
    return m


def comm_matches(comm_sets, e, got):
    """(ok, shown as the saved cmdline of a task that changed its name)"""
    if got == e["comm"]:
        return True, False
    comms, last = comm_sets.get(e["pid"], ((), None))
    return len(comms) > 1 and got == last, True


def by_cpu(events):
    d = {}
    for e in events:
        d.setdefault(e["cpu"], []).append(e)
    return d


# --- trace-cmd ------------------------------------------------------------------------

def parse_tc(out, latency=False):
    events = []
    for line in out.splitlines():
        m = (TCL_RE if latency else TC_RE).match(line)
        if not m:
            continue
        frac = m.group("frac")
        ns = int(m.group("s")) * 10**9 + int((frac + "000000000")[:9])
        e = {"comm": m.group("comm").strip(), "pid": int(m.group("pid")),
             "cpu": int(m.group("cpu")), "ns": ns, "name": m.group("name"),
             "line": line}
        if latency:
            e["flags"] = m.group("flags")
        else:
            e["args"] = m.group("args")
        events.append(e)
    return events


def args_equal(exp, got):
    """The args of the kernel's line and trace-cmd's, token by token; a
    symbol (%pS) may be an address in trace-cmd: the file has no kallsyms."""
    a, b = exp.split(" "), got.split(" ")
    if len(a) != len(b):
        return False
    for x, y in zip(a, b):
        if x == y:
            continue
        kx, _, vx = x.rpartition("=")
        ky, _, vy = y.rpartition("=")
        if kx != ky:
            return False
        if HEX_RE.match(vy) and SYM_RE.match(vx):
            continue
        return False
    return True


def compare_events(c, label, txt, tc, comm_sets, what):
    """Per CPU, in order: count, name, pid, timestamp, comm, args."""
    name = "%s%s" % (label, what)
    exp_cpu, got_cpu = by_cpu(txt), by_cpu(tc)
    if not c.ok(len(tc) == len(txt), name + ": event count",
                "%d events, the text has %d" % (len(tc), len(txt))):
        return
    bad = {"cpu": None, "name": None, "pid": None, "timestamp": None,
           "comm": None, "fields": None}
    multi = 0
    for cpu in sorted(set(exp_cpu) | set(got_cpu)):
        ex, gt = exp_cpu.get(cpu, []), got_cpu.get(cpu, [])
        if len(ex) != len(gt) and not bad["cpu"]:
            bad["cpu"] = "CPU %d: %d events, the text has %d" % (
                cpu, len(gt), len(ex))
        for e, g in zip(ex, gt):
            def note(key, why):
                if not bad[key]:
                    bad[key] = "%s\n#   text:      %s\n#   trace-cmd: %s" % (
                        why, e["line"].strip(), g["line"].strip())
            if e["name"] != g["name"]:
                note("name", "event name")
                continue
            if e["pid"] != g["pid"]:
                note("pid", "pid")
            if (g["ns"] + 500) // 1000 != e["us"]:
                note("timestamp", "timestamp")
            ok, renamed = comm_matches(comm_sets, e, g["comm"])
            if not ok:
                note("comm", "task name")
            multi += ok and renamed
            if "args" in g and not args_equal(e["args"], g["args"]):
                note("fields", "fields")
    for key in ("cpu", "name", "pid", "timestamp", "comm", "fields"):
        why = bad[key]
        extra = ""
        if key == "comm" and multi and not why:
            extra = (" (%d events of tasks that changed name show its "
                     "last name, the saved cmdline)" % multi)
        c.ok(not why, "%s: %s%s" % (name, "CPU of each event" if key == "cpu"
                                   else key + " of each event", extra), why)


def event_formats(dat):
    """{name: format text} from 'trace-cmd report --events'."""
    rc, out, _ = run(["trace-cmd", "report", "--events", "-i", dat])
    fmts = {}
    for block in re.split(r"\n(?=name: )", out):
        m = re.match(r"name: (\S+)", block)
        if m:
            fmts[m.group(1)] = block
    return fmts


def field_decl(fmt, field):
    m = re.search(r"field:([^;]*\b%s(\[\d+\])?);" % re.escape(field), fmt or "")
    return m.group(1) if m else None


def is_char_array(fmt, field):
    d = field_decl(fmt, field)
    return bool(d and d.startswith("char ") and "[" in d)


def is_numeric(fmt, field):
    d = field_decl(fmt, field)
    return bool(d) and "__data_loc" not in d and "[" not in d


# ftrace's prev_state letters (__trace_sched_switch_state() in 6.12's
# include/trace/events/sched.h; the bit above them, 0x100, is "+")
FTRACE_STATES = [(0x1, "S"), (0x2, "D"), (0x4, "T"), (0x8, "t"),
                 (0x10, "X"), (0x20, "Z"), (0x40, "P"), (0x80, "I")]


def state_table(fmt):
    """[(mask, letter)] of the __print_flags() of prev_state; ftrace's
    when the format has none (prev_state recorded as a string: its text
    is then decoded with ftrace's letters)."""
    i = (fmt or "").find("__print_flags")
    if i < 0:
        return list(FTRACE_STATES)
    return [(int(v, 0), s) for v, s in re.findall(
        r'\{\s*(0x[0-9a-fA-F]+|\d+)\s*,\s*"([^"]*)"\s*\}', fmt[i:])]


def decode_state(val, table):
    """prev_state as ftrace prints it: letters joined by '|', or R; '+'
    for the bit above the table (TASK_REPORT_MAX: preempted)."""
    if not table:
        return None
    top = max(m for m, _ in table)
    low = val & (top * 2 - 1)
    s = "|".join(n for m, n in table if m and low & m == m) or "R"
    return s + ("+" if val & (top * 2) else "")


LEGACY_STATES = "SDTtZXxW"


def plugin_states(table):
    """The letters libtraceevent's sched_switch plugin gives the bits of
    prev_state: before 1.8 (Debian 12 has 1.7) a fixed string of old
    kernels' states, since then the format's __print_flags() table."""
    for path in glob.glob("/usr/lib/*/traceevent/plugins/plugin_sched_switch.so"):
        with open(path, "rb") as f:
            if LEGACY_STATES.encode() in f.read():
                return LEGACY_STATES, "libtraceevent's legacy letters " + \
                    LEGACY_STATES
    letters = [""] * 32
    for m, n in table:
        if m and m & (m - 1) == 0:
            letters[m.bit_length() - 1] = n[:1]
    return "".join(x or "?" for x in letters).rstrip("?"), ""


def encode_state(text, table):
    """prev_state as ftrace prints it ("S", "D|I", "R+") back to its
    number, with the format's table; None when a letter is unknown."""
    if not table or text is None:
        return None
    top = max(m for m, _ in table)
    v = top * 2 if text.endswith("+") else 0
    text = text.rstrip("+")
    if text == "R":
        return v
    for part in text.split("|"):
        m = [mask for mask, n in table if n == part]
        if not m:
            return None
        v |= m[0]
    return v


def plugin_state(val, states):
    """write_state() of libtraceevent's sched_switch plugin"""
    s = "|".join(ch for i, ch in enumerate(states) if val & (1 << i))
    return s or "R"


def check_plugin_output(c, label, txt, tc, fmts):
    """trace-cmd report with its default plugins: libtraceevent renders
    sched_switch and sched_wakeup with its own handler, reading the comms
    as char arrays and prev_state as a number."""
    sw, wk = fmts.get("sched_switch"), fmts.get("sched_wakeup")
    table = state_table(sw)
    states, states_note = plugin_states(table)
    exp_cpu, got_cpu = by_cpu(txt), by_cpu(tc)
    bad = {"ids": None, "comm": None, "state": None}
    nsw = nwk = 0
    for cpu in exp_cpu:
        for e, g in zip(exp_cpu[cpu], got_cpu.get(cpu, [])):
            def note(key, why):
                if not bad[key]:
                    bad[key] = "%s\n#   text:      %s\n#   trace-cmd: %s" % (
                        why, e["line"].strip(), g["line"].strip())
            if e["name"] == "sched_switch" and g["name"] == "sched_switch":
                nsw += 1
                m, a = PLUGIN_SWITCH_RE.match(g["args"]), kv_spaced(e["args"])
                if not m:
                    note("ids", "not the plugin's layout")
                    continue
                if (m["pp"], m["ppr"], m["np"], m["npr"]) != (
                        a.get("prev_pid"), a.get("prev_prio"),
                        a.get("next_pid"), a.get("next_prio")):
                    note("ids", "pids or prios")
                if (m["pc"], m["nc"]) != (a.get("prev_comm"),
                                          a.get("next_comm")):
                    note("comm", "comms")
                v = encode_state(a.get("prev_state"), table)
                if v is None or m["st"] != plugin_state(v, states):
                    note("state", "prev_state (expected %s)" % (
                        "?" if v is None else plugin_state(v, states)))
            elif e["name"] == "sched_wakeup" and g["name"] == "sched_wakeup":
                nwk += 1
                m, a = PLUGIN_WAKEUP_RE.match(g["args"]), kv_spaced(e["args"])
                if not m:
                    note("ids", "not the plugin's layout")
                    continue
                if (m["p"], m["pr"]) != (a.get("pid"), a.get("prio")) or (
                        m["cpu"] is not None and
                        int(m["cpu"]) != int(a.get("target_cpu", -1))):
                    note("ids", "pid, prio or target_cpu")
                if m["c"] != a.get("comm"):
                    note("comm", "comm")
    name = "%strace-cmd report (default plugins): sched_switch/sched_wakeup" % label
    if not nsw and not nwk:
        c.skip(name, "no sched_switch or sched_wakeup events")
        return
    c.ok(not bad["ids"], name + " pids, prios, target CPU", bad["ids"])
    comm_ok = all(is_char_array(f, x) for f, xs in
                  ((sw, ("prev_comm", "next_comm")), (wk, ("comm",)))
                  if f for x in xs)
    c.ok(not bad["comm"], name + " comms", bad["comm"] and bad["comm"] + (
        "" if comm_ok else "\n# the comm fields are not char arrays: "
        "libtraceevent's sched plugin reads ftrace's char prev_comm[16], "
        "next_comm[16], comm[16]"))
    if not sw or not nsw:
        return
    c.ok(not bad["state"], name + " prev_state" +
         (" (%s)" % states_note if states_note else ""),
         bad["state"] and bad["state"] + (
             "" if is_numeric(sw, "prev_state") else "\n# prev_state is "
             "not a number in this kernel's format: the plugin reads "
             "ftrace's long prev_state"))


def latency_expect(flags):
    """The kernel's five context characters as libtraceevent's latency
    format can show them: it knows irqs-off, need-resched, hardirq and
    softirq, but not NMI, BH-off or the preempt-resched bit."""
    c0 = {"d": "d", "D": "d", "b": ".", ".": ".", "X": "X"}.get(flags[0], "?")
    c1 = {"N": "N", "n": "N", "p": ".", ".": "."}.get(flags[1], "?")
    c2 = {"Z": "hH", "z": ".s", "H": "H", "h": "h", "s": "s",
          ".": "."}.get(flags[2], "?")
    return c0, c1, c2, flags[3], flags[4]


def check_tracecmd(c, label, dat, text):
    ncpus, txt = parse_text(text)
    comm_sets = comms_by_pid(txt)
    if not shutil.which("trace-cmd"):
        c.ok(False, label + "trace-cmd report", "trace-cmd not found; " +
             SETUP_HINT)
        return
    rc, out, err = run(["trace-cmd", "report", "-N", "-t", "-i", dat])
    c.ok(rc == 0 and not err.strip(), label + "trace-cmd report -N runs cleanly",
         "exit %d: %s" % (rc, err.strip()[:300]))
    first = out.splitlines()[0] if out else ""
    c.ok(ncpus is not None and first == "cpus=%d" % ncpus,
         label + "trace-cmd report shows cpus=%s" % ncpus,
         "first line '%s'" % first)
    compare_events(c, label, txt, parse_tc(out), comm_sets,
                   "trace-cmd report (print fmt)")

    rc, out, err = run(["trace-cmd", "report", "-t", "-i", dat])
    c.ok(rc == 0, label + "trace-cmd report (default plugins) runs",
         "exit %d: %s" % (rc, err.strip()[:300]))
    check_plugin_output(c, label, txt, parse_tc(out), event_formats(dat))
    default_out = out

    rc, out, err = run(["trace-cmd", "report", "--ts-check", "-i", dat])
    c.ok(rc == 0 and "went backwards" not in err,
         label + "trace-cmd report --ts-check",
         "exit %d: %s" % (rc, err.strip()[:300]))

    rc, out, err = run(["trace-cmd", "report", "-l", "-t", "-i", dat])
    lat = parse_tc(out, latency=True)
    why = None
    if len(lat) != len(txt):
        why = "%d events, the text has %d" % (len(lat), len(txt))
    exp_cpu, got_cpu = by_cpu(txt), by_cpu(lat)
    for cpu in exp_cpu:
        for e, g in zip(exp_cpu[cpu], got_cpu.get(cpu, [])):
            exp = latency_expect(e["flags"])
            gf = g["flags"]
            if why is None and (len(gf) != 5 or any(
                    ch not in allowed for ch, allowed in zip(gf, exp))):
                why = "flags %s for the text's %s\n#   text:      %s\n" \
                      "#   trace-cmd: %s" % (gf, e["flags"], e["line"].strip(),
                                           g["line"].strip())
    c.ok(rc == 0 and why is None,
         label + "trace-cmd report -l: latency flags match the text's",
         why or "exit %d" % rc)

    with tempfile.TemporaryDirectory(prefix="kmark-v7.") as tmp:
        v7 = os.path.join(tmp, "v7.dat")
        rc, _, err = run(["trace-cmd", "convert", "--file-version", "7",
                          "-i", dat, "-o", v7])
        ok = rc == 0 and os.path.exists(v7)
        out = ""
        if ok:
            rc, out, err = run(["trace-cmd", "report", "-t", "-i", v7])
            ok = rc == 0
        same = [e["line"] for e in parse_tc(out)] == \
            [e["line"] for e in parse_tc(default_out)]
        c.ok(ok and same and out.startswith("cpus=%s\n" % ncpus),
             label + "trace-cmd convert --file-version 7: same report",
             "exit %d: %s" % (rc, err.strip()[:300]) if not ok else
             "the version 7 file reports differently")


def check_live(c, label, dat, ncpus, expect, recorded):
    """A trace.dat without the kernel's text of its records: trace-cmd and
    libkshark agree with each other and with kmark's own count."""
    if not shutil.which("trace-cmd"):
        c.ok(False, label + "trace-cmd report", "trace-cmd not found; " +
             SETUP_HINT)
        return
    rc, out, err = run(["trace-cmd", "report", "-N", "-t", "-i", dat])
    c.ok(rc == 0 and not err.strip(), label + "trace-cmd report -N runs cleanly",
         "exit %d: %s" % (rc, err.strip()[:300]))
    first = out.splitlines()[0] if out else ""
    c.ok(first == "cpus=%s" % ncpus,
         label + "trace-cmd report shows cpus=%s" % ncpus,
         "first line '%s'" % first)
    tc = parse_tc(out)
    if recorded is not None:
        c.ok(len(tc) == recorded,
             label + "trace-cmd report: as many events as kmark recorded (%d)"
             % recorded, "%d events" % len(tc))
    for name, least in expect:
        n = sum(1 for e in tc if e["name"] == name)
        c.ok(n >= least, label + "trace-cmd report: %s events >= %d (%d)" % (
            name, least, n), "only %d" % n)
    rc, _, err = run(["trace-cmd", "report", "--ts-check", "-i", dat])
    c.ok(rc == 0 and "went backwards" not in err,
         label + "trace-cmd report --ts-check",
         "exit %d: %s" % (rc, err.strip()[:300]))
    ents, why = kshark_entries(dat)
    if c.ok(ents is not None, label + "KernelShark (libkshark) loads it", why):
        key = [(e["cpu"], e["pid"], e["name"], e["ns"]) for e in tc]
        got = [(g["cpu"], g["pid"], g["name"].split("/")[-1], g["ts"])
               for g in ents]
        c.ok(sorted(key) == sorted(got),
             label + "KernelShark (libkshark): the same events as trace-cmd "
             "(CPU, pid, name, timestamp)",
             "%d entries, %d events; first difference: %s" % (
                 len(got), len(key), next(
                     (str(x) for x in sorted(set(key) ^ set(got))), "order")))


# --- KernelShark -----------------------------------------------------------------

class KsEntry(ctypes.Structure):
    _fields_ = [("next", ctypes.c_void_p), ("visible", ctypes.c_uint16),
                ("stream_id", ctypes.c_int16), ("event_id", ctypes.c_int16),
                ("cpu", ctypes.c_int16), ("pid", ctypes.c_int32),
                ("offset", ctypes.c_int64), ("ts", ctypes.c_int64)]


def kshark_dump(dat, plugin):
    lib = ctypes.CDLL(KSHARK_LIB)
    lib.kshark_instance.restype = ctypes.c_bool
    lib.kshark_load_entries.restype = ctypes.c_ssize_t
    lib.kshark_get_event_name.restype = ctypes.c_char_p
    lib.kshark_get_task.restype = ctypes.c_char_p
    lib.kshark_register_plugin.restype = ctypes.c_void_p
    ctx = ctypes.c_void_p()
    if not lib.kshark_instance(ctypes.byref(ctx)):
        print(json.dumps({"error": "kshark_instance failed"}))
        return 1
    if plugin and not lib.kshark_register_plugin(ctx, b"sched_events",
                                                 plugin.encode()):
        print(json.dumps({"error": "cannot register " + plugin}))
        return 1
    sd = lib.kshark_open(ctx, dat.encode())
    if sd < 0:
        print(json.dumps({"error": "kshark_open failed: %d" % sd}))
        return 1
    if plugin and lib.kshark_tep_handle_plugins(ctx, sd) < 0:
        print(json.dumps({"error": "kshark_tep_handle_plugins failed"}))
        return 1
    rows = ctypes.POINTER(ctypes.POINTER(KsEntry))()
    n = lib.kshark_load_entries(ctx, sd, ctypes.byref(rows))
    print(json.dumps({"count": n}))
    val = ctypes.c_int64()
    for i in range(max(n, 0)):
        e = rows[i]
        d = {"cpu": e.contents.cpu, "pid": e.contents.pid,
             "ts": e.contents.ts,
             "name": (lib.kshark_get_event_name(e) or b"").decode(
                 "utf-8", "replace"),
             "task": (lib.kshark_get_task(e) or b"").decode(
                 "utf-8", "replace")}
        if d["name"].endswith("/sched_switch") and \
                lib.kshark_read_event_field_int(e, b"prev_state",
                                                ctypes.byref(val)) == 0:
            d["prev_state"] = val.value
        print(json.dumps(d))
    return 0


def kshark_entries(dat, plugin=None):
    cmd = [sys.executable, os.path.abspath(__file__), "--kshark-dump"]
    if plugin:
        cmd += ["--plugin", plugin]
    rc, out, err = run(cmd + [dat])
    lines = [json.loads(x) for x in out.splitlines() if x.startswith("{")]
    if rc or not lines or "error" in lines[0]:
        return None, "exit %d: %s %s" % (
            rc, lines[0].get("error", "") if lines else "", err.strip()[:300])
    return lines[1:], None


def check_kshark(c, label, dat, text):
    _, txt = parse_text(text)
    comm_sets = comms_by_pid(txt)
    name = label + "KernelShark (libkshark)"
    try:
        ctypes.CDLL(KSHARK_LIB)
    except OSError as e:
        c.ok(False, name, "%s; %s" % (e, SETUP_HINT))
        return
    ents, why = kshark_entries(dat)
    if not c.ok(ents is not None, name + ": kshark_open, kshark_load_entries",
                why):
        return
    c.ok(len(ents) == len(txt), name + ": entry count",
         "%d entries, the text has %d" % (len(ents), len(txt)))
    exp_cpu, got_cpu = by_cpu(txt), by_cpu(ents)
    bad = {"cpu": None, "name": None, "task": None, "ts": None}
    for cpu in sorted(set(exp_cpu) | set(got_cpu)):
        ex, gt = exp_cpu.get(cpu, []), got_cpu.get(cpu, [])
        if len(ex) != len(gt) and not bad["cpu"]:
            bad["cpu"] = "CPU %d: %d entries, the text has %d" % (
                cpu, len(gt), len(ex))
        for e, g in zip(ex, gt):
            def note(key, why):
                if not bad[key]:
                    bad[key] = "%s\n#   text:      %s\n#   kshark:    %s" % (
                        why, e["line"].strip(), json.dumps(g))
            if g["name"].split("/")[-1] != e["name"]:
                note("name", "event name")
            if g["pid"] != e["pid"] or not comm_matches(comm_sets, e,
                                                        g["task"])[0]:
                note("task", "task")
            if (g["ts"] + 500) // 1000 != e["us"]:
                note("ts", "timestamp")
    c.ok(not bad["cpu"], name + ": CPU of each entry", bad["cpu"])
    c.ok(not bad["name"], name + ": event names", bad["name"])
    c.ok(not bad["task"], name + ": tasks (pid and name)", bad["task"])
    c.ok(not bad["ts"], name + ": timestamps", bad["ts"])

    pname = name + " sched plugin"
    sw = event_formats(dat).get("sched_switch")
    if not any(e["name"] == "sched_switch" for e in txt):
        c.skip(pname, "no sched_switch events")
        return
    if not os.path.exists(KSHARK_SCHED_PLUGIN):
        c.ok(False, pname, "%s missing; %s" % (KSHARK_SCHED_PLUGIN,
                                               SETUP_HINT))
        return
    ents, why = kshark_entries(dat, KSHARK_SCHED_PLUGIN)
    if not c.ok(ents is not None, pname + ": loads", why):
        return
    check_kshark_sched(c, pname, txt, ents, sw)


def check_kshark_sched(c, pname, txt, ents, sw):
    """The entries of KernelShark's scheduling plugin against the text's
    sched_switch events: each switch moved to the task switched in, and
    prev_state, which the plugin reads as a number, decoded as the text
    shows it (with the format's letters, or ftrace's where prev_state is
    not a number: then it cannot match, and fails)."""
    bad_pid = bad_state = None
    n = 0
    table = state_table(sw)
    for e, g in zip(sorted(txt, key=lambda x: (x["cpu"], x["us"])),
                    sorted(ents, key=lambda x: (x["cpu"], x["ts"]))):
        if e["name"] != "sched_switch":
            continue
        n += 1
        a = kv(e["args"])
        # the plugin moves a switch to the task switched in
        if str(g["pid"]) != a.get("next_pid") and not bad_pid:
            bad_pid = "pid %d, next_pid %s\n#   text: %s" % (
                g["pid"], a.get("next_pid"), e["line"].strip())
        st = decode_state(g.get("prev_state", -1), table)
        if st != a.get("prev_state") and not bad_state:
            bad_state = "prev_state %s (%s), the text has %s\n#   text: %s" % (
                g.get("prev_state"), st, a.get("prev_state"),
                e["line"].strip())
    c.ok(n and not bad_pid, pname + ": switches moved to next_pid",
         bad_pid or "no switch seen")
    c.ok(not bad_state, pname + ": numeric prev_state matches the text",
         bad_state and bad_state + (
             "" if is_numeric(sw, "prev_state") else "\n# prev_state is not "
             "a number in this kernel's format: the plugin reads ftrace's "
             "long prev_state"))


# --- traceshark ----------------------------------------------------------------------

def check_traceshark(c, label, dat):
    """traceshark is a GUI: it runs under a private Xvfb, loads the
    'trace-cmd report' text, prints timings on stdout when done, and shows
    a modal error dialog (a second top-level window) when it could not
    read the file or found no event."""
    name = label + "traceshark opens the trace-cmd report output"
    for tool in ("traceshark", "Xvfb", "xwininfo", "trace-cmd"):
        if not shutil.which(tool):
            c.ok(False, name, "%s not found; %s" % (tool, SETUP_HINT))
            return
    with tempfile.TemporaryDirectory(prefix="kmark-ts.") as tmp:
        asc = os.path.join(tmp, "trace.asc")
        rc, out, err = run(["trace-cmd", "report", "-i", dat])
        with open(asc, "w") as f:
            f.write(out)
        xvfb = subprocess.Popen(["Xvfb", "-displayfd", "1", "-nolisten",
                                 "tcp", "-screen", "0", "1280x1024x24"],
                                stdout=subprocess.PIPE,
                                stderr=subprocess.DEVNULL)
        ts = None
        try:
            disp = xvfb.stdout.readline().decode().strip()
            if not disp:
                c.ok(False, name, "Xvfb did not start")
                return
            env = dict(os.environ, DISPLAY=":" + disp,
                       XDG_RUNTIME_DIR=tmp, HOME=tmp)
            log = os.path.join(tmp, "out")
            with open(log, "w") as lf:
                ts = subprocess.Popen(["traceshark", asc], stdout=lf,
                                      stderr=subprocess.STDOUT, env=env)
            done = False
            for _ in range(300):
                time.sleep(0.1)
                with open(log) as lf:
                    text = lf.read()
                if "tracePlot->show took" in text or ts.poll() is not None:
                    done = "tracePlot->show took" in text
                    break
            time.sleep(2)	# an error dialog comes after the timings
            _, tree, _ = run(["xwininfo", "-root", "-children"], 10, env)
            env_ok = ts.poll() is None
            wins = [x for x in tree.splitlines()
                    if '("traceshark" "Traceshark")' in x]
            why = None
            if not done:
                why = "did not finish loading: %s" % text.strip()[-300:]
            elif not env_ok:
                why = "exited with %s" % ts.returncode
            elif len(wins) != 1:
                why = "%d top-level windows (an error dialog is open)" % \
                    len(wins)
            c.ok(why is None, name, why)
        finally:
            for p in (ts, xvfb):
                if p and p.poll() is None:
                    p.kill()
                    p.wait()


# --- Perfetto ---------------------------------------------------------------------------

def check_perfetto(c, label, text):
    """Perfetto's systrace importer: '# tracer' in the first bytes (trace
    type detection), every event line matching its line pattern, and the
    sched_switch / sched_wakeup arguments it converts to numbers."""
    name = label + "Perfetto systrace text"
    c.ok("# tracer" in text[:128], name + ": '# tracer' in the first 128 bytes",
         "first bytes: %r" % text[:128])
    bad_line = bad_sw = bad_wk = None
    nev = nsw = 0
    for line in text.splitlines():
        if not line.strip() or line.startswith("#") or \
                re.match(r"^CPU:\d+ \[LOST \d+ EVENTS\]$", line):
            continue
        m = SYSTRACE_RE.search(line)
        if not m:
            bad_line = bad_line or line
            continue
        nev += 1
        args = line[m.end():].strip()
        a = kv(args)
        try:
            if m.group(5) == "sched_switch":
                nsw += 1
                for k in ("prev_pid", "prev_prio", "next_pid", "next_prio"):
                    int(a[k])
                a["prev_comm"], a["next_comm"], a["prev_state"]
            elif m.group(5) == "sched_wakeup":
                int(a["pid"])
                int(a["target_cpu"])
        except (KeyError, ValueError) as e:
            if m.group(5) == "sched_switch":
                bad_sw = bad_sw or "%s: %s" % (e, line)
            else:
                bad_wk = bad_wk or "%s: %s" % (e, line)
    c.ok(nev and not bad_line, name + ": every event line matches the "
         "systrace pattern", "no match: %r" % bad_line if bad_line
         else "no event line")
    c.ok(not bad_sw, name + ": sched_switch key=value with numeric pids and "
         "prios (%d)" % nsw, bad_sw)
    c.ok(not bad_wk, name + ": sched_wakeup numeric pid and target_cpu",
         bad_wk)


def main(argv):
    import argparse
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--label", default="")
    ap.add_argument("--text", action="store_true")
    ap.add_argument("--traceshark", action="store_true")
    ap.add_argument("--kshark-dump", action="store_true")
    ap.add_argument("--plugin")
    ap.add_argument("files", nargs="+")
    o = ap.parse_args(argv)
    label = o.label + ": " if o.label else ""
    if o.kshark_dump:
        return kshark_dump(o.files[0], o.plugin)
    c = Checks()
    if o.text:
        with open(o.files[0], errors="replace") as f:
            check_perfetto(c, label, f.read())
    else:
        if len(o.files) != 2:
            ap.error("DAT and TRACE_TXT expected")
        dat, txt = o.files
        with open(txt, errors="replace") as f:
            text = f.read()
        check_tracecmd(c, label, dat, text)
        check_kshark(c, label, dat, text)
        if o.traceshark:
            check_traceshark(c, label, dat)
    return 1 if c.failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

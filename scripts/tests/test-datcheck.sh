#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# userspace/tests/datcheck.py's viewer checks on canned input: a skip is
# counted as a skip, never as a pass; and where the comms are __data_loc
# strings and prev_state a string, the sched plugins' checks (trace-cmd's
# default plugins, KernelShark's scheduling plugin) still compare what the
# viewer shows with the kernel's text, decoded, and fail (they used to be
# skipped and counted as passed); with ftrace's layout they pass. On the
# guests' recordings (qemu-tests/dat_check.py), only the skips
# qemu-tests/skips.py expects are skips: the "owners" recording has no
# sched events; the "same" one must.
top=$(cd "$(dirname "$0")/../.." && pwd)
python3 - "$top/userspace/tests" "$top/qemu-tests" <<'PY'
import contextlib
import io
import re
import sys
sys.path.insert(0, sys.argv[1])
sys.path.insert(0, sys.argv[2])
import datcheck
import dat_check

numeric = open(sys.argv[1] +
               '/fixtures/raw-x86_64/events/sched/sched_switch/format').read()
wakeup = open(sys.argv[1] +
              '/fixtures/raw-x86_64/events/sched/sched_wakeup/format').read()
# The same events as a kernel that records comms and prev_state as strings.
strings = re.sub(r'char (prev_comm|next_comm)\[16\];(\toffset:\d+;)\tsize:16;',
                 r'__data_loc char[] \1;\2\tsize:4;', numeric)
strings = strings.replace('long prev_state;', '__data_loc char[] prev_state;')
strings = re.sub(r'print fmt: .*', 'print fmt: "prev_comm=%s prev_pid=%d '
                 'prev_prio=%d prev_state=%s ==> next_comm=%s next_pid=%d '
                 'next_prio=%d", __get_str(prev_comm), REC->prev_pid, '
                 'REC->prev_prio, __get_str(prev_state), __get_str(next_comm), '
                 'REC->next_pid, REC->next_prio', strings)
wakeup_str = re.sub(r'char comm\[16\];(\toffset:\d+;)\tsize:16;',
                    r'__data_loc char[] comm;\1\tsize:4;', wakeup)
assert '__data_loc char[] prev_state' in strings and 'long' not in strings
assert '__data_loc char[] comm' in wakeup_str

text = '''# tracer: kmark
          kmping-334     [000] d....     1.961900: sched_wakeup: comm=kmpong pid=335 prio=120 target_cpu=000
          kmping-334     [000] d....     1.961910: sched_switch: prev_comm=kmping prev_pid=334 prev_prio=120 prev_state=S ==> next_comm=kmpong next_pid=335 next_prio=120
'''
_, txt = datcheck.parse_text(text)
# trace-cmd report -t with its default plugins: what libtraceevent's sched
# plugin prints for ftrace's layout, and for strings (the 4 bytes of each
# __data_loc word as a comm, the word's bits as prev_state's letters).
good = '''cpus=2
          kmping-334   [000]     1.961900000: sched_wakeup:         kmpong:335 [120] CPU:000
          kmping-334   [000]     1.961910000: sched_switch:         kmping:334 [120] S ==> kmpong:335 [120]
'''
garbled = good.replace('kmpong:335 [120] CPU', ',:335 [120] CPU').replace(
    'kmping:334 [120] S ==> kmpong', '<:334 [120] T|t|Z|X ==> L')
ftrace = {'sched_switch': numeric, 'sched_wakeup': wakeup}
string = {'sched_switch': strings, 'sched_wakeup': wakeup_str}


def run(f, *args):
    c = datcheck.Checks()
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        f(c, *args)
    return c, out.getvalue()


def expect(name, cond, out):
    print(('ok - ' if cond else 'not ok - ') + name)
    if not cond:
        print(''.join('# ' + x + '\n' for x in out.splitlines()), end='')


c, out = run(datcheck.check_plugin_output, 'x: ', txt,
             datcheck.parse_tc(good), ftrace)
expect('trace-cmd plugins, ftrace\'s layout, right output: all pass',
       c.passed >= 3 and not c.failed and not c.skipped, out)
c, out = run(datcheck.check_plugin_output, 'x: ', txt,
             datcheck.parse_tc(garbled), string)
expect('trace-cmd plugins, __data_loc comms and a string prev_state: '
       'comms and prev_state compared and failed, nothing skipped',
       c.failed == 2 and not c.skipped and 'SKIP' not in out and
       re.search(r'not ok - .* comms', out) and
       re.search(r'not ok - .* prev_state', out), out)
c, out = run(datcheck.check_plugin_output, 'x: ', txt,
             datcheck.parse_tc(good), string)
expect('... the same formats with the right output pass (the text decoded)',
       c.passed >= 3 and not c.failed and not c.skipped, out)

# KernelShark's scheduling plugin: it moves a switch to next_pid and reads
# prev_state as a number (for a string, its __data_loc word).
ents = [{'cpu': 0, 'pid': 335, 'ts': 1961900000, 'name': 'sched/sched_wakeup'},
        {'cpu': 0, 'pid': 335, 'ts': 1961910000, 'name': 'sched/sched_switch',
         'prev_state': 1}]
c, out = run(datcheck.check_kshark_sched, 'x', txt, ents, numeric)
expect('KernelShark\'s sched plugin, numeric prev_state: passes',
       c.passed == 2 and not c.failed and not c.skipped, out)
ents[1]['prev_state'] = (2 << 16) | 0x3c
c, out = run(datcheck.check_kshark_sched, 'x', txt, ents, strings)
expect('KernelShark\'s sched plugin, string prev_state: compared and failed, '
       'not skipped', c.failed == 1 and not c.skipped, out)

c, out = run(datcheck.check_plugin_output, 'owners: ',
             [e for e in txt if e['name'] != 'sched_switch' and
              e['name'] != 'sched_wakeup'], [], ftrace)
expect('a recording without sched events: one skip, counted as a skip, '
       'not a pass', c.skipped == 1 and not c.passed and not c.failed and
       'ok - owners: ' in out and '# SKIP no sched_switch' in out, out)

for rec, want in (('owners', (0, 1)), ('same', (1, 0))):
    c = dat_check.ArchChecks('x86_64')
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        datcheck.check_plugin_output(c, rec + ': ', [], [], ftrace)
    expect('dat_check.py: no sched events in the "%s" recording: %s' % (
        rec, 'an expected skip' if want[1] else 'a failure'),
        (c.failed, c.skipped) == want, out.getvalue())
PY

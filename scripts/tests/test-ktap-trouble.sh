#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# qemu-tests/ktap.py's kernel-log check: a failed allocation's report
# inside a fault-injection window passes (its x86_64 form, ended by
# </TASK>, and its i386 form, with no </TASK> before Mem-Info:); the same
# report outside the window, or a warning inside it, is trouble; so is the
# ring buffer's WARN for a failed allocation of another CPU's buffer
# (trace_rb_cpu_prepare()), which passes inside the window only.
top=$(cd "$(dirname "$0")/../.." && pwd)
python3 - "$top/qemu-tests" <<'PY'
import sys
sys.path.insert(0, sys.argv[1])
from ktap import find_trouble

x86_64 = '''[ 1.0] kmark-testprog: page allocation failure: order:0, mode:0xcc0(GFP_KERNEL)
[ 1.0] CPU: 0 UID: 0 PID: 9 Comm: kmark-testprog
[ 1.0] Call Trace:
[ 1.0]  <TASK>
[ 1.0]  dump_stack_lvl+0x5d/0x80
[ 1.0]  </TASK>
[ 1.0] Mem-Info:
[ 1.0] active_anon:4 inactive_anon:111'''.split('\n')
i386 = '''[ 2.0] kmark-testprog: vmalloc error: size 4096, failed to allocated page array size 4, mode:0xcc2(GFP_KERNEL|__GFP_HIGHMEM), nodemask=(null)
[ 2.0] CPU: 1 UID: 0 PID: 1152 Comm: kmark-testprog
[ 2.0] Call Trace:
[ 2.0]  dump_stack_lvl+0x80/0x8d
[ 2.0]  warn_alloc+0x98/0xfd
[ 2.0] EIP: 0xb7fc256d
[ 2.0] Mem-Info:
[ 2.0] free:118769 free_pcp:750 free_cma:0'''.split('\n')
begin = ['[ 0.5] KMARK-FAULT-INJECTION begin (65-fault-injection.sh)']
end = ['[ 3.0] KMARK-FAULT-INJECTION end']
warn = ['[ 2.5] WARNING: CPU: 1 PID: 7 at kernel/trace/kmark.c:10 f+0x1/0x2']
rb_x86_64 = '''[ 1.5] ------------[ cut here ]------------
[ 1.5] failed to allocate ring buffer on CPU 0
[ 1.5] WARNING: CPU: 1 PID: 25 at kernel/trace/ring_buffer.c:7462 trace_rb_cpu_prepare+0xb6/0xd0
[ 1.5] RIP: 0010:trace_rb_cpu_prepare+0xb6/0xd0
[ 1.5] Call Trace:
[ 1.5]  <TASK>
[ 1.5]  cpuhp_invoke_callback+0x1a1/0x1c6
[ 1.5]  </TASK>
[ 1.5] ---[ end trace 0000000000000000 ]---'''.split('\n')
rb_i386 = '''[ 1.6] ------------[ cut here ]------------
[ 1.6] failed to allocate ring buffer on CPU 1
[ 1.6] WARNING: CPU: 0 PID: 31 at kernel/trace/ring_buffer.c:7462 trace_rb_cpu_prepare+0x96/0xb0
[ 1.6] EIP: trace_rb_cpu_prepare+0x96/0xb0
[ 1.6] Call Trace:
[ 1.6]  cpuhp_invoke_callback+0x15a/0x180
[ 1.6] ---[ end trace 0000000000000000 ]---'''.split('\n')
cases = [
    ('an x86_64 allocation-failure report inside the window passes', begin + x86_64 + end, 0),
    ('an i386 allocation-failure report inside the window passes', begin + i386 + end, 0),
    ('a warning after the reports, inside the window, is trouble', begin + x86_64 + i386 + warn + end, 1),
    ('the i386 report outside the window is trouble', i386, 1),
    ('a Call Trace with no allocation failure before it is trouble', begin + i386[2:] + end, 1),
    ("the ring buffer's failed-allocation WARN inside the window passes (x86_64, i386)",
     begin + rb_x86_64 + rb_i386 + end, 0),
    ("the ring buffer's WARN outside the window is trouble", rb_x86_64, 1),
    ("a warning after the ring buffer's, inside the window, is trouble",
     begin + rb_i386 + warn + end, 1),
    ("another WARN's dump inside the window is trouble", begin + rb_x86_64[2:] + end, 1),
]
for name, lines, want in cases:
    got = len(find_trouble(lines))
    print(('ok - ' if (got > 0) == (want > 0) else 'not ok - ') + name +
          ('' if (got > 0) == (want > 0) else f' (found {got})'))
PY

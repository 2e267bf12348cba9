// SPDX-License-Identifier: GPL-2.0
#include <stdlib.h>
#include <string.h>

#include "test.h"
#include "tparse.h"

#define L_SW1 "              sh-72      [001] d..2.     4.512345: sched_switch: prev_comm=sh prev_pid=72 prev_prio=120 prev_state=S ==> next_comm=swapper/1 next_pid=0 next_prio=120"
#define L_SW2 "          <idle>-0       [000] d..2.     4.512400: sched_switch: prev_comm=swapper/0 prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=ping pong next_pid=80 next_prio=120"
#define L_SW3 "       ping pong-80      [000] d..2.     4.512500: sched_switch: prev_comm=ping pong prev_pid=80 prev_prio=120 prev_state=R+ ==> next_comm=sh next_pid=72 next_prio=120"
#define L_WAKE "              sh-72      [001] d.h2.     4.512600: sched_wakeup: comm=ping pong pid=80 prio=120 target_cpu=000"
#define L_SYNC "              sh-72      [000] .....     4.600000: sys_sync: "
#define L_LOST "CPU:1 [LOST 42 EVENTS]"
#define L_KPROBE "              sh-72      [000] .....     4.700000: myopen: (do_sys_openat2+0x0/0x9d) dfd=-100 fname=\"/etc/passwd\""

static char *fields(const struct tl_line *tl)
{
	static char buf[512];

	memcpy(buf, tl->ev.fields, tl->ev.fields_len);
	buf[tl->ev.fields_len] = '\0';
	return buf;
}

static void test_basic(void)
{
	struct tl_line tl;

	check_ll(tl_parse(L_SW1 "\n", &tl), TL_EVENT,
		 "tparse: sched_switch line is an event");
	check_str(tl.ev.comm, "sh", "tparse: comm of right-aligned task");
	check_ll(tl.ev.pid, 72, "tparse: pid of left-aligned pid column");
	check_ll(tl.ev.cpu, 1, "tparse: cpu column [001]");
	check_str(tl.ev.flags, "d..2.", "tparse: five flag characters");
	check_ll((long long)tl.ev.ts_ns, 4512345000LL,
		 "tparse: timestamp 4.512345 in ns");
	check_str(tl.ev.name, "sched_switch", "tparse: event name");
	check_str(fields(&tl),
		  "prev_comm=sh prev_pid=72 prev_prio=120 prev_state=S ==> next_comm=swapper/1 next_pid=0 next_prio=120",
		  "tparse: fields text, newline stripped");

	tl_parse(L_SW2, &tl);
	check_str(tl.ev.comm, "<idle>", "tparse: <idle> comm");
	check_ll(tl.ev.pid, 0, "tparse: <idle> pid 0");

	tl_parse(L_SW3, &tl);
	check_str(tl.ev.comm, "ping pong", "tparse: comm with a space");
	check_ll(tl.ev.pid, 80, "tparse: pid after comm with a space");

	tl_parse(L_WAKE, &tl);
	check_str(tl.ev.flags, "d.h2.", "tparse: hardirq flag kept");
}

static void test_odd_comms(void)
{
	struct tl_line tl;

	check_ll(tl_parse("     my prog [x]-81      [002] ..s1.    10.000001: sys_sync: ", &tl),
		 TL_EVENT, "tparse: comm with brackets parses");
	check_str(tl.ev.comm, "my prog [x]", "tparse: comm with brackets");
	check_ll(tl.ev.pid, 81, "tparse: pid after comm with brackets");
	check_ll(tl.ev.cpu, 2, "tparse: cpu after comm with brackets");

	tl_parse("kworker/0:1-events-15     [000] d..2.     5.000000: sys_sync: ", &tl);
	check_str(tl.ev.comm, "kworker/0:1-events",
		  "tparse: comm with '-' (pid after the last '-')");
	check_ll(tl.ev.pid, 15, "tparse: pid of comm with '-'");

	tl_parse("     a [12] b-99      [003] d..2.     5.000000: sys_sync: ", &tl);
	check_str(tl.ev.comm, "a [12] b",
		  "tparse: comm containing ' [12] ' is not the cpu column");
	check_ll(tl.ev.cpu, 3, "tparse: real cpu column after bracketed digits");

	tl_parse("   x-1 [000] d..2. 1.000000: foo: a=1 [007] b", &tl);
	check_str(tl.ev.name, "foo",
		  "tparse: brackets in fields do not confuse the cpu column");
	check_str(fields(&tl), "a=1 [007] b", "tparse: fields with brackets");
}

static void test_kinds(void)
{
	struct tl_line tl;

	check_ll(tl_parse(L_LOST, &tl), TL_LOST, "tparse: lost-event line");
	check_ll(tl.lost_cpu, 1, "tparse: lost-event cpu");
	check_ll((long long)tl.lost, 42, "tparse: lost-event count");
	check_ll(tl_parse("CPU:3 [LOST 7 EVENTS]\n", &tl), TL_LOST,
		 "tparse: lost-event line with newline");
	check_ll(tl_parse("# tracer: kmark", &tl), TL_HEADER,
		 "tparse: '#' header line");
	check_ll(tl_parse("#           TASK-PID     CPU#  |||||  TIMESTAMP  FUNCTION",
			  &tl), TL_HEADER, "tparse: column header line");
	check_ll(tl_parse("   \n", &tl), TL_BLANK, "tparse: blank line");
	check_ll(tl_parse("hello world", &tl), TL_INVALID,
		 "tparse: garbage is invalid");
	check_ll(tl_parse("   sh-x [000] d..2. 1.0: foo: ", &tl), TL_INVALID,
		 "tparse: non-numeric pid is invalid");
	/* ftrace's (and kmark's) kernel stack: a line, then its frames */
	check_ll(tl_parse("            sync-93      [001] ...1.    12.000001: <stack trace>\n",
			  &tl), TL_EVENT, "tparse: a '<stack trace>' line is an event");
	check_str(tl.ev.name, "kernel_stack", "tparse: named kernel_stack");
	check_ll(tl.ev.pid, 93, "tparse: the stack's pid");
	check_ll((long long)tl.ev.fields_len, 0, "tparse: a stack line has no fields");
	check_ll(tl_parse(" => ksys_sync\n", &tl), TL_FRAME,
		 "tparse: ' => sym' is a stack frame");
	check_ll(tl_parse(" => 0xc10a2b3c", &tl), TL_FRAME,
		 "tparse: a frame without a symbol (no kallsyms)");
	check_ll(tl_parse("            sync-93      [001] ...1.    12.000001: <stack trace> x", &tl),
		 TL_INVALID, "tparse: '<stack trace>' followed by more is no stack line");
}

static void test_kprobe_and_widths(void)
{
	struct tl_line tl;

	tl_parse(L_KPROBE, &tl);
	check_str(tl.ev.name, "myopen", "tparse: kprobe event name");
	check_str(fields(&tl),
		  "(do_sys_openat2+0x0/0x9d) dfd=-100 fname=\"/etc/passwd\"",
		  "tparse: kprobe fields with quoted string");

	tl_parse(L_SYNC, &tl);
	check_ll((long long)tl.ev.fields_len, 0,
		 "tparse: zero-argument event has empty fields");
	check_str(tl.ev.name, "sys_sync", "tparse: zero-argument event name");

	tl_parse("sh-72 [1] d..2. 4.5: foo: x=1", &tl);
	check_ll(tl.ev.cpu, 1, "tparse: narrow cpu column");
	check_ll((long long)tl.ev.ts_ns, 4500000000LL,
		 "tparse: short fractional timestamp");

	tl_parse("  sh-72   [001]   123.123456789: foo: x=1", &tl);
	check_str(tl.ev.flags, "", "tparse: missing flags column tolerated");
	check_ll((long long)tl.ev.ts_ns, 123123456789LL,
		 "tparse: nanosecond timestamp");

	tl_parse("  sh-72   (     70) [001] d..2.  1.000000: foo: x=1", &tl);
	check_ll(tl.ev.pid, 72, "tparse: tgid column tolerated (pid)");
	check_str(tl.ev.comm, "sh", "tparse: tgid column tolerated (comm)");
}

static void test_fields(void)
{
	struct tl_line tl;
	struct tl_switch sw;
	struct tl_wakeup wk;
	char buf[256];

	tl_parse(L_SW3, &tl);
	check_ll(tl_parse_switch(&tl.ev, &sw), 0, "switch: parses");
	check_str(sw.prev_comm, "ping pong", "switch: prev_comm with space");
	check_ll(sw.prev_pid, 80, "switch: prev_pid");
	check_str(sw.prev_state, "R+", "switch: prev_state");
	check_str(sw.next_comm, "sh", "switch: next_comm");
	check_ll(sw.next_pid, 72, "switch: next_pid");
	check_ll(sw.next_prio, 120, "switch: next_prio");

	tl_parse(L_SW2, &tl);
	tl_parse_switch(&tl.ev, &sw);
	check_str(sw.next_comm, "ping pong", "switch: next_comm with space");
	check_ll(sw.next_pid, 80, "switch: next_pid after spaced comm");

	tl_parse(L_WAKE, &tl);
	check_ll(tl_parse_switch(&tl.ev, &sw), -1,
		 "switch: refuses a sched_wakeup event");
	check_ll(tl_parse_wakeup(&tl.ev, &wk), 0, "wakeup: parses");
	check_str(wk.comm, "ping pong", "wakeup: comm with space");
	check_ll(wk.pid, 80, "wakeup: pid");
	check_ll(wk.target_cpu, 0, "wakeup: target_cpu 000");

	tl_parse(L_SW3, &tl);
	tl_pretty_switch(&tl.ev, buf, sizeof(buf));
	check_str(buf, "[   4.512500] CPU0: ping pong (80) switching to sh (72)",
		  "pretty: sched_switch rendering");
	tl_parse("            bash-123     [001] d..2.    12.345678: sched_switch: prev_comm=bash prev_pid=123 prev_prio=120 prev_state=S ==> next_comm=sh next_pid=45 next_prio=120",
		 &tl);
	tl_pretty_switch(&tl.ev, buf, sizeof(buf));
	check_str(buf, "[  12.345678] CPU1: bash (123) switching to sh (45)",
		  "pretty: matches the SystemTap script layout");
	tl_parse(L_SYNC, &tl);
	check_ll(tl_pretty_switch(&tl.ev, buf, sizeof(buf)), -1,
		 "pretty: other events are not rendered");
}

static void test_filter(void)
{
	struct tl_line sw1, sw2, wake;
	struct tl_filter pid80 = { .use_pid = true, .pid = 80 };
	struct tl_filter comm_pp = { .comm = "ping pong" };
	struct tl_filter both = { .use_pid = true, .pid = 72, .comm = "sh" };
	struct tl_filter none = { 0 };

	tl_parse(L_SW1, &sw1);
	tl_parse(L_SW2, &sw2);
	tl_parse(L_WAKE, &wake);
	check(!tl_filter_match(&sw1.ev, &pid80),
	      "filter: -p 80 rejects unrelated sched_switch");
	check(tl_filter_match(&sw2.ev, &pid80),
	      "filter: -p 80 matches next_pid of sched_switch");
	check(tl_filter_match(&sw2.ev, &comm_pp),
	      "filter: -c matches next_comm with a space");
	check(!tl_filter_match(&wake.ev, &pid80),
	      "filter: -p 80 uses the task column for non-switch events");
	check(tl_filter_match(&wake.ev, &both),
	      "filter: -p and -c together match the same task");
	check(tl_filter_match(&sw1.ev, &none), "filter: no filter matches all");
}

static void test_fixture_file(void)
{
	char *buf = fixture("trace_basic.txt"), *line, *save = NULL;
	int counts[TL_INVALID + 1] = { 0 };
	struct tl_line tl;

	for (line = strtok_r(buf, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save))
		counts[tl_parse(line, &tl)]++;
	check_ll(counts[TL_EVENT], 6, "fixture trace_basic: 6 events");
	check_ll(counts[TL_LOST], 1, "fixture trace_basic: 1 lost record");
	check_ll(counts[TL_HEADER], 12, "fixture trace_basic: 12 header lines");
	check_ll(counts[TL_INVALID], 0, "fixture trace_basic: no invalid line");
	free(buf);
}

void test_tparse(void)
{
	test_basic();
	test_odd_comms();
	test_kinds();
	test_kprobe_and_widths();
	test_fields();
	test_filter();
	test_fixture_file();
}

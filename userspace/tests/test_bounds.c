// SPDX-License-Identifier: GPL-2.0
/*
 * Numbers read from trace input are untrusted: an absurd CPU number must
 * not size an allocation (kmark report used to abort on "[2000000000]"),
 * and numbers that do not fit their type must not wrap or be truncated
 * into plausible-looking values.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "proc.h"
#include "report_core.h"
#include "test.h"
#include "tparse.h"

#define EV(task, cpu, ts, rest) \
	"  " task "  [" cpu "] d..2. " ts ": " rest "\n"
#define SYNC(cpu, ts)	EV("sh-72", cpu, ts, "sys_sync: ")

static struct scratch s;

/* "kmark report FILE" on the given trace text */
static void report(const char *trace, struct proc_result *r)
{
	char path[256];
	const char *argv[] = { "report", path, NULL };
	FILE *f;

	snprintf(path, sizeof(path), "%s/bounds.trace", s.root);
	f = fopen(path, "w");
	if (!f || fputs(trace, f) < 0 || fclose(f))
		abort();
	proc_run(r, s.root, NULL, NULL, argv);
}

static void test_report_cpu(void)
{
	struct proc_result r;

	report(SYNC("000", "1.000000")
	       SYNC("2000000000", "1.500000")
	       SYNC("001", "2.000000"), &r);
	check_ll(r.rc, 0, "bounds: report with CPU [2000000000] exits 0 (no abort)");
	check_has(r.err, "kmark: warning: ",
		  "bounds: report warns about the absurd CPU number");
	check_has(r.err, "CPU", "bounds: the warning mentions the CPU number");
	check_has(r.out, "events: 2,", "bounds: the line with the absurd CPU is skipped");
	check(r.out && !strstr(r.out, "2000000000"),
	      "bounds: no row for CPU 2000000000");
	proc_result_free(&r);

	report(SYNC("000", "1.000000")
	       "CPU:2000000000 [LOST 5 EVENTS]\n", &r);
	check_ll(r.rc, 0, "bounds: report with CPU:2000000000 LOST record exits 0");
	check_has(r.out, "lost: 0 in 0 record(s)",
		  "bounds: LOST record with an absurd CPU is skipped");
	proc_result_free(&r);

	/* would overflow int: must not become CPU -1 -> counted as CPU 0 */
	report(SYNC("99999999999999999999", "1.000000"), &r);
	check_ll(r.rc, 0, "bounds: report with a CPU overflowing long exits 0");
	check_has(r.out, "events: 0,",
		  "bounds: overflowing CPU number is not counted (not as CPU 0)");
	proc_result_free(&r);

	/* the largest accepted CPU number works */
	report(SYNC("8191", "1.000000"), &r);
	check_has(r.out, " 8191          0          1          0\n",
		  "bounds: CPU 8191 (the limit) is accepted");
	check_str(r.err, "", "bounds: no warning for CPU 8191");
	proc_result_free(&r);
}

static void test_parse_numbers(void)
{
	struct tl_line tl;
	struct tl_switch sw;
	struct tl_wakeup wk;

	check(tl_parse(SYNC("8192", "1.000000"), &tl) != TL_EVENT,
	      "bounds: tl_parse rejects CPU 8192");
	check(tl_parse(SYNC("4294967296", "1.000000"), &tl) != TL_EVENT,
	      "bounds: tl_parse rejects CPU 2^32 (would truncate to 0)");
	check(tl_parse(EV("sh-99999999999999999999", "000", "1.000000",
			  "sys_sync: "), &tl) != TL_EVENT,
	      "bounds: tl_parse rejects a pid overflowing long");
	check(tl_parse(EV("sh-4294967368", "000", "1.000000", "sys_sync: "),
		       &tl) != TL_EVENT,
	      "bounds: tl_parse rejects a pid overflowing int (2^32+72)");
	check(tl_parse(SYNC("000", "99999999999999999999.000000"), &tl) !=
	      TL_EVENT,
	      "bounds: tl_parse rejects a timestamp overflowing 64-bit ns");
	check(tl_parse(SYNC("000", "18446744074.000000"), &tl) != TL_EVENT,
	      "bounds: tl_parse rejects 18446744074 s (over 2^64 ns)");
	check(tl_parse(SYNC("000", "18446744073.709551616"), &tl) != TL_EVENT,
	      "bounds: tl_parse rejects 2^64 ns exactly");
	check(tl_parse(SYNC("000", "18446744073.709551615"), &tl) == TL_EVENT &&
	      tl.ev.ts_ns == 18446744073709551615ULL,
	      "bounds: tl_parse accepts 2^64-1 ns (the largest timestamp)");
	check(tl_parse("CPU:0 [LOST 99999999999999999999 EVENTS]", &tl) !=
	      TL_LOST,
	      "bounds: tl_parse rejects a lost count overflowing 64 bits");
	check(tl_parse("CPU:4294967296 [LOST 1 EVENTS]", &tl) != TL_LOST,
	      "bounds: tl_parse rejects LOST CPU 2^32");

	check(tl_parse(EV("x-1", "000", "1.000000",
			  "sched_switch: prev_comm=a prev_pid=4294967306 "
			  "prev_prio=120 prev_state=S ==> next_comm=b "
			  "next_pid=11 next_prio=120"), &tl) == TL_EVENT &&
	      tl_parse_switch(&tl.ev, &sw) != 0,
	      "bounds: sched_switch prev_pid 2^32+10 is refused, not truncated to 10");
	check(tl_parse(EV("x-1", "000", "1.000000",
			  "sched_switch: prev_comm=a prev_pid=10 "
			  "prev_prio=120 prev_state=S ==> next_comm=b "
			  "next_pid=99999999999999999999 next_prio=120"),
		       &tl) == TL_EVENT && tl_parse_switch(&tl.ev, &sw) != 0,
	      "bounds: sched_switch next_pid overflowing long is refused");
	check(tl_parse(EV("x-1", "000", "1.000000",
			  "sched_wakeup: comm=a pid=4294967306 prio=120 "
			  "target_cpu=000"), &tl) == TL_EVENT &&
	      tl_parse_wakeup(&tl.ev, &wk) != 0,
	      "bounds: sched_wakeup pid 2^32+10 is refused");
	check(tl_parse(EV("x-1", "000", "1.000000",
			  "sched_switch: prev_comm=a prev_pid=10 "
			  "prev_prio=-1 prev_state=S ==> next_comm=b "
			  "next_pid=11 next_prio=120"), &tl) == TL_EVENT &&
	      !tl_parse_switch(&tl.ev, &sw) && sw.prev_prio == -1,
	      "bounds: negative prio (deadline tasks) still accepted");
}

static void test_report_sums(void)
{
	struct report r;
	bool timed_out;
	pid_t pid;
	int rc;

	/* lost counts are added up: saturate, never wrap around */
	report_init(&r);
	report_feed_line(&r, "CPU:0 [LOST 18446744073709551615 EVENTS]");
	report_feed_line(&r, "CPU:0 [LOST 5 EVENTS]");
	check(r.lost == ~0ULL && r.ncpus == 1 && r.cpus[0].lost == ~0ULL,
	      "bounds: lost totals saturate instead of wrapping to 4");
	report_free(&r);

	/*
	 * A struct tl_line built by hand is checked too. In a child: growing
	 * the CPU array to 2e9 entries aborts (out of memory).
	 */
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		struct tl_line tl;

		report_init(&r);
		memset(&tl, 0, sizeof(tl));
		tl.kind = TL_LOST;
		tl.lost_cpu = 2000000000;
		tl.lost = 1;
		report_feed(&r, &tl);
		tl.kind = TL_EVENT;
		tl.ev.cpu = 2000000000;
		report_feed(&r, &tl);
		_exit(r.ncpus < 2000000000u ? 0 : 1);
	}
	rc = wait_child(pid, PROC_TIMEOUT_S, &timed_out);
	check(!timed_out && rc == 0,
	      "bounds: report_feed does not grow the CPU array to an absurd size (rc %d)",
	      rc);
}

/* the command line too: --time must be a finite number of seconds */
static void test_time(void)
{
	const char *const inf[] = { "-d", s.dir, "stream", "-t", "inf", NULL };
	const char *const big[] = { "-d", s.dir, "stream", "-t", "1e300", NULL };
	struct proc_result r;

	proc_run(&r, s.root, NULL, NULL, inf);
	check_ll(r.rc, 2, "bounds: 'stream -t inf' is a usage error");
	proc_result_free(&r);
	proc_run(&r, s.root, NULL, NULL, big);
	check(!r.timed_out && r.rc == 0,
	      "bounds: 'stream -t 1e300' works (the wait is clamped)");
	proc_result_free(&r);
}

void test_bounds(void)
{
	scratch_setup(&s);
	test_time();
	test_report_cpu();
	scratch_cleanup(&s);
	test_parse_numbers();
	test_report_sums();
}

// SPDX-License-Identifier: GPL-2.0
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report_core.h"
#include "test.h"

#define SW(cpu, ts, pcomm, ppid, ncomm, npid) \
	"  x-1  [" cpu "] d..2. " ts ": sched_switch: prev_comm=" pcomm \
	" prev_pid=" ppid " prev_prio=120 prev_state=S ==> next_comm=" \
	ncomm " next_pid=" npid " next_prio=120"

static void test_fixture(void)
{
	char *buf = fixture("trace_basic.txt"), *line, *save = NULL, *out;
	const struct rp_task *t;
	struct report r;
	size_t len;
	FILE *f;

	report_init(&r);
	for (line = strtok_r(buf, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save))
		report_feed_line(&r, line);
	free(buf);

	check_ll((long long)r.events, 6, "report: 6 events");
	check_ll((long long)r.lost, 42, "report: 42 lost events");
	check_ll((long long)r.lost_records, 1, "report: 1 lost record");
	t = report_task(&r, 80);
	check(t != NULL, "report: task 80 exists");
	if (t) {
		check_ll((long long)t->oncpu_ns, 100000,
			 "report: task 80 on CPU for 100us (4.5124 -> 4.5125)");
		check_ll((long long)t->sw_in, 1, "report: task 80 switched in once");
		check_ll((long long)t->sw_out, 1, "report: task 80 switched out once");
		check_ll((long long)t->wakeups, 1, "report: task 80 woken once");
		check_str(t->comm, "ping pong", "report: task 80 comm");
	}
	t = report_task(&r, 72);
	check(t && t->oncpu_ns == 0,
	      "report: sh has no complete interval (not guessed)");
	check(t && t->events == 4, "report: sh task column has 4 events");
	check(r.ncpus == 2 && r.cpus[0].switches == 2 && r.cpus[1].switches == 1,
	      "report: switches per CPU 2/1");
	check(r.ncpus == 2 && r.cpus[0].events == 4 && r.cpus[1].events == 2,
	      "report: events per CPU 4/2");
	check(r.ncpus == 2 && r.cpus[1].lost == 42 && r.cpus[0].lost == 0,
	      "report: lost events accounted to CPU1");

	report_sort(&r);
	check_ll(r.ntasks ? r.tasks[0].pid : -1, 80, "report: sorted by time on CPU");
	check(report_task(&r, 72) && report_task(&r, 72)->pid == 72,
	      "report: lookup still works after sorting");

	f = open_memstream(&out, &len);
	report_print(&r, f, "fixture", 0);
	fclose(f);
	check_has(out, "     80  ping pong      0.000100        1        1        1        1\n",
		  "report: aligned task row");
	check_has(out, "only complete intervals",
		  "report: header explains the ON-CPU rule");
	check_has(out, "Lost events: 42 (CPU1: 42)", "report: lost summary");
	check_has(out, "    1          1          2         42\n",
		  "report: aligned CPU row");
	free(out);

	f = open_memstream(&out, &len);
	report_print(&r, f, "fixture", 1);
	fclose(f);
	check_has(out, "Tasks (1 of 3", "report: --top 1 limits the table");
	check(!strstr(out, "     72  sh"), "report: --top 1 hides other tasks");
	free(out);
	report_free(&r);
}

static void test_synthetic(void)
{
	struct report r;
	const struct rp_task *t;

	report_init(&r);
	report_feed_line(&r, SW("000", "1.000000", "idle", "0", "a", "10"));
	report_feed_line(&r, SW("000", "1.500000", "a", "10", "b", "11"));
	report_feed_line(&r, SW("000", "2.000000", "b", "11", "a", "10"));
	report_feed_line(&r, SW("000", "2.250000", "a", "10", "idle", "0"));
	t = report_task(&r, 10);
	check_ll(t ? (long long)t->oncpu_ns : -1, 750000000,
		 "report: two intervals summed (0.5 s + 0.25 s)");
	t = report_task(&r, 11);
	check_ll(t ? (long long)t->oncpu_ns : -1, 500000000,
		 "report: interval of the task in between");
	check_ll(t ? (long long)t->sw_in : -1, 1, "report: switches in of b");
	report_free(&r);

	report_init(&r);
	report_feed_line(&r, SW("000", "1.000000", "idle", "0", "a", "10"));
	report_feed_line(&r, "CPU:0 [LOST 3 EVENTS]");
	report_feed_line(&r, SW("000", "2.000000", "a", "10", "idle", "0"));
	t = report_task(&r, 10);
	check_ll(t ? (long long)t->oncpu_ns : -1, 0,
		 "report: interval across lost events not counted");
	check_ll((long long)r.mismatched, 0,
		 "report: lost events are not a mismatch");
	report_free(&r);

	report_init(&r);
	report_feed_line(&r, SW("000", "1.000000", "idle", "0", "a", "10"));
	report_feed_line(&r, SW("001", "2.000000", "a", "10", "idle", "0"));
	t = report_task(&r, 10);
	check_ll(t ? (long long)t->oncpu_ns : -1, 0,
		 "report: switch in/out on different CPUs not counted");
	report_feed_line(&r, SW("000", "3.000000", "c", "12", "idle", "0"));
	check_ll((long long)r.mismatched, 1,
		 "report: unexpected switch-out counted as mismatch");
	report_feed_line(&r, "              sh-72      [001] d.h2.     4.512600: sched_wakeup: comm=a pid=10 prio=120 target_cpu=000");
	report_feed_line(&r, "              sh-72      [001] d.h2.     4.512700: sched_wakeup: comm=a pid=10 prio=120 target_cpu=000");
	t = report_task(&r, 10);
	check_ll(t ? (long long)t->wakeups : -1, 2,
		 "report: wakeups counted for the woken pid");
	check_ll((long long)r.first_ts, 1000000000LL, "report: first timestamp");
	check_ll((long long)r.last_ts, 4512700000LL, "report: last timestamp");
	report_free(&r);
}

void test_report(void)
{
	test_fixture();
	test_synthetic();
}

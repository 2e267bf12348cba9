// SPDX-License-Identifier: GPL-2.0
/*
 * The parser and the report on real kernel output: fixtures/real-ARCH.trace
 * is trace_pipe as a guest printed it (scripts/capture-fixtures.sh),
 * real-ARCH.counts the kernel's own counts for that run.
 *
 * The expected values are NOT taken from the parser: this file scans each
 * line on its own with POSIX regular expressions (a different technique
 * from tparse.c's hand-written scanner) and derives everything from those
 * captures: the kind of each line, every field of every event, the
 * sched_switch/sched_wakeup fields, and the per-task/per-CPU aggregates of
 * the report (including time on CPU, by the documented rule). Then it
 * compares, line by line and number by number, with what tl_parse(),
 * report_core and the kmark binary ("kmark report FILE") produce. The
 * kernel's counts are a second, external truth for the number of event
 * lines and of lost events.
 */
#include <regex.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "proc.h"
#include "report_core.h"
#include "test.h"
#include "tparse.h"

/* ---- independent scan ------------------------------------------------ */

static const char re_event_src[] =
	"^ *(.+)-([0-9]+) +(\\([ 0-9-]*\\) +)?\\[([0-9]+)\\] +"
	"([^ ]+ +)?([0-9]+)\\.([0-9]+): ([^ :]+): ?(.*)$";
enum { EV_COMM = 1, EV_PID, EV_TGID, EV_CPU, EV_FLAGS, EV_SEC, EV_FRAC,
       EV_NAME, EV_FIELDS, EV_N };

static const char re_lost_src[] = "^CPU:([0-9]+) \\[LOST ([0-9]+) EVENTS\\]$";

static const char re_switch_src[] =
	"^prev_comm=(.+) prev_pid=(-?[0-9]+) prev_prio=(-?[0-9]+) "
	"prev_state=([^ ]+) ==> next_comm=(.+) next_pid=(-?[0-9]+) "
	"next_prio=(-?[0-9]+)$";

static const char re_wakeup_src[] =
	"^comm=(.+) pid=(-?[0-9]+) prio=(-?[0-9]+) target_cpu=([0-9]+)$";

static regex_t re_event, re_lost, re_switch, re_wakeup;

/* capture i of m as a string in a static ring of buffers */
static const char *cap(const char *s, const regmatch_t *m, int i)
{
	static char ring[16][256];
	static int next;
	char *b = ring[next++ % 16];
	size_t len;

	if (m[i].rm_so < 0) {
		b[0] = '\0';
		return b;
	}
	len = (size_t)(m[i].rm_eo - m[i].rm_so);
	if (len >= sizeof(ring[0]))
		len = sizeof(ring[0]) - 1;
	memcpy(b, s + m[i].rm_so, len);
	b[len] = '\0';
	return b;
}

static long long num(const char *s, const regmatch_t *m, int i)
{
	return strtoll(cap(s, m, i), NULL, 10);
}

/* "2.547566" -> ns, by string padding rather than arithmetic on parts */
static unsigned long long ts_ns(const char *sec, const char *frac)
{
	char digits[64];

	snprintf(digits, sizeof(digits), "%s%.9s", sec, frac);
	while (strlen(digits) < strlen(sec) + 9)
		strcat(digits, "0");
	return strtoull(digits, NULL, 10);
}

#define MAXT	64
#define MAXC	8

struct task_truth {
	int pid;
	char comm[64];
	unsigned long sw_in, sw_out, wakeups, events;
	unsigned long long oncpu;
};

struct truth {
	long long event_lines, lost_lines, other_lines, blank_lines;
	unsigned long long lost;
	long long switches, wakeups, kprobes, odd_comm, space_comm;
	struct task_truth t[MAXT];
	int nt;
	unsigned long cpu_events[MAXC], cpu_switches[MAXC];
	unsigned long long cpu_lost[MAXC];
	bool cpu_seen[MAXC];
	/* running state for time on CPU */
	bool cur_valid[MAXC];
	int cur_pid[MAXC];
	unsigned long long cur_since[MAXC];
	unsigned long long first_ts, last_ts;
	bool have_ts;
};

static struct task_truth *ttask(struct truth *t, int pid, const char *comm)
{
	int i;

	for (i = 0; i < t->nt; i++)
		if (t->t[i].pid == pid)
			break;
	if (i == t->nt) {
		if (t->nt == MAXT)
			abort();
		memset(&t->t[i], 0, sizeof(t->t[i]));
		t->t[i].pid = pid;
		t->nt++;
	}
	if (pid == 0)
		strcpy(t->t[i].comm, "<idle>");
	else if (comm && *comm)
		snprintf(t->t[i].comm, sizeof(t->t[i].comm), "%s", comm);
	return &t->t[i];
}

/* ---- comparison of one line -------------------------------------------- */

static long long mismatches;

__attribute__((format(printf, 3, 4)))
static void mismatch(const char *arch, int lineno, const char *fmt, ...)
{
	va_list ap;

	if (mismatches++ < 10) {
		printf("#   real %s line %d: ", arch, lineno);
		va_start(ap, fmt);
		vprintf(fmt, ap);
		va_end(ap);
		putchar('\n');
	}
}

static void cmp_str(const char *arch, int n, const char *what,
		    const char *got, const char *exp)
{
	if (strcmp(got, exp))
		mismatch(arch, n, "%s: parser '%s', scan '%s'", what, got, exp);
}

static void cmp_ll(const char *arch, int n, const char *what,
		   long long got, long long exp)
{
	if (got != exp)
		mismatch(arch, n, "%s: parser %lld, scan %lld", what, got, exp);
}

static void do_switch(const char *arch, int n, struct truth *t,
		      const struct tl_line *tl, const char *f,
		      unsigned long long ts, int cpu)
{
	regmatch_t m[8];
	struct tl_switch sw;
	struct task_truth *prev, *next;
	int prev_pid, next_pid;

	t->switches++;
	if (regexec(&re_switch, f, 8, m, 0)) {
		mismatch(arch, n, "sched_switch fields do not match the scan");
		return;
	}
	if (tl_parse_switch(&tl->ev, &sw)) {
		mismatch(arch, n, "tl_parse_switch refused a valid line");
	} else {
		cmp_str(arch, n, "prev_comm", sw.prev_comm, cap(f, m, 1));
		cmp_ll(arch, n, "prev_pid", sw.prev_pid, num(f, m, 2));
		cmp_ll(arch, n, "prev_prio", sw.prev_prio, num(f, m, 3));
		cmp_str(arch, n, "prev_state", sw.prev_state, cap(f, m, 4));
		cmp_str(arch, n, "next_comm", sw.next_comm, cap(f, m, 5));
		cmp_ll(arch, n, "next_pid", sw.next_pid, num(f, m, 6));
		cmp_ll(arch, n, "next_prio", sw.next_prio, num(f, m, 7));
	}
	if (!strcmp(cap(f, m, 1), "[pong]-x") || !strcmp(cap(f, m, 5), "[pong]-x"))
		t->odd_comm++;

	prev_pid = (int)num(f, m, 2);
	next_pid = (int)num(f, m, 6);
	t->cpu_switches[cpu]++;
	prev = ttask(t, prev_pid, cap(f, m, 1));
	prev->sw_out++;
	if (t->cur_valid[cpu] && t->cur_pid[cpu] == prev_pid &&
	    ts >= t->cur_since[cpu])
		prev->oncpu += ts - t->cur_since[cpu];
	next = ttask(t, next_pid, cap(f, m, 5));
	next->sw_in++;
	t->cur_valid[cpu] = true;
	t->cur_pid[cpu] = next_pid;
	t->cur_since[cpu] = ts;
}

static void do_wakeup(const char *arch, int n, struct truth *t,
		      const struct tl_line *tl, const char *f)
{
	regmatch_t m[5];
	struct tl_wakeup wk;

	t->wakeups++;
	if (regexec(&re_wakeup, f, 5, m, 0)) {
		mismatch(arch, n, "sched_wakeup fields do not match the scan");
		return;
	}
	if (tl_parse_wakeup(&tl->ev, &wk)) {
		mismatch(arch, n, "tl_parse_wakeup refused a valid line");
	} else {
		cmp_str(arch, n, "wakeup comm", wk.comm, cap(f, m, 1));
		cmp_ll(arch, n, "wakeup pid", wk.pid, num(f, m, 2));
		cmp_ll(arch, n, "wakeup prio", wk.prio, num(f, m, 3));
		cmp_ll(arch, n, "wakeup target_cpu", wk.target_cpu, num(f, m, 4));
	}
	ttask(t, (int)num(f, m, 2), cap(f, m, 1))->wakeups++;
}

static void do_event(const char *arch, int n, struct truth *t,
		     const char *line, const regmatch_t *m,
		     const struct tl_line *tl)
{
	char fields[1024];
	const char *comm = cap(line, m, EV_COMM), *flags = cap(line, m, EV_FLAGS);
	const char *name = cap(line, m, EV_NAME);
	unsigned long long ts = ts_ns(cap(line, m, EV_SEC), cap(line, m, EV_FRAC));
	int pid = (int)num(line, m, EV_PID), cpu = (int)num(line, m, EV_CPU);
	char fl[16];
	size_t len;

	t->event_lines++;
	snprintf(fields, sizeof(fields), "%s", cap(line, m, EV_FIELDS));
	len = strlen(fields);
	while (len && (fields[len - 1] == ' ' || fields[len - 1] == '\t'))
		fields[--len] = '\0';
	snprintf(fl, sizeof(fl), "%s", flags);
	len = strlen(fl);
	while (len && fl[len - 1] == ' ')
		fl[--len] = '\0';
	if (!strcmp(comm, "[pong]-x"))
		t->odd_comm++;
	if (strchr(comm, ' '))
		t->space_comm++;
	if (!strcmp(name, "myopen") || !strcmp(name, "myopenret"))
		t->kprobes++;
	if (cpu < 0 || cpu >= MAXC)
		abort();

	if (tl->kind != TL_EVENT) {
		mismatch(arch, n, "event line not parsed as an event");
		return;
	}
	cmp_str(arch, n, "comm", tl->ev.comm, comm);
	cmp_ll(arch, n, "pid", tl->ev.pid, pid);
	cmp_ll(arch, n, "cpu", tl->ev.cpu, cpu);
	cmp_str(arch, n, "flags", tl->ev.flags, fl);
	cmp_ll(arch, n, "ts_ns", (long long)tl->ev.ts_ns, (long long)ts);
	cmp_str(arch, n, "name", tl->ev.name, name);
	if (tl->ev.fields_len != strlen(fields) ||
	    strncmp(tl->ev.fields, fields, tl->ev.fields_len))
		mismatch(arch, n, "fields: parser '%.*s', scan '%s'",
			 (int)tl->ev.fields_len, tl->ev.fields, fields);

	/* aggregates, as the report documents them */
	if (!t->have_ts || ts < t->first_ts)
		t->first_ts = ts;
	if (!t->have_ts || ts > t->last_ts)
		t->last_ts = ts;
	t->have_ts = true;
	t->cpu_seen[cpu] = true;
	t->cpu_events[cpu]++;
	ttask(t, pid, comm)->events++;
	if (!strcmp(name, "sched_switch"))
		do_switch(arch, n, t, tl, fields, ts, cpu);
	else if (!strcmp(name, "sched_wakeup"))
		do_wakeup(arch, n, t, tl, fields);
}

/* ---- report checks ----------------------------------------------------- */

static void check_report_core(const char *arch, const struct truth *t,
			      const struct report *r)
{
	long long bad = 0;
	int i;

	check_ll((long long)r->events, t->event_lines,
		 "real %s: report events = event lines found by the scan", arch);
	check_ll((long long)r->lost, (long long)t->lost,
		 "real %s: report lost = sum of LOST lines found by the scan", arch);
	check_ll((long long)r->lost_records, t->lost_lines,
		 "real %s: report lost records = LOST lines found by the scan", arch);
	check_ll((long long)r->invalid, 0, "real %s: report: no unparsed line", arch);
	check_ll((long long)r->first_ts, (long long)t->first_ts,
		 "real %s: report first timestamp = scan", arch);
	check_ll((long long)r->last_ts, (long long)t->last_ts,
		 "real %s: report last timestamp = scan", arch);
	check_ll((long long)r->ntasks, t->nt,
		 "real %s: report has as many tasks as the scan", arch);
	for (i = 0; i < t->nt; i++) {
		const struct task_truth *e = &t->t[i];
		const struct rp_task *g = report_task(r, e->pid);

		if (!g) {
			printf("#   real %s: task %d missing\n", arch, e->pid);
			bad++;
			continue;
		}
		if (strcmp(g->comm, e->comm) || g->sw_in != e->sw_in ||
		    g->sw_out != e->sw_out || g->wakeups != e->wakeups ||
		    g->events != e->events || g->oncpu_ns != e->oncpu) {
			printf("#   real %s: task %d: report %s %lu/%lu/%lu/%lu %llu, scan %s %lu/%lu/%lu/%lu %llu\n",
			       arch, e->pid, g->comm, g->sw_in, g->sw_out,
			       g->wakeups, g->events, g->oncpu_ns, e->comm,
			       e->sw_in, e->sw_out, e->wakeups, e->events,
			       e->oncpu);
			bad++;
		}
	}
	check_ll(bad, 0,
		 "real %s: per task comm, switches in/out, wakeups, events, time on CPU = scan",
		 arch);
	bad = 0;
	for (i = 0; i < MAXC; i++) {
		bool seen = (size_t)i < r->ncpus && r->cpus[i].seen;

		if (seen != t->cpu_seen[i]) {
			printf("#   real %s: cpu %d: seen by report %d, by scan %d\n",
			       arch, i, seen, t->cpu_seen[i]);
			bad++;
		}
		if (!seen)
			continue;
		if (r->cpus[i].events != t->cpu_events[i] ||
		    r->cpus[i].switches != t->cpu_switches[i] ||
		    r->cpus[i].lost != t->cpu_lost[i]) {
			printf("#   real %s: cpu %d: report %lu/%lu/%llu, scan %lu/%lu/%llu\n",
			       arch, i, r->cpus[i].events, r->cpus[i].switches,
			       r->cpus[i].lost, t->cpu_events[i],
			       t->cpu_switches[i], t->cpu_lost[i]);
			bad++;
		}
	}
	check_ll(bad, 0, "real %s: per CPU events, switches, lost = scan", arch);
}

/*
 * Rows of the binary's task table: "PID  COMM  ON-CPU  IN  OUT  WAKE  EV",
 * COMM may contain spaces, so read the numbers from both ends.
 */
static void check_report_binary(const char *arch, const char *path,
				const struct truth *t)
{
	const char *argv[] = { "report", path, NULL };
	struct proc_result r;
	char *p, *nl, scratch[] = "/tmp/kmark-real.XXXXXX";
	long long rows = 0, bad = 0;
	bool in_tasks = false;

	if (!mkdtemp(scratch))
		abort();
	proc_run(&r, scratch, NULL, NULL, argv);
	check_ll(r.rc, 0, "real %s: kmark report exits 0", arch);
	for (p = r.out; p && *p; p = nl + 1) {
		char row[256], comm[128], oncpu[32];
		unsigned long in, out, wk, ev, sec, usec;
		int pid, i, a, b;
		const struct task_truth *e = NULL;

		nl = strchr(p, '\n');
		if (!nl)
			break;
		snprintf(row, sizeof(row), "%.*s", (int)(nl - p), p);
		if (!strncmp(row, "Tasks (", 7)) {
			in_tasks = true;
			continue;
		}
		if (!in_tasks || strstr(row, "COMM"))
			continue;
		if (!row[0])
			break;
		/* pid and comm from the left, numbers from the right */
		if (sscanf(row, "%d %n", &pid, &a) != 1)
			continue;
		b = (int)strlen(row);
		for (i = 0; i < 5; i++) {
			while (b > a && row[b - 1] == ' ')
				b--;
			while (b > a && row[b - 1] != ' ')
				b--;
		}
		if (sscanf(row + b, "%31s %lu %lu %lu %lu", oncpu, &in, &out,
			   &wk, &ev) != 5 ||
		    sscanf(oncpu, "%lu.%lu", &sec, &usec) != 2) {
			bad++;
			continue;
		}
		while (b > a && row[b - 1] == ' ')
			b--;
		snprintf(comm, sizeof(comm), "%.*s", b - a, row + a);
		rows++;
		for (i = 0; i < t->nt; i++)
			if (t->t[i].pid == pid)
				e = &t->t[i];
		if (!e || strcmp(comm, e->comm) || in != e->sw_in ||
		    out != e->sw_out || wk != e->wakeups || ev != e->events ||
		    sec * 1000000 + usec != e->oncpu / 1000) {
			printf("#   real %s: kmark report row '%s' differs from the scan\n",
			       arch, row);
			bad++;
		}
	}
	check_ll(rows, t->nt, "real %s: kmark report prints one row per task", arch);
	check_ll(bad, 0, "real %s: kmark report rows = scan (comm, times, counts)",
		 arch);
	proc_result_free(&r);
	{
		char cmd[128];

		snprintf(cmd, sizeof(cmd), "rm -rf '%s'", scratch);
		if (system(cmd))
			fprintf(stderr, "cannot remove %s\n", scratch);
	}
}

/* ---- per architecture -------------------------------------------------- */

static void test_one(const char *arch)
{
	char name[64], path[4096], *buf, *counts, *line, *next;
	unsigned long long want_read = 0, want_lost = 0, want_written = 0;
	struct truth *t = calloc(1, sizeof(*t));
	struct report r;
	struct tl_line tl;
	regmatch_t m[EV_N];
	int lineno = 0;

	snprintf(name, sizeof(name), "real-%s.counts", arch);
	counts = fixture(name);
	check(sscanf(counts, "written=%llu read=%llu lost=%llu", &want_written,
		     &want_read, &want_lost) == 3,
	      "real %s: counts file parses", arch);
	snprintf(name, sizeof(name), "real-%s.trace", arch);
	snprintf(path, sizeof(path), "%s/%s", fixtures, name);
	buf = fixture(name);

	mismatches = 0;
	report_init(&r);
	for (line = buf; *line; line = next) {
		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		else
			next = line + strlen(line);
		lineno++;
		tl_parse(line, &tl);
		report_feed(&r, &tl);
		if (!regexec(&re_event, line, EV_N, m, 0)) {
			do_event(arch, lineno, t, line, m, &tl);
		} else if (!regexec(&re_lost, line, 3, m, 0)) {
			int cpu = (int)num(line, m, 1);

			t->lost_lines++;
			t->lost += (unsigned long long)num(line, m, 2);
			if (cpu < 0 || cpu >= MAXC)
				abort();
			t->cpu_lost[cpu] += (unsigned long long)num(line, m, 2);
			t->cpu_seen[cpu] = true;
			t->cur_valid[cpu] = false;
			if (tl.kind != TL_LOST)
				mismatch(arch, lineno, "LOST line not parsed as such");
			cmp_ll(arch, lineno, "lost cpu", tl.lost_cpu, cpu);
			cmp_ll(arch, lineno, "lost count", (long long)tl.lost,
			       num(line, m, 2));
		} else if (line[strspn(line, " \t")] == '\0') {
			t->blank_lines++;
			if (tl.kind != TL_BLANK)
				mismatch(arch, lineno, "blank line not TL_BLANK");
		} else {
			t->other_lines++;
			mismatch(arch, lineno, "the scan recognises nothing: '%s'",
				 line);
		}
	}

	/* the fixture is what it claims to be (scan vs the kernel) */
	check_ll(t->other_lines, 0,
		 "real %s: the scan sees only event, LOST and blank lines", arch);
	check_ll(t->event_lines, (long long)want_read,
		 "real %s: event lines (scan) = events the kernel says were read", arch);
	check_ll((long long)t->lost, (long long)want_lost,
		 "real %s: LOST lines (scan) = the kernel's overrun + dropped", arch);
	check(t->switches > 0 && t->wakeups > 0 && t->kprobes > 0,
	      "real %s: has sched_switch (%lld), sched_wakeup (%lld), kprobe (%lld) lines",
	      arch, t->switches, t->wakeups, t->kprobes);
	check(t->odd_comm > 0 && t->space_comm > 0,
	      "real %s: has comms '[pong]-x' (%lld) and with a space (%lld)",
	      arch, t->odd_comm, t->space_comm);

	/* the parser against the scan, line by line */
	check_ll(mismatches, 0,
		 "real %s: tl_parse and the sched_switch/wakeup parsers agree with the scan on every field of all %d lines",
		 arch, lineno);

	/* the report against aggregates of the scan */
	check_report_core(arch, t, &r);
	report_free(&r);
	check_report_binary(arch, path, t);

	free(t);
	free(buf);
	free(counts);
}

void test_real(void)
{
	if (regcomp(&re_event, re_event_src, REG_EXTENDED) ||
	    regcomp(&re_lost, re_lost_src, REG_EXTENDED) ||
	    regcomp(&re_switch, re_switch_src, REG_EXTENDED) ||
	    regcomp(&re_wakeup, re_wakeup_src, REG_EXTENDED)) {
		check(0, "real: regular expressions compile");
		return;
	}
	test_one("x86_64");
	test_one("i386");
	regfree(&re_event);
	regfree(&re_lost);
	regfree(&re_switch);
	regfree(&re_wakeup);
}

// SPDX-License-Identifier: GPL-2.0
#include <stdlib.h>
#include <string.h>

#include "report_core.h"
#include "strlist.h"

void report_init(struct report *r)
{
	memset(r, 0, sizeof(*r));
}

void report_free(struct report *r)
{
	free(r->tasks);
	free(r->hash);
	free(r->cpus);
	memset(r, 0, sizeof(*r));
}

static size_t hash_pid(int pid, size_t size)
{
	return ((unsigned int)pid * 2654435761u) & (size - 1);
}

static void rehash(struct report *r)
{
	size_t i;

	free(r->hash);
	r->hsize = r->hsize ? r->hsize * 2 : 256;
	r->hash = xmalloc(r->hsize * sizeof(*r->hash));
	memset(r->hash, 0, r->hsize * sizeof(*r->hash));
	for (i = 0; i < r->ntasks; i++) {
		size_t h = hash_pid(r->tasks[i].pid, r->hsize);

		while (r->hash[h])
			h = (h + 1) & (r->hsize - 1);
		r->hash[h] = i + 1;
	}
}

static struct rp_task *lookup(const struct report *r, int pid)
{
	size_t h;

	if (!r->hsize)
		return NULL;
	for (h = hash_pid(pid, r->hsize); r->hash[h];
	     h = (h + 1) & (r->hsize - 1))
		if (r->tasks[r->hash[h] - 1].pid == pid)
			return &r->tasks[r->hash[h] - 1];
	return NULL;
}

const struct rp_task *report_task(const struct report *r, int pid)
{
	return lookup(r, pid);
}

static struct rp_task *task(struct report *r, int pid, const char *comm)
{
	struct rp_task *t = lookup(r, pid);

	if (!t) {
		if (r->ntasks == r->atasks) {
			r->atasks = r->atasks ? r->atasks * 2 : 64;
			r->tasks = xrealloc(r->tasks,
					    r->atasks * sizeof(*r->tasks));
		}
		t = &r->tasks[r->ntasks++];
		memset(t, 0, sizeof(*t));
		t->pid = pid;
		if (r->ntasks * 2 > r->hsize) {
			rehash(r);
		} else {
			size_t h = hash_pid(pid, r->hsize);

			while (r->hash[h])
				h = (h + 1) & (r->hsize - 1);
			r->hash[h] = r->ntasks;
		}
	}
	if (pid == 0)
		strcpy(t->comm, "<idle>");
	else if (comm && *comm)
		strlcpy_n(t->comm, sizeof(t->comm), comm, strlen(comm));
	return t;
}

/* n must be in [0, TL_MAX_CPUS): checked by report_feed() */
static struct rp_cpu *cpu(struct report *r, int n)
{
	if ((size_t)n >= r->ncpus) {
		size_t old = r->ncpus;

		r->ncpus = (size_t)n + 1;
		r->cpus = xrealloc(r->cpus, r->ncpus * sizeof(*r->cpus));
		memset(r->cpus + old, 0, (r->ncpus - old) * sizeof(*r->cpus));
	}
	r->cpus[n].seen = true;
	return &r->cpus[n];
}

static void feed_switch(struct report *r, const struct tl_event *ev,
			struct rp_cpu *c)
{
	struct tl_switch sw;
	struct rp_task *prev, *next;

	if (tl_parse_switch(ev, &sw)) {
		r->bad_switch++;
		return;
	}
	c->switches++;
	prev = task(r, sw.prev_pid, sw.prev_comm);
	prev->sw_out++;
	if (c->cur_valid && c->cur_pid == sw.prev_pid &&
	    ev->ts_ns >= c->cur_since)
		prev->oncpu_ns = tl_sat_add(prev->oncpu_ns,
					    ev->ts_ns - c->cur_since);
	else if (c->cur_valid)
		r->mismatched++;
	next = task(r, sw.next_pid, sw.next_comm);
	next->sw_in++;
	c->cur_valid = true;
	c->cur_pid = sw.next_pid;
	c->cur_since = ev->ts_ns;
}

/*
 * The CPU array is sized by the highest CPU number: never trust one that
 * tl_parse() did not check (callers may build struct tl_line by hand).
 */
static bool valid_cpu(struct report *r, int n)
{
	if (n >= 0 && n < TL_MAX_CPUS)
		return true;
	r->invalid++;
	r->out_of_range++;
	return false;
}

void report_feed(struct report *r, const struct tl_line *tl)
{
	const struct tl_event *ev = &tl->ev;
	struct rp_cpu *c;
	struct tl_wakeup wk;

	r->lines++;
	switch (tl->kind) {
	case TL_HEADER:
		r->headers++;
		return;
	case TL_BLANK:
		return;
	case TL_FRAME:
		r->frames++;
		return;
	case TL_INVALID:
		r->invalid++;
		if (tl->out_of_range)
			r->out_of_range++;
		return;
	case TL_LOST:
		if (!valid_cpu(r, tl->lost_cpu))
			return;
		c = cpu(r, tl->lost_cpu);
		c->lost = tl_sat_add(c->lost, tl->lost);
		/* the running interval on that CPU can no longer be trusted */
		c->cur_valid = false;
		r->lost = tl_sat_add(r->lost, tl->lost);
		r->lost_records++;
		return;
	case TL_EVENT:
		if (!valid_cpu(r, ev->cpu))
			return;
		break;
	}

	r->events++;
	if (!r->have_ts || ev->ts_ns < r->first_ts)
		r->first_ts = ev->ts_ns;
	if (!r->have_ts || ev->ts_ns > r->last_ts)
		r->last_ts = ev->ts_ns;
	r->have_ts = true;
	c = cpu(r, ev->cpu);
	c->events++;
	task(r, ev->pid, ev->comm)->events++;

	if (!strcmp(ev->name, "sched_switch")) {
		feed_switch(r, ev, c);
	} else if (!strcmp(ev->name, "sched_wakeup")) {
		if (tl_parse_wakeup(ev, &wk))
			r->bad_switch++;
		else
			task(r, wk.pid, wk.comm)->wakeups++;
	}
}

void report_feed_line(struct report *r, const char *line)
{
	struct tl_line tl;

	tl_parse(line, &tl);
	report_feed(r, &tl);
}

static int cmp_task(const void *a, const void *b)
{
	const struct rp_task *x = a, *y = b;

	if (x->oncpu_ns != y->oncpu_ns)
		return x->oncpu_ns > y->oncpu_ns ? -1 : 1;
	if (x->sw_in != y->sw_in)
		return x->sw_in > y->sw_in ? -1 : 1;
	return (x->pid > y->pid) - (x->pid < y->pid);
}

void report_sort(struct report *r)
{
	qsort(r->tasks, r->ntasks, sizeof(*r->tasks), cmp_task);
	rehash(r);
}

static void fmt_secs(char *buf, size_t size, unsigned long long ns)
{
	snprintf(buf, size, "%llu.%06llu", ns / NSEC_PER_SEC,
		 ns % NSEC_PER_SEC / 1000);
}

void report_print(const struct report *r, FILE *out, const char *title,
		  size_t top)
{
	size_t i, n, cw = 4;
	char a[32], b[32], s[32];
	int printed_lost = 0;

	fprintf(out, "kmark report: %s\n", title);
	if (r->have_ts) {
		fmt_secs(a, sizeof(a), r->first_ts);
		fmt_secs(b, sizeof(b), r->last_ts);
		fmt_secs(s, sizeof(s), r->last_ts - r->first_ts);
		fprintf(out, "span: %s .. %s (%s s)\n", a, b, s);
	}
	fprintf(out, "events: %llu, lost: %llu in %llu record(s), "
		"unparsed lines: %llu\n",
		r->events, r->lost, r->lost_records, r->invalid);
	if (r->frames)
		fprintf(out, "stack frames: %llu (of the kernel_stack events)\n",
			r->frames);
	fprintf(out, "note: ON-CPU counts only complete intervals (switched in "
		"and later switched out on the same CPU);\n"
		"      partial intervals at the start/end of the trace or "
		"across lost events are not counted.\n");

	n = r->ntasks;
	if (top && top < n)
		n = top;
	for (i = 0; i < n; i++)
		if (strlen(r->tasks[i].comm) > cw)
			cw = strlen(r->tasks[i].comm);
	fprintf(out, "\nTasks (%zu of %zu, by time on CPU):\n", n, r->ntasks);
	fprintf(out, "%7s  %-*s  %12s  %7s  %7s  %7s  %7s\n", "PID", (int)cw,
		"COMM", "ON-CPU(s)", "SW-IN", "SW-OUT", "WAKEUPS", "EVENTS");
	for (i = 0; i < n; i++) {
		const struct rp_task *t = &r->tasks[i];

		fmt_secs(s, sizeof(s), t->oncpu_ns);
		fprintf(out, "%7d  %-*s  %12s  %7lu  %7lu  %7lu  %7lu\n",
			t->pid, (int)cw, t->comm, s, t->sw_in, t->sw_out,
			t->wakeups, t->events);
	}

	fprintf(out, "\nCPUs:\n%5s  %9s  %9s  %9s\n", "CPU", "SWITCHES",
		"EVENTS", "LOST");
	for (i = 0; i < r->ncpus; i++) {
		const struct rp_cpu *c = &r->cpus[i];

		if (!c->seen)
			continue;
		fprintf(out, "%5zu  %9lu  %9lu  %9llu\n", i, c->switches,
			c->events, c->lost);
	}

	fprintf(out, "\nLost events: %llu", r->lost);
	for (i = 0; i < r->ncpus; i++) {
		if (!r->cpus[i].lost)
			continue;
		fprintf(out, "%sCPU%zu: %llu", printed_lost++ ? ", " : " (",
			i, r->cpus[i].lost);
	}
	fprintf(out, "%s\n", printed_lost ? ")" : "");
	if (r->mismatched)
		fprintf(out, "note: %llu switch-out(s) did not match the task "
			"last switched in on that CPU (not counted)\n",
			r->mismatched);
}

// SPDX-License-Identifier: GPL-2.0
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "strlist.h"
#include "tparse.h"

#define TL_STACK_LINE "<stack trace>"

static const char *skip_blanks(const char *p, const char *end)
{
	while (p < end && (*p == ' ' || *p == '\t'))
		p++;
	return p;
}

static bool all_digits(const char *p, const char *end)
{
	if (p >= end)
		return false;
	for (; p < end; p++)
		if (!isdigit((unsigned char)*p))
			return false;
	return true;
}

/* result of parsing a number or a line */
enum pr {
	PR_NO,		/* not the expected layout */
	PR_OK,
	PR_RANGE,	/* the layout, but a number is out of range */
};

/* the decimal digits spanning [p, end) exactly, at most max */
static enum pr parse_dec(const char *p, const char *end,
			 unsigned long long max, unsigned long long *out)
{
	unsigned long long v = 0;

	if (!all_digits(p, end))
		return PR_NO;
	for (; p < end; p++) {
		unsigned int d = (unsigned int)(*p - '0');

		if (v > max / 10 || v * 10 > max - d)
			return PR_RANGE;
		v = v * 10 + d;
	}
	*out = v;
	return PR_OK;
}

static const char *skip_digits(const char *p, const char *end)
{
	while (p < end && isdigit((unsigned char)*p))
		p++;
	return p;
}

/* "CPU:N [LOST M EVENTS]" */
static enum pr parse_lost(const char *p, const char *end, struct tl_line *out)
{
	const char *cpu_s, *cpu_e, *n_s;
	unsigned long long cpu = 0, n = 0;
	enum pr rc, rn;

	if (end - p < 4 || strncmp(p, "CPU:", 4))
		return PR_NO;
	cpu_s = p + 4;
	cpu_e = skip_digits(cpu_s, end);
	p = cpu_e;
	if (end - p < 7 || strncmp(p, " [LOST ", 7))
		return PR_NO;
	n_s = p + 7;
	p = skip_digits(n_s, end);
	if (end - p != 8 || strncmp(p, " EVENTS]", 8))
		return PR_NO;
	rc = parse_dec(cpu_s, cpu_e, TL_MAX_CPUS - 1, &cpu);
	rn = parse_dec(n_s, p, ~0ULL, &n);
	if (rc == PR_NO || rn == PR_NO)
		return PR_NO;
	if (rc == PR_RANGE || rn == PR_RANGE)
		return PR_RANGE;
	out->kind = TL_LOST;
	out->lost_cpu = (int)cpu;
	out->lost = n;
	return PR_OK;
}

/* "SSSS.UUUUUU" exactly spanning [p, end), in 64-bit nanoseconds */
static enum pr parse_ts(const char *p, const char *end,
			unsigned long long *ns)
{
	const char *dot = memchr(p, '.', (size_t)(end - p));
	unsigned long long sec = 0, frac = 0;
	int digits = 0;
	enum pr r;

	if (!dot || !all_digits(dot + 1, end) || end - dot - 1 > 9)
		return PR_NO;
	r = parse_dec(p, dot, ~0ULL / NSEC_PER_SEC, &sec);
	if (r != PR_OK)
		return r;
	for (p = dot + 1; p < end; p++, digits++)
		frac = frac * 10 + (unsigned long long)(*p - '0');
	for (; digits < 9; digits++)
		frac *= 10;
	if (sec * NSEC_PER_SEC > ~0ULL - frac)
		return PR_RANGE;
	*ns = sec * NSEC_PER_SEC + frac;
	return PR_OK;
}

/* the timestamp token "SSSS.UUUUUU:" spanning [tok, tokend) */
static enum pr parse_ts_token(const char *tok, const char *tokend,
			      unsigned long long *ns)
{
	if (tokend == tok || tokend[-1] != ':')
		return PR_NO;
	return parse_ts(tok, tokend - 1, ns);
}

/*
 * Try to parse the event assuming the CPU column "[NNN]" starts at br.
 * Everything left of it is "COMM-PID" (COMM may contain anything).
 */
static enum pr parse_event_at(const char *line, const char *br,
			      const char *end, struct tl_event *ev)
{
	const char *p, *e, *dash, *c, *tok, *tokend, *colon;
	unsigned long long v;
	bool range = false;
	enum pr r;

	/* task column: trailing blanks, optional "(tgid)", "COMM-PID" */
	e = br;
	while (e > line && e[-1] == ' ')
		e--;
	if (e > line && e[-1] == ')') {
		const char *open = e - 1;

		while (open > line && *open != '(')
			open--;
		if (*open != '(')
			return PR_NO;
		e = open;
		while (e > line && e[-1] == ' ')
			e--;
	}
	dash = e;
	while (dash > line && dash[-1] != '-')
		dash--;
	if (dash == line)
		return PR_NO;
	r = parse_dec(dash, e, INT_MAX, &v);
	if (r == PR_NO)
		return PR_NO;
	range |= r == PR_RANGE;
	ev->pid = r == PR_OK ? (int)v : -1;
	c = skip_blanks(line, dash - 1);
	strlcpy_n(ev->comm, sizeof(ev->comm), c, (size_t)(dash - 1 - c));

	/* CPU column */
	p = br + 1;
	e = skip_digits(p, end);
	if (e >= end || *e != ']')
		return PR_NO;
	r = parse_dec(p, e, TL_MAX_CPUS - 1, &v);
	if (r == PR_NO)
		return PR_NO;
	range |= r == PR_RANGE;
	ev->cpu = r == PR_OK ? (int)v : -1;
	p = skip_blanks(e + 1, end);

	/* optional flags column, then the timestamp ending in ':' */
	tok = p;
	tokend = tok;
	while (tokend < end && *tokend != ' ')
		tokend++;
	ev->flags[0] = '\0';
	if (tokend == tok)
		return PR_NO;
	r = parse_ts_token(tok, tokend, &ev->ts_ns);
	if (r == PR_NO) {
		strlcpy_n(ev->flags, sizeof(ev->flags), tok,
			  (size_t)(tokend - tok));
		tok = skip_blanks(tokend, end);
		tokend = tok;
		while (tokend < end && *tokend != ' ')
			tokend++;
		r = parse_ts_token(tok, tokend, &ev->ts_ns);
		if (r == PR_NO)
			return PR_NO;
	}
	range |= r == PR_RANGE;

	/* ftrace's kernel stack: "<stack trace>" where the name would be */
	p = skip_blanks(tokend, end);
	if ((size_t)(end - p) == sizeof(TL_STACK_LINE) - 1 &&
	    !memcmp(p, TL_STACK_LINE, sizeof(TL_STACK_LINE) - 1)) {
		strlcpy_n(ev->name, sizeof(ev->name), "kernel_stack",
			  strlen("kernel_stack"));
		ev->fields = end;
		ev->fields_len = 0;
		return range ? PR_RANGE : PR_OK;
	}
	/* event name */
	colon = p;
	while (colon < end && *colon != ':' && *colon != ' ')
		colon++;
	if (colon == p || colon >= end || *colon != ':')
		return PR_NO;
	strlcpy_n(ev->name, sizeof(ev->name), p, (size_t)(colon - p));

	/* fields: rest of the line, trailing blanks trimmed */
	p = colon + 1;
	if (p < end && *p == ' ')
		p++;
	e = end;
	while (e > p && (e[-1] == ' ' || e[-1] == '\t'))
		e--;
	ev->fields = p;
	ev->fields_len = (size_t)(e - p);
	return range ? PR_RANGE : PR_OK;
}

enum tl_kind tl_parse(const char *line, struct tl_line *out)
{
	const char *end = line + strlen(line), *p, *br;
	bool range = false;
	enum pr r;

	memset(out, 0, sizeof(*out));
	while (end > line && (end[-1] == '\n' || end[-1] == '\r'))
		end--;
	p = skip_blanks(line, end);
	if (p == end)
		return out->kind = TL_BLANK;
	if (*p == '#')
		return out->kind = TL_HEADER;
	if (end - p >= 3 && !memcmp(p, "=> ", 3))
		return out->kind = TL_FRAME;
	r = parse_lost(p, end, out);
	if (r == PR_OK)
		return TL_LOST;
	range |= r == PR_RANGE;

	/* candidates for the CPU column: " [" digits "] " */
	for (br = memchr(line, '[', (size_t)(end - line)); br;
	     br = memchr(br + 1, '[', (size_t)(end - br - 1))) {
		const char *d = br + 1;

		if (br == line || br[-1] != ' ')
			continue;
		while (d < end && isdigit((unsigned char)*d))
			d++;
		if (d == br + 1 || d >= end || *d != ']' ||
		    (d + 1 < end && d[1] != ' '))
			continue;
		r = parse_event_at(line, br, end, &out->ev);
		if (r == PR_OK) {
			out->kind = TL_EVENT;
			return TL_EVENT;
		}
		range |= r == PR_RANGE;
		memset(&out->ev, 0, sizeof(out->ev));
	}
	out->out_of_range = range;
	return out->kind = TL_INVALID;
}

/*
 * Split "k0=v0 k1=v1 ..." where keys are known and values (except the
 * last) may contain spaces: value i runs until separator i+1. seps[0] is
 * the leading "key=", the others include their leading " " (or " ==> ").
 * The last value runs until the next space.
 */
static int split_known(const char *s, size_t len, const char *const *seps,
		       size_t n, const char **val, size_t *vlen)
{
	const char *end = s + len, *p = s;
	size_t i, l0 = strlen(seps[0]);

	if (len < l0 || strncmp(s, seps[0], l0))
		return -1;
	p = s + l0;
	for (i = 1; i < n; i++) {
		size_t l = strlen(seps[i]);
		const char *q = p;

		while (q + l <= end && strncmp(q, seps[i], l))
			q++;
		if (q + l > end)
			return -1;
		val[i - 1] = p;
		vlen[i - 1] = (size_t)(q - p);
		p = q + l;
	}
	val[n - 1] = p;
	while (p < end && *p != ' ')
		p++;
	vlen[n - 1] = (size_t)(p - val[n - 1]);
	return 0;
}

/* [p, p + len) as an int: -1 unless it is all number and fits */
static int to_int(const char *p, size_t len, int *out)
{
	char buf[24];
	char *e;
	long long v;

	if (!len || len >= sizeof(buf))
		return -1;
	memcpy(buf, p, len);
	buf[len] = '\0';
	errno = 0;
	v = strtoll(buf, &e, 10);
	if (*e || e == buf || errno || v < INT_MIN || v > INT_MAX)
		return -1;
	*out = (int)v;
	return 0;
}

int tl_parse_switch(const struct tl_event *ev, struct tl_switch *sw)
{
	static const char *const seps[] = {
		"prev_comm=", " prev_pid=", " prev_prio=", " prev_state=",
		" ==> next_comm=", " next_pid=", " next_prio=",
	};
	const char *v[7];
	size_t l[7];

	if (strcmp(ev->name, "sched_switch") ||
	    split_known(ev->fields, ev->fields_len, seps, 7, v, l))
		return -1;
	memset(sw, 0, sizeof(*sw));
	strlcpy_n(sw->prev_comm, sizeof(sw->prev_comm), v[0], l[0]);
	strlcpy_n(sw->prev_state, sizeof(sw->prev_state), v[3], l[3]);
	strlcpy_n(sw->next_comm, sizeof(sw->next_comm), v[4], l[4]);
	if (to_int(v[1], l[1], &sw->prev_pid) ||
	    to_int(v[2], l[2], &sw->prev_prio) ||
	    to_int(v[5], l[5], &sw->next_pid) ||
	    to_int(v[6], l[6], &sw->next_prio))
		return -1;
	return 0;
}

int tl_parse_wakeup(const struct tl_event *ev, struct tl_wakeup *wk)
{
	static const char *const seps[] = {
		"comm=", " pid=", " prio=", " target_cpu=",
	};
	const char *v[4];
	size_t l[4];

	if (strcmp(ev->name, "sched_wakeup") ||
	    split_known(ev->fields, ev->fields_len, seps, 4, v, l))
		return -1;
	memset(wk, 0, sizeof(*wk));
	strlcpy_n(wk->comm, sizeof(wk->comm), v[0], l[0]);
	if (to_int(v[1], l[1], &wk->pid) || to_int(v[2], l[2], &wk->prio) ||
	    to_int(v[3], l[3], &wk->target_cpu))
		return -1;
	return 0;
}

int tl_pretty_switch(const struct tl_event *ev, char *buf, size_t size)
{
	struct tl_switch sw;

	if (tl_parse_switch(ev, &sw))
		return -1;
	snprintf(buf, size, "[%4llu.%06llu] CPU%d: %s (%d) switching to %s (%d)",
		 ev->ts_ns / NSEC_PER_SEC, ev->ts_ns % NSEC_PER_SEC / 1000,
		 ev->cpu, sw.prev_comm, sw.prev_pid, sw.next_comm,
		 sw.next_pid);
	return 0;
}

static bool task_match(int pid, const char *comm, const struct tl_filter *f)
{
	if (f->use_pid && pid != f->pid)
		return false;
	if (f->comm && strcmp(comm, f->comm))
		return false;
	return true;
}

bool tl_filter_match(const struct tl_event *ev, const struct tl_filter *f)
{
	struct tl_switch sw;

	if (!f->use_pid && !f->comm)
		return true;
	if (task_match(ev->pid, ev->comm, f))
		return true;
	if (!tl_parse_switch(ev, &sw))
		return task_match(sw.prev_pid, sw.prev_comm, f) ||
		       task_match(sw.next_pid, sw.next_comm, f);
	return false;
}

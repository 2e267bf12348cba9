// SPDX-License-Identifier: GPL-2.0
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ctlfmt.h"
#include "recplan.h"

void rot_init(struct rot *r, unsigned long long max_bytes,
	      unsigned int page_size)
{
	memset(r, 0, sizeof(*r));
	if (!max_bytes)
		return;
	r->cap = max_bytes / page_size * page_size;
	if (r->cap < 2ULL * page_size)
		r->cap = 2ULL * page_size;
}

size_t rot_room(const struct rot *r, size_t avail)
{
	unsigned long long left;

	if (!r->cap)
		return avail;
	left = r->cap - r->head;
	return avail < left ? avail : (size_t)left;
}

void rot_advance(struct rot *r, size_t n)
{
	r->written += n;
	r->head += n;
	if (r->cap && r->head >= r->cap) {
		r->head = 0;
		r->wrapped = true;
	}
}

unsigned int rot_segments(const struct rot *r, struct seg seg[2])
{
	if (!r->wrapped) {
		seg[0].off = 0;
		seg[0].len = r->head;
		return 1;
	}
	seg[0].off = r->head;
	seg[0].len = r->cap - r->head;
	seg[1].off = 0;
	seg[1].len = r->head;
	return r->head ? 2 : 1;
}

unsigned long long rot_kept(const struct rot *r)
{
	return r->wrapped ? r->cap : r->head;
}

unsigned long long rot_dropped(const struct rot *r)
{
	return r->written - rot_kept(r);
}

static unsigned long long page_up(unsigned long long v, unsigned int page)
{
	return (v + page - 1) / page * page;
}

void dat_plan(unsigned int ncpus, const unsigned long long *size,
	      unsigned int page_size, unsigned int first,
	      unsigned long long start, unsigned long long *off,
	      unsigned long long *end)
{
	unsigned long long pos = start;
	unsigned int cpu;

	if (first < ncpus) {
		off[first] = start;
		pos = start + size[first];
	}
	for (cpu = 0; cpu < ncpus; cpu++) {
		if (cpu == first)
			continue;
		pos = page_up(pos, page_size);
		off[cpu] = pos;
		pos += size[cpu];
	}
	*end = pos;
}

unsigned int dat_largest(unsigned int ncpus, const unsigned long long *size)
{
	unsigned int cpu, best = 0;

	for (cpu = 1; cpu < ncpus; cpu++)
		if (size[cpu] > size[best])
			best = cpu;
	return best;
}

void cpu_counts_parse(const char *text, struct cpu_counts *c)
{
	static const struct {
		const char *key;
		size_t off;
	} keys[] = {
		{ "read events", offsetof(struct cpu_counts, read) },
		{ "overrun", offsetof(struct cpu_counts, overrun) },
		{ "commit overrun", offsetof(struct cpu_counts, commit_overrun) },
		{ "dropped events", offsetof(struct cpu_counts, dropped) },
		{ "written", offsetof(struct cpu_counts, written) },
	};
	struct kv kv[32];
	size_t n = stats_parse(text, kv, ARRAY_SIZE(kv)), i;

	memset(c, 0, sizeof(*c));
	for (i = 0; i < ARRAY_SIZE(keys); i++) {
		const char *v = kv_get(kv, n, keys[i].key);
		unsigned long long x;
		char *e;

		if (!v)
			continue;
		x = strtoull(v, &e, 10);
		if (e == v || *e)
			continue;
		*(unsigned long long *)((char *)c + keys[i].off) = x;
		if (!i)
			c->valid = true;
	}
}

unsigned long long counter_delta(unsigned long long before,
				 unsigned long long after)
{
	if (after >= before)
		return after - before;
	/* a 32-bit counter that wrapped (i386's unsigned long) */
	if (before <= 0xffffffffULL)
		return after + 0x100000000ULL - before;
	return 0;
}

void rec_summarize(const struct cpu_counts *start, const struct cpu_counts *end,
		   long long kept_events, unsigned long long bytes,
		   unsigned long long rotated_bytes, unsigned int page_size,
		   struct cpu_summary *s)
{
	unsigned long long read = 0;

	memset(s, 0, sizeof(*s));
	s->bytes = bytes;
	s->pages = page_size ? bytes / page_size : 0;
	s->unknown = !start->valid || !end->valid;
	if (!s->unknown) {
		read = counter_delta(start->read, end->read);
		s->overrun = counter_delta(start->overrun, end->overrun);
		s->commit_overrun = counter_delta(start->commit_overrun,
						  end->commit_overrun);
		s->dropped = counter_delta(start->dropped, end->dropped);
	}
	if (kept_events >= 0) {
		s->counted = true;
		s->events = (unsigned long long)kept_events;
		/* what -m overwrote: read, and no longer in the file */
		if (!s->unknown && rotated_bytes && read > s->events)
			s->rotated = read - s->events;
		s->unknown = false;
	} else {
		s->events = read;
	}
	s->lost = s->overrun + s->commit_overrun + s->dropped + s->rotated;
}

void human_bytes(unsigned long long n, char *buf, size_t size)
{
	if (n >= 10ULL << 20)
		snprintf(buf, size, "%llu MiB", n >> 20);
	else if (n >= 1ULL << 20)
		snprintf(buf, size, "%.1f MiB", (double)n / (1 << 20));
	else if (n >= 10ULL << 10)
		snprintf(buf, size, "%llu KiB", n >> 10);
	else if (n >= 1ULL << 10)
		snprintf(buf, size, "%.1f KiB", (double)n / (1 << 10));
	else
		snprintf(buf, size, "%llu B", n);
}

void rec_summary_line(unsigned int cpu, const struct cpu_summary *s,
		      struct ef_buf *out)
{
	static const char *const why[] = {
		"overwritten in the buffer before kmark read them (it was full: a larger -b helps)",
		"lost while a writer was interrupted and the buffer went round (commit overrun)",
		"dropped by the kernel: no room (options/overwrite 0), or hits where RCU did not watch",
		"recorded, then overwritten in the file by newer pages (-m)",
	};
	const unsigned long long n[] = {
		s->overrun, s->commit_overrun, s->dropped, s->rotated,
	};
	char b[32];
	size_t i;
	bool first = true;

	human_bytes(s->bytes, b, sizeof(b));
	if (s->unknown) {
		eb_printf(out, "CPU %u: %s (%llu pages); events and losses unknown (no per_cpu/cpu%u/stats)",
			  cpu, b, s->pages, cpu);
		return;
	}
	eb_printf(out, "CPU %u: %llu events, %s (%llu pages); lost %llu",
		  cpu, s->events, b, s->pages, s->lost);
	for (i = 0; i < ARRAY_SIZE(n); i++) {
		if (!n[i])
			continue;
		eb_printf(out, "%s %llu %s", first ? ":" : ";", n[i], why[i]);
		first = false;
	}
}

void rec_progress_line(double seconds, unsigned int ncpus,
		       const unsigned long long *events,
		       const unsigned long long *bytes,
		       unsigned long long lost, struct ef_buf *out)
{
	unsigned int cpu;
	char b[32];

	eb_printf(out, "%6.1f s", seconds);
	for (cpu = 0; cpu < ncpus; cpu++) {
		if (ncpus > 8 && !events[cpu] && !bytes[cpu])
			continue;
		human_bytes(bytes[cpu], b, sizeof(b));
		eb_printf(out, "  CPU%u %llu ev %s", cpu, events[cpu], b);
	}
	eb_printf(out, "  lost %llu", lost);
}

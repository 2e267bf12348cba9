/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The arithmetic of "kmark record -o FILE.dat", apart from its I/O: where
 * a CPU's pages go in its file (-m: a ring of whole pages), where each
 * CPU's pages go in the trace.dat, and what the per-CPU counters of the
 * kernel say was recorded and lost, and why. Pure: no I/O, no exit().
 */
#ifndef KMARK_RECPLAN_H
#define KMARK_RECPLAN_H

#include <stdbool.h>
#include <stddef.h>

#include "evfmt.h"

/*
 * A CPU's file holds its pages from offset 0 of its data area on; with a
 * cap (-m), it is a ring of cap bytes (whole pages): once full, the next
 * page takes the place of the oldest one.
 */
struct rot {
	unsigned long long cap;		/* bytes kept at most; 0: no limit */
	unsigned long long head;	/* where the next byte goes */
	unsigned long long written;	/* bytes written in all */
	bool wrapped;			/* the ring went round at least once */
};

/* a cap of max_bytes, rounded down to whole pages (at least two) */
void rot_init(struct rot *r, unsigned long long max_bytes,
	      unsigned int page_size);
/*
 * How many of @avail bytes (whole pages) the next write may put at
 * r->head: all of them, or with a cap those up to the end of the ring
 * (then the rest goes at 0, after rot_advance()).
 */
size_t rot_room(const struct rot *r, size_t avail);
/* @n bytes were written at r->head */
void rot_advance(struct rot *r, size_t n);

struct seg {
	unsigned long long off, len;
};

/* the bytes kept, oldest first, as 1 or 2 pieces of the data area */
unsigned int rot_segments(const struct rot *r, struct seg seg[2]);
unsigned long long rot_kept(const struct rot *r);
/* bytes written and then overwritten by newer pages (-m) */
unsigned long long rot_dropped(const struct rot *r);

/*
 * Where each CPU's pages go in a trace.dat: CPU @first's at @start (one
 * page in: the page before holds the file's header), then the others in
 * CPU order, each at the next page boundary; a CPU without pages gets an
 * empty piece there. *end: where the data ends (the metadata follows).
 */
void dat_plan(unsigned int ncpus, const unsigned long long *size,
	      unsigned int page_size, unsigned int first,
	      unsigned long long start, unsigned long long *off,
	      unsigned long long *end);
/* the CPU with the most pages (the lowest of equals): the file kept */
unsigned int dat_largest(unsigned int ncpus, const unsigned long long *size);

/*
 * A CPU's counters, per_cpu/cpuN/stats: "read events" (events consumed
 * by readers: kmark record's pages), "overrun" (overwritten before they
 * were read), "commit overrun" (lost while a writer was interrupted),
 * "dropped events" (no room with options/overwrite 0, or a hit where RCU
 * did not watch) and "written".
 */
struct cpu_counts {
	bool valid;
	unsigned long long read, overrun, commit_overrun, dropped, written;
};

/* parse a stats file's text; valid when it has "read events" */
void cpu_counts_parse(const char *text, struct cpu_counts *c);

/* what a CPU recorded and lost, from its counters at the start and end */
struct cpu_summary {
	unsigned long long events;	/* in the trace.dat */
	unsigned long long overrun, commit_overrun, dropped;
	unsigned long long rotated;	/* read, then overwritten by -m */
	unsigned long long lost;	/* the sum of the four */
	unsigned long long bytes, pages;
	bool counted;			/* events counted in the pages */
	bool unknown;			/* no counters: nothing is known */
};

/*
 * The difference of two readings of a counter. The kernel's are unsigned
 * longs: 32 bits on i386, where they wrap.
 */
unsigned long long counter_delta(unsigned long long before,
				 unsigned long long after);

/*
 * @start, @end: the CPU's counters. @kept_events: the events counted in
 * the pages the trace.dat holds, or -1 when they were not counted (then
 * the counters say: all the events read are there, unless -m dropped
 * some, which only a count can tell). @bytes: the bytes of pages kept.
 */
void rec_summarize(const struct cpu_counts *start, const struct cpu_counts *end,
		   long long kept_events, unsigned long long bytes,
		   unsigned long long rotated_bytes, unsigned int page_size,
		   struct cpu_summary *s);

/*
 * "CPU 0: 1234 events, 4.0 MiB (1024 pages); lost 12: 12 overwritten
 * before kmark read them (the buffer was full: a larger -b helps)"
 */
void rec_summary_line(unsigned int cpu, const struct cpu_summary *s,
		      struct ef_buf *out);

/* "1.2 MiB", "512 KiB", "300 B" */
void human_bytes(unsigned long long n, char *buf, size_t size);

/*
 * The progress line: "  3.0 s  CPU0 12345 ev 1.2 MiB  CPU1 ...  lost 0"
 * (without a newline); of more than 8 CPUs, those that recorded nothing
 * are left out.
 */
void rec_progress_line(double seconds, unsigned int ncpus,
		       const unsigned long long *events,
		       const unsigned long long *bytes,
		       unsigned long long lost, struct ef_buf *out);

#endif

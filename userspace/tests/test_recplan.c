// SPDX-License-Identifier: GPL-2.0
/*
 * The arithmetic of "kmark record -o FILE.dat" (recplan.c): a CPU file
 * as a ring of whole pages (-m), where each CPU's pages go in the
 * trace.dat, the summary from the kernel's per-CPU counters, and the
 * mark a page gets for the events lost before it (rbpage.c).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "evfmt.h"
#include "rbpage.h"
#include "recplan.h"
#include "test.h"

#define PG 4096

/* write n bytes the way the recorder does: pieces of rot_room() */
static unsigned int feed(struct rot *r, size_t n, unsigned long long *where,
			 unsigned int max)
{
	unsigned int k = 0;

	while (n) {
		size_t room = rot_room(r, n);

		if (k < max)
			where[k] = r->head;
		k++;
		rot_advance(r, room);
		n -= room;
	}
	return k;
}

static void test_ring(void)
{
	unsigned long long where[4];
	struct seg seg[2];
	struct rot r;
	unsigned int k;

	rot_init(&r, 0, PG);
	k = feed(&r, 300 * PG, where, 4);
	check(k == 1 && !r.wrapped && rot_kept(&r) == 300ULL * PG &&
	      !rot_dropped(&r),
	      "ring: no cap: every page kept, in one write");
	check(rot_segments(&r, seg) == 1 && seg[0].off == 0 &&
	      seg[0].len == 300ULL * PG, "ring: no cap: one piece");

	rot_init(&r, 10 * PG + 100, PG);
	check_ll((long long)r.cap, 10 * PG, "ring: the cap in whole pages");
	rot_init(&r, 100, PG);
	check_ll((long long)r.cap, 2 * PG, "ring: at least two pages");

	rot_init(&r, 4 * PG, PG);
	k = feed(&r, 3 * PG, where, 4);
	check(k == 1 && where[0] == 0 && r.head == 3 * PG && !r.wrapped,
	      "ring: 3 of 4 pages: no wrap");
	/* 3 pages more: one to the end, two from the start */
	k = feed(&r, 3 * PG, where, 4);
	check(k == 2 && where[0] == 3 * PG && where[1] == 0 &&
	      r.head == 2 * PG && r.wrapped,
	      "ring: a write across the end is split at whole pages: 1 + 2");
	check_ll((long long)rot_kept(&r), 4 * PG, "ring: full: the cap kept");
	check_ll((long long)rot_dropped(&r), 2 * PG,
		 "ring: the two oldest pages dropped");
	check(rot_segments(&r, seg) == 2 && seg[0].off == 2 * PG &&
	      seg[0].len == 2 * PG && seg[1].off == 0 && seg[1].len == 2 * PG,
	      "ring: kept oldest first: pages 2-3, then 0-1");
	feed(&r, 2 * PG, where, 4);
	check(r.head == 0 && rot_segments(&r, seg) == 1 && seg[0].off == 0 &&
	      seg[0].len == 4 * PG,
	      "ring: head back at 0: one piece again");
	k = feed(&r, 9 * PG, where, 4);
	check(k == 3 && rot_dropped(&r) == 13ULL * PG && r.head == PG,
	      "ring: a write longer than the ring goes round twice");
}

static void test_plan(void)
{
	unsigned long long size[3] = { 3 * PG, 5 * PG, 0 }, off[3], end;

	check_ll(dat_largest(3, size), 1, "plan: the largest CPU file");
	dat_plan(3, size, PG, 1, PG, off, &end);
	check(off[1] == PG && off[0] == 6 * PG && off[2] == 9 * PG &&
	      end == 9 * PG,
	      "plan: the largest first, at one page; the others after it");
	dat_plan(3, size, PG, 0, PG, off, &end);
	check(off[0] == PG && off[1] == 4 * PG && off[2] == 9 * PG &&
	      end == 9 * PG, "plan: CPU order when CPU 0 comes first");
	size[0] = 100;		/* a file that is no whole pages */
	dat_plan(3, size, PG, 1, PG, off, &end);
	check(off[0] == 6 * PG && off[2] == 7 * PG && end == 7 * PG,
	      "plan: the next CPU at the next page boundary");
	size[1] = size[0] = 0;
	check_ll(dat_largest(3, size), 0, "plan: equals: the lowest CPU");
}

static void test_counts(void)
{
	struct cpu_counts c;

	cpu_counts_parse("entries: 5\noverrun: 7\ncommit overrun: 1\n"
			 "bytes: 100\noldest event ts:     1.000000\n"
			 "now ts:     2.000000\ndropped events: 3\n"
			 "read events: 42\nwritten: 53\n", &c);
	check(c.valid && c.read == 42 && c.overrun == 7 &&
	      c.commit_overrun == 1 && c.dropped == 3 && c.written == 53,
	      "counts: per_cpu/cpuN/stats parsed");
	cpu_counts_parse("entries: 5\n", &c);
	check(!c.valid, "counts: without 'read events': not valid");
	check_ll((long long)counter_delta(10, 25), 15, "delta: plain");
	check_ll((long long)counter_delta(0xfffffff0ULL, 5), 21,
		 "delta: a 32-bit counter that wrapped (i386)");
	check_ll((long long)counter_delta(0x100000005ULL, 3), 0,
		 "delta: a 64-bit counter that went back: 0");
}

static void test_summary(void)
{
	struct cpu_counts a = { true, 100, 10, 0, 5, 200 };
	struct cpu_counts b = { true, 1100, 60, 2, 5, 1300 };
	struct cpu_summary s;
	struct ef_buf out = { 0 };

	rec_summarize(&a, &b, -1, 50 * PG, 0, PG, &s);
	check(s.events == 1000 && s.overrun == 50 && s.commit_overrun == 2 &&
	      s.dropped == 0 && s.rotated == 0 && s.lost == 52 &&
	      s.pages == 50 && !s.counted,
	      "summary: read, overrun and commit overrun from the counters");
	eb_reset(&out);
	rec_summary_line(0, &s, &out);
	check_str(out.s,
		  "CPU 0: 1000 events, 200 KiB (50 pages); lost 52: 50 overwritten in the buffer before kmark read them (it was full: a larger -b helps); 2 lost while a writer was interrupted and the buffer went round (commit overrun)",
		  "summary: each cause of loss with its number");

	b.overrun = 10;
	b.commit_overrun = 0;
	b.dropped = 9;
	rec_summarize(&a, &b, -1, PG, 0, PG, &s);
	eb_reset(&out);
	rec_summary_line(3, &s, &out);
	check_str(out.s,
		  "CPU 3: 1000 events, 4.0 KiB (1 pages); lost 4: 4 dropped by the kernel: no room (options/overwrite 0), or hits where RCU did not watch",
		  "summary: dropped events");

	/* -m: 600 events kept of the 1000 read */
	b.dropped = 5;
	rec_summarize(&a, &b, 600, 8 * PG, 12 * PG, PG, &s);
	check(s.counted && s.events == 600 && s.rotated == 400 &&
	      s.lost == 400,
	      "summary: -m: the events read and not kept were overwritten in the file");
	eb_reset(&out);
	rec_summary_line(1, &s, &out);
	check_has(out.s, "lost 400: 400 recorded, then overwritten in the file by newer pages (-m)",
		  "summary: -m's losses said so");
	/* a count without -m (the counters did not move): no rotation */
	rec_summarize(&a, &a, 77, PG, 0, PG, &s);
	check(s.events == 77 && !s.lost, "summary: a count wins over still counters");

	a.valid = false;
	rec_summarize(&a, &b, -1, 3 * PG, 0, PG, &s);
	eb_reset(&out);
	rec_summary_line(2, &s, &out);
	check_str(out.s,
		  "CPU 2: 12 KiB (3 pages); events and losses unknown (no per_cpu/cpu2/stats)",
		  "summary: without counters, nothing is made up");
	a.valid = true;
	a.read = 0xfffffff0ULL;
	b.read = 0x10;
	b.overrun = a.overrun;
	b.dropped = a.dropped;
	rec_summarize(&a, &b, -1, PG, 0, PG, &s);
	check_ll((long long)s.events, 32, "summary: 32-bit counters that wrapped");
	eb_free(&out);
}

static void test_progress(void)
{
	unsigned long long ev[3] = { 12345, 0, 7 }, by[3] = { 3 << 20, 0, 8192 };
	struct ef_buf out = { 0 };
	char b[32];

	eb_reset(&out);
	rec_progress_line(3.04, 3, ev, by, 9, &out);
	check_str(out.s, "   3.0 s  CPU0 12345 ev 3.0 MiB  CPU1 0 ev 0 B  CPU2 7 ev 8.0 KiB  lost 9",
		  "progress: events and bytes of each CPU, lost");
	{
		unsigned long long e9[9] = { 0, 5 }, b9[9] = { 0, 4096 };

		eb_reset(&out);
		rec_progress_line(1, 9, e9, b9, 0, &out);
		check_str(out.s, "   1.0 s  CPU1 5 ev 4.0 KiB  lost 0",
			  "progress: of 9 CPUs, those that recorded something");
	}
	eb_free(&out);
	human_bytes(100, b, sizeof(b));
	check_str(b, "100 B", "bytes: B");
	human_bytes(20 << 20, b, sizeof(b));
	check_str(b, "20 MiB", "bytes: MiB");
}

/* a page of x86_64 (8-byte commit at 8, data at 16) with @n bytes */
static void lost_page(unsigned char *page, unsigned long long commit)
{
	memset(page, 0, PG);
	memcpy(page + 8, &commit, 8);
}

static void test_mark_lost(void)
{
	static unsigned char page[PG];
	struct ef_header h64 = { PG, 8, 16 }, h32 = { PG, 4, 12 };
	unsigned long long commit, v;
	unsigned int c32, v32;
	struct rb_page pg;

	lost_page(page, 160);
	rb_page_mark_lost(page, &h64, 21);
	memcpy(&commit, page + 8, 8);
	memcpy(&v, page + 16 + 160, 8);
	check(commit == (160 | 1ULL << 31 | 1ULL << 30) && v == 21,
	      "mark: flags set, the number stored after the data");
	check(rb_page_init(&pg, page, &h64) && pg.lost == 21 && pg.size == 160,
	      "mark: the reader sees 21 lost and the same data");
	rb_page_mark_lost(page, &h64, 4);
	memcpy(&v, page + 16 + 160, 8);
	check_ll((long long)v, 25, "mark: added to a number the kernel stored");

	lost_page(page, PG - 16 - 4);	/* no room for a long */
	rb_page_mark_lost(page, &h64, 5);
	memcpy(&commit, page + 8, 8);
	check(commit == ((PG - 16 - 4) | 1ULL << 31),
	      "mark: a full page: the flag only (a number not known)");
	check(rb_page_init(&pg, page, &h64) && pg.lost == ~0ULL,
	      "mark: ... which the reader takes as an unknown number");

	memset(page, 0, PG);
	c32 = 40;
	memcpy(page + 8, &c32, 4);
	rb_page_mark_lost(page, &h32, 9);
	memcpy(&c32, page + 8, 4);
	memcpy(&v32, page + 12 + 40, 4);
	check(c32 == (40 | 1U << 31 | 1U << 30) && v32 == 9,
	      "mark: i386's 4-byte commit and count");
}

void test_recplan(void)
{
	test_ring();
	test_plan();
	test_counts();
	test_summary();
	test_progress();
	test_mark_lost();
}

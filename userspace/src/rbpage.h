/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Records in a ring-buffer page, as trace_pipe_raw returns them: a page
 * header (timestamp, commit) and events with the kernel ring buffer's
 * compressed headers (events/header_event). Pure.
 */
#ifndef KMARK_RBPAGE_H
#define KMARK_RBPAGE_H

#include <stdbool.h>
#include <stddef.h>

#include "evfmt.h"

struct rb_page {
	const unsigned char *data;	/* the events */
	size_t size;			/* bytes of events (commit) */
	size_t pos;			/* next event header */
	unsigned long long ts;		/* timestamp of the last event */
	/* lost events before this page: 0 none, ~0ULL unknown number */
	unsigned long long lost;
	bool corrupt;			/* an event ran past the commit */
};

struct rb_rec {
	unsigned long long ts;
	const unsigned char *data;
	size_t len;			/* bytes of data (4-byte padded) */
};

/*
 * Start reading the page of h->page_size bytes at page. False when its
 * commit field is larger than the page can hold.
 */
bool rb_page_init(struct rb_page *pg, const unsigned char *page,
		  const struct ef_header *h);
/* the next data record: true, or false at the end of the page */
bool rb_page_next(struct rb_page *pg, struct rb_rec *r);
/*
 * Mark a page of h->page_size bytes with @lost events lost before it, as
 * the kernel marks a page after an overwrite: RB_MISSED_EVENTS, and the
 * number stored after the data (RB_MISSED_STORED; added to one already
 * there) when there is room for it.
 */
void rb_page_mark_lost(unsigned char *page, const struct ef_header *h,
		       unsigned long long lost);

#endif

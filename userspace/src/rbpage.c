// SPDX-License-Identifier: GPL-2.0
/*
 * The compressed event header is one u32: type_len (5 bits) and
 * time_delta (27 bits). type_len 1..28: data of type_len * 4 bytes
 * follows; 0: the next u32 is the length (plus 4), then the data; 29:
 * padding (or, with a zero delta, the end of the page); 30: time extend
 * (delta = next u32 << 27 | time_delta); 31: absolute time stamp.
 */
#include <string.h>

#include "rbpage.h"

#define RB_TYPE_PADDING		29
#define RB_TYPE_TIME_EXTEND	30
#define RB_TYPE_TIME_STAMP	31
#define RB_TS_SHIFT		27
#define RB_TS_MSB		(0xf8ULL << 56)
#define RB_COMMIT_MASK		((1U << 27) - 1)
#define RB_MISSED_EVENTS	(1ULL << 31)
#define RB_MISSED_STORED	(1ULL << 30)

/* write a native-endian integer of 4 or 8 bytes */
static void rb_put_uint(unsigned char *p, unsigned long long v,
			unsigned int size)
{
	if (size == 4) {
		unsigned int u = (unsigned int)v;

		memcpy(p, &u, 4);
	} else {
		memcpy(p, &v, 8);
	}
}

bool rb_page_init(struct rb_page *pg, const unsigned char *page,
		  const struct ef_header *h)
{
	unsigned long long commit = ef_read_uint(page + 8, h->commit_size);
	size_t room = h->page_size - h->data_offset;

	memset(pg, 0, sizeof(*pg));
	pg->ts = ef_read_uint(page, 8);
	pg->data = page + h->data_offset;
	pg->size = (size_t)(commit & RB_COMMIT_MASK);
	if (pg->size > room)
		return false;
	if (commit & RB_MISSED_EVENTS) {
		pg->lost = ~0ULL;
		if ((commit & RB_MISSED_STORED) &&
		    pg->size + h->commit_size <= room)
			pg->lost = ef_read_uint(pg->data + pg->size,
						h->commit_size);
	}
	return true;
}

static unsigned int rd32(const unsigned char *p)
{
	return (unsigned int)ef_read_uint(p, 4);
}

bool rb_page_next(struct rb_page *pg, struct rb_rec *r)
{
	while (pg->pos + 4 <= pg->size) {
		unsigned int hdr = rd32(pg->data + pg->pos);
		unsigned int type_len = hdr & 0x1f;
		unsigned long long delta = hdr >> 5, ext;
		size_t left = pg->size - pg->pos - 4, len;
		const unsigned char *p = pg->data + pg->pos + 4;

		switch (type_len) {
		case RB_TYPE_PADDING:
			if (!delta || left < 4) {	/* rest of page unused */
				pg->pos = pg->size;
				return false;
			}
			len = rd32(p);
			if (len > left) {
				pg->corrupt = true;
				pg->pos = pg->size;
				return false;
			}
			pg->pos += 4 + len;
			continue;
		case RB_TYPE_TIME_EXTEND:
		case RB_TYPE_TIME_STAMP:
			if (left < 4) {
				pg->corrupt = true;
				pg->pos = pg->size;
				return false;
			}
			ext = (unsigned long long)rd32(p) << RB_TS_SHIFT | delta;
			if (type_len == RB_TYPE_TIME_EXTEND)
				pg->ts += ext;
			else
				pg->ts = ext | (pg->ts & RB_TS_MSB);
			pg->pos += 8;
			continue;
		case 0:
			if (left < 4) {
				pg->corrupt = true;
				pg->pos = pg->size;
				return false;
			}
			len = rd32(p);
			len = len < 4 ? 0 : ((len - 4 + 3) & ~(size_t)3);
			p += 4;
			left -= 4;
			break;
		default:
			len = type_len * 4;
			break;
		}
		if (len > left) {
			pg->corrupt = true;
			pg->pos = pg->size;
			return false;
		}
		pg->ts += delta;
		r->ts = pg->ts;
		r->data = p;
		r->len = len;
		pg->pos = (size_t)(p + len - pg->data);
		return true;
	}
	return false;
}

void rb_page_mark_lost(unsigned char *page, const struct ef_header *h,
		       unsigned long long lost)
{
	unsigned long long commit = ef_read_uint(page + 8, h->commit_size);
	unsigned long long size = commit & RB_COMMIT_MASK, n = lost;
	size_t room = h->page_size - h->data_offset;
	unsigned char *after = page + h->data_offset + size;

	if (size + h->commit_size <= room) {
		if ((commit & RB_MISSED_EVENTS) && (commit & RB_MISSED_STORED))
			n += ef_read_uint(after, h->commit_size);
		rb_put_uint(after, n, h->commit_size);
		commit |= RB_MISSED_STORED;
	} else {
		commit &= ~RB_MISSED_STORED;	/* no room: a number not known */
	}
	rb_put_uint(page + 8, commit | RB_MISSED_EVENTS, h->commit_size);
}

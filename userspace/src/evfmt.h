/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The kernel's binary trace description, as ftrace (and kmark) publish it
 * under events/: header_page, and one format file per event with its
 * fields and its print fmt. Parsing, field access, and rendering a record
 * the way the kernel's "trace" file shows it. Pure: no I/O, no exit().
 */
#ifndef KMARK_EVFMT_H
#define KMARK_EVFMT_H

#include <stdbool.h>
#include <stddef.h>

/* events/header_page: the layout of a ring-buffer page */
struct ef_header {
	unsigned int page_size;		/* bytes in a page */
	unsigned int commit_size;	/* the kernel's long: 4 or 8 */
	unsigned int data_offset;	/* where the first event starts */
};

/* 0, or -1 when a field is missing or implausible */
int ef_parse_header_page(const char *text, struct ef_header *h);

struct ef_field {
	char *name;
	char *type;		/* as written, e.g. "__data_loc char[]" */
	unsigned int offset, size;
	bool is_signed;
	bool dataloc;		/* __data_loc: u32 offset | length << 16 */
	bool string;		/* a char array or __data_loc char[] */
	bool common;		/* before the blank line: common_* */
};

struct ex_node;

struct ef_event {
	char *system;		/* set by the caller (not in the file) */
	char *name;
	unsigned int id;
	struct ef_field *fields;
	size_t nfields;
	char *fmt;		/* the print fmt's format string, unescaped */
	struct ex_node **args;	/* its arguments */
	size_t nargs;
	bool fmt_ok;		/* fmt and every argument understood */
	/* indices of the common fields, -1 when absent */
	int f_type, f_flags, f_pc, f_pid, f_comm, f_comm_id;
};

/*
 * Parse a format file ("name:", "ID:", "format:" fields, "print fmt:").
 * 0 on success; -1 when the name, the ID or a field line is unusable.
 * A print fmt that cannot be understood only clears fmt_ok.
 */
int ef_parse_format(const char *text, struct ef_event *ev);
void ef_event_free(struct ef_event *ev);
int ef_field_index(const struct ef_event *ev, const char *name);

/*
 * Integer value of a field of a record of len bytes, sign-extended when
 * the field is signed. False when the field lies outside the record or
 * has a size other than 1, 2, 4 or 8.
 */
bool ef_get_int(const struct ef_field *f, const unsigned char *rec,
		size_t len, unsigned long long *v);
/*
 * String field (char array or __data_loc char[]): start and length up
 * to the first NUL. False when it points outside the record.
 */
bool ef_get_str(const struct ef_field *f, const unsigned char *rec,
		size_t len, const char **s, size_t *slen);

/* growable output buffer; zero-initialise */
struct ef_buf {
	char *s;
	size_t len, alloc;
};

void eb_reset(struct ef_buf *b);
void eb_putn(struct ef_buf *b, const char *s, size_t n);
void eb_puts(struct ef_buf *b, const char *s);
__attribute__((format(printf, 2, 3)))
void eb_printf(struct ef_buf *b, const char *fmt, ...);
void eb_free(struct ef_buf *b);

/*
 * Append the event's text (what follows "name: " on a trace line) to out:
 * the print fmt evaluated on the record, or, when the print fmt is not
 * understood or cannot be evaluated on this record, "field=value" for
 * each non-common field. long_size is the target's long (4 or 8).
 */
void ef_render(const struct ef_event *ev, const unsigned char *rec,
	       size_t len, unsigned int long_size, struct ef_buf *out);

/* ftrace's five context characters from common_flags/preempt_count */
void ef_ctx_chars(unsigned int flags, unsigned int preempt_count, char c[6]);

/* read a native-endian integer of 1, 2, 4 or 8 bytes */
unsigned long long ef_read_uint(const unsigned char *p, unsigned int size);

#endif

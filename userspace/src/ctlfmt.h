/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Parsers for the text formats of the kmark control files and of the
 * kernel files the tool consults (/proc/kallsyms, the kprobe blacklist).
 * Pure functions: no I/O, no exit().
 */
#ifndef KMARK_CTLFMT_H
#define KMARK_CTLFMT_H

#include <stdbool.h>
#include <stddef.h>

#include "strlist.h"

enum marker_type {
	MK_MARKER,
	MK_KPROBE,
	MK_KRETPROBE,
};

struct marker_field {
	char name[64];
	char conv[16];		/* printf conversion including '%', e.g. "%d" */
};

struct marker {
	char *name;		/* "sched_switch" or "kprobes/myopen" */
	char *format;		/* format text after the name (and probe tag) */
	enum marker_type type;
	struct marker_field *fields;
	size_t nfields;
};

struct marker_list {
	struct marker *v;
	size_t n;
};

/* available_markers: "NAME FORMAT" per line. Returns number of markers. */
size_t markers_parse(const char *buf, struct marker_list *out);
void markers_free(struct marker_list *ml);
const char *marker_type_name(enum marker_type t);
/* "kprobes/foo" -> "foo"; "foo" -> "foo" */
const char *event_short_name(const char *name);
/* does user-supplied NAME address event FULL ("foo" or "kprobes/foo")? */
bool event_name_matches(const char *full, const char *name);
const struct marker *markers_find(const struct marker_list *ml,
				  const char *name);
void markers_names(const struct marker_list *ml, struct strlist *out);

/* set_event: one enabled event per line */
void set_event_parse(const char *buf, struct strlist *out);
bool set_event_has(const struct strlist *enabled, const char *full);

/* /proc/kallsyms: collects the names of text symbols (type t or T) */
void kallsyms_parse(const char *buf, struct strlist *out);
/* kprobes/blacklist: "0xstart-0xend\tsymbol" lines, collects symbols */
void blacklist_parse(const char *buf, struct strlist *out);

/*
 * error_log: finds the last entry (a line starting with '[' plus its
 * continuation lines). Returns false when the log is empty.
 */
bool errlog_last_entry(const char *buf, const char **start, size_t *len);

/* per_cpu/cpuN/stats: "key: value" lines */
struct kv {
	char key[32];
	char val[48];
};
size_t stats_parse(const char *buf, struct kv *out, size_t max);
const char *kv_get(const struct kv *kv, size_t n, const char *key);

#endif

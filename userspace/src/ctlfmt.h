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
	char *module;		/* a module's marker ("[module]"); else NULL */
	enum marker_type type;
	struct marker_field *fields;
	size_t nfields;
};

struct marker_list {
	struct marker *v;
	size_t n;
};

/* longest module name, with its NUL (the kernel's MODULE_NAME_LEN) */
#define KM_MODNAME_LEN	64

/*
 * available_markers: "NAME FORMAT" per line, "NAME FORMAT [MODULE]" for a
 * marker of a module, "GRP/NAME [kprobe] FIELDS" for a kprobe event.
 * Returns number of markers.
 */
size_t markers_parse(const char *buf, struct marker_list *out);
void markers_free(struct marker_list *ml);
const char *marker_type_name(enum marker_type t);
/* "kprobes/foo" -> "foo"; "foo" -> "foo" */
const char *event_short_name(const char *name);
/* does user-supplied NAME address event FULL ("foo" or "kprobes/foo")? */
bool event_name_matches(const char *full, const char *name);
const struct marker *markers_find(const struct marker_list *ml,
				  const char *name);

/*
 * Ids, as set_event and kprobe_events name things: "MODULE:NAME" for a
 * module's marker or function, "NAME" for vmlinux's (kprobe events are
 * vmlinux's). event_split() copies MODULE to mod (KM_MODNAME_LEN bytes;
 * "" for "NAME") and returns NAME; NULL when MODULE is empty or too long.
 */
const char *event_split(const char *id, char *mod);
/* the ids of the events of ml */
void markers_names(const struct marker_list *ml, struct strlist *out);
/*
 * Does set_event token TOK ("NAME" or "MODULE:NAME", shell globs in both
 * parts) name event NAME of module MOD (NULL: vmlinux), as the kernel
 * decides? "kprobes/foo" may be named "foo".
 */
bool event_token_matches(const char *tok, const char *name, const char *mod);
/* the same for an id */
bool event_token_matches_id(const char *tok, const char *id);
/* does tok match one of the ids? */
bool ids_match_token(const struct strlist *ids, const char *tok);

/* set_event: collects the first token of each line */
void set_event_parse(const char *buf, struct strlist *out);
/*
 * Reading set_event gives the enabled events, in available_markers'
 * order (a module's as "MODULE:NAME"), then the tokens "MODULE:NAME" kept
 * for a module (set to wait for it while it was not loaded). Sets on[i]
 * (ml->n entries) for each enabled ml->v[i]; the tokens go to tokens.
 */
void set_event_split(const struct marker_list *ml, const struct strlist *lines,
		     bool *on, struct strlist *tokens);

/* /proc/kallsyms: collects the ids of text symbols (type t or T) */
void kallsyms_parse(const char *buf, struct strlist *out);
/* kprobes/blacklist: "0xstart-0xend\tsymbol [module]", collects ids */
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

/*
 * Instances (kmark -B NAME): whether the control file @name (relative to
 * the control directory, e.g. "set_event", "events/sched_switch/format")
 * exists only in the top directory, shared by every instance:
 * available_markers, README, kprobe_events, set_event_pid,
 * set_event_notrace_pid, options/, instances/ and everything under
 * events/ except the filters (header_page, header_event, format, id).
 * Everything else (tracing_on, set_event, trace, trace_pipe, per_cpu/,
 * error_log, buffer_size_kb, events/.../filter, ...) is per instance.
 */
bool ctl_top_only(const char *name);
/*
 * NULL if @name is a valid instance name (the kernel's rule: 1 to 31 of
 * [A-Za-z0-9_.-], not "new", "remove", "." or ".."), else why not.
 */
const char *instance_name_err(const char *name);
/* the instance names in a listing of instances/: not new/remove/./.. */
bool instance_dirent(const char *name);

#endif

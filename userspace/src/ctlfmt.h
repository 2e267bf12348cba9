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
	char *system;		/* "sched", "kprobes", a module's name */
	char *name;		/* "sched_switch", "myopen" */
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
 * available_markers: "SYS:NAME FORMAT" per line, "SYS:NAME FORMAT [MODULE]"
 * for a marker of a module, "SYS:NAME [kprobe] FIELDS" (or [kretprobe])
 * for a kprobe event, whose fields are "name=type" ("dfd=s32").
 * Returns number of markers.
 */
size_t markers_parse(const char *buf, struct marker_list *out);
void markers_free(struct marker_list *ml);
const char *marker_type_name(enum marker_type t);
/* the first event that set_event token TOK names (see below), or NULL */
const struct marker *markers_find(const struct marker_list *ml,
				  const char *tok);
/* "SYS:NAME" of m, malloc'd */
char *marker_id(const struct marker *m);

/*
 * Ids, as set_event and available_events name events: "SYS:NAME". Also
 * the kernel's older "SYS/NAME". event_split() copies SYS to sys
 * (KM_MODNAME_LEN bytes; "" for a plain "NAME") and returns NAME; NULL
 * when SYS is too long.
 */
const char *event_split(const char *id, char *sys);
/* the ids ("SYS:NAME") of the events of ml */
void markers_names(const struct marker_list *ml, struct strlist *out);
/*
 * Does set_event token TOK name event SYSTEM:NAME, as the kernel decides?
 * "SYS:NAME" with shell globs in both parts ("SYS:" is "SYS:*", ":NAME"
 * is "*:NAME", "SYS/NAME" the same), or "NAME" alone, which names the
 * events of that name in every system and every event of a system of
 * that name.
 */
bool event_token_matches(const char *tok, const char *system,
			 const char *name);
/* the same for an id */
bool event_token_matches_id(const char *tok, const char *id);
/* does tok match one of the ids? */
bool ids_match_token(const struct strlist *ids, const char *tok);

/* set_event: collects the first token of each line */
void set_event_parse(const char *buf, struct strlist *out);
/*
 * Reading set_event gives "SYS:NAME" for each enabled event, then the
 * tokens kept for a module (set to wait for it while it was not loaded:
 * "MODULE:NAME", globs too). Sets on[i] (ml->n entries) for each ml->v[i]
 * whose id is a line; the lines that are no event's id, and a second line
 * of the same id (a token kept for an event that is also enabled), go to
 * tokens.
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
 * the control directory, e.g. "set_event", "events/sched/sched_switch/id")
 * exists only in the top directory, shared by every instance:
 * available_markers, README, kprobe_events, dynamic_events,
 * kprobe_profile, saved_comms, saved_cmdlines and instances/. Everything
 * else (tracing_on, set_event, available_events, trace, trace_pipe,
 * per_cpu/, events/, options/, error_log, buffer_size_kb, trace_clock,
 * set_event_pid, ...) is per instance.
 */
bool ctl_top_only(const char *name);
/*
 * NULL if @name is a valid instance name (the kernel's rule: 1 to 63 of
 * [A-Za-z0-9_.-], not "new", "remove", "." or ".."), else why not.
 */
const char *instance_name_err(const char *name);
/* the instance names in a listing of instances/: not new/remove/./.. */
bool instance_dirent(const char *name);

#endif

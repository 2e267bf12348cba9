/* SPDX-License-Identifier: GPL-2.0 */
/*
 * "kmark enable NAME": decide between a marker and a kprobe fallback.
 * Pure: all inputs are lists, nothing is read from the system.
 */
#ifndef KMARK_FALLBACK_H
#define KMARK_FALLBACK_H

#include <stdbool.h>

#include "ctlfmt.h"
#include "strlist.h"

enum fb_kind {
	FB_MARKER,		/* NAME names an event (marker, kprobe event) */
	FB_GLOB,		/* NAME is a glob matching at least one event */
	FB_PENDING,		/* MODULE:NAME, MODULE not loaded: waits for it */
	FB_KPROBE,		/* define kprobe on symbol NAME */
	FB_KPROBE_CLONE,	/* define kprobe on unique clone NAME.isra.0 ... */
	FB_REFUSE_NO_FALLBACK,	/* not a marker and --no-fallback */
	FB_REFUSE_GLOB,		/* glob matching nothing */
	FB_REFUSE_BLACKLIST,	/* function is on the kprobe blacklist */
	FB_REFUSE_NOT_FOUND,	/* not in kallsyms: missing or inlined */
	FB_REFUSE_AMBIGUOUS,	/* several clones / duplicate symbols */
	FB_REFUSE_BAD_NAME,	/* not usable as an event name */
	FB_REFUSE_NO_KPROBES,	/* not a marker; the kernel has no kprobes */
};

#define FB_MAX_SUGGEST	3
#define FB_NAME_LEN	128

struct fb_decision {
	enum fb_kind kind;
	char event[FB_NAME_LEN];	/* what to write to set_event */
	char module[KM_MODNAME_LEN];	/* SYS/MODULE of "MODULE:NAME", or "" */
	char symbol[FB_NAME_LEN];	/* kprobe target ([MOD:]SYM) / offending */
	unsigned int ncandidates;	/* FB_REFUSE_AMBIGUOUS */
	char candidates[2][FB_NAME_LEN];
	unsigned int nsuggest;
	char suggest[FB_MAX_SUGGEST][FB_NAME_LEN];
};

/*
 * name:      "NAME", "SYS:NAME" or "MODULE:NAME", globs allowed, as
 *            set_event takes it
 * markers:   ids from available_markers ("sched:sched_switch",
 *            "kprobes:x", "mydrv:mydrv_irq"; markers_names())
 * ksyms:     ids of text symbols from /proc/kallsyms ("do_sys_openat2",
 *            "mydrv:mydrv_open"); with markers, they tell which modules
 *            are loaded
 * blacklist: ids of the symbols on the kprobe blacklist
 *
 * A kprobe's symbol is what kprobe_events takes: "MODULE:SYM" for a
 * module's function (the probe is armed again when the module reloads);
 * its event is "kprobes:NAME" (d->event).
 */
void fb_decide(const struct strlist *markers, const struct strlist *ksyms,
	       const struct strlist *blacklist, const char *name,
	       bool no_fallback, struct fb_decision *d);

const char *fb_kind_name(enum fb_kind k);
bool fb_is_refusal(enum fb_kind k);
bool fb_is_glob(const char *name);
/* if sym is NAME + ".isra.N"/".constprop.N"/".part.N"..., length of NAME */
size_t fb_clone_base_len(const char *sym);
unsigned int levenshtein(const char *a, const char *b);

#endif

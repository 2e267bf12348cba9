// SPDX-License-Identifier: GPL-2.0
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ctlfmt.h"
#include "fallback.h"

const char *fb_kind_name(enum fb_kind k)
{
	static const char *const names[] = {
		[FB_MARKER] = "MARKER",
		[FB_GLOB] = "GLOB",
		[FB_PENDING] = "PENDING",
		[FB_KPROBE] = "KPROBE",
		[FB_KPROBE_CLONE] = "KPROBE_CLONE",
		[FB_REFUSE_NO_FALLBACK] = "REFUSE_NO_FALLBACK",
		[FB_REFUSE_GLOB] = "REFUSE_GLOB",
		[FB_REFUSE_BLACKLIST] = "REFUSE_BLACKLIST",
		[FB_REFUSE_NOT_FOUND] = "REFUSE_NOT_FOUND",
		[FB_REFUSE_AMBIGUOUS] = "REFUSE_AMBIGUOUS",
		[FB_REFUSE_BAD_NAME] = "REFUSE_BAD_NAME",
		[FB_REFUSE_NO_KPROBES] = "REFUSE_NO_KPROBES",
	};

	return (unsigned int)k < ARRAY_SIZE(names) ?
	       names[k] : "?";
}

bool fb_is_refusal(enum fb_kind k)
{
	return k >= FB_REFUSE_NO_FALLBACK;
}

bool fb_is_glob(const char *name)
{
	return strpbrk(name, "*?[") != NULL;
}

unsigned int levenshtein(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b), i, j;
	unsigned int *row = xmalloc((lb + 1) * sizeof(*row)), res;

	for (j = 0; j <= lb; j++)
		row[j] = (unsigned int)j;
	for (i = 1; i <= la; i++) {
		unsigned int diag = row[0];

		row[0] = (unsigned int)i;
		for (j = 1; j <= lb; j++) {
			unsigned int up = row[j];
			unsigned int best = diag + (a[i - 1] != b[j - 1]);

			if (up + 1 < best)
				best = up + 1;
			if (row[j - 1] + 1 < best)
				best = row[j - 1] + 1;
			row[j] = best;
			diag = up;
		}
	}
	res = row[lb];
	free(row);
	return res;
}

/* accepts one or more of ".isra.N", ".constprop.N", ".part.N" */
size_t fb_clone_base_len(const char *sym)
{
	static const char *const tags[] = { ".isra.", ".constprop.", ".part." };
	const char *p = strchr(sym, '.');
	size_t base;

	if (!p || p == sym)
		return 0;
	base = (size_t)(p - sym);
	while (*p) {
		size_t i, l = 0;

		for (i = 0; i < 3; i++) {
			l = strlen(tags[i]);
			if (!strncmp(p, tags[i], l))
				break;
		}
		if (i == 3 || !isdigit((unsigned char)p[l]))
			return 0;
		p += l;
		while (isdigit((unsigned char)*p))
			p++;
	}
	return base;
}

static bool valid_event_name(const char *name)
{
	const char *p = name;

	if (!*p || isdigit((unsigned char)*p))
		return false;
	for (; *p; p++)
		if (!isalnum((unsigned char)*p) && *p != '_' && *p != '.')
			return false;
	return strlen(name) < FB_NAME_LEN;
}

static bool valid_module_name(const char *mod)
{
	const char *p;

	for (p = mod; *p; p++)
		if (!isalnum((unsigned char)*p) && *p != '_' && *p != '-')
			return false;
	return p != mod;
}

struct cand {
	unsigned int dist;
	const char *name;
};

static int cmp_cand(const void *a, const void *b)
{
	const struct cand *x = a, *y = b;

	if (x->dist != y->dist)
		return x->dist < y->dist ? -1 : 1;
	return strcmp(x->name, y->name);
}

/* "sched:sched_switch" -> "sched_switch" */
static const char *id_name(const char *id)
{
	const char *colon = strchr(id, ':');

	return colon ? colon + 1 : id;
}

/* the name of id names one event only: it is enough to name it */
static bool name_unique(const struct strlist *markers, const char *id)
{
	const char *name = id_name(id);
	size_t i, n = 0;

	for (i = 0; i < markers->n; i++)
		n += !strcmp(id_name(markers->v[i]), name);
	return n == 1;
}

/*
 * Up to FB_MAX_SUGGEST events nearest to name (Levenshtein, comparing
 * with both the id and the bare name, without "SYS:"), among those within
 * max(3, strlen(name) / 2) edits: the bare name when it names one event
 * only, else "SYS:NAME".
 */
static void suggest(const struct strlist *markers, const char *name,
		    struct fb_decision *d)
{
	struct cand *c = xmalloc((markers->n + 1) * sizeof(*c));
	size_t i, n = 0;
	unsigned int limit = (unsigned int)strlen(name) / 2;

	if (limit < 3)
		limit = 3;
	for (i = 0; i < markers->n; i++) {
		unsigned int d1 = levenshtein(name, markers->v[i]);
		unsigned int d2 = levenshtein(name, id_name(markers->v[i]));

		if (d2 < d1)
			d1 = d2;
		if (d1 <= limit) {
			c[n].dist = d1;
			c[n++].name = markers->v[i];
		}
	}
	qsort(c, n, sizeof(*c), cmp_cand);
	for (i = 0; i < n && i < FB_MAX_SUGGEST; i++) {
		const char *s = name_unique(markers, c[i].name) ?
				id_name(c[i].name) : c[i].name;

		strlcpy_n(d->suggest[i], FB_NAME_LEN, s, strlen(s));
	}
	d->nsuggest = (unsigned int)i;
	free(c);
}

static void set(char *dst, const char *src)
{
	strlcpy_n(dst, FB_NAME_LEN, src, strlen(src));
}

/* kprobe event names allow [A-Za-z0-9_] only */
static void event_from_name(char *dst, const char *name)
{
	size_t i;

	set(dst, name);
	for (i = 0; dst[i]; i++)
		if (!isalnum((unsigned char)dst[i]))
			dst[i] = '_';
}

static void refuse(enum fb_kind kind, const struct strlist *markers,
		   const char *name, struct fb_decision *d)
{
	d->kind = kind;
	suggest(markers, name, d);
}

/* does a list of ids have one of system or module mod ("mod:...")? */
static bool has_module(const struct strlist *ids, const char *mod)
{
	size_t i, l = strlen(mod);

	for (i = 0; i < ids->n; i++)
		if (!strncmp(ids->v[i], mod, l) && ids->v[i][l] == ':')
			return true;
	return false;
}

/* "MODULE:NAME" names one module (no glob) */
static bool names_module(const struct fb_decision *d)
{
	return d->module[0] && !fb_is_glob(d->module);
}

/*
 * The symbol of kallsyms id if it is where mod says ("": anywhere, else
 * in that module), else NULL.
 */
static const char *sym_in(const char *id, const char *mod)
{
	char m[KM_MODNAME_LEN];
	const char *s = event_split(id, m);

	if (!s || !mod[0])
		return s;
	return strcmp(m, mod) ? NULL : s;
}

/* s is sym, or with clones a compiler clone of it (sym.isra.N ...) */
static bool sym_matches(const char *s, const char *sym, bool clones)
{
	size_t l = strlen(sym);

	if (!clones)
		return !strcmp(s, sym);
	return !strncmp(s, sym, l) && fb_clone_base_len(s) == l;
}

/*
 * Collect the kallsyms ids of mod whose symbol sym_matches() sym: the
 * first two as candidates, the last in *found. Returns how many.
 */
static unsigned int collect(const struct strlist *ksyms, const char *mod,
			    const char *sym, bool clones,
			    struct fb_decision *d, const char **found)
{
	unsigned int n = 0;
	size_t i;

	for (i = 0; i < ksyms->n; i++) {
		const char *s = sym_in(ksyms->v[i], mod);

		if (!s || !sym_matches(s, sym, clones))
			continue;
		if (n < 2)
			set(d->candidates[n], ksyms->v[i]);
		n++;
		*found = ksyms->v[i];
	}
	d->ncandidates = n;
	return n;
}

/* the kprobe fallback for symbol sym of d->module ("": any) */
static void kprobe_on(const struct strlist *markers,
		      const struct strlist *ksyms,
		      const struct strlist *blacklist, const char *name,
		      const char *sym, struct fb_decision *d)
{
	enum fb_kind kind = FB_KPROBE;
	const char *found = NULL;
	unsigned int n = collect(ksyms, d->module, sym, false, d, &found);

	if (n > 1) {
		set(d->symbol, sym);	/* duplicate symbols */
		refuse(FB_REFUSE_AMBIGUOUS, markers, name, d);
		return;
	}
	if (!n) {
		/* compiler clones: NAME.isra.0, NAME.constprop.0 ... */
		n = collect(ksyms, d->module, sym, true, d, &found);
		kind = FB_KPROBE_CLONE;
	}
	if (n > 1) {
		refuse(FB_REFUSE_AMBIGUOUS, markers, name, d);
	} else if (!n) {
		refuse(FB_REFUSE_NOT_FOUND, markers, name, d);
	} else {
		set(d->symbol, found);
		if (sl_contains(blacklist, found))
			refuse(FB_REFUSE_BLACKLIST, markers, name, d);
		else
			d->kind = kind;
	}
}

/*
 * "MODULE:SYM" when a kprobe event of that name is defined (by an earlier
 * fallback): set_event names it "kprobes:SYM".
 */
static bool kprobe_defined(const struct strlist *markers, const char *sym,
			   struct fb_decision *d)
{
	char base[FB_NAME_LEN], ev[FB_NAME_LEN + 8];

	event_from_name(base, sym);
	snprintf(ev, sizeof(ev), "kprobes:%s", base);
	if (!sl_contains(markers, ev))
		return false;
	set(d->event, ev);
	return true;
}

void fb_decide(const struct strlist *markers, const struct strlist *ksyms,
	       const struct strlist *blacklist, const char *name,
	       bool no_fallback, struct fb_decision *d)
{
	const char *sym;

	memset(d, 0, sizeof(*d));
	set(d->event, name);
	sym = event_split(name, d->module);
	if (ids_match_token(markers, name)) {
		d->kind = fb_is_glob(name) ? FB_GLOB : FB_MARKER;
		return;
	}
	if (sym && names_module(d) && !fb_is_glob(sym) &&
	    kprobe_defined(markers, sym, d)) {
		d->kind = FB_MARKER;
		return;
	}
	/* ":NAME" and "SYS/NAME" name events only, never a function */
	if (!fb_is_glob(name) && sym &&
	    (strchr(name, '/') || (sym != name && !d->module[0]))) {
		refuse(FB_REFUSE_BAD_NAME, markers, name, d);
		return;
	}
	/* as the kernel: a module not loaded keeps "MODULE:NAME" for later */
	if (sym && *sym && names_module(d) && valid_module_name(d->module) &&
	    !has_module(markers, d->module) && !has_module(ksyms, d->module)) {
		d->kind = FB_PENDING;
		return;
	}
	if (fb_is_glob(name)) {
		refuse(FB_REFUSE_GLOB, markers, name, d);
		return;
	}
	if (no_fallback) {
		refuse(FB_REFUSE_NO_FALLBACK, markers, name, d);
		return;
	}
	if (!sym || !valid_event_name(sym) ||
	    (d->module[0] && !valid_module_name(d->module))) {
		refuse(FB_REFUSE_BAD_NAME, markers, name, d);
		return;
	}
	kprobe_on(markers, ksyms, blacklist, name, sym, d);
	if (d->kind == FB_KPROBE || d->kind == FB_KPROBE_CLONE) {
		char base[FB_NAME_LEN];

		event_from_name(base, sym);
		snprintf(d->event, FB_NAME_LEN, "kprobes:%.*s",
			 FB_NAME_LEN - 9, base);
	}
}

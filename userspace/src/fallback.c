// SPDX-License-Identifier: GPL-2.0
#include <ctype.h>
#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>

#include "ctlfmt.h"
#include "fallback.h"

const char *fb_kind_name(enum fb_kind k)
{
	static const char *const names[] = {
		[FB_MARKER] = "MARKER",
		[FB_GLOB] = "GLOB",
		[FB_KPROBE] = "KPROBE",
		[FB_KPROBE_CLONE] = "KPROBE_CLONE",
		[FB_REFUSE_NO_FALLBACK] = "REFUSE_NO_FALLBACK",
		[FB_REFUSE_GLOB] = "REFUSE_GLOB",
		[FB_REFUSE_BLACKLIST] = "REFUSE_BLACKLIST",
		[FB_REFUSE_NOT_FOUND] = "REFUSE_NOT_FOUND",
		[FB_REFUSE_AMBIGUOUS] = "REFUSE_AMBIGUOUS",
		[FB_REFUSE_BAD_NAME] = "REFUSE_BAD_NAME",
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

/*
 * Up to FB_MAX_SUGGEST marker names nearest to name (Levenshtein,
 * comparing with both the full and the short "kprobes/"-less name), among
 * those within max(3, strlen(name) / 2) edits.
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
		unsigned int d2 = levenshtein(name,
					      event_short_name(markers->v[i]));

		if (d2 < d1)
			d1 = d2;
		if (d1 <= limit) {
			c[n].dist = d1;
			c[n++].name = markers->v[i];
		}
	}
	qsort(c, n, sizeof(*c), cmp_cand);
	for (i = 0; i < n && i < FB_MAX_SUGGEST; i++)
		strlcpy_n(d->suggest[i], FB_NAME_LEN, c[i].name,
			  strlen(c[i].name));
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

void fb_decide(const struct strlist *markers, const struct strlist *ksyms,
	       const struct strlist *blacklist, const char *name,
	       bool no_fallback, struct fb_decision *d)
{
	size_t i, exact;
	const char *clone = NULL;

	memset(d, 0, sizeof(*d));
	set(d->event, name);

	if (fb_is_glob(name)) {
		for (i = 0; i < markers->n; i++)
			if (!fnmatch(name, markers->v[i], 0) ||
			    !fnmatch(name, event_short_name(markers->v[i]), 0)) {
				d->kind = FB_GLOB;
				return;
			}
		refuse(FB_REFUSE_GLOB, markers, name, d);
		return;
	}
	for (i = 0; i < markers->n; i++)
		if (event_name_matches(markers->v[i], name)) {
			d->kind = FB_MARKER;
			return;
		}
	if (no_fallback) {
		refuse(FB_REFUSE_NO_FALLBACK, markers, name, d);
		return;
	}
	if (!valid_event_name(name)) {
		refuse(FB_REFUSE_BAD_NAME, markers, name, d);
		return;
	}
	event_from_name(d->event, name);

	exact = sl_count(ksyms, name);
	if (exact > 1) {
		set(d->symbol, name);
		d->ncandidates = (unsigned int)exact;
		refuse(FB_REFUSE_AMBIGUOUS, markers, name, d);
		return;
	}
	if (exact == 1) {
		set(d->symbol, name);
		if (sl_contains(blacklist, name))
			refuse(FB_REFUSE_BLACKLIST, markers, name, d);
		else
			d->kind = FB_KPROBE;
		return;
	}

	/* compiler clones: NAME.isra.0, NAME.constprop.0, NAME.part.0 */
	for (i = 0; i < ksyms->n; i++) {
		const char *s = ksyms->v[i];

		if (strncmp(s, name, strlen(name)) ||
		    fb_clone_base_len(s) != strlen(name))
			continue;
		if (d->ncandidates < 2)
			set(d->candidates[d->ncandidates], s);
		d->ncandidates++;
		clone = s;
	}
	if (d->ncandidates > 1) {
		refuse(FB_REFUSE_AMBIGUOUS, markers, name, d);
		return;
	}
	if (clone) {
		set(d->symbol, clone);
		if (sl_contains(blacklist, clone))
			refuse(FB_REFUSE_BLACKLIST, markers, name, d);
		else
			d->kind = FB_KPROBE_CLONE;
		return;
	}
	refuse(FB_REFUSE_NOT_FOUND, markers, name, d);
}

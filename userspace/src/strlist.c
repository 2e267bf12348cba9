// SPDX-License-Identifier: GPL-2.0
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "strlist.h"

void *xmalloc(size_t size)
{
	void *p = malloc(size ? size : 1);

	if (!p) {
		fputs("kmark: out of memory\n", stderr);
		abort();
	}
	return p;
}

void *xrealloc(void *p, size_t size)
{
	p = realloc(p, size ? size : 1);
	if (!p) {
		fputs("kmark: out of memory\n", stderr);
		abort();
	}
	return p;
}

char *xstrdup(const char *s)
{
	size_t len = strlen(s);
	char *p = xmalloc(len + 1);

	memcpy(p, s, len + 1);
	return p;
}

void strlcpy_n(char *dst, size_t size, const char *src, size_t len)
{
	if (!size)
		return;
	if (len >= size)
		len = size - 1;
	memcpy(dst, src, len);
	dst[len] = '\0';
}

void sl_pushn(struct strlist *sl, const char *s, size_t len)
{
	char *p;

	if (sl->n == sl->alloc) {
		sl->alloc = sl->alloc ? sl->alloc * 2 : 16;
		sl->v = xrealloc(sl->v, sl->alloc * sizeof(*sl->v));
	}
	p = xmalloc(len + 1);
	memcpy(p, s, len);
	p[len] = '\0';
	sl->v[sl->n++] = p;
}

void sl_push(struct strlist *sl, const char *s)
{
	sl_pushn(sl, s, strlen(s));
}

size_t sl_count(const struct strlist *sl, const char *s)
{
	size_t i, n = 0;

	for (i = 0; i < sl->n; i++)
		if (!strcmp(sl->v[i], s))
			n++;
	return n;
}

bool sl_contains(const struct strlist *sl, const char *s)
{
	size_t i;

	for (i = 0; i < sl->n; i++)
		if (!strcmp(sl->v[i], s))
			return true;
	return false;
}

void sl_free(struct strlist *sl)
{
	size_t i;

	for (i = 0; i < sl->n; i++)
		free(sl->v[i]);
	free(sl->v);
	sl->v = NULL;
	sl->n = sl->alloc = 0;
}

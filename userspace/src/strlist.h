/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KMARK_STRLIST_H
#define KMARK_STRLIST_H

#include <stdbool.h>
#include <stddef.h>

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

/* A growable list of heap-allocated strings. Zero-initialise before use. */
struct strlist {
	char **v;
	size_t n;
	size_t alloc;
};

void sl_push(struct strlist *sl, const char *s);
void sl_pushn(struct strlist *sl, const char *s, size_t len);
bool sl_contains(const struct strlist *sl, const char *s);
size_t sl_count(const struct strlist *sl, const char *s);
void sl_free(struct strlist *sl);

/* malloc()/realloc()/strdup() that abort() on failure */
void *xmalloc(size_t size);
void *xrealloc(void *p, size_t size);
char *xstrdup(const char *s);

/* copy at most size-1 bytes of src (len bytes) and always NUL-terminate */
void strlcpy_n(char *dst, size_t size, const char *src, size_t len);

#endif

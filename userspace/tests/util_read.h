/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KMARK_TEST_UTIL_READ_H
#define KMARK_TEST_UTIL_READ_H

#include <stdio.h>
#include <stdlib.h>

/* whole file as a malloc'ed string, NULL if unreadable */
static inline char *slurp(const char *path)
{
	FILE *f = fopen(path, "r");
	size_t len = 0, alloc = 4096, n;
	char *buf;

	if (!f)
		return NULL;
	buf = malloc(alloc);
	while (buf && (n = fread(buf + len, 1, alloc - len - 1, f)) > 0) {
		len += n;
		if (alloc - len < 2) {
			alloc *= 2;
			buf = realloc(buf, alloc);
		}
	}
	fclose(f);
	if (buf)
		buf[len] = '\0';
	return buf;
}

#endif

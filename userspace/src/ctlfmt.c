// SPDX-License-Identifier: GPL-2.0
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "ctlfmt.h"

/* return the length of the line starting at p (without the newline) */
static size_t line_len(const char *p)
{
	const char *nl = strchr(p, '\n');

	return nl ? (size_t)(nl - p) : strlen(p);
}

static const char *next_line(const char *p, size_t len)
{
	return p[len] == '\n' ? p + len + 1 : p + len;
}

static bool is_ident(int c)
{
	return isalnum(c) || c == '_';
}

/* scan "name=%conv" pairs out of a printf-style format */
static void parse_fields(struct marker *m)
{
	const char *f = m->format;
	size_t alloc = 0;

	for (const char *eq = strchr(f, '='); eq; eq = strchr(eq + 1, '=')) {
		const char *b = eq, *c = eq + 1;
		struct marker_field *mf;

		while (b > f && is_ident((unsigned char)b[-1]))
			b--;
		if (b == eq || *c != '%')
			continue;
		if (b > f && !isspace((unsigned char)b[-1]) && b[-1] != '(' &&
		    b[-1] != ',')
			continue;
		c++;
		while (*c && strchr("-+ #0123456789.*hlLqjzt", *c))
			c++;
		if (!isalpha((unsigned char)*c))
			continue;
		c++;
		if (m->nfields == alloc) {
			alloc = alloc ? alloc * 2 : 8;
			m->fields = xrealloc(m->fields, alloc * sizeof(*mf));
		}
		mf = &m->fields[m->nfields++];
		strlcpy_n(mf->name, sizeof(mf->name), b, (size_t)(eq - b));
		strlcpy_n(mf->conv, sizeof(mf->conv), eq + 1,
			  (size_t)(c - eq - 1));
	}
}

size_t markers_parse(const char *buf, struct marker_list *out)
{
	size_t alloc = 0;
	const char *p = buf;

	out->v = NULL;
	out->n = 0;
	while (*p) {
		size_t len = line_len(p), nlen;
		const char *q = p, *end = p + len, *fmt;
		struct marker *m;

		while (q < end && isspace((unsigned char)*q))
			q++;
		nlen = 0;
		while (q + nlen < end && !isspace((unsigned char)q[nlen]))
			nlen++;
		if (!nlen || *q == '#') {
			p = next_line(p, len);
			continue;
		}
		if (out->n == alloc) {
			alloc = alloc ? alloc * 2 : 32;
			out->v = xrealloc(out->v, alloc * sizeof(*out->v));
		}
		m = &out->v[out->n++];
		memset(m, 0, sizeof(*m));
		m->name = xmalloc(nlen + 1);
		strlcpy_n(m->name, nlen + 1, q, nlen);
		fmt = q + nlen;
		if (fmt < end)
			fmt++;		/* the single separating space */
		while (fmt < end && *fmt == ' ')
			fmt++;
		m->type = MK_MARKER;
		if (!strncmp(fmt, "[kprobe]", 8)) {
			m->type = MK_KPROBE;
			fmt += 8;
		} else if (!strncmp(fmt, "[kretprobe]", 11)) {
			m->type = MK_KRETPROBE;
			fmt += 11;
		}
		while (fmt < end && *fmt == ' ')
			fmt++;
		/* trim trailing blanks */
		while (end > fmt && isspace((unsigned char)end[-1]))
			end--;
		m->format = xmalloc((size_t)(end - fmt) + 1);
		strlcpy_n(m->format, (size_t)(end - fmt) + 1, fmt,
			  (size_t)(end - fmt));
		parse_fields(m);
		p = next_line(p, len);
	}
	return out->n;
}

void markers_free(struct marker_list *ml)
{
	size_t i;

	for (i = 0; i < ml->n; i++) {
		free(ml->v[i].name);
		free(ml->v[i].format);
		free(ml->v[i].fields);
	}
	free(ml->v);
	ml->v = NULL;
	ml->n = 0;
}

const char *marker_type_name(enum marker_type t)
{
	switch (t) {
	case MK_KPROBE:
		return "kprobe";
	case MK_KRETPROBE:
		return "kretprobe";
	default:
		return "marker";
	}
}

const char *event_short_name(const char *name)
{
	const char *s = strrchr(name, '/');

	return s ? s + 1 : name;
}

bool event_name_matches(const char *full, const char *name)
{
	if (!strcmp(full, name))
		return true;
	/* "kprobes/foo" may be addressed as "foo" */
	return strchr(full, '/') && !strchr(name, '/') &&
	       !strcmp(event_short_name(full), name);
}

const struct marker *markers_find(const struct marker_list *ml,
				  const char *name)
{
	size_t i;

	for (i = 0; i < ml->n; i++)
		if (event_name_matches(ml->v[i].name, name))
			return &ml->v[i];
	return NULL;
}

void markers_names(const struct marker_list *ml, struct strlist *out)
{
	size_t i;

	for (i = 0; i < ml->n; i++)
		sl_push(out, ml->v[i].name);
}

/* push every first whitespace-separated token of each line */
void set_event_parse(const char *buf, struct strlist *out)
{
	const char *p = buf;

	while (*p) {
		size_t len = line_len(p), i = 0, n;

		while (i < len && isspace((unsigned char)p[i]))
			i++;
		n = 0;
		while (i + n < len && !isspace((unsigned char)p[i + n]))
			n++;
		if (n && p[i] != '#')
			sl_pushn(out, p + i, n);
		p = next_line(p, len);
	}
}

bool set_event_has(const struct strlist *enabled, const char *full)
{
	size_t i;

	for (i = 0; i < enabled->n; i++)
		if (event_name_matches(full, enabled->v[i]))
			return true;
	return false;
}

void kallsyms_parse(const char *buf, struct strlist *out)
{
	const char *p = buf;

	/* "ffffffff81000000 T _stext\t[module]" */
	while (*p) {
		size_t len = line_len(p), i = 0, n;

		while (i < len && !isspace((unsigned char)p[i]))
			i++;		/* address */
		while (i < len && isspace((unsigned char)p[i]))
			i++;
		if (i + 1 < len && (p[i] == 't' || p[i] == 'T') &&
		    isspace((unsigned char)p[i + 1])) {
			i += 2;
			while (i < len && isspace((unsigned char)p[i]))
				i++;
			n = 0;
			while (i + n < len && !isspace((unsigned char)p[i + n]))
				n++;
			if (n)
				sl_pushn(out, p + i, n);
		}
		p = next_line(p, len);
	}
}

void blacklist_parse(const char *buf, struct strlist *out)
{
	const char *p = buf;

	/* "0xffffffff81000000-0xffffffff81000010\tsymbol" */
	while (*p) {
		size_t len = line_len(p), i = 0, n;

		while (i < len && !isspace((unsigned char)p[i]))
			i++;
		while (i < len && isspace((unsigned char)p[i]))
			i++;
		n = 0;
		while (i + n < len && !isspace((unsigned char)p[i + n]))
			n++;
		if (n)
			sl_pushn(out, p + i, n);
		p = next_line(p, len);
	}
}

bool errlog_last_entry(const char *buf, const char **start, size_t *len)
{
	const char *p = buf, *last = NULL, *end;

	while (*p) {
		size_t l = line_len(p);

		if (*p == '[')
			last = p;
		p = next_line(p, l);
	}
	if (!last)
		return false;
	/* the entry extends to the next '[' line or the end of the log */
	end = last;
	do {
		end = next_line(end, line_len(end));
	} while (*end && *end != '[');
	*start = last;
	*len = (size_t)(end - last);
	return true;
}

size_t stats_parse(const char *buf, struct kv *out, size_t max)
{
	const char *p = buf;
	size_t n = 0;

	while (*p && n < max) {
		size_t len = line_len(p);
		const char *colon = memchr(p, ':', len);

		if (colon) {
			const char *v = colon + 1, *e = p + len;

			while (v < e && isspace((unsigned char)*v))
				v++;
			while (e > v && isspace((unsigned char)e[-1]))
				e--;
			strlcpy_n(out[n].key, sizeof(out[n].key), p,
				  (size_t)(colon - p));
			strlcpy_n(out[n].val, sizeof(out[n].val), v,
				  (size_t)(e - v));
			n++;
		}
		p = next_line(p, len);
	}
	return n;
}

const char *kv_get(const struct kv *kv, size_t n, const char *key)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!strcmp(kv[i].key, key))
			return kv[i].val;
	return NULL;
}

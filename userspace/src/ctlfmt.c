// SPDX-License-Identifier: GPL-2.0
#include <ctype.h>
#include <fnmatch.h>
#include <stdio.h>
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

/* "name=type" pairs of a kprobe event ("dfd=s32 fname=ustring") */
static void parse_probe_fields(struct marker *m)
{
	const char *p = m->format;
	size_t alloc = 0;

	while (*p) {
		const char *tok, *eq, *end;
		struct marker_field *mf;

		while (isspace((unsigned char)*p))
			p++;
		tok = p;
		while (*p && !isspace((unsigned char)*p))
			p++;
		end = p;
		eq = memchr(tok, '=', (size_t)(end - tok));
		if (!eq || eq == tok || eq + 1 == end)
			continue;
		if (m->nfields == alloc) {
			alloc = alloc ? alloc * 2 : 8;
			m->fields = xrealloc(m->fields, alloc * sizeof(*mf));
		}
		mf = &m->fields[m->nfields++];
		strlcpy_n(mf->name, sizeof(mf->name), tok, (size_t)(eq - tok));
		strlcpy_n(mf->conv, sizeof(mf->conv), eq + 1,
			  (size_t)(end - eq - 1));
	}
}

/* a kprobe event's format starts with its type as a tag: "[kprobe] ..." */
static void parse_tag(struct marker *m, const char **fmt, const char *end)
{
	static const struct {
		const char *tag;
		enum marker_type type;
	} tags[] = {
		{ "[kprobe]", MK_KPROBE },
		{ "[kretprobe]", MK_KRETPROBE },
	};
	size_t i, l;

	m->type = MK_MARKER;
	for (i = 0; i < ARRAY_SIZE(tags); i++) {
		l = strlen(tags[i].tag);
		if ((size_t)(end - *fmt) >= l && !strncmp(*fmt, tags[i].tag, l) &&
		    (*fmt + l == end || isspace((unsigned char)(*fmt)[l]))) {
			m->type = tags[i].type;
			*fmt += l;
			return;
		}
	}
}

static bool is_modname(int c)
{
	return isalnum(c) || c == '_' || c == '-';
}

/*
 * A module's marker ends with " [MODULE]" (ftrace's habit; the whole
 * "format" of a zero-argument one). Kprobe events never do. A kernel
 * marker whose format itself ended in " [word]" would be taken for a
 * module's: the line cannot tell them apart.
 */
static void parse_module(struct marker *m, const char *fmt, const char **end)
{
	const char *e = *end, *b;
	size_t len;

	if (m->type != MK_MARKER || e == fmt || e[-1] != ']')
		return;
	for (b = e - 1; b > fmt && is_modname((unsigned char)b[-1]); b--)
		;
	len = (size_t)(e - 1 - b);
	if (b == fmt || b[-1] != '[' || !len || len >= KM_MODNAME_LEN)
		return;
	if (b - 1 > fmt && b[-2] != ' ')	/* "x=[a]" is the format's */
		return;
	m->module = xmalloc(len + 1);
	strlcpy_n(m->module, len + 1, b, len);
	for (e = b - 1; e > fmt && e[-1] == ' '; e--)
		;
	*end = e;
}

/* "SYS:NAME" (or "SYS/NAME"; a plain "NAME" has system "") */
static void parse_id(struct marker *m, const char *q, size_t nlen)
{
	const char *sep = q, *e = q + nlen;

	while (sep < e && *sep != ':' && *sep != '/')
		sep++;
	if (sep == e)
		sep = q - 1;
	m->system = xmalloc((size_t)(sep + 1 - q) + 1);
	strlcpy_n(m->system, (size_t)(sep + 1 - q) + 1, q,
		  sep < q ? 0 : (size_t)(sep - q));
	m->name = xmalloc((size_t)(e - sep));
	strlcpy_n(m->name, (size_t)(e - sep), sep + 1, (size_t)(e - sep - 1));
}

static void parse_marker(struct marker *m, const char *q, size_t nlen,
			 const char *end)
{
	const char *fmt = q + nlen;

	memset(m, 0, sizeof(*m));
	parse_id(m, q, nlen);
	if (fmt < end)
		fmt++;		/* the single separating space */
	while (fmt < end && *fmt == ' ')
		fmt++;
	/* trim trailing blanks */
	while (end > fmt && isspace((unsigned char)end[-1]))
		end--;
	parse_tag(m, &fmt, end);
	while (fmt < end && *fmt == ' ')
		fmt++;
	parse_module(m, fmt, &end);
	m->format = xmalloc((size_t)(end - fmt) + 1);
	strlcpy_n(m->format, (size_t)(end - fmt) + 1, fmt, (size_t)(end - fmt));
	if (m->type == MK_MARKER)
		parse_fields(m);
	else
		parse_probe_fields(m);
}

size_t markers_parse(const char *buf, struct marker_list *out)
{
	size_t alloc = 0;
	const char *p = buf;

	out->v = NULL;
	out->n = 0;
	while (*p) {
		size_t len = line_len(p), nlen;
		const char *q = p, *end = p + len;

		while (q < end && isspace((unsigned char)*q))
			q++;
		nlen = 0;
		while (q + nlen < end && !isspace((unsigned char)q[nlen]))
			nlen++;
		if (nlen && *q != '#') {
			if (out->n == alloc) {
				alloc = alloc ? alloc * 2 : 32;
				out->v = xrealloc(out->v,
						  alloc * sizeof(*out->v));
			}
			parse_marker(&out->v[out->n++], q, nlen, end);
		}
		p = next_line(p, len);
	}
	return out->n;
}

void markers_free(struct marker_list *ml)
{
	size_t i;

	for (i = 0; i < ml->n; i++) {
		free(ml->v[i].system);
		free(ml->v[i].name);
		free(ml->v[i].format);
		free(ml->v[i].module);
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

char *marker_id(const struct marker *m)
{
	char *id = xmalloc(strlen(m->system) + strlen(m->name) + 2);

	sprintf(id, "%s:%s", m->system, m->name);
	return id;
}

const struct marker *markers_find(const struct marker_list *ml,
				  const char *tok)
{
	size_t i;

	for (i = 0; i < ml->n; i++)
		if (event_token_matches(tok, ml->v[i].system, ml->v[i].name))
			return &ml->v[i];
	return NULL;
}

const char *event_split(const char *id, char *sys)
{
	const char *sep = strpbrk(id, ":/");

	sys[0] = '\0';
	if (!sep)
		return id;
	if (sep - id >= KM_MODNAME_LEN)
		return NULL;
	strlcpy_n(sys, KM_MODNAME_LEN, id, (size_t)(sep - id));
	return sep + 1;
}

void markers_names(const struct marker_list *ml, struct strlist *out)
{
	size_t i;

	for (i = 0; i < ml->n; i++) {
		char *id = marker_id(&ml->v[i]);

		sl_push(out, id);
		free(id);
	}
}

/* a shell pattern; without a glob character, the string itself */
static bool pat_match(const char *pat, const char *s)
{
	return strpbrk(pat, "*?[") ? !fnmatch(pat, s, 0) : !strcmp(pat, s);
}

/* as the kernel's kmark_event_matches() (kernel/trace/kmark_events.c) */
bool event_token_matches(const char *tok, const char *system,
			 const char *name)
{
	char syspat[KM_MODNAME_LEN];
	const char *pat;

	if (!strpbrk(tok, ":/"))
		return pat_match(tok, name) || pat_match(tok, system);
	pat = event_split(tok, syspat);
	if (!pat || (syspat[0] && !pat_match(syspat, system)))
		return false;
	return !*pat || pat_match(pat, name);
}

bool event_token_matches_id(const char *tok, const char *id)
{
	char sys[KM_MODNAME_LEN];
	const char *name = event_split(id, sys);

	return name && event_token_matches(tok, sys, name);
}

bool ids_match_token(const struct strlist *ids, const char *tok)
{
	size_t i;

	for (i = 0; i < ids->n; i++)
		if (event_token_matches_id(tok, ids->v[i]))
			return true;
	return false;
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

void set_event_split(const struct marker_list *ml, const struct strlist *lines,
		     bool *on, struct strlist *tokens)
{
	size_t i, j;

	memset(on, 0, ml->n * sizeof(*on));
	for (i = 0; i < lines->n; i++) {
		const char *l = lines->v[i];
		bool found = false;

		for (j = 0; j < ml->n && !found; j++) {
			const struct marker *m = &ml->v[j];
			size_t sl = strlen(m->system);

			if (!on[j] && !strncmp(l, m->system, sl) &&
			    l[sl] == ':' && !strcmp(l + sl + 1, m->name)) {
				on[j] = true;
				found = true;
			}
		}
		if (!found)
			sl_push(tokens, l);
	}
}

/* "SYM" or "SYM\t[MODULE]" (the rest of a line, len bytes): push its id */
static void push_sym_id(struct strlist *out, const char *p, size_t len)
{
	const char *e = p + len, *mod, *mend = NULL;
	size_t n = 0, size;
	char *id;

	while (n < len && !isspace((unsigned char)p[n]))
		n++;
	if (!n)
		return;
	for (mod = p + n; mod < e && isspace((unsigned char)*mod); mod++)
		;
	if (mod < e && *mod == '[')
		mend = memchr(mod, ']', (size_t)(e - mod));
	if (!mend || mend == mod + 1 || mend - mod > KM_MODNAME_LEN) {
		sl_pushn(out, p, n);
		return;
	}
	mod++;
	size = (size_t)(mend - mod) + n + 2;
	id = xmalloc(size);
	snprintf(id, size, "%.*s:%.*s", (int)(mend - mod), mod, (int)n, p);
	sl_push(out, id);
	free(id);
}

void kallsyms_parse(const char *buf, struct strlist *out)
{
	const char *p = buf;

	/* "ffffffff81000000 T _stext", "ffffffffc0001000 t sym\t[module]" */
	while (*p) {
		size_t len = line_len(p), i = 0;

		while (i < len && !isspace((unsigned char)p[i]))
			i++;		/* address */
		while (i < len && isspace((unsigned char)p[i]))
			i++;
		if (i + 1 < len && (p[i] == 't' || p[i] == 'T') &&
		    isspace((unsigned char)p[i + 1])) {
			i += 2;
			while (i < len && isspace((unsigned char)p[i]))
				i++;
			push_sym_id(out, p + i, len - i);
		}
		p = next_line(p, len);
	}
}

void blacklist_parse(const char *buf, struct strlist *out)
{
	const char *p = buf;

	/* "0xffffffff81000000-0xffffffff81000010\tsymbol [module]" */
	while (*p) {
		size_t len = line_len(p), i = 0;

		while (i < len && !isspace((unsigned char)p[i]))
			i++;
		while (i < len && isspace((unsigned char)p[i]))
			i++;
		push_sym_id(out, p + i, len - i);
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

bool ctl_top_only(const char *name)
{
	static const char *const top[] = {
		"available_markers", "README", "kprobe_events",
		"dynamic_events", "kprobe_profile", "saved_comms",
		"saved_cmdlines", "instances",
	};
	const char *slash = strchr(name, '/');
	size_t first = slash ? (size_t)(slash - name) : strlen(name), i;

	for (i = 0; i < sizeof(top) / sizeof(top[0]); i++)
		if (strlen(top[i]) == first && !strncmp(name, top[i], first))
			return true;
	return false;
}

#define INSTANCE_NAME_MAX 64	/* with the NUL, as the kernel's */

const char *instance_name_err(const char *name)
{
	const char *p;

	if (!*name)
		return "an instance needs a name";
	if (strlen(name) >= INSTANCE_NAME_MAX)
		return "instance name too long (at most 63 characters)";
	for (p = name; *p; p++)
		if (!isalnum((unsigned char)*p) && *p != '_' && *p != '-' &&
		    *p != '.')
			return "instance names take letters, digits, '_', '-' and '.'";
	if (!instance_dirent(name))
		return "reserved name";
	return NULL;
}

bool instance_dirent(const char *name)
{
	return strcmp(name, "new") && strcmp(name, "remove") &&
	       strcmp(name, ".") && strcmp(name, "..");
}

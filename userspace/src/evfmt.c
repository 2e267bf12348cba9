// SPDX-License-Identifier: GPL-2.0
/*
 * Format files and print fmt evaluation.
 *
 * The print fmt is "FORMAT", ARG, ARG...: a printf format and C
 * expressions over the record (REC->field, __get_str(field)), with the
 * helpers __print_flags() and __print_symbolic(). The expressions are
 * parsed once into a small tree and evaluated per record.
 */
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "evfmt.h"
#include "strlist.h"

/* --- output buffer ------------------------------------------------------ */

static void eb_grow(struct ef_buf *b, size_t n)
{
	if (b->len + n + 1 <= b->alloc)
		return;
	while (b->len + n + 1 > b->alloc)
		b->alloc = b->alloc ? b->alloc * 2 : 256;
	b->s = xrealloc(b->s, b->alloc);
}

void eb_reset(struct ef_buf *b)
{
	eb_grow(b, 0);
	b->len = 0;
	b->s[0] = '\0';
}

void eb_putn(struct ef_buf *b, const char *s, size_t n)
{
	eb_grow(b, n);
	memcpy(b->s + b->len, s, n);
	b->len += n;
	b->s[b->len] = '\0';
}

void eb_puts(struct ef_buf *b, const char *s)
{
	eb_putn(b, s, strlen(s));
}

void eb_printf(struct ef_buf *b, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n <= 0)
		return;
	eb_grow(b, (size_t)n);
	va_start(ap, fmt);
	vsnprintf(b->s + b->len, (size_t)n + 1, fmt, ap);
	va_end(ap);
	b->len += (size_t)n;
}

void eb_free(struct ef_buf *b)
{
	free(b->s);
	memset(b, 0, sizeof(*b));
}

/* --- numbers ------------------------------------------------------------ */

unsigned long long ef_read_uint(const unsigned char *p, unsigned int size)
{
	unsigned char u8;
	unsigned short u16;
	unsigned int u32;
	unsigned long long u64;

	switch (size) {
	case 1:
		u8 = *p;
		return u8;
	case 2:
		memcpy(&u16, p, 2);
		return u16;
	case 4:
		memcpy(&u32, p, 4);
		return u32;
	default:
		memcpy(&u64, p, 8);
		return u64;
	}
}

static unsigned long long sign_extend(unsigned long long v, unsigned int size)
{
	unsigned int bits = size * 8;

	if (bits >= 64 || !bits)
		return v;
	v &= (1ULL << bits) - 1;
	if (v & (1ULL << (bits - 1)))
		v |= ~0ULL << bits;
	return v;
}

static unsigned long long truncate_to(unsigned long long v, unsigned int size)
{
	if (size >= 8 || !size)
		return v;
	return v & ((1ULL << (size * 8)) - 1);
}

/* "N" at p: the number (decimal), p advanced; false when none */
static bool take_uint(const char **p, unsigned int *out)
{
	char *e;
	unsigned long v = strtoul(*p, &e, 10);

	if (e == *p || v > 0xffffffffUL)
		return false;
	*out = (unsigned int)v;
	*p = e;
	return true;
}

/* value of "KEY:N;" in line, or false */
static bool line_key(const char *line, const char *key, unsigned int *out)
{
	const char *p = strstr(line, key);

	if (!p)
		return false;
	p += strlen(key);
	return take_uint(&p, out);
}

int ef_parse_header_page(const char *text, struct ef_header *h)
{
	const char *line = text;
	bool have_commit = false, have_data = false;
	unsigned int off, size;

	memset(h, 0, sizeof(*h));
	while (line && *line) {
		const char *nl = strchr(line, '\n');
		char buf[256];

		strlcpy_n(buf, sizeof(buf), line,
			  nl ? (size_t)(nl - line) : strlen(line));
		if (line_key(buf, "offset:", &off) &&
		    line_key(buf, "size:", &size)) {
			if (strstr(buf, " commit;")) {
				h->commit_size = size;
				have_commit = true;
			} else if (strstr(buf, " data;")) {
				h->data_offset = off;
				h->page_size = off + size;
				have_data = true;
			}
		}
		line = nl ? nl + 1 : NULL;
	}
	if (!have_commit || !have_data ||
	    (h->commit_size != 4 && h->commit_size != 8) ||
	    h->data_offset != 8 + h->commit_size ||
	    h->page_size < 64 || h->page_size > (1U << 27))
		return -1;
	return 0;
}

/* --- expressions ---------------------------------------------------------- */

enum ex_kind {
	EX_NUM, EX_STR, EX_FIELD, EX_GETSTR, EX_UN, EX_BIN, EX_COND,
	EX_FLAGS, EX_SYM, EX_CAST,
};

enum {
	OP_LSH = 256, OP_RSH, OP_EQ, OP_NE, OP_LE, OP_GE, OP_LAND, OP_LOR,
};

struct ex_sym {
	unsigned long long v;
	char *s;
};

struct ex_node {
	enum ex_kind kind;
	int op;			/* EX_UN, EX_BIN; EX_CAST: signed */
	unsigned long long num;	/* EX_NUM; EX_CAST: size, 0 = long */
	char *str;		/* EX_STR; EX_FLAGS: the delimiter */
	int field;		/* EX_FIELD, EX_GETSTR */
	struct ex_node *a, *b, *c;
	struct ex_sym *syms;	/* EX_FLAGS, EX_SYM */
	size_t nsyms;
};

static void ex_free(struct ex_node *n)
{
	size_t i;

	if (!n)
		return;
	ex_free(n->a);
	ex_free(n->b);
	ex_free(n->c);
	for (i = 0; i < n->nsyms; i++)
		free(n->syms[i].s);
	free(n->syms);
	free(n->str);
	free(n);
}

struct parser {
	const char *p;
	const struct ef_event *ev;
	bool err;
};

static struct ex_node *new_node(enum ex_kind kind)
{
	struct ex_node *n = xmalloc(sizeof(*n));

	memset(n, 0, sizeof(*n));
	n->kind = kind;
	n->field = -1;
	return n;
}

static void skip_ws(struct parser *ps)
{
	while (isspace((unsigned char)*ps->p))
		ps->p++;
}

static bool take(struct parser *ps, const char *tok)
{
	size_t n = strlen(tok);

	skip_ws(ps);
	if (strncmp(ps->p, tok, n))
		return false;
	ps->p += n;
	return true;
}

static bool is_ident_char(char c)
{
	return isalnum((unsigned char)c) || c == '_';
}

/* identifier at the current position into buf (empty when none) */
static void peek_ident(struct parser *ps, char *buf, size_t size)
{
	const char *e;

	skip_ws(ps);
	e = ps->p;
	if (!isalpha((unsigned char)*e) && *e != '_') {
		buf[0] = '\0';
		return;
	}
	while (is_ident_char(*e))
		e++;
	strlcpy_n(buf, size, ps->p, (size_t)(e - ps->p));
}

/* a C string literal at the current position, unescaped */
static char *parse_string(struct parser *ps)
{
	struct ef_buf b = { 0 };

	skip_ws(ps);
	if (*ps->p != '"') {
		ps->err = true;
		return NULL;
	}
	eb_reset(&b);
again:
	for (ps->p++; *ps->p && *ps->p != '"'; ps->p++) {
		char c = *ps->p;

		if (c == '\\' && ps->p[1]) {
			c = *++ps->p;
			switch (c) {
			case 'n':
				c = '\n';
				break;
			case 't':
				c = '\t';
				break;
			case 'r':
				c = '\r';
				break;
			case '0':
				c = '\0';
				break;
			default:
				break;	/* \" \\ \' and the rest: the char */
			}
		}
		eb_putn(&b, &c, 1);
	}
	if (*ps->p != '"') {
		ps->err = true;
		eb_free(&b);
		return NULL;
	}
	ps->p++;
	/* adjacent literals are one string, as in C (ftrace's kernel_stack) */
	skip_ws(ps);
	if (*ps->p == '"')
		goto again;
	return b.s;
}

static struct ex_node *parse_cond(struct parser *ps);

static int field_arg(struct parser *ps)
{
	char id[128];
	int f;

	peek_ident(ps, id, sizeof(id));
	f = id[0] ? ef_field_index(ps->ev, id) : -1;
	if (f < 0) {
		ps->err = true;
		return -1;
	}
	ps->p += strlen(id);
	return f;
}

/* { value, "name" }, ... up to the closing parenthesis */
static void parse_syms(struct parser *ps, struct ex_node *n)
{
	while (!ps->err && take(ps, ",")) {
		struct ex_node *v;

		if (!take(ps, "{")) {
			ps->err = true;
			break;
		}
		v = parse_cond(ps);
		if (ps->err || v->kind != EX_NUM || !take(ps, ",")) {
			ex_free(v);
			ps->err = true;
			break;
		}
		n->syms = xrealloc(n->syms, (n->nsyms + 1) * sizeof(*n->syms));
		n->syms[n->nsyms].v = v->num;
		ex_free(v);
		n->syms[n->nsyms].s = parse_string(ps);
		if (ps->err) {
			break;
		}
		n->nsyms++;
		if (!take(ps, "}"))
			ps->err = true;
	}
	if (!take(ps, ")"))
		ps->err = true;
}

/* a cast's type: size (0 for long) and signedness; false if not a type */
static bool cast_type(const char *s, size_t len, unsigned long long *size,
		      int *sign)
{
	static const struct {
		const char *name;
		unsigned int size;
		int sign;
	} types[] = {
		{ "u8", 1, 0 }, { "u16", 2, 0 }, { "u32", 4, 0 },
		{ "u64", 8, 0 }, { "s8", 1, 1 }, { "s16", 2, 1 },
		{ "s32", 4, 1 }, { "s64", 8, 1 }, { "bool", 1, 0 },
		{ "_Bool", 1, 0 }, { "char", 1, 1 }, { "short", 2, 1 },
		{ "int", 4, 1 }, { "long", 0, 1 }, { "long long", 8, 1 },
		{ "size_t", 0, 0 }, { "ssize_t", 0, 1 }, { "pid_t", 4, 1 },
	};
	char buf[64];
	size_t i;
	int unsig = 0;

	if (len >= sizeof(buf))		/* longer than any type we know */
		return false;
	strlcpy_n(buf, sizeof(buf), s, len);
	while (len && buf[len - 1] == ' ')
		buf[--len] = '\0';
	if (len && buf[len - 1] == '*') {	/* any pointer: a long */
		*size = 0;
		*sign = 0;
		return true;
	}
	s = buf;
	if (!strncmp(s, "const ", 6))
		s += 6;
	if (!strncmp(s, "unsigned ", 9)) {
		unsig = 1;
		s += 9;
	} else if (!strcmp(s, "unsigned")) {
		s = "int";
		unsig = 1;
	} else if (!strncmp(s, "signed ", 7)) {
		s += 7;
	}
	if (!strcmp(s, "long int"))
		s = "long";
	if (!strcmp(s, "long long int"))
		s = "long long";
	for (i = 0; i < ARRAY_SIZE(types); i++) {
		if (!strcmp(s, types[i].name)) {
			*size = types[i].size;
			*sign = unsig ? 0 : types[i].sign;
			return true;
		}
	}
	return false;
}

static struct ex_node *parse_unary(struct parser *ps);

static struct ex_node *parse_primary(struct parser *ps)
{
	struct ex_node *n;
	char id[128];
	char *e;

	skip_ws(ps);
	if (*ps->p == '(') {
		const char *close = strchr(ps->p, ')');
		unsigned long long size;
		int sign;

		if (close && cast_type(ps->p + 1, (size_t)(close - ps->p - 1),
				       &size, &sign)) {
			ps->p = close + 1;
			n = new_node(EX_CAST);
			n->num = size;
			n->op = sign;
			n->a = parse_unary(ps);
			return n;
		}
		ps->p++;
		n = parse_cond(ps);
		if (!take(ps, ")"))
			ps->err = true;
		return n;
	}
	if (*ps->p == '"') {
		n = new_node(EX_STR);
		n->str = parse_string(ps);
		return n;
	}
	if (isdigit((unsigned char)*ps->p)) {
		n = new_node(EX_NUM);
		n->num = strtoull(ps->p, &e, 0);
		ps->p = e;
		while (*ps->p == 'u' || *ps->p == 'U' || *ps->p == 'l' ||
		       *ps->p == 'L')
			ps->p++;
		return n;
	}
	if (take(ps, "REC->")) {
		n = new_node(EX_FIELD);
		n->field = field_arg(ps);
		return n;
	}
	peek_ident(ps, id, sizeof(id));
	if (!strcmp(id, "__get_str")) {
		ps->p += strlen(id);
		n = new_node(EX_GETSTR);
		if (!take(ps, "("))
			ps->err = true;
		if (!ps->err)
			n->field = field_arg(ps);
		if (!ps->err && !ps->ev->fields[n->field].string)
			ps->err = true;
		if (!take(ps, ")"))
			ps->err = true;
		return n;
	}
	if (!strcmp(id, "__print_flags") || !strcmp(id, "__print_symbolic")) {
		bool flags = id[8] == 'f';

		ps->p += strlen(id);
		n = new_node(flags ? EX_FLAGS : EX_SYM);
		if (!take(ps, "(")) {
			ps->err = true;
			return n;
		}
		n->a = parse_cond(ps);
		if (flags && !ps->err) {
			if (!take(ps, ","))
				ps->err = true;
			else
				n->str = parse_string(ps);
		}
		if (!ps->err)
			parse_syms(ps, n);
		return n;
	}
	ps->err = true;
	return new_node(EX_NUM);
}

static struct ex_node *parse_unary(struct parser *ps)
{
	struct ex_node *n;

	skip_ws(ps);
	if ((*ps->p == '!' && ps->p[1] != '=') || *ps->p == '~' ||
	    *ps->p == '-' || *ps->p == '+') {
		n = new_node(EX_UN);
		n->op = *ps->p++;
		n->a = parse_unary(ps);
		return n;
	}
	return parse_primary(ps);
}

/* binary operators by precedence level, lowest first */
struct binop {
	const char *tok;
	int op;
};

static const struct binop levels[][4] = {
	{ { "||", OP_LOR } },
	{ { "&&", OP_LAND } },
	{ { "|", '|' } },
	{ { "^", '^' } },
	{ { "&", '&' } },
	{ { "==", OP_EQ }, { "!=", OP_NE } },
	{ { "<=", OP_LE }, { ">=", OP_GE }, { "<", '<' }, { ">", '>' } },
	{ { "<<", OP_LSH }, { ">>", OP_RSH } },
	{ { "+", '+' }, { "-", '-' } },
	{ { "*", '*' }, { "/", '/' }, { "%", '%' } },
};

#define NLEVELS ((int)ARRAY_SIZE(levels))

/* the operator of this level at the current position, consumed; or 0 */
static int match_op(struct parser *ps, int level)
{
	const char *p;
	size_t i, n;

	skip_ws(ps);
	p = ps->p;
	for (i = 0; i < ARRAY_SIZE(levels[0]) && levels[level][i].tok; i++) {
		const char *t = levels[level][i].tok;

		n = strlen(t);
		if (strncmp(p, t, n))
			continue;
		/* "|" is not "||", "&" not "&&", "<" not "<<" or "<=" */
		if (n == 1 && strchr("|&<>", *t) &&
		    (p[1] == *t || p[1] == '='))
			continue;
		ps->p += n;
		return levels[level][i].op;
	}
	return 0;
}

static struct ex_node *parse_level(struct parser *ps, int level)
{
	struct ex_node *l, *n;
	int op;

	if (level == NLEVELS)
		return parse_unary(ps);
	l = parse_level(ps, level + 1);
	while (!ps->err && (op = match_op(ps, level))) {
		n = new_node(EX_BIN);
		n->op = op;
		n->a = l;
		n->b = parse_level(ps, level + 1);
		l = n;
	}
	return l;
}

static struct ex_node *parse_cond(struct parser *ps)
{
	struct ex_node *c = parse_level(ps, 0), *n;

	if (ps->err || !take(ps, "?"))
		return c;
	n = new_node(EX_COND);
	n->a = c;
	n->b = parse_cond(ps);
	if (!take(ps, ":"))
		ps->err = true;
	else
		n->c = parse_cond(ps);
	return n;
}

/* --- format files ------------------------------------------------------- */

static void parse_field(const char *decl, size_t dlen, struct ef_field *f)
{
	char buf[256], *name, *br;
	size_t len;

	strlcpy_n(buf, sizeof(buf), decl, dlen);
	len = strlen(buf);
	while (len && isspace((unsigned char)buf[len - 1]))
		buf[--len] = '\0';
	/* "char common_comm[16]": the name is before the brackets */
	br = len && buf[len - 1] == ']' ? strrchr(buf, '[') : NULL;
	if (br && br > buf && is_ident_char(br[-1]))
		*br = '\0';
	else
		br = NULL;
	len = strlen(buf);
	name = buf + len;
	while (name > buf && is_ident_char(name[-1]))
		name--;
	f->name = xstrdup(name);
	*name = '\0';
	len = strlen(buf);
	while (len && isspace((unsigned char)buf[len - 1]))
		buf[--len] = '\0';
	if (br) {
		/* type "char[16]" */
		char t[300];

		snprintf(t, sizeof(t), "%s[%s", buf, br + 1);
		f->type = xstrdup(t);
	} else {
		f->type = xstrdup(buf);
	}
	f->dataloc = !strncmp(f->type, "__data_loc ", 11) ||
		     !strncmp(f->type, "__rel_loc ", 10);
	f->string = strstr(f->type, "char") &&
		    (f->dataloc || strchr(f->type, '['));
}

int ef_field_index(const struct ef_event *ev, const char *name)
{
	size_t i;

	for (i = 0; i < ev->nfields; i++)
		if (!strcmp(ev->fields[i].name, name))
			return (int)i;
	return -1;
}

static void parse_print_fmt(const char *s, struct ef_event *ev)
{
	struct parser ps = { .p = s, .ev = ev };

	ev->fmt = parse_string(&ps);
	if (ps.err)
		return;
	while (!ps.err && take(&ps, ",")) {
		struct ex_node *n = parse_cond(&ps);

		ev->args = xrealloc(ev->args, (ev->nargs + 1) * sizeof(*ev->args));
		ev->args[ev->nargs++] = n;
	}
	skip_ws(&ps);
	ev->fmt_ok = !ps.err && !*ps.p;
}

int ef_parse_format(const char *text, struct ef_event *ev)
{
	const char *line = text;
	bool have_name = false, have_id = false, in_fields = false;
	bool common = true, bad = false;

	memset(ev, 0, sizeof(*ev));
	while (line && *line) {
		const char *nl = strchr(line, '\n');
		size_t len = nl ? (size_t)(nl - line) : strlen(line);
		const char *p = line;

		while (p < line + len && (*p == ' ' || *p == '\t'))
			p++;
		if (!strncmp(line, "name: ", 6)) {
			free(ev->name);
			ev->name = xmalloc(len - 5);
			strlcpy_n(ev->name, len - 5, line + 6, len - 6);
			have_name = ev->name[0] != '\0';
		} else if (!strncmp(line, "ID: ", 4)) {
			const char *q = line + 4;

			have_id = take_uint(&q, &ev->id);
		} else if (!strncmp(line, "format:", 7)) {
			in_fields = true;
		} else if (!strncmp(line, "print fmt: ", 11)) {
			char *s = xmalloc(len - 10);

			strlcpy_n(s, len - 10, line + 11, len - 11);
			parse_print_fmt(s, ev);
			free(s);
			in_fields = false;
		} else if (in_fields && p == line + len) {
			if (ev->nfields)
				common = false;
		} else if (in_fields && !strncmp(p, "field:", 6)) {
			const char *semi = memchr(p, ';', (size_t)(line + len - p));
			struct ef_field *f;
			unsigned int sg = 0;
			char buf[512];

			strlcpy_n(buf, sizeof(buf), p, (size_t)(line + len - p));
			ev->fields = xrealloc(ev->fields, (ev->nfields + 1) *
					      sizeof(*ev->fields));
			f = &ev->fields[ev->nfields];
			memset(f, 0, sizeof(*f));
			if (!semi) {
				bad = true;
				break;
			}
			parse_field(p + 6, (size_t)(semi - p - 6), f);
			ev->nfields++;
			if (!f->name[0] || !line_key(buf, "offset:", &f->offset) ||
			    !line_key(buf, "size:", &f->size) ||
			    !line_key(buf, "signed:", &sg))
				bad = true;
			f->is_signed = sg;
			f->common = common;
		}
		line = nl ? nl + 1 : NULL;
	}
	ev->f_type = ef_field_index(ev, "common_type");
	ev->f_flags = ef_field_index(ev, "common_flags");
	ev->f_pc = ef_field_index(ev, "common_preempt_count");
	ev->f_pid = ef_field_index(ev, "common_pid");
	ev->f_comm = ef_field_index(ev, "common_comm");
	ev->f_comm_id = ef_field_index(ev, "common_comm_id");
	if (!ev->fmt || !ev->fmt_ok)
		ev->fmt_ok = false;
	return have_name && have_id && !bad ? 0 : -1;
}

void ef_event_free(struct ef_event *ev)
{
	size_t i;

	for (i = 0; i < ev->nfields; i++) {
		free(ev->fields[i].name);
		free(ev->fields[i].type);
	}
	free(ev->fields);
	for (i = 0; i < ev->nargs; i++)
		ex_free(ev->args[i]);
	free(ev->args);
	free(ev->fmt);
	free(ev->name);
	free(ev->system);
	memset(ev, 0, sizeof(*ev));
}

/* --- field access ------------------------------------------------------- */

bool ef_get_int(const struct ef_field *f, const unsigned char *rec,
		size_t len, unsigned long long *v)
{
	if (f->size != 1 && f->size != 2 && f->size != 4 && f->size != 8)
		return false;
	if ((size_t)f->offset + f->size > len)
		return false;
	*v = ef_read_uint(rec + f->offset, f->size);
	if (f->is_signed)
		*v = sign_extend(*v, f->size);
	return true;
}

bool ef_get_str(const struct ef_field *f, const unsigned char *rec,
		size_t len, const char **s, size_t *slen)
{
	size_t off, n;

	if ((size_t)f->offset + f->size > len)
		return false;
	if (f->dataloc) {
		unsigned long long loc;

		if (f->size != 4)
			return false;
		loc = ef_read_uint(rec + f->offset, 4);
		off = loc & 0xffff;
		n = (size_t)(loc >> 16);
		if (!strncmp(f->type, "__rel_loc", 9))
			off += f->offset + 4;
	} else {
		off = f->offset;
		n = f->size;
	}
	if (off > len || n > len - off)
		return false;
	*s = (const char *)rec + off;
	*slen = strnlen(*s, n);
	return true;
}

/* --- evaluation ------------------------------------------------------------ */

struct ex_val {
	bool is_str;
	unsigned long long n;
	const char *s;		/* NULL: the text is in tmp */
	size_t slen;
	char tmp[256];
};

struct eval {
	const struct ef_event *ev;
	const unsigned char *rec;
	size_t len;
	unsigned int long_size;
	bool err;
};

static const char *vstr(const struct ex_val *v)
{
	return v->s ? v->s : v->tmp;
}

static void set_tmp(struct ex_val *v, const struct ef_buf *b)
{
	v->is_str = true;
	v->s = NULL;
	strlcpy_n(v->tmp, sizeof(v->tmp), b->s ? b->s : "", b->len);
	v->slen = strlen(v->tmp);
}

static void eval(struct eval *e, const struct ex_node *n, struct ex_val *v);

static unsigned long long eval_num(struct eval *e, const struct ex_node *n)
{
	struct ex_val v;

	eval(e, n, &v);
	if (v.is_str)
		e->err = true;
	return v.n;
}

static void eval_flags(struct eval *e, const struct ex_node *n,
		       struct ex_val *v)
{
	unsigned long long val = eval_num(e, n->a);
	struct ef_buf b = { 0 };
	size_t i;

	eb_reset(&b);
	if (n->kind == EX_SYM) {
		for (i = 0; i < n->nsyms; i++)
			if (n->syms[i].v == val)
				break;
		if (i < n->nsyms)
			eb_puts(&b, n->syms[i].s);
		else
			eb_printf(&b, "0x%llx", val);
	} else {
		bool first = true;

		for (i = 0; i < n->nsyms; i++) {
			unsigned long long m = n->syms[i].v;

			if (!m && !val) {
				eb_puts(&b, n->syms[i].s);
				first = false;
				break;
			}
			if (!m || (val & m) != m)
				continue;
			if (!first)
				eb_puts(&b, n->str);
			eb_puts(&b, n->syms[i].s);
			first = false;
			val &= ~m;
		}
		if (val) {
			if (!first)
				eb_puts(&b, n->str);
			eb_printf(&b, "0x%llx", val);
		}
	}
	set_tmp(v, &b);
	eb_free(&b);
}

static unsigned long long binop(struct eval *e, int op, unsigned long long a,
				unsigned long long b)
{
	long long sa = (long long)a, sb = (long long)b;

	switch (op) {
	case '|': return a | b;
	case '^': return a ^ b;
	case '&': return a & b;
	case '+': return a + b;
	case '-': return a - b;
	case '*': return a * b;
	case '/':
	case '%':
		if (!b || (sa == -sa && sb == -1)) {
			e->err = true;
			return 0;
		}
		return op == '/' ? (unsigned long long)(sa / sb) :
				   (unsigned long long)(sa % sb);
	case OP_LSH: return b >= 64 ? 0 : a << b;
	case OP_RSH: return b >= 64 ? 0 : a >> b;
	case OP_EQ: return a == b;
	case OP_NE: return a != b;
	case '<': return sa < sb;
	case '>': return sa > sb;
	case OP_LE: return sa <= sb;
	case OP_GE: return sa >= sb;
	default:
		e->err = true;
		return 0;
	}
}

static void eval(struct eval *e, const struct ex_node *n, struct ex_val *v)
{
	const struct ef_field *f;
	unsigned long long a;

	memset(v, 0, offsetof(struct ex_val, tmp));
	v->tmp[0] = '\0';
	if (e->err)
		return;
	switch (n->kind) {
	case EX_NUM:
		v->n = n->num;
		break;
	case EX_STR:
		v->is_str = true;
		v->s = n->str;
		v->slen = strlen(n->str);
		break;
	case EX_FIELD:
		f = &e->ev->fields[n->field];
		if (f->string) {
			v->is_str = true;
			if (!ef_get_str(f, e->rec, e->len, &v->s, &v->slen))
				e->err = true;
		} else if (!ef_get_int(f, e->rec, e->len, &v->n)) {
			e->err = true;
		}
		break;
	case EX_GETSTR:
		v->is_str = true;
		if (!ef_get_str(&e->ev->fields[n->field], e->rec, e->len,
				&v->s, &v->slen))
			e->err = true;
		break;
	case EX_CAST:
		a = eval_num(e, n->a);
		{
			unsigned int size = n->num ? (unsigned int)n->num :
						     e->long_size;

			v->n = n->op ? sign_extend(a, size) :
				       truncate_to(a, size);
		}
		break;
	case EX_UN:
		a = eval_num(e, n->a);
		v->n = n->op == '!' ? !a : n->op == '~' ? ~a :
		       n->op == '-' ? -a : a;
		break;
	case EX_BIN:
		a = eval_num(e, n->a);
		if (n->op == OP_LAND || n->op == OP_LOR) {
			if (n->op == OP_LAND ? !a : !!a) {
				v->n = n->op == OP_LOR;
				break;
			}
			v->n = !!eval_num(e, n->b);
			break;
		}
		v->n = binop(e, n->op, a, eval_num(e, n->b));
		break;
	case EX_COND:
		eval(e, eval_num(e, n->a) ? n->b : n->c, v);
		break;
	case EX_FLAGS:
	case EX_SYM:
		eval_flags(e, n, v);
		break;
	}
}

/* --- printf --------------------------------------------------------------- */

/* one conversion of the print fmt, applied to v */
static void print_conv(struct eval *e, const char *flags, int width, int prec,
		       const char *lenmod, char conv, const char *ext,
		       const struct ex_val *v, struct ef_buf *out)
{
	char f[48];
	unsigned int size;
	unsigned long long n = v->n;

	if (conv == 's' || (v->is_str && conv != 'c')) {
		size_t sl = v->slen;

		if (!v->is_str) {	/* a number for %s: print it */
			eb_printf(out, "%lld", (long long)n);
			return;
		}
		if (prec >= 0 && (size_t)prec < sl)
			sl = (size_t)prec;
		snprintf(f, sizeof(f), "%%%s%s.*s", flags, width >= 0 ? "*" : "");
		if (width >= 0)
			eb_printf(out, f, width, (int)sl, vstr(v));
		else
			eb_printf(out, f, (int)sl, vstr(v));
		return;
	}
	if (!strcmp(lenmod, "hh"))
		size = 1;
	else if (!strcmp(lenmod, "h"))
		size = 2;
	else if (!strcmp(lenmod, "ll") || !strcmp(lenmod, "L") ||
		 !strcmp(lenmod, "j") || !strcmp(lenmod, "q"))
		size = 8;
	else if (*lenmod)		/* l, z, t */
		size = e->long_size;
	else
		size = 4;
	if (conv == 'p') {
		size = e->long_size;
		n = truncate_to(n, size);
		if (ext[0] == 'x')
			eb_printf(out, "%0*llx", (int)size * 2, n);
		else
			eb_printf(out, "0x%llx", n);
		return;
	}
	if (conv == 'c') {
		snprintf(f, sizeof(f), "%%%s%sc", flags, width >= 0 ? "*" : "");
		if (width >= 0)
			eb_printf(out, f, width, (int)(unsigned char)n);
		else
			eb_printf(out, f, (int)(unsigned char)n);
		return;
	}
	if (conv == 'd' || conv == 'i')
		n = sign_extend(n, size);
	else
		n = truncate_to(n, size);
	snprintf(f, sizeof(f), "%%%s%s%sll%c", flags, width >= 0 ? "*" : "",
		 prec >= 0 ? ".*" : "", conv == 'i' ? 'd' : conv);
	if (width >= 0 && prec >= 0)
		eb_printf(out, f, width, prec, n);
	else if (width >= 0)
		eb_printf(out, f, width, n);
	else if (prec >= 0)
		eb_printf(out, f, prec, n);
	else
		eb_printf(out, f, n);
}

/* false when the format cannot be applied (then nothing is kept) */
static bool render_fmt(struct eval *e, struct ef_buf *out)
{
	const char *p = e->ev->fmt;
	size_t arg = 0, start = out->len;

	while (*p) {
		char flags[8] = "", lenmod[4] = "", ext[8] = "", conv;
		int width = -1, prec = -1;
		size_t nf = 0, nl = 0, ne = 0;
		struct ex_val v;

		if (*p != '%') {
			const char *q = strchr(p, '%');
			size_t n = q ? (size_t)(q - p) : strlen(p);

			eb_putn(out, p, n);
			p += n;
			continue;
		}
		p++;
		if (*p == '%') {
			eb_putn(out, "%", 1);
			p++;
			continue;
		}
		while (strchr("-+ #0", *p) && *p && nf < sizeof(flags) - 1)
			flags[nf++] = *p++;
		flags[nf] = '\0';
		if (isdigit((unsigned char)*p))
			width = (int)strtol(p, (char **)&p, 10);
		if (*p == '.') {
			p++;
			prec = (int)strtol(p, (char **)&p, 10);
		}
		while (strchr("hlLqjzt", *p) && *p && nl < sizeof(lenmod) - 1)
			lenmod[nl++] = *p++;
		lenmod[nl] = '\0';
		conv = *p;
		if (!conv || !strchr("diouxXcsp", conv))
			goto fail;
		p++;
		if (conv == 'p')
			while (isalnum((unsigned char)*p) &&
			       ne < sizeof(ext) - 1)
				ext[ne++] = *p++;
		ext[ne] = '\0';
		if (arg >= e->ev->nargs)
			goto fail;
		eval(e, e->ev->args[arg++], &v);
		if (e->err)
			goto fail;
		print_conv(e, flags, width, prec, lenmod, conv, ext, &v, out);
	}
	return true;
fail:
	out->len = start;
	out->s[start] = '\0';
	return false;
}

static void render_fields(const struct ef_event *ev, const unsigned char *rec,
			  size_t len, struct ef_buf *out)
{
	bool first = true;
	size_t i;

	for (i = 0; i < ev->nfields; i++) {
		const struct ef_field *f = &ev->fields[i];
		unsigned long long v;
		const char *s;
		size_t sl;

		if (f->common)
			continue;
		eb_printf(out, "%s%s=", first ? "" : " ", f->name);
		first = false;
		if (f->string) {
			if (ef_get_str(f, rec, len, &s, &sl))
				eb_putn(out, s, sl);
			else
				eb_puts(out, "?");
		} else if (ef_get_int(f, rec, len, &v)) {
			if (f->is_signed)
				eb_printf(out, "%lld", (long long)v);
			else
				eb_printf(out, "%llu", v);
		} else {
			eb_puts(out, "?");
		}
	}
}

void ef_render(const struct ef_event *ev, const unsigned char *rec,
	       size_t len, unsigned int long_size, struct ef_buf *out)
{
	struct eval e = {
		.ev = ev, .rec = rec, .len = len, .long_size = long_size,
	};

	if (!out->s)
		eb_reset(out);
	if (ev->fmt_ok && render_fmt(&e, out))
		return;
	render_fields(ev, rec, len, out);
}

void ef_ctx_chars(unsigned int f, unsigned int pc, char c[6])
{
	bool irqs_off = f & 0x01, bh_off = f & 0x80, nmi = f & 0x40;
	bool hard = f & 0x08, soft = f & 0x10;
	static const char hex[] = "0123456789abcdef";

	c[0] = irqs_off && bh_off ? 'D' : irqs_off ? 'd' : bh_off ? 'b' : '.';
	switch (f & (0x04 | 0x20)) {
	case 0x04 | 0x20:
		c[1] = 'N';
		break;
	case 0x04:
		c[1] = 'n';
		break;
	case 0x20:
		c[1] = 'p';
		break;
	default:
		c[1] = '.';
	}
	c[2] = nmi && hard ? 'Z' : nmi ? 'z' : hard && soft ? 'H' :
	       hard ? 'h' : soft ? 's' : '.';
	c[3] = (pc & 0xf) ? hex[pc & 0xf] : '.';
	c[4] = (pc >> 4 & 0xf) ? hex[pc >> 4 & 0xf] : '.';
	c[5] = '\0';
}

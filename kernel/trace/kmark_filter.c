// SPDX-License-Identifier: GPL-2.0
/*
 * kmark: event filters (events/NAME/filter), with ftrace's grammar.
 *
 *   FIELD OP VALUE, joined with && and ||, negated with !, grouped with ()
 *   numbers:  == != < <= > >= &   (decimal, 0x hex, 0 octal, negative)
 *   strings:  == != ~             (~ takes a glob: * ? [...])
 *   FIELD.function == != SYMBOL or ADDRESS: the field (long-sized, a
 *             call_site say) is an address within that function
 *
 * FIELD is a field of the event's format file: its own fields, the common
 * fields (common_pid, ...), and ftrace's "cpu" and "comm" (also called
 * common_comm: the task's name where the event happens, as ftrace's).
 * A filter is compiled once into a postfix program over the event's field
 * table (struct kmark_field, the same table the recorder writes by, the
 * text output renders and the format file prints) and runs before the
 * record is reserved for markers (a filtered-out hit costs no ring-buffer
 * space), after it is filled for kprobe events (then discarded).
 *
 * A filter that does not parse changes nothing: the old one stays, and
 * error_log says why with a caret under the offending token.
 */
#define pr_fmt(fmt) "kmark: " fmt

#include <linux/ctype.h>
#include <linux/glob.h>
#include <linux/kallsyms.h>
#include <linux/kprobes.h>
#include <linux/slab.h>
#include <linux/smp.h>

#include "kmark_internal.h"

#define KMARK_FILTER_MAX_PREDS	32	/* the evaluator's stack is a u64 */

/* ftrace's filter error messages (trace_events_filter.c), as ftrace words them. */
enum kmark_ferr {
	KMARK_FERR_NONE,
	KMARK_FERR_INVALID_OP,
	KMARK_FERR_TOO_MANY_OPEN,
	KMARK_FERR_TOO_MANY_CLOSE,
	KMARK_FERR_MISSING_QUOTE,
	KMARK_FERR_OPERAND_TOO_LONG,
	KMARK_FERR_ILLEGAL_FIELD_OP,
	KMARK_FERR_FIELD_NOT_FOUND,
	KMARK_FERR_ILLEGAL_INTVAL,
	KMARK_FERR_TOO_MANY_PREDS,
	KMARK_FERR_INVALID_FILTER,
	KMARK_FERR_INVALID_VALUE,
	KMARK_FERR_NO_MEMORY,
	KMARK_FERR_NO_FUNCTION,
	KMARK_FERR_NO_KALLSYMS,
};

static const char * const kmark_filter_errs[] = {
	[KMARK_FERR_NONE] = "No error",
	[KMARK_FERR_INVALID_OP] = "Invalid operator",
	[KMARK_FERR_TOO_MANY_OPEN] = "Too many '('",
	[KMARK_FERR_TOO_MANY_CLOSE] = "Too few '('",
	[KMARK_FERR_MISSING_QUOTE] = "Missing matching quote",
	[KMARK_FERR_OPERAND_TOO_LONG] = "Operand too long",
	[KMARK_FERR_ILLEGAL_FIELD_OP] = "Illegal operation for field type",
	[KMARK_FERR_FIELD_NOT_FOUND] = "Field not found",
	[KMARK_FERR_ILLEGAL_INTVAL] = "Illegal integer value",
	[KMARK_FERR_TOO_MANY_PREDS] = "Too many terms in predicate expression",
	[KMARK_FERR_INVALID_FILTER] = "Meaningless filter expression",
	[KMARK_FERR_INVALID_VALUE] = "Invalid value (did you forget quotes)?",
	[KMARK_FERR_NO_MEMORY] = "Out of memory",
	[KMARK_FERR_NO_FUNCTION] = "Function not found",
	[KMARK_FERR_NO_KALLSYMS] = "No function names in this kernel (CONFIG_KALLSYMS=n)",
};

enum kmark_fop {
	KMARK_FOP_EQ, KMARK_FOP_NE, KMARK_FOP_LT, KMARK_FOP_LE,
	KMARK_FOP_GT, KMARK_FOP_GE, KMARK_FOP_BAND, KMARK_FOP_GLOB,
};

/* Operators, longest first so that "<=" is not read as "<". */
static const struct {
	const char *text;
	u8 op;
	bool num, str;
} kmark_fops[] = {
	{ "==", KMARK_FOP_EQ, true, true },
	{ "!=", KMARK_FOP_NE, true, true },
	{ "<=", KMARK_FOP_LE, true, false },
	{ ">=", KMARK_FOP_GE, true, false },
	{ "<", KMARK_FOP_LT, true, false },
	{ ">", KMARK_FOP_GT, true, false },
	{ "&", KMARK_FOP_BAND, true, false },
	{ "~", KMARK_FOP_GLOB, false, true },
};

/* Where a predicate reads its field. */
enum kmark_fsrc {
	KMARK_FSRC_EVENT,	/* the event's own field */
	KMARK_FSRC_COMMON,	/* a common_* field: the record's header */
	KMARK_FSRC_CPU,		/* "cpu": the CPU it runs on */
	KMARK_FSRC_COMM,	/* "comm": current's name */
};

/**
 * struct kmark_pred - one FIELD OP VALUE
 * @field:	the field (its table entry: event layout or common fields)
 * @src:	enum kmark_fsrc
 * @op:		enum kmark_fop
 * @is_str:	a string comparison (@str), else a number (@val)
 * @is_func:	FIELD.function: whether the value is in [@val, @val2)
 * @val:	the number (a function's start)
 * @val2:	a function's end
 * @str:	the string or glob
 */
struct kmark_pred {
	const struct kmark_field *field;
	u8 src;
	u8 op;
	bool is_str;
	bool is_func;
	u64 val;
	u64 val2;
	char *str;
};

enum { KMARK_PROG_PRED, KMARK_PROG_AND, KMARK_PROG_OR, KMARK_PROG_NOT };

struct kmark_prog {
	u8 op;
	u8 pred;
};

/**
 * struct kmark_filter - a compiled filter
 * @rcu:	freed after a grace period (the recording path reads it
 *		with preemption off)
 * @nr_preds:	predicates in @preds
 * @nr_prog:	steps in @prog, postfix
 * @needs_hdr:	reads a common field (markers then build the header first)
 * @needs_comm_id: reads common_comm_id (the header then looks the name up)
 * @preds:	the predicates
 * @prog:	the program
 * @text:	the filter as written, for reading back
 */
struct kmark_filter {
	struct rcu_head rcu;
	unsigned int nr_preds;
	unsigned int nr_prog;
	bool needs_hdr;
	bool needs_comm_id;
	struct kmark_pred preds[KMARK_FILTER_MAX_PREDS];
	struct kmark_prog prog[2 * KMARK_FILTER_MAX_PREDS];
	char text[];
};

/* --- evaluation ---------------------------------------------------------- */

static bool notrace kmark_pred_str(const struct kmark_pred *p,
				   const struct kmark_entry *hdr,
				   const void *rec, unsigned int len)
{
	const struct kmark_field *f = p->field;
	char buf[TASK_COMM_LEN + 1];
	const char *s;
	bool r;

	if (p->src == KMARK_FSRC_COMM) {
		/* Filters run where the event happens, as ftrace's "comm". */
		strscpy(buf, current->comm, sizeof(buf));
		s = buf;
	} else if (f->kind == KMARK_FIELD_CHARS) {
		memcpy(buf, (const u8 *)rec + f->offset,
		       min_t(unsigned int, f->size, TASK_COMM_LEN));
		buf[min_t(unsigned int, f->size, TASK_COMM_LEN)] = '\0';
		s = buf;
	} else if (len) {	/* a record: its __data_loc word */
		s = kmark_field_str(f, rec, len) ?: "";
	} else {		/* a marker's argument block: the pointer */
		s = get_unaligned((const char * const *)((const u8 *)rec +
							 f->offset)) ?: "(null)";
	}
	if (p->op == KMARK_FOP_GLOB)
		return glob_match(p->str, s);
	r = !strcmp(s, p->str);
	return p->op == KMARK_FOP_EQ ? r : !r;
}

static bool notrace kmark_pred_num(const struct kmark_pred *p,
				   const struct kmark_entry *hdr,
				   const void *rec)
{
	const struct kmark_field *f = p->field;
	u64 v;

	if (p->src == KMARK_FSRC_CPU)
		v = raw_smp_processor_id();
	else
		v = kmark_field_value(f, p->src == KMARK_FSRC_COMMON ?
					 (const void *)hdr : rec);
	if (p->is_func) {
		bool in = v >= p->val && v < p->val2;

		return p->op == KMARK_FOP_EQ ? in : !in;
	}
	switch (p->op) {
	case KMARK_FOP_EQ:
		return v == p->val;
	case KMARK_FOP_NE:
		return v != p->val;
	case KMARK_FOP_BAND:
		return v & p->val;
	}
	if (f && f->is_signed) {
		s64 a = v, b = p->val;

		switch (p->op) {
		case KMARK_FOP_LT: return a < b;
		case KMARK_FOP_LE: return a <= b;
		case KMARK_FOP_GT: return a > b;
		default: return a >= b;
		}
	}
	switch (p->op) {
	case KMARK_FOP_LT: return v < p->val;
	case KMARK_FOP_LE: return v <= p->val;
	case KMARK_FOP_GT: return v > p->val;
	default: return v >= p->val;
	}
}

/**
 * kmark_filter_match - does an event pass its filter?
 * @flt:	the filter
 * @hdr:	the record's common header (NULL if @flt does not need it)
 * @rec:	the record; for a marker's argument block, the block's
 *		address less KMARK_HDR_SIZE (its fields are at their record
 *		offsets, its strings are pointers)
 * @len:	the record's length, or 0 for an argument block
 *
 * Return: true if the event is to be recorded.
 */
bool notrace kmark_filter_match(const struct kmark_filter *flt,
				const struct kmark_entry *hdr,
				const void *rec, unsigned int len)
{
	u64 stack = 0;
	unsigned int i;

	for (i = 0; i < flt->nr_prog; i++) {
		const struct kmark_prog *s = &flt->prog[i];
		const struct kmark_pred *p;
		bool a, b;

		switch (s->op) {
		case KMARK_PROG_PRED:
			p = &flt->preds[s->pred];
			a = p->is_str ? kmark_pred_str(p, hdr, rec, len) :
					kmark_pred_num(p, hdr, rec);
			stack = stack << 1 | a;
			break;
		case KMARK_PROG_NOT:
			stack ^= 1;
			break;
		default:
			a = stack & 1;
			stack >>= 1;
			b = stack & 1;
			stack = (stack & ~1ULL) |
				(s->op == KMARK_PROG_AND ? a && b : a || b);
			break;
		}
	}
	return stack & 1;
}
NOKPROBE_SYMBOL(kmark_filter_match);

bool kmark_filter_needs_hdr(const struct kmark_filter *flt)
{
	return flt->needs_hdr;
}

bool kmark_filter_needs_comm_id(const struct kmark_filter *flt)
{
	return flt->needs_comm_id;
}

/* --- parsing ------------------------------------------------------------- */

struct kmark_fparse {
	const char *s;
	unsigned int pos;
	const struct kmark_layout *l;
	struct kmark_filter *f;
	int err;
	unsigned int err_pos;
};

static void kmark_fp_skip(struct kmark_fparse *p)
{
	while (isspace(p->s[p->pos]))
		p->pos++;
}

static bool kmark_fp_error(struct kmark_fparse *p, int err, unsigned int pos)
{
	if (!p->err) {
		p->err = err;
		p->err_pos = pos;
	}
	return false;
}

static bool kmark_fp_emit(struct kmark_fparse *p, u8 op, u8 pred)
{
	if (p->f->nr_prog >= ARRAY_SIZE(p->f->prog))
		return kmark_fp_error(p, KMARK_FERR_TOO_MANY_PREDS, p->pos);
	p->f->prog[p->f->nr_prog].op = op;
	p->f->prog[p->f->nr_prog++].pred = pred;
	return true;
}

/* "comm": not in the record (which has an id), a string all the same */
static const struct kmark_field kmark_comm_field = {
	.name = "common_comm", .type = "char", .size = TASK_COMM_LEN,
	.kind = KMARK_FIELD_CHARS,
};

static bool kmark_fp_field(struct kmark_fparse *p, struct kmark_pred *pr,
			   const char *name, size_t n)
{
	unsigned int i;

	for (i = 0; i < p->l->nr_fields; i++) {
		const struct kmark_field *f = &p->l->fields[i];

		if (strlen(f->name) == n && !strncmp(f->name, name, n)) {
			pr->field = f;
			pr->src = KMARK_FSRC_EVENT;
			return true;
		}
	}
	if ((n == 4 && !strncmp(name, "comm", 4)) ||
	    (n == 11 && !strncmp(name, "common_comm", 11))) {
		pr->field = &kmark_comm_field;
		pr->src = KMARK_FSRC_COMM;
		return true;
	}
	for (i = 0; i < kmark_nr_common_fields; i++) {
		const struct kmark_field *f = &kmark_common_fields[i];

		if (strlen(f->name) == n && !strncmp(f->name, name, n)) {
			pr->field = f;
			pr->src = KMARK_FSRC_COMMON;
			p->f->needs_hdr = true;
			if (f->offset == offsetof(struct kmark_entry, comm_id))
				p->f->needs_comm_id = true;
			return true;
		}
	}
	if ((n == 3 && !strncmp(name, "cpu", 3)) ||
	    (n == 10 && !strncmp(name, "common_cpu", 10))) {
		pr->field = NULL;
		pr->src = KMARK_FSRC_CPU;
		return true;
	}
	return false;
}

/*
 * FIELD.function's value: a function's name or an address in it (hex, as
 * ftrace takes it), made the function's [start, end). Not inlined: its
 * buffer stays out of the frames that nest with '('.
 */
static noinline bool kmark_fp_function(struct kmark_fparse *p,
				       struct kmark_pred *pr, const char *text,
				       size_t n, unsigned int vpos)
{
	unsigned long ip, size, offset;
	char name[KMARK_STR_MAX];

	/* the caller checked n < KMARK_STR_MAX; carets after it, as ftrace's */
	memcpy(name, text, n);
	name[n] = '\0';
	if (!IS_ENABLED(CONFIG_KALLSYMS))
		return kmark_fp_error(p, KMARK_FERR_NO_KALLSYMS, vpos + n);
	if (isdigit(name[0])) {
		if (kstrtoul(name, 0, &ip))
			return kmark_fp_error(p, KMARK_FERR_INVALID_VALUE,
					      vpos + n);
	} else {
		ip = kallsyms_lookup_name(name);
	}
	if (!ip || !kallsyms_lookup_size_offset(ip, &size, &offset))
		return kmark_fp_error(p, KMARK_FERR_NO_FUNCTION, vpos + n);
	pr->val = ip - offset;
	pr->val2 = pr->val + size;
	return true;
}

/* FIELD OP VALUE */
static bool kmark_fp_pred(struct kmark_fparse *p)
{
	unsigned int start, vpos, i;
	struct kmark_pred *pr;
	bool is_str;
	size_t n;

	if (p->f->nr_preds >= KMARK_FILTER_MAX_PREDS)
		return kmark_fp_error(p, KMARK_FERR_TOO_MANY_PREDS, p->pos);
	pr = &p->f->preds[p->f->nr_preds];
	start = p->pos;
	while (isalnum(p->s[p->pos]) || p->s[p->pos] == '_')
		p->pos++;
	if (p->pos == start)
		return kmark_fp_error(p, KMARK_FERR_INVALID_FILTER, start);
	if (!kmark_fp_field(p, pr, p->s + start, p->pos - start))
		return kmark_fp_error(p, KMARK_FERR_FIELD_NOT_FOUND, start);
	if (!strncmp(p->s + p->pos, ".function", 9)) {
		p->pos += 9;
		pr->is_func = true;
	}
	is_str = !pr->is_func && pr->field &&
		 (pr->field->kind == KMARK_FIELD_STR ||
		  pr->field->kind == KMARK_FIELD_CHARS);

	kmark_fp_skip(p);
	for (i = 0; i < ARRAY_SIZE(kmark_fops); i++) {
		n = strlen(kmark_fops[i].text);
		if (!strncmp(p->s + p->pos, kmark_fops[i].text, n) &&
		    !(n == 1 && kmark_fops[i].op == KMARK_FOP_BAND &&
		      p->s[p->pos + 1] == '&'))
			break;
	}
	if (i == ARRAY_SIZE(kmark_fops))
		return kmark_fp_error(p, KMARK_FERR_INVALID_OP, p->pos);
	if (is_str ? !kmark_fops[i].str : !kmark_fops[i].num)
		return kmark_fp_error(p, KMARK_FERR_ILLEGAL_FIELD_OP, p->pos);

	pr->op = kmark_fops[i].op;
	pr->is_str = is_str;
	p->pos += n;

	kmark_fp_skip(p);
	vpos = p->pos;
	/* ftrace's rules, and its carets (at the value) */
	if (pr->is_func && (!pr->field || pr->src == KMARK_FSRC_COMM ||
			    pr->field->kind == KMARK_FIELD_STR ||
			    pr->field->kind == KMARK_FIELD_CHARS ||
			    pr->field->size != sizeof(long)))
		return kmark_fp_error(p, KMARK_FERR_ILLEGAL_FIELD_OP, vpos);
	if (pr->is_func && pr->op != KMARK_FOP_EQ && pr->op != KMARK_FOP_NE)
		return kmark_fp_error(p, KMARK_FERR_INVALID_OP, vpos);
	if (p->s[p->pos] == '"' || p->s[p->pos] == '\'') {
		char q = p->s[p->pos++];

		start = p->pos;
		while (p->s[p->pos] && p->s[p->pos] != q)
			p->pos++;
		if (!p->s[p->pos])
			return kmark_fp_error(p, KMARK_FERR_MISSING_QUOTE, vpos);
		n = p->pos++ - start;
	} else {
		start = p->pos;
		while (p->s[p->pos] && !isspace(p->s[p->pos]) &&
		       !strchr("()&|!", p->s[p->pos]))
			p->pos++;
		n = p->pos - start;
		if (!n)
			return kmark_fp_error(p, KMARK_FERR_INVALID_VALUE, vpos);
	}
	if (n >= KMARK_STR_MAX)
		return kmark_fp_error(p, KMARK_FERR_OPERAND_TOO_LONG, vpos);
	if (pr->is_func) {
		if (!kmark_fp_function(p, pr, p->s + start, n, vpos))
			return false;
	} else if (is_str) {
		pr->str = kmemdup_nul(p->s + start, n, GFP_KERNEL);
		if (!pr->str)
			return kmark_fp_error(p, KMARK_FERR_NO_MEMORY, vpos);
	} else {
		char num[24];
		int ret;

		if (n >= sizeof(num))
			return kmark_fp_error(p, KMARK_FERR_ILLEGAL_INTVAL, vpos);
		memcpy(num, p->s + start, n);
		num[n] = '\0';
		ret = num[0] == '-' ? kstrtoll(num, 0, (s64 *)&pr->val) :
				      kstrtoull(num, 0, &pr->val);
		if (ret)
			return kmark_fp_error(p, KMARK_FERR_ILLEGAL_INTVAL, vpos);
	}
	p->f->nr_preds++;
	return kmark_fp_emit(p, KMARK_PROG_PRED, p->f->nr_preds - 1);
}

static bool kmark_fp_or(struct kmark_fparse *p, int depth);

/*
 * ! FACTOR | ( OR ) | PRED. A run of '!' is counted, not recursed into (as
 * ftrace's predicate_parse() toggles its invert flag): a page of them costs
 * one frame, and their parity decides. Only '(' nests, up to
 * KMARK_FILTER_MAX_PREDS deep.
 */
static bool kmark_fp_factor(struct kmark_fparse *p, int depth)
{
	unsigned int open;
	bool invert = false, ok;

	kmark_fp_skip(p);
	while (p->s[p->pos] == '!' && p->s[p->pos + 1] != '=') {
		invert = !invert;
		p->pos++;
		kmark_fp_skip(p);
	}
	if (p->s[p->pos] == '(') {
		open = p->pos++;
		if (depth >= KMARK_FILTER_MAX_PREDS)
			return kmark_fp_error(p, KMARK_FERR_TOO_MANY_PREDS, open);
		if (!kmark_fp_or(p, depth + 1))
			return false;
		kmark_fp_skip(p);
		if (p->s[p->pos] != ')')
			return kmark_fp_error(p, KMARK_FERR_TOO_MANY_OPEN, open);
		p->pos++;
		ok = true;
	} else {
		ok = kmark_fp_pred(p);
	}
	return ok && (!invert || kmark_fp_emit(p, KMARK_PROG_NOT, 0));
}

static bool kmark_fp_and(struct kmark_fparse *p, int depth)
{
	if (!kmark_fp_factor(p, depth))
		return false;
	for (;;) {
		kmark_fp_skip(p);
		if (strncmp(p->s + p->pos, "&&", 2))
			return true;
		p->pos += 2;
		if (!kmark_fp_factor(p, depth) ||
		    !kmark_fp_emit(p, KMARK_PROG_AND, 0))
			return false;
	}
}

static bool kmark_fp_or(struct kmark_fparse *p, int depth)
{
	if (!kmark_fp_and(p, depth))
		return false;
	for (;;) {
		kmark_fp_skip(p);
		if (strncmp(p->s + p->pos, "||", 2))
			return true;
		p->pos += 2;
		if (!kmark_fp_and(p, depth) ||
		    !kmark_fp_emit(p, KMARK_PROG_OR, 0))
			return false;
	}
}

void kmark_filter_free(struct kmark_filter *flt)
{
	unsigned int i;

	if (!flt)
		return;
	for (i = 0; i < flt->nr_preds; i++)
		kfree(flt->preds[i].str);
	kfree(flt);
}

static void __kmark_filter_free_rcu(struct rcu_head *rcu)
{
	kmark_filter_free(container_of(rcu, struct kmark_filter, rcu));
}

/* Free @flt (or nothing) once the recording path can no longer hold it. */
void kmark_filter_free_rcu(struct kmark_filter *flt)
{
	if (flt)
		call_rcu(&flt->rcu, __kmark_filter_free_rcu);
}

/**
 * kmark_filter_compile - a filter for an event's layout
 * @l:		the event's layout
 * @text:	the filter, NUL-terminated, without the trailing newline
 * @err:	on failure, the message for error_log
 * @err_pos:	on failure, where in @text the caret goes
 *
 * Return: the filter, or an ERR_PTR (-EINVAL, -ENOMEM).
 */
struct kmark_filter *kmark_filter_compile(const struct kmark_layout *l,
					  const char *text, const char **err,
					  unsigned int *err_pos)
{
	struct kmark_fparse p = { .s = text, .l = l };
	size_t len = strlen(text);

	p.f = kzalloc(struct_size(p.f, text, len + 1), GFP_KERNEL);
	if (!p.f) {
		*err = kmark_filter_errs[KMARK_FERR_NO_MEMORY];
		*err_pos = 0;
		return ERR_PTR(-ENOMEM);
	}
	memcpy(p.f->text, text, len);
	if (kmark_fp_or(&p, 0)) {
		kmark_fp_skip(&p);
		if (p.s[p.pos] == ')')
			kmark_fp_error(&p, KMARK_FERR_TOO_MANY_CLOSE, p.pos);
		else if (p.s[p.pos])
			kmark_fp_error(&p, KMARK_FERR_INVALID_FILTER, p.pos);
	}
	if (p.err) {
		*err = kmark_filter_errs[p.err];
		*err_pos = p.err_pos;
		kmark_filter_free(p.f);
		return ERR_PTR(p.err == KMARK_FERR_NO_MEMORY ? -ENOMEM : -EINVAL);
	}
	return p.f;
}

const char *kmark_filter_text(const struct kmark_filter *flt)
{
	return flt->text;
}

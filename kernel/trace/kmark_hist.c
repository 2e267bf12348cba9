// SPDX-License-Identifier: GPL-2.0
/*
 * kmark: hist triggers, ftrace's grammar and output
 * (Documentation/trace/histogram.rst), over the kernel's tracing_map: a
 * preallocated, lock-free map, so that a hit never allocates and never
 * sleeps, and a full table counts what it drops.
 *
 *   hist:keys=FIELD[.MOD][,FIELD...][:vals=FIELD[.MOD][,...]]
 *        [:sort=FIELD[.descending|.ascending][,FIELD...]][:size=N]
 *        [:name=NAME][:pause][:continue][:clear][:nohitcount]
 *        [:VAR=EXPR...][:onmatch(SYS.EVENT).trace(SYNTH,PARAM...)]
 *        [:onmax($VAR).save(FIELD,...)] [if FILTER]
 *
 * FIELD: an event field, common_pid, common_cpu, common_comm,
 * common_timestamp, common_stacktrace (keys), hitcount (vals, sort), a
 * variable $NAME. MOD: hex, sym, sym-offset, execname (common_pid),
 * log2, buckets=N, usecs (common_timestamp), percent and graph (vals).
 * EXPR: FIELD, $VAR, a number, or two of them joined by + or -.
 *
 * Variables are kept per entry (the map's vars); $VAR names a variable
 * of another hist of the same instance whose keys have the same shape,
 * read (and consumed) under this hit's key: what histogram.rst's
 * wakeup_latency example does with sched_wakeup's ts0 and sched_switch's
 * next_pid. onmatch(SYS.EVENT).trace() fires a synthetic event
 * (kmark_synth.c) when every variable it needs was there; onmax() keeps
 * the largest value of a variable and the fields saved with it.
 *
 * events/SYS/NAME/hist shows each hist trigger's table as ftrace prints it,
 * with "Totals: Hits, Entries, Dropped".
 */
#define pr_fmt(fmt) "kmark: " fmt

#include <linux/ctype.h>
#include <linux/kprobes.h>
#include <linux/log2.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/stacktrace.h>

#include "kmark_internal.h"
#include "tracing_map.h"

#define KMARK_HIST_STR		64	/* bytes of a string key */
#define KMARK_HIST_STACK	16	/* frames of a common_stacktrace key */
#define KMARK_HIST_KEY_MAX	(TRACING_MAP_KEYS_MAX * \
				 KMARK_HIST_STACK * sizeof(unsigned long))
#define KMARK_HIST_VARS		8
#define KMARK_HIST_PARAMS	KMARK_MAX_FIELDS
#define KMARK_HIST_SAVE		4

/* Where a hist field's value comes from. */
enum {
	KMARK_HF_EVENT,		/* a field of the event */
	KMARK_HF_PID,		/* common_pid */
	KMARK_HF_CPU,		/* common_cpu */
	KMARK_HF_TS,		/* common_timestamp */
	KMARK_HF_COMM,		/* common_comm: current's name */
	KMARK_HF_STACK,		/* common_stacktrace */
	KMARK_HF_HITCOUNT,	/* hitcount */
	KMARK_HF_VAR_REF,	/* $VAR of another hist */
	KMARK_HF_VAR,		/* a variable of this hist */
	KMARK_HF_CONST,		/* a number */
};

/* Modifiers (ftrace's HIST_FIELD_FL_*), as written after a '.'. */
#define KMARK_HM_HEX		BIT(0)
#define KMARK_HM_SYM		BIT(1)
#define KMARK_HM_SYM_OFFSET	BIT(2)
#define KMARK_HM_EXECNAME	BIT(3)
#define KMARK_HM_LOG2		BIT(4)
#define KMARK_HM_BUCKETS	BIT(5)
#define KMARK_HM_USECS		BIT(6)
#define KMARK_HM_PERCENT	BIT(7)
#define KMARK_HM_GRAPH		BIT(8)

static const struct {
	const char *name;
	u32 flag;
} kmark_hist_mods[] = {
	{ "hex", KMARK_HM_HEX }, { "sym-offset", KMARK_HM_SYM_OFFSET },
	{ "sym", KMARK_HM_SYM }, { "execname", KMARK_HM_EXECNAME },
	{ "log2", KMARK_HM_LOG2 }, { "buckets", KMARK_HM_BUCKETS },
	{ "usecs", KMARK_HM_USECS }, { "percent", KMARK_HM_PERCENT },
	{ "graph", KMARK_HM_GRAPH },
};

struct kmark_hist;

/**
 * struct kmark_hfield - a key, a value, an operand or a parameter
 * @src:	KMARK_HF_*
 * @mods:	KMARK_HM_*
 * @name:	as written, without its modifiers
 * @field:	the event field (KMARK_HF_EVENT)
 * @buckets:	.buckets=N
 * @is_str:	a string (keys: KMARK_HIST_STR bytes of the key)
 * @is_signed:	sorts and sums signed
 * @size:	bytes it takes in the key
 * @offset:	where in the key
 * @idx:	its tracing_map field (keys, sums) or var index
 * @ref:	KMARK_HF_VAR_REF: the hist whose variable it reads
 * @constant:	KMARK_HF_CONST
 */
struct kmark_hfield {
	u8 src;
	u32 mods;
	char name[KMARK_NAME_MAX];
	const struct kmark_field *field;
	unsigned long buckets;
	bool is_str;
	bool is_signed;
	unsigned int size;
	unsigned int offset;
	int idx;
	struct kmark_hist *ref;
	u64 constant;
};

/* VAR=EXPR: one operand, or two joined by '+' or '-'. */
struct kmark_hvar {
	char name[KMARK_NAME_MAX];
	struct kmark_hfield a, b;
	char op;
	int idx;
};

enum { KMARK_HA_ONMATCH, KMARK_HA_ONMAX };

struct kmark_haction {
	u8 kind;
	char match_sys[KMARK_NAME_MAX], match_ev[KMARK_NAME_MAX];
	struct kmark_marker *synth;		/* onmatch: held */
	unsigned int nr_params;
	struct kmark_hfield params[KMARK_HIST_PARAMS];
	struct kmark_hfield max;		/* onmax: its variable */
	unsigned int nr_save;
	struct kmark_hfield save[KMARK_HIST_SAVE];
	char *text;
};

/**
 * struct kmark_hist - one hist trigger's table and how it is fed
 * @map:	the table (tracing_map): keys, sums, variables
 * @file:	the event file it is on
 * @name:	name= (shared by triggers of that name), or NULL
 * @refs:	triggers sharing it, and hists whose $VAR read its variables
 *		(kmark_mutex); freed with the last
 * @list:	in kmark_hists (kmark_mutex), for $VAR and name= lookups
 * @keys:	its keys (@nr_keys); @key_size bytes of key in all
 * @vals:	its sums but hitcount (@nr_vals), tracing_map fields after
 *		hitcount's 0
 * @sort:	its sort keys (@nr_sort)
 * @vars:	its variables (@nr_vars)
 * @actions:	onmatch() and onmax() (@nr_actions)
 * @nohitcount:	hitcount not shown
 */
struct kmark_hist {
	struct tracing_map *map;
	struct kmark_event_file *file;
	char *name;
	unsigned int refs;
	struct list_head list;
	unsigned int nr_keys, key_size;
	struct kmark_hfield keys[TRACING_MAP_KEYS_MAX];
	unsigned int nr_vals;
	struct kmark_hfield vals[TRACING_MAP_VALS_MAX];
	unsigned int nr_sort;
	struct tracing_map_sort_key sort[TRACING_MAP_SORT_KEYS_MAX];
	unsigned int nr_vars;
	struct kmark_hvar vars[KMARK_HIST_VARS];
	unsigned int nr_actions;
	struct kmark_haction actions[2];
	bool nohitcount;
	bool synth_dropped;	/* unreg gave back the synthetic events */
};

/* A table entry's own data: the task's name (.execname), onmax's state. */
struct kmark_helt {
	char comm[TASK_COMM_LEN];
	u64 max;
	bool max_set;
	u64 saved[KMARK_HIST_SAVE];
	char saved_str[KMARK_HIST_SAVE][TASK_COMM_LEN];
};

static LIST_HEAD(kmark_hists);	/* every hist, for $VAR and name= */

/* --- reading fields on the recording path -------------------------------- */

/* The string of field @f of a hit into @buf (@size bytes, NUL-padded). */
static void notrace kmark_hist_str(const struct kmark_field *f,
				   const void *rec, unsigned int len,
				   char *buf, unsigned int size)
{
	const char *s;

	memset(buf, 0, size);
	if (f->kind == KMARK_FIELD_CHARS) {
		memcpy(buf, (const u8 *)rec + f->offset,
		       min_t(unsigned int, f->size, size - 1));
		return;
	}
	if (len)	/* a record: its __data_loc word */
		s = kmark_field_str(f, rec, len);
	else		/* a marker's argument block: the pointer */
		s = get_unaligned((const char * const *)((const u8 *)rec +
							 f->offset));
	if (s)
		strscpy(buf, s, size);
}
NOKPROBE_SYMBOL(kmark_hist_str);

/* The time a hit happens at, on its instance's buffer clock. */
static u64 notrace kmark_hist_now(const struct kmark_hist *h)
{
	struct trace_buffer *b = READ_ONCE(h->file->inst->buffer);

	return b ? ring_buffer_time_stamp(b) : 0;
}
NOKPROBE_SYMBOL(kmark_hist_now);

/* A numeric field's value for a hit, its modifiers applied. */
static u64 notrace kmark_hist_num(const struct kmark_hist *h,
				  const struct kmark_hfield *hf,
				  const struct kmark_entry *hdr,
				  const void *rec)
{
	u64 v;

	switch (hf->src) {
	case KMARK_HF_PID:
		v = hdr->pid;
		break;
	case KMARK_HF_CPU:
		v = raw_smp_processor_id();
		break;
	case KMARK_HF_TS:
		v = kmark_hist_now(h);
		break;
	case KMARK_HF_HITCOUNT:
		v = 1;
		break;
	case KMARK_HF_CONST:
		v = hf->constant;
		break;
	case KMARK_HF_EVENT:
		v = kmark_field_value(hf->field, rec);
		break;
	default:
		v = 0;
	}
	if (hf->mods & KMARK_HM_USECS)
		v = div_u64(v, NSEC_PER_USEC);
	if (hf->mods & KMARK_HM_LOG2)
		v = v ? ilog2(roundup_pow_of_two(v)) : 0;
	if (hf->mods & KMARK_HM_BUCKETS)
		v = div64_ul(v, hf->buckets) * hf->buckets;
	return v;
}
NOKPROBE_SYMBOL(kmark_hist_num);

/*
 * Per CPU and context (task, softirq, irq, NMI): a hit's key, its actions'
 * values and strings, off the stack.
 */
struct kmark_hist_pad {
	u8 key[KMARK_HIST_KEY_MAX] __aligned(8);
	u64 vals[KMARK_HIST_PARAMS];
	char strs[KMARK_HIST_PARAMS][KMARK_HIST_STR];
};
static DEFINE_PER_CPU(struct kmark_hist_pad [4], kmark_hist_pad);

/* @h's key for a hit, into @key. */
static void notrace kmark_hist_key(const struct kmark_hist *h,
				   const struct kmark_entry *hdr,
				   const void *rec, unsigned int len, u8 *key)
{
	unsigned int i;

	memset(key, 0, h->key_size);
	for (i = 0; i < h->nr_keys; i++) {
		const struct kmark_hfield *k = &h->keys[i];
		u8 *slot = key + k->offset;

		if (k->src == KMARK_HF_STACK)
			stack_trace_save((unsigned long *)slot, KMARK_HIST_STACK, 4);
		else if (k->src == KMARK_HF_COMM)
			strscpy((char *)slot, current->comm, KMARK_HIST_STR);
		else if (k->is_str)
			kmark_hist_str(k->field, rec, len, (char *)slot,
				       KMARK_HIST_STR);
		else
			*(u64 *)slot = kmark_hist_num(h, k, hdr, rec);
	}
}
NOKPROBE_SYMBOL(kmark_hist_key);

/*
 * The value of operand @hf for a hit: @elt's own variables, $VAR of the
 * hist that defines it (under the same key, consumed), the rest from the
 * hit. Return: false when a variable was not set.
 */
static bool notrace kmark_hist_operand(const struct kmark_hist *h,
				       const struct kmark_hfield *hf,
				       const struct kmark_entry *hdr,
				       const void *rec, const void *key,
				       struct tracing_map_elt *elt, u64 *v)
{
	struct tracing_map_elt *other;

	switch (hf->src) {
	case KMARK_HF_VAR:
		if (!tracing_map_var_set(elt, hf->idx))
			return false;
		*v = tracing_map_read_var(elt, hf->idx);
		return true;
	case KMARK_HF_VAR_REF:
		other = tracing_map_lookup(hf->ref->map, (void *)key);
		if (!other || !tracing_map_var_set(other, hf->idx))
			return false;
		*v = tracing_map_read_var_once(other, hf->idx);
		return true;
	default:
		*v = kmark_hist_num(h, hf, hdr, rec);
		return true;
	}
}
NOKPROBE_SYMBOL(kmark_hist_operand);

/* A parameter of an action: a string field gives its text's address. */
static bool notrace kmark_hist_param(const struct kmark_hist *h,
				     const struct kmark_hfield *hf,
				     const struct kmark_entry *hdr,
				     const void *rec, unsigned int len,
				     const void *key,
				     struct tracing_map_elt *elt,
				     char (*strs)[KMARK_HIST_STR],
				     unsigned int n, u64 *v)
{
	if (hf->src == KMARK_HF_COMM) {
		strscpy(strs[n], current->comm, KMARK_HIST_STR);
		*v = (unsigned long)strs[n];
		return true;
	}
	if (hf->is_str) {
		kmark_hist_str(hf->field, rec, len, strs[n], KMARK_HIST_STR);
		*v = (unsigned long)strs[n];
		return true;
	}
	return kmark_hist_operand(h, hf, hdr, rec, key, elt, v);
}
NOKPROBE_SYMBOL(kmark_hist_param);

/**
 * kmark_hist_fire - a hit of a hist trigger's event
 * @t:		the trigger
 * @hdr:	the hit's common header
 * @rec:	its fields (a record, or a marker's block less the header)
 * @len:	the record's length, or 0
 *
 * Inserts or finds the entry of the hit's key (a full table counts the hit
 * dropped), adds to its sums, sets its variables, runs its actions.
 * Recording path: preemption off, any context; nothing allocates.
 */
static bool notrace kmark_hist_fire(struct kmark_trigger *t,
				    const struct kmark_entry *hdr,
				    const void *rec, unsigned int len)
{
	struct kmark_hist *h = t->data;
	struct kmark_hist_pad *pad;
	struct tracing_map_elt *elt;
	unsigned int i, j, level;
	u64 *vals, a, b;
	char (*strs)[KMARK_HIST_STR];
	u8 *key;

	level = interrupt_context_level();
	if (WARN_ON_ONCE(level >= 4))
		return false;
	pad = &this_cpu_ptr(kmark_hist_pad)[level];
	key = pad->key;
	vals = pad->vals;
	strs = pad->strs;
	kmark_hist_key(h, hdr, rec, len, key);
	elt = tracing_map_insert(h->map, key);
	if (!elt)
		return true;	/* full: counted in the map's drops */
	tracing_map_update_sum(elt, 0, 1);
	for (i = 0; i < h->nr_vals; i++)
		tracing_map_update_sum(elt, h->vals[i].idx,
				       kmark_hist_num(h, &h->vals[i], hdr, rec));
	for (i = 0; i < h->nr_vars; i++) {
		const struct kmark_hvar *v = &h->vars[i];

		if (!kmark_hist_operand(h, &v->a, hdr, rec, key, elt, &a))
			continue;
		if (v->op &&
		    !kmark_hist_operand(h, &v->b, hdr, rec, key, elt, &b))
			continue;
		tracing_map_set_var(elt, v->idx,
				    v->op == '+' ? a + b : v->op == '-' ? a - b : a);
	}
	for (i = 0; i < h->nr_actions; i++) {
		const struct kmark_haction *act = &h->actions[i];
		struct kmark_helt *he = elt->private_data;

		if (act->kind == KMARK_HA_ONMATCH) {
			for (j = 0; j < act->nr_params; j++)
				if (!kmark_hist_param(h, &act->params[j], hdr, rec,
						      len, key, elt, strs, j,
						      &vals[j]))
					break;
			if (j == act->nr_params)
				kmark_synth_fire(act->synth, vals);
			continue;
		}
		if (!kmark_hist_operand(h, &act->max, hdr, rec, key, elt, &a) ||
		    (he->max_set && a <= he->max))
			continue;
		he->max = a;
		he->max_set = true;
		for (j = 0; j < act->nr_save; j++) {
			const struct kmark_hfield *sv = &act->save[j];

			if (sv->src == KMARK_HF_COMM)
				strscpy(he->saved_str[j], current->comm,
					TASK_COMM_LEN);
			else if (sv->is_str)
				kmark_hist_str(sv->field, rec, len,
					       he->saved_str[j], TASK_COMM_LEN);
			else
				kmark_hist_operand(h, sv, hdr, rec, key, elt,
						   &he->saved[j]);
		}
	}
	return true;
}
NOKPROBE_SYMBOL(kmark_hist_fire);

/* --- the table's entries ---------------------------------------------------- */

static int kmark_helt_alloc(struct tracing_map_elt *elt)
{
	elt->private_data = kzalloc(sizeof(struct kmark_helt), GFP_KERNEL);
	return elt->private_data ? 0 : -ENOMEM;
}

static void kmark_helt_free(struct tracing_map_elt *elt)
{
	kfree(elt->private_data);
}

/* Also called before elt_alloc (tracing_map_elt_init_fields()). */
static void kmark_helt_clear(struct tracing_map_elt *elt)
{
	if (elt->private_data)
		memset(elt->private_data, 0, sizeof(struct kmark_helt));
}

/* The entry is claimed by its first hit: the task then is its .execname. */
static void notrace kmark_helt_init(struct tracing_map_elt *elt)
{
	struct kmark_helt *he = elt->private_data;

	memset(he, 0, sizeof(*he));
	strscpy(he->comm, current->comm, sizeof(he->comm));
}
NOKPROBE_SYMBOL(kmark_helt_init);

static const struct tracing_map_ops kmark_hist_map_ops = {
	.elt_alloc = kmark_helt_alloc,
	.elt_free = kmark_helt_free,
	.elt_clear = kmark_helt_clear,
	.elt_init = kmark_helt_init,
};

/* --- parsing ---------------------------------------------------------------- */

struct kmark_hparse {
	struct kmark_hist *h;
	struct kmark_event_file *file;
	const char **err;
	unsigned int map_bits;
	bool pause, cont, clear;
};

static struct kmark_hist *kmark_hist_find_var(struct kmark_instance *inst,
					      const char *name, int *idx)
{
	struct kmark_hist *h;
	unsigned int i;

	list_for_each_entry(h, &kmark_hists, list) {
		if (h->file->inst != inst)
			continue;
		for (i = 0; i < h->nr_vars; i++) {
			if (!strcmp(h->vars[i].name, name)) {
				*idx = h->vars[i].idx;
				return h;
			}
		}
	}
	return NULL;
}

/* Whether the keys of @a and @b have the same shape (a $VAR reads under them). */
static bool kmark_hist_keys_alike(const struct kmark_hist *a,
				  const struct kmark_hist *b)
{
	unsigned int i;

	if (a->nr_keys != b->nr_keys || a->key_size != b->key_size)
		return false;
	for (i = 0; i < a->nr_keys; i++)
		if (a->keys[i].size != b->keys[i].size ||
		    a->keys[i].is_str != b->keys[i].is_str)
			return false;
	return true;
}

/*
 * One field reference, "NAME[.MOD...]" or "$VAR" or a number, into @hf.
 * @key: as a key (strings and stacks allowed); @operand: in an expression
 * or a parameter (variables allowed).
 */
static int kmark_hist_field(struct kmark_hparse *ps, char *text,
			    struct kmark_hfield *hf, bool key, bool operand)
{
	const struct kmark_layout *l = ps->file->m->layout;
	char *mod, *dot;
	unsigned int i;

	memset(hf, 0, sizeof(*hf));
	text = strim(text);
	if (!*text) {
		*ps->err = "Missing field name";
		return -EINVAL;
	}
	if (operand && isdigit(*text)) {
		hf->src = KMARK_HF_CONST;
		strscpy(hf->name, text);
		if (kstrtoull(text, 0, &hf->constant)) {
			*ps->err = "Bad number";
			return -EINVAL;
		}
		return 0;
	}
	if (*text == '$') {
		struct kmark_hist *h = ps->h;

		if (!operand) {
			*ps->err = "A variable is not a key or a value: name it in an expression";
			return -EINVAL;
		}
		strscpy(hf->name, text + 1);
		for (i = 0; i < h->nr_vars; i++) {
			if (!strcmp(h->vars[i].name, hf->name)) {
				hf->src = KMARK_HF_VAR;
				hf->idx = h->vars[i].idx;
				return 0;
			}
		}
		hf->ref = kmark_hist_find_var(ps->file->inst, hf->name, &hf->idx);
		if (!hf->ref) {
			*ps->err = "Couldn't find variable (define it in a hist of this instance first)";
			return -EINVAL;
		}
		if (!kmark_hist_keys_alike(hf->ref, h)) {
			*ps->err = "The variable's hist has keys of another shape";
			return -EINVAL;
		}
		hf->src = KMARK_HF_VAR_REF;
		return 0;
	}
	dot = strchr(text, '.');
	if (dot)
		*dot++ = '\0';
	strscpy(hf->name, text);
	if (!strcmp(text, "common_pid")) {
		hf->src = KMARK_HF_PID;
		hf->is_signed = true;
	} else if (!strcmp(text, "common_cpu") || !strcmp(text, "cpu")) {
		hf->src = KMARK_HF_CPU;
	} else if (!strcmp(text, "common_timestamp")) {
		hf->src = KMARK_HF_TS;
	} else if (!strcmp(text, "common_comm") || !strcmp(text, "comm")) {
		hf->src = KMARK_HF_COMM;
		hf->is_str = true;
	} else if (!strcmp(text, "common_stacktrace") ||
		   !strcmp(text, "stacktrace")) {
		if (!key) {
			*ps->err = "common_stacktrace is a key only";
			return -EINVAL;
		}
		hf->src = KMARK_HF_STACK;
	} else if (!strcmp(text, "hitcount")) {
		hf->src = KMARK_HF_HITCOUNT;
	} else {
		for (i = 0; i < l->nr_fields; i++)
			if (!strcmp(l->fields[i].name, text))
				hf->field = &l->fields[i];
		if (!hf->field) {
			*ps->err = "Couldn't find field";
			return -EINVAL;
		}
		hf->src = KMARK_HF_EVENT;
		hf->is_signed = hf->field->is_signed;
		hf->is_str = hf->field->kind == KMARK_FIELD_STR ||
			     hf->field->kind == KMARK_FIELD_CHARS;
	}
	while (dot && *dot) {
		mod = strsep(&dot, ".");
		if (!strncmp(mod, "buckets=", 8)) {
			if (kstrtoul(mod + 8, 0, &hf->buckets) || !hf->buckets) {
				*ps->err = "buckets= takes a size, 1 or more";
				return -EINVAL;
			}
			hf->mods |= KMARK_HM_BUCKETS;
			continue;
		}
		for (i = 0; i < ARRAY_SIZE(kmark_hist_mods); i++)
			if (!strcmp(mod, kmark_hist_mods[i].name))
				break;
		if (i == ARRAY_SIZE(kmark_hist_mods)) {
			*ps->err = "Unknown modifier: hex, sym, sym-offset, execname, log2, buckets=N, usecs, percent, graph";
			return -EINVAL;
		}
		hf->mods |= kmark_hist_mods[i].flag;
	}
	if (hf->is_str && (hf->mods & ~(u32)0)) {
		*ps->err = "A string takes no modifier";
		return -EINVAL;
	}
	if ((hf->mods & KMARK_HM_EXECNAME) && hf->src != KMARK_HF_PID) {
		*ps->err = "execname applies to common_pid";
		return -EINVAL;
	}
	if ((hf->mods & KMARK_HM_USECS) && hf->src != KMARK_HF_TS) {
		*ps->err = "usecs applies to common_timestamp";
		return -EINVAL;
	}
	if ((hf->mods & (KMARK_HM_PERCENT | KMARK_HM_GRAPH)) && key) {
		*ps->err = "percent and graph apply to values";
		return -EINVAL;
	}
	if (hf->is_str && !key && !operand) {
		*ps->err = "A value must be a number";
		return -EINVAL;
	}
	return 0;
}

static int kmark_hist_keys(struct kmark_hparse *ps, char *list)
{
	struct kmark_hist *h = ps->h;
	char *word;
	int ret;

	while ((word = strsep(&list, ","))) {
		struct kmark_hfield *k;

		if (h->nr_keys == TRACING_MAP_KEYS_MAX) {
			*ps->err = "Too many keys (at most 3)";
			return -EINVAL;
		}
		k = &h->keys[h->nr_keys];
		ret = kmark_hist_field(ps, word, k, true, false);
		if (ret)
			return ret;
		if (k->src == KMARK_HF_HITCOUNT) {
			*ps->err = "hitcount is not a key";
			return -EINVAL;
		}
		k->size = k->src == KMARK_HF_STACK ?
			  KMARK_HIST_STACK * sizeof(unsigned long) :
			  k->is_str ? KMARK_HIST_STR : sizeof(u64);
		k->offset = h->key_size;
		h->key_size += k->size;
		h->nr_keys++;
	}
	return 0;
}

static int kmark_hist_vals(struct kmark_hparse *ps, char *list)
{
	struct kmark_hist *h = ps->h;
	char *word;
	int ret;

	while ((word = strsep(&list, ","))) {
		struct kmark_hfield v;

		ret = kmark_hist_field(ps, word, &v, false, false);
		if (ret)
			return ret;
		if (v.src == KMARK_HF_HITCOUNT)	/* always there */
			continue;
		if (h->nr_vals == TRACING_MAP_VALS_MAX - 1) {
			*ps->err = "Too many values (at most 2 besides hitcount)";
			return -EINVAL;
		}
		h->vals[h->nr_vals++] = v;
	}
	return 0;
}

/* VAR=EXPR */
static int kmark_hist_var(struct kmark_hparse *ps, char *name, char *expr)
{
	struct kmark_hist *h = ps->h;
	struct kmark_hvar *v;
	char *op;
	int ret;

	if (h->nr_vars == KMARK_HIST_VARS) {
		*ps->err = "Too many variables (at most 8)";
		return -EINVAL;
	}
	v = &h->vars[h->nr_vars];
	strscpy(v->name, strim(name));
	if (!*v->name || strpbrk(v->name, "$.")) {
		*ps->err = "Bad variable name";
		return -EINVAL;
	}
	op = strpbrk(expr + 1, "+-");
	if (op) {
		v->op = *op;
		*op++ = '\0';
		ret = kmark_hist_field(ps, op, &v->b, false, true);
		if (ret)
			return ret;
	}
	ret = kmark_hist_field(ps, expr, &v->a, false, true);
	if (ret)
		return ret;
	if (v->a.is_str || (v->op && v->b.is_str)) {
		*ps->err = "A variable holds a number";
		return -EINVAL;
	}
	h->nr_vars++;
	return 0;
}

/* A list of parameters "(a,b,...)" of an action into @fs. */
static int kmark_hist_params(struct kmark_hparse *ps, char *list,
			     struct kmark_hfield *fs, unsigned int max,
			     unsigned int *n)
{
	char *word;
	int ret;

	*n = 0;
	while ((word = strsep(&list, ","))) {
		if (*n == max) {
			*ps->err = "Too many parameters";
			return -EINVAL;
		}
		ret = kmark_hist_field(ps, word, &fs[*n], false, true);
		if (ret)
			return ret;
		(*n)++;
	}
	return 0;
}

/*
 * onmatch(SYS.EVENT).trace(SYNTH,P...) (or .SYNTH(P...)) and
 * onmax($VAR).save(F,...).
 */
static int kmark_hist_action(struct kmark_hparse *ps, char *text)
{
	struct kmark_hist *h = ps->h;
	struct kmark_haction *act;
	char *open, *close, *what, *args, *dot;
	int ret;

	if (h->nr_actions == ARRAY_SIZE(h->actions)) {
		*ps->err = "Too many actions (at most 2)";
		return -EINVAL;
	}
	act = &h->actions[h->nr_actions];
	act->text = kstrdup(text, GFP_KERNEL);
	if (!act->text) {
		*ps->err = "Out of memory";
		return -ENOMEM;
	}
	open = strchr(text, '(');
	close = open ? strchr(open, ')') : NULL;
	if (!close || close[1] != '.') {
		*ps->err = "An action is HANDLER(...).ACTION(...)";
		return -EINVAL;
	}
	*open++ = '\0';
	*close = '\0';
	what = close + 2;
	args = strchr(what, '(');
	if (!args || what[strlen(what) - 1] != ')') {
		*ps->err = "An action is HANDLER(...).ACTION(...)";
		return -EINVAL;
	}
	*args++ = '\0';
	args[strlen(args) - 1] = '\0';
	if (!strcmp(text, "onmatch")) {
		const char *synth;

		act->kind = KMARK_HA_ONMATCH;
		dot = strchr(open, '.');
		if (!dot) {
			*ps->err = "onmatch() takes SYSTEM.EVENT";
			return -EINVAL;
		}
		*dot = '\0';
		strscpy(act->match_sys, open);
		strscpy(act->match_ev, dot + 1);
		if (!kmark_find_file(ps->file->inst, act->match_sys,
				     act->match_ev)) {
			*ps->err = "onmatch(): no such event in this instance";
			return -EINVAL;
		}
		/* onmatch(...).trace(NAME,...) or its short form .NAME(...). */
		synth = !strcmp(what, "trace") ? strsep(&args, ",") : what;
		act->synth = synth ? kmark_synth_find(strim((char *)synth)) : NULL;
		if (!act->synth) {
			*ps->err = "No such synthetic event (see synthetic_events)";
			return -EINVAL;
		}
		ret = kmark_hist_params(ps, args ?: (char *)"", act->params,
					KMARK_HIST_PARAMS, &act->nr_params);
		if (ret)
			return ret;
		if (act->nr_params != act->synth->layout->nr_fields) {
			*ps->err = "The synthetic event has another number of fields";
			return -EINVAL;
		}
		for (ret = 0; ret < act->nr_params; ret++) {
			if (act->params[ret].is_str !=
			    kmark_synth_field_is_str(act->synth, ret)) {
				*ps->err = "A parameter's type is not its synthetic field's (string or number)";
				return -EINVAL;
			}
		}
		kmark_synth_get(act->synth);
		h->nr_actions++;
		return 0;
	}
	if (!strcmp(text, "onmax")) {
		act->kind = KMARK_HA_ONMAX;
		ret = kmark_hist_field(ps, open, &act->max, false, true);
		if (ret)
			return ret;
		if (act->max.src != KMARK_HF_VAR) {
			*ps->err = "onmax() takes a variable of this hist ($VAR)";
			return -EINVAL;
		}
		if (strcmp(what, "save")) {
			*ps->err = "onmax()'s action is save(FIELD,...)";
			return -EINVAL;
		}
		ret = kmark_hist_params(ps, args, act->save, KMARK_HIST_SAVE,
					&act->nr_save);
		if (ret)
			return ret;
		h->nr_actions++;
		return 0;
	}
	*ps->err = "Unknown handler: onmatch or onmax";
	return -EINVAL;
}

/* The sort keys: "hitcount", a key or a value, each .ascending or .descending. */
static int kmark_hist_sort(struct kmark_hparse *ps, char *list)
{
	struct kmark_hist *h = ps->h;
	char *word, *dot;
	unsigned int i;

	h->nr_sort = 0;
	while ((word = strsep(&list, ","))) {
		struct tracing_map_sort_key *sk;
		int idx = -1;

		if (h->nr_sort == TRACING_MAP_SORT_KEYS_MAX) {
			*ps->err = "Too many sort keys (at most 2)";
			return -EINVAL;
		}
		sk = &h->sort[h->nr_sort];
		word = strim(word);
		dot = strrchr(word, '.');
		sk->descending = false;
		if (dot && (!strcmp(dot, ".descending") ||
			    !strcmp(dot, ".ascending"))) {
			sk->descending = dot[1] == 'd';
			*dot = '\0';
		}
		if (!strcmp(word, "hitcount"))
			idx = 0;
		for (i = 0; idx < 0 && i < h->nr_vals; i++)
			if (!strcmp(word, h->vals[i].name))
				idx = h->vals[i].idx;
		for (i = 0; idx < 0 && i < h->nr_keys; i++)
			if (!strcmp(word, h->keys[i].name))
				idx = h->keys[i].idx;
		if (idx < 0) {
			*ps->err = "Sort on hitcount, a key or a value";
			return -EINVAL;
		}
		sk->field_idx = idx;
		h->nr_sort++;
	}
	return 0;
}

/* The map: hitcount, the values, the keys, the variables. */
static int kmark_hist_map(struct kmark_hparse *ps)
{
	struct kmark_hist *h = ps->h;
	unsigned int i;
	int idx;

	h->map = tracing_map_create(ps->map_bits, h->key_size,
				    &kmark_hist_map_ops, h);
	if (IS_ERR(h->map)) {
		h->map = NULL;
		goto nomem;
	}
	if (tracing_map_add_sum_field(h->map) < 0)	/* hitcount */
		goto nomem;
	for (i = 0; i < h->nr_vals; i++) {
		idx = tracing_map_add_sum_field(h->map);
		if (idx < 0)
			goto toomany;
		h->vals[i].idx = idx;
	}
	for (i = 0; i < h->nr_keys; i++) {
		struct kmark_hfield *k = &h->keys[i];
		tracing_map_cmp_fn_t cmp = k->is_str ? tracing_map_cmp_string :
			k->src == KMARK_HF_STACK ? tracing_map_cmp_none :
			tracing_map_cmp_num(sizeof(u64), k->is_signed);

		idx = tracing_map_add_key_field(h->map, k->offset, cmp);
		if (idx < 0)
			goto toomany;
		k->idx = idx;
	}
	for (i = 0; i < h->nr_vars; i++) {
		idx = tracing_map_add_var(h->map);
		if (idx < 0)
			goto toomany;
		h->vars[i].idx = idx;
	}
	return 0;
toomany:
	*ps->err = "Too many keys and values together (at most 6 with hitcount)";
	return -EINVAL;
nomem:
	*ps->err = "Out of memory";
	return -ENOMEM;
}

static void kmark_hist_free(struct kmark_hist *h)
{
	unsigned int i;

	if (!h)
		return;
	for (i = 0; i < h->nr_actions; i++) {
		if (h->actions[i].synth && !h->synth_dropped)
			kmark_synth_put(h->actions[i].synth);
		kfree(h->actions[i].text);
	}
	if (h->map)
		tracing_map_destroy(h->map);
	kfree(h->name);
	kfree(h);
}

/* The variables' definers a hist reads hold a reference each. */
static void kmark_hist_refs(struct kmark_hist *h, int delta)
{
	unsigned int i, j;

	for (i = 0; i < h->nr_vars; i++) {
		if (h->vars[i].a.src == KMARK_HF_VAR_REF)
			h->vars[i].a.ref->refs += delta;
		if (h->vars[i].op && h->vars[i].b.src == KMARK_HF_VAR_REF)
			h->vars[i].b.ref->refs += delta;
	}
	for (i = 0; i < h->nr_actions; i++) {
		for (j = 0; j < h->actions[i].nr_params; j++)
			if (h->actions[i].params[j].src == KMARK_HF_VAR_REF)
				h->actions[i].params[j].ref->refs += delta;
	}
}

/*
 * "keys=...:vals=...:..." (after "hist:") into a new hist of @file. Under
 * kmark_mutex. The trigger's count part has no meaning here (own_count).
 */
static int kmark_hist_parse(struct kmark_trigger *t, char *param,
			    const char **err)
{
	struct kmark_hparse ps = { .file = t->file, .err = err,
				   .map_bits = TRACING_MAP_BITS_DEFAULT };
	char *word, *eq;
	bool have_keys = false, have_sort = false;
	int ret = -EINVAL;

	ps.h = kzalloc(sizeof(*ps.h), GFP_KERNEL);
	if (!ps.h) {
		*err = "Out of memory";
		return -ENOMEM;
	}
	ps.h->file = t->file;
	INIT_LIST_HEAD(&ps.h->list);
	t->data = ps.h;
	/* Parentheses of actions hold ':'s and ','s of their own. */
	while (param && *param) {
		int depth = 0;
		char *p;

		for (p = param; *p && (depth || *p != ':'); p++)
			depth += *p == '(' ? 1 : *p == ')' ? -1 : 0;
		word = param;
		param = *p ? p + 1 : NULL;
		*p = '\0';
		word = strim(word);
		eq = strchr(word, '=');
		if (!strncmp(word, "onmatch(", 8) || !strncmp(word, "onmax(", 6)) {
			ret = kmark_hist_action(&ps, word);
		} else if (!strcmp(word, "pause")) {
			ps.pause = true;
			ret = 0;
		} else if (!strcmp(word, "continue") || !strcmp(word, "cont")) {
			ps.cont = true;
			ret = 0;
		} else if (!strcmp(word, "clear")) {
			ps.clear = true;
			ret = 0;
		} else if (!strcmp(word, "nohitcount") || !strcmp(word, "NOHC")) {
			ps.h->nohitcount = true;
			ret = 0;
		} else if (!eq) {
			*err = "Unknown hist attribute";
			ret = -EINVAL;
		} else {
			*eq++ = '\0';
			if (!strcmp(word, "keys") || !strcmp(word, "key")) {
				ret = kmark_hist_keys(&ps, eq);
				have_keys = true;
			} else if (!strcmp(word, "vals") || !strcmp(word, "val") ||
				   !strcmp(word, "values")) {
				ret = kmark_hist_vals(&ps, eq);
			} else if (!strcmp(word, "sort")) {
				/* After the keys and values: resolved below. */
				t->rest = eq;
				have_sort = true;
				ret = 0;
			} else if (!strcmp(word, "size")) {
				unsigned int size;

				ret = kstrtouint(eq, 0, &size);
				if (ret || size < (1 << TRACING_MAP_BITS_MIN) ||
				    size > (1 << TRACING_MAP_BITS_MAX)) {
					*err = "size= takes 128 to 131072 entries";
					ret = -EINVAL;
				} else {
					ps.map_bits = ilog2(roundup_pow_of_two(size));
				}
			} else if (!strcmp(word, "name")) {
				ps.h->name = kstrdup(eq, GFP_KERNEL);
				ret = ps.h->name ? 0 : -ENOMEM;
				*err = "Out of memory";
			} else {
				ret = kmark_hist_var(&ps, word, eq);
			}
		}
		if (ret)
			return ret;
	}
	if (!have_keys) {
		*err = "hist needs keys=";
		return -EINVAL;
	}
	ret = kmark_hist_map(&ps);
	if (ret)
		return ret;
	if (have_sort) {
		ret = kmark_hist_sort(&ps, t->rest);
		if (ret)
			return ret;
	} else {
		ps.h->nr_sort = 1;	/* hitcount, ascending */
	}
	t->rest = NULL;
	t->paused = ps.pause;
	/* Kept for the trigger file's handling of an existing trigger. */
	t->flags = (ps.pause ? 1 : 0) | (ps.cont ? 2 : 0) | (ps.clear ? 4 : 0);
	return 0;
}

/* Set up the map's elements (they are allocated now), take the references. */
static int kmark_hist_reg(struct kmark_trigger *t)
{
	struct kmark_hist *h = t->data;
	int ret;

	ret = kmark_buffer_ensure(t->file->inst);	/* its clock */
	if (ret)
		return ret;
	ret = tracing_map_init(h->map);
	if (ret)
		return ret;
	kmark_hist_refs(h, 1);
	h->refs++;
	list_add_tail(&h->list, &kmark_hists);
	return 0;
}

static void kmark_hist_unreg(struct kmark_trigger *t)
{
	struct kmark_hist *h = t->data;

	unsigned int i;

	list_del_init(&h->list);
	kmark_hist_refs(h, -1);
	h->refs--;
	/*
	 * The synthetic events go back now, under kmark_mutex, not when the
	 * memory goes after the grace period: '!NAME' in synthetic_events
	 * right after must not find them in use. A hit still in flight may
	 * fire one: removing it waits for a grace period before freeing.
	 */
	for (i = 0; i < h->nr_actions; i++)
		if (h->actions[i].synth)
			kmark_synth_put(h->actions[i].synth);
	h->synth_dropped = true;
}

static void kmark_hist_free_trigger(struct kmark_trigger *t)
{
	kmark_hist_free(t->data);
}

/* The same hist: the same keys, values, sort and filter (as ftrace's). */
static bool kmark_hist_same(const struct kmark_trigger *a,
			    const struct kmark_trigger *b)
{
	const struct kmark_hist *x = a->data, *y = b->data;
	unsigned int i;

	if (x->nr_keys != y->nr_keys || x->nr_vals != y->nr_vals)
		return false;
	for (i = 0; i < x->nr_keys; i++)
		if (strcmp(x->keys[i].name, y->keys[i].name) ||
		    x->keys[i].mods != y->keys[i].mods)
			return false;
	for (i = 0; i < x->nr_vals; i++)
		if (strcmp(x->vals[i].name, y->vals[i].name))
			return false;
	/* As ftrace: '!hist:...' names the hist, whatever its filter. */
	if (a->removing || b->removing)
		return true;
	return !a->filter_str == !b->filter_str &&
	       (!a->filter_str || !strcmp(a->filter_str, b->filter_str));
}

/* pause, continue, clear written for an existing hist: done on it. */
static int kmark_hist_update(struct kmark_trigger *old, struct kmark_trigger *new)
{
	struct kmark_hist *h = old->data;

	if (!new->flags)
		return -EEXIST;
	if (new->flags & 1)
		WRITE_ONCE(old->paused, true);
	if (new->flags & 2)
		WRITE_ONCE(old->paused, false);
	if (new->flags & 4)
		tracing_map_clear(h->map);
	return 0;
}

/* Removing a hist whose variables another reads is refused, as ftrace's. */
static const char *kmark_hist_busy(const struct kmark_trigger *t)
{
	const struct kmark_hist *h = t->data;

	return h->refs > 1 ? "A hist reads this hist's variables: remove it first" :
	       NULL;
}

/* --- printing ---------------------------------------------------------------- */

static const char *kmark_hist_mod_name(u32 mods)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(kmark_hist_mods); i++)
		if (mods & kmark_hist_mods[i].flag)
			return kmark_hist_mods[i].name;
	return NULL;
}

static void kmark_hfield_print(struct seq_file *m, const struct kmark_hfield *hf)
{
	const char *mod;

	if (hf->src == KMARK_HF_VAR || hf->src == KMARK_HF_VAR_REF)
		seq_putc(m, '$');
	seq_puts(m, hf->name);
	mod = kmark_hist_mod_name(hf->mods & ~KMARK_HM_BUCKETS);
	if (mod)
		seq_printf(m, ".%s", mod);
	if (hf->mods & KMARK_HM_BUCKETS)
		seq_printf(m, ".buckets=%lu", hf->buckets);
}

/* The trigger as ftrace lists it: "hist:keys=...:vals=...:sort=...:size=N". */
static void kmark_hist_show_trigger(struct seq_file *m,
				    const struct kmark_trigger *t)
{
	const struct kmark_hist *h = t->data;
	unsigned int i, j;

	seq_puts(m, "hist:");
	if (h->name)
		seq_printf(m, "%s:", h->name);
	seq_puts(m, "keys=");
	for (i = 0; i < h->nr_keys; i++) {
		if (i)
			seq_putc(m, ',');
		kmark_hfield_print(m, &h->keys[i]);
	}
	seq_puts(m, ":vals=");
	if (!h->nohitcount)
		seq_puts(m, "hitcount");
	for (i = 0; i < h->nr_vals; i++) {
		if (i || !h->nohitcount)
			seq_putc(m, ',');
		kmark_hfield_print(m, &h->vals[i]);
	}
	for (i = 0; i < h->nr_vars; i++) {
		seq_printf(m, "%c%s=", i ? ',' : ':', h->vars[i].name);
		kmark_hfield_print(m, &h->vars[i].a);
		if (h->vars[i].op) {
			seq_putc(m, h->vars[i].op);
			kmark_hfield_print(m, &h->vars[i].b);
		}
	}
	seq_puts(m, ":sort=");
	for (i = 0; i < h->nr_sort; i++) {
		unsigned int idx = h->sort[i].field_idx;
		const char *name = idx ? NULL : "hitcount";

		for (j = 0; !name && j < h->nr_vals; j++)
			if (h->vals[j].idx == idx)
				name = h->vals[j].name;
		for (j = 0; !name && j < h->nr_keys; j++)
			if (h->keys[j].idx == idx)
				name = h->keys[j].name;
		seq_printf(m, "%s%s%s", i ? "," : "", name ?: "?",
			   h->sort[i].descending ? ".descending" : "");
	}
	seq_printf(m, ":size=%u", 1U << h->map->map_bits);
	if (h->nohitcount)
		seq_puts(m, ":nohitcount");
	for (i = 0; i < h->nr_actions; i++)
		seq_printf(m, ":%s", h->actions[i].text);
	if (t->filter_str)
		seq_printf(m, " if %s", t->filter_str);
	seq_printf(m, " [%s]\n", READ_ONCE(t->paused) ? "paused" : "active");
}

static void kmark_hist_print_key(struct seq_file *m, const struct kmark_hist *h,
				 const void *key, struct tracing_map_elt *elt)
{
	const struct kmark_helt *he = elt->private_data;
	bool multiline = false;
	unsigned int i, j;

	seq_puts(m, "{ ");
	for (i = 0; i < h->nr_keys; i++) {
		const struct kmark_hfield *k = &h->keys[i];
		const void *slot = key + k->offset;
		u64 v = k->is_str || k->src == KMARK_HF_STACK ? 0 :
			*(const u64 *)slot;

		if (i)
			seq_puts(m, ", ");
		if (k->src == KMARK_HF_STACK) {
			const unsigned long *st = slot;

			seq_puts(m, "common_stacktrace:\n");
			for (j = 0; j < KMARK_HIST_STACK && st[j]; j++)
				seq_printf(m, "%*c%pS\n", 9, ' ', (void *)st[j]);
			multiline = true;
		} else if (k->mods & KMARK_HM_HEX) {
			seq_printf(m, "%s: %llx", k->name, v);
		} else if (k->mods & KMARK_HM_SYM) {
			seq_printf(m, "%s: [%llx] %-45ps", k->name, v,
				   (void *)(uintptr_t)v);
		} else if (k->mods & KMARK_HM_SYM_OFFSET) {
			seq_printf(m, "%s: [%llx] %-55pS", k->name, v,
				   (void *)(uintptr_t)v);
		} else if (k->mods & KMARK_HM_EXECNAME) {
			seq_printf(m, "%s: %-16s[%10llu]", k->name, he->comm, v);
		} else if (k->mods & KMARK_HM_LOG2) {
			seq_printf(m, "%s: ~ 2^%-2llu", k->name, v);
		} else if (k->mods & KMARK_HM_BUCKETS) {
			seq_printf(m, "%s: ~ %llu-%llu", k->name, v,
				   v + k->buckets - 1);
		} else if (k->is_str) {
			seq_printf(m, "%s: %-50s", k->name, (const char *)slot);
		} else {
			seq_printf(m, "%s: %10llu", k->name, v);
		}
	}
	if (!multiline)
		seq_putc(m, ' ');
	seq_putc(m, '}');
}

/* ftrace's __get_percentage(): 100 times the percentage of @val in @total. */
static unsigned int kmark_hist_pct(u64 val, u64 total)
{
	if (!total)
		return val ? UINT_MAX : 0;
	if (val < U64_MAX / 10000)
		return div64_u64(val * 10000, total);
	total = div64_u64(total, 10000);
	return total ? div64_u64(val, total) : UINT_MAX;
}

static void kmark_hist_print_val(struct seq_file *m, const char *name, u32 mods,
				 u64 v, u64 total, u64 max)
{
	unsigned int pc, i, len;
	char bar[21];

	if (mods & KMARK_HM_PERCENT) {
		pc = kmark_hist_pct(v, total);
		if (pc == UINT_MAX)
			seq_printf(m, " %s (%%):[ERROR]", name);
		else
			seq_printf(m, " %s (%%): %3u.%02u", name, pc / 100,
				   pc % 100);
	} else if (mods & KMARK_HM_GRAPH) {
		pc = kmark_hist_pct(v, max);
		len = pc == UINT_MAX ? 0 : pc * 20 / 10000;
		for (i = 0; i < 20; i++)
			bar[i] = i < len ? '#' : ' ';
		bar[20] = '\0';
		seq_printf(m, " %s: %20s", name, bar);
	} else if (mods & KMARK_HM_HEX) {
		seq_printf(m, " %s: %10llx", name, v);
	} else {
		seq_printf(m, " %s: %10llu", name, v);
	}
}

/* One hist trigger's table, as ftrace prints it. */
static void kmark_hist_show_one(struct seq_file *m, struct kmark_trigger *t,
				unsigned int n)
{
	struct kmark_hist *h = t->data;
	struct tracing_map_sort_entry **ents = NULL;
	u64 totals[TRACING_MAP_VALS_MAX] = {}, maxes[TRACING_MAP_VALS_MAX] = {};
	int nr, i;
	unsigned int j, k;

	if (n)
		seq_puts(m, "\n\n");
	seq_puts(m, "# event histogram\n#\n# trigger info: ");
	kmark_hist_show_trigger(m, t);
	seq_puts(m, "#\n\n");
	nr = tracing_map_sort_entries(h->map, h->sort, h->nr_sort, &ents);
	if (nr < 0)
		nr = 0;
	for (i = 0; i < nr; i++) {
		for (j = 0; j < h->nr_vals; j++) {
			u64 v = tracing_map_read_sum(ents[i]->elt, h->vals[j].idx);

			totals[j] += v;
			maxes[j] = max(maxes[j], v);
		}
	}
	for (i = 0; i < nr; i++) {
		struct tracing_map_elt *elt = ents[i]->elt;
		struct kmark_helt *he = elt->private_data;

		kmark_hist_print_key(m, h, ents[i]->key, elt);
		if (!h->nohitcount)
			kmark_hist_print_val(m, "hitcount", 0,
					     tracing_map_read_sum(elt, 0), 0, 0);
		for (j = 0; j < h->nr_vals; j++) {
			seq_putc(m, ' ');
			kmark_hist_print_val(m, h->vals[j].name, h->vals[j].mods,
					     tracing_map_read_sum(elt, h->vals[j].idx),
					     totals[j], maxes[j]);
		}
		for (j = 0; j < h->nr_actions; j++) {
			const struct kmark_haction *act = &h->actions[j];

			if (act->kind != KMARK_HA_ONMAX || !he->max_set)
				continue;
			seq_printf(m, "\n\tmax: %10llu", he->max);
			for (k = 0; k < act->nr_save; k++) {
				const struct kmark_hfield *sv = &act->save[k];

				if (sv->is_str)
					seq_printf(m, "  %s: %-32s", sv->name,
						   he->saved_str[k]);
				else
					seq_printf(m, "  %s: %10llu", sv->name,
						   he->saved[k]);
			}
		}
		seq_putc(m, '\n');
	}
	if (ents)
		tracing_map_destroy_sort_entries(ents, nr);
	seq_printf(m, "\nTotals:\n    Hits: %llu\n    Entries: %u\n    Dropped: %llu\n",
		   (u64)atomic64_read(&h->map->hits), nr,
		   (u64)atomic64_read(&h->map->drops));
}

const struct kmark_trigger_cmd kmark_hist_cmd = {
	.name = "hist",
	.parse = kmark_hist_parse,
	.reg = kmark_hist_reg,
	.unreg = kmark_hist_unreg,
	.same = kmark_hist_same,
	.update = kmark_hist_update,
	.busy = kmark_hist_busy,
	.fire = kmark_hist_fire,
	.show = kmark_hist_show_trigger,
	.free = kmark_hist_free_trigger,
	.own_count = true,
};

/* --- events/SYS/NAME/hist -------------------------------------------------------- */

static int kmark_hist_file_show(struct seq_file *m, void *v)
{
	struct kmark_event_file *file = m->private;
	struct kmark_trigger *t;
	unsigned int n = 0;

	mutex_lock(&kmark_mutex);
	if (file->flags & KMARK_EF_FREED) {
		mutex_unlock(&kmark_mutex);
		return -ENODEV;
	}
	list_for_each_entry(t, &file->triggers, list)
		if (t->cmd == &kmark_hist_cmd)
			kmark_hist_show_one(m, t, n++);
	mutex_unlock(&kmark_mutex);
	return 0;
}

static int kmark_hist_file_open(struct inode *inode, struct file *f)
{
	struct kmark_event_file *file;
	int ret = kmark_open_check();

	if (ret)
		return ret;
	file = kmark_event_file_get(inode);
	if (!file)
		return -ENODEV;
	ret = single_open(f, kmark_hist_file_show, file);
	if (ret)
		kmark_event_file_release(file);
	return ret;
}

static int kmark_hist_file_release(struct inode *inode, struct file *f)
{
	kmark_event_file_release(((struct seq_file *)f->private_data)->private);
	return single_release(inode, f);
}

const struct file_operations kmark_hist_fops = {
	.open = kmark_hist_file_open,
	.read = seq_read,
	.llseek = seq_lseek,
	.release = kmark_hist_file_release,
};

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
 *        [:onmax($VAR).save(FIELD,...)] [:onchange($VAR).trace(SYNTH,...)]
 *        [:onmax($VAR).snapshot()] [if FILTER]
 *
 * FIELD: an event field, common_pid, common_cpu, common_comm,
 * common_timestamp, common_stacktrace (keys), hitcount (vals, sort), a
 * variable $NAME. MOD: hex, sym, sym-offset, execname (common_pid),
 * syscall (keys), log2, buckets=N, usecs (common_timestamp), percent and
 * graph (vals).
 * EXPR: FIELD, $VAR or a number joined by + - * / (ftrace's, below).
 *
 * Variables are kept per entry (the map's vars); $VAR names a variable
 * of another hist of the same instance whose keys have the same shape,
 * read (and consumed) under this hit's key: what histogram.rst's
 * wakeup_latency example does with sched_wakeup's ts0 and sched_switch's
 * next_pid. onmatch(SYS.EVENT).trace() fires a synthetic event
 * (kmark_synth.c) when every variable it needs was there; onmax($VAR) and
 * onchange($VAR) track a variable per entry (from 0, as ftrace's) and,
 * when a hit raises (changes) it, save() fields with it, trace() a
 * synthetic event, or take a snapshot() (swap the instance's buffer with
 * its snapshot) if the value also beats (differs from) the one of the
 * hist's last snapshot, whose key the hist file shows.
 *
 * events/SYS/NAME/hist shows each hist trigger's table as ftrace prints it,
 * with "Totals: Hits, Entries, Dropped".
 */
#define pr_fmt(fmt) "kmark: " fmt

#include <linux/ctype.h>
#include <linux/kallsyms.h>
#include <linux/kprobes.h>
#include <linux/log2.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/stacktrace.h>

#include <asm/syscall.h>

#include "kmark_internal.h"
#include "tracing_map.h"

#define KMARK_HIST_STR		64	/* bytes of a string key */
#define KMARK_HIST_STACK	16	/* frames of a common_stacktrace key */
#define KMARK_HIST_KEY_MAX	(TRACING_MAP_KEYS_MAX * \
				 KMARK_HIST_STACK * sizeof(unsigned long))
#define KMARK_HIST_VARS		8
#define KMARK_HIST_PARAMS	KMARK_MAX_FIELDS
#define KMARK_HIST_SAVE		4
#define KMARK_HIST_ACTION_TEXT	256	/* an action as listed */
/* $VARs of other hists a hist reads: its variables' operands, its params */
#define KMARK_HIST_REFS		(KMARK_HEXPR_OPNDS * KMARK_HIST_VARS + \
				 2 * KMARK_HIST_PARAMS + KMARK_HIST_SAVE)
/* An expression: at most 3 operators (ftrace's), so 4 operands and 8 nodes. */
#define KMARK_HEXPR_OPNDS	4
#define KMARK_HEXPR_NODES	8

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
#define KMARK_HM_SYSCALL	BIT(9)

static const struct {
	const char *name;
	u32 flag;
} kmark_hist_mods[] = {		/* ftrace's get_hist_field_flags() order */
	{ "hex", KMARK_HM_HEX }, { "sym", KMARK_HM_SYM },
	{ "sym-offset", KMARK_HM_SYM_OFFSET }, { "execname", KMARK_HM_EXECNAME },
	{ "syscall", KMARK_HM_SYSCALL }, { "log2", KMARK_HM_LOG2 },
	{ "buckets", KMARK_HM_BUCKETS },
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
 * @var:	KMARK_HF_VAR, KMARK_HF_VAR_REF: the variable's definition
 * @slot:	KMARK_HF_VAR_REF: where a hit keeps its value, read first
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
	const struct kmark_hvar *var;
	u8 slot;
	u64 constant;
};

/*
 * One node of an expression: an operand (@op 0, @l its index in the
 * variable's operands), -(@l) (@op 'n'), or @l OP @r (@op '+', '-', '*',
 * '/'); @l and @r index nodes.
 */
struct kmark_hnode {
	char op;
	u8 l, r;
};

/*
 * VAR=EXPR, ftrace's expressions: operands joined by + - * /, * and /
 * before + and -, each left to right, at most three operators, -(EXPR)
 * as a whole; constants folded. @node[@root] is the expression; @a[] its
 * operands (@a[0] the only one of a plain VAR=OPERAND).
 */
struct kmark_hvar {
	char name[KMARK_NAME_MAX];
	struct kmark_hfield a[KMARK_HEXPR_OPNDS];
	u8 nr_a;
	struct kmark_hnode node[KMARK_HEXPR_NODES];
	u8 nr_node;
	u8 root;
	int idx;
};

/* Whether @v is an expression, not one operand. */
static bool kmark_hvar_expr(const struct kmark_hvar *v)
{
	return v->node[v->root].op;
}

/*
 * An action's handler; its action is save() (@nr_save), trace() (@synth)
 * or snapshot() (@snapshot).
 */
enum { KMARK_HA_ONMATCH, KMARK_HA_ONMAX, KMARK_HA_ONCHANGE };
#define KMARK_HIST_ACTIONS	2

struct kmark_haction {
	u8 kind;
	bool trace_kw;				/* .trace(SYNTH,...) */
	bool snapshot;				/* .snapshot() */
	char match_sys[KMARK_NAME_MAX], match_ev[KMARK_NAME_MAX];
	struct kmark_marker *synth;		/* trace(): held */
	unsigned int nr_params;
	struct kmark_hfield params[KMARK_HIST_PARAMS];
	struct kmark_hfield max;		/* onmax, onchange: the variable */
	unsigned int nr_save;
	struct kmark_hfield save[KMARK_HIST_SAVE];
	char *text;				/* as ftrace lists it */
};

/**
 * struct kmark_hist - one hist trigger's table and how it is fed
 * @map:	the table (tracing_map): keys, sums, variables
 * @file:	the event file it is on
 * @name:	name= (the table is shared by the triggers of that name), or
 *		NULL
 * @refs:	the reads of its variables by other hists' $VARs (kmark_mutex)
 * @live:	the triggers that have it, registered (kmark_mutex)
 * @users:	the triggers that have it, not yet freed: it goes with the last
 * @list:	in kmark_hists while @live (kmark_mutex), for $VAR and name=
 *		lookups
 * @keys:	its keys (@nr_keys); @key_size bytes of key in all
 * @vals:	its sums but hitcount (@nr_vals), tracing_map fields after
 *		hitcount's 0
 * @sort:	its sort keys (@nr_sort), @sort_f their fields (NULL:
 *		hitcount)
 * @vars:	its variables (@nr_vars)
 * @actions:	onmatch(), onmax() and onchange() (@nr_actions)
 * @nohitcount:	hitcount not shown
 * @timestamps:	common_timestamp is read: the instance's clock is @clock
 * @reads:	the $VARs of other hists it reads (@nr_reads), in the order
 *		a hit reads them; @read_once: an expression's, read once
 * @clearing:	a clear runs (kmark_hist_update()): hits pass the table by
 */
struct kmark_hist {
	struct tracing_map *map;
	bool clearing;
	struct kmark_event_file *file;
	char *name;
	unsigned int refs;
	unsigned int live;
	refcount_t users;
	struct list_head list;
	unsigned int nr_keys, key_size;
	struct kmark_hfield keys[TRACING_MAP_KEYS_MAX];
	unsigned int nr_vals;
	struct kmark_hfield vals[TRACING_MAP_VALS_MAX];
	unsigned int nr_sort;
	struct tracing_map_sort_key sort[TRACING_MAP_SORT_KEYS_MAX];
	const struct kmark_hfield *sort_f[TRACING_MAP_SORT_KEYS_MAX];
	unsigned int nr_vars;
	struct kmark_hvar vars[KMARK_HIST_VARS];
	unsigned int nr_actions;
	struct kmark_haction actions[KMARK_HIST_ACTIONS];
	bool nohitcount;
	bool timestamps;
	char clock[16];
	unsigned int nr_reads;
	struct kmark_hfield *reads[KMARK_HIST_REFS];
	bool read_once[KMARK_HIST_REFS];
	bool synth_dropped;	/* unreg gave back the synthetic events */
	struct kmark_hsnap *snap;
};

/*
 * What a snapshot() action took last (ftrace's track_data of its
 * cond_snapshot): the value that took it, by which action, the key and
 * the task name of its entry. The instance owns the snapshot for this
 * hist only (@snap_cond); all of it is under the instance's snap_lock,
 * written just before the swap that it reports.
 */
struct kmark_hsnap {
	bool updated;
	u64 val;
	const struct kmark_haction *act;
	char comm[TASK_COMM_LEN];
	u8 key[];
};

/* A hit's snapshot() action, for kmark_hist_snap_cond() */
struct kmark_hsnap_ctx {
	const struct kmark_hist *h;
	const struct kmark_haction *act;
	const u8 *key;
	const char *comm;
	u64 val;
};

/*
 * A table entry's own data: the task's name (.execname), what onmax() and
 * onchange() track (per action, from 0), what save() saved (@saved_set).
 */
struct kmark_helt {
	char comm[TASK_COMM_LEN];
	u64 track[KMARK_HIST_ACTIONS];
	bool saved_set;
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
	/*
	 * The power of two @v rounds up to, on u64: roundup_pow_of_two()
	 * takes an unsigned long, 32 bits on i386, where it cut values past
	 * 2^32 and made 2^32 - 1 the bucket 2^0.
	 */
	if (hf->mods & KMARK_HM_LOG2)
		v = v > 1 ? fls64(v - 1) : 0;
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
	/* a snapshot() action's hit, for kmark_hist_after() */
	struct kmark_hsnap_ctx snap;
	u8 snap_key[KMARK_HIST_KEY_MAX] __aligned(8);
	u64 vals[KMARK_HIST_PARAMS];
	u64 refv[KMARK_HIST_REFS];
	char strs[KMARK_HIST_PARAMS][KMARK_HIST_STR];
};
/* One a context level and trigger depth: a nested hit has its own. */
static DEFINE_PER_CPU(struct kmark_hist_pad [4][KMARK_TRIGGER_DEPTH],
		      kmark_hist_pad);

/* This hit's pad (in a trigger run: its depth is at least 1). */
static struct kmark_hist_pad *notrace kmark_hist_pad_get(void)
{
	unsigned int level = interrupt_context_level();
	unsigned int depth = kmark_trigger_depth();

	if (WARN_ON_ONCE(level >= 4 || !depth || depth > KMARK_TRIGGER_DEPTH))
		return NULL;
	return &this_cpu_ptr(kmark_hist_pad)[level][depth - 1];
}
NOKPROBE_SYMBOL(kmark_hist_pad_get);

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

		if (k->src == KMARK_HF_STACK)	/* kmark's own frames left out */
			kmark_stack_save((unsigned long *)slot, KMARK_HIST_STACK);
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
 * The value of operand @hf for a hit: @elt's own variables, $VAR of another
 * hist from @refv (read before the hit went in, as ftrace's
 * resolve_var_refs()), the rest from the hit. Return: false when a
 * variable of @elt was not set.
 */
static bool notrace kmark_hist_operand(const struct kmark_hist *h,
				       const struct kmark_hfield *hf,
				       const struct kmark_entry *hdr,
				       const void *rec, const u64 *refv,
				       struct tracing_map_elt *elt, u64 *v)
{
	switch (hf->src) {
	case KMARK_HF_VAR:
		if (!tracing_map_var_set(elt, hf->idx))
			return false;
		*v = tracing_map_read_var(elt, hf->idx);
		return true;
	case KMARK_HF_VAR_REF:
		*v = refv[hf->slot];
		return true;
	default:
		*v = kmark_hist_num(h, hf, hdr, rec);
		return true;
	}
}
NOKPROBE_SYMBOL(kmark_hist_operand);

/* ftrace's hist_field_div(): -1 for a zero divisor, a shift for 2^n. */
static u64 notrace kmark_hexpr_div(u64 a, u64 b)
{
	if (!b)
		return -1;
	if (!(b & (b - 1)))
		return a >> __ffs64(b);
	return div64_u64(a, b);
}

/*
 * Node @n of @v's expression, into @val: false when an operand's variable
 * is not set. Recursion at most 4 deep (3 operators, or -(...)).
 */
static bool notrace kmark_hexpr_eval(const struct kmark_hist *h,
				     const struct kmark_hvar *v, unsigned int n,
				     const struct kmark_entry *hdr,
				     const void *rec, const u64 *refv,
				     struct tracing_map_elt *elt, u64 *val)
{
	const struct kmark_hnode *nd = &v->node[n];
	u64 a, b;

	if (!nd->op)
		return kmark_hist_operand(h, &v->a[nd->l], hdr, rec, refv,
					  elt, val);
	if (!kmark_hexpr_eval(h, v, nd->l, hdr, rec, refv, elt, &a))
		return false;
	if (nd->op == 'n') {
		*val = -a;
		return true;
	}
	if (!kmark_hexpr_eval(h, v, nd->r, hdr, rec, refv, elt, &b))
		return false;
	switch (nd->op) {
	case '+':
		*val = a + b;
		break;
	case '-':
		*val = a - b;
		break;
	case '*':
		*val = a * b;
		break;
	default:
		*val = kmark_hexpr_div(a, b);
		break;
	}
	return true;
}
NOKPROBE_SYMBOL(kmark_hexpr_eval);

/* A parameter of an action: a string field gives its text's address. */
static bool notrace kmark_hist_param(const struct kmark_hist *h,
				     const struct kmark_hfield *hf,
				     const struct kmark_entry *hdr,
				     const void *rec, unsigned int len,
				     const u64 *refv,
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
	return kmark_hist_operand(h, hf, hdr, rec, refv, elt, v);
}
NOKPROBE_SYMBOL(kmark_hist_param);

/*
 * A snapshot() action's condition, under the instance's snap_lock just
 * before the swap (ftrace's cond_snapshot_update()): the value must beat
 * (onmax) or differ from (onchange) the one of the last snapshot the
 * hist took, over all its entries; then it is the one.
 */
static bool notrace kmark_hist_snap_cond(void *data)
{
	const struct kmark_hsnap_ctx *c = data;
	struct kmark_hsnap *s = c->h->snap;

	if (c->act->kind == KMARK_HA_ONMAX ? c->val <= s->val :
					     c->val == s->val)
		return false;
	s->val = c->val;
	s->act = c->act;
	memcpy(s->key, c->key, c->h->key_size);
	memcpy(s->comm, c->comm, TASK_COMM_LEN);
	s->updated = true;
	return true;
}
NOKPROBE_SYMBOL(kmark_hist_snap_cond);

/*
 * Whether the variables of @h an action reads are set (ftrace's
 * resolve_var_refs(..., true)): if one is not, no action runs.
 */
static bool notrace kmark_hist_self_set(const struct kmark_hist *h,
					struct tracing_map_elt *elt)
{
	unsigned int i, j;

	for (i = 0; i < h->nr_actions; i++) {
		const struct kmark_haction *act = &h->actions[i];

		if (act->kind != KMARK_HA_ONMATCH &&
		    !tracing_map_var_set(elt, act->max.idx))
			return false;
		for (j = 0; j < act->nr_params; j++)
			if (act->params[j].src == KMARK_HF_VAR &&
			    !tracing_map_var_set(elt, act->params[j].idx))
				return false;
	}
	return true;
}
NOKPROBE_SYMBOL(kmark_hist_self_set);

/**
 * kmark_hist_fire - a hit of a hist trigger's event
 * @t:		the trigger
 * @hdr:	the hit's common header
 * @rec:	its fields (a record, or a marker's block less the header)
 * @len:	the record's length, or 0
 *
 * As ftrace's event_hist_trigger(): the variables of other hists this one
 * reads, under the hit's key, come first (one not set drops the hit, an
 * expression's operands are read once); then the entry of the key (a full
 * table counts the hit dropped), its sums, its variables, its actions.
 * Recording path: preemption off, any context; nothing allocates.
 */
static bool notrace kmark_hist_fire(struct kmark_trigger *t,
				    const struct kmark_entry *hdr,
				    const void *rec, unsigned int len)
{
	struct kmark_hist *h = t->data;
	struct kmark_hist_pad *pad;
	struct tracing_map_elt *elt;
	unsigned int i, j;
	u64 *vals, *refv, a;
	char (*strs)[KMARK_HIST_STR];
	u8 *key;

	if (unlikely(READ_ONCE(h->clearing)))
		return false;
	pad = kmark_hist_pad_get();
	if (!pad)
		return false;
	key = pad->key;
	if (pad->snap.h == h)
		pad->snap.h = NULL;
	vals = pad->vals;
	refv = pad->refv;
	strs = pad->strs;
	kmark_hist_key(h, hdr, rec, len, key);
	for (i = 0; i < h->nr_reads; i++) {
		const struct kmark_hfield *r = h->reads[i];
		struct tracing_map_elt *other;

		other = tracing_map_lookup(r->ref->map, key);
		if (!other || !tracing_map_var_set(other, r->idx))
			return true;
		refv[i] = h->read_once[i] ?
			  tracing_map_read_var_once(other, r->idx) :
			  tracing_map_read_var(other, r->idx);
	}
	elt = tracing_map_insert(h->map, key);
	if (!elt)
		return true;	/* full: counted in the map's drops */
	tracing_map_update_sum(elt, 0, 1);
	for (i = 0; i < h->nr_vals; i++)
		tracing_map_update_sum(elt, h->vals[i].idx,
				       kmark_hist_num(h, &h->vals[i], hdr, rec));
	for (i = 0; i < h->nr_vars; i++) {
		const struct kmark_hvar *v = &h->vars[i];

		if (!kmark_hexpr_eval(h, v, v->root, hdr, rec, refv, elt, &a))
			continue;
		tracing_map_set_var(elt, v->idx, a);
	}
	if (!h->nr_actions || !kmark_hist_self_set(h, elt))
		return true;
	for (i = 0; i < h->nr_actions; i++) {
		const struct kmark_haction *act = &h->actions[i];
		struct kmark_helt *he = elt->private_data;

		if (act->kind != KMARK_HA_ONMATCH) {
			/* ftrace's check_track_val_max(), _changed() */
			if (!kmark_hist_operand(h, &act->max, hdr, rec, refv,
						elt, &a) ||
			    (act->kind == KMARK_HA_ONMAX ? a <= he->track[i] :
							   a == he->track[i]))
				continue;
			he->track[i] = a;
		}
		if (act->snapshot) {
			/* after the commit: the snapshot has the hit's record */
			memcpy(pad->snap_key, key, h->key_size);
			pad->snap = (struct kmark_hsnap_ctx) {
				.h = h, .act = act, .key = pad->snap_key,
				.comm = he->comm, .val = a,
			};
			continue;
		}
		if (act->synth) {
			for (j = 0; j < act->nr_params; j++)
				if (!kmark_hist_param(h, &act->params[j], hdr, rec,
						      len, refv, elt, strs, j,
						      &vals[j]))
					break;
			if (j == act->nr_params)
				kmark_synth_fire(act->synth, vals);
			continue;
		}
		he->saved_set = true;
		for (j = 0; j < act->nr_save; j++) {
			const struct kmark_hfield *sv = &act->save[j];

			if (sv->src == KMARK_HF_COMM)
				strscpy(he->saved_str[j], current->comm,
					TASK_COMM_LEN);
			else if (sv->is_str)
				kmark_hist_str(sv->field, rec, len,
					       he->saved_str[j], TASK_COMM_LEN);
			else
				kmark_hist_operand(h, sv, hdr, rec, refv, elt,
						   &he->saved[j]);
		}
	}
	return true;
}
NOKPROBE_SYMBOL(kmark_hist_fire);

/*
 * After the hit's record is committed: its snapshot() action swaps, so
 * that the snapshot ends with the hit, as ftrace's (whose swap comes
 * before the commit of a record reserved in the buffer swapped out).
 */
static void notrace kmark_hist_after(struct kmark_trigger *t)
{
	struct kmark_hist *h = t->data;
	struct kmark_hist_pad *pad;
	struct kmark_hsnap_ctx ctx;

	pad = kmark_hist_pad_get();
	if (!pad)
		return;
	if (pad->snap.h != h)
		return;
	ctx = pad->snap;	/* its key stays in the pad */
	pad->snap.h = NULL;
	kmark_snapshot_swap_cond(h->file->inst, kmark_hist_snap_cond, &ctx);
}
NOKPROBE_SYMBOL(kmark_hist_after);

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

/* ftrace's error_log texts (trace_events_hist.c), where kmark has the case. */
#define KMARK_HE_BAD_MODIFIER	"Invalid field modifier"
#define KMARK_HE_FIELD		"Couldn't find field"
#define KMARK_HE_VAR		"Couldn't find variable"
#define KMARK_HE_TOO_LONG	"Name too long (at most 63 characters)"
#define KMARK_HE_EMPTY		"Empty assignment"
#define KMARK_HE_SORT_MODIFIER	"Invalid sort modifier"
#define KMARK_HE_SORT_EMPTY	"Empty sort field"
#define KMARK_HE_SORT_MANY	"Too many sort fields (Max = 2)"
#define KMARK_HE_SORT_FIELD	"Sort field must be a key or a val"
#define KMARK_HE_REF_KEY	"Using variable references in keys not supported"
#define KMARK_HE_NUMBER		"Expecting numeric literal"
#define KMARK_HE_NOHC		"Non-hitcount value is required for 'nohitcount'"
#define KMARK_HE_EEXIST		"Hist trigger already exists"
#define KMARK_HE_NAMED		"Named hist trigger doesn't match existing named trigger (includes variables)"
#define KMARK_HE_ENOENT		"Can't clear or continue a nonexistent hist trigger"
#define KMARK_HE_CLOCK		"Couldn't set trace_clock"
#define KMARK_HE_PAREN		"No closing paren found"
#define KMARK_HE_SUBSYS		"Missing subsystem"
#define KMARK_HE_EVENT		"Invalid subsystem or event name"
#define KMARK_HE_ACTION		"No action found"
#define KMARK_HE_MISMATCH	"Handler doesn't support action"
#define KMARK_HE_NO_SAVE	"No params found for save()"
#define KMARK_HE_SYNTH		"Couldn't find synthetic event"
#define KMARK_HE_SYNTH_TYPE	"Param type doesn't match synthetic event field type"
#define KMARK_HE_SYNTH_COUNT	"Param count doesn't match synthetic event field count"
#define KMARK_HE_ONX_NOT_VAR	"For onmax(x) or onchange(x), x must be a variable"
#define KMARK_HE_ONX_VAR	"Couldn't find onmax or onchange variable"
#define KMARK_HE_TOO_MANY_VARS	"Too many variables defined"
#define KMARK_HE_DUP_VAR	"Variable already defined"
#define KMARK_HE_MALFORMED	"Malformed assignment"
#define KMARK_HE_TOO_MANY_PARAMS "Too many action params"
#define KMARK_HE_STR_OPERAND	"String type can not be an operand in expression"
#define KMARK_HE_SUBEXPR	"Too many subexpressions (3 max)"
#define KMARK_HE_UNARY_SUBEXPR	"Unary minus not supported in sub-expressions"
#define KMARK_HE_DIV_ZERO	"Division by zero"
#define KMARK_HE_INVALID_PARAM	"Invalid action param"

/* pause, continue and clear as written (ftrace's attrs) */
#define KMARK_HP_PAUSE		BIT(0)
#define KMARK_HP_CONT		BIT(1)
#define KMARK_HP_CLEAR		BIT(2)

struct kmark_hparse {
	struct kmark_hist *h;
	struct kmark_event_file *file;
	struct kmark_trigger_err *err;
	unsigned int map_bits;
	unsigned int flags;		/* KMARK_HP_* */
	char *keys, *vals, *sort;	/* the attributes, as ftrace's attrs */
	unsigned int nr_assign, nr_act;
	char *assign[KMARK_HIST_VARS + 1];
	char *act[2 + 1];
};

/*
 * Fail with @msg and the caret where ftrace's err_pos() puts it: at the
 * first occurrence of @str in the command as written (0 if none, or no
 * @str).
 */
static int kmark_hist_err(struct kmark_hparse *ps, const char *msg,
			  const char *str)
{
	const char *found = str ? strstr(ps->err->line, str) : NULL;

	ps->err->msg = msg;
	ps->err->pos = found ? found - ps->err->line : 0;
	return -EINVAL;
}

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

/* What a field reference is for: its checks differ, as in ftrace. */
enum { KMARK_HK_KEY, KMARK_HK_VAL, KMARK_HK_VAR, KMARK_HK_PARAM };

/* The common and generic names, after the event's own fields. */
static bool kmark_hist_common(struct kmark_hfield *hf, const char *name)
{
	if (!strcmp(name, "common_pid")) {
		hf->src = KMARK_HF_PID;
		hf->is_signed = true;
	} else if (!strcmp(name, "common_cpu") || !strcmp(name, "cpu") ||
		   !strcmp(name, "CPU")) {
		hf->src = KMARK_HF_CPU;
	} else if (!strcmp(name, "common_timestamp")) {
		hf->src = KMARK_HF_TS;
	} else if (!strcmp(name, "common_comm") || !strcmp(name, "comm") ||
		   !strcmp(name, "COMM")) {
		/* kmark's: current's name (ftrace has no such hist field) */
		hf->src = KMARK_HF_COMM;
		hf->is_str = true;
	} else if (!strcmp(name, "common_stacktrace") ||
		   !strcmp(name, "stacktrace") || !strcmp(name, "STACKTRACE")) {
		hf->src = KMARK_HF_STACK;
	} else if (!strcmp(name, "hitcount")) {
		hf->src = KMARK_HF_HITCOUNT;
	} else {
		return false;
	}
	return true;
}

/*
 * One field reference, "NAME[.MODIFIER]", "$VAR" or a number, into @hf, for
 * @kind (KMARK_HK_*). As ftrace's parse_atom() and parse_field(): one
 * modifier, the same refusals, the carets where ftrace puts them.
 */
static int kmark_hist_field(struct kmark_hparse *ps, char *text,
			    struct kmark_hfield *hf, int kind)
{
	const struct kmark_layout *l = ps->file->m->layout;
	char *mod = NULL, *dot, *p;
	bool stack_mod = false;
	unsigned int i;

	memset(hf, 0, sizeof(*hf));
	text = strim(text);
	/*
	 * "SYSTEM.EVENT.$VAR" names a variable of that event's hist: as
	 * ftrace's parse_atom(), what follows the second '.' is what counts
	 * (a variable is found by its name in the instance).
	 */
	dot = strchr(text, '.');
	if (dot && strchr(dot + 1, '.')) {
		text = strchr(dot + 1, '.') + 1;
		dot = NULL;
	}
	if (kind != KMARK_HK_KEY && isdigit(*text)) {
		hf->src = KMARK_HF_CONST;
		if (strscpy(hf->name, text) < 0)
			return kmark_hist_err(ps, KMARK_HE_TOO_LONG, text);
		if (kstrtoull(text, 0, &hf->constant))
			return kmark_hist_err(ps, KMARK_HE_NUMBER, text);
		return 0;
	}
	if (*text == '$' && text[1]) {
		struct kmark_hist *h = ps->h;

		if (strscpy(hf->name, text + 1) < 0)
			return kmark_hist_err(ps, KMARK_HE_TOO_LONG, text);
		for (i = 0; i < h->nr_vars; i++) {
			if (!strcmp(h->vars[i].name, hf->name)) {
				hf->src = KMARK_HF_VAR;
				hf->idx = h->vars[i].idx;
				hf->var = &h->vars[i];
				break;
			}
		}
		if (!hf->src)
			hf->ref = kmark_hist_find_var(ps->file->inst, hf->name,
						      &hf->idx);
		if (!hf->src && !hf->ref) {
			/* ftrace logs both: no variable, then no field */
			const char *found = strstr(ps->err->line, text + 1);

			ps->err->pre_msg = KMARK_HE_VAR;
			ps->err->pre_pos = found ? found - ps->err->line : 0;
			return kmark_hist_err(ps, KMARK_HE_FIELD, text);
		}
		if (kind == KMARK_HK_KEY)
			return kmark_hist_err(ps, KMARK_HE_REF_KEY, text);
		if (kind == KMARK_HK_VAL) {
			ps->err->msg = "A variable is not a value: name it in an expression";
			return -EINVAL;
		}
		if (hf->src)
			return 0;
		for (i = 0; i < hf->ref->nr_vars; i++)
			if (hf->ref->vars[i].idx == hf->idx)
				hf->var = &hf->ref->vars[i];
		if (!kmark_hist_keys_alike(hf->ref, h)) {
			ps->err->msg = "The variable's hist has keys of another shape";
			return -EINVAL;
		}
		hf->src = KMARK_HF_VAR_REF;
		return 0;
	}
	dot = strchr(text, '.');
	if (dot) {
		*dot = '\0';
		mod = dot + 1;
	}
	if (mod) {
		if (!strcmp(mod, "hex")) {
			hf->mods = KMARK_HM_HEX;
		} else if (!strcmp(mod, "sym")) {
			hf->mods = KMARK_HM_SYM;
		} else if (!strcmp(mod, "sym-offset")) {
			hf->mods = KMARK_HM_SYM_OFFSET;
		} else if (!strcmp(mod, "execname") &&
			   !strcmp(text, "common_pid")) {
			hf->mods = KMARK_HM_EXECNAME;
		} else if (!strcmp(mod, "syscall")) {
			hf->mods = KMARK_HM_SYSCALL;
		} else if (!strcmp(mod, "stacktrace")) {
			stack_mod = true;
		} else if (!strcmp(mod, "log2")) {
			hf->mods = KMARK_HM_LOG2;
		} else if (!strcmp(mod, "usecs")) {
			hf->mods = KMARK_HM_USECS;
		} else if (!strncmp(mod, "bucket", 6)) {
			p = mod + 6;
			if (*p == 's')
				p++;
			if (*p != '=')
				return kmark_hist_err(ps, KMARK_HE_BAD_MODIFIER, p);
			p++;
			if (kstrtoul(p, 0, &hf->buckets) || !hf->buckets)
				return kmark_hist_err(ps, KMARK_HE_BAD_MODIFIER, p);
			hf->mods = KMARK_HM_BUCKETS;
		} else if (!strncmp(mod, "percent", 7) && kind != KMARK_HK_KEY &&
			   kind != KMARK_HK_VAR) {
			hf->mods = KMARK_HM_PERCENT;
		} else if (!strncmp(mod, "graph", 5) && kind != KMARK_HK_KEY &&
			   kind != KMARK_HK_VAR) {
			hf->mods = KMARK_HM_GRAPH;
		} else {
			return kmark_hist_err(ps, KMARK_HE_BAD_MODIFIER, mod);
		}
	}
	if (strscpy(hf->name, text) < 0)
		return kmark_hist_err(ps, KMARK_HE_TOO_LONG, text);
	for (i = 0; i < l->nr_fields; i++)
		if (!strcmp(l->fields[i].name, text))
			hf->field = &l->fields[i];
	if (hf->field) {
		hf->src = KMARK_HF_EVENT;
		hf->is_signed = hf->field->is_signed;
		hf->is_str = hf->field->kind == KMARK_FIELD_STR ||
			     hf->field->kind == KMARK_FIELD_CHARS;
	} else if (!kmark_hist_common(hf, text)) {
		return kmark_hist_err(ps, KMARK_HE_FIELD, text);
	}
	if (dot)
		*dot = '.';	/* the carets below are at the whole text */
	/* No field of kmark's is a stack (ftrace's .stacktrace modifier). */
	if (stack_mod)
		return kmark_hist_err(ps, KMARK_HE_BAD_MODIFIER, text);
	/* What ftrace's __create_val_field() refuses. */
	if (kind == KMARK_HK_VAL &&
	    ((hf->mods & (KMARK_HM_BUCKETS | KMARK_HM_LOG2 | KMARK_HM_SYM |
			  KMARK_HM_SYM_OFFSET | KMARK_HM_SYSCALL)) ||
	     hf->src == KMARK_HF_STACK))
		return kmark_hist_err(ps, KMARK_HE_BAD_MODIFIER, text);
	if (kind == KMARK_HK_VAR &&
	    (hf->mods & (KMARK_HM_BUCKETS | KMARK_HM_LOG2)))
		return kmark_hist_err(ps, KMARK_HE_BAD_MODIFIER, text);
	if (dot)
		*dot = '\0';
	if (hf->src == KMARK_HF_STACK && kind != KMARK_HK_KEY) {
		ps->err->msg = "common_stacktrace is a key only";
		return -EINVAL;
	}
	if (hf->is_str && hf->mods) {
		ps->err->msg = "A string takes no modifier";
		return -EINVAL;
	}
	if ((hf->mods & KMARK_HM_USECS) && hf->src != KMARK_HF_TS) {
		ps->err->msg = "usecs applies to common_timestamp";
		return -EINVAL;
	}
	if (hf->is_str && kind == KMARK_HK_VAL) {
		ps->err->msg = "A value must be a number";
		return -EINVAL;
	}
	if (hf->src == KMARK_HF_TS)
		ps->h->timestamps = true;
	return 0;
}

/* keys=: at most TRACING_MAP_KEYS_MAX, as ftrace's create_key_fields(). */
static int kmark_hist_keys(struct kmark_hparse *ps, char *list)
{
	struct kmark_hist *h = ps->h;
	char *word;
	int ret;

	while ((word = strsep(&list, ","))) {
		struct kmark_hfield *k;

		if (h->nr_keys == TRACING_MAP_KEYS_MAX) {
			/* ftrace: EINVAL, no error_log entry */
			ps->err->msg = "Too many keys (at most 3)";
			return -EINVAL;
		}
		k = &h->keys[h->nr_keys];
		ret = kmark_hist_field(ps, word, k, KMARK_HK_KEY);
		if (ret)
			return ret;
		if (k->src == KMARK_HF_HITCOUNT) {
			ps->err->msg = "hitcount is not a key";
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

/* vals=: hitcount (once, always there) and at most two more. */
static int kmark_hist_vals(struct kmark_hparse *ps, char *list)
{
	struct kmark_hist *h = ps->h;
	bool hitcount = false;
	char *word;
	int ret;

	while ((word = strsep(&list, ","))) {
		struct kmark_hfield v;

		if (!strcmp(word, "hitcount") && !hitcount) {
			hitcount = true;
			continue;
		}
		if (h->nr_vals == TRACING_MAP_VALS_MAX - 1) {
			/* ftrace: EINVAL, no error_log entry */
			ps->err->msg = "Too many values (at most 2 besides hitcount)";
			return -EINVAL;
		}
		ret = kmark_hist_field(ps, word, &v, KMARK_HK_VAL);
		if (ret)
			return ret;
		h->vals[h->nr_vals++] = v;
	}
	return 0;
}

/*
 * The root operator of @str, as ftrace's contains_operator(): the last
 * '-' or '+' (a '-' that starts @str is a unary minus, 'n'), else the last
 * '/' or '*'; 0 for none. The '-' of ".sym-offset" is not one.
 */
static char kmark_hexpr_op(char *str, char **sep)
{
	char *minus = NULL, *plus, *div, *mult, *p;

	for (p = strchr(str, '-'); p; p = strchr(p + 1, '-'))
		if (!(p - str >= 4 && !strncmp(p - 4, ".sym-offset", 11)))
			minus = p;
	if (minus == str) {
		*sep = minus;
		return 'n';
	}
	plus = strrchr(str, '+');
	if (plus || minus) {
		*sep = plus > minus ? plus : minus;
		return **sep;
	}
	div = strrchr(str, '/');
	mult = strrchr(str, '*');
	if (!div && !mult)
		return 0;
	*sep = mult > div ? mult : div;
	return **sep;
}

static int kmark_hexpr_node(struct kmark_hparse *ps, struct kmark_hvar *v,
			    char op, unsigned int l, unsigned int r,
			    const char *str)
{
	if (v->nr_node == KMARK_HEXPR_NODES)
		return kmark_hist_err(ps, KMARK_HE_SUBEXPR, str);
	v->node[v->nr_node].op = op;
	v->node[v->nr_node].l = l;
	v->node[v->nr_node].r = r;
	return v->nr_node++;
}

/* Node @n's value if it is a constant (an operand, or folded). */
static bool kmark_hexpr_const(const struct kmark_hvar *v, unsigned int n,
			      u64 *c)
{
	const struct kmark_hnode *nd = &v->node[n];

	if (nd->op || v->a[nd->l].src != KMARK_HF_CONST)
		return false;
	*c = v->a[nd->l].constant;
	return true;
}

static int kmark_hexpr(struct kmark_hparse *ps, struct kmark_hvar *v,
		       char *str, unsigned int *nsub);

/* An operand of an operator: an expression, not a string. */
static int kmark_hexpr_num(struct kmark_hparse *ps, struct kmark_hvar *v,
			   char *str, unsigned int *nsub)
{
	int n = kmark_hexpr(ps, v, str, nsub);

	if (n >= 0 && !v->node[n].op && v->a[v->node[n].l].is_str)
		return kmark_hist_err(ps, KMARK_HE_STR_OPERAND, str);
	return n;
}

/* A leaf: one operand (ftrace's parse_atom()). */
static int kmark_hexpr_atom(struct kmark_hparse *ps, struct kmark_hvar *v,
			    char *str)
{
	int ret;

	if (v->nr_a == KMARK_HEXPR_OPNDS)
		return kmark_hist_err(ps, KMARK_HE_SUBEXPR, str);
	ret = kmark_hist_field(ps, str, &v->a[v->nr_a], KMARK_HK_VAR);
	if (ret)
		return ret;
	return kmark_hexpr_node(ps, v, 0, v->nr_a++, 0, str);
}

/* -(EXPR), the whole of what is left (ftrace's parse_unary()). */
static int kmark_hexpr_unary(struct kmark_hparse *ps, struct kmark_hvar *v,
			     char *str, unsigned int *nsub)
{
	char *close;
	int n;

	if (++*nsub > 3)
		return kmark_hist_err(ps, KMARK_HE_SUBEXPR, str);
	str++;
	if (*str != '(')
		return kmark_hist_err(ps, KMARK_HE_MALFORMED, str);
	str++;
	close = strrchr(str, ')');
	if (!close)
		return kmark_hist_err(ps, KMARK_HE_PAREN, str);
	if (close[1])
		return kmark_hist_err(ps, KMARK_HE_UNARY_SUBEXPR, str);
	*close = '\0';
	n = kmark_hexpr_num(ps, v, str, nsub);
	if (n < 0)
		return n;
	return kmark_hexpr_node(ps, v, 'n', n, 0, str);
}

/*
 * @str (NUL-terminated, changed) as ftrace's parse_expr() reads it: split
 * at the root operator, each side an expression, @nsub counting the
 * operators (more than 3: "Too many subexpressions"); two constants fold
 * into one. Return: the node, or -EINVAL with the error set.
 */
static int kmark_hexpr(struct kmark_hparse *ps, struct kmark_hvar *v,
		       char *str, unsigned int *nsub)
{
	char *sep = NULL, *rhs, op;
	int l, r;
	u64 a, b;

	if (*nsub > 3)
		return kmark_hist_err(ps, KMARK_HE_SUBEXPR, str);
	op = kmark_hexpr_op(str, &sep);
	if (!op)
		return kmark_hexpr_atom(ps, v, str);
	if (op == 'n')
		return kmark_hexpr_unary(ps, v, str, nsub);
	++*nsub;
	*sep = '\0';
	rhs = sep + 1;
	if (!*str || !*rhs)
		return kmark_hist_err(ps, KMARK_HE_MALFORMED, *str ? str : rhs);
	l = kmark_hexpr_num(ps, v, str, nsub);
	if (l < 0)
		return l;
	r = kmark_hexpr_num(ps, v, rhs, nsub);
	if (r < 0)
		return r;
	if (op == '/' && kmark_hexpr_const(v, r, &b) && !b) {
		kmark_hist_err(ps, KMARK_HE_DIV_ZERO, rhs);
		return -EDOM;	/* ftrace's errno */
	}
	if (kmark_hexpr_const(v, l, &a) && kmark_hexpr_const(v, r, &b)) {
		/* ftrace's combine_consts: the left operand becomes the sum */
		struct kmark_hfield *c = &v->a[v->node[l].l];

		c->constant = op == '+' ? a + b : op == '-' ? a - b :
			      op == '*' ? a * b : kmark_hexpr_div(a, b);
		snprintf(c->name, sizeof(c->name), "%llu", c->constant);
		return l;
	}
	return kmark_hexpr_node(ps, v, op, l, r, str);
}

/* VAR=EXPR */
static int kmark_hist_var(struct kmark_hparse *ps, char *name, char *expr)
{
	struct kmark_hist *h = ps->h;
	unsigned int i, nsub = 0;
	struct kmark_hvar *v;
	int root;

	name = strim(name);
	if (h->nr_vars == KMARK_HIST_VARS)
		return kmark_hist_err(ps, KMARK_HE_TOO_MANY_VARS, name);
	for (i = 0; i < h->nr_vars; i++)
		if (!strcmp(h->vars[i].name, name))
			return kmark_hist_err(ps, KMARK_HE_DUP_VAR, name);
	v = &h->vars[h->nr_vars];
	memset(v, 0, sizeof(*v));
	if (strscpy(v->name, name) < 0)
		return kmark_hist_err(ps, KMARK_HE_TOO_LONG, name);
	if (!*v->name || strpbrk(v->name, "$.+-"))
		return kmark_hist_err(ps, KMARK_HE_MALFORMED, name);
	expr = strim(expr);
	root = kmark_hexpr(ps, v, expr, &nsub);
	if (root < 0)
		return root;
	v->root = root;
	if (!kmark_hvar_expr(v) && v->a[v->node[root].l].is_str) {
		ps->err->msg = "A variable holds a number";
		return -EINVAL;
	}
	h->nr_vars++;
	return 0;
}

/*
 * An action's parameters "a,b,..." into @fs, as ftrace's
 * parse_action_params() reads them (stripped, at least two characters
 * each), and each as written after @text (the action as listed).
 */
static int kmark_hist_params(struct kmark_hparse *ps, char *list,
			     struct kmark_hfield *fs, unsigned int max,
			     unsigned int *n, char *text, size_t size)
{
	char *word;
	int ret;

	*n = 0;
	while (list) {
		if (*n == max)
			return kmark_hist_err(ps, KMARK_HE_TOO_MANY_PARAMS, NULL);
		word = strim(strsep(&list, ","));
		if (strlen(word) < 2)
			return kmark_hist_err(ps, KMARK_HE_INVALID_PARAM, word);
		if (strlen(text) + strlen(word) + 2 < size)
			sprintf(text + strlen(text), "%s%s",
				text[strlen(text) - 1] == '(' ? "" : ",", word);
		ret = kmark_hist_field(ps, word, &fs[*n], KMARK_HK_PARAM);
		if (ret)
			return ret;
		(*n)++;
	}
	return 0;
}

/*
 * What a field holds, as ftrace's hist field types: char[N] (@chars; 0
 * for a string of any length) or a number of @size bytes.
 */
static void kmark_hfield_type(const struct kmark_hfield *hf, int *chars,
			      unsigned int *size, bool *is_signed)
{
	const struct kmark_hvar *v = hf->var;

	*chars = -1;
	*size = sizeof(u64);
	*is_signed = false;
	switch (hf->src) {
	case KMARK_HF_EVENT:
		if (hf->field->kind == KMARK_FIELD_CHARS)
			*chars = hf->field->size;
		else if (hf->is_str)
			*chars = 0;
		*size = hf->field->size;
		*is_signed = hf->field->is_signed;
		break;
	case KMARK_HF_PID:
		*size = sizeof(int);
		*is_signed = true;
		break;
	case KMARK_HF_CPU:
		*size = sizeof(int);
		break;
	case KMARK_HF_COMM:
		*chars = TASK_COMM_LEN;
		break;
	case KMARK_HF_VAR:
	case KMARK_HF_VAR_REF:
		/* a variable of one operand has its type, else a u64 */
		if (v && !kmark_hvar_expr(v) &&
		    v->a[v->node[v->root].l].src != KMARK_HF_VAR &&
		    v->a[v->node[v->root].l].src != KMARK_HF_VAR_REF)
			kmark_hfield_type(&v->a[v->node[v->root].l], chars,
					  size, is_signed);
		break;
	default:
		break;
	}
}

static bool kmark_hist_takes(const struct kmark_marker *synth, unsigned int i,
			     const struct kmark_hfield *hf)
{
	unsigned int size;
	bool is_signed;
	int chars;

	kmark_hfield_type(hf, &chars, &size, &is_signed);
	return kmark_synth_field_takes(synth, i, chars, size, is_signed);
}

/*
 * onmatch(SYS.EVENT).trace(SYNTH,P...) (or .SYNTH(P...)), onmax($VAR) and
 * onchange($VAR) with .save(F,...) or .trace(SYNTH,P...), as ftrace's
 * onmatch_parse(), track_data_parse(), action_parse() and
 * trace_action_create() read them, with their errors.
 */
static int kmark_hist_action(struct kmark_hparse *ps, char *text)
{
	struct kmark_hist *h = ps->h;
	struct kmark_haction *act = &h->actions[h->nr_actions];
	char *str, *arg, *action, *params, buf[KMARK_HIST_ACTION_TEXT];
	bool onmatch = str_has_prefix(text, "onmatch(");
	const char *handler;
	unsigned int i;
	int ret;

	act->kind = onmatch ? KMARK_HA_ONMATCH :
		    str_has_prefix(text, "onmax(") ? KMARK_HA_ONMAX :
		    KMARK_HA_ONCHANGE;
	handler = act->kind == KMARK_HA_ONMAX ? "onmax" : "onchange";
	str = strchr(text, '(') + 1;
	arg = strsep(&str, ")");
	if (onmatch) {
		char *sys;

		if (!str)
			return kmark_hist_err(ps, KMARK_HE_PAREN, arg);
		sys = strsep(&arg, ".");
		if (!arg)
			return kmark_hist_err(ps, KMARK_HE_SUBSYS, sys);
		if (!kmark_find_file(ps->file->inst, sys, arg))
			return kmark_hist_err(ps, KMARK_HE_EVENT, arg);
		strscpy(act->match_sys, sys);
		strscpy(act->match_ev, arg);
		snprintf(buf, sizeof(buf), "onmatch(%s.%s).", sys, arg);
	} else {
		if (!str) {
			/* ftrace: EINVAL, no error_log entry */
			ps->err->msg = KMARK_HE_PAREN;
			return -EINVAL;
		}
		snprintf(buf, sizeof(buf), "%s(%s).", handler, arg);
	}
	/* action_parse(): ".ACTION(PARAMS)" */
	strsep(&str, ".");
	if (!str)
		return kmark_hist_err(ps, KMARK_HE_ACTION, NULL);
	action = strsep(&str, "(");
	if (!action || !str)
		return kmark_hist_err(ps, KMARK_HE_ACTION, NULL);
	params = strsep(&str, ")");
	strlcat(buf, action, sizeof(buf));
	strlcat(buf, "(", sizeof(buf));
	if (str_has_prefix(action, "save")) {
		if (!params)
			return kmark_hist_err(ps, KMARK_HE_NO_SAVE, NULL);
		ret = kmark_hist_params(ps, params, act->save, KMARK_HIST_SAVE,
					&act->nr_save, buf, sizeof(buf));
		if (ret)
			return ret;
		if (onmatch)
			return kmark_hist_err(ps, KMARK_HE_MISMATCH, action);
	} else if (str_has_prefix(action, "snapshot")) {
		if (!str)
			return kmark_hist_err(ps, KMARK_HE_PAREN, params);
		if (onmatch)
			return kmark_hist_err(ps, KMARK_HE_MISMATCH, action);
		act->snapshot = true;
	} else {
		/* .trace(SYNTH,P...) or the short form .SYNTH(P...) */
		const char *synth = action;

		act->trace_kw = str_has_prefix(action, "trace");
		if (act->trace_kw && params) {
			synth = strim(strsep(&params, ","));
			if (strlen(synth) < 2)
				return kmark_hist_err(ps, KMARK_HE_INVALID_PARAM,
						      synth);
			strlcat(buf, synth, sizeof(buf));
		} else if (act->trace_kw) {
			synth = "";
		}
		if (params) {
			ret = kmark_hist_params(ps, params, act->params,
						KMARK_HIST_PARAMS,
						&act->nr_params, buf,
						sizeof(buf));
			if (ret)
				return ret;
		}
		/* trace_action_create() */
		act->synth = kmark_synth_find(synth);
		if (!act->synth)
			return kmark_hist_err(ps, KMARK_HE_SYNTH, synth);
		for (i = 0; i < act->nr_params; i++)
			if (!kmark_hist_takes(act->synth, i, &act->params[i])) {
				act->synth = NULL;
				return kmark_hist_err(ps, KMARK_HE_SYNTH_TYPE,
						      act->params[i].name);
			}
		if (act->nr_params != act->synth->layout->nr_fields) {
			act->synth = NULL;
			return kmark_hist_err(ps, KMARK_HE_SYNTH_COUNT, synth);
		}
	}
	strlcat(buf, ")", sizeof(buf));
	if (!onmatch) {
		/* track_data_create(): a variable of this hist */
		if (*arg != '$')
			return kmark_hist_err(ps, KMARK_HE_ONX_NOT_VAR, arg);
		ret = kmark_hist_field(ps, arg, &act->max, KMARK_HK_PARAM);
		if (ret || act->max.src != KMARK_HF_VAR) {
			ps->err->pre_msg = NULL;	/* ftrace logs one */
			return kmark_hist_err(ps, KMARK_HE_ONX_VAR, arg + 1);
		}
	}
	/*
	 * Held once the action is counted, which kmark_hist_free() puts: a
	 * failure above leaves the synthetic event as it was.
	 */
	if (act->synth)
		kmark_synth_get(act->synth);
	h->nr_actions++;
	act->text = kstrdup(buf, GFP_KERNEL);
	if (!act->text) {
		ps->err->msg = "Out of memory";
		return -ENOMEM;
	}
	return 0;
}

/* One sort key's direction: ftrace's is_descending(). */
static int kmark_hist_descending(struct kmark_hparse *ps, const char *mod)
{
	if (!mod || !strcmp(mod, "ascending"))
		return 0;
	if (!strcmp(mod, "descending"))
		return 1;
	return kmark_hist_err(ps, KMARK_HE_SORT_MODIFIER, mod);
}

/* sort=: hitcount, a value or a key by name, as ftrace's create_sort_keys(). */
static int kmark_hist_sort(struct kmark_hparse *ps, char *list)
{
	struct kmark_hist *h = ps->h;
	char *word, *name;
	unsigned int i;
	int desc;

	h->nr_sort = 1;		/* hitcount, ascending, when there is none */
	for (i = 0; i < TRACING_MAP_SORT_KEYS_MAX; i++) {
		const struct kmark_hfield *hf = NULL;
		unsigned int j;

		word = strsep(&list, ",");
		if (!word)
			break;
		if (!*word)
			return kmark_hist_err(ps, KMARK_HE_SORT_EMPTY, "sort=");
		if (i == TRACING_MAP_SORT_KEYS_MAX - 1 && list)
			return kmark_hist_err(ps, KMARK_HE_SORT_MANY, "sort=");
		name = strsep(&word, ".");
		if (!*name)
			return kmark_hist_err(ps, KMARK_HE_SORT_EMPTY, "sort=");
		if (strcmp(name, "hitcount")) {
			for (j = 0; !hf && j < h->nr_vals; j++)
				if (!strcmp(name, h->vals[j].name))
					hf = &h->vals[j];
			for (j = 0; !hf && j < h->nr_keys; j++)
				if (!strcmp(name, h->keys[j].name))
					hf = &h->keys[j];
			if (!hf)
				return kmark_hist_err(ps, KMARK_HE_SORT_FIELD,
						      name);
		}
		desc = kmark_hist_descending(ps, word);
		if (desc < 0)
			return desc;
		h->sort_f[i] = hf;
		h->sort[i].descending = desc;
	}
	h->nr_sort = max(i, 1U);
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
	ps->err->msg = "Too many keys and values together (at most 6 with hitcount)";
	return -EINVAL;
nomem:
	ps->err->msg = "Out of memory";
	return -ENOMEM;
}

/*
 * A snapshot() action's hit waits in its CPU's pad between its trigger and
 * kmark_hist_after(), which takes it. One left there (the event's triggers
 * changed in between, so that after() ran for another) must not outlive
 * @h: a hist made later at the same address would take it. Called after
 * the grace period that ends every hit of @h.
 */
static void kmark_hist_snap_forget(struct kmark_hist *h)
{
	unsigned int cpu, level, depth;

	if (!h->snap)
		return;
	for_each_possible_cpu(cpu)
		for (level = 0; level < 4; level++)
			for (depth = 0; depth < KMARK_TRIGGER_DEPTH; depth++)
				cmpxchg(&per_cpu_ptr(kmark_hist_pad, cpu)[level][depth].snap.h,
					h, NULL);
}

static void kmark_hist_free(struct kmark_hist *h)
{
	unsigned int i;

	if (!h)
		return;
	kmark_hist_snap_forget(h);
	for (i = 0; i < h->nr_actions; i++) {
		if (h->actions[i].synth && !h->synth_dropped)
			kmark_synth_put(h->actions[i].synth);
		kfree(h->actions[i].text);
	}
	if (h->map)
		tracing_map_destroy(h->map);
	kfree(h->snap);
	kfree(h->name);
	kfree(h);
}

/* Whether two fields are the same (ftrace compares flags, field, size). */
static bool kmark_hfield_same(const struct kmark_hfield *a,
			      const struct kmark_hfield *b)
{
	/* a constant by its value: "0x10", "16" and a folded "8+8" are one */
	return a->src == b->src && a->mods == b->mods &&
	       a->buckets == b->buckets && a->constant == b->constant &&
	       (a->src == KMARK_HF_CONST || !strcmp(a->name, b->name));
}

/* Whether node @n of @x and node @m of @y are the same expression. */
static bool kmark_hexpr_same(const struct kmark_hvar *x, unsigned int n,
			     const struct kmark_hvar *y, unsigned int m)
{
	const struct kmark_hnode *a = &x->node[n], *b = &y->node[m];

	if (a->op != b->op)
		return false;
	if (!a->op)
		return kmark_hfield_same(&x->a[a->l], &y->a[b->l]);
	return kmark_hexpr_same(x, a->l, y, b->l) &&
	       (a->op == 'n' || kmark_hexpr_same(x, a->r, y, b->r));
}

/* Whether two event fields are read alike (two events' layouts). */
static bool kmark_hfield_where(const struct kmark_hfield *a,
			       const struct kmark_hfield *b)
{
	if (a->src != KMARK_HF_EVENT)
		return true;
	return a->field->offset == b->field->offset &&
	       a->field->size == b->field->size &&
	       a->field->kind == b->field->kind &&
	       a->field->is_signed == b->field->is_signed;
}

/* The hists whose variables a hist reads hold a reference for each read. */
static void kmark_hist_refs(struct kmark_hist *h, int delta)
{
	unsigned int i;

	for (i = 0; i < h->nr_reads; i++)
		h->reads[i]->ref->refs += delta;
}

static void kmark_hist_slot(struct kmark_hist *h, struct kmark_hfield *hf,
			    bool once)
{
	if (hf->src != KMARK_HF_VAR_REF)
		return;
	hf->slot = h->nr_reads;
	h->read_once[h->nr_reads] = once;
	h->reads[h->nr_reads++] = hf;
}

/* The $VARs of other hists, in the order a hit reads them. */
static void kmark_hist_slots(struct kmark_hist *h)
{
	unsigned int i, j;

	for (i = 0; i < h->nr_vars; i++)
		for (j = 0; j < h->vars[i].nr_a; j++)
			kmark_hist_slot(h, &h->vars[i].a[j],
					kmark_hvar_expr(&h->vars[i]));
	for (i = 0; i < h->nr_actions; i++) {
		for (j = 0; j < h->actions[i].nr_params; j++)
			kmark_hist_slot(h, &h->actions[i].params[j], false);
		for (j = 0; j < h->actions[i].nr_save; j++)
			kmark_hist_slot(h, &h->actions[i].save[j], false);
	}
}

/* One "NAME=VALUE" attribute (ftrace's parse_assignment()). */
static int kmark_hist_assign(struct kmark_hparse *ps, char *word, char *eq)
{
	struct kmark_hist *h = ps->h;
	unsigned long size;

	if (!eq[1])
		return kmark_hist_err(ps, KMARK_HE_EMPTY, word);
	if (str_has_prefix(word, "keys=") || str_has_prefix(word, "key=")) {
		ps->keys = eq + 1;
	} else if (str_has_prefix(word, "vals=") ||
		   str_has_prefix(word, "val=") ||
		   str_has_prefix(word, "values=")) {
		ps->vals = eq + 1;
	} else if (str_has_prefix(word, "sort=")) {
		ps->sort = eq + 1;
	} else if (str_has_prefix(word, "name=")) {
		kfree(h->name);		/* (the last one given counts) */
		h->name = kstrdup(eq + 1, GFP_KERNEL);
		if (!h->name) {
			ps->err->msg = "Out of memory";
			return -ENOMEM;
		}
	} else if (str_has_prefix(word, "clock=")) {
		strscpy(h->clock, strim(eq + 1));
	} else if (str_has_prefix(word, "size=")) {
		/* ftrace's parse_map_size(): EINVAL, no error_log entry */
		ps->err->msg = "Table size: 65 to 131072 entries (rounded up to a power of 2)";
		if (kstrtoul(eq + 1, 0, &size) || !size ||
		    size > (1UL << TRACING_MAP_BITS_MAX))
			return -EINVAL;
		ps->map_bits = ilog2(roundup_pow_of_two(size));
		if (ps->map_bits < TRACING_MAP_BITS_MIN)
			return -EINVAL;
	} else {
		/* VAR=EXPR: parsed once the keys are known */
		if (ps->nr_assign == ARRAY_SIZE(ps->assign))
			return kmark_hist_err(ps, KMARK_HE_TOO_MANY_VARS, word);
		ps->assign[ps->nr_assign++] = word;
	}
	return 0;
}

/*
 * "keys=...:vals=...:..." (after "hist:") into a new hist of @file, in
 * ftrace's order: the attributes, then values, keys, variables, sort keys,
 * the table, the actions. Under kmark_mutex. The trigger's count part has
 * no meaning here (own_count).
 */
static int kmark_hist_parse(struct kmark_trigger *t, char *param,
			    struct kmark_trigger_err *err)
{
	struct kmark_hparse ps = { .file = t->file, .err = err,
				   .map_bits = TRACING_MAP_BITS_DEFAULT };
	struct kmark_hist *h;
	unsigned int i;
	char *word;
	int ret;

	err->loc = "hist";
	h = kzalloc(sizeof(*h), GFP_KERNEL);
	if (!h) {
		err->msg = "Out of memory";
		return -ENOMEM;
	}
	ps.h = h;
	h->file = t->file;
	INIT_LIST_HEAD(&h->list);
	refcount_set(&h->users, 1);
	strscpy(h->clock, "global");
	t->data = h;
	while (param) {
		int depth = 0;
		char *p, *eq;

		/* Parentheses of actions may hold ':'s of their own. */
		for (p = param; *p && (depth || *p != ':'); p++)
			depth += *p == '(' ? 1 : *p == ')' ? -1 : 0;
		word = param;
		param = *p ? p + 1 : NULL;
		*p = '\0';
		word = strim(word);
		eq = strchr(word, '=');
		if (eq) {
			ret = kmark_hist_assign(&ps, word, eq);
			if (ret)
				return ret;
			*eq = '\0';
		} else if (!strcmp(word, "nohitcount") || !strcmp(word, "NOHC")) {
			h->nohitcount = true;
		} else if (!strcmp(word, "pause")) {
			ps.flags |= KMARK_HP_PAUSE;
		} else if (!strcmp(word, "continue") || !strcmp(word, "cont")) {
			ps.flags |= KMARK_HP_CONT;
		} else if (!strcmp(word, "clear")) {
			ps.flags |= KMARK_HP_CLEAR;
		} else if ((str_has_prefix(word, "onmatch(") ||
			    str_has_prefix(word, "onmax(") ||
			    str_has_prefix(word, "onchange(")) &&
			   ps.nr_act < ARRAY_SIZE(h->actions)) {
			ps.act[ps.nr_act++] = word;
		} else {
			/* ftrace: EINVAL, no error_log entry */
			err->msg = str_has_prefix(word, "on") ?
				   "Too many actions (at most 2)" :
				   "Unknown hist attribute";
			return -EINVAL;
		}
	}
	if (!ps.keys) {
		/* ftrace: EINVAL, no error_log entry */
		err->msg = "hist needs keys=";
		return -EINVAL;
	}
	if (ps.vals) {
		ret = kmark_hist_vals(&ps, ps.vals);
		if (ret)
			return ret;
	}
	if (h->nohitcount && !h->nr_vals) {
		kmark_hist_err(&ps, KMARK_HE_NOHC, NULL);
		return -ENOENT;
	}
	ret = kmark_hist_keys(&ps, ps.keys);
	if (ret)
		return ret;
	for (i = 0; i < ps.nr_assign; i++) {
		/* NAME=EXPR[,NAME=EXPR...], as ftrace's parse_var_defs() */
		char *rest = ps.assign[i] + strlen(ps.assign[i]) + 1;
		char *def, *eq;

		ret = kmark_hist_var(&ps, ps.assign[i], strsep(&rest, ","));
		while (!ret && rest) {
			def = strsep(&rest, ",");
			eq = strchr(def, '=');
			if (!eq)
				return kmark_hist_err(&ps, KMARK_HE_MALFORMED, def);
			*eq = '\0';
			ret = kmark_hist_var(&ps, def, eq + 1);
		}
		if (ret)
			return ret;
	}
	ret = kmark_hist_sort(&ps, ps.sort);
	if (ret)
		return ret;
	ret = kmark_hist_map(&ps);
	if (ret)
		return ret;
	for (i = 0; i < h->nr_sort; i++)
		h->sort[i].field_idx = h->sort_f[i] ? h->sort_f[i]->idx : 0;
	for (i = 0; i < ps.nr_act; i++) {
		ret = kmark_hist_action(&ps, ps.act[i]);
		if (ret)
			return ret;
	}
	kmark_hist_slots(h);
	t->paused = ps.flags & KMARK_HP_PAUSE;
	/* Kept for the trigger file's handling of an existing trigger. */
	t->flags = ps.flags;
	return 0;
}

/* The registered hist named @name, or NULL. Under kmark_mutex. */
static struct kmark_hist *kmark_hist_named(const char *name)
{
	struct kmark_hist *h;

	list_for_each_entry(h, &kmark_hists, list)
		if (h->name && !strcmp(h->name, name))
			return h;
	return NULL;
}

/*
 * Whether @h may share the table of @n (name=): the same keys, values and
 * variables, read from the same places of the two events' records.
 */
static bool kmark_hist_shares(const struct kmark_hist *h,
			      const struct kmark_hist *n)
{
	unsigned int i;

	if (h->nr_keys != n->nr_keys || h->nr_vals != n->nr_vals ||
	    h->nr_vars || n->nr_vars || h->nr_actions || n->nr_actions)
		return false;
	for (i = 0; i < h->nr_keys; i++)
		if (!kmark_hfield_same(&h->keys[i], &n->keys[i]) ||
		    !kmark_hfield_where(&h->keys[i], &n->keys[i]))
			return false;
	for (i = 0; i < h->nr_vals; i++)
		if (!kmark_hfield_same(&h->vals[i], &n->vals[i]) ||
		    !kmark_hfield_where(&h->vals[i], &n->vals[i]))
			return false;
	return true;
}

/* Set up the map's elements (they are allocated now), take the references. */
/*
 * A snapshot() action takes the instance's snapshot for this hist, as
 * ftrace's tracing_snapshot_cond_enable(): one such hist an instance
 * (EBUSY), the snapshot buffer allocated now. Last in kmark_hist_reg():
 * nothing after it fails.
 */
static int kmark_hist_snap_claim(struct kmark_hist *h,
				 struct kmark_trigger_err *err)
{
	struct kmark_instance *inst = h->file->inst;
	unsigned int i, n = 0;
	int ret;

	for (i = 0; i < h->nr_actions; i++)
		n += h->actions[i].snapshot;
	if (!n)
		return 0;
	err->pos = 0;
	if (n > 1 || inst->snap_cond) {
		err->msg = "One snapshot() action an instance: another hist trigger has it";
		return -EBUSY;
	}
	h->snap = kzalloc(struct_size(h->snap, key, h->key_size), GFP_KERNEL);
	if (!h->snap) {
		err->msg = "Out of memory";
		return -ENOMEM;
	}
	ret = kmark_snapshot_alloc(inst);
	if (ret) {
		err->msg = ret == -EPERM ? KMARK_ERR_BOOT_MAPPED_SNAPSHOT :
			   "Out of memory for the snapshot buffer";
		return ret;
	}
	inst->snap_cond = h;
	return 0;
}

static int kmark_hist_reg(struct kmark_trigger *t, struct kmark_trigger_err *err)
{
	struct kmark_hist *h = t->data, *n;
	int ret, clock;

	/* As ftrace's hist_register_trigger(): nothing to clear or continue */
	if (t->flags & (KMARK_HP_CONT | KMARK_HP_CLEAR)) {
		err->msg = KMARK_HE_ENOENT;
		err->pos = 0;
		return -ENOENT;
	}
	n = h->name ? kmark_hist_named(h->name) : NULL;
	if (n) {
		/* name= of a table there: this trigger feeds it too */
		if (!kmark_hist_shares(h, n)) {
			/* the caret at "name=NAME", as ftrace's */
			const char *found = strstr(err->line, h->name);

			err->msg = KMARK_HE_NAMED;
			err->pos = found && found - err->line >= 5 ?
				   found - err->line - 5 : 0;
			return -EINVAL;
		}
		t->data = n;
		t->after = n->snap;
		n->live++;
		refcount_inc(&n->users);
		kmark_hist_free(h);
		return 0;
	}
	clock = h->timestamps ? kmark_clock_lookup(h->clock) : 0;
	if (clock < 0) {
		const char *found = strstr(err->line, h->clock);

		err->msg = KMARK_HE_CLOCK;
		err->pos = found ? found - err->line : 0;
		return clock;
	}
	ret = kmark_buffer_ensure(t->file->inst);	/* its clock */
	if (ret)
		return ret;
	ret = tracing_map_init(h->map);
	if (ret)
		return ret;
	ret = kmark_hist_snap_claim(h, err);
	if (ret)
		return ret;
	t->after = h->snap;
	/*
	 * Timestamps: the instance's buffer takes clock= (global unless
	 * said), as ftrace's does; a change clears the buffer.
	 */
	if (h->timestamps && clock != READ_ONCE(t->file->inst->clock))
		kmark_set_clock(t->file->inst, clock);
	kmark_hist_refs(h, 1);
	h->live++;
	list_add_tail(&h->list, &kmark_hists);
	return 0;
}

static void kmark_hist_unreg(struct kmark_trigger *t)
{
	struct kmark_hist *h = t->data;
	unsigned int i;

	/*
	 * A table of a name goes on with its other triggers; if its event
	 * file was this one's, another's takes its place (this one may be
	 * going: its instance removed, its module unloaded).
	 */
	if (--h->live) {
		if (h->file == t->file)
			WRITE_ONCE(h->file, kmark_triggers_other_file(h, t));
		return;
	}
	list_del_init(&h->list);
	kmark_hist_refs(h, -1);
	if (h->snap && h->file->inst->snap_cond == h)
		h->file->inst->snap_cond = NULL;
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

/* After a grace period: the table goes with the last trigger that had it. */
static void kmark_hist_free_trigger(struct kmark_trigger *t)
{
	struct kmark_hist *h = t->data;

	if (h && refcount_dec_and_test(&h->users))
		kmark_hist_free(h);
}


/*
 * The same hist, as ftrace's hist_trigger_match(): the same keys, values,
 * variables, sort keys, actions, and filter; so also for '!' and for
 * pause, continue and clear.
 */
static bool kmark_hist_same(const struct kmark_trigger *a,
			    const struct kmark_trigger *b)
{
	const struct kmark_hist *x = a->data, *y = b->data;
	unsigned int i;

	if (x->nr_keys != y->nr_keys || x->nr_vals != y->nr_vals ||
	    x->nr_vars != y->nr_vars || x->nr_sort != y->nr_sort ||
	    x->nr_actions != y->nr_actions || !x->name != !y->name ||
	    (x->name && strcmp(x->name, y->name)))
		return false;
	for (i = 0; i < x->nr_keys; i++)
		if (!kmark_hfield_same(&x->keys[i], &y->keys[i]))
			return false;
	for (i = 0; i < x->nr_vals; i++)
		if (!kmark_hfield_same(&x->vals[i], &y->vals[i]))
			return false;
	for (i = 0; i < x->nr_vars; i++)
		if (strcmp(x->vars[i].name, y->vars[i].name) ||
		    !kmark_hexpr_same(&x->vars[i], x->vars[i].root,
				      &y->vars[i], y->vars[i].root))
			return false;
	for (i = 0; i < x->nr_sort; i++)
		if (x->sort[i].field_idx != y->sort[i].field_idx ||
		    x->sort[i].descending != y->sort[i].descending)
			return false;
	for (i = 0; i < x->nr_actions; i++)
		if (strcmp(x->actions[i].text, y->actions[i].text))
			return false;
	return !a->filter_str == !b->filter_str &&
	       (!a->filter_str || !strcmp(a->filter_str, b->filter_str));
}

/* pause, continue or clear written for an existing hist: done on it. */
static int kmark_hist_update(struct kmark_trigger *old, struct kmark_trigger *new)
{
	struct kmark_hist *h = old->data;

	if (new->flags & KMARK_HP_PAUSE) {
		WRITE_ONCE(old->paused, true);
	} else if (new->flags & KMARK_HP_CONT) {
		WRITE_ONCE(old->paused, false);
	} else if (new->flags & KMARK_HP_CLEAR) {
		/*
		 * No hit between a slot's claim and its key while the table
		 * is zeroed (a slot handed out twice: keys twice, wrong
		 * sums): hits pass it by, and those in flight end first (they
		 * run with preemption off), as ftrace's hist_clear() pauses.
		 * The hits of that window would have been cleared anyway.
		 */
		WRITE_ONCE(h->clearing, true);
		synchronize_rcu();
		tracing_map_clear(h->map);
		WRITE_ONCE(h->clearing, false);
	} else {
		return -EEXIST;
	}
	return 0;
}

/* Removing a hist whose variables another reads is refused, as ftrace's. */
/*
 * @a's event is going (rmmod of its module, rmdir of its instance): no
 * '!' is asked, so nothing refuses. The hists that read its variables go
 * first, and those that read theirs before them, each said in its
 * instance's error_log (as enable_event's triggers go with their target):
 * their reads would point into @a's freed table.
 */
static struct kmark_hist *kmark_hist_reader_of(struct kmark_hist *a)
{
	struct kmark_hist *h;
	unsigned int i;

	list_for_each_entry(h, &kmark_hists, list)
		for (i = 0; h != a && i < h->nr_reads; i++)
			if (h->reads[i]->ref == a)
				return h;
	return NULL;
}

/*
 * Without recursion (a chain of readers is as long as root makes it): down
 * the chain from @a to a reader that nothing reads, which goes; until
 * nothing reads @a. A hist reads only hists made before it: no cycle.
 */
static void kmark_hist_drop_readers(struct kmark_hist *a)
{
	struct kmark_hist *r, *prev;
	unsigned int refs;

	lockdep_assert_held(&kmark_mutex);
	while (a->refs) {
		prev = a;
		r = kmark_hist_reader_of(a);
		while (r && r->refs) {
			prev = r;
			r = kmark_hist_reader_of(r);
		}
		if (WARN_ON_ONCE(!r))
			return;
		kmark_log_err(r->file->inst, r->file->m->name, 0,
			      "Hist trigger removed: the hist whose variables it read went with its event");
		refs = prev->refs;
		/* (@a's instance may be going, off the list: readers in it) */
		kmark_triggers_drop_data(r, a->file->inst);
		if (WARN_ON_ONCE(prev->refs == refs))
			return;
	}
}

static void kmark_hist_going(struct kmark_trigger *t)
{
	struct kmark_hist *h = t->data;

	/* (a table of a name goes on with its other triggers) */
	if (h->live == 1)
		kmark_hist_drop_readers(h);
}

static const char *kmark_hist_busy(const struct kmark_trigger *t)
{
	const struct kmark_hist *h = t->data;

	return h->refs && h->live == 1 ?
	       "A hist reads this hist's variables: remove it first" : NULL;
}

/* --- printing ---------------------------------------------------------------- */

/* ftrace's get_hist_field_flags(): the one modifier a field has. */
static const char *kmark_hist_mod_name(u32 mods)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(kmark_hist_mods); i++)
		if (mods & kmark_hist_mods[i].flag)
			return kmark_hist_mods[i].name;
	return NULL;
}

/* A field as ftrace's hist_field_print() lists it. */
static void kmark_hfield_print(struct seq_file *m, const struct kmark_hfield *hf)
{
	const char *mod;

	if (hf->src == KMARK_HF_CONST) {
		seq_printf(m, "%llu", hf->constant);
		return;
	}
	if (hf->src == KMARK_HF_VAR || hf->src == KMARK_HF_VAR_REF)
		seq_putc(m, '$');
	seq_puts(m, hf->name);
	mod = kmark_hist_mod_name(hf->mods);
	if (mod)
		seq_printf(m, ".%s", mod);
	if (hf->mods & KMARK_HM_BUCKETS)
		seq_printf(m, "=%lu", hf->buckets);
}

/* Node @n of @v as ftrace's expr_str() writes it: in order, no parentheses. */
static void kmark_hexpr_print(struct seq_file *m, const struct kmark_hvar *v,
			      unsigned int n)
{
	const struct kmark_hnode *nd = &v->node[n];

	if (!nd->op) {
		kmark_hfield_print(m, &v->a[nd->l]);
	} else if (nd->op == 'n') {
		seq_puts(m, "-(");
		kmark_hexpr_print(m, v, nd->l);
		seq_putc(m, ')');
	} else {
		kmark_hexpr_print(m, v, nd->l);
		seq_putc(m, nd->op);
		kmark_hexpr_print(m, v, nd->r);
	}
}

/* The trigger as ftrace lists it: "hist:keys=...:vals=...:sort=...:size=N". */
static void kmark_hist_show_trigger(struct seq_file *m,
				    const struct kmark_trigger *t)
{
	const struct kmark_hist *h = t->data;
	unsigned int i;

	seq_puts(m, "hist:");
	if (h->name)
		seq_printf(m, "name=%s:", h->name);
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
		kmark_hexpr_print(m, &h->vars[i], h->vars[i].root);
	}
	seq_puts(m, ":sort=");
	for (i = 0; i < h->nr_sort; i++) {
		if (i)
			seq_putc(m, ',');
		if (h->sort_f[i])
			kmark_hfield_print(m, h->sort_f[i]);
		else
			seq_puts(m, "hitcount");
		if (h->sort[i].descending)
			seq_puts(m, ".descending");
	}
	seq_printf(m, ":size=%u", 1U << h->map->map_bits);
	if (h->timestamps)
		seq_printf(m, ":clock=%s", h->clock);
	if (h->nohitcount)
		seq_puts(m, ":nohitcount");
	for (i = 0; i < h->nr_actions; i++)
		seq_printf(m, ":%s", h->actions[i].text);
	if (t->filter_str)
		seq_printf(m, " if %s", t->filter_str);
	seq_printf(m, " [%s]\n", READ_ONCE(t->paused) ? "paused" : "active");
}

/*
 * A .syscall key as ftrace prints it: the syscall's name, which ftrace takes
 * from its syscall metadata (CONFIG_FTRACE_SYSCALLS) and kmark from the
 * name of the function the syscall table has for @nr ("__x64_sys_read":
 * "sys_read"); "unknown_syscall" where there is none. Not inlined: its
 * buffer stays out of the caller's frame.
 */
static noinline void kmark_hist_print_syscall(struct seq_file *m,
					      const char *field, u64 nr)
{
	const char *name = NULL;
#ifdef CONFIG_X86
	char sym[KSYM_SYMBOL_LEN];

	if (nr < NR_syscalls) {
		sprint_symbol_no_offset(sym, (unsigned long)sys_call_table[nr]);
		name = strstr(sym, "sys_");
	}
#endif
	seq_printf(m, "%s: %-30s[%3llu]", field, name ?: "unknown_syscall", nr);
}

static void kmark_hist_print_key(struct seq_file *m, const struct kmark_hist *h,
				 const void *key, const char *comm)
{
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
			seq_printf(m, "%s: %-16s[%10llu]", k->name, comm, v);
		} else if (k->mods & KMARK_HM_SYSCALL) {
			kmark_hist_print_syscall(m, k->name, v);
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

/* The snapshot() action's last snapshot, as ftrace's track_data_snapshot_print() */
static void kmark_hist_snap_print(struct seq_file *m, const struct kmark_hist *h)
{
	const struct kmark_hsnap *s = h->snap;
	raw_spinlock_t *lock = &h->file->inst->snap_lock;
	struct kmark_hsnap *c;
	const char *var;

	if (!s)
		return;
	c = kmalloc(struct_size(c, key, h->key_size), GFP_KERNEL);
	if (!c)
		return;
	raw_spin_lock_irq(lock);
	memcpy(c, s, struct_size(c, key, h->key_size));
	raw_spin_unlock_irq(lock);
	if (c->updated) {
		/* the variable as written in the action: "$VAR" */
		var = strchr(c->act->text, '(') + 1;
		seq_puts(m, "\nSnapshot taken (see tracing/snapshot).  Details:\n");
		seq_printf(m, "\ttriggering value { %s(%.*s) }: %10llu",
			   c->act->kind == KMARK_HA_ONMAX ? "onmax" : "onchange",
			   (int)strcspn(var, ")"), var, c->val);
		seq_puts(m, "\ttriggered by event with key: ");
		kmark_hist_print_key(m, h, c->key, c->comm);
		seq_putc(m, '\n');
	}
	kfree(c);
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

		kmark_hist_print_key(m, h, ents[i]->key, he->comm);
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

			/* ftrace's track_data_print(), for every entry */
			if (act->kind == KMARK_HA_ONMATCH || act->snapshot)
				continue;
			seq_printf(m, act->kind == KMARK_HA_ONMAX ?
				   "\n\tmax: %10llu" : "\n\tchanged: %10llu",
				   he->track[j]);
			for (k = 0; k < act->nr_save; k++) {
				const struct kmark_hfield *sv = &act->save[k];

				/* ftrace prints an unset string as (null) */
				if (sv->is_str)
					seq_printf(m, "  %s: %-32s", sv->name,
						   he->saved_set ?
						   he->saved_str[k] : "(null)");
				else
					seq_printf(m, "  %s: %10llu", sv->name,
						   he->saved[k]);
			}
		}
		seq_putc(m, '\n');
	}
	if (ents)
		tracing_map_destroy_sort_entries(ents, nr);
	kmark_hist_snap_print(m, h);
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
	.exists = KMARK_HE_EEXIST,
	.busy = kmark_hist_busy,
	.going = kmark_hist_going,
	.fire = kmark_hist_fire,
	.after = kmark_hist_after,
	.show = kmark_hist_show_trigger,
	.free = kmark_hist_free_trigger,
	.own_count = true,
	.remove_filter = true,
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

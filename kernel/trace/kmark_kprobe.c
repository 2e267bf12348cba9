// SPDX-License-Identifier: GPL-2.0
/*
 * kmark: kprobe events, defined through kprobe_events with ftrace's grammar
 * (Documentation/trace/kprobetrace.rst):
 *
 *   p[:[GRP/][EVENT]] SYM[+OFFS]|SYM%return|ADDR [FETCHARGS]
 *   r[MAXACTIVE][:[GRP/][EVENT]] SYM[+0] [FETCHARGS]
 *   -:[GRP/]EVENT
 *
 *   FETCHARGS: [NAME=]FETCHARG[:TYPE], FETCHARG one of
 *     $argN $retval $comm $stackN $stack %REG @SYM[+|-OFFS] @ADDR
 *     +|-OFFS(FETCHARG)
 *   TYPE: u8..u64, s8..s64, x8..x64, string, ustring, symbol
 *
 * Each probe is a struct kmark_marker with ops: it sits in the same
 * namespace as the static markers (available_markers, set_event), records
 * into the same buffer and renders through the same layout code. A probe is
 * registered (disabled) when it is defined, so a bad probe point fails the
 * write; set_event enables it.
 *
 * A write is applied whole or not at all: every line is parsed and every new
 * probe registered before anything is added or deleted.
 *
 * Locking: all definitions, the event list and the probes' enable state are
 * under kmark_mutex. The handlers run in kprobe context and only read the
 * definition, which does not change while the probe is registered.
 */
#define pr_fmt(fmt) "kmark: " fmt

#include <linux/ctype.h>
#include <linux/dcache.h>
#include <linux/fs.h>
#include <linux/ftrace.h>
#include <linux/init.h>
#include <linux/kallsyms.h>
#include <linux/kprobes.h>
#include <linux/log2.h>
#include <linux/module.h>
#include <linux/percpu.h>
#include <linux/ptrace.h>
#include <linux/security.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uaccess.h>
#include <asm/setup.h>

#include "kmark_internal.h"
#include "kmark_kprobe.h"

static const char * const kmark_kprobe_errs[] = {
	[KMARK_KPE_NOMEM] = "Out of memory",
	[KMARK_KPE_BAD_CMD] = "Unknown command: use p, r or -",
	[KMARK_KPE_BAD_MAXACT] = "Bad maxactive number",
	[KMARK_KPE_BAD_MAXACT_TYPE] = "Maxactive is only for return probes (rN)",
	[KMARK_KPE_MAXACT_TOO_BIG] = "Maxactive is too big (at most 4096)",
	[KMARK_KPE_BAD_GROUP_NAME] = "Group name must be letters, digits and '_'",
	[KMARK_KPE_BAD_EVENT_NAME] = "Event name must be letters, digits and '_'",
	[KMARK_KPE_EMPTY_EVENT_NAME] = "Event name is not specified",
	[KMARK_KPE_NO_PROBE_POINT] = "Probe point is missing",
	[KMARK_KPE_BAD_RETURN_SUFFIX] = "Only %return may follow the symbol",
	[KMARK_KPE_BAD_PROBE_ADDR] = "Bad probe address",
	[KMARK_KPE_BAD_MODULE_NAME] = "Bad module name in MOD:SYM",
	[KMARK_KPE_NO_SYMBOL] = "Symbol is missing or too long",
	[KMARK_KPE_BAD_OFFSET] = "Bad offset",
	[KMARK_KPE_BAD_SYMBOL] =
		"Unknown symbol: not in kallsyms (inlined functions, such as context_switch, cannot be probed)",
	[KMARK_KPE_CLONE_AMBIGUOUS] =
		"Symbol exists only as several compiler clones (SYM.isra.0, ...): name one",
	[KMARK_KPE_BLACKLISTED] =
		"Symbol is on the kprobe blacklist (see /sys/kernel/debug/kprobes/blacklist)",
	[KMARK_KPE_KRETPROBE_BLACKLISTED] =
		"Return probes on this function are refused (kretprobe blacklist); an entry probe works",
	[KMARK_KPE_BAD_RETPROBE_OFFSET] = "Return probe must be on the function entry (+0)",
	[KMARK_KPE_NOT_INSN_BOUNDARY] = "Probe address is not on an instruction boundary",
	[KMARK_KPE_CANNOT_PROBE] = "This address cannot be probed (kprobes refused it)",
	[KMARK_KPE_REGISTER_FAILED] = "Failed to register the probe",
	[KMARK_KPE_TOO_MANY_ARGS] = "Too many arguments (at most 14)",
	[KMARK_KPE_BAD_ARG_NAME] = "Argument name must be letters, digits and '_'",
	[KMARK_KPE_DUP_ARG_NAME] = "Duplicate argument name",
	[KMARK_KPE_BAD_ARG_NUM] = "Invalid $argN (N is 1 to 64)",
	[KMARK_KPE_NOFENTRY_ARGS] = "$arg* can be used only on function entry or exit",
	[KMARK_KPE_BAD_STACK_NUM] = "Invalid $stackN",
	[KMARK_KPE_RETVAL_ON_PROBE] = "$retval is only for return probes",
	[KMARK_KPE_BAD_VAR] = "Unknown variable: use $argN, $retval, $comm, $stackN or $stack",
	[KMARK_KPE_BAD_REG] = "Unknown register",
	[KMARK_KPE_BAD_MEM_ADDR] = "Unknown symbol or bad address after '@'",
	[KMARK_KPE_BAD_DEREF] = "Bad dereference: use +|-OFFS(FETCHARG)",
	[KMARK_KPE_BAD_DEREF_OFFS] = "Bad dereference offset",
	[KMARK_KPE_DEREF_OPEN_BRACE] = "Dereference brace is not closed",
	[KMARK_KPE_DEREF_TOO_DEEP] = "Dereference nested too deep (at most 4)",
	[KMARK_KPE_COMM_DEREF] = "$comm cannot be dereferenced",
	[KMARK_KPE_BAD_FETCH_ARG] = "Bad fetch argument",
	[KMARK_KPE_BAD_TYPE] =
		"Unknown type: use u8..u64, s8..s64, x8..x64, bW@O/C, string, ustring, symbol, %pd or %pD",
	[KMARK_KPE_BAD_BITFIELD] =
		"Bad bitfield: bW@O/C, W bits at bit O of a C-bit (8, 16, 32, 64) container, O + W <= C",
	[KMARK_KPE_BAD_COMM_TYPE] = "$comm is a string",
	[KMARK_KPE_BAD_STRING] =
		"A string is read from memory: +OFFS(FETCHARG), @SYM or @ADDR (or $comm)",
	[KMARK_KPE_ARG_NAME_TOO_LONG] = "Argument name is too long (at most 32 characters)",
	[KMARK_KPE_ARG_TOO_LONG] = "Argument expression is too long (at most 63 characters)",
	[KMARK_KPE_NO_EVENT_NAME] = "'-' needs :[GROUP/]EVENT",
	[KMARK_KPE_NO_SUCH_EVENT] = "No such kprobe event",
	[KMARK_KPE_EVENT_BUSY] = "The event is enabled: disable it in set_event first",
	[KMARK_KPE_SOME_BUSY] = "Some kprobe events are enabled: disable them in set_event first",
	[KMARK_KPE_EVENT_EXISTS] = "A kprobe event with this name exists already",
	[KMARK_KPE_DIFF_PROBE_TYPE] =
		"An event's probes are all entry probes or all return probes",
	[KMARK_KPE_DIFF_ARG_TYPE] =
		"An event's probes have the same arguments (names and types)",
	[KMARK_KPE_SAME_PROBE] = "The event has this probe already",
	[KMARK_KPE_MARKER_CLASH] = "A static marker has this name",
	[KMARK_KPE_TOO_MANY_LINES] = "Too many commands in one write (at most 32)",
	[KMARK_KPE_NO_IDS] = "No event id left (65535 kprobe events in use)",
	[KMARK_KPE_LOCKED_DOWN] = "Kprobes are locked down (lockdown=confidentiality)",
	[KMARK_KPE_SELF_PROBE] =
		"kmark's recording path, the ring buffer and its clock cannot be probed",
	[KMARK_KPE_RESERVED_ARG_NAME] =
		"This argument name is reserved (a common field, or the probe's own)",
	[KMARK_KPE_NOTRACE] =
		"Could not probe notrace function (KPROBE_EVENTS_ON_NOTRACE allows it)",
	[KMARK_KPE_OTHERS_BUSY] = KMARK_SYNTH_BUSY_ALL,
};

static_assert(ARRAY_SIZE(kmark_kprobe_errs) == KMARK_KPE_OTHERS_BUSY + 1);

const char *kmark_kprobe_err_text(int err)
{
	return err >= 0 && err < ARRAY_SIZE(kmark_kprobe_errs) ?
	       kmark_kprobe_errs[err] : "Unknown error";
}

static const struct kmark_event_ops kmark_kprobe_ops;

static inline struct kmark_kprobe *to_tk(struct kmark_marker *m)
{
	return container_of(m, struct kmark_kprobe, marker);
}

/* --- fetching -------------------------------------------------------------- */

/* Read @size bytes (1, 2, 4 or 8; 0: a long) at @addr, in user space if @user. */
static u64 notrace kmark_read_mem(unsigned long addr, unsigned int size,
				  bool user, bool *fault)
{
	union { u8 b; u16 h; u32 w; u64 q; unsigned long l; } v = {};
	long ret;

	if (!size)
		size = sizeof(long);
	if (user)
		ret = copy_from_user_nofault(&v, (const void __user *)addr,
					     size);
	else
		ret = copy_from_kernel_nofault(&v, (void *)addr, size);
	if (ret) {
		*fault = true;
		return 0;
	}
	switch (size) {
	case 1: return v.b;
	case 2: return v.h;
	case 4: return v.w;
	case 8: return v.q;
	}
	return v.l;
}

/* Where a fetch runs: the registers, and a return probe's saved arguments. */
struct kmark_fetch_ctx {
	struct pt_regs *regs;
	const unsigned long *entry;	/* NULL in an entry probe */
};

/* Evaluate @f; @size is the width to read when @f reads memory (0: long). */
static u64 notrace kmark_fetch(const struct kmark_fetch *f,
			       const struct kmark_fetch_ctx *c,
			       unsigned int size, bool *fault)
{
	switch (f->op) {
	case KMARK_F_REG:
		return regs_get_register(c->regs, f->param);
	case KMARK_F_ARG:
		if (c->entry)
			return c->entry[f->slot];
		return regs_get_kernel_argument(c->regs, f->param);
	case KMARK_F_STACK:
		return regs_get_kernel_stack_nth(c->regs, f->param);
	case KMARK_F_STACKP:
		return kernel_stack_pointer(c->regs);
	case KMARK_F_RETVAL:
		return regs_return_value(c->regs);
	case KMARK_F_COMM:
		return (unsigned long)current->comm;
	case KMARK_F_MEM:
		return kmark_read_mem(f->param, size, false, fault);
	case KMARK_F_DEREF: {
		unsigned long base = kmark_fetch(f->base, c, 0, fault);

		if (*fault)
			return 0;
		return kmark_read_mem(base + f->param, size, f->user, fault);
	}
	}
	return 0;
}
NOKPROBE_SYMBOL(kmark_fetch);

/*
 * Where a string argument is. As in ftrace, a dereference or @SYM names the
 * string's own address ("+0($arg2):string" is the string at $arg2);
 * $comm gives a pointer to it. The parser allows no other fetch.
 */
static unsigned long notrace kmark_fetch_str_addr(const struct kmark_fetch *f,
						  const struct kmark_fetch_ctx *c,
						  bool *fault)
{
	if (f->op == KMARK_F_MEM)
		return f->param;
	if (f->op == KMARK_F_DEREF)
		return kmark_fetch(f->base, c, 0, fault) + f->param;
	return kmark_fetch(f, c, 0, fault);
}
NOKPROBE_SYMBOL(kmark_fetch_str_addr);

/* Length of the string at @p (at most KMARK_STR_MAX - 1), or -EFAULT. */
static int notrace kmark_strlen_nofault(unsigned long p, bool user)
{
	char c;
	int n;

	if (user) {
		n = strnlen_user_nofault((const void __user *)p, KMARK_STR_MAX);
		if (n <= 0)
			return -EFAULT;
		return min(n - 1, KMARK_STR_MAX - 1);
	}
	for (n = 0; n < KMARK_STR_MAX - 1; n++) {
		if (copy_from_kernel_nofault(&c, (void *)(p + n), 1))
			return -EFAULT;
		if (!c)
			break;
	}
	return n;
}
NOKPROBE_SYMBOL(kmark_strlen_nofault);


/* The first field of an argument in the event's layout (after ip, func). */
static unsigned int kmark_kprobe_first_arg(const struct kmark_kprobe *tk)
{
	return tk->is_return ? 2 : 1;
}

/*
 * A hit's fields into record @e (its header is filled): the fixed part
 * (the probe's addresses and each argument at its field's offset and
 * size), then the strings, as the event's layout and format file say.
 */
static void notrace kmark_kprobe_fill(struct kmark_kprobe *tk,
				      struct kmark_entry *e, const u64 *vals,
				      const int *slen, unsigned long ip,
				      unsigned long func)
{
	const struct kmark_layout *l = tk->ev->marker.layout;
	unsigned int first = kmark_kprobe_first_arg(tk), i;
	u8 *dst;

	put_unaligned(ip, (unsigned long *)((u8 *)e + l->fields[0].offset));
	if (tk->is_return)
		put_unaligned(func,
			      (unsigned long *)((u8 *)e + l->fields[1].offset));
	dst = (u8 *)e + l->size;
	for (i = 0; i < tk->nr_args; i++) {
		const struct kmark_karg *a = &tk->args[i];
		const struct kmark_field *f = &l->fields[first + i];
		void *slot = (u8 *)e + f->offset;

		if (a->type == KMARK_T_STRING || a->type == KMARK_T_USTRING) {
			void *src = (void *)(unsigned long)vals[i];
			long n = -EFAULT;

			if (slen[i] < 0) {
				/* As ftrace: no data, printed (fault). */
				put_unaligned((u32)(dst - (u8 *)e), (u32 *)slot);
				continue;
			}
			if (a->type == KMARK_T_USTRING)
				n = strncpy_from_user_nofault((char *)dst,
							      (const void __user *)src,
							      slen[i] + 1);
			else
				n = strncpy_from_kernel_nofault((char *)dst, src,
								slen[i] + 1);
			if (n < 0)	/* changed under us: keep the size */
				memset(dst, '?', slen[i]);
			dst[slen[i]] = '\0';
			dst = kmark_put_loc(e, f, dst, slen[i]);
			continue;
		}
		switch (f->size) {
		case 1:
			*(u8 *)slot = vals[i];
			break;
		case 2:
			put_unaligned((u16)vals[i], (u16 *)slot);
			break;
		case 4:
			put_unaligned((u32)vals[i], (u32 *)slot);
			break;
		default:
			put_unaligned(vals[i], (u64 *)slot);
			break;
		}
	}
}
NOKPROBE_SYMBOL(kmark_kprobe_fill);

/* One record of a hit into @file's instance; whether it was kept. */
static bool notrace kmark_kprobe_record_one(struct kmark_kprobe *tk,
					    struct kmark_event_file *file,
					    const u64 *vals, const int *slen,
					    size_t size, unsigned long ip,
					    unsigned long func)
{
	struct kmark_instance *inst = file->inst;
	const struct kmark_filter *flt;
	struct kmark_entry *e;
	struct kmark_rec rec;

	e = kmark_reserve(inst, tk->ev->marker.id, size, false, &rec);
	if (!e)
		return false;
	kmark_kprobe_fill(tk, e, vals, slen, ip, func);
	/* Its filter reads the record: kprobe handlers run preempt-off. */
	flt = rcu_dereference_sched(file->filter);
	if (unlikely(flt)) {
		if (kmark_filter_needs_comm_id(flt))
			kmark_set_comm_id(e);
		if (!kmark_filter_match(flt, e, e, size)) {
			kmark_discard(inst, &rec);
			return false;
		}
	}
	/* Kept: only now does its task's name go into the table. */
	kmark_set_comm_id(e);
	kmark_commit(inst, &rec);
	return true;
}
NOKPROBE_SYMBOL(kmark_kprobe_record_one);

/* Whether @file records a hit now (the user enabled it, tracing is on). */
static bool notrace kmark_kprobe_wants(const struct kmark_event_file *file)
{
	return (READ_ONCE(file->flags) &
		(KMARK_EF_ENABLED | KMARK_EF_SOFT_DISABLED)) == KMARK_EF_ENABLED &&
	       READ_ONCE(file->inst->tracing_on) &&
	       !kmark_pid_filtered_out(file->inst, file->m, NULL);
}
NOKPROBE_SYMBOL(kmark_kprobe_wants);

/*
 * A hit's record for its triggers, built apart from any buffer (they fire
 * whether or not it is recorded, tracing on or off): one page per CPU.
 * kprobes does not run a handler inside another on one CPU, but an NMI
 * may hit a probe while this CPU's page is in use: that hit's triggers
 * are passed over.
 */
struct kmark_kprobe_scratch {
	int busy;
	u8 rec[PAGE_SIZE] __aligned(8);
};
static DEFINE_PER_CPU(struct kmark_kprobe_scratch, kmark_kprobe_scratch);

/* The slow path of an event file with triggers, soft-disabled or stacking. */
static void notrace kmark_kprobe_record_slow(struct kmark_kprobe *tk,
					     struct kmark_event_file *file,
					     const u64 *vals, const int *slen,
					     size_t size, unsigned long ip,
					     unsigned long func)
{
	struct kmark_kprobe_scratch *sc = this_cpu_ptr(&kmark_kprobe_scratch);
	unsigned long flags = READ_ONCE(file->flags), post = 0;
	struct kmark_entry *e = NULL;

	if ((flags & KMARK_EF_TRIGGER_MODE) && size <= sizeof(sc->rec) &&
	    !sc->busy) {
		sc->busy = 1;
		e = (struct kmark_entry *)sc->rec;
		kmark_fill_hdr(e, tk->ev->marker.id, false);
		kmark_kprobe_fill(tk, e, vals, slen, ip, func);
		kmark_triggers_call(file, e, e, size, &post);
	}
	if (kmark_kprobe_wants(file) &&
	    kmark_kprobe_record_one(tk, file, vals, slen, size, ip, func) &&
	    (flags & KMARK_EF_STACK))
		kmark_record_stack(file->inst, false, NULL);
	if (post)
		kmark_triggers_post(file, e, e, size, post);
	if (e)
		sc->busy = 0;
}
NOKPROBE_SYMBOL(kmark_kprobe_record_slow);

/*
 * A hit: fetch the arguments once, record into each instance that wants
 * it (the event's files, walked under RCU: the handler runs preempt-off).
 * The probe's own arguments, its event's id, layout and files.
 */
static void notrace kmark_kprobe_record(struct kmark_kprobe *tk,
					const struct kmark_fetch_ctx *c,
					unsigned long ip, unsigned long func)
{
	struct kmark_marker *m = &tk->ev->marker;
	struct kmark_event_file *file;
	u64 vals[KMARK_KPROBE_MAX_ARGS];
	int slen[KMARK_KPROBE_MAX_ARGS];
	size_t size = m->layout->size;
	bool any = false;
	unsigned int i;

	list_for_each_entry_rcu(file, &m->files, mlist)
		any |= (READ_ONCE(file->flags) & KMARK_EF_TRIGGER_MODE) ||
		       kmark_kprobe_wants(file);
	if (!any)
		return;
	for (i = 0; i < tk->nr_args; i++) {
		const struct kmark_karg *a = &tk->args[i];
		bool fault = false;

		if (a->type == KMARK_T_STRING || a->type == KMARK_T_USTRING) {
			vals[i] = kmark_fetch_str_addr(a->fetch, c, &fault);
			slen[i] = fault ? -EFAULT :
				  kmark_strlen_nofault(vals[i],
						       a->type == KMARK_T_USTRING);
			size += slen[i] < 0 ? 0 : slen[i] + 1;
		} else {
			vals[i] = kmark_fetch(a->fetch, c, a->type <= KMARK_T_X ?
					      a->bits / 8 : 0, &fault);
			/* Its container read (or cut to it), then its bits. */
			if (a->bf_width)
				vals[i] = (vals[i] >> a->bf_offset) &
					  GENMASK_ULL(a->bf_width - 1, 0);
		}
	}
	/* A stack of this hit (options/stacktrace, triggers) starts here. */
	kmark_stack_regs_set(c->regs);
	list_for_each_entry_rcu(file, &m->files, mlist) {
		if (READ_ONCE(file->flags) & KMARK_EF_SLOW)
			kmark_kprobe_record_slow(tk, file, vals, slen, size,
						 ip, func);
		else if (kmark_kprobe_wants(file))
			kmark_kprobe_record_one(tk, file, vals, slen, size, ip,
						func);
	}
	kmark_stack_regs_set(NULL);
}
NOKPROBE_SYMBOL(kmark_kprobe_record);

static int notrace kmark_kprobe_pre(struct kprobe *kp, struct pt_regs *regs)
{
	struct kmark_kprobe *tk = container_of(kp, struct kmark_kprobe, rp.kp);
	struct kmark_fetch_ctx c = { .regs = regs };

	this_cpu_inc(*tk->nhit);
	kmark_kprobe_record(tk, &c, (unsigned long)kp->addr, 0);
	return 0;
}
NOKPROBE_SYMBOL(kmark_kprobe_pre);

/* A return probe's entry: save the arguments its $argN read at return. */
static int notrace kmark_kretprobe_entry(struct kretprobe_instance *ri,
					 struct pt_regs *regs)
{
	struct kretprobe *rp = get_kretprobe(ri);
	struct kmark_kprobe *tk;
	unsigned long *saved = (unsigned long *)ri->data;
	unsigned int i;

	if (unlikely(!rp))
		return 0;
	tk = container_of(rp, struct kmark_kprobe, rp);
	for (i = 0; i < tk->nr_entry_args; i++)
		saved[i] = regs_get_kernel_argument(regs, tk->entry_args[i]);
	return 0;
}
NOKPROBE_SYMBOL(kmark_kretprobe_entry);

static int notrace kmark_kretprobe_handler(struct kretprobe_instance *ri,
					   struct pt_regs *regs)
{
	struct kretprobe *rp = get_kretprobe(ri);
	struct kmark_fetch_ctx c = {
		.regs = regs,
		.entry = (const unsigned long *)ri->data,
	};
	struct kmark_kprobe *tk;

	if (unlikely(!rp))
		return 0;
	tk = container_of(rp, struct kmark_kprobe, rp);
	this_cpu_inc(*tk->nhit);
	kmark_kprobe_record(tk, &c, get_kretprobe_retaddr(ri),
			    (unsigned long)rp->kp.addr);
	return 0;
}
NOKPROBE_SYMBOL(kmark_kretprobe_handler);

/* --- parsing ------------------------------------------------------------------ */

struct kmark_parse {
	const char *cmd;	/* the whole line, for caret offsets */
	int err;
	unsigned int pos;
};

static int kmark_perr(struct kmark_parse *ps, const char *at, int err)
{
	ps->err = err;
	ps->pos = at - ps->cmd;
	return -EINVAL;
}

static bool kmark_ident_ok(const char *s, size_t len)
{
	size_t i;

	if (!len || len >= KMARK_NAME_MAX || !(isalpha(s[0]) || s[0] == '_'))
		return false;
	for (i = 1; i < len; i++)
		if (!isalnum(s[i]) && s[i] != '_')
			return false;
	return true;
}

static void kmark_free_fetch(struct kmark_fetch *f)
{
	while (f) {
		struct kmark_fetch *b = f->base;

		kfree(f->sym);
		kfree(f);
		f = b;
	}
}

void kmark_kprobe_free(struct kmark_kprobe *tk)
{
	unsigned int i;

	if (!tk)
		return;
	for (i = 0; i < tk->nr_args; i++) {
		kmark_free_fetch(tk->args[i].fetch);
		kfree(tk->args[i].text);
	}
	kmark_free_layout(tk->marker.layout);
	kfree(tk->marker.system);
	kfree(tk->marker.name);
	kfree(tk->marker.format);
	kfree(tk->symbol);
	kfree(tk->module);
	free_percpu(tk->nhit);
	kfree(tk);
}

struct kmark_clone_search {
	const char *name;
	size_t len;
	unsigned int found;
	unsigned long addr;
	char clone[KSYM_NAME_LEN];
};

static int kmark_clone_cb(void *data, const char *sym, unsigned long addr)
{
	struct kmark_clone_search *cs = data;

	if (strncmp(sym, cs->name, cs->len) || sym[cs->len] != '.')
		return 0;
	if (!cs->found || cs->addr != addr) {
		cs->found++;
		cs->addr = addr;
		strscpy(cs->clone, sym, sizeof(cs->clone));
	}
	return 0;
}

/* A number as ftrace takes it: decimal, 0x hex, optional sign. */
static int kmark_parse_long(const char *s, size_t len, long *v)
{
	char buf[24];

	if (!len || len >= sizeof(buf))
		return -EINVAL;
	memcpy(buf, s, len);
	buf[len] = '\0';
	return kstrtol(buf, 0, v);
}

/* An address: every kernel address is above LONG_MAX, so unsigned. */
static int kmark_parse_addr(const char *s, size_t len, unsigned long *v)
{
	char buf[24];

	if (!len || len >= sizeof(buf))
		return -EINVAL;
	memcpy(buf, s, len);
	buf[len] = '\0';
	return kstrtoul(buf, 0, v);
}

/*
 * Code that a kmark kprobe's own handler may run: kmark's own functions in
 * the kernel (kmark_* and __kmark_*, its recording path among them), the
 * ring buffer and the clock it reads. A probe there would recurse into
 * itself; kprobes would only count it missed, so it is refused with its
 * own message, before any other check of the symbol.
 */
static bool kmark_kprobe_self(unsigned long addr)
{
	static const char * const prefixes[] = {
		"ring_buffer_", "rb_", "__rb_", "trace_clock", "sched_clock",
		"native_sched_clock", "local_clock",
	};
	char name[KSYM_NAME_LEN];
	unsigned int i;

	if (lookup_symbol_name(addr, name))
		return false;
	/* All of kmark's own code, as ftrace refuses kernel/trace (notrace). */
	if (!is_module_address(addr) &&
	    (str_has_prefix(name, "kmark_") || str_has_prefix(name, "__kmark_")))
		return true;
	for (i = 0; i < ARRAY_SIZE(prefixes); i++)
		if (str_has_prefix(name, prefixes[i]))
			return true;
	return false;
}

#if defined(CONFIG_DYNAMIC_FTRACE) && \
	!defined(CONFIG_KPROBE_EVENTS_ON_NOTRACE)
/* As ftrace's __within_notrace_func(): no mcount site in the function. */
static bool __kmark_within_notrace(unsigned long addr)
{
	unsigned long offset, size;

	if (!addr || !kallsyms_lookup_size_offset(addr, &size, &offset))
		return false;
	addr -= offset;
	return !ftrace_location_range(addr, addr + size - 1);
}

/*
 * Whether @addr is in a notrace function, as ftrace's within_notrace_func()
 * decides (trace_kprobe.c): ftrace refuses its kprobe events there when
 * DYNAMIC_FTRACE tells which functions are notrace, and so does kmark.
 * A suffixed symbol (foo.isra.0) is judged by its origin's.
 */
static bool kmark_within_notrace(unsigned long addr)
{
	char symname[KSYM_NAME_LEN], *p;

	if (!__kmark_within_notrace(addr))
		return false;
	if (!lookup_symbol_name(addr, symname)) {
		p = strchr(symname, '.');
		if (!p)
			return true;
		*p = '\0';
		addr = (unsigned long)kprobe_lookup_name(symname, 0);
		if (addr)
			return __kmark_within_notrace(addr);
	}
	return true;
}
#else
/* Without DYNAMIC_FTRACE the kernel does not know which functions are notrace. */
static bool kmark_within_notrace(unsigned long addr)
{
	return false;
}
#endif

/* Whether module @name is loaded. */
static bool kmark_module_loaded(const char *name)
{
#ifdef CONFIG_MODULES
	bool ret;

	preempt_disable();
	ret = find_module(name);
	preempt_enable();
	return ret;
#else
	return false;
#endif
}

/* The module whose text holds @addr, or NULL (vmlinux). */
static char *kmark_module_of(unsigned long addr)
{
	char *name = NULL;
#ifdef CONFIG_MODULES
	struct module *mod;

	preempt_disable();
	mod = __module_text_address(addr);
	if (mod)
		name = kstrdup(mod->name, GFP_ATOMIC);
	preempt_enable();
	if (mod && !name)
		return ERR_PTR(-ENOMEM);
#endif
	return name;
}

static bool kmark_module_name_ok(const char *s, size_t len)
{
	size_t i;

	if (!len || len >= MODULE_NAME_LEN)
		return false;
	for (i = 0; i < len; i++)
		if (!isalnum(s[i]) && s[i] != '_' && s[i] != '-')
			return false;
	return true;
}

/*
 * Resolve "SYM", "SYM+OFFS", "MOD:SYM[+OFFS]" or "ADDR" (the text at @s,
 * @len bytes) into tk->addr, tk->symbol, tk->offset and tk->module. A
 * symbol in a module is remembered with its module, so that the probe is
 * armed again when the module is loaded again; "MOD:SYM" of a module that
 * is not loaded yet leaves tk->addr 0: the probe is armed when it loads.
 * Errors put the caret at the probe point, as ftrace does.
 */
static int kmark_parse_point(struct kmark_parse *ps, struct kmark_kprobe *tk,
			     const char *s, size_t len)
{
	char sym[KSYM_NAME_LEN], *full;
	const char *plus, *colon, *name = s;
	unsigned long addr;
	long offs = 0;
	size_t nlen;
	int i;

	if (isdigit(s[0])) {
		if (kmark_parse_addr(s, len, &addr) || !addr)
			return kmark_perr(ps, s, KMARK_KPE_BAD_PROBE_ADDR);
		tk->addr = addr;
		goto check;
	}
	plus = memchr(s, '+', len);
	if (plus) {
		if (kmark_parse_long(plus + 1, s + len - plus - 1, &offs) ||
		    offs < 0)
			return kmark_perr(ps, s, KMARK_KPE_BAD_OFFSET);
		len = plus - s;
	}
	colon = memchr(s, ':', len);
	if (colon) {
		if (!kmark_module_name_ok(s, colon - s))
			return kmark_perr(ps, s, KMARK_KPE_BAD_MODULE_NAME);
		tk->module = kstrndup(s, colon - s, GFP_KERNEL);
		if (!tk->module)
			return -ENOMEM;
		name = colon + 1;
	}
	nlen = s + len - name;
	if (!nlen || nlen >= sizeof(sym))
		return kmark_perr(ps, name, KMARK_KPE_NO_SYMBOL);
	memcpy(sym, name, nlen);
	sym[nlen] = '\0';
	if (tk->is_return && offs)
		return kmark_perr(ps, s, KMARK_KPE_BAD_RETPROBE_OFFSET);
	tk->symbol = kstrdup(sym, GFP_KERNEL);
	if (!tk->symbol)
		return -ENOMEM;
	tk->offset = offs;
	if (tk->module) {
		full = kasprintf(GFP_KERNEL, "%s:%s", tk->module, sym);
		if (!full)
			return -ENOMEM;
		addr = kallsyms_lookup_name(full);
		tk->at_entry = !tk->is_return &&
			       (addr ? !kprobe_on_func_entry(NULL, full, offs) :
				       !offs);
		kfree(full);
		if (!addr && kmark_module_loaded(tk->module))
			return kmark_perr(ps, name, KMARK_KPE_BAD_SYMBOL);
		if (!addr)	/* armed when the module loads; checked then */
			return 0;
		tk->addr = addr + offs;
		goto check;
	}
	addr = kallsyms_lookup_name(sym);
	if (!addr) {
		struct kmark_clone_search *cs = kzalloc(sizeof(*cs), GFP_KERNEL);

		if (!cs)
			return -ENOMEM;
		cs->name = sym;
		cs->len = nlen;
		kallsyms_on_each_symbol(kmark_clone_cb, cs);
		if (cs->found == 1) {
			pr_info("%s is not in kallsyms; probing its only compiler clone %s\n",
				sym, cs->clone);
			strscpy(sym, cs->clone, sizeof(sym));
			addr = cs->addr;
		}
		i = cs->found;
		kfree(cs);
		if (i > 1)
			return kmark_perr(ps, s, KMARK_KPE_CLONE_AMBIGUOUS);
		if (!addr)
			return kmark_perr(ps, s, KMARK_KPE_BAD_SYMBOL);
		kfree(tk->symbol);
		tk->symbol = kstrdup(sym, GFP_KERNEL);
		if (!tk->symbol)
			return -ENOMEM;
	}
	tk->addr = addr + offs;
	/* A plain symbol in a module: remembered with its module. */
	tk->module = kmark_module_of(tk->addr);
	if (IS_ERR(tk->module)) {
		tk->module = NULL;
		return -ENOMEM;
	}
	/* As ftrace: $argN only where the arguments are still in place. */
	tk->at_entry = !tk->is_return && !kprobe_on_func_entry(NULL, sym, offs);
check:
	if (kmark_kprobe_self(tk->addr))
		return kmark_perr(ps, s, KMARK_KPE_SELF_PROBE);
	if (within_kprobe_blacklist(tk->addr))
		return kmark_perr(ps, s, KMARK_KPE_BLACKLISTED);
	if (kmark_within_notrace(tk->addr))
		return kmark_perr(ps, s, KMARK_KPE_NOTRACE);
	if (tk->is_return && kretprobe_blacklist_size) {
		for (i = 0; kretprobe_blacklist[i].name; i++)
			if (kretprobe_blacklist[i].addr == (void *)tk->addr)
				return kmark_perr(ps, s, KMARK_KPE_KRETPROBE_BLACKLISTED);
	}
	return 0;
}

/* A return probe's slot for argument @n, saved by its entry handler. */
static u8 kmark_entry_slot(struct kmark_kprobe *tk, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < tk->nr_entry_args; i++)
		if (tk->entry_args[i] == n)
			return i;
	tk->entry_args[tk->nr_entry_args] = n;
	return tk->nr_entry_args++;
}

/* FETCHARG (without name and type) in [s, e); @depth counts dereferences. */
static struct kmark_fetch *kmark_parse_fetch(struct kmark_parse *ps,
					     struct kmark_kprobe *tk,
					     const char *s, const char *e,
					     int depth)
{
	struct kmark_fetch *f = kzalloc(sizeof(*f), GFP_KERNEL);
	size_t len = e - s;
	long v;

	if (!f) {
		ps->err = KMARK_KPE_NOMEM;
		ps->pos = s - ps->cmd;
		return NULL;
	}
	if (!len)
		goto bad;
	if (*s == '$') {
		const char *n = s + 1;

		if (len > 4 && !strncmp(n, "arg", 3)) {
			if (kmark_parse_long(n + 3, e - n - 3, &v) || v < 1 || v > 64) {
				kmark_perr(ps, s, KMARK_KPE_BAD_ARG_NUM);
				goto fail;
			}
			f->op = KMARK_F_ARG;
			f->param = v - 1;
			if (tk->is_return) {
				/* Saved at entry: the registers are gone at return. */
				f->slot = kmark_entry_slot(tk, v - 1);
			} else if (!tk->at_entry) {
				kmark_perr(ps, s, KMARK_KPE_NOFENTRY_ARGS);
				goto fail;
			}
		} else if (len == 7 && !strncmp(n, "retval", 6)) {
			if (!tk->is_return) {
				kmark_perr(ps, s, KMARK_KPE_RETVAL_ON_PROBE);
				goto fail;
			}
			f->op = KMARK_F_RETVAL;
		} else if (len == 5 && !strncmp(n, "comm", 4)) {
			f->op = KMARK_F_COMM;
		} else if (len == 6 && !strncmp(n, "stack", 5)) {
			f->op = KMARK_F_STACKP;
		} else if (len > 6 && !strncmp(n, "stack", 5)) {
			if (kmark_parse_long(n + 5, e - n - 5, &v) || v < 0 || v > 1024) {
				kmark_perr(ps, s, KMARK_KPE_BAD_STACK_NUM);
				goto fail;
			}
			f->op = KMARK_F_STACK;
			f->param = v;
		} else {
			kmark_perr(ps, s, KMARK_KPE_BAD_VAR);
			goto fail;
		}
	} else if (*s == '%') {
		char reg[16];
		int off;

		if (len < 2 || len > sizeof(reg)) {
			kmark_perr(ps, s, KMARK_KPE_BAD_REG);
			goto fail;
		}
		memcpy(reg, s + 1, len - 1);
		reg[len - 1] = '\0';
		off = regs_query_register_offset(reg);
		if (off < 0) {
			kmark_perr(ps, s, KMARK_KPE_BAD_REG);
			goto fail;
		}
		f->op = KMARK_F_REG;
		f->param = off;
	} else if (*s == '@') {
		const char *n = s + 1, *sign;
		char sym[KSYM_NAME_LEN];
		long off = 0;

		f->op = KMARK_F_MEM;
		if (n < e && isdigit(*n)) {
			if (kmark_parse_addr(n, e - n, &f->param)) {
				kmark_perr(ps, s, KMARK_KPE_BAD_MEM_ADDR);
				goto fail;
			}
		} else {
			sign = n;
			while (sign < e && *sign != '+' && *sign != '-')
				sign++;
			if (sign < e && kmark_parse_long(sign, e - sign, &off)) {
				kmark_perr(ps, sign, KMARK_KPE_BAD_OFFSET);
				goto fail;
			}
			if (sign == n || sign - n >= sizeof(sym)) {
				kmark_perr(ps, s, KMARK_KPE_BAD_MEM_ADDR);
				goto fail;
			}
			memcpy(sym, n, sign - n);
			sym[sign - n] = '\0';
			f->param = kallsyms_lookup_name(sym);
			if (!f->param) {
				kmark_perr(ps, n, KMARK_KPE_BAD_MEM_ADDR);
				goto fail;
			}
			/* Looked up again when its module comes back. */
			f->sym = kstrdup(sym, GFP_KERNEL);
			if (!f->sym) {
				ps->err = KMARK_KPE_NOMEM;
				goto fail;
			}
			f->sym_off = off;
			f->param += off;
		}
	} else if (*s == '+' || *s == '-' || isdigit(*s)) {
		const char *open = memchr(s, '(', len), *close = NULL, *q;
		/* "+uOFFS(...)": the memory is user space's, as ftrace's. */
		bool user = (*s == '+' || *s == '-') && s[1] == 'u';

		if (!open) {
			kmark_perr(ps, s, KMARK_KPE_BAD_DEREF);
			goto fail;
		}
		/* As ftrace: the last ')' closes the first '('. */
		for (q = open + 1; q < e; q++)
			if (*q == ')')
				close = q;
		if (!close) {
			kmark_perr(ps, e, KMARK_KPE_DEREF_OPEN_BRACE);
			goto fail;
		}
		if (close != e - 1) {
			kmark_perr(ps, close + 1, KMARK_KPE_BAD_DEREF);
			goto fail;
		}
		if (kmark_parse_long(s + 2 * user, open - s - 2 * user, &v)) {
			kmark_perr(ps, s, KMARK_KPE_BAD_DEREF_OFFS);
			goto fail;
		}
		if (user && *s == '-')
			v = -v;
		if (depth >= KMARK_KPROBE_MAX_DEREF) {
			kmark_perr(ps, s, KMARK_KPE_DEREF_TOO_DEEP);
			goto fail;
		}
		f->op = KMARK_F_DEREF;
		f->user = user;
		f->param = v;
		f->base = kmark_parse_fetch(ps, tk, open + 1, e - 1, depth + 1);
		if (!f->base)
			goto fail;
		if (f->base->op == KMARK_F_COMM) {
			kmark_perr(ps, open + 1, KMARK_KPE_COMM_DEREF);
			goto fail;
		}
	} else {
		goto bad;
	}
	return f;
bad:
	kmark_perr(ps, s, KMARK_KPE_BAD_FETCH_ARG);
fail:
	kmark_free_fetch(f);
	return NULL;
}

/*
 * A bitfield, "bW@O/C" as ftrace's: W bits from bit O of a C-bit container
 * (8, 16, 32 or 64), read as the container's unsigned type and recorded as
 * one, O + W <= C. The caret goes to the type, as ftrace's BAD_BITFIELD.
 */
static int kmark_parse_bitfield(struct kmark_parse *ps, struct kmark_karg *a,
				const char *t, size_t len)
{
	const char *at = memchr(t, '@', len), *slash;
	long w, o, c;

	slash = at ? memchr(at, '/', t + len - at) : NULL;
	if (!at || !slash ||
	    kmark_parse_long(t + 1, at - t - 1, &w) || !isdigit(t[1]) ||
	    kmark_parse_long(at + 1, slash - at - 1, &o) || !isdigit(at[1]) ||
	    kmark_parse_long(slash + 1, t + len - slash - 1, &c) ||
	    !isdigit(slash[1]) ||
	    (c != 8 && c != 16 && c != 32 && c != 64) ||
	    w < 1 || o < 0 || w + o > c)
		return kmark_perr(ps, t, KMARK_KPE_BAD_BITFIELD);
	a->type = KMARK_T_U;
	a->bits = c;
	a->bf_width = w;
	a->bf_offset = o;
	return 0;
}

static int kmark_parse_type(struct kmark_parse *ps, struct kmark_karg *a,
			    const char *t, size_t len)
{
	static const struct { const char *name; u8 type; } names[] = {
		{ "string", KMARK_T_STRING }, { "ustring", KMARK_T_USTRING },
		{ "symbol", KMARK_T_SYMBOL },
	};
	unsigned int i;
	long bits;

	for (i = 0; i < ARRAY_SIZE(names); i++) {
		if (strlen(names[i].name) == len && !strncmp(t, names[i].name, len)) {
			a->type = names[i].type;
			a->bits = BITS_PER_LONG;
			return 0;
		}
	}
	if (len >= 2 && t[0] == 'b')
		return kmark_parse_bitfield(ps, a, t, len);
	if (len >= 2 && strchr("usx", t[0]) && !kmark_parse_long(t + 1, len - 1, &bits) &&
	    (bits == 8 || bits == 16 || bits == 32 || bits == 64) && isdigit(t[1])) {
		a->type = t[0] == 'u' ? KMARK_T_U : t[0] == 's' ? KMARK_T_S : KMARK_T_X;
		a->bits = bits;
		return 0;
	}
	return kmark_perr(ps, t, KMARK_KPE_BAD_TYPE);
}

/* Names an argument cannot take: the common fields and the probe's own. */
static const char * const kmark_reserved_names[] = {
	"common_type", "common_flags", "common_preempt_count", "common_pid",
	"common_comm_id", "common_comm", "common_cpu",
	"__probe_ip", "__probe_func", "__probe_ret_ip",
};

/* One FETCHARGS word [s, e). */
static int kmark_parse_arg(struct kmark_parse *ps, struct kmark_kprobe *tk,
			   const char *s, const char *e)
{
	struct kmark_karg *a = &tk->args[tk->nr_args];
	const char *eq, *body = s, *colon, *close;
	unsigned int i;
	int ret;

	if (tk->nr_args == KMARK_KPROBE_MAX_ARGS)
		return kmark_perr(ps, s, KMARK_KPE_TOO_MANY_ARGS);
	eq = memchr(s, '=', e - s);
	if (eq) {
		if (eq - s > KMARK_KPROBE_ARG_NAME_MAX)
			return kmark_perr(ps, s, KMARK_KPE_ARG_NAME_TOO_LONG);
		if (!kmark_ident_ok(s, eq - s))
			return kmark_perr(ps, s, KMARK_KPE_BAD_ARG_NAME);
		memcpy(a->name, s, eq - s);
		a->name[eq - s] = '\0';
		body = eq + 1;
	} else {
		snprintf(a->name, sizeof(a->name), "arg%u", tk->nr_args + 1);
	}
	for (i = 0; i < tk->nr_args; i++)
		if (!strcmp(tk->args[i].name, a->name))
			return kmark_perr(ps, s, KMARK_KPE_DUP_ARG_NAME);
	/* A field the record has anyway (trace_probe.c's reserved names). */
	for (i = 0; i < ARRAY_SIZE(kmark_reserved_names); i++)
		if (!strcmp(kmark_reserved_names[i], a->name))
			return kmark_perr(ps, s, KMARK_KPE_RESERVED_ARG_NAME);

	if (e - body > KMARK_KPROBE_ARG_MAX)
		return kmark_perr(ps, body, KMARK_KPE_ARG_TOO_LONG);

	/* The type follows the last ':' that is not inside parentheses. */
	close = body;
	for (colon = body; colon < e; colon++)
		if (*colon == ')')
			close = colon;
	colon = memchr(close, ':', e - close);
	a->type = KMARK_T_X;
	a->bits = BITS_PER_LONG;
	if (colon) {
		ret = kmark_parse_type(ps, a, colon + 1, e - colon - 1);
		if (ret)
			return ret;
	}
	a->fetch = kmark_parse_fetch(ps, tk, body, colon ?: e, 0);
	if (!a->fetch)
		return ps->err == KMARK_KPE_NOMEM ? -ENOMEM : -EINVAL;
	if (a->fetch->op == KMARK_F_COMM) {
		if (colon && a->type != KMARK_T_STRING) {
			kmark_free_fetch(a->fetch);
			return kmark_perr(ps, colon + 1, KMARK_KPE_BAD_COMM_TYPE);
		}
		a->type = KMARK_T_STRING;
	} else if ((a->type == KMARK_T_STRING || a->type == KMARK_T_USTRING) &&
		   a->fetch->op != KMARK_F_DEREF && a->fetch->op != KMARK_F_MEM) {
		/* As ftrace: "+0($arg2):string", not "$arg2:string". */
		kmark_free_fetch(a->fetch);
		return kmark_perr(ps, colon + 1, KMARK_KPE_BAD_STRING);
	} else if (a->type == KMARK_T_STRING && a->fetch->user) {
		/* "+u0($arg2):string" is a user string, as ftrace reads it. */
		a->type = KMARK_T_USTRING;
	}
	a->text = kstrndup(body, e - body, GFP_KERNEL);
	if (!a->text) {
		kmark_free_fetch(a->fetch);
		return -ENOMEM;
	}
	tk->nr_args++;
	return 0;
}

/*
 * "[NAME=]FETCHARG:%pd" (a struct dentry *) and ":%pD" (a struct file *):
 * the name of the dentry, written out as the string fetch it stands for,
 * as ftrace's traceprobe_expand_dentry_args() does (and so listed in
 * kprobe_events). Return: the expanded word (kfree() it), NULL when the
 * word is not one, or an ERR_PTR.
 */
static char *kmark_expand_dentry_arg(const char *s, const char *e)
{
	size_t len = e - s;
	const char *eq = memchr(s, '=', len), *body = eq ? eq + 1 : s;
	int nlen = eq ? eq + 1 - s : 0, blen = e - 4 - body;
	char *w;

	if (len < 4 || strncmp(e - 4, ":%p", 3) || (e[-1] != 'd' && e[-1] != 'D'))
		return NULL;
	if (e[-1] == 'd')
		w = kasprintf(GFP_KERNEL, "%.*s+0x0(+0x%zx(%.*s)):string",
			      nlen, s, offsetof(struct dentry, d_name.name),
			      blen, body);
	else
		w = kasprintf(GFP_KERNEL, "%.*s+0x0(+0x%zx(+0x%zx(%.*s))):string",
			      nlen, s, offsetof(struct dentry, d_name.name),
			      offsetof(struct file, f_path.dentry), blen, body);
	return w ?: ERR_PTR(-ENOMEM);
}

/* One FETCHARGS word [s, e), a %pd or %pD one expanded first. */
static int kmark_parse_arg_word(struct kmark_parse *ps, struct kmark_kprobe *tk,
				const char *s, const char *e)
{
	char *w = kmark_expand_dentry_arg(s, e);
	struct kmark_parse sub;
	int ret;

	if (IS_ERR(w))
		return PTR_ERR(w);
	if (!w) {
		ret = kmark_parse_arg(ps, tk, s, e);
	} else {
		/* Errors in the expansion point at the word as written. */
		sub.cmd = w;
		sub.err = KMARK_KPE_NOMEM;
		sub.pos = 0;
		ret = kmark_parse_arg(&sub, tk, w, w + strlen(w));
		if (ret == -EINVAL)
			kmark_perr(ps, s, sub.err);
		kfree(w);
	}
	if (!ret)
		tk->arg_pos[tk->nr_args - 1] = s - ps->cmd;
	return ret;
}

/* The text conversion of an argument's type, as ftrace prints it. */
static const char *kmark_type_conv(const struct kmark_karg *a)
{
	bool ll = a->bits == 64;

	switch (a->type) {
	case KMARK_T_U:
		return ll ? "%llu" : "%u";
	case KMARK_T_S:
		return ll ? "%lld" : "%d";
	case KMARK_T_X:
		return ll ? "0x%llx" : "0x%x";
	case KMARK_T_SYMBOL:
		return "%pS";
	default:
		return "\"%s\"";
	}
}

/* An argument's type in the format file (ftrace's names: u32, x64, ...). */
static const char *kmark_type_name(const struct kmark_karg *a, char *buf)
{
	switch (a->type) {
	case KMARK_T_STRING:
		return "string";
	case KMARK_T_USTRING:
		return "ustring";
	case KMARK_T_SYMBOL:
		return "symbol";
	default:
		if (a->bf_width)
			sprintf(buf, "b%u@%u/%u", a->bf_width, a->bf_offset,
				a->bits);
		else
			sprintf(buf, "%c%u", a->type == KMARK_T_U ? 'u' :
				a->type == KMARK_T_S ? 's' : 'x', a->bits);
		return buf;
	}
}

static const char * const kmark_int_types[3][4] = {
	{ "u8", "u16", "u32", "u64" },
	{ "s8", "s16", "s32", "s64" },
	{ "x8", "x16", "x32", "x64" },
};

/*
 * The format the event is printed with, and its record layout: the probe's
 * address (a return probe: its function, then the return address), then
 * each argument at its type's size (strings: a __data_loc word), as
 * ftrace's kprobe events are laid out.
 */
static int kmark_kprobe_build_format(struct kmark_kprobe *tk)
{
	unsigned int first = kmark_kprobe_first_arg(tk), i, pos, off;
	struct kmark_layout *l;
	const char *err;
	size_t len = 32;
	char *f;

	for (i = 0; i < tk->nr_args; i++)
		len += strlen(tk->args[i].name) + 12;
	f = kzalloc(len, GFP_KERNEL);
	if (!f)
		return -ENOMEM;
	strscpy(f, tk->is_return ? "(%pS <- %ps)" : "(%pS)", len);
	for (i = 0; i < tk->nr_args; i++) {
		strlcat(f, " ", len);
		strlcat(f, tk->args[i].name, len);
		strlcat(f, "=", len);
		strlcat(f, kmark_type_conv(&tk->args[i]), len);
	}
	tk->marker.format = f;
	l = kmark_parse_format(f, &err, &pos);
	if (IS_ERR(l))
		return PTR_ERR(l);
	tk->marker.layout = l;

	off = KMARK_HDR_SIZE;
	if (tk->is_return) {
		/* Printed "(RET_IP <- FUNC)", stored func first, as ftrace. */
		strscpy(l->fields[1].name, "__probe_func", KMARK_NAME_MAX);
		l->fields[1].offset = off;
		strscpy(l->fields[0].name, "__probe_ret_ip", KMARK_NAME_MAX);
		l->fields[0].offset = off + sizeof(long);
	} else {
		strscpy(l->fields[0].name, "__probe_ip", KMARK_NAME_MAX);
		l->fields[0].offset = off;
	}
	for (i = 0; i < first; i++) {
		l->fields[i].size = sizeof(long);
		l->fields[i].type = "unsigned long";
		off += sizeof(long);
	}
	for (i = 0; i < tk->nr_args; i++) {
		const struct kmark_karg *a = &tk->args[i];
		struct kmark_field *fl = &l->fields[first + i];

		strscpy(fl->name, a->name, KMARK_NAME_MAX);
		fl->offset = off;
		switch (a->type) {
		case KMARK_T_STRING:
		case KMARK_T_USTRING:
			fl->size = sizeof(u32);
			break;
		case KMARK_T_SYMBOL:
			/* As ftrace: an address, printed with %pS. */
			fl->size = sizeof(long);
			fl->type = sizeof(long) == 8 ? "u64" : "u32";
			break;
		default:
			fl->size = a->bits / 8;
			fl->is_signed = a->type == KMARK_T_S;
			fl->type = kmark_int_types[a->type][ilog2(a->bits / 8)];
			break;
		}
		off += fl->size;
	}
	l->size = off;
	kmark_layout_finish(l);
	return 0;
}

/**
 * kmark_kprobe_parse - parse one kprobe_events line that defines a probe
 * @cmd:	the line ("p:..." or "r:...")
 * @out:	the new probe, not registered, not in the namespace
 * @err:	on -EINVAL: KMARK_KPE_* (see kmark_kprobe_err_text())
 * @pos:	on -EINVAL: offset of the caret in @cmd
 *
 * Resolves the symbol (and a unique compiler clone of it), checks the
 * kprobe and kretprobe blacklists and the fetch arguments. Does not look
 * at other events.
 *
 * Return: 0, -EINVAL or -ENOMEM.
 */
int kmark_kprobe_parse(const char *cmd, struct kmark_kprobe **out, int *err,
		       unsigned int *pos)
{
	struct kmark_parse ps = { .cmd = cmd, .err = KMARK_KPE_NOMEM };
	struct kmark_kprobe *tk;
	const char *p = cmd, *w, *name = NULL, *name_end = NULL, *grp = NULL;
	const char *grp_end = NULL, *point, *pct;
	char gbuf[KMARK_NAME_MAX], ebuf[KMARK_NAME_MAX];
	size_t plen;
	int ret = -EINVAL;

	*out = NULL;
	tk = kzalloc(sizeof(*tk), GFP_KERNEL);
	if (!tk)
		return -ENOMEM;
	INIT_LIST_HEAD(&tk->marker.files);
	/* An event of its own, until a write appends it to another. */
	tk->ev = tk;
	INIT_LIST_HEAD(&tk->probes);
	list_add(&tk->probe_node, &tk->probes);

	if (*p != 'p' && *p != 'r') {
		kmark_perr(&ps, p, KMARK_KPE_BAD_CMD);
		goto fail;
	}
	tk->is_return = *p == 'r';
	p++;
	if (*p && *p != ':' && !isspace(*p)) {
		long maxact;

		/* As ftrace: the whole word up to ':' or blank is maxactive. */
		w = p;
		while (*p && *p != ':' && !isspace(*p))
			p++;
		if (!tk->is_return) {
			kmark_perr(&ps, w, isdigit(*w) ? KMARK_KPE_BAD_MAXACT_TYPE :
						       KMARK_KPE_BAD_CMD);
			if (!isdigit(*w))
				ps.pos = 0;
			goto fail;
		}
		if (kmark_parse_long(w, p - w, &maxact) || maxact < 1) {
			kmark_perr(&ps, w, KMARK_KPE_BAD_MAXACT);
			goto fail;
		}
		if (maxact > KMARK_KPROBE_MAXACTIVE_MAX) {
			kmark_perr(&ps, w, KMARK_KPE_MAXACT_TOO_BIG);
			goto fail;
		}
		tk->rp.maxactive = maxact;
		tk->maxactive_set = true;
	}
	if (*p == ':') {
		w = ++p;
		while (*p && !isspace(*p))
			p++;
		name = w;
		name_end = p;
		grp = memchr(w, '/', p - w);
		if (grp) {
			grp_end = grp;
			grp = w;
			name = grp_end + 1;
			if (!kmark_ident_ok(grp, grp_end - grp)) {
				kmark_perr(&ps, grp, KMARK_KPE_BAD_GROUP_NAME);
				goto fail;
			}
		}
		if (name == name_end && !grp) {
			kmark_perr(&ps, name, KMARK_KPE_EMPTY_EVENT_NAME);
			goto fail;
		} else if (name == name_end) {
			name = NULL;	/* "p:grp/ SYM": default event name */
		} else if (!kmark_ident_ok(name, name_end - name)) {
			kmark_perr(&ps, name, KMARK_KPE_BAD_EVENT_NAME);
			goto fail;
		}
	} else if (*p && !isspace(*p)) {
		kmark_perr(&ps, cmd, KMARK_KPE_BAD_CMD);
		goto fail;
	}
	while (isspace(*p))
		p++;
	if (!*p) {
		kmark_perr(&ps, p, KMARK_KPE_NO_PROBE_POINT);
		goto fail;
	}
	point = p;
	while (*p && !isspace(*p))
		p++;
	plen = p - point;
	pct = memchr(point, '%', plen);
	if (pct) {
		if (p - pct != 7 || strncmp(pct, "%return", 7)) {
			kmark_perr(&ps, pct, KMARK_KPE_BAD_RETURN_SUFFIX);
			goto fail;
		}
		tk->is_return = true;
		plen = pct - point;
	}
	ret = kmark_parse_point(&ps, tk, point, plen);
	if (ret)
		goto fail;

	for (;;) {
		while (isspace(*p))
			p++;
		if (!*p)
			break;
		w = p;
		while (*p && !isspace(*p))
			p++;
		ret = kmark_parse_arg_word(&ps, tk, w, p);
		if (ret)
			goto fail;
	}

	if (grp)
		snprintf(gbuf, sizeof(gbuf), "%.*s", (int)(grp_end - grp), grp);
	else
		strscpy(gbuf, KMARK_KPROBE_GROUP, sizeof(gbuf));
	if (name)
		snprintf(ebuf, sizeof(ebuf), "%.*s", (int)(name_end - name), name);
	else if (tk->symbol && tk->module && memchr(point, ':', plen))
		snprintf(ebuf, sizeof(ebuf), "%c_%s_%s_%lu",
			 tk->is_return ? 'r' : 'p', tk->module, tk->symbol,
			 tk->offset);
	else if (tk->symbol)
		snprintf(ebuf, sizeof(ebuf), "%c_%s_%lu", tk->is_return ? 'r' : 'p',
			 tk->symbol, tk->offset);
	else
		snprintf(ebuf, sizeof(ebuf), "%c_0x%lx", tk->is_return ? 'r' : 'p',
			 tk->addr);
	/*
	 * A made-up name, as ftrace's sanitize_event_name(): what is not a
	 * letter, a digit or '_' (a clone's "f.isra.0", a module's "a-b", a
	 * "MOD:SYM" with more colons) becomes '_'. A name given was checked.
	 */
	if (!name) {
		char *c;

		for (c = ebuf; *c; c++)
			if (!isalnum(*c) && *c != '_')
				*c = '_';
	}
	tk->marker.system = kstrdup(gbuf, GFP_KERNEL);
	tk->marker.name = kstrdup(ebuf, GFP_KERNEL);
	ret = -ENOMEM;
	if (!tk->marker.system || !tk->marker.name)
		goto fail;
	tk->name_pos = name ? name - cmd : 0;
	ret = kmark_kprobe_build_format(tk);
	if (ret)
		goto fail;
	tk->nhit = alloc_percpu(unsigned long);
	if (!tk->nhit)
		goto fail;
	tk->marker.ops = &kmark_kprobe_ops;
	*out = tk;
	return 0;
fail:
	if (ret == -EINVAL) {
		*err = ps.err;
		*pos = ps.pos;
	}
	kmark_kprobe_free(tk);
	return ret;
}

/* --- registration and the namespace ------------------------------------------------ */

/*
 * Register @tk's kprobe or kretprobe at tk->addr, disabled unless @enabled.
 * The struct is used again when a module comes back: kprobes keeps only
 * the DISABLED flag of what it finds in it.
 */
static int kmark_kprobe_register(struct kmark_kprobe *tk, bool enabled)
{
	struct kprobe *kp = &tk->rp.kp;
	int ret;

	kp->addr = (kprobe_opcode_t *)tk->addr;
	kp->flags = enabled ? 0 : KPROBE_FLAG_DISABLED;
	if (tk->is_return) {
		tk->rp.handler = kmark_kretprobe_handler;
		if (tk->nr_entry_args) {
			tk->rp.entry_handler = kmark_kretprobe_entry;
			tk->rp.data_size = tk->nr_entry_args * sizeof(long);
		}
		ret = register_kretprobe(&tk->rp);
	} else {
		kp->pre_handler = kmark_kprobe_pre;
		ret = register_kprobe(kp);
	}
	tk->registered = !ret;
	return ret;
}

static void kmark_kprobe_unregister(struct kmark_kprobe *tk)
{
	if (tk->is_return)
		unregister_kretprobe(&tk->rp);
	else
		unregister_kprobe(&tk->rp.kp);
	tk->registered = false;
}

/* Its code is gone: its module went, or it was __init code after boot. */
static bool kmark_kprobe_gone(struct kmark_kprobe *tk)
{
	return tk->registered && kprobe_gone(&tk->rp.kp);
}

/* Not armed because its module is not loaded (it will be when it is). */
static bool kmark_kprobe_waiting(struct kmark_kprobe *tk)
{
	return tk->module && (!tk->registered || kmark_kprobe_gone(tk));
}

static int kmark_kprobe_arm_one(struct kmark_kprobe *tk)
{
	if (kmark_kprobe_waiting(tk))
		return 0;
	if (!tk->registered || kmark_kprobe_gone(tk))
		return -ENODEV;
	return tk->is_return ? enable_kretprobe(&tk->rp) : enable_kprobe(&tk->rp.kp);
}

static void kmark_kprobe_disarm_one(struct kmark_kprobe *tk)
{
	if (!tk->registered || kmark_kprobe_gone(tk))
		return;
	if (tk->is_return)
		disable_kretprobe(&tk->rp);
	else
		disable_kprobe(&tk->rp.kp);
}

/*
 * Enabling a probe whose module is not loaded succeeds, as in ftrace: it
 * records from the moment the module loads. An event whose probes' code
 * is all gone for good cannot be enabled (-ENODEV); one with several
 * probes records through those it can arm.
 */
static int kmark_kprobe_enable(struct kmark_marker *m)
{
	struct kmark_kprobe *ev = to_tk(m), *tk;
	bool any = false;
	int ret = 0, r;

	list_for_each_entry(tk, &ev->probes, probe_node) {
		r = kmark_kprobe_arm_one(tk);
		if (r == -ENODEV)
			continue;
		any = true;
		if (r && !ret)
			ret = r;
	}
	if (!any)
		return -ENODEV;
	if (ret)
		list_for_each_entry(tk, &ev->probes, probe_node)
			kmark_kprobe_disarm_one(tk);
	return ret;
}

static void kmark_kprobe_disable(struct kmark_marker *m)
{
	struct kmark_kprobe *ev = to_tk(m), *tk;

	list_for_each_entry(tk, &ev->probes, probe_node)
		kmark_kprobe_disarm_one(tk);
}

/* available_markers: "[kprobe] dfd=s32 fname=string" */
static void kmark_kprobe_show(struct seq_file *s, struct kmark_marker *m)
{
	struct kmark_kprobe *tk = to_tk(m);
	unsigned int i;
	char buf[16];

	seq_puts(s, tk->is_return ? "[kretprobe]" : "[kprobe]");
	for (i = 0; i < tk->nr_args; i++)
		seq_printf(s, " %s=%s", tk->args[i].name,
			   kmark_type_name(&tk->args[i], buf));
}

static const struct kmark_event_ops kmark_kprobe_ops = {
	.enable = kmark_kprobe_enable,
	.disable = kmark_kprobe_disable,
	.show = kmark_kprobe_show,
};

static bool kmark_is_kprobe(struct kmark_marker *m)
{
	return m->ops == &kmark_kprobe_ops;
}

#ifdef CONFIG_MODULES
/*
 * Arm @tk in module @mod, which is coming: resolve MOD:SYM again (the
 * module's addresses are new), check what the definition assumed, and
 * register the probe, enabled if the event records.
 */
/*
 * The addresses of @tk's @SYM arguments, looked up again (a module's
 * variables move with each load, as ftrace's trace_probe's do). Return:
 * NULL, or the symbol that is gone.
 */
static const char *kmark_kprobe_resolve_args(struct kmark_kprobe *tk)
{
	unsigned int i;

	for (i = 0; i < tk->nr_args; i++) {
		struct kmark_fetch *f;

		for (f = tk->args[i].fetch; f; f = f->base) {
			unsigned long addr;

			if (f->op != KMARK_F_MEM || !f->sym)
				continue;
			addr = kallsyms_lookup_name(f->sym);
			if (!addr)
				return f->sym;
			f->param = addr + f->sym_off;
		}
	}
	return NULL;
}

static void kmark_kprobe_arm(struct kmark_kprobe *tk, struct module *mod)
{
	char *full = kasprintf(GFP_KERNEL, "%s:%s", tk->module, tk->symbol);
	const char *gone;
	unsigned long addr;
	int ret;

	if (!full) {
		pr_warn("kprobe event %s/%s: out of memory; not armed\n",
			tk->ev->marker.system, tk->ev->marker.name);
		return;
	}
	addr = kallsyms_lookup_name(full);
	gone = addr ? kmark_kprobe_resolve_args(tk) : NULL;
	if (!addr) {
		pr_warn("kprobe event %s/%s: no %s in module %s; not armed\n",
			tk->ev->marker.system, tk->ev->marker.name, tk->symbol,
			tk->module);
	} else if (gone) {
		pr_warn("kprobe event %s/%s: no @%s any more; not armed\n",
			tk->ev->marker.system, tk->ev->marker.name, gone);
	} else if (tk->at_entry && kprobe_on_func_entry(NULL, full, tk->offset)) {
		pr_warn("kprobe event %s/%s: %s+%lu is not the function's entry, where its $argN are; not armed\n",
			tk->ev->marker.system, tk->ev->marker.name, full, tk->offset);
	} else if (security_locked_down(LOCKDOWN_KPROBES)) {
		/* As ftrace's __register_trace_kprobe(): at every registration. */
		pr_warn("kprobe event %s/%s: kprobes are locked down; not armed\n",
			tk->ev->marker.system, tk->ev->marker.name);
	} else {
		tk->addr = addr + tk->offset;
		ret = kmark_kprobe_register(tk, tk->ev->marker.nr_attached);
		if (ret)
			pr_warn("kprobe event %s/%s: cannot arm %s+%lu: %d\n",
				tk->ev->marker.system, tk->ev->marker.name, full,
				tk->offset, ret);
	}
	kfree(full);
}

/*
 * As ftrace's trace_kprobe_module_callback(): probes in a module stay
 * defined, enabled or not, when it goes (kprobes marks them gone), and are
 * registered again when it comes back.
 */
static int kmark_kprobe_module_cb(struct notifier_block *nb,
				  unsigned long val, void *data)
{
	struct module *mod = data;
	struct kmark_marker *m;

	/*
	 * When a module goes, kprobes' own callback marks its probes gone;
	 * they stay registered (as ftrace's do) until it comes back.
	 */
	if (val != MODULE_STATE_COMING)
		return NOTIFY_DONE;
	mutex_lock(&kmark_mutex);
	list_for_each_entry(m, &kmark_markers, list) {
		struct kmark_kprobe *tk;

		if (!kmark_is_kprobe(m))
			continue;
		list_for_each_entry(tk, &to_tk(m)->probes, probe_node) {
			if (!tk->module || strcmp(tk->module, mod->name))
				continue;
			if (tk->registered)
				kmark_kprobe_unregister(tk);
			tk->addr = 0;
			kmark_kprobe_arm(tk, mod);
		}
	}
	mutex_unlock(&kmark_mutex);
	return NOTIFY_DONE;
}

static struct notifier_block kmark_kprobe_module_nb = {
	.notifier_call = kmark_kprobe_module_cb,
	.priority = 1,
};
#endif

/* The live event @system:@name, if any (a marker, or a kprobe event). */
static struct kmark_marker *kmark_name_taken(const char *system,
					     const char *name)
{
	struct kmark_marker *m;

	list_for_each_entry(m, &kmark_markers, list)
		if (!strcmp(m->system, system) && !strcmp(m->name, name))
			return m;
	return NULL;
}

#define KMARK_KPROBE_MAX_LINES	32

/*
 * Deleted kprobe events whose records may still be in a buffer: kept, with
 * their ids, so that those records still render as they were written (as a
 * module's markers are kept after it goes; ftrace clears the buffer
 * instead). The newest KMARK_KPROBE_GHOSTS only: older ones are freed and
 * their records print as "<unknown event N>". Protected by kmark_mutex.
 */
#define KMARK_KPROBE_GHOSTS	64
static LIST_HEAD(kmark_kprobe_ghosts);
static unsigned int kmark_kprobe_nr_ghosts;

/* Keep @tk (unregistered, out of the namespace) as a ghost. */
static void kmark_kprobe_haunt(struct kmark_kprobe *tk)
{
	struct kmark_kprobe *old = NULL;

	mutex_lock(&kmark_mutex);
	list_add_tail(&tk->marker.list, &kmark_kprobe_ghosts);
	if (++kmark_kprobe_nr_ghosts > KMARK_KPROBE_GHOSTS) {
		old = list_first_entry(&kmark_kprobe_ghosts, struct kmark_kprobe,
				       marker.list);
		list_del(&old->marker.list);
		kmark_kprobe_nr_ghosts--;
		kmark_dynamic_free_id(&old->marker);
	}
	mutex_unlock(&kmark_mutex);
	if (old) {
		/* Readers render under RCU. */
		synchronize_rcu();
		kmark_kprobe_free(old);
	}
}

/*
 * Free events taken out of the namespace, each with its probes (a probe
 * deleted from an event that stays is one of its own here): their kprobes
 * are unregistered in two batches (one wait each), and readers that render
 * old records under RCU are waited for once.
 */
void kmark_kprobe_free_list(struct list_head *dead)
{
	struct kmark_kprobe *ev, *n, *tk, *tn;
	struct kretprobe **rps;
	struct kprobe **kps;
	unsigned int nk = 0, nr = 0, total = 0;

	if (list_empty(dead))
		return;
	list_for_each_entry(ev, dead, marker.list)
		list_for_each_entry(tk, &ev->probes, probe_node)
			total++;
	kps = kcalloc(total, sizeof(*kps), GFP_KERNEL);
	rps = kcalloc(total, sizeof(*rps), GFP_KERNEL);
	list_for_each_entry(ev, dead, marker.list) {
		list_for_each_entry(tk, &ev->probes, probe_node) {
			if (!tk->registered)
				continue;
			if (tk->is_return && rps)
				rps[nr++] = &tk->rp;
			else if (!tk->is_return && kps)
				kps[nk++] = &tk->rp.kp;
			else
				kmark_kprobe_unregister(tk);	/* no memory: one by one */
		}
	}
	if (nk)
		unregister_kprobes(kps, nk);
	if (nr)
		unregister_kretprobes(rps, nr);
	kfree(kps);
	kfree(rps);
	synchronize_rcu();
	list_for_each_entry_safe(ev, n, dead, marker.list) {
		list_del(&ev->marker.list);
		list_for_each_entry_safe(tk, tn, &ev->probes, probe_node) {
			list_del(&tk->probe_node);
			if (tk != ev)
				kmark_kprobe_free(tk);
		}
		if (ev->ghost)
			kmark_kprobe_haunt(ev);
		else
			kmark_kprobe_free(ev);
	}
}

/* Take event @ev out of the namespace onto @dead (kmark_mutex held). */
static void kmark_kprobe_retire(struct kmark_kprobe *ev, struct list_head *dead)
{
	lockdep_assert_held(&kmark_mutex);
	kmark_event_files_remove(&ev->marker);
	if (ev->marker.was_enabled) {
		/* Out of the namespace; its id stays, for its records. */
		list_del(&ev->marker.list);
		ev->ghost = true;
	} else {
		kmark_dynamic_unlink(&ev->marker);
	}
	list_add_tail(&ev->marker.list, dead);
}

/*
 * Every kprobe event out of the namespace onto @dead, for
 * kmark_kprobe_free_list() once kmark_mutex is dropped; none is enabled
 * (checked before, under the same hold of kmark_mutex).
 */
void kmark_kprobe_remove_all(struct list_head *dead)
{
	struct kmark_marker *m, *n;

	lockdep_assert_held(&kmark_mutex);
	list_for_each_entry_safe(m, n, &kmark_markers, list)
		if (kmark_is_kprobe(m))
			kmark_kprobe_retire(to_tk(m), dead);
}

/* Whether some kprobe event is enabled (kmark_mutex held). */
bool kmark_kprobe_any_busy(void)
{
	struct kmark_marker *m;

	list_for_each_entry(m, &kmark_markers, list)
		if (kmark_is_kprobe(m) && kmark_marker_recording(m))
			return true;
	return false;
}

/*
 * A write being applied: its new probes (@add, @nadd of them: new events,
 * and probes to append to an event, whose ->ev is that event).
 */
struct kmark_kp_write {
	struct kmark_kprobe *add[KMARK_KPROBE_MAX_LINES];
	unsigned int nadd;
};

/*
 * Whether the write deletes every probe of event @ev, those it appends to
 * it included: then the event goes (and a new one may take its name).
 */
static bool kmark_kprobe_all_doomed(struct kmark_kprobe *ev,
				    const struct kmark_kp_write *w)
{
	struct kmark_kprobe *tk;
	unsigned int i;

	list_for_each_entry(tk, &ev->probes, probe_node)
		if (!tk->doomed)
			return false;
	for (i = 0; i < w->nadd; i++)
		if (w->add[i]->ev == ev && w->add[i] != ev && !w->add[i]->doomed)
			return false;
	return true;
}

/* Whether [w, e) is @s, all of it. */
static bool kmark_word_is(const char *w, const char *e, const char *s)
{
	size_t n = strlen(s);

	return (size_t)(e - w) == n && !strncmp(w, s, n);
}

/*
 * Whether probe @tk is the one "[MOD:]SYM[+OFFS] [NAME=FETCHARG...]" or
 * "ADDR ..." (@spec; empty: any) names, as ftrace's
 * trace_kprobe_match_command_head(): its place as kprobe_events lists it
 * ("+0" may be left out, as ftrace lists it), then its first arguments
 * as listed.
 */
static bool kmark_kprobe_match(const struct kmark_kprobe *tk, const char *spec)
{
	const char *w = skip_spaces(spec), *e, *colon, *plus;
	char num[24];
	unsigned int i;
	size_t n;

	if (!*w)
		return true;
	e = w;
	while (*e && !isspace(*e))
		e++;
	if (!tk->symbol) {
		snprintf(num, sizeof(num), "0x%lx", tk->addr);
		if (!kmark_word_is(w, e, num))
			return false;
	} else {
		colon = memchr(w, ':', e - w);
		if (!colon != !tk->module ||
		    (colon && !kmark_word_is(w, colon, tk->module)))
			return false;
		w = colon ? colon + 1 : w;
		plus = memchr(w, '+', e - w);
		if (!kmark_word_is(w, plus ?: e, tk->symbol))
			return false;
		snprintf(num, sizeof(num), "%lu", tk->offset);
		if (plus ? !kmark_word_is(plus + 1, e, num) : tk->offset)
			return false;
	}
	for (i = 0;; i++) {
		w = skip_spaces(e);
		if (!*w)
			return true;
		e = w;
		while (*e && !isspace(*e))
			e++;
		if (i == tk->nr_args)
			return false;
		n = strlen(tk->args[i].name);
		if ((size_t)(e - w) <= n || strncmp(w, tk->args[i].name, n) ||
		    w[n] != '=' ||
		    !kmark_word_is(w + n + 1, e, tk->args[i].text))
			return false;
	}
}

/* Whether probes @a and @b are one: the same place, the same arguments. */
static bool kmark_kprobe_same(const struct kmark_kprobe *a,
			      const struct kmark_kprobe *b)
{
	unsigned int i;

	if (a->symbol && b->symbol) {
		if (strcmp(a->symbol, b->symbol) || a->offset != b->offset ||
		    !a->module != !b->module ||
		    (a->module && strcmp(a->module, b->module)))
			return false;
	} else if (a->symbol || b->symbol || a->addr != b->addr) {
		return false;
	}
	if (a->nr_args != b->nr_args)
		return false;
	for (i = 0; i < a->nr_args; i++)
		if (strcmp(a->args[i].text, b->args[i].text))
			return false;
	return true;
}

/*
 * Appending probe @tk to event @ev ("p:EVENT SYM2" for an EVENT that
 * exists), as ftrace's append_trace_kprobe(): the same kind of probe,
 * the same arguments (names and types), not the same probe twice. 0, or
 * the error with *@pos set.
 */
static int kmark_kprobe_append_check(struct kmark_kprobe *ev,
				     struct kmark_kprobe *tk,
				     const struct kmark_kp_write *w,
				     const char *line, unsigned int *pos)
{
	struct kmark_kprobe *p;
	unsigned int i, n = min(ev->nr_args, tk->nr_args);
	char buf[16], buf2[16];

	*pos = 0;
	if (ev->is_return != tk->is_return)
		return KMARK_KPE_DIFF_PROBE_TYPE;
	for (i = 0; i <= n; i++) {
		if (i == n && ev->nr_args == tk->nr_args)
			break;
		if (i == n ||
		    strcmp(ev->args[i].name, tk->args[i].name) ||
		    strcmp(kmark_type_name(&ev->args[i], buf),
			   kmark_type_name(&tk->args[i], buf2))) {
			*pos = i < tk->nr_args ? tk->arg_pos[i] : strlen(line);
			return KMARK_KPE_DIFF_ARG_TYPE;
		}
	}
	list_for_each_entry(p, &ev->probes, probe_node)
		if (!p->doomed && kmark_kprobe_same(p, tk))
			return KMARK_KPE_SAME_PROBE;
	for (i = 0; i < w->nadd; i++) {
		p = w->add[i];
		if (p != tk && p->ev == ev && !p->doomed && kmark_kprobe_same(p, tk))
			return KMARK_KPE_SAME_PROBE;
	}
	return 0;
}

/*
 * "-:[GRP/]EVENT [SYM[+OFFS] [ARGS]]" and "-:GRP/": mark the probes it
 * deletes (the event's, those of @spec only, or every event's of GRP),
 * the ones this write appends included. 0, or the error.
 */
static int kmark_kprobe_doom(const char *line, const struct kmark_kp_write *w,
			     int *err, unsigned int *pos)
{
	const char *tok = line + 2, *end = tok, *slash, *nm = tok;
	char grp[KMARK_NAME_MAX] = KMARK_KPROBE_GROUP;
	struct kmark_kprobe *ev, *tk;
	struct kmark_marker *m;
	unsigned int i, hit = 0;
	size_t nlen;

	*pos = 1;
	*err = KMARK_KPE_NO_EVENT_NAME;
	if (line[1] != ':' || !*tok || isspace(*tok))
		return -EINVAL;
	while (*end && !isspace(*end))
		end++;
	slash = memchr(tok, '/', end - tok);
	*pos = 2;
	*err = KMARK_KPE_NO_SUCH_EVENT;
	if (slash && slash - tok >= sizeof(grp))
		return -EINVAL;
	if (slash) {
		memcpy(grp, tok, slash - tok);
		grp[slash - tok] = '\0';
		nm = slash + 1;
	}
	nlen = end - nm;	/* 0: "-:GRP/", every event of GRP */
	list_for_each_entry(m, &kmark_markers, list) {
		if (!kmark_is_kprobe(m) || strcmp(m->system, grp) ||
		    (nlen && (strlen(m->name) != nlen ||
			      strncmp(m->name, nm, nlen))))
			continue;
		ev = to_tk(m);
		if (kmark_kprobe_all_doomed(ev, w))
			continue;
		if (kmark_marker_recording(m)) {
			*err = KMARK_KPE_EVENT_BUSY;
			return -EBUSY;
		}
		list_for_each_entry(tk, &ev->probes, probe_node) {
			if (!tk->doomed && kmark_kprobe_match(tk, end)) {
				tk->doomed = true;
				hit++;
			}
		}
		for (i = 0; i < w->nadd; i++) {
			tk = w->add[i];
			if (tk->ev == ev && tk != ev && !tk->doomed &&
			    kmark_kprobe_match(tk, end)) {
				tk->doomed = true;
				hit++;
			}
		}
	}
	*err = KMARK_KPE_NO_SUCH_EVENT;
	return hit ? 0 : -EINVAL;
}

/*
 * Run the commands in @buf (one per line), after deleting every kprobe
 * event if @truncate (and, with @also, the other dynamic events too). All
 * or nothing: every line is parsed, every new probe registered (disabled)
 * and given its id before anything is deleted or added; only then are the
 * deletions and additions made, which cannot fail. On error, *err_line
 * points at the failing line for error_log.
 */
static int kmark_kprobe_run(char *buf, bool truncate,
			    const struct kmark_dyn_also *also,
			    const char **err_line, int *err, unsigned int *pos)
{
	struct kmark_kp_write *w;
	struct kmark_kprobe *heir, *ev, *tk, *tn;
	unsigned int nlines = 0, ids = 0, i, j;
	struct kmark_marker *m, *n;
	char *line, *next = buf;
	LIST_HEAD(dead);
	int ret = 0;

	*err_line = buf;
	*pos = 0;
	w = kzalloc(sizeof(*w), GFP_KERNEL);
	if (!w) {
		*err = KMARK_KPE_NOMEM;
		return -ENOMEM;
	}
	mutex_lock(&kmark_mutex);
	if (truncate) {
		if (kmark_kprobe_any_busy()) {
			*err = KMARK_KPE_SOME_BUSY;
			ret = -EBUSY;
			goto undo;
		}
		if (also && also->busy()) {
			*err = KMARK_KPE_OTHERS_BUSY;
			ret = -EBUSY;
			goto undo;
		}
		list_for_each_entry(m, &kmark_markers, list)
			if (kmark_is_kprobe(m))
				list_for_each_entry(tk, &to_tk(m)->probes,
						    probe_node)
					tk->doomed = true;
	}
	while ((line = strsep(&next, "\n")) != NULL) {
		char *c = strchr(line, '#');

		if (c)
			*c = '\0';
		line = strim(line);
		if (!*line)
			continue;
		*err_line = line;
		*pos = 0;
		if (++nlines > KMARK_KPROBE_MAX_LINES) {
			*err = KMARK_KPE_TOO_MANY_LINES;
			ret = -EINVAL;
			goto undo;
		}
		if (line[0] == '-') {
			ret = kmark_kprobe_doom(line, w, err, pos);
			if (ret)
				goto undo;
			continue;
		}
		ret = kmark_kprobe_parse(line, &w->add[w->nadd], err, pos);
		if (ret)
			goto undo;
		tk = w->add[w->nadd++];
		/*
		 * An event of that name: this probe joins it (multiprobe),
		 * unless the write deletes all of it, when this one is a new
		 * event in its place; one this write adds is joined too.
		 */
		ev = NULL;
		m = kmark_name_taken(tk->marker.system, tk->marker.name);
		if (m && !kmark_is_kprobe(m)) {
			*err = KMARK_KPE_MARKER_CLASH;
			*pos = tk->name_pos;
			ret = -EINVAL;
			goto undo;
		}
		if (m && !kmark_kprobe_all_doomed(to_tk(m), w))
			ev = to_tk(m);
		for (j = 0; !ev && j + 1 < w->nadd; j++)
			if (w->add[j]->ev == w->add[j] &&
			    !strcmp(w->add[j]->marker.system, tk->marker.system) &&
			    !strcmp(w->add[j]->marker.name, tk->marker.name))
				ev = w->add[j];
		if (ev) {
			*err = kmark_kprobe_append_check(ev, tk, w, line, pos);
			if (*err) {
				ret = -EINVAL;
				goto undo;
			}
			tk->ev = ev;
		}
		ret = security_locked_down(LOCKDOWN_KPROBES);
		if (ret) {
			*err = KMARK_KPE_LOCKED_DOWN;
			goto undo;
		}
		/* MOD:SYM of a module not loaded: armed when it is. */
		ret = tk->addr ? kmark_kprobe_register(tk, false) : 0;
		if (ret) {
			*err = ret == -EILSEQ ? KMARK_KPE_NOT_INSN_BOUNDARY :
				ret == -EINVAL ? KMARK_KPE_CANNOT_PROBE :
						 KMARK_KPE_REGISTER_FAILED;
			*pos = 0;
			while (line[*pos] && !isspace(line[*pos]))
				(*pos)++;
			while (isspace(line[*pos]))
				(*pos)++;
			ret = -EINVAL;
			goto undo;
		}
	}
	*err_line = buf;
	*pos = 0;
	for (ids = 0; ids < w->nadd; ids++) {
		if (w->add[ids]->ev != w->add[ids])
			continue;
		ret = kmark_dynamic_alloc_id(&w->add[ids]->marker);
		if (ret) {
			*err = ret == -ENOMEM ? KMARK_KPE_NOMEM :
						KMARK_KPE_NO_IDS;
			ret = -EINVAL;
			goto undo;
		}
	}
	/*
	 * Event files: a new event gets its own in every instance now, while
	 * failing still changes nothing; one that replaces a deleted event of
	 * the same name (same directory) gets them once that one is gone.
	 */
	for (i = 0; i < w->nadd; i++) {
		tk = w->add[i];
		if (tk->ev != tk)
			continue;
		m = kmark_name_taken(tk->marker.system, tk->marker.name);
		if (m) {	/* a kprobe event the write deletes */
			to_tk(m)->heir = tk;
			continue;
		}
		ret = kmark_event_files_add(&tk->marker);
		if (ret) {
			*err = KMARK_KPE_NOMEM;
			goto undo;
		}
	}
	/* From here on nothing fails. */
	if (truncate && also)
		also->remove_all();
	list_for_each_entry_safe(m, n, &kmark_markers, list) {
		if (!kmark_is_kprobe(m))
			continue;
		ev = to_tk(m);
		if (kmark_kprobe_all_doomed(ev, w)) {
			heir = ev->heir;
			kmark_kprobe_retire(ev, &dead);
			if (heir && kmark_event_files_add(&heir->marker))
				kmark_log_err_loc(kmark_top_inst, KMARK_KPROBE_LOC,
						  buf, 0,
						  "Out of memory: some events/SYS/NAME/ of the replaced event are missing");
			continue;
		}
		/*
		 * Some of its probes go, the event stays: each deleted one
		 * goes as an event of its own; its first probe, which holds
		 * the event, is only unregistered.
		 */
		list_for_each_entry_safe(tk, tn, &ev->probes, probe_node) {
			if (!tk->doomed)
				continue;
			tk->doomed = false;
			list_del(&tk->probe_node);
			if (tk == ev) {
				INIT_LIST_HEAD(&ev->probe_node);
				if (ev->registered)
					kmark_kprobe_unregister(ev);
				continue;
			}
			/* Not to hit with ->ev changed: unregistered now. */
			if (tk->registered)
				kmark_kprobe_unregister(tk);
			tk->ev = tk;
			list_add(&tk->probe_node, &tk->probes);
			list_add_tail(&tk->marker.list, &dead);
		}
	}
	for (i = 0; i < w->nadd; i++) {
		tk = w->add[i];
		if (tk->ev == tk) {
			kmark_dynamic_link(&tk->marker);
		} else if (tk->doomed) {	/* deleted by the same write */
			tk->ev = tk;
			list_add_tail(&tk->marker.list, &dead);
		} else {
			list_move_tail(&tk->probe_node, &tk->ev->probes);
			if (kmark_marker_recording(&tk->ev->marker))
				kmark_kprobe_arm_one(tk);
		}
	}
	mutex_unlock(&kmark_mutex);
	kfree(w);
	kmark_kprobe_free_list(&dead);
	return 0;
undo:
	for (i = 0; i < w->nadd; i++)
		if (w->add[i]->ev == w->add[i])
			kmark_event_files_remove(&w->add[i]->marker);
	for (i = 0; i < ids; i++)
		if (w->add[i]->ev == w->add[i])
			kmark_dynamic_free_id(&w->add[i]->marker);
	list_for_each_entry(m, &kmark_markers, list) {
		if (!kmark_is_kprobe(m))
			continue;
		to_tk(m)->heir = NULL;
		list_for_each_entry(tk, &to_tk(m)->probes, probe_node)
			tk->doomed = false;
	}
	mutex_unlock(&kmark_mutex);
	for (i = 0; i < w->nadd; i++) {
		w->add[i]->ev = w->add[i];
		list_add_tail(&w->add[i]->marker.list, &dead);
	}
	kfree(w);
	kmark_kprobe_free_list(&dead);
	return ret;
}

/* --- kprobe_events, kprobe_profile ------------------------------------------------- */

static void kmark_kprobe_log(const char *line, int err, unsigned int pos)
{
	kmark_log_err_loc(kmark_top_inst, KMARK_KPROBE_LOC, line, pos,
			  kmark_kprobe_err_text(err));
}

/*
 * One open of kprobe_events. As with set_event, "> kprobe_events" does not
 * delete at open: the deletion is part of the first write (so a write that
 * fails deletes nothing), or happens at close if nothing was written.
 */
/**
 * kmark_kprobe_command - run a write of kprobe_events or dynamic_events
 * @buf:	its commands, one per line (changed in place)
 * @truncate:	the file's first write after "> FILE": every kprobe event
 *		there before goes too (if the write succeeds)
 * @also:	the other dynamic events "> dynamic_events" deletes, or NULL
 *
 * A failure goes to error_log. Return: 0 or an error; a failed write
 * changed nothing.
 */
int kmark_kprobe_command(char *buf, bool truncate,
			 const struct kmark_dyn_also *also)
{
	const char *err_line;
	unsigned int pos = 0;
	int err = 0, ret;

	ret = kmark_kprobe_run(buf, truncate, also, &err_line, &err, &pos);
	if (ret)
		kmark_kprobe_log(err_line, ret == -ENOMEM ? KMARK_KPE_NOMEM : err,
				 pos);
	return ret;
}

/**
 * kmark_kprobe_truncate - "> FILE" closed with nothing written
 * @what:	the command, for error_log ("> kprobe_events")
 * @also:	the other dynamic events it deletes too, or NULL
 *
 * Every kprobe event goes, unless one is enabled (nothing goes then).
 */
void kmark_kprobe_truncate(const char *what, const struct kmark_dyn_also *also)
{
	const char *line;
	unsigned int pos;
	char empty[1] = "";
	int err;

	if (kmark_kprobe_run(empty, true, also, &line, &err, &pos) == -EBUSY)
		kmark_kprobe_log(what, err, pos);
}

static ssize_t kmark_kprobe_events_write(struct file *file,
					 const char __user *ubuf, size_t cnt,
					 loff_t *ppos)
{
	struct kmark_cmd_file *kpf = kmark_cmd_file(file);
	char *buf;
	int ret;

	if (cnt >= PAGE_SIZE) {
		kpf->failed = true;
		kmark_log_err_loc(kmark_top_inst, KMARK_KPROBE_LOC, "", 0,
				  KMARK_ERR_TOO_LONG);
		return -E2BIG;
	}
	buf = memdup_user_nul(ubuf, cnt);
	if (IS_ERR(buf)) {
		kpf->failed = true;
		return PTR_ERR(buf);
	}
	ret = kmark_kprobe_command(buf, kpf->truncate_pending, NULL);
	kfree(buf);
	if (ret) {
		kpf->failed = true;
		return ret;
	}
	kpf->truncate_pending = false;
	*ppos += cnt;
	return cnt;
}

/**
 * kmark_kprobe_def - a kprobe event's definition, as kprobe_events shows it
 * @s:		output: "p:kprobes/myopen do_sys_openat2+0 dfd=$arg1:s32"
 * @mk:		an event
 *
 * For the flight recorder, which keeps the definitions of what a
 * boot-mapped instance recorded. Under kmark_mutex.
 *
 * Return: false if @mk is not a kprobe event (nothing written).
 */
bool kmark_kprobe_def(struct seq_buf *s, struct kmark_marker *mk)
{
	struct kmark_kprobe *tk;
	unsigned int i;

	if (!kmark_is_kprobe(mk))
		return false;
	tk = to_tk(mk);
	seq_buf_putc(s, tk->is_return ? 'r' : 'p');
	if (tk->is_return && tk->maxactive_set)
		seq_buf_printf(s, "%d", tk->rp.maxactive);
	seq_buf_printf(s, ":%s/%s ", mk->system, mk->name);
	if (tk->symbol && tk->module)
		seq_buf_printf(s, "%s:%s+%lu", tk->module, tk->symbol, tk->offset);
	else if (tk->symbol)
		seq_buf_printf(s, "%s+%lu", tk->symbol, tk->offset);
	else
		seq_buf_printf(s, "0x%lx", tk->addr);
	for (i = 0; i < tk->nr_args; i++)
		seq_buf_printf(s, " %s", tk->args[i].text);
	return true;
}

/* The definition in kprobe_events syntax: "p:kprobes/myopen do_sys_openat2+0 ..." */
static void kmark_kp_show_one(struct seq_file *m, struct kmark_kprobe *ev,
			      struct kmark_kprobe *tk)
{
	struct kmark_marker *mk = &ev->marker;
	unsigned int i;

	seq_putc(m, tk->is_return ? 'r' : 'p');
	if (tk->is_return && tk->maxactive_set)
		seq_printf(m, "%d", tk->rp.maxactive);
	seq_printf(m, ":%s/%s ", mk->system, mk->name);
	if (tk->symbol && tk->module)
		seq_printf(m, "%s:%s+%lu", tk->module, tk->symbol, tk->offset);
	else if (tk->symbol)
		seq_printf(m, "%s+%lu", tk->symbol, tk->offset);
	else
		seq_printf(m, "0x%lx", tk->addr);
	for (i = 0; i < tk->nr_args; i++)
		seq_printf(m, " %s=%s", tk->args[i].name, tk->args[i].text);
	/* The state, as a comment: the line still defines the probe. */
	if (kmark_kprobe_waiting(tk))
		seq_printf(m, " # not armed: module %s is not loaded", tk->module);
	else if (kmark_kprobe_gone(tk))
		seq_puts(m, " # gone: its code was freed (an __init function)");
	seq_putc(m, '\n');
}

/**
 * kmark_kprobe_show_def - a kprobe event's lines in kprobe_events
 * @m:		the file
 * @mk:		an event
 *
 * One line per probe, as ftrace lists a multiprobe event. Return: false
 * if @mk is not a kprobe event (nothing written).
 */
bool kmark_kprobe_show_def(struct seq_file *m, struct kmark_marker *mk)
{
	struct kmark_kprobe *tk;

	if (!kmark_is_kprobe(mk))
		return false;
	list_for_each_entry(tk, &to_tk(mk)->probes, probe_node)
		kmark_kp_show_one(m, to_tk(mk), tk);
	return true;
}

static int kmark_kp_show(struct seq_file *m, void *v)
{
	kmark_kprobe_show_def(m, list_entry(v, struct kmark_marker, list));
	return 0;
}

/* "  EVENT  hits  misses", an event's probes together. */
static int kmark_kp_profile_show(struct seq_file *m, void *v)
{
	struct kmark_marker *mk = list_entry(v, struct kmark_marker, list);
	unsigned long hits = 0, misses = 0;
	struct kmark_kprobe *tk;
	int cpu;

	if (!kmark_is_kprobe(mk))
		return 0;
	list_for_each_entry(tk, &to_tk(mk)->probes, probe_node) {
		for_each_possible_cpu(cpu)
			hits += *per_cpu_ptr(tk->nhit, cpu);
		misses += tk->rp.kp.nmissed +
			  (tk->is_return ? tk->rp.nmissed : 0);
	}
	seq_printf(m, "  %-44s %15lu %15lu\n", mk->name, hits, misses);
	return 0;
}

static const struct seq_operations kmark_kp_seq_ops = {
	.start = kmark_markers_start,
	.next = kmark_markers_next,
	.stop = kmark_markers_stop,
	.show = kmark_kp_show,
};

static const struct seq_operations kmark_kp_profile_seq_ops = {
	.start = kmark_markers_start,
	.next = kmark_markers_next,
	.stop = kmark_markers_stop,
	.show = kmark_kp_profile_show,
};

static const char *kmark_kprobe_trunc_busy(void)
{
	return kmark_kprobe_any_busy() ?
	       kmark_kprobe_err_text(KMARK_KPE_SOME_BUSY) : NULL;
}

static void kmark_kprobe_trunc_clear(void)
{
	kmark_kprobe_truncate("> kprobe_events", NULL);
}

static const struct kmark_cmd_ops kmark_kprobe_cmd_ops = {
	.seq = &kmark_kp_seq_ops,
	.busy = kmark_kprobe_trunc_busy,
	.loc = KMARK_KPROBE_LOC,
	.what = "> kprobe_events",
	.clear = kmark_kprobe_trunc_clear,
};

static int kmark_kprobe_events_open(struct inode *inode, struct file *file)
{
	return kmark_cmd_open(file, &kmark_kprobe_cmd_ops);
}

static int kmark_kprobe_events_release(struct inode *inode, struct file *file)
{
	return kmark_cmd_release(inode, file, &kmark_kprobe_cmd_ops);
}

static const struct file_operations kmark_kprobe_events_fops = {
	.open = kmark_kprobe_events_open,
	.read = seq_read,
	.write = kmark_kprobe_events_write,
	.llseek = seq_lseek,
	.release = kmark_kprobe_events_release,
};

static int kmark_kprobe_profile_open(struct inode *inode, struct file *file)
{
	int ret = security_locked_down(LOCKDOWN_TRACEFS);

	return ret ? ret : seq_open(file, &kmark_kp_profile_seq_ops);
}

static const struct file_operations kmark_kprobe_profile_fops = {
	.open = kmark_kprobe_profile_open,
	.read = seq_read,
	.llseek = seq_lseek,
	.release = seq_release,
};

int __init kmark_kprobe_create_files(const struct kmark_dir *dir)
{
	return kmark_fs_file("kprobe_events", 0600, dir, NULL,
			     &kmark_kprobe_events_fops) ||
	       kmark_fs_file("kprobe_profile", 0400, dir, NULL,
			     &kmark_kprobe_profile_fops) ? -ENOMEM : 0;
}

/* --- kmark_kprobe= ------------------------------------------------------------------ */

static char kmark_boot_kprobes[COMMAND_LINE_SIZE] __initdata;

/* As ftrace's kprobe_event=: ',' stands for ' ' and ';' separates probes. */
static int __init kmark_kprobe_setup(char *str)
{
	strscpy(kmark_boot_kprobes, str, sizeof(kmark_boot_kprobes));
	strreplace(kmark_boot_kprobes, ',', ' ');
	strreplace(kmark_boot_kprobes, ';', '\n');
	return 1;
}
__setup("kmark_kprobe=", kmark_kprobe_setup);

static int __init kmark_kprobe_boot(void)
{
	const char *line;
	unsigned int pos = 0;
	int err = 0, ret;

#ifdef CONFIG_MODULES
	ret = register_module_notifier(&kmark_kprobe_module_nb);
	if (ret)
		pr_err("no module notifier (%d): probes in modules are not armed again\n",
		       ret);
#endif

	if (!kmark_boot_kprobes[0])
		goto out;
	ret = kmark_kprobe_run(kmark_boot_kprobes, false, NULL, &line, &err,
			       &pos);
	if (ret) {
		if (ret == -ENOMEM)
			err = KMARK_KPE_NOMEM;
		pr_err("kmark_kprobe=: '%s': %s\n", line,
		       kmark_kprobe_err_text(err));
		kmark_kprobe_log(line, err, pos);
	}
out:
	kmark_boot_events_retry();
	return 0;
}

/* After kprobes are up; kmark_event= names of these probes are applied here. */
fs_initcall(kmark_kprobe_boot);

// SPDX-License-Identifier: GPL-2.0
/*
 * kmark: static markers, the core.
 *
 * At boot, kmark_init() walks the "__kmark_sites" section (one pointer per
 * kmark() call site), sorts the sites by system and name and builds one
 * struct kmark_marker per (system, name), with the site's format parsed
 * once into a layout. Sites of one marker must share the format; a site
 * that does not is left disabled and reported.
 *
 *   kmark(name, fmt, ...)                     probes (RCU-sched array)
 *   +------------------------+               +------------------------+
 *   | static key (NOP)  ---->|-- enabled --> | kmark_record_probe     |
 *   | pack args (C types)    |  arg block    | in-kernel users ...    |
 *   | __kmark_hit(site, &a)  |               |                        |
 *   +------------------------+               +------------------------+
 *
 * Each site describes its packed argument block with a table the compiler
 * built (struct kmark_arg); at boot the marker's format is parsed into a
 * struct kmark_layout and bound to that table, so that a record's fixed
 * part is the argument block itself. A site whose table disagrees with its
 * format (it cannot, unless -Wformat was defeated) stays off.
 *
 * A site's static key is on exactly while its marker has at least one
 * probe. Probes are added and removed under kmark_mutex by replacing the
 * whole array (RCU); __kmark_hit() reads it with preemption disabled.
 * Removing a probe never fails: without memory for a smaller array, the
 * probe's slot is pointed at a stub instead (as tracepoints do).
 */
#define pr_fmt(fmt) "kmark: " fmt

#include <linux/ctype.h>
#include <linux/glob.h>
#include <linux/init.h>
#include <linux/kprobes.h>
#include <linux/module.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/sort.h>
#include <linux/string.h>
#include <linux/unaligned.h>
#include <linux/xarray.h>
#include <asm/setup.h>
#include <kunit/static_stub.h>

#include "kmark_internal.h"

/*
 * kmark_mutex protects kmark_markers (the list and each marker's fields),
 * the probe arrays' updates, set_event state, kprobe events and the
 * buffer settings. Never taken on the recording path.
 */
DEFINE_MUTEX(kmark_mutex);
LIST_HEAD(kmark_markers);

/* id -> marker, for rendering records; read under RCU, written under kmark_mutex. */
static DEFINE_XARRAY_ALLOC1(kmark_ids);

/* --- the format parser ------------------------------------------------ */

/* %p extensions: the kernel's %px %pS %ps %pB. */
static bool kmark_p_ext_ok(char c)
{
	return c == 'x' || c == 'S' || c == 's' || c == 'B';
}

#define KMARK_P_EXT_ERR "Unsupported %p extension (use %p, %px, %pS, %ps or %pB)"

/*
 * "{NAME}LABEL=%" at @p: a field named otherwise than its label (ftrace's
 * sched_process_fork prints "comm=" for its field parent_comm), or
 * "{NAME}%": a field printed without a label (raw_syscalls' "NR %ld").
 * Return NAME's length, or 0 if @p does not start one (a brace of the
 * text).
 */
static unsigned int kmark_field_name_len(const char *p)
{
	const char *e = p + 1, *q;

	if (!isalpha(*e) && *e != '_')
		return 0;
	while (isalnum(*e) || *e == '_')
		e++;
	if (*e != '}')
		return 0;
	if (e[1] == '%' && e[2] != '%')
		return e - p - 1;
	for (q = e + 1; isalnum(*q) || *q == '_'; q++)
		;
	if (q == e + 1 || q[0] != '=' || q[1] != '%' || q[2] == '%')
		return 0;
	return e - p - 1;
}

/**
 * kmark_parse_format - parse a marker format into a layout
 * @fmt:	printf-style format
 * @err:	on failure, a message for the user
 * @err_pos:	on failure, the offset in @fmt the message is about
 *
 * The fields get their names, conversions and kinds; where they are in a
 * record (offset, size) is for kmark_layout_bind() or the kprobe code to
 * say, and kmark_layout_finish() completes the layout.
 *
 * Return: the layout (free with kmark_free_layout()), or an ERR_PTR.
 */
struct kmark_layout *kmark_parse_format(const char *fmt, const char **err,
					unsigned int *err_pos)
{
	struct kmark_layout *l;
	size_t flen = strlen(fmt);
	char *lit;
	unsigned int litlen = 0;
	const char *p = fmt;
	char name[KMARK_NAME_MAX] = "";
	int ret = -EINVAL;

	l = kzalloc(struct_size(l, fields, KMARK_MAX_FIELDS), GFP_KERNEL);
	lit = kmalloc(flen + 1, GFP_KERNEL);
	if (!l || !lit) {
		ret = -ENOMEM;
		*err = "Out of memory";
		*err_pos = 0;
		goto fail;
	}

	while (*p) {
		struct kmark_field *f;
		const char *start = p, *q;
		bool lng = false, llng = false;
		unsigned int nlen;

		/* "{NAME}LABEL=%...": the field is NAME, the text LABEL=. */
		nlen = *p == '{' ? kmark_field_name_len(p) : 0;
		if (nlen) {
			if (nlen >= KMARK_NAME_MAX) {
				*err = "Field name too long";
				goto fail_at;
			}
			memcpy(name, p + 1, nlen);
			name[nlen] = '\0';
			p += nlen + 2;
			continue;
		}
		if (*p != '%') {
			lit[litlen++] = *p++;
			continue;
		}
		if (p[1] == '%') {
			lit[litlen++] = '%';
			p += 2;
			continue;
		}
		if (l->nr_fields == KMARK_MAX_FIELDS) {
			*err = "Too many fields (at most 16)";
			goto fail_at;
		}
		f = &l->fields[l->nr_fields];
		q = p + 1;
		while (*q && strchr("-+ #0", *q))
			q++;
		while (isdigit(*q))
			q++;
		if (*q == '.') {
			q++;
			while (isdigit(*q))
				q++;
		}
		if (*q == '*' || (*q == '.' && q[1] == '*')) {
			*err = "'*' width or precision is not supported";
			goto fail_at;
		}
		if (q[0] == 'h') {
			q += q[1] == 'h' ? 2 : 1;
		} else if (q[0] == 'l' && q[1] == 'l') {
			llng = true;
			q += 2;
		} else if (*q == 'l' || *q == 'z' || *q == 't') {
			lng = true;
			q++;
		}
		switch (*q) {
		case 'd': case 'i': case 'u': case 'x': case 'X': case 'o':
		case 'c':
			f->kind = KMARK_FIELD_INT;
			f->conv_arg = llng ? KMARK_CONV_LLONG :
				      lng ? KMARK_CONV_LONG : KMARK_CONV_INT;
			f->is_signed = *q == 'd' || *q == 'i';
			q++;
			break;
		case 's':
			if (lng || llng) {
				*err = "Wide strings are not supported";
				goto fail_at;
			}
			f->kind = KMARK_FIELD_STR;
			f->conv_arg = KMARK_CONV_STR;
			q++;
			break;
		case 'p':
			if (lng || llng) {
				*err = "Bad length modifier for %p";
				goto fail_at;
			}
			f->kind = KMARK_FIELD_PTR;
			f->conv_arg = KMARK_CONV_PTR;
			q++;
			if (isalnum(*q)) {
				if (!kmark_p_ext_ok(*q) || isalnum(q[1])) {
					*err = KMARK_P_EXT_ERR;
					goto fail_at;
				}
				q++;
			}
			break;
		case '\0':
			*err = "Incomplete conversion at the end of the format";
			goto fail_at;
		default:
			*err = "Unsupported conversion";
			p = q;
			goto fail_at;
		}
		if (q - start >= KMARK_CONV_MAX) {
			*err = "Conversion too long";
			goto fail_at;
		}
		memcpy(f->conv, start, q - start);
		f->conv[q - start] = '\0';

		/*
		 * The field name is the one given in braces before its label,
		 * or the word before "=", if there is one.
		 */
		if (name[0]) {
			strscpy(f->name, name, sizeof(f->name));
			name[0] = '\0';
		} else if (start > fmt && start[-1] == '=') {
			const char *e = start - 1, *b = e;

			while (b > fmt && (isalnum(b[-1]) || b[-1] == '_'))
				b--;
			if (b < e && e - b < KMARK_NAME_MAX)
				memcpy(f->name, b, e - b);
		}
		if (!f->name[0])
			snprintf(f->name, sizeof(f->name), "arg%u", l->nr_fields);

		lit[litlen] = '\0';
		f->prefix = kstrdup(lit, GFP_KERNEL);
		if (!f->prefix) {
			ret = -ENOMEM;
			*err = "Out of memory";
			goto fail_at;
		}
		litlen = 0;
		l->nr_fields++;
		p = q;
	}
	lit[litlen] = '\0';
	l->suffix = kstrdup(lit, GFP_KERNEL);
	if (!l->suffix) {
		ret = -ENOMEM;
		*err = "Out of memory";
		*err_pos = 0;
		goto fail;
	}
	kfree(lit);
	return l;

fail_at:
	*err_pos = p - fmt;
fail:
	kfree(lit);
	kmark_free_layout(l);
	return ERR_PTR(ret);
}

/* Bytes a conversion's argument takes once promoted. */
static unsigned int kmark_conv_size(const struct kmark_field *f)
{
	switch (f->conv_arg) {
	case KMARK_CONV_INT:
		return sizeof(int);
	case KMARK_CONV_LONG:
		return sizeof(long);
	case KMARK_CONV_LLONG:
		return sizeof(long long);
	default:
		return sizeof(void *);
	}
}

/* A plain %p: what a kmark_task_state() argument takes. */
static bool kmark_plain_ptr(const struct kmark_field *f)
{
	size_t n = strlen(f->conv);

	return f->kind == KMARK_FIELD_PTR && n && f->conv[n - 1] == 'p';
}

/*
 * Whether argument @a of a site fits field @f, which the first site bound
 * (@first: this site is the first) or nobody did yet.
 */
static const char *kmark_arg_check(const struct kmark_field *f,
				   const struct kmark_arg *a, bool first,
				   unsigned int args_size)
{
	bool ptr = a->class == KMARK_ARG_PTR || a->class == KMARK_ARG_CHARP;
	bool num = a->class == KMARK_ARG_SIGNED ||
		   a->class == KMARK_ARG_UNSIGNED;

	if (a->class == KMARK_ARG_COMM) {
		/* kmark_comm(): the comm inline, ftrace's char[16]. */
		if (a->size != TASK_COMM_LEN ||
		    (f->kind != KMARK_FIELD_STR && f->kind != KMARK_FIELD_CHARS))
			return "an argument does not match its conversion";
		if (!first && f->kind != KMARK_FIELD_CHARS)
			return "kmark_comm() where the first site passes a string";
	} else if (a->class == KMARK_ARG_STATE) {
		/* kmark_task_state(): a long, printed as ftrace's prev_state. */
		if (a->size != sizeof(long) || !kmark_plain_ptr(f))
			return "kmark_task_state() for a conversion other than %p";
		if (!first && f->conv_arg != KMARK_CONV_TASK_STATE)
			return "kmark_task_state() where the first site passes a pointer";
	} else if (a->size != kmark_conv_size(f) ||
		   (f->kind == KMARK_FIELD_INT ? !num : !ptr) ||
		   f->kind == KMARK_FIELD_CHARS ||
		   f->conv_arg == KMARK_CONV_TASK_STATE) {
		return "an argument does not match its conversion";
	}
	if (a->offset + a->size > args_size)
		return "an argument lies outside the argument block";
	if (!first && f->offset != KMARK_HDR_SIZE + a->offset)
		return "its arguments are packed unlike the first site's";
	return NULL;
}

/* The first site places field @f where it packs argument @a. */
static void kmark_field_place(struct kmark_field *f, const struct kmark_arg *a)
{
	if (a->class == KMARK_ARG_COMM) {
		f->kind = KMARK_FIELD_CHARS;
		f->type = "char";
		f->conv_arg = KMARK_CONV_STR;
	} else if (a->class == KMARK_ARG_STATE) {
		f->conv_arg = KMARK_CONV_TASK_STATE;
		f->is_signed = true;
		f->type = "long";
	}
	f->offset = KMARK_HDR_SIZE + a->offset;
	f->size = f->kind == KMARK_FIELD_STR ? sizeof(u32) : a->size;
}

/**
 * kmark_layout_bind - place a marker's fields where its site packs them
 * @l:		the marker's layout, from kmark_parse_format()
 * @site:	a site of the marker
 *
 * The compiler has checked the arguments against the format already
 * (-Wformat is an error at a kmark() site); this is the same check once
 * more, on the table the compiler built, so that a site that escaped it
 * (another compiler, a hand-made site) can never make the recorder read a
 * string from an integer. The first site sets the offsets (and the kinds
 * that kmark_comm() and kmark_task_state() give); every further site of
 * the marker must pack its arguments the same way. A site that does not
 * fit changes nothing, the first one included.
 *
 * Return: NULL, or why @site does not fit.
 */
const char *kmark_layout_bind(struct kmark_layout *l,
			      const struct kmark_site *site)
{
	bool first = !l->size;
	const char *why;
	unsigned int i;

	if (site->nr_args != l->nr_fields)
		return "the number of arguments is not the format's";
	if (site->nr_args && !site->args)
		return "no argument table";
	for (i = 0; i < l->nr_fields; i++) {
		why = kmark_arg_check(&l->fields[i], &site->args[i], first,
				      site->args_size);
		if (why)
			return why;
	}
	if (!first)
		return l->size == KMARK_HDR_SIZE + site->args_size ? NULL :
		       "its argument block differs from the first site's";
	for (i = 0; i < l->nr_fields; i++)
		kmark_field_place(&l->fields[i], &site->args[i]);
	l->size = KMARK_HDR_SIZE + site->args_size;
	return NULL;
}

/*
 * The C type of an integer conversion; a signed int named pid or *_pid is
 * a pid_t, as the kernel's events declare their pids (tools that compare
 * formats with ftrace's see the same type).
 */
static const char *kmark_int_type(const struct kmark_field *f)
{
	static const char * const names[][2] = {
		[KMARK_CONV_INT] = { "unsigned int", "int" },
		[KMARK_CONV_LONG] = { "unsigned long", "long" },
		[KMARK_CONV_LLONG] = { "unsigned long long", "long long" },
	};
	size_t len = strlen(f->name);

	if (f->conv_arg == KMARK_CONV_INT && f->is_signed &&
	    (!strcmp(f->name, "pid") ||
	     (len > 4 && !strcmp(f->name + len - 4, "_pid"))))
		return "pid_t";
	return names[f->conv_arg][f->is_signed];
}

/**
 * kmark_layout_finish - complete a layout whose fields are placed
 * @l:	the layout
 *
 * Lists the string fields and gives each field without a type the C type
 * its conversion implies.
 */
void kmark_layout_finish(struct kmark_layout *l)
{
	unsigned int i;

	l->nr_str = 0;
	for (i = 0; i < l->nr_fields; i++) {
		struct kmark_field *f = &l->fields[i];

		if (f->kind == KMARK_FIELD_STR)
			l->str[l->nr_str++] = i;
		if (f->type)
			continue;
		if (f->kind == KMARK_FIELD_STR)
			f->type = "__data_loc char[]";
		else if (f->kind == KMARK_FIELD_PTR)
			f->type = "void *";
		else
			f->type = kmark_int_type(f);
	}
	if (l->size < KMARK_HDR_SIZE)
		l->size = KMARK_HDR_SIZE;
}

void kmark_free_layout(struct kmark_layout *l)
{
	unsigned int i;

	if (IS_ERR_OR_NULL(l))
		return;
	for (i = 0; i < KMARK_MAX_FIELDS; i++)
		kfree(l->fields[i].prefix);
	kfree(l->suffix);
	kfree(l);
}

/* --- markers and probes ----------------------------------------------- */

const char *kmark_marker_name(const struct kmark_marker *m)
{
	return m->name;
}
EXPORT_SYMBOL_GPL(kmark_marker_name);

const char *kmark_marker_format(const struct kmark_marker *m)
{
	return m->format;
}
EXPORT_SYMBOL_GPL(kmark_marker_format);

/* The live marker @system:@name (@system NULL: the only one so named). */
struct kmark_marker *kmark_find_marker(const char *system, const char *name)
{
	struct kmark_marker *m, *found = NULL;

	lockdep_assert_held(&kmark_mutex);
	list_for_each_entry(m, &kmark_markers, list) {
		if (strcmp(m->name, name))
			continue;
		if (system && !strcmp(m->system, system))
			return m;
		if (!system) {
			if (found)
				return ERR_PTR(-ENOTUNIQ);
			found = m;
		}
	}
	return found;
}

/*
 * A marker named "SYSTEM:NAME" or "NAME" (unique), for the probe API and
 * KUnit: NULL if none, ERR_PTR(-ENOTUNIQ) if "NAME" is in several systems.
 */
struct kmark_marker *kmark_find_marker_any(const char *name)
{
	char sys[KMARK_NAME_MAX];
	const char *colon = strchr(name, ':');

	lockdep_assert_held(&kmark_mutex);
	if (!colon)
		return kmark_find_marker(NULL, name);
	if (colon - name >= sizeof(sys))
		return NULL;
	memcpy(sys, name, colon - name);
	sys[colon - name] = '\0';
	return kmark_find_marker(sys, colon + 1);
}

/* Caller holds rcu_read_lock() (or preemption off) or kmark_mutex. */
struct kmark_marker *kmark_marker_by_id(u16 id)
{
	return xa_load(&kmark_ids, id);
}

/*
 * kmark_arg_value - an integer or pointer argument, as a probe sees it
 * @m:		the marker that fired
 * @args:	the argument block the probe was given
 * @i:		the argument's index (in format order)
 *
 * Return: the value, sign- or zero-extended as its conversion says; 0 for
 * a string or an index out of range.
 */
u64 kmark_arg_value(const struct kmark_marker *m, const void *args,
		    unsigned int i)
{
	const struct kmark_field *f;

	if (i >= m->layout->nr_fields)
		return 0;
	f = &m->layout->fields[i];
	if (f->kind == KMARK_FIELD_STR || f->kind == KMARK_FIELD_CHARS)
		return 0;
	/* The block is a record without its header. */
	return kmark_field_value(f, (const u8 *)args - KMARK_HDR_SIZE);
}
EXPORT_SYMBOL_GPL(kmark_arg_value);

/**
 * kmark_arg_str - a string argument, as a probe sees it
 * @m:		the marker that fired
 * @args:	the argument block the probe was given
 * @i:		the argument's index (in format order)
 *
 * Return: the string (valid while the probe runs; "(null)" for NULL), or
 * NULL if argument @i is not a string.
 */
const char *kmark_arg_str(const struct kmark_marker *m, const void *args,
			  unsigned int i)
{
	const struct kmark_field *f;
	const char *str;

	if (i >= m->layout->nr_fields)
		return NULL;
	f = &m->layout->fields[i];
	if (f->kind == KMARK_FIELD_CHARS)	/* kmark_comm(): inline */
		return (const char *)args + f->offset - KMARK_HDR_SIZE;
	if (f->kind != KMARK_FIELD_STR)
		return NULL;
	str = get_unaligned((const char * const *)((const u8 *)args +
						   f->offset - KMARK_HDR_SIZE));
	return str ?: "(null)";
}
EXPORT_SYMBOL_GPL(kmark_arg_str);

/* rcu_is_watching(), out of line while a KUnit test runs: it can stub it. */
bool notrace kmark_rcu_watching_kunit(void)
{
	KUNIT_STATIC_STUB_REDIRECT(kmark_rcu_watching_kunit);
	return rcu_is_watching();
}
NOKPROBE_SYMBOL(kmark_rcu_watching_kunit);

static __always_inline bool kmark_rcu_watching(void)
{
#if IS_ENABLED(CONFIG_KUNIT)
	/* A static branch (a NOP) while no KUnit test runs. */
	if (static_branch_unlikely(&kunit_running) && current->kunit_test)
		return kmark_rcu_watching_kunit();
#endif
	return rcu_is_watching();
}

/*
 * Hits of a recorded marker where RCU does not watch: counted here, in
 * memory that is never freed, since no instance may be touched then (one
 * could be being freed). Every instance's readers report them as lost on
 * that CPU (kmark_dropped()): more than its own, never fewer.
 */
static DEFINE_PER_CPU(unsigned long, kmark_unwatched);

unsigned long kmark_unwatched_drops(int cpu)
{
	return READ_ONCE(per_cpu(kmark_unwatched, cpu));
}

/**
 * __kmark_hit - a marker site fired (called from kmark() only)
 * @site:	the site
 * @args:	its packed arguments (NULL when there are none)
 *
 * Hands the arguments to every probe of the site's marker. Where RCU does
 * not watch this CPU (deep in the idle path, early in an NMI), the probes
 * cannot run safely: the hit is counted as dropped instead, so that the
 * loss shows.
 */
void notrace __kmark_hit(struct kmark_site *site, const void *args)
{
	struct kmark_marker *m = site->marker;
	struct kmark_probe_array *pa;
	unsigned int i;

	preempt_disable_notrace();
	/* As __DO_TRACE: no probe runs where RCU does not watch. */
	if (unlikely(!kmark_rcu_watching())) {
		/* m is never freed while a site of it can fire. */
		if (READ_ONCE(m->nr_attached))
			this_cpu_inc(kmark_unwatched);
		goto out;
	}
	pa = rcu_dereference_sched(m->probes);
	if (likely(pa)) {
		for (i = 0; i < pa->nr; i++) {
			kmark_probe_fn fn = READ_ONCE(pa->probes[i].func);

			/* Most hits go to kmark's recorder: call it directly. */
			if (likely(fn == kmark_record_probe))
				kmark_record_probe(pa->probes[i].data, m, args);
			else
				fn(pa->probes[i].data, m, args);
		}
	}
out:
	preempt_enable_notrace();
}
EXPORT_SYMBOL_GPL(__kmark_hit);
NOKPROBE_SYMBOL(__kmark_hit);

/**
 * kmark_marker_fire - hand an argument block to a marker's probes
 * @m:		the marker (a synthetic event: it has no sites)
 * @args:	the block, laid out as @m's sites would pack it
 *
 * Preemption off (the recording path: a hist trigger's action).
 */
void notrace kmark_marker_fire(struct kmark_marker *m, const void *args)
{
	struct kmark_probe_array *pa = rcu_dereference_sched(m->probes);
	unsigned int i;

	for (i = 0; pa && i < pa->nr; i++) {
		kmark_probe_fn fn = READ_ONCE(pa->probes[i].func);

		fn(pa->probes[i].data, m, args);
	}
}
NOKPROBE_SYMBOL(kmark_marker_fire);

static void kmark_set_keys(struct kmark_marker *m, bool on)
{
	unsigned int i;

	for (i = 0; i < m->nr_sites; i++) {
		if (on)
			static_branch_enable(&m->sites[i]->key);
		else
			static_branch_disable(&m->sites[i]->key);
	}
}

/* Stands in for a removed probe when there was no memory to shrink. */
static void kmark_probe_stub(void *data, struct kmark_marker *m,
			     const void *args)
{
}

static unsigned int kmark_live_probes(const struct kmark_probe_array *pa)
{
	unsigned int i, n = 0;

	for (i = 0; pa && i < pa->nr; i++)
		n += pa->probes[i].func != kmark_probe_stub;
	return n;
}

int __kmark_probe_register(struct kmark_marker *m, kmark_probe_fn probe,
			   void *data)
{
	struct kmark_probe_array *old, *new;
	unsigned int i, j, n;

	lockdep_assert_held(&kmark_mutex);
	old = rcu_dereference_protected(m->probes,
					lockdep_is_held(&kmark_mutex));
	n = old ? old->nr : 0;
	for (i = 0; i < n; i++)
		if (old->probes[i].func == probe && old->probes[i].data == data)
			return -EEXIST;
	new = kmalloc(struct_size(new, probes, kmark_live_probes(old) + 1),
		      GFP_KERNEL);
	if (!new)
		return -ENOMEM;
	/* Stubs left by failed shrinks go now. */
	for (i = 0, j = 0; i < n; i++)
		if (old->probes[i].func != kmark_probe_stub)
			new->probes[j++] = old->probes[i];
	new->probes[j].func = probe;
	new->probes[j].data = data;
	new->nr = j + 1;
	rcu_assign_pointer(m->probes, new);
	if (!old)
		kmark_set_keys(m, true);
	else
		kfree_rcu(old, rcu);
	return 0;
}

/* Whether @m has @probe with @data. Under kmark_mutex. */
bool kmark_has_probe(struct kmark_marker *m, kmark_probe_fn probe,
			    void *data)
{
	struct kmark_probe_array *pa;
	unsigned int i;

	pa = rcu_dereference_protected(m->probes,
				       lockdep_is_held(&kmark_mutex));
	for (i = 0; pa && i < pa->nr; i++)
		if (pa->probes[i].func == probe && pa->probes[i].data == data)
			return true;
	return false;
}

/*
 * Detach @probe; cannot fail for lack of memory. Does not wait: a CPU may
 * still run @probe until a grace period has passed (the caller waits with
 * synchronize_rcu() when it has to, once for a batch).
 */
int __kmark_probe_unregister(struct kmark_marker *m, kmark_probe_fn probe,
			     void *data)
{
	struct kmark_probe_array *old, *new = NULL;
	unsigned int i, j, n, live;

	lockdep_assert_held(&kmark_mutex);
	old = rcu_dereference_protected(m->probes,
					lockdep_is_held(&kmark_mutex));
	n = old ? old->nr : 0;
	for (i = 0; i < n; i++)
		if (old->probes[i].func == probe && old->probes[i].data == data)
			break;
	if (i == n)
		return -ENOENT;
	live = kmark_live_probes(old) - 1;
	if (live) {
		new = kmalloc(struct_size(new, probes, live), GFP_KERNEL);
		if (!new) {
			/* Readers see the probe or the stub: both are safe. */
			WRITE_ONCE(old->probes[i].func, kmark_probe_stub);
			return 0;
		}
		for (i = 0, j = 0; i < n; i++)
			if (old->probes[i].func != kmark_probe_stub &&
			    (old->probes[i].func != probe ||
			     old->probes[i].data != data))
				new->probes[j++] = old->probes[i];
		new->nr = j;
	} else {
		kmark_set_keys(m, false);
	}
	rcu_assign_pointer(m->probes, new);
	kfree_rcu(old, rcu);
	return 0;
}

/**
 * kmark_probe_register - attach a probe to a marker
 * @name:	"SYSTEM:NAME", or "NAME" when no other system has that name
 * @format:	the marker's format as the probe expects it, or NULL for any
 * @probe:	called each time the marker fires
 * @data:	passed to @probe
 *
 * The first probe of a marker turns its sites on. The probe stays on that
 * very marker: if its module goes and another brings a marker of the same
 * name, that is another marker.
 *
 * Return: 0; -ENOENT if there is no such marker; -ENOTUNIQ if NAME is in
 * several systems; -EINVAL if @format is not the marker's; -EEXIST if
 * @probe with @data is attached already; -ENOMEM.
 */
int kmark_probe_register(const char *name, const char *format,
			 kmark_probe_fn probe, void *data)
{
	struct kmark_marker *m;
	int ret;

	mutex_lock(&kmark_mutex);
	m = kmark_find_marker_any(name);
	if (IS_ERR(m)) {
		ret = PTR_ERR(m);
	} else if (!m || m->ops) {
		ret = -ENOENT;
	} else if (format && strcmp(format, m->format)) {
		pr_notice("format mismatch for probe on %s: \"%s\", marker has \"%s\"\n",
			  name, format, m->format);
		ret = -EINVAL;
	} else {
		ret = __kmark_probe_register(m, probe, data);
	}
	mutex_unlock(&kmark_mutex);
	return ret;
}
EXPORT_SYMBOL_GPL(kmark_probe_register);

/**
 * kmark_probe_unregister - detach a probe from a marker
 * @name:	the name given to kmark_probe_register()
 * @probe:	the probe given to kmark_probe_register()
 * @data:	the data given to kmark_probe_register()
 *
 * Finds the probe on the marker it was attached to, whether that marker is
 * live or its module went (then the marker is kept, probe included, and
 * would be armed again if the module came back). Waits until no CPU runs
 * @probe any more, so that a module may call it from its exit function
 * and then go; the last probe of a marker turns its sites off. Never fails
 * for lack of memory. May sleep.
 *
 * Return: 0, or -ENOENT if the probe is not attached to a marker of that
 * name.
 */
int kmark_probe_unregister(const char *name, kmark_probe_fn probe, void *data)
{
	const char *colon = strchr(name, ':');
	const char *bare = colon ? colon + 1 : name;
	struct kmark_marker *m, *found = NULL;
	int ret = -ENOENT;

	mutex_lock(&kmark_mutex);
	list_for_each_entry(m, &kmark_markers, list) {
		if (!m->ops && !strcmp(m->name, bare) &&
		    kmark_has_probe(m, probe, data)) {
			found = m;
			break;
		}
	}
	if (!found && kmark_gone_has_probe(bare, probe, data, &m))
		found = m;
	if (found)
		ret = __kmark_probe_unregister(found, probe, data);
	mutex_unlock(&kmark_mutex);
	if (!ret)
		synchronize_rcu();
	return ret;
}
EXPORT_SYMBOL_GPL(kmark_probe_unregister);

/**
 * kmark_dynamic_alloc_id - give an event made at run time its id
 * @m:	the event (a kprobe event, a module's marker)
 *
 * Ids are given cyclically so that records of a deleted event are not
 * rendered as a newer one. The event is not in the namespace until
 * kmark_dynamic_link(); until then kmark_dynamic_free_id() undoes this.
 *
 * Return: 0, -ENOMEM, or -EBUSY when all 65535 ids are taken.
 */
int kmark_dynamic_alloc_id(struct kmark_marker *m)
{
	static u32 next_id;
	u32 id;
	int ret;

	lockdep_assert_held(&kmark_mutex);
	ret = xa_alloc_cyclic(&kmark_ids, &id, m, XA_LIMIT(1, U16_MAX),
			      &next_id, GFP_KERNEL);
	if (ret < 0)
		return ret;
	m->id = id;
	return 0;
}

void kmark_dynamic_free_id(struct kmark_marker *m)
{
	lockdep_assert_held(&kmark_mutex);
	xa_erase(&kmark_ids, m->id);
}

static int kmark_marker_cmp(const struct kmark_marker *a,
			    const struct kmark_marker *b)
{
	return strcmp(a->system, b->system) ?: strcmp(a->name, b->name);
}

/* Put @m into kmark_markers, sorted by system and name; cannot fail. */
void kmark_dynamic_link(struct kmark_marker *m)
{
	struct kmark_marker *pos;

	lockdep_assert_held(&kmark_mutex);
	list_for_each_entry(pos, &kmark_markers, list)
		if (kmark_marker_cmp(pos, m) > 0)
			break;
	list_add_tail(&m->list, &pos->list);
	kmark_pid_marker_added(m);
}

/* Take @m out of the namespace; the caller frees it after an RCU grace period. */
void kmark_dynamic_unlink(struct kmark_marker *m)
{
	lockdep_assert_held(&kmark_mutex);
	list_del(&m->list);
	xa_erase(&kmark_ids, m->id);
}

/* --- boot ------------------------------------------------------------- */

static char kmark_boot_events[COMMAND_LINE_SIZE] __initdata;

static int __init kmark_event_setup(char *str)
{
	strscpy(kmark_boot_events, str, sizeof(kmark_boot_events));
	return 1;
}
__setup("kmark_event=", kmark_event_setup);

/*
 * Order of an array of sites: by system and name, then by address, so that
 * the site of a marker placed first in the image (link order) is the one
 * whose format the marker takes, on every boot and every load of a module.
 */
int kmark_site_cmp(const void *a, const void *b)
{
	const struct kmark_site *sa = *(const struct kmark_site **)a;
	const struct kmark_site *sb = *(const struct kmark_site **)b;
	int ret = strcmp(sa->system, sb->system) ?: strcmp(sa->name, sb->name);

	if (ret)
		return ret;
	return sa < sb ? -1 : sa > sb;
}

static int __init kmark_add_marker(struct kmark_site **sites, unsigned int n)
{
	struct kmark_marker *m;
	const char *err = NULL;
	unsigned int err_pos = 0, i, kept = 0;
	u32 id;
	int ret;

	m = kzalloc(sizeof(*m), GFP_KERNEL);
	if (!m)
		return -ENOMEM;
	INIT_LIST_HEAD(&m->files);
	m->system = sites[0]->system;
	m->name = sites[0]->name;
	m->format = sites[0]->format;
	m->layout = kmark_parse_format(m->format, &err, &err_pos);
	if (IS_ERR(m->layout)) {
		pr_err("marker %s:%s: bad format \"%s\" at %u: %s; marker left out\n",
		       m->system, m->name, m->format, err_pos, err);
		kfree(m);
		return 0;
	}
	m->sites = kcalloc(n, sizeof(*m->sites), GFP_KERNEL);
	if (!m->sites)
		goto nomem;
	for (i = 0; i < n; i++) {
		const char *why;

		if (strcmp(sites[i]->format, m->format)) {
			pr_err("marker %s:%s: a site has format \"%s\" where the first has \"%s\"; that site stays off\n",
			       m->system, m->name, sites[i]->format, m->format);
			continue;
		}
		why = kmark_layout_bind(m->layout, sites[i]);
		if (why) {
			pr_err("marker %s:%s (%pS): %s; that site stays off\n",
			       m->system, m->name, sites[i], why);
			continue;
		}
		sites[i]->marker = m;
		m->sites[kept++] = sites[i];
	}
	if (!kept) {
		pr_err("marker %s:%s: no usable site; marker left out\n",
		       m->system, m->name);
		kfree(m->sites);
		kmark_free_layout(m->layout);
		kfree(m);
		return 0;
	}
	kmark_layout_finish(m->layout);
	m->nr_sites = kept;
	ret = xa_alloc(&kmark_ids, &id, m, XA_LIMIT(1, U16_MAX), GFP_KERNEL);
	if (ret)
		goto nomem;
	m->id = id;
	list_add_tail(&m->list, &kmark_markers);
	return 0;
nomem:
	kfree(m->sites);
	kmark_free_layout(m->layout);
	kfree(m);
	return -ENOMEM;
}

static bool kmark_boot_events_done __initdata;

static void __init kmark_boot_events_apply(bool last_try)
{
	const char *err;
	unsigned int pos;
	int ret;

	if (!kmark_boot_events[0] || kmark_boot_events_done)
		return;
	ret = kmark_set_event_apply(kmark_top_inst, kmark_boot_events, false,
				    &err, &pos);
	if (!ret) {
		kmark_boot_events_done = true;
		pr_info("enabled at boot: %s\n", kmark_boot_events);
	} else if (last_try || !IS_ENABLED(CONFIG_KMARK_KPROBES)) {
		kmark_boot_events_done = true;
		pr_err("kmark_event=%s: %s (at offset %u)\n",
		       kmark_boot_events, err, pos);
		kmark_log_err(kmark_top_inst, kmark_boot_events, pos, err);
	}
}

static int __init kmark_init(void)
{
	size_t n = __stop___kmark_sites - __start___kmark_sites;
	struct kmark_site **sites;
	struct kmark_marker *m;
	unsigned int i, j;
	int ret;

	/* The top instance, before any marker can be enabled. */
	ret = kmark_instance_init(kmark_top_inst);
	if (ret)
		return ret;
	sites = kmemdup(__start___kmark_sites, n * sizeof(*sites), GFP_KERNEL);
	if (!sites && n)
		return -ENOMEM;
	sort(sites, n, sizeof(*sites), kmark_site_cmp, NULL);

	mutex_lock(&kmark_mutex);
	kmark_top_inst->live = true;
	list_add_rcu(&kmark_top_inst->list, &kmark_instance_list);
	for (i = 0; i < n && !ret; i = j) {
		for (j = i + 1; j < n; j++)
			if (strcmp(sites[i]->system, sites[j]->system) ||
			    strcmp(sites[i]->name, sites[j]->name))
				break;
		ret = kmark_add_marker(sites + i, j - i);
	}
	/* The event files of the top instance (its directories come later). */
	list_for_each_entry(m, &kmark_markers, list) {
		kmark_pid_marker_added(m);
		if (!ret)
			ret = kmark_event_files_add(m);
	}
	mutex_unlock(&kmark_mutex);
	kfree(sites);
	if (ret)
		return ret;
	pr_info("%zu marker sites\n", n);

	kmark_boot_events_apply(false);
	return 0;
}
early_initcall(kmark_init);

/*
 * kmark_event= names kprobe events from kmark_kprobe= too, which exist only
 * once kprobes are up: if the early try failed, kmark_kprobe.c tries again
 * (and reports) from its fs_initcall.
 */
void __init kmark_boot_events_retry(void)
{
	kmark_boot_events_apply(true);
}

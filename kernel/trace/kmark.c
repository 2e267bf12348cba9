// SPDX-License-Identifier: GPL-2.0
/*
 * kmark: static markers, the core.
 *
 * At boot, kmark_init() walks the "__kmark_sites" section (one pointer per
 * kmark() call site), sorts the sites by name and builds one struct
 * kmark_marker per name, with the site's format parsed once into a layout.
 * Sites of one name must share the format; a site that does not is left
 * disabled and reported.
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

		/* The field name is the word before "=", if there is one. */
		if (start > fmt && start[-1] == '=') {
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

static const char *kmark_int_type(const struct kmark_field *f)
{
	static const char * const names[][2] = {
		[KMARK_CONV_INT] = { "unsigned int", "int" },
		[KMARK_CONV_LONG] = { "unsigned long", "long" },
		[KMARK_CONV_LLONG] = { "unsigned long long", "long long" },
	};

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

struct kmark_marker *kmark_find_marker(const char *name)
{
	struct kmark_marker *m;

	lockdep_assert_held(&kmark_mutex);
	list_for_each_entry(m, &kmark_markers, list)
		if (!strcmp(m->name, name))
			return m;
	return NULL;
}

/* Caller holds rcu_read_lock(); the marker lives until it is unlocked. */
struct kmark_marker *kmark_marker_by_name_rcu(const char *name)
{
	struct kmark_marker *m;
	unsigned long id;

	xa_for_each(&kmark_ids, id, m)
		if (!strcmp(m->name, name))
			return m;
	return NULL;
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
		if (READ_ONCE(m->recording))
			kmark_count_drop(m);
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
 * @name:	marker name
 * @format:	the marker's format as the probe expects it, or NULL for any
 * @probe:	called each time the marker fires
 * @data:	passed to @probe
 *
 * The first probe of a marker turns its sites on.
 *
 * Return: 0; -ENOENT if there is no such marker; -EINVAL if @format is not
 * the marker's; -EEXIST if @probe with @data is attached already; -ENOMEM.
 */
int kmark_probe_register(const char *name, const char *format,
			 kmark_probe_fn probe, void *data)
{
	struct kmark_marker *m;
	int ret;

	mutex_lock(&kmark_mutex);
	m = kmark_find_marker(name);
	if (!m || m->ops) {
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
 * @name:	marker name
 * @probe:	the probe given to kmark_probe_register()
 * @data:	the data given to kmark_probe_register()
 *
 * Waits until no CPU runs @probe any more, so that a module may call it
 * from its exit function and then go; the last probe of a marker turns its
 * sites off. Never fails for lack of memory. May sleep.
 *
 * Return: 0, or -ENOENT if the marker or the probe is not there.
 */
int kmark_probe_unregister(const char *name, kmark_probe_fn probe, void *data)
{
	struct kmark_marker *m;
	int ret;

	mutex_lock(&kmark_mutex);
	/* A marker whose module is gone keeps its probes: remove them too. */
	m = kmark_find_marker(name) ?: kmark_gone_marker(name);
	ret = m && !m->ops ? __kmark_probe_unregister(m, probe, data) : -ENOENT;
	mutex_unlock(&kmark_mutex);
	if (!ret)
		synchronize_rcu();
	return ret;
}
EXPORT_SYMBOL_GPL(kmark_probe_unregister);

/*
 * Attach or detach kmark's own recorder of instance @inst (what its
 * set_event controls): one probe per instance, whose data is the instance.
 * A kprobe event is armed while any instance records it; its handler
 * records into each of them. Turning recording off never fails.
 */
int kmark_set_recording(struct kmark_marker *m, struct kmark_instance *inst,
			bool on)
{
	unsigned long bit = BIT(inst->idx);
	int ret = 0;

	KUNIT_STATIC_STUB_REDIRECT(kmark_set_recording, m, inst, on);
	lockdep_assert_held(&kmark_mutex);
	if (!!(m->recording & bit) == on)
		return 0;
	if (on) {
		ret = kmark_buffer_ensure(inst);
		if (ret)
			return ret;
		if (m->ops)
			ret = m->recording ? 0 : m->ops->enable(m);
		else
			ret = __kmark_probe_register(m, kmark_record_probe, inst);
		if (ret)
			return ret;
		WRITE_ONCE(m->recording, m->recording | bit);
		return 0;
	}
	WRITE_ONCE(m->recording, m->recording & ~bit);
	if (m->ops) {
		if (!m->recording)
			m->ops->disable(m);
	} else {
		/* The recorder is never freed: no need to wait for it. */
		WARN_ON_ONCE(__kmark_probe_unregister(m, kmark_record_probe,
						      inst));
	}
	return 0;
}

/* Stop recording @m in every instance. Under kmark_mutex. */
void kmark_recording_off(struct kmark_marker *m)
{
	unsigned int i;

	for (i = 0; i < KMARK_MAX_INSTANCES; i++)
		kmark_set_recording(m, &kmark_instances[i], false);
}

/**
 * kmark_dynamic_alloc_id - give a dynamic event (kprobe event) its id
 * @m:	the event
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

/* Put @m (with its id) into kmark_markers, sorted by name; cannot fail. */
void kmark_dynamic_link(struct kmark_marker *m)
{
	struct kmark_marker *pos;

	lockdep_assert_held(&kmark_mutex);
	list_for_each_entry(pos, &kmark_markers, list)
		if (strcmp(pos->name, m->name) > 0)
			break;
	list_add_tail(&m->list, &pos->list);
}

/* Take @m out of the namespace; the caller frees it after an RCU grace period. */
void kmark_dynamic_unlink(struct kmark_marker *m)
{
	lockdep_assert_held(&kmark_mutex);
	list_del(&m->list);
	xa_erase(&kmark_ids, m->id);
}

/* --- set_event -------------------------------------------------------- */

static bool kmark_glob_ok(const char *g)
{
	for (; *g; g++) {
		if (*g == '[') {
			const char *c = strchr(g + 1, ']');

			if (!c || c == g + 1)
				return false;
			g = c;
		} else if (*g == ']') {
			return false;
		}
	}
	return true;
}

static bool kmark_name_matches(const char *pat, const char *name)
{
	const char *slash = strchr(name, '/');

	if (glob_match(pat, name))
		return true;
	/* "kprobes/foo" may be written "foo". */
	return slash && !strchr(pat, '/') && glob_match(pat, slash + 1);
}

/*
 * Does @tok ("NAME" or "MODULE:NAME", globs in both parts) name the event
 * @name of module @mod (NULL: vmlinux)?
 */
static bool kmark_event_matches(const char *tok, const char *name,
				const char *mod)
{
	const char *colon = strchr(tok, ':');
	char modpat[MODULE_NAME_LEN];

	if (colon) {
		if (colon - tok >= sizeof(modpat))
			return false;
		memcpy(modpat, tok, colon - tok);
		modpat[colon - tok] = '\0';
		if (!glob_match(modpat, mod ?: "vmlinux"))
			return false;
		tok = colon + 1;
	}
	return kmark_name_matches(tok, name);
}

/*
 * A "MODULE:NAME" token whose module is not loaded (and is named without a
 * glob) waits for the module: the pending tokens, applied to the module's
 * markers when it loads, until "> set_event" or a '!' token that names
 * it ("!MODULE:NAME", "!MODULE:*", "!NAME", "!*"). Under kmark_mutex.
 */
struct kmark_pending {
	struct list_head list;
	unsigned int inst;	/* the instance whose set_event has it */
	char tok[];
};

static LIST_HEAD(kmark_pending);

static bool kmark_pending_ok(const char *tok)
{
	const char *colon = strchr(tok, ':');
	char mod[MODULE_NAME_LEN];
	bool loaded;

	if (!colon || colon == tok || colon - tok >= sizeof(mod) || !colon[1])
		return false;
	memcpy(mod, tok, colon - tok);
	mod[colon - tok] = '\0';
	if (strpbrk(mod, "*?[") || !strcmp(mod, "vmlinux"))
		return false;
#ifdef CONFIG_MODULES
	rcu_read_lock_sched();
	loaded = find_module(mod);
	rcu_read_unlock_sched();
#else
	loaded = false;
#endif
	return !loaded;
}

/*
 * Whether set_event command @buf has a '!' token that drops pending token
 * @tok ("MODULE:NAME"): the same text, or one that names what @tok names
 * ("!MODULE:*", "!NAME", "!*"), as it would disable those markers.
 */
static bool kmark_cmd_negates(const char *buf, const char *tok)
{
	char neg[KMARK_NAME_MAX + MODULE_NAME_LEN + 2];
	char mod[MODULE_NAME_LEN];
	const char *colon = strchr(tok, ':');
	const char *p = buf;
	size_t n = strlen(tok);

	if (!colon || colon - tok >= sizeof(mod))
		return false;
	memcpy(mod, tok, colon - tok);
	mod[colon - tok] = '\0';
	while (*p) {
		const char *start;
		size_t len;

		while (*p && (isspace(*p) || *p == ','))
			p++;
		start = p;
		while (*p && !isspace(*p) && *p != ',')
			p++;
		len = p - start;
		if (len < 2 || *start != '!' || len > sizeof(neg))
			continue;
		memcpy(neg, start + 1, len - 1);
		neg[len - 1] = '\0';
		if ((len - 1 == n && !memcmp(neg, tok, n)) ||
		    kmark_event_matches(neg, colon + 1, mod))
			return true;
	}
	return false;
}

static struct kmark_pending *kmark_pending_find(unsigned int inst,
						const char *tok)
{
	struct kmark_pending *p;

	list_for_each_entry(p, &kmark_pending, list)
		if (p->inst == inst && !strcmp(p->tok, tok))
			return p;
	return NULL;
}

/**
 * kmark_set_event_parse - apply a set_event command to an enable set
 * @buf:	the command: names, globs and !names, separated by white space
 *		or commas
 * @names:	the events
 * @mods:	their modules (NULL entries, or NULL: vmlinux)
 * @nr:		number of @names
 * @state:	in: which events are on; out: which are on after @buf
 * @named:	out, if not NULL: which events a name (not a glob) turned on
 * @pending:	out, if not NULL: "MODULE:NAME" tokens of modules not loaded
 * @err:	on failure, the message
 * @err_pos:	on failure, the offset in @buf of the token it is about
 *
 * Nothing is applied here: the caller applies @state only when the whole
 * command parsed, so a bad command never half-applies.
 *
 * Return: 0 or -EINVAL.
 */
int kmark_set_event_parse(const char *buf, const char * const *names,
			  const char * const *mods, unsigned int nr,
			  bool *state, bool *named,
			  struct kmark_pending_req *pending,
			  const char **err, unsigned int *err_pos)
{
	const char *p = buf;
	char tok[KMARK_NAME_MAX + MODULE_NAME_LEN + 2];

	while (*p) {
		const char *start;
		bool neg = false, glob, any = false;
		size_t len;
		unsigned int i;

		while (*p && (isspace(*p) || *p == ','))
			p++;
		if (!*p)
			break;
		start = p;
		while (*p && !isspace(*p) && *p != ',')
			p++;
		len = p - start;
		*err_pos = start - buf;
		if (*start == '!') {
			neg = true;
			start++;
			len--;
			if (!len) {
				*err = "'!' must be followed by a marker name";
				return -EINVAL;
			}
		}
		if (len >= sizeof(tok) - 1) {
			*err = "Name too long";
			return -EINVAL;
		}
		memcpy(tok, start, len);
		tok[len] = '\0';
		glob = !!strpbrk(tok, "*?[");
		if (glob && !kmark_glob_ok(tok)) {
			*err = "Bad glob: unmatched '[' or ']'";
			return -EINVAL;
		}
		for (i = 0; i < nr; i++) {
			if (kmark_event_matches(tok, names[i],
						mods ? mods[i] : NULL)) {
				state[i] = !neg;
				if (named)
					named[i] = !neg && !glob;
				any = true;
			}
		}
		if (!any && pending && kmark_pending_ok(tok)) {
			if (pending->nr == ARRAY_SIZE(pending->tok)) {
				*err = "Too many events of unloaded modules in one write";
				return -EINVAL;
			}
			strscpy(pending->tok[pending->nr], tok);
			pending->neg[pending->nr++] = neg;
			continue;
		}
		if (!any) {
			*err = glob ? "No marker or event matches the glob" :
			       strchr(tok, ':') ? "Unknown marker or event" :
			       KMARK_ERR_UNKNOWN_PLAIN;
			return -EINVAL;
		}
	}
	return 0;
}

/**
 * kmark_set_event_apply - run a set_event command
 * @inst:	the instance whose set_event it is
 * @buf:	the command (see kmark_set_event_parse())
 * @truncate:	start from "nothing enabled" (open with O_TRUNC)
 * @err:	on failure, the message
 * @err_pos:	on failure, the offset in @buf
 *
 * All or nothing, and only in @inst: the markers the command turns on are
 * turned on first;
 * if one fails, those turned on so far are turned off again, and nothing
 * else was touched. Only then are the others turned off, which cannot fail.
 *
 * Return: 0, -EINVAL for a bad command, or the error of enabling; on
 * error, no marker changed.
 */
int kmark_set_event_apply(struct kmark_instance *inst, const char *buf,
			  bool truncate, const char **err,
			  unsigned int *err_pos)
{
	unsigned long bit = BIT(inst->idx);
	struct kmark_pending *newp[KMARK_PENDING_MAX] = { };
	struct kmark_pending *p, *tmp;
	struct kmark_pending_req *req;
	struct kmark_marker *m, **ms;
	const char **names, **mods;
	bool *state, *was, *named;
	unsigned int nr = 0, i;
	int ret;

	req = kzalloc(sizeof(*req), GFP_KERNEL);
	if (!req) {
		*err = "Out of memory";
		*err_pos = 0;
		return -ENOMEM;
	}
	mutex_lock(&kmark_mutex);
	list_for_each_entry(m, &kmark_markers, list)
		nr++;
	ms = kcalloc(nr, sizeof(*ms), GFP_KERNEL);
	names = kcalloc(nr, sizeof(*names), GFP_KERNEL);
	mods = kcalloc(nr, sizeof(*mods), GFP_KERNEL);
	state = kcalloc(nr, sizeof(*state), GFP_KERNEL);
	was = kcalloc(nr, sizeof(*was), GFP_KERNEL);
	named = kcalloc(nr, sizeof(*named), GFP_KERNEL);
	ret = -ENOMEM;
	*err = "Out of memory";
	*err_pos = 0;
	if (nr && (!ms || !names || !mods || !state || !was || !named))
		goto out;
	i = 0;
	list_for_each_entry(m, &kmark_markers, list) {
		ms[i] = m;
		names[i] = m->name;
		mods[i] = m->module;
		was[i] = m->recording & bit;
		state[i] = truncate ? false : was[i];
		i++;
	}
	ret = kmark_set_event_parse(buf, names, mods, nr, state, named, req,
				    err, err_pos);
	if (ret)
		goto out;
	/* Room for the new pending tokens before anything changes. */
	for (i = 0; i < req->nr; i++) {
		size_t size = strlen(req->tok[i]) + 1;

		if (req->neg[i] || kmark_pending_find(inst->idx, req->tok[i]))
			continue;
		newp[i] = kmalloc(struct_size(newp[i], tok, size), GFP_KERNEL);
		if (!newp[i]) {
			ret = -ENOMEM;
			*err = "Out of memory";
			*err_pos = 0;
			goto out;
		}
		strscpy(newp[i]->tok, req->tok[i], size);
		newp[i]->inst = inst->idx;
	}
	for (i = 0; i < nr; i++) {
		if (!state[i] || was[i])
			continue;
		ret = kmark_set_recording(ms[i], inst, true);
		if (ret == -ENODEV && !named[i]) {
			/* A glob passes over an event whose code is gone. */
			state[i] = false;
			ret = 0;
			continue;
		}
		if (ret) {
			if (ret == -ENOMEM)
				*err = "Out of memory";
			else if (ret == -ENODEV)
				*err = "The event's code is gone (an __init function after boot)";
			else
				*err = "Could not enable the event";
			*err_pos = 0;
			/* Only what this command turned on goes back off. */
			while (i--)
				if (state[i] && !was[i])
					kmark_set_recording(ms[i], inst, false);
			goto out;
		}
	}
	for (i = 0; i < nr; i++)
		if (!state[i] && was[i])
			kmark_set_recording(ms[i], inst, false);
	/*
	 * The pending tokens: '>' drops the old ones, a '!' token those it
	 * names (whether or not their module is loaded now), new ones join.
	 */
	list_for_each_entry_safe(p, tmp, &kmark_pending, list) {
		if (p->inst != inst->idx)
			continue;
		if (truncate || kmark_cmd_negates(buf, p->tok)) {
			list_del(&p->list);
			kfree(p);
		}
	}
	for (i = 0; i < req->nr; i++) {
		if (newp[i])
			list_add_tail(&newp[i]->list, &kmark_pending);
		newp[i] = NULL;
	}
out:
	mutex_unlock(&kmark_mutex);
	for (i = 0; i < ARRAY_SIZE(newp); i++)
		kfree(newp[i]);
	kfree(req);
	kfree(ms);
	kfree(mods);
	kfree(names);
	kfree(state);
	kfree(was);
	kfree(named);
	return ret;
}

/* set_event's read: the pending tokens, one a line. Under kmark_mutex. */
void kmark_pending_show(struct kmark_instance *inst, struct seq_file *sf)
{
	struct kmark_pending *p;

	lockdep_assert_held(&kmark_mutex);
	list_for_each_entry(p, &kmark_pending, list)
		if (p->inst == inst->idx)
			seq_printf(sf, "%s\n", p->tok);
}

/* Drop @inst's pending tokens (it is being removed). Under kmark_mutex. */
void kmark_pending_drop(struct kmark_instance *inst)
{
	struct kmark_pending *p, *tmp;

	lockdep_assert_held(&kmark_mutex);
	list_for_each_entry_safe(p, tmp, &kmark_pending, list) {
		if (p->inst == inst->idx) {
			list_del(&p->list);
			kfree(p);
		}
	}
}

/*
 * Enable @mod's markers that a pending token names, in the token's
 * instance (the module has just loaded); a failure is reported, the token
 * stays. Under kmark_mutex.
 */
void kmark_pending_apply(const char *mod)
{
	struct kmark_pending *p;
	struct kmark_marker *m;
	size_t n = strlen(mod);
	int ret;

	lockdep_assert_held(&kmark_mutex);
	list_for_each_entry(p, &kmark_pending, list) {
		struct kmark_instance *inst = &kmark_instances[p->inst];

		if (strncmp(p->tok, mod, n) || p->tok[n] != ':')
			continue;
		list_for_each_entry(m, &kmark_markers, list) {
			if (!m->module || strcmp(m->module, mod) ||
			    (m->recording & BIT(inst->idx)) ||
			    !kmark_event_matches(p->tok, m->name, m->module))
				continue;
			ret = kmark_set_recording(m, inst, true);
			if (ret)
				pr_warn("set_event %s: %s of module %s not enabled: %d\n",
					p->tok, m->name, mod, ret);
		}
	}
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
 * Order of an array of sites: by name, then by address, so that the site of
 * a name placed first in the image (link order) is the one whose format
 * the marker takes, on every boot and every load of a module.
 */
int kmark_site_cmp(const void *a, const void *b)
{
	const struct kmark_site *sa = *(const struct kmark_site **)a;
	const struct kmark_site *sb = *(const struct kmark_site **)b;
	int ret = strcmp(sa->name, sb->name);

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
	m->name = sites[0]->name;
	m->event = m->name;
	m->format = sites[0]->format;
	m->layout = kmark_parse_format(m->format, &err, &err_pos);
	if (IS_ERR(m->layout)) {
		pr_err("marker %s: bad format \"%s\" at %u: %s; marker left out\n",
		       m->name, m->format, err_pos, err);
		kfree(m);
		return 0;
	}
	m->sites = kcalloc(n, sizeof(*m->sites), GFP_KERNEL);
	if (!m->sites)
		goto nomem;
	for (i = 0; i < n; i++) {
		const char *why;

		if (strcmp(sites[i]->format, m->format)) {
			pr_err("marker %s: a site has format \"%s\" where the first has \"%s\"; that site stays off\n",
			       m->name, sites[i]->format, m->format);
			continue;
		}
		why = kmark_layout_bind(m->layout, sites[i]);
		if (why) {
			pr_err("marker %s (%pS): %s; that site stays off\n",
			       m->name, sites[i], why);
			continue;
		}
		sites[i]->marker = m;
		m->sites[kept++] = sites[i];
	}
	if (!kept) {
		pr_err("marker %s: no usable site; marker left out\n", m->name);
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
	unsigned int i, j;
	int ret;

	/* The top instance, before any marker can be enabled. */
	ret = kmark_instance_init(kmark_top_inst);
	if (ret)
		return ret;
	kmark_top_inst->live = true;
	sites = kmemdup(__start___kmark_sites, n * sizeof(*sites), GFP_KERNEL);
	if (!sites && n)
		return -ENOMEM;
	sort(sites, n, sizeof(*sites), kmark_site_cmp, NULL);

	mutex_lock(&kmark_mutex);
	for (i = 0; i < n && !ret; i = j) {
		for (j = i + 1; j < n; j++)
			if (strcmp(sites[i]->name, sites[j]->name))
				break;
		ret = kmark_add_marker(sites + i, j - i);
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

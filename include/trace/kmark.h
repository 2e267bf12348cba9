/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kmark: static markers.
 *
 * A marker is a named point in the kernel:
 *
 *	kmark(sched_wakeup, "comm=%s pid=%d", p->comm, p->pid);
 *
 * Every kmark() call site places a struct kmark_site in .data and a pointer
 * to it in the "__kmark_sites" section; kmark finds them all at boot (no
 * registration call at the site). While nobody listens, the site is one
 * patched-out jump (a static key, see jump_label.h): the arguments are not
 * even evaluated. All sites with the same system and name form one marker
 * and are enabled together; they must share one format (checked at boot).
 *
 * Every marker belongs to a system, as ftrace's events do: its directory is
 * events/SYSTEM/NAME/ and set_event takes "SYSTEM:NAME". The system is
 * KMARK_SYSTEM where the site is compiled: define it before including this
 * header (the scheduler's markers are in "sched"); by default it is the
 * module's name in a module and "kmark" in the kernel itself.
 * kmark_system() names a site's system explicitly, for a driver that fires
 * a marker of the kernel's.
 *
 * The format must be a string literal. It is printf-style and names its
 * fields, "key=%d"; an argument that does not match its conversion is a
 * build error (-Wformat is made an error at the site). Supported
 * conversions: %d %i %u %x %X %o %c with the h, hh, l, ll, z and t
 * modifiers, flags and a fixed width or precision; %s; %p, %px, %pS, %ps,
 * %pB (pointers are recorded as values, never dereferenced later). Two
 * helpers record what ftrace's sched events record: kmark_comm() and
 * kmark_task_state().
 *
 * The arguments are packed at the site, with the C types the compiler
 * knows, into a block described by a table of struct kmark_arg (no va_list,
 * no format walk when the marker fires). That block is the record kmark
 * writes into its ring buffer, after a common header; a string argument's
 * slot then holds ftrace's __data_loc word and the string follows the
 * fixed part. The events/NAME/format file describes exactly this layout.
 *
 * In-kernel users attach probes with kmark_probe_register() and read the
 * arguments with kmark_arg_value() and kmark_arg_str(); kmark's own
 * recorder (the debugfs interface) is one such probe.
 */
#ifndef _TRACE_KMARK_H
#define _TRACE_KMARK_H

#include <linux/args.h>
#include <linux/array_size.h>
#include <linux/build_bug.h>
#include <linux/compiler.h>
#include <linux/errno.h>
#include <linux/jump_label.h>
#include <linux/stddef.h>
#include <linux/string.h>
#include <linux/types.h>

struct kmark_marker;

/* How a site passes an argument, after C's default argument promotions. */
enum kmark_arg_class {
	KMARK_ARG_SIGNED,	/* int, long, long long */
	KMARK_ARG_UNSIGNED,	/* their unsigned forms */
	KMARK_ARG_CHARP,	/* char * (a %s argument, or %p) */
	KMARK_ARG_PTR,		/* any other pointer */
	KMARK_ARG_COMM,		/* kmark_comm(): a comm, recorded inline */
	KMARK_ARG_STATE,	/* kmark_task_state(): a task state */
	KMARK_ARG_BAD,		/* anything else (refused at boot) */
};

/**
 * struct kmark_comm - a task's comm as a value (see kmark_comm())
 * @s:	the comm, NUL-terminated within TASK_COMM_LEN (16) bytes
 */
struct kmark_comm {
	char s[16];
};

/**
 * kmark_comm() - a task's comm for a "%s" conversion, recorded inline
 * @task:	the task
 *
 * kmark(sched_wakeup, "comm=%s pid=%d", kmark_comm(p), p->pid) records
 * the 16 bytes of the comm in the record itself, as ftrace's char[16]
 * fields do (a char * argument is recorded as a string of its own length
 * instead): the format file then says "char comm[16]", which is what
 * tools that read ftrace's sched events expect.
 */
#define kmark_comm(task)						\
({									\
	struct kmark_comm __kmark_c;					\
									\
	BUILD_BUG_ON(sizeof((task)->comm) != sizeof(__kmark_c.s));	\
	memcpy(__kmark_c.s, (task)->comm, sizeof(__kmark_c.s));	\
	__kmark_c;							\
})

struct kmark_task_state;

/**
 * kmark_task_state() - a task state for a "%p" conversion
 * @state:	the state in ftrace's sched_switch encoding: 0 for a runnable
 *		task, 1 << (task_state_index() - 1) for a sleeping one,
 *		TASK_REPORT_MAX for a preempted one
 *
 * kmark(sched_switch, "... prev_state=%p ...", ..., kmark_task_state(s))
 * records @state as a long (a pointer to an incomplete type carries it, so
 * that the compiler's format check takes it for %p and kmark tells it from
 * a pointer by its type) and prints it as ftrace prints prev_state: "R",
 * "S", "D", "R+", ...; the format file says "long prev_state" with
 * ftrace's print expression.
 */
#define kmark_task_state(state)						\
	((const struct kmark_task_state *)(unsigned long)(state))

/**
 * struct kmark_arg - one argument of a kmark() site, as the compiler sees it
 * @offset:	offset in the site's argument block
 * @size:	bytes it takes there
 * @class:	enum kmark_arg_class
 */
struct kmark_arg {
	u16 offset;
	u8 size;
	u8 class;
};

#ifndef KMARK_SYSTEM
#ifdef MODULE
#define KMARK_SYSTEM	KBUILD_MODNAME
#else
#define KMARK_SYSTEM	"kmark"
#endif
#endif

/**
 * struct kmark_site - one kmark() call site
 * @key:	enables the site; toggled by kmark for all sites of a marker
 * @system:	marker's system (KMARK_SYSTEM at the site)
 * @name:	marker name
 * @format:	printf-style format of the arguments
 * @args:	the arguments' table, in format order
 * @nr_args:	number of @args
 * @args_size:	size of the argument block the site hands to probes
 * @marker:	the marker this site belongs to, set at boot
 */
struct kmark_site {
	struct static_key_false key;
	const char *system;
	const char *name;
	const char *format;
	const struct kmark_arg *args;
	u16 nr_args;
	u16 args_size;
	struct kmark_marker *marker;
};

/**
 * typedef kmark_probe_fn - a probe attached to a marker
 * @data:	the pointer given to kmark_probe_register()
 * @marker:	the marker that fired
 * @args:	the site's argument block; read it with kmark_arg_value() and
 *		kmark_arg_str()
 *
 * Runs with preemption disabled, at the marker site, possibly in NMI or IRQ
 * context and with the runqueue lock held (sched_switch): it must not sleep,
 * take locks that the site may hold, or hit a marker itself.
 */
typedef void (*kmark_probe_fn)(void *data, struct kmark_marker *marker,
			       const void *args);

/* The compiler checks the arguments against the format: printf rules. */
static inline void __printf(1, 2) __kmark_check_format(const char *fmt, ...)
{
}

/*
 * -Wformat is an error at a kmark() site, for GCC and clang alike: the
 * format decides how a record is rendered, so an argument of another size
 * is refused at build time. " " fmt keeps "" (a marker without arguments)
 * from warning as a zero-length format.
 */
#define __kmark_format_check(fmt, ...)					\
do {									\
	__diag_push();							\
	__diag_error(GCC, 8, "-Wformat",				\
		     "kmark: arguments must match the format");	\
	__diag_error(clang, 13, "-Wformat",				\
		     "kmark: arguments must match the format");	\
	if (0)								\
		__kmark_check_format(" " fmt, ##__VA_ARGS__);		\
	__diag_pop();							\
} while (0)

/*
 * What the format check sees of an argument: itself, or a char * for a
 * kmark_comm() (the member's name as a string; never evaluated). Every
 * branch is valid for every type (_Generic checks the branches it does not
 * pick too).
 */
#define __kmark_check_one(n, x)						\
	_Generic((x), struct kmark_comm : (const char *)"__a" #n, default : (x))
#define __kmark_check_join	__kmark_comma

/*
 * The type an argument has once promoted, as for a variadic call: the
 * conditional operator promotes integers (bit-fields too) and decays
 * arrays, and keeps a struct kmark_comm a struct.
 */
#define __kmark_promoted(x)	__typeof__(0 ? (x) : (x))

#define __kmark_class(x)						\
	_Generic(0 ? (x) : (x),						\
		struct kmark_comm : KMARK_ARG_COMM,			\
		const struct kmark_task_state * : KMARK_ARG_STATE,	\
		int : KMARK_ARG_SIGNED,					\
		long : KMARK_ARG_SIGNED,				\
		long long : KMARK_ARG_SIGNED,				\
		unsigned int : KMARK_ARG_UNSIGNED,			\
		unsigned long : KMARK_ARG_UNSIGNED,			\
		unsigned long long : KMARK_ARG_UNSIGNED,		\
		char * : KMARK_ARG_CHARP,				\
		const char * : KMARK_ARG_CHARP,				\
		default :						\
			__builtin_classify_type(0 ? (x) : (x)) == 5 ?	\
			KMARK_ARG_PTR : KMARK_ARG_BAD)

/*
 * Apply a kind K of expansion to each of 1 to 16 arguments: K_one(n, arg)
 * for each (n counts down; order is kept), and K_join(a, b) to put two
 * results together. __kmark_mapN takes N + 1 arguments, counted with
 * COUNT_ARGS() after the first one.
 */
#define __kmark_id(...)			__VA_ARGS__
#define __kmark_comma(a, b)		__kmark_id(a, b)
#define __kmark_semicolon(a, b)		__kmark_id(a; b)
#define __kmark_map0(K, a, ...)		K ## _one(1, a)
#define __kmark_map1(K, a, ...)		K ## _join(K ## _one(2, a), __kmark_map0(K, __VA_ARGS__))
#define __kmark_map2(K, a, ...)		K ## _join(K ## _one(3, a), __kmark_map1(K, __VA_ARGS__))
#define __kmark_map3(K, a, ...)		K ## _join(K ## _one(4, a), __kmark_map2(K, __VA_ARGS__))
#define __kmark_map4(K, a, ...)		K ## _join(K ## _one(5, a), __kmark_map3(K, __VA_ARGS__))
#define __kmark_map5(K, a, ...)		K ## _join(K ## _one(6, a), __kmark_map4(K, __VA_ARGS__))
#define __kmark_map6(K, a, ...)		K ## _join(K ## _one(7, a), __kmark_map5(K, __VA_ARGS__))
#define __kmark_map7(K, a, ...)		K ## _join(K ## _one(8, a), __kmark_map6(K, __VA_ARGS__))
#define __kmark_map8(K, a, ...)		K ## _join(K ## _one(9, a), __kmark_map7(K, __VA_ARGS__))
#define __kmark_map9(K, a, ...)		K ## _join(K ## _one(10, a), __kmark_map8(K, __VA_ARGS__))
#define __kmark_map10(K, a, ...)	K ## _join(K ## _one(11, a), __kmark_map9(K, __VA_ARGS__))
#define __kmark_map11(K, a, ...)	K ## _join(K ## _one(12, a), __kmark_map10(K, __VA_ARGS__))
#define __kmark_map12(K, a, ...)	K ## _join(K ## _one(13, a), __kmark_map11(K, __VA_ARGS__))
#define __kmark_map13(K, a, ...)	K ## _join(K ## _one(14, a), __kmark_map12(K, __VA_ARGS__))
#define __kmark_map14(K, a, ...)	K ## _join(K ## _one(15, a), __kmark_map13(K, __VA_ARGS__))
#define __kmark_map15(K, a, ...)	K ## _join(K ## _one(16, a), __kmark_map14(K, __VA_ARGS__))
#define __kmark_map(K, a, ...)						\
	CONCATENATE(__kmark_map, COUNT_ARGS(__VA_ARGS__))(K, a, __VA_ARGS__)

/*
 * The members of struct __kmark_args, their initializers, their table.
 * Each member sits in an anonymous packed struct of its own, so that the
 * members are joined by ';' and none ends a macro with one.
 */
#define __kmark_member_one(n, a)					\
	struct { __kmark_promoted(a) __a ## n; } __packed
#define __kmark_member_join	__kmark_semicolon
#define __kmark_init_one(n, a)		.__a ## n = (a)
#define __kmark_init_join	__kmark_comma
#define __kmark_desc_one(n, a)						\
	{ offsetof(struct __kmark_args, __a ## n),			\
	  sizeof(((struct __kmark_args *)0)->__a ## n), __kmark_class(a) }
#define __kmark_desc_join	__kmark_comma

#ifdef CONFIG_KMARK

void __kmark_hit(struct kmark_site *site, const void *args);

#define __kmark_site(_sys, _name, fmt, _args, _nr, _size)		\
	static struct kmark_site __kmark_site = {			\
		.key = STATIC_KEY_FALSE_INIT,				\
		.system = _sys,						\
		.name = #_name,						\
		.format = fmt,						\
		.args = _args,						\
		.nr_args = _nr,						\
		.args_size = _size,					\
	};								\
	static struct kmark_site * const __kmark_site_ptr		\
	__used __section("__kmark_sites") = &__kmark_site

#define __kmark_0(_sys, _name, fmt)					\
do {									\
	__kmark_site(_sys, _name, fmt, NULL, 0, 0);			\
	__kmark_format_check(fmt);					\
	if (static_branch_unlikely(&__kmark_site.key))			\
		__kmark_hit(&__kmark_site, NULL);			\
} while (0)

/*
 * The argument block is packed: no padding, so no stack garbage reaches a
 * record, and records are as small as the fields allow.
 */
#define __kmark_1(_sys, _name, fmt, ...)				\
do {									\
	struct __kmark_args {						\
		__kmark_map(__kmark_member, __VA_ARGS__);		\
	} __packed;							\
	static const struct kmark_arg __kmark_argv[] = {		\
		__kmark_map(__kmark_desc, __VA_ARGS__)			\
	};								\
	__kmark_site(_sys, _name, fmt, __kmark_argv,			\
		     ARRAY_SIZE(__kmark_argv), sizeof(struct __kmark_args)); \
	__kmark_format_check(fmt, __kmark_map(__kmark_check, __VA_ARGS__)); \
	if (static_branch_unlikely(&__kmark_site.key)) {		\
		struct __kmark_args __kmark_a = {			\
			__kmark_map(__kmark_init, __VA_ARGS__)		\
		};							\
		__kmark_hit(&__kmark_site, &__kmark_a);			\
	}								\
} while (0)

int kmark_probe_register(const char *name, const char *format,
			 kmark_probe_fn probe, void *data);
int kmark_probe_unregister(const char *name, kmark_probe_fn probe,
			   void *data);
const char *kmark_marker_name(const struct kmark_marker *marker);
const char *kmark_marker_format(const struct kmark_marker *marker);
u64 kmark_arg_value(const struct kmark_marker *marker, const void *args,
		    unsigned int i);
const char *kmark_arg_str(const struct kmark_marker *marker, const void *args,
			  unsigned int i);

#else /* !CONFIG_KMARK */

/* The name must still be one (not empty); the arguments are type-checked. */
#define __kmark_0(_sys, _name, fmt)					\
do {									\
	BUILD_BUG_ON(sizeof(#_sys) < 1 || sizeof(#_name) < 2);		\
	__kmark_format_check(fmt);					\
} while (0)

#define __kmark_1(_sys, _name, fmt, ...)				\
do {									\
	BUILD_BUG_ON(sizeof(#_sys) < 1 || sizeof(#_name) < 2);		\
	__kmark_format_check(fmt, __kmark_map(__kmark_check, __VA_ARGS__)); \
} while (0)

static inline int kmark_probe_register(const char *name, const char *format,
				       kmark_probe_fn probe, void *data)
{
	return -EOPNOTSUPP;
}

static inline int kmark_probe_unregister(const char *name,
					 kmark_probe_fn probe, void *data)
{
	return -EOPNOTSUPP;
}

static inline const char *kmark_marker_name(const struct kmark_marker *marker)
{
	return NULL;
}

static inline const char *
kmark_marker_format(const struct kmark_marker *marker)
{
	return NULL;
}

static inline u64 kmark_arg_value(const struct kmark_marker *marker,
				  const void *args, unsigned int i)
{
	return 0;
}

static inline const char *kmark_arg_str(const struct kmark_marker *marker,
					const void *args, unsigned int i)
{
	return NULL;
}

#endif /* CONFIG_KMARK */

/**
 * kmark() - a static marker
 * @_name:	marker name, a C identifier (not a string)
 * @fmt:	printf-style format with named fields, a string literal
 *
 * At most 16 arguments. They are evaluated only while the marker is
 * enabled.
 */
#define kmark(_name, fmt, ...)						\
	kmark_system(KMARK_SYSTEM, _name, fmt, ##__VA_ARGS__)

/**
 * kmark_system() - a static marker of a named system
 * @_sys:	the system, a string literal ("sched")
 * @_name:	marker name, a C identifier (not a string)
 * @fmt:	printf-style format with named fields, a string literal
 *
 * kmark() with the system given at the site rather than by KMARK_SYSTEM.
 * A field is named by the word before its "=", or by "{NAME}" right before
 * that word ("{parent_pid}pid=%d": field parent_pid, printed "pid=") or
 * right before its conversion ("NR {id}%ld": field id, printed "NR 3").
 */
#define kmark_system(_sys, _name, fmt, ...)				\
	CONCATENATE(__kmark_, __kmark_pick(__VA_ARGS__))(_sys, _name, fmt, \
							 ##__VA_ARGS__)

/*
 * kmark(name, fmt) or kmark(name, fmt, args...): 0 or 1, the number of
 * arguments in the first one of __VA_ARGS__ (__kmark_first() yields
 * nothing for an empty list).
 */
#define __kmark_pick(...)	__kmark_nonempty(__kmark_first(__VA_ARGS__))
#define __kmark_first(a, ...)	a
#define __kmark_nonempty(...)	COUNT_ARGS(__VA_ARGS__)

/*
 * The flight recorder's hook in __warn() (kernel/panic.c), beside ftrace's
 * disable_trace_on_warning(): kmark_traceoff_on_warning stops recording in
 * every instance, and the boot-mapped instance notes the warning.
 */
#ifdef CONFIG_KMARK_FLIGHT
void kmark_on_warning(const char *file, int line, void *caller);
#else
static inline void kmark_on_warning(const char *file, int line, void *caller)
{
}
#endif

#endif /* _TRACE_KMARK_H */

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
 * even evaluated. All sites with the same name form one marker and are
 * enabled together; they must share one format (checked at boot).
 *
 * The format must be a string literal. It is printf-style and names its
 * fields, "key=%d"; an argument that does not match its conversion is a
 * build error (-Wformat is made an error at the site). Supported
 * conversions: %d %i %u %x %X %o %c with the h, hh, l, ll, z and t
 * modifiers, flags and a fixed width or precision; %s; %p, %px, %pS, %ps,
 * %pB (pointers are recorded as values, never dereferenced later).
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

/**
 * struct kmark_site - one kmark() call site
 * @key:	enables the site; toggled by kmark for all sites of a name
 * @name:	marker name
 * @format:	printf-style format of the arguments
 * @args:	the arguments' table, in format order
 * @nr_args:	number of @args
 * @args_size:	size of the argument block the site hands to probes
 * @marker:	the marker this site belongs to, set at boot
 */
struct kmark_site {
	struct static_key_false key;
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
static inline __printf(1, 2) void __kmark_check_format(const char *fmt, ...)
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
	if (0) {							\
		__kmark_check_format(" " fmt				\
			__kmark_cat(__kmark_check_args_,		\
				    __kmark_pick(__VA_ARGS__))(__VA_ARGS__)); \
	}								\
	__diag_pop();							\
} while (0)

/*
 * What the format check sees of an argument: itself, or a char * for a
 * kmark_comm(). Every branch is valid for every type (_Generic checks the
 * branches it does not pick too).
 */
#define __kmark_check_arg(S, n, x)					\
	, _Generic((x), struct kmark_comm: (const char *)0, default: (x))

#define __kmark_check_args_0(...)
#define __kmark_check_args_n(...)	__kmark_map(__kmark_check_arg, _, __VA_ARGS__)

/*
 * The type an argument has once promoted, as for a variadic call: the
 * conditional operator promotes integers (bit-fields too) and decays
 * arrays, and keeps a struct kmark_comm a struct.
 */
#define __kmark_promoted(x)	__typeof__(0 ? (x) : (x))

#define __kmark_class(x)						\
	_Generic(0 ? (x) : (x),						\
		 struct kmark_comm: KMARK_ARG_COMM,			\
		 int: KMARK_ARG_SIGNED,					\
		 long: KMARK_ARG_SIGNED,				\
		 long long: KMARK_ARG_SIGNED,				\
		 unsigned int: KMARK_ARG_UNSIGNED,			\
		 unsigned long: KMARK_ARG_UNSIGNED,			\
		 unsigned long long: KMARK_ARG_UNSIGNED,		\
		 char *: KMARK_ARG_CHARP,				\
		 const char *: KMARK_ARG_CHARP,				\
		 default: __builtin_classify_type(0 ? (x) : (x)) == 5 ?	\
			  KMARK_ARG_PTR : KMARK_ARG_BAD)

/* Apply M(S, n, arg) to each argument (n counts down; order is kept). */
#define __kmark_map1(M, S, a)		M(S, 1, a)
#define __kmark_map2(M, S, a, ...)	M(S, 2, a) __kmark_map1(M, S, __VA_ARGS__)
#define __kmark_map3(M, S, a, ...)	M(S, 3, a) __kmark_map2(M, S, __VA_ARGS__)
#define __kmark_map4(M, S, a, ...)	M(S, 4, a) __kmark_map3(M, S, __VA_ARGS__)
#define __kmark_map5(M, S, a, ...)	M(S, 5, a) __kmark_map4(M, S, __VA_ARGS__)
#define __kmark_map6(M, S, a, ...)	M(S, 6, a) __kmark_map5(M, S, __VA_ARGS__)
#define __kmark_map7(M, S, a, ...)	M(S, 7, a) __kmark_map6(M, S, __VA_ARGS__)
#define __kmark_map8(M, S, a, ...)	M(S, 8, a) __kmark_map7(M, S, __VA_ARGS__)
#define __kmark_map9(M, S, a, ...)	M(S, 9, a) __kmark_map8(M, S, __VA_ARGS__)
#define __kmark_map10(M, S, a, ...)	M(S, 10, a) __kmark_map9(M, S, __VA_ARGS__)
#define __kmark_map11(M, S, a, ...)	M(S, 11, a) __kmark_map10(M, S, __VA_ARGS__)
#define __kmark_map12(M, S, a, ...)	M(S, 12, a) __kmark_map11(M, S, __VA_ARGS__)
#define __kmark_map13(M, S, a, ...)	M(S, 13, a) __kmark_map12(M, S, __VA_ARGS__)
#define __kmark_map14(M, S, a, ...)	M(S, 14, a) __kmark_map13(M, S, __VA_ARGS__)
#define __kmark_map15(M, S, a, ...)	M(S, 15, a) __kmark_map14(M, S, __VA_ARGS__)
#define __kmark_map16(M, S, a, ...)	M(S, 16, a) __kmark_map15(M, S, __VA_ARGS__)
#define __kmark_nargs(...)						\
	__kmark_nargs_(__VA_ARGS__, 16, 15, 14, 13, 12, 11, 10, 9, 8, 7, 6,	\
		       5, 4, 3, 2, 1)
#define __kmark_nargs_(_1, _2, _3, _4, _5, _6, _7, _8, _9, _10, _11, _12,	\
		       _13, _14, _15, _16, n, ...) n
#define __kmark_cat(a, b)	__kmark_cat_(a, b)
#define __kmark_cat_(a, b)	a ## b
#define __kmark_map(M, S, ...)						\
	__kmark_cat(__kmark_map, __kmark_nargs(__VA_ARGS__))(M, S, __VA_ARGS__)

#define __kmark_member(S, n, a)		__kmark_promoted(a) __a ## n;
#define __kmark_init(S, n, a)		.__a ## n = (a),
#define __kmark_desc(S, n, a)						\
	{ offsetof(S, __a ## n), sizeof(((S *)0)->__a ## n), __kmark_class(a) },

#ifdef CONFIG_KMARK

void __kmark_hit(struct kmark_site *site, const void *args);

#define __kmark_site(_name, fmt, _args, _nr, _size)			\
	static struct kmark_site __kmark_site = {			\
		.key = STATIC_KEY_FALSE_INIT,				\
		.name = #_name,						\
		.format = fmt,						\
		.args = _args,						\
		.nr_args = _nr,						\
		.args_size = _size,					\
	};								\
	static struct kmark_site * const __kmark_site_ptr		\
	__used __section("__kmark_sites") = &__kmark_site

#define __kmark_0(_name, fmt)						\
do {									\
	__kmark_site(_name, fmt, NULL, 0, 0);				\
	__kmark_format_check(fmt);					\
	if (static_branch_unlikely(&__kmark_site.key))			\
		__kmark_hit(&__kmark_site, NULL);			\
} while (0)

/*
 * The argument block is packed: no padding, so no stack garbage reaches a
 * record, and records are as small as the fields allow.
 */
#define __kmark_n(_name, fmt, ...)					\
do {									\
	struct __kmark_args {						\
		__kmark_map(__kmark_member, _, __VA_ARGS__)		\
	} __packed;							\
	static const struct kmark_arg __kmark_argv[] = {		\
		__kmark_map(__kmark_desc, struct __kmark_args, __VA_ARGS__) \
	};								\
	__kmark_site(_name, fmt, __kmark_argv, ARRAY_SIZE(__kmark_argv), \
		     sizeof(struct __kmark_args));			\
	__kmark_format_check(fmt, __VA_ARGS__);				\
	if (static_branch_unlikely(&__kmark_site.key)) {		\
		struct __kmark_args __kmark_a = {			\
			__kmark_map(__kmark_init, _, __VA_ARGS__)	\
		};							\
		__kmark_hit(&__kmark_site, &__kmark_a);			\
	}								\
} while (0)

/**
 * kmark() - a static marker
 * @_name:	marker name, a C identifier (not a string)
 * @fmt:	printf-style format with named fields, a string literal
 *
 * At most 16 arguments. They are evaluated only while the marker is
 * enabled.
 */
#define kmark(_name, fmt, ...)						\
	__kmark_cat(__kmark_, __kmark_pick(__VA_ARGS__))(_name, fmt, ##__VA_ARGS__)

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

#define kmark(_name, fmt, ...)	__kmark_format_check(fmt, ##__VA_ARGS__)

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

/* kmark(name, fmt) or kmark(name, fmt, args...): "0" or "n". */
#define __kmark_pick(...)	__kmark_pick_(_, ##__VA_ARGS__, n, n, n, n, n, \
					      n, n, n, n, n, n, n, n, n, n, n, 0)
#define __kmark_pick_(_0, _1, _2, _3, _4, _5, _6, _7, _8, _9, _10, _11,	\
		      _12, _13, _14, _15, _16, x, ...) x

#endif /* _TRACE_KMARK_H */

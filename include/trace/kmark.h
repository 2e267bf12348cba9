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
 * The format is printf-style and names its fields, "key=%d"; the compiler
 * checks the arguments against it. Supported conversions: %d %i %u %x %X %o
 * %c with the h, hh, l, ll, z and t modifiers, flags and a fixed width or
 * precision; %s; %p, %px, %pS, %ps, %pB (pointers are recorded as values,
 * never dereferenced later).
 *
 * In-kernel users attach probes with kmark_probe_register(); kmark's own
 * recorder (the debugfs interface) is one such probe.
 */
#ifndef _TRACE_KMARK_H
#define _TRACE_KMARK_H

#include <linux/compiler.h>
#include <linux/errno.h>
#include <linux/jump_label.h>
#include <linux/stdarg.h>
#include <linux/types.h>

struct kmark_marker;

/**
 * struct kmark_site - one kmark() call site
 * @key:	enables the site; toggled by kmark for all sites of a name
 * @name:	marker name
 * @format:	printf-style format of the arguments
 * @marker:	the marker this site belongs to, set at boot
 */
struct kmark_site {
	struct static_key_false key;
	const char *name;
	const char *format;
	struct kmark_marker *marker;
};

/**
 * typedef kmark_probe_fn - a probe attached to a marker
 * @data:	the pointer given to kmark_probe_register()
 * @marker:	the marker that fired
 * @args:	the site's arguments, in the order of the marker's format
 *
 * Runs with preemption disabled, at the marker site, possibly in NMI or IRQ
 * context and with the runqueue lock held (sched_switch): it must not sleep,
 * take locks that the site may hold, or hit a marker itself. It may consume
 * @args (each probe gets its own copy).
 */
typedef void (*kmark_probe_fn)(void *data, struct kmark_marker *marker,
			       va_list *args);

static inline __printf(1, 2) void __kmark_check_format(const char *fmt, ...)
{
}

#if defined(CONFIG_KMARK) && defined(MODULE)

/* Sites are found in vmlinux's section only; modules are not walked yet. */
#define kmark(name, fmt, ...)						\
	BUILD_BUG_ON_MSG(1, "kmark() is not supported in modules yet")

#endif

#ifdef CONFIG_KMARK

void __kmark_hit(struct kmark_site *site, ...);

#ifndef MODULE
/**
 * kmark() - a static marker
 * @_name:	marker name, a C identifier (not a string)
 * @fmt:	constant printf-style format with named fields
 *
 * The arguments are evaluated only while the marker is enabled.
 */
#define kmark(_name, fmt, ...)							\
do {									\
	static struct kmark_site __kmark_site = {			\
		.key = STATIC_KEY_FALSE_INIT,				\
		.name = #_name,							\
		.format = fmt,						\
	};								\
	static struct kmark_site * const __kmark_site_ptr		\
	__used __section("__kmark_sites") = &__kmark_site;		\
	if (static_branch_unlikely(&__kmark_site.key))			\
		__kmark_hit(&__kmark_site, ##__VA_ARGS__);		\
	if (0)								\
		__kmark_check_format(fmt, ##__VA_ARGS__);		\
} while (0)
#endif /* !MODULE */

int kmark_probe_register(const char *name, const char *format,
			 kmark_probe_fn probe, void *data);
int kmark_probe_unregister(const char *name, kmark_probe_fn probe,
			   void *data);
const char *kmark_marker_name(const struct kmark_marker *marker);
const char *kmark_marker_format(const struct kmark_marker *marker);

#else /* !CONFIG_KMARK */

#define kmark(name, fmt, ...)						\
do {									\
	if (0)								\
		__kmark_check_format(fmt, ##__VA_ARGS__);		\
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

#endif /* CONFIG_KMARK */

#endif /* _TRACE_KMARK_H */

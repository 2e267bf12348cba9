// SPDX-License-Identifier: GPL-2.0
/*
 * kmark: the recorder. kmark_record_probe() is the probe set_event attaches
 * to markers; it writes one record per hit into kmark_buffer, the kernel's
 * per-CPU ring buffer (kernel/trace/ring_buffer.c) in overwrite mode.
 *
 * Accounting, per CPU, so that no loss is silent:
 *   written  hits recorded or attempted while tracing_on (our counter)
 *   dropped  hits that got no room: reserve failed (buffer being resized,
 *            event too big, nested too deep)
 *   overrun  records overwritten before a reader got them (ring buffer)
 *   read     records consumed through trace_pipe (ring buffer)
 * Once the buffer is drained: written = read + overrun + dropped. Readers
 * of trace_pipe see both kinds of loss as "CPU:N [LOST M EVENTS]".
 */
#define pr_fmt(fmt) "kmark: " fmt

#include <linux/cpuhotplug.h>
#include <linux/hardirq.h>
#include <linux/percpu.h>
#include <linux/preempt.h>
#include <linux/sched/clock.h>
#include <linux/string.h>
#include <linux/unaligned.h>
#include <asm/local.h>

#include "kmark_internal.h"

/* Allocated on first use; then never freed. Set under kmark_mutex. */
struct trace_buffer *kmark_buffer;
/* tracing_on: read locklessly on the recording path. */
bool kmark_tracing_on = true;
/* Per-CPU buffer size in KiB (ftrace's default); under kmark_mutex. */
unsigned long kmark_buffer_kb = 1408;

struct kmark_cpu_stats {
	local_t written;
	local_t dropped;
};

static DEFINE_PER_CPU(struct kmark_cpu_stats, kmark_stats);

unsigned long kmark_written(int cpu)
{
	return local_read(&per_cpu(kmark_stats, cpu).written);
}

unsigned long kmark_dropped(int cpu)
{
	return local_read(&per_cpu(kmark_stats, cpu).dropped);
}

int kmark_buffer_ensure(void)
{
	struct trace_buffer *b;

	lockdep_assert_held(&kmark_mutex);
	if (kmark_buffer)
		return 0;
#ifndef CONFIG_TRACING
	{
		/* Without tracing, nobody set up the ring buffer's CPU hotplug state. */
		int ret = cpuhp_setup_state_multi(CPUHP_TRACE_RB_PREPARE,
						  "kmark/RB:prepare",
						  trace_rb_cpu_prepare, NULL);
		if (ret < 0)
			return ret;
	}
#endif
	b = ring_buffer_alloc(kmark_buffer_kb << 10, RB_FL_OVERWRITE);
	if (!b)
		return -ENOMEM;
	/* Pairs with READ_ONCE() in the recorder and readers. */
	smp_store_release(&kmark_buffer, b);
	return 0;
}

int kmark_buffer_resize(unsigned long kb)
{
	int ret;

	lockdep_assert_held(&kmark_mutex);
	if (kmark_buffer) {
		ret = ring_buffer_resize(kmark_buffer, kb << 10,
					 RING_BUFFER_ALL_CPUS);
		if (ret < 0)
			return ret;
	}
	kmark_buffer_kb = kb;
	return 0;
}

void kmark_buffer_clear(void)
{
	int cpu;

	lockdep_assert_held(&kmark_mutex);
	if (kmark_buffer)
		ring_buffer_reset(kmark_buffer);
	for_each_possible_cpu(cpu) {
		local_set(&per_cpu(kmark_stats, cpu).written, 0);
		local_set(&per_cpu(kmark_stats, cpu).dropped, 0);
	}
}

/* ftrace's context flags (tracing_gen_ctx_irq_test()), in our encoding. */
static __always_inline void kmark_fill_ctx(struct kmark_entry *e,
					   bool from_hit)
{
	unsigned int pc = preempt_count();
	u8 flags = 0;

	if (irqs_disabled())
		flags |= KMARK_FLAG_IRQS_OFF;
	if (pc & NMI_MASK)
		flags |= KMARK_FLAG_NMI;
	if (pc & HARDIRQ_MASK)
		flags |= KMARK_FLAG_HARDIRQ;
	if (in_serving_softirq())
		flags |= KMARK_FLAG_SOFTIRQ;
	if (softirq_count() >> (SOFTIRQ_SHIFT + 1))
		flags |= KMARK_FLAG_BH_OFF;
	if (tif_need_resched())
		flags |= KMARK_FLAG_NEED_RESCHED;
	if (test_preempt_need_resched())
		flags |= KMARK_FLAG_PREEMPT_RESCHED;
	e->flags = flags;
	/* __kmark_hit() added one level of preemption off: not the site's. */
	pc &= PREEMPT_MASK;
	if (from_hit && IS_ENABLED(CONFIG_PREEMPT_COUNT) && pc)
		pc--;
	e->preempt_count = min(pc, 15U);
#ifdef CONFIG_SMP
	e->preempt_count |= min_t(unsigned int, current->migration_disabled, 15) << 4;
#endif
	e->pid = current->pid;
	memcpy(e->comm, current->comm, TASK_COMM_LEN);
}

/**
 * kmark_collect_args - take a marker's arguments off the va_list, once
 * @l:		the marker's layout
 * @args:	the arguments
 * @a:		out: each argument's value (strings: pointer and length)
 *
 * The recorder walks the va_list once: values go to @a, and each string's
 * length is measured once, so that the record's size is known before the
 * ring buffer is asked for room and the copy needs no second walk.
 *
 * Return: bytes the arguments take in a record.
 */
size_t notrace kmark_collect_args(const struct kmark_layout *l, va_list *args,
				  struct kmark_argv *a)
{
	size_t size = l->fixed_size;
	unsigned int i;

	for (i = 0; i < l->nr_fields; i++) {
		switch (l->fields[i].type) {
		case KMARK_ARG_INT:
			a->v[i].ll = (u32)va_arg(*args, int);
			break;
		case KMARK_ARG_LONG:
			a->v[i].ll = va_arg(*args, unsigned long);
			break;
		case KMARK_ARG_LLONG:
			a->v[i].ll = va_arg(*args, u64);
			break;
		case KMARK_ARG_STR: {
			const char *str = va_arg(*args, const char *) ?: "(null)";

			a->v[i].s = str;
			a->len[i] = strnlen(str, KMARK_STR_MAX - 1);
			size += a->len[i] + 1;
			break;
		}
		}
	}
	return size;
}

/**
 * kmark_write_args - store collected arguments as the layout says
 * @l:		the marker's layout
 * @a:		from kmark_collect_args()
 * @dst:	room for the size kmark_collect_args() returned
 *
 * Records store the arguments back to back, unaligned, in field order.
 */
void notrace kmark_write_args(const struct kmark_layout *l,
			      const struct kmark_argv *a, u8 *dst)
{
	unsigned int i;

	for (i = 0; i < l->nr_fields; i++) {
		switch (l->fields[i].size) {
		case 0:				/* string */
			memcpy(dst, a->v[i].s, a->len[i]);
			dst[a->len[i]] = '\0';
			dst += a->len[i] + 1;
			break;
		case 4:
			put_unaligned((u32)a->v[i].ll, (u32 *)dst);
			dst += 4;
			break;
		default:
			put_unaligned(a->v[i].ll, (u64 *)dst);
			dst += 8;
			break;
		}
	}
}

/**
 * kmark_reserve - room for one record, with its head filled in
 * @id:		the event's marker id
 * @size:	bytes of arguments after the head
 * @from_hit:	called under __kmark_hit() (its preemption level is not the
 *		site's)
 *
 * Counts the hit as written, or as dropped when there is no room.
 * Return: the record, to be finished with kmark_commit(); NULL when
 * tracing is off or there was no room.
 */
struct kmark_entry *notrace kmark_reserve(u16 id, size_t size, bool from_hit)
{
	struct trace_buffer *buf = READ_ONCE(kmark_buffer);
	struct ring_buffer_event *event;
	struct kmark_entry *e;

	if (!READ_ONCE(kmark_tracing_on) || unlikely(!buf))
		return NULL;
	local_inc(this_cpu_ptr(&kmark_stats.written));
	event = ring_buffer_lock_reserve(buf, sizeof(*e) + size);
	if (unlikely(!event)) {
		local_inc(this_cpu_ptr(&kmark_stats.dropped));
		return NULL;
	}
	e = ring_buffer_event_data(event);
	e->id = id;
	kmark_fill_ctx(e, from_hit);
	return e;
}

void notrace kmark_commit(void)
{
	ring_buffer_unlock_commit(kmark_buffer);
}

/**
 * kmark_record_probe - kmark's recorder, attached by set_event
 * @data:	unused
 * @m:		the marker that fired
 * @args:	its arguments
 */
void notrace kmark_record_probe(void *data, struct kmark_marker *m,
				va_list *args)
{
	struct kmark_argv a __uninitialized;
	struct kmark_entry *e;
	size_t size;

	if (!READ_ONCE(kmark_tracing_on))
		return;
	size = kmark_collect_args(m->layout, args, &a);
	e = kmark_reserve(m->id, size, true);
	if (!e)
		return;
	kmark_write_args(m->layout, &a, e->data);
	kmark_commit();
}

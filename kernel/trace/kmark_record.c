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
#include <linux/hrtimer.h>
#include <linux/init.h>
#include <linux/irq_work.h>
#include <linux/kprobes.h>
#include <linux/percpu.h>
#include <linux/preempt.h>
#include <linux/sched/clock.h>
#include <linux/string.h>
#include <linux/wait.h>
#include <linux/unaligned.h>
#include <asm/local.h>

#include "kmark_internal.h"

/* Allocated on first use; then never freed. Set under kmark_mutex. */
struct trace_buffer *kmark_buffer;
/* tracing_on: read locklessly on the recording path. */
bool kmark_tracing_on = true;
/* Per-CPU buffer size in KiB (ftrace's default); under kmark_mutex. */
unsigned long kmark_buffer_kb = 1408;

/*
 * Per-CPU counters, only ever changed by their own CPU (local_t). Clearing
 * does not write them (a remote local_set() would race the owner's
 * local_inc()): it records where they stood in kmark_stats_base, under
 * kmark_mutex, and readers subtract.
 */
struct kmark_cpu_stats {
	local_t written;
	local_t dropped;
};

static DEFINE_PER_CPU(struct kmark_cpu_stats, kmark_stats);

struct kmark_stats_base {
	unsigned long written;
	unsigned long dropped;
};

static DEFINE_PER_CPU(struct kmark_stats_base, kmark_stats_base);

unsigned long kmark_written(int cpu)
{
	return local_read(&per_cpu(kmark_stats, cpu).written) -
	       READ_ONCE(per_cpu(kmark_stats_base, cpu).written);
}

unsigned long kmark_dropped(int cpu)
{
	return local_read(&per_cpu(kmark_stats, cpu).dropped) -
	       READ_ONCE(per_cpu(kmark_stats_base, cpu).dropped);
}

int kmark_buffer_ensure(void)
{
	struct trace_buffer *b;

	lockdep_assert_held(&kmark_mutex);
	if (kmark_buffer)
		return 0;
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
	if (kmark_buffer) {
		ring_buffer_reset(kmark_buffer);
		kmark_batch_reset();	/* what was ready is gone */
	}
	for_each_possible_cpu(cpu) {
		struct kmark_cpu_stats *st = per_cpu_ptr(&kmark_stats, cpu);
		struct kmark_stats_base *b = per_cpu_ptr(&kmark_stats_base, cpu);

		WRITE_ONCE(b->written, local_read(&st->written));
		WRITE_ONCE(b->dropped, local_read(&st->dropped));
	}
}

/* ftrace's context flags (tracing_gen_ctx_irq_test()). */
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

/*
 * A hit that could not be recorded where it happened (RCU not watching):
 * counted as written and dropped, so that readers see the loss.
 */
void notrace kmark_count_drop(void)
{
	if (!READ_ONCE(kmark_tracing_on) || !READ_ONCE(kmark_buffer))
		return;
	local_inc(this_cpu_ptr(&kmark_stats.written));
	local_inc(this_cpu_ptr(&kmark_stats.dropped));
}
NOKPROBE_SYMBOL(kmark_count_drop);

/**
 * kmark_reserve - room for one record, with its head filled in
 * @id:		the event's marker id
 * @size:	bytes of the whole record, header included
 * @from_hit:	called under __kmark_hit() (its preemption level is not the
 *		site's)
 * @evp:	if not NULL, set to the ring buffer event of the record
 *
 * Counts the hit as written, or as dropped when there is no room.
 * Return: the record, to be finished with kmark_commit(); NULL when
 * tracing is off or there was no room.
 */
notrace struct kmark_entry *kmark_reserve(u16 id, size_t size, bool from_hit,
					  struct ring_buffer_event **evp)
{
	struct trace_buffer *buf = READ_ONCE(kmark_buffer);
	struct ring_buffer_event *event;
	struct kmark_entry *e;

	if (!READ_ONCE(kmark_tracing_on) || unlikely(!buf))
		return NULL;
	local_inc(this_cpu_ptr(&kmark_stats.written));
	event = ring_buffer_lock_reserve(buf, size);
	if (unlikely(!event)) {
		local_inc(this_cpu_ptr(&kmark_stats.dropped));
		return NULL;
	}
	e = ring_buffer_event_data(event);
	e->type = id;
	kmark_fill_ctx(e, from_hit);
	if (evp)
		*evp = event;
	return e;
}
NOKPROBE_SYMBOL(kmark_reserve);

/*
 * Give back a reserved record its filter refused (kprobe events, whose
 * filter reads the record): not written, not in the buffer.
 */
void notrace kmark_discard(struct ring_buffer_event *event)
{
	ring_buffer_discard_commit(kmark_buffer, event);
	local_dec(this_cpu_ptr(&kmark_stats.written));
}
NOKPROBE_SYMBOL(kmark_discard);

/*
 * A marker's hit against its filter, read from the argument block before
 * anything is reserved; the common fields come from a header built here,
 * as the record would get it. Out of line: only filtered events pay.
 */
static noinline bool notrace kmark_hit_filter(const struct kmark_marker *m,
					      const struct kmark_filter *flt,
					      const void *args)
{
	struct kmark_entry hdr __uninitialized;

	if (kmark_filter_needs_hdr(flt)) {
		hdr.type = m->id;
		kmark_fill_ctx(&hdr, true);
	}
	return !kmark_filter_match(flt, &hdr,
				   (const u8 *)args - KMARK_HDR_SIZE, 0);
}
NOKPROBE_SYMBOL(kmark_hit_filter);

/* Is a marker's hit filtered out? Without a filter, one load and a test. */
static __always_inline bool kmark_hit_filtered_out(const struct kmark_marker *m,
						   const void *args)
{
	const struct kmark_filter *flt = rcu_dereference_sched(m->filter);

	return unlikely(flt) && kmark_hit_filter(m, flt, args);
}

/**
 * kmark_record_text - record a text as an event of one string field
 * @m:		the event (trace_marker's tracing_mark_write)
 * @text:	the text, NUL-terminated
 * @len:	its length
 *
 * The event's filter runs first, as for markers. Called where it may sleep.
 * Return: 0 (also when the buffer was full: counted as dropped), or -EBADF
 * when tracing is off, as ftrace's trace_marker.
 */
int kmark_record_text(struct kmark_marker *m, const char *text,
		      unsigned int len)
{
	const struct kmark_layout *l = m->layout;
	const char *args[1] = { text };
	struct kmark_entry *e;
	int ret = 0;

	if (!READ_ONCE(kmark_tracing_on))
		return -EBADF;
	preempt_disable_notrace();
	if (!kmark_pid_filtered_out(m, NULL) &&
	    !kmark_hit_filtered_out(m, args)) {
		e = kmark_reserve(m->id, l->size + len + 1, true, NULL);
		if (e) {
			memset(e + 1, 0, l->size - KMARK_HDR_SIZE);
			kmark_put_str(e, &l->fields[0], (u8 *)e + l->size,
				      text, len);
			kmark_commit();
		} else if (!READ_ONCE(kmark_tracing_on)) {
			ret = -EBADF;
		}
	}
	preempt_enable_notrace();
	return ret;
}

void notrace kmark_commit(void)
{
	ring_buffer_unlock_commit(kmark_buffer);
	if (unlikely(atomic_read(&kmark_readers)))
		kmark_batch_event();
}
NOKPROBE_SYMBOL(kmark_commit);

/**
 * kmark_record_probe - kmark's recorder, attached by set_event
 * @data:	unused
 * @m:		the marker that fired
 * @args:	the site's argument block: a record without its header
 *
 * The fixed part is one copy of @args; each string then gets its
 * __data_loc word and its text after the fixed part.
 */
void notrace kmark_record_probe(void *data, struct kmark_marker *m,
				const void *args)
{
	struct kmark_strs strs __uninitialized;
	struct kmark_entry *e;
	size_t size;

	if (!READ_ONCE(kmark_tracing_on) || kmark_pid_filtered_out(m, args) ||
	    kmark_hit_filtered_out(m, args))
		return;
	size = kmark_record_size(m->layout, args, &strs);
	e = kmark_reserve(m->id, size, true, NULL);
	if (!e)
		return;
	kmark_record_fill(e, m->layout, args, &strs);
	kmark_commit();
}
NOKPROBE_SYMBOL(kmark_record_probe);

/*
 * Batched wakeups of trace_pipe readers. A blocked reader (read() or
 * poll()) is woken when the batch is ready: read_delay_ms after the first
 * event since the buffer was last drained, or at once when a CPU's buffer
 * is buffer_percent full. Waking the reader per event made an idle
 * system's trace its reader talking to itself: each wakeup is a context
 * switch, which sched_switch records, which wakes the reader.
 *
 * kmark_readers counts the open trace_pipe files; only while it is
 * non-zero does the recording path look at the batch. KMARK_BATCH_STARTED
 * is set by the first event of a batch (the timer is armed from irq_work:
 * the recording path may hold the runqueue lock), KMARK_BATCH_READY by the
 * timer or the watermark; a reader that drains the buffer clears both.
 */
atomic_t kmark_readers;
DECLARE_WAIT_QUEUE_HEAD(kmark_read_wq);
/* The settings: written under kmark_mutex, read with READ_ONCE(). */
unsigned int kmark_read_delay_ms = 50;
unsigned int kmark_buffer_percent = 50;

unsigned long kmark_batch;
static struct hrtimer kmark_batch_timer;
static struct irq_work kmark_batch_work;

static enum hrtimer_restart kmark_batch_timeout(struct hrtimer *t)
{
	set_bit(KMARK_BATCH_READY, &kmark_batch);
	wake_up_interruptible_all(&kmark_read_wq);
	return HRTIMER_NORESTART;
}

static void kmark_batch_arm(void)
{
	hrtimer_start(&kmark_batch_timer,
		      ms_to_ktime(READ_ONCE(kmark_read_delay_ms)),
		      HRTIMER_MODE_REL);
}

static void kmark_batch_irq_work(struct irq_work *w)
{
	if (test_bit(KMARK_BATCH_READY, &kmark_batch))
		wake_up_interruptible_all(&kmark_read_wq);
	else
		kmark_batch_arm();
}

/* Whether this CPU's buffer is buffer_percent full. */
static bool notrace kmark_batch_full(struct trace_buffer *b, int cpu,
				     unsigned int pct)
{
	size_t size = ring_buffer_size(b, cpu);

	return ring_buffer_nr_dirty_pages(b, cpu) * PAGE_SIZE * 100 >=
	       (size_t)pct * size;
}

/*
 * The recording path, after a commit, while trace_pipe is open: start the
 * batch or mark it ready. Preemption is off (a probe, or kprobe context).
 */
void notrace kmark_batch_event(void)
{
	unsigned int pct = READ_ONCE(kmark_buffer_percent);

	if (test_bit(KMARK_BATCH_READY, &kmark_batch))
		return;
	if (!READ_ONCE(kmark_read_delay_ms) || !pct ||
	    kmark_batch_full(kmark_buffer, smp_processor_id(), pct)) {
		if (!test_and_set_bit(KMARK_BATCH_READY, &kmark_batch))
			irq_work_queue(&kmark_batch_work);
		return;
	}
	if (!test_and_set_bit(KMARK_BATCH_STARTED, &kmark_batch))
		irq_work_queue(&kmark_batch_work);
}
NOKPROBE_SYMBOL(kmark_batch_event);

/*
 * A reader found nothing to read: the next batch begins. If events came in
 * meanwhile (their first one saw the old batch), this one starts at once.
 */
void kmark_batch_reset(void)
{
	clear_bit(KMARK_BATCH_STARTED, &kmark_batch);
	clear_bit(KMARK_BATCH_READY, &kmark_batch);
	hrtimer_try_to_cancel(&kmark_batch_timer);
	/*
	 * Order the clearing before looking at the buffer: an event committed
	 * before it saw STARTED set and armed nothing, so it is found here.
	 */
	smp_mb__after_atomic();
	if (READ_ONCE(kmark_buffer) && !ring_buffer_empty(kmark_buffer))
		kmark_batch_start();
}

/* Start a batch for events already in the buffer (none started it). */
void kmark_batch_start(void)
{
	if (!READ_ONCE(kmark_read_delay_ms) || !READ_ONCE(kmark_buffer_percent)) {
		set_bit(KMARK_BATCH_READY, &kmark_batch);
		wake_up_interruptible_all(&kmark_read_wq);
	} else if (!test_and_set_bit(KMARK_BATCH_STARTED, &kmark_batch)) {
		kmark_batch_arm();
	}
}

static int __init kmark_batch_init(void)
{
	hrtimer_init(&kmark_batch_timer, CLOCK_MONOTONIC, HRTIMER_MODE_REL);
	kmark_batch_timer.function = kmark_batch_timeout;
	init_irq_work(&kmark_batch_work, kmark_batch_irq_work);
	return 0;
}
early_initcall(kmark_batch_init);

#ifndef CONFIG_TRACING
/*
 * Without tracing, nobody set up the ring buffer's CPU hotplug state: do it
 * once, at boot, so that allocating the buffer later can only fail for lack
 * of memory (and can be retried).
 */
static int __init kmark_record_init(void)
{
	int ret = cpuhp_setup_state_multi(CPUHP_TRACE_RB_PREPARE,
					  "kmark/RB:prepare",
					  trace_rb_cpu_prepare, NULL);

	if (ret < 0)
		pr_err("cannot set up the ring buffer's CPU hotplug state: %d\n",
		       ret);
	return 0;
}
early_initcall(kmark_record_init);
#endif

// SPDX-License-Identifier: GPL-2.0
/*
 * kmark: the recorder. kmark_record_probe() is the probe an event file
 * attaches to its marker (its data is the event file: an event in one
 * instance); it writes one record per hit into the instance's buffer, the
 * kernel's per-CPU ring buffer (kernel/trace/ring_buffer.c), in overwrite
 * mode unless options/overwrite is 0.
 *
 * Accounting, per instance and CPU, so that no loss is silent:
 *   written  hits recorded or attempted while tracing_on (our counter)
 *   dropped  hits that got no room: reserve failed (buffer being resized,
 *            event too big, nested too deep), or that came where RCU does
 *            not watch (counted once for all instances, shown in each)
 *   overrun  records overwritten before a reader got them (ring buffer)
 *   read     records consumed through trace_pipe (ring buffer)
 * Once the buffer is drained: written = read + overrun + dropped. Readers
 * of trace_pipe see both kinds of loss as "CPU:N [LOST M EVENTS]".
 */
#define pr_fmt(fmt) "kmark: " fmt

#include <linux/atomic.h>
#include <linux/cpuhotplug.h>
#include <linux/hardirq.h>
#include <linux/hash.h>
#include <linux/jhash.h>
#include <linux/kallsyms.h>
#include <linux/hrtimer.h>
#include <linux/init.h>
#include <linux/irq_work.h>
#include <linux/kprobes.h>
#include <linux/mm.h>
#include <linux/percpu.h>
#include <linux/preempt.h>
#include <linux/sched/clock.h>
#include <linux/stacktrace.h>
#include <linux/string.h>
#include <linux/threads.h>
#include <linux/wait.h>
#include <linux/unaligned.h>
#include <linux/vmalloc.h>
#include <linux/workqueue.h>
#include <asm/local.h>

#include "kmark_internal.h"

/*
 * Per-CPU counters of an instance, only ever changed by their own CPU
 * (local_t). Clearing does not write them (a remote local_set() would race
 * the owner's local_inc()): it records where they stood in stats_base,
 * under kmark_mutex, and readers subtract.
 */
struct kmark_cpu_stats {
	local_t written;
	local_t dropped;
};

struct kmark_stats_base {
	unsigned long written;
	unsigned long dropped;
};

unsigned long kmark_written(struct kmark_instance *inst, int cpu)
{
	return local_read(&per_cpu_ptr(inst->stats, cpu)->written) -
	       READ_ONCE(per_cpu_ptr(inst->stats_base, cpu)->written) +
	       kmark_unwatched_drops(cpu) - READ_ONCE(inst->unwatched_seen[cpu]);
}

unsigned long kmark_dropped(struct kmark_instance *inst, int cpu)
{
	return local_read(&per_cpu_ptr(inst->stats, cpu)->dropped) -
	       READ_ONCE(per_cpu_ptr(inst->stats_base, cpu)->dropped) +
	       kmark_unwatched_drops(cpu) - READ_ONCE(inst->unwatched_seen[cpu]);
}

static enum hrtimer_restart kmark_batch_timeout(struct hrtimer *t);
static void kmark_batch_irq_work(struct irq_work *w);

/**
 * kmark_instance_init - make an instance ready (not its buffer)
 * @inst:	the instance, zeroed; its name is set
 *
 * Return: 0, or -ENOMEM with nothing allocated.
 */
int kmark_instance_init(struct kmark_instance *inst)
{
	/* What kmark_instance_fini() undoes comes first. */
	hrtimer_init(&inst->batch_timer, CLOCK_MONOTONIC, HRTIMER_MODE_REL);
	inst->batch_timer.function = kmark_batch_timeout;
	init_irq_work(&inst->batch_work, kmark_batch_irq_work);
	inst->stats = alloc_percpu(struct kmark_cpu_stats);
	inst->stats_base = alloc_percpu(struct kmark_stats_base);
	inst->dropped_seen = kcalloc(nr_cpu_ids, sizeof(*inst->dropped_seen),
				     GFP_KERNEL);
	inst->unwatched_seen = kcalloc(nr_cpu_ids,
				       sizeof(*inst->unwatched_seen),
				       GFP_KERNEL);
	if (!inst->stats || !inst->stats_base || !inst->dropped_seen ||
	    !inst->unwatched_seen ||
	    !zalloc_cpumask_var(&inst->cpumask, GFP_KERNEL)) {
		kmark_instance_fini(inst);
		return -ENOMEM;
	}
	cpumask_setall(inst->cpumask);
	inst->tracing_on = true;
	inst->buffer_kb = 1408;		/* ftrace's default */
	inst->read_delay_ms = 50;
	inst->buffer_percent = 50;
	inst->options = BIT(KMARK_OPT_OVERWRITE);
	atomic_set(&inst->readers, 0);
	atomic_set(&inst->buf_users, 0);
	atomic_set(&inst->pid_overflow, 0);
	raw_spin_lock_init(&inst->snap_lock);
	init_waitqueue_head(&inst->read_wq);
	mutex_init(&inst->read_mutex);
	mutex_init(&inst->err_mutex);
	INIT_LIST_HEAD(&inst->errs);
	INIT_LIST_HEAD(&inst->files);
	INIT_LIST_HEAD(&inst->systems);
	return 0;
}

/*
 * Free what kmark_instance_init() and use allocated. The caller made sure
 * that no probe records into it any more and no file holds it.
 */
void kmark_instance_fini(struct kmark_instance *inst)
{
	/*
	 * The irq_work arms the timer: wait for it first, then for the
	 * timer. The other way round, a batch's last irq_work re-armed the
	 * timer of a freed instance, and the next instance made in the slot
	 * re-initialised a queued hrtimer.
	 */
	irq_work_sync(&inst->batch_work);
	hrtimer_cancel(&inst->batch_timer);
	if (inst->buffer)
		ring_buffer_free(inst->buffer);
	if (inst->snapshot)
		ring_buffer_free(inst->snapshot);
	inst->buffer = NULL;
	inst->snapshot = NULL;
	free_percpu(inst->stats);
	free_percpu(inst->stats_base);
	kfree(inst->dropped_seen);
	kfree(inst->unwatched_seen);
	free_cpumask_var(inst->cpumask);
	inst->stats = NULL;
	inst->stats_base = NULL;
	inst->dropped_seen = NULL;
	inst->unwatched_seen = NULL;
}

/* --- task names: the table behind struct kmark_entry's comm_id --------- */

/* Allocated (under kmark_mutex) before the first buffer; never freed. */
struct kmark_comm_table *kmark_comms __read_mostly;
/* Ids this CPU gave last: guesses, see kmark_comm_of_current(). */
DEFINE_PER_CPU(struct kmark_comm_hint [1 << KMARK_COMM_HINT_BITS],
	       kmark_comm_hint);

/*
 * saved_cmdlines: each pid's name id, as its latest lookup in the table
 * gave it (kmark_comm_id_slow(), which every record's task goes through
 * for its pid and name: kmark_comm_of_current()). Pids below
 * KMARK_PID_NAMES have a slot each, so the file names every task that
 * recorded; larger pids (pid_max raised) share the 1024 slots of
 * kmark_cmdlines by pid, the last one wins, and are counted in
 * kmark_pids_beyond: then a record's pid may have lost its name there.
 * (KMARK_PID_NAMES and KMARK_CMDLINES: kmark_internal.h.)
 * Allocated with kmark_comms, never freed; written without a lock by any
 * context (one word each), read by the files' show functions.
 */
u32 *kmark_pid_names __read_mostly;
static atomic64_t kmark_cmdlines[KMARK_CMDLINES];
static atomic_long_t kmark_pids_beyond;

void kmark_comm_table_init(struct kmark_comm_table *t, u32 seed)
{
	memset(t, 0, sizeof(*t));
	t->era = 1;
	t->seed = seed;
}

int kmark_comms_ensure(void)
{
	struct kmark_comm_table *t;

	BUILD_BUG_ON(TASK_COMM_LEN % sizeof(unsigned long));
	BUILD_BUG_ON(KMARK_COMM_SLOT_BITS + KMARK_COMM_GEN_BITS > 32);
	BUILD_BUG_ON(2 + KMARK_COMM_GEN_BITS + KMARK_COMM_ERA_BITS > 32);
	lockdep_assert_held(&kmark_mutex);
	if (kmark_comms)
		return 0;
	if (!kmark_pid_names) {
		kmark_pid_names = vzalloc(array_size(KMARK_PID_NAMES,
						     sizeof(u32)));
		if (!kmark_pid_names)
			return -ENOMEM;
	}
	/* A boot-mapped instance keeps the table in its reserved memory. */
	t = kmark_flight_comms();
	if (!t) {
		t = vmalloc(sizeof(*t));
		if (!t)
			return -ENOMEM;
		kmark_comm_table_init(t, get_random_u32());
	}
	/* Pairs with READ_ONCE() in the recorder (an address dependency). */
	smp_store_release(&kmark_comms, t);
	return 0;
}

/* How many eras ago @tag's name was last used. */
static __always_inline u32 kmark_comm_age(u32 tag, u32 era)
{
	return (era - KMARK_COMM_TAG_LAST(tag)) & KMARK_COMM_ERA_MASK;
}

static u32 kmark_comm_next_era(u32 era)
{
	era = (era + 1) & KMARK_COMM_ERA_MASK;
	return era ?: 1;
}

static __always_inline u32 kmark_comm_id(u32 gen, u32 idx)
{
	return gen << KMARK_COMM_SLOT_BITS | idx;
}

/* One pass over @comm's window in era @era: its id, or 0 if no room. */
static u32 notrace kmark_comm_try(struct kmark_comm_table *t, u32 era,
				  const unsigned long *name, u32 h)
{
	struct kmark_comm_slot *slot, *take = NULL;
	u32 i, idx, tag, gen, take_tag = 0;

	for (i = 0; i < KMARK_COMM_PROBES; i++) {
		idx = (h + i) & (KMARK_COMM_IDS - 1);
		slot = &t->slots[idx];
again:
		/* READY: the name is there (pairs with the release below). */
		tag = smp_load_acquire(&slot->tag);
		switch (KMARK_COMM_TAG_STATE(tag)) {
		case KMARK_COMM_READY:
			if (kmark_comm_eq(slot->name, (const char *)name)) {
				u32 gen = KMARK_COMM_TAG_GEN(tag);
				u32 want = KMARK_COMM_TAG(KMARK_COMM_READY,
							  gen, era);

				/* Its name again: given in this era too. */
				if (KMARK_COMM_TAG_LAST(tag) != era &&
				    cmpxchg(&slot->tag, tag, want) != tag)
					goto again;
				return kmark_comm_id(gen, idx);
			}
			/*
			 * A name of an earlier era may be taken over: the one
			 * last used longest ago, so recent names stay.
			 */
			if (KMARK_COMM_TAG_LAST(tag) != era &&
			    (!take || kmark_comm_age(tag, era) >
				      kmark_comm_age(take_tag, era))) {
				take = slot;
				take_tag = tag;
			}
			continue;
		case KMARK_COMM_FREE:
			/* Slots never become free again: the name is not further on. */
			take = slot;
			take_tag = tag;
			i = KMARK_COMM_PROBES;
			break;
		default:	/* BUSY: another context is writing it */
			continue;
		}
	}
	if (!take)
		return 0;
	/* A new generation from BUSY on: the old ids name nothing any more. */
	gen = kmark_comm_next_gen(take_tag);
	if (cmpxchg(&take->tag, take_tag,
		    KMARK_COMM_TAG(KMARK_COMM_BUSY, gen, era)) != take_tag)
		return 0;	/* taken meanwhile: the caller tries again */
	memcpy(take->name, name, TASK_COMM_LEN);
	/* The name before READY: readers acquire the tag. */
	smp_store_release(&take->tag, KMARK_COMM_TAG(KMARK_COMM_READY, gen, era));
	if (KMARK_COMM_TAG_STATE(take_tag) == KMARK_COMM_READY)
		atomic_long_inc(&t->recycled);
	/* Enough new names: the next era (the one this name was given in). */
	if (atomic_inc_return(&t->fresh) >= KMARK_COMM_ERA_NAMES) {
		atomic_set(&t->fresh, 0);
		cmpxchg(&t->era, era, kmark_comm_next_era(era));
	}
	return kmark_comm_id(gen, (u32)(take - t->slots));
}

/**
 * kmark_comm_table_id - a name's id in a table, added if it is new
 * @t:		the table
 * @comm:	the name (a task's comm: TASK_COMM_LEN bytes, NUL-terminated
 *		within them)
 *
 * Lock-free, from any context. A free slot, or the one of the window
 * whose name was last given longest ago (in an earlier era), is claimed
 * with cmpxchg() in its next generation, filled, then published READY; a
 * slot another context is
 * filling is passed over, so that a name can get two ids (both name it
 * right). The era advances every KMARK_COMM_ERA_NAMES new names, and when
 * the name's whole window holds names of the current era.
 *
 * Return: the id, or 0 (counted) when even that found no slot: a window
 * full of slots being written at once by other contexts.
 */
u32 notrace kmark_comm_table_id(struct kmark_comm_table *t, const char *comm)
{
	unsigned long name[TASK_COMM_LEN / sizeof(unsigned long)] = {};
	u32 era, h, id;
	int tries;

	/* A copy, cut at its first NUL (another thread may be renaming). */
	memcpy(name, comm, strnlen(comm, TASK_COMM_LEN - 1));
	h = jhash2((const u32 *)name, TASK_COMM_LEN / sizeof(u32), t->seed);
	for (tries = 0; tries < 4; tries++) {
		era = READ_ONCE(t->era);
		id = kmark_comm_try(t, era, name, h);
		if (id)
			return id;
		/* The window is full of this era's names: the next era. */
		cmpxchg(&t->era, era, kmark_comm_next_era(era));
	}
	atomic_long_inc(&t->missed);
	return 0;
}
NOKPROBE_SYMBOL(kmark_comm_table_id);

/**
 * kmark_comm_table_name - the name an id of a table stands for
 * @t:		the table
 * @id:		an id it gave (a record's comm_id)
 * @buf:	TASK_COMM_LEN bytes, NUL-terminated on success
 *
 * Return: false for an id that names nothing (0: none was given; a slot
 * another name took over since: a generation the slot does not have).
 */
bool kmark_comm_table_name(const struct kmark_comm_table *t, u32 id,
			   char *buf)
{
	u32 gen = id >> KMARK_COMM_SLOT_BITS, tag, again;
	const struct kmark_comm_slot *slot;

	if (!t || !gen)
		return false;
	slot = &t->slots[id & (KMARK_COMM_IDS - 1)];
	/* Pairs with the release in kmark_comm_try(): READY, the name is set. */
	tag = smp_load_acquire(&slot->tag);
	if (KMARK_COMM_TAG_STATE(tag) != KMARK_COMM_READY ||
	    KMARK_COMM_TAG_GEN(tag) != gen)
		return false;
	memcpy(buf, slot->name, TASK_COMM_LEN);
	buf[TASK_COMM_LEN - 1] = '\0';
	/* Taken over while it was copied: the name went through BUSY. */
	smp_rmb();
	again = READ_ONCE(slot->tag);
	return KMARK_COMM_TAG_STATE(again) == KMARK_COMM_READY &&
	       KMARK_COMM_TAG_GEN(again) == gen;
}

/* current's name in kmark's table, when its CPU's hint was not it */
u32 notrace kmark_comm_id_slow(const char *comm)
{
	struct kmark_comm_table *t = READ_ONCE(kmark_comms);
	u32 id;

	if (!t)
		return 0;	/* no buffer yet: nothing will be recorded */
	id = kmark_comm_table_id(t, comm);
	if (likely(id)) {
		struct kmark_comm_hint *h;

		/* The pid's name first: a guess that passes implies it. */
		kmark_saved_cmdline(current->pid, id);
		h = this_cpu_ptr(&kmark_comm_hint[kmark_comm_hint_idx()]);
		WRITE_ONCE(h->pid, current->pid);
		WRITE_ONCE(h->id, id);
	}
	return id;
}
NOKPROBE_SYMBOL(kmark_comm_id_slow);

bool kmark_comm_name(u32 id, char *buf)
{
	return kmark_comm_table_name(READ_ONCE(kmark_comms), id, buf);
}

/* saved_comms: "ID NAME" for every slot that holds a name, then the counters. */
void kmark_comms_show_table(struct seq_file *m)
{
	const struct kmark_comm_table *t = READ_ONCE(kmark_comms);
	char name[TASK_COMM_LEN], esc[KMARK_ESC_LEN(TASK_COMM_LEN)];
	u32 idx, tag, id;

	if (!t)
		return;
	for (idx = 0; idx < KMARK_COMM_IDS; idx++) {
		/* pairs with the release that publishes a slot's name */
		tag = smp_load_acquire(&t->slots[idx].tag);
		if (KMARK_COMM_TAG_STATE(tag) != KMARK_COMM_READY)
			continue;
		id = kmark_comm_id(KMARK_COMM_TAG_GEN(tag), idx);
		if (kmark_comm_table_name(t, id, name))
			seq_printf(m, "%u %s\n", id,
				   kmark_escape_name(esc, name, sizeof(name)));
	}
	if (atomic_long_read(&t->recycled))
		seq_printf(m, "# %ld names of earlier eras taken over by new ones (their older records show <...>)\n",
			   atomic_long_read(&t->recycled));
	if (atomic_long_read(&t->missed))
		seq_printf(m, "# %ld records without a saved name\n",
			   atomic_long_read(&t->missed));
}

/* Note @pid's name id for saved_cmdlines (see kmark_pid_names). */
void notrace kmark_saved_cmdline(pid_t pid, u32 comm_id)
{
	u32 *names = READ_ONCE(kmark_pid_names);

	if (likely(names && (u32)pid < KMARK_PID_NAMES)) {
		if (READ_ONCE(names[pid]) != comm_id)
			WRITE_ONCE(names[pid], comm_id);
		return;
	}
	atomic_long_inc(&kmark_pids_beyond);
	atomic64_set(&kmark_cmdlines[(u32)pid % KMARK_CMDLINES],
		     (u64)(u32)pid << 32 | comm_id);
}
NOKPROBE_SYMBOL(kmark_saved_cmdline);

/* The name id saved_cmdlines has for @pid, 0 for none (KUnit). */
u32 kmark_saved_cmdline_id(pid_t pid)
{
	const u32 *names = READ_ONCE(kmark_pid_names);

	if (names && (u32)pid < KMARK_PID_NAMES)
		return READ_ONCE(names[pid]);
	return 0;
}

/* saved_cmdlines: "pid comm", by pid, for every pid with a name. */
int kmark_cmdlines_show(struct seq_file *m, void *v)
{
	const u32 *names = READ_ONCE(kmark_pid_names);
	char name[TASK_COMM_LEN], esc[KMARK_ESC_LEN(TASK_COMM_LEN)];
	unsigned int i;

	for (i = 0; names && i < KMARK_PID_NAMES; i++) {
		u32 id = READ_ONCE(names[i]);

		if (id && kmark_comm_name(id, name))
			seq_printf(m, "%u %s\n", i,
				   kmark_escape_name(esc, name, sizeof(name)));
		if (!(i % 1024))
			cond_resched();
	}
	for (i = 0; i < KMARK_CMDLINES; i++) {
		u64 e = atomic64_read(&kmark_cmdlines[i]);

		if (e && kmark_comm_name((u32)e, name))
			seq_printf(m, "%u %s\n", (u32)(e >> 32),
				   kmark_escape_name(esc, name, sizeof(name)));
	}
	return 0;
}

/*
 * For saved_comms: whether saved_cmdlines names every pid that recorded
 * (so a recorder need not read the records for their names), or how many
 * lookups came from pids it has no slot of its own for.
 */
void kmark_cmdlines_show_complete(struct seq_file *m)
{
	long beyond = atomic_long_read(&kmark_pids_beyond);

	if (!READ_ONCE(kmark_pid_names))
		return;
	if (beyond)
		seq_printf(m, "# saved_cmdlines: incomplete (%ld lookups by pids over %u)\n",
			   beyond, KMARK_PID_NAMES - 1);
	else
		seq_puts(m, "# saved_cmdlines: complete\n");
}

/* ring_buffer_alloc()'s arguments and result, for a worker (below). */
struct kmark_rb_alloc {
	struct work_struct work;
	unsigned long size;
	unsigned int flags;
	int make_it_fail;
	unsigned int fail_nth;
	struct trace_buffer *buffer;
};

static void kmark_rb_alloc_work(struct work_struct *work)
{
	struct kmark_rb_alloc *a = container_of(work, struct kmark_rb_alloc,
						work);
#ifdef CONFIG_FAULT_INJECTION
	int fail = current->make_it_fail;
	unsigned int nth = current->fail_nth;

	/*
	 * The writer's fault injection applies here as if it allocated:
	 * its task filter, and its fail-nth count, which goes back to it.
	 */
	current->make_it_fail = a->make_it_fail;
	current->fail_nth = a->fail_nth;
#endif
	a->buffer = ring_buffer_alloc(a->size, a->flags);
#ifdef CONFIG_FAULT_INJECTION
	a->fail_nth = current->fail_nth;
	current->make_it_fail = fail;
	current->fail_nth = nth;
#endif
}

/*
 * ring_buffer_alloc() in a kernel worker, waited for. From a user task it
 * gives up a CPU's pages when that task is being killed (a fatal signal
 * pending, in __rb_allocate_pages()), and for a CPU other than the
 * caller's that ends in a WARN (trace_rb_cpu_prepare(): "failed to
 * allocate ring buffer on CPU 0", a panic with panic_on_warn). A writer
 * killed during its first enable did that: ftracetest's instance-event.tc
 * kills its writer loops. A worker has no such signal; the buffer still
 * fails only for want of memory.
 */
static struct trace_buffer *kmark_ring_buffer_alloc(unsigned long size,
						    unsigned int flags)
{
	struct kmark_rb_alloc a = { .size = size, .flags = flags };

#ifdef CONFIG_FAULT_INJECTION
	a.make_it_fail = current->make_it_fail;
	a.fail_nth = current->fail_nth;
#endif
	INIT_WORK_ONSTACK(&a.work, kmark_rb_alloc_work);
	queue_work(system_unbound_wq, &a.work);
	flush_work(&a.work);
	destroy_work_on_stack(&a.work);
#ifdef CONFIG_FAULT_INJECTION
	current->fail_nth = a.fail_nth;
#endif
	return a.buffer;
}

int kmark_buffer_ensure(struct kmark_instance *inst)
{
	struct trace_buffer *b;
	int ret;

	lockdep_assert_held(&kmark_mutex);
	if (inst->buffer)
		return 0;
	ret = kmark_comms_ensure();
	if (ret)
		return ret;
	b = kmark_ring_buffer_alloc(inst->buffer_kb << 10,
				    test_bit(KMARK_OPT_OVERWRITE, &inst->options) ?
				    RB_FL_OVERWRITE : 0);
	if (!b)
		return -ENOMEM;
	if (inst->subbuf_order &&
	    ring_buffer_subbuf_order_set(b, inst->subbuf_order)) {
		ring_buffer_free(b);
		return -ENOMEM;
	}
	kmark_set_buffer_clock(b, inst->clock);
	/* Pairs with READ_ONCE() in the recorder and readers. */
	smp_store_release(&inst->buffer, b);
	kmark_cpumask_apply(inst, cpu_possible_mask);
	return 0;
}

int kmark_buffer_resize(struct kmark_instance *inst, unsigned long kb)
{
	return kmark_buffer_resize_cpu(inst, kb, RING_BUFFER_ALL_CPUS);
}

/*
 * The snapshot buffer could not take a setting the buffer took (out of
 * memory): it goes, and error_log says so, not to lose it silently.
 */
static void kmark_snapshot_lost(struct kmark_instance *inst)
{
	kmark_snapshot_free(inst);
	kmark_log_err(inst, "snapshot", 0,
		      "Out of memory: the snapshot buffer could not follow the buffer's new size and is freed");
}

/*
 * A new size or sub-buffer size for a buffer with a snapshot: refused
 * while a reader has one of the buffers open (trace, snapshot, trace_pipe,
 * trace_pipe_raw). A reader of the snapshot makes its resize fail, and a
 * reader may hold either buffer across a swap: a snapshot freed then was
 * used after its free.
 */
static int kmark_snapshot_busy(struct kmark_instance *inst)
{
	if (!inst->snapshot || !atomic_read(&inst->buf_users))
		return 0;
	kmark_log_err(inst, "snapshot", 0,
		      "A reader of trace, snapshot, trace_pipe or trace_pipe_raw is open: the snapshot buffer cannot follow a new size");
	return -EBUSY;
}

/* A sub-buffer's room for events: ring_buffer.c's rb_subbuf_capacity(). */
static unsigned long kmark_subbuf_capacity(unsigned int order)
{
	return (PAGE_SIZE << order) - offsetof(struct kmark_rb_page, data);
}

/**
 * kmark_buffer_cpu_size - the bytes a CPU's buffer holds, as ring_buffer_size()
 * @inst:	the instance
 * @cpu:	the CPU
 *
 * Before the buffer is made, what it will have once it is: the ring
 * buffer's rounding of buffer_size_kb to whole sub-buffers (at least two),
 * as ring_buffer_alloc() and then ring_buffer_subbuf_order_set() make it,
 * so that what the size files show does not change when the buffer is
 * made. Under kmark_mutex.
 */
unsigned long kmark_buffer_cpu_size(struct kmark_instance *inst, int cpu)
{
	unsigned long cap = kmark_subbuf_capacity(0), n;

	lockdep_assert_held(&kmark_mutex);
	if (inst->buffer)
		return ring_buffer_size(inst->buffer, cpu);
	n = max(2UL, DIV_ROUND_UP(inst->buffer_kb << 10, cap));
	if (inst->subbuf_order) {
		n *= cap;
		cap = kmark_subbuf_capacity(inst->subbuf_order);
		n = max(2UL, DIV_ROUND_UP(n, cap));
	}
	return n * cap;
}

/**
 * kmark_buffer_set_subbuf_order - buffer_subbuf_size_kb
 * @inst:	the instance
 * @order:	sub-buffers of PAGE_SIZE << @order
 *
 * Its buffer and snapshot get it now (what they held is gone, as with
 * ftrace's), or the buffer when it is made. A snapshot that cannot follow
 * is freed. Under kmark_mutex. Return: 0, -EPERM for the boot-mapped
 * instance, -EBUSY while a reader of trace holds the buffer (or, with a
 * snapshot, any reader: kmark_snapshot_busy()), -ENOMEM.
 */
int kmark_buffer_set_subbuf_order(struct kmark_instance *inst,
				  unsigned int order)
{
	int ret = 0;

	lockdep_assert_held(&kmark_mutex);
	if (inst->flight)
		return -EPERM;	/* its layout is its reserved memory's */
	ret = kmark_snapshot_busy(inst);
	if (ret)
		return ret;
	/* Consumers read a page of the old size at a time. */
	mutex_lock(&inst->read_mutex);
	kmark_snapshot_hold(inst, true);
	if (inst->buffer)
		ret = ring_buffer_subbuf_order_set(inst->buffer, order);
	if (!ret && inst->snapshot &&
	    ring_buffer_subbuf_order_set(inst->snapshot, order))
		kmark_snapshot_lost(inst);
	kmark_snapshot_hold(inst, false);
	if (!ret) {
		inst->subbuf_order = order;
		if (inst->buffer)
			kmark_batch_reset(inst);	/* what was ready is gone */
	}
	mutex_unlock(&inst->read_mutex);
	return ret;
}

/*
 * Whether @kb per CPU (of CPU @cpu, or all) can be had, the snapshot's
 * too. The ring buffer checks si_mem_available() against its count of
 * sub-buffers, not of pages: with sub-buffers of several pages, a size far
 * beyond memory reached the page allocator, which failed it loudly
 * (warn_alloc, the fuzzer's kmsg check). The same check, in pages.
 */
static bool kmark_buffer_fits(struct kmark_instance *inst, unsigned long kb,
			      int cpu)
{
	unsigned long pages = DIV_ROUND_UP(kb, PAGE_SIZE >> 10);
	unsigned long n = cpu == RING_BUFFER_ALL_CPUS ? num_online_cpus() : 1;

	if (inst->snapshot)
		n *= 2;
	return pages <= (unsigned long)max(si_mem_available(), 0L) / n;
}

/*
 * Resize @inst's buffer of CPU @cpu (or all), and its snapshot alike: the
 * two are swapped, so they must stay the same size. A snapshot that
 * cannot follow is freed. Under kmark_mutex.
 */
int kmark_buffer_resize_cpu(struct kmark_instance *inst, unsigned long kb,
			    int cpu)
{
	int ret = 0;

	lockdep_assert_held(&kmark_mutex);
	if (inst->flight)
		return -EPERM;	/* its buffer is its reserved memory */
	if (inst->buffer && !kmark_buffer_fits(inst, kb, cpu))
		return -ENOMEM;
	ret = kmark_snapshot_busy(inst);
	if (ret)
		return ret;
	/*
	 * A snapshot trigger swapping the two between their resizes would
	 * resize one buffer twice and the other never.
	 */
	kmark_snapshot_hold(inst, true);
	if (inst->buffer)
		ret = ring_buffer_resize(inst->buffer, kb << 10, cpu);
	if (ret >= 0 && inst->snapshot &&
	    ring_buffer_resize(inst->snapshot, kb << 10, cpu) < 0)
		kmark_snapshot_lost(inst);
	kmark_snapshot_hold(inst, false);
	if (ret < 0)
		return ret;
	if (cpu == RING_BUFFER_ALL_CPUS)
		inst->buffer_kb = kb;
	return 0;
}

/*
 * Empty @inst's buffer (of CPU @only, or all when -1) and start its
 * counters again. Under kmark_mutex and the instance's read_mutex.
 */
void kmark_buffer_clear(struct kmark_instance *inst, int only)
{
	int cpu;

	lockdep_assert_held(&kmark_mutex);
	lockdep_assert_held(&inst->read_mutex);
	if (inst->buffer && only < 0)
		ring_buffer_reset(inst->buffer);
	else if (inst->buffer)
		ring_buffer_reset_cpu(inst->buffer, only);
	for_each_possible_cpu(cpu) {
		struct kmark_cpu_stats *st = per_cpu_ptr(inst->stats, cpu);
		struct kmark_stats_base *b = per_cpu_ptr(inst->stats_base, cpu);

		if (only >= 0 && cpu != only)
			continue;
		WRITE_ONCE(b->written, local_read(&st->written));
		WRITE_ONCE(b->dropped, local_read(&st->dropped));
		WRITE_ONCE(inst->unwatched_seen[cpu], kmark_unwatched_drops(cpu));
		inst->dropped_seen[cpu] = 0;
	}
	if (inst->buffer)
		kmark_batch_reset(inst);	/* what was ready is gone */
	/* A previous boot's trace is gone: the instance records this boot. */
	if (inst->flight && only < 0)
		kmark_flight_cleared(inst);
}

static __always_inline void __kmark_commit(struct kmark_instance *inst,
					   struct trace_buffer *buf)
{
	ring_buffer_unlock_commit(buf);
	if (unlikely(atomic_read(&inst->readers)))
		kmark_batch_event(inst);
}

/* ftrace's context flags (tracing_gen_ctx_irq_test()); no comm id. */
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
}

/*
 * A record's comm id, once it is sure to be kept: a name gets into the
 * table only through a record that stays (a filter that drops the hit
 * adds none).
 */
void notrace kmark_set_comm_id(struct kmark_entry *e)
{
	e->comm_id = kmark_comm_of_current();
}
NOKPROBE_SYMBOL(kmark_set_comm_id);

/*
 * A common header as the record gets it, but for the comm id (set once
 * the record is kept: kmark_set_comm_id()); for paths that fill one of
 * their own (triggers, a kprobe event's scratch record).
 */
void notrace kmark_fill_hdr(struct kmark_entry *e, u16 id, bool from_hit)
{
	e->type = id;
	kmark_fill_ctx(e, from_hit);
	e->comm_id = 0;
}
NOKPROBE_SYMBOL(kmark_fill_hdr);

/*
 * kmark_reserve(), inlined into the markers' recorder. The buffer is read
 * once: a snapshot may swap the instance's buffers meanwhile, and the
 * record is committed to the one it was reserved in.
 */
static __always_inline struct kmark_entry *
__kmark_reserve(struct kmark_instance *inst, u16 id, size_t size,
		bool from_hit, struct trace_buffer **bufp,
		struct ring_buffer_event **evp)
{
	struct trace_buffer *buf = READ_ONCE(inst->buffer);
	struct ring_buffer_event *event;
	struct kmark_entry *e;

	if (!READ_ONCE(inst->tracing_on) || unlikely(!buf))
		return NULL;
	local_inc(&this_cpu_ptr(inst->stats)->written);
	event = ring_buffer_lock_reserve(buf, size);
	if (unlikely(!event)) {
		/*
		 * A CPU left out of tracing_cpumask records nothing, as
		 * ftrace's: not a hit lost, so neither written nor dropped.
		 */
		if (cpumask_test_cpu(raw_smp_processor_id(), inst->cpumask))
			local_inc(&this_cpu_ptr(inst->stats)->dropped);
		else
			local_dec(&this_cpu_ptr(inst->stats)->written);
		return NULL;
	}
	e = kmark_event_data(event);
	e->type = id;
	kmark_fill_ctx(e, from_hit);
	*bufp = buf;
	if (evp)
		*evp = event;
	else
		e->comm_id = kmark_comm_of_current();
	return e;
}

/**
 * kmark_reserve - room for one record, with its head filled in
 * @inst:	the instance whose buffer gets it
 * @id:		the event's marker id
 * @size:	bytes of the whole record, header included
 * @from_hit:	called under __kmark_hit() (its preemption level is not the
 *		site's)
 * @rec:	gets the buffer and event, for kmark_commit() or
 *		kmark_discard()
 *
 * Counts the hit as written, or as dropped when there is no room. The
 * caller sets the comm id (kmark_set_comm_id()) once it keeps the record.
 * Return: the record; NULL when tracing is off or there was no room.
 */
notrace struct kmark_entry *kmark_reserve(struct kmark_instance *inst, u16 id,
					  size_t size, bool from_hit,
					  struct kmark_rec *rec)
{
	return __kmark_reserve(inst, id, size, from_hit, &rec->buf,
			       &rec->event);
}
NOKPROBE_SYMBOL(kmark_reserve);

/*
 * Give back a reserved record its filter refused (kprobe events, whose
 * filter reads the record): not written, not in the buffer.
 */
void notrace kmark_discard(struct kmark_instance *inst, struct kmark_rec *rec)
{
	ring_buffer_discard_commit(rec->buf, rec->event);
	local_dec(&this_cpu_ptr(inst->stats)->written);
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
		/* Only a filter on common_comm_id looks a name up. */
		hdr.comm_id = kmark_filter_needs_comm_id(flt) ?
			      kmark_comm_of_current() : 0;
	}
	return !kmark_filter_match(flt, &hdr,
				   (const u8 *)args - KMARK_HDR_SIZE, 0);
}
NOKPROBE_SYMBOL(kmark_hit_filter);

/* Is a marker's hit filtered out? Without a filter, one load and a test. */
static __always_inline bool kmark_hit_filtered_out(const struct kmark_event_file *file,
						   const void *args)
{
	const struct kmark_filter *flt = rcu_dereference_sched(file->filter);

	return unlikely(flt) && kmark_hit_filter(file->m, flt, args);
}

/**
 * kmark_record_text - record a text as an event of one string field
 * @file:	the event (trace_marker's ftrace:print) in the instance
 *		whose trace_marker was written
 * @text:	the text, NUL-terminated
 * @len:	its length
 *
 * The event's filter runs first, as for markers. Called where it may sleep.
 * Return: 0 (also when the buffer was full: counted as dropped), or -EBADF
 * when tracing is off, as ftrace's trace_marker.
 */
int kmark_record_text(struct kmark_event_file *file, const char *text,
		      unsigned int len)
{
	struct kmark_instance *inst = file->inst;
	const struct kmark_layout *l = file->m->layout;
	struct kmark_marker *m = file->m;
	const char *args[1] = { text };
	struct kmark_entry *e, hdr;
	unsigned long post = 0;
	int ret = 0;

	/* Tracing off: only a trigger (traceon) may still act on it. */
	if (!READ_ONCE(inst->tracing_on) &&
	    !(READ_ONCE(file->flags) & KMARK_EF_TRIGGER_MODE))
		return -EBADF;
	preempt_disable_notrace();
	if (unlikely(READ_ONCE(file->flags) & KMARK_EF_TRIGGER_MODE)) {
		kmark_fill_hdr(&hdr, m->id, true);
		kmark_triggers_call(file, &hdr, (const u8 *)args - KMARK_HDR_SIZE,
				    0, &post);
	}
	if (!READ_ONCE(inst->tracing_on)) {
		ret = -EBADF;
	} else if (!kmark_pid_filtered_out(inst, m, NULL) &&
		   !kmark_hit_filtered_out(file, args)) {
		struct kmark_rec rec;

		e = kmark_reserve(inst, m->id, l->size + len + 1, true, &rec);
		if (e) {
			kmark_set_comm_id(e);
			memset(e + 1, 0, l->size - KMARK_HDR_SIZE);
			kmark_put_str(e, &l->fields[0], (u8 *)e + l->size,
				      text, len);
			kmark_commit(inst, &rec);
		} else if (!READ_ONCE(inst->tracing_on)) {
			ret = -EBADF;
		}
	}
	if (post)
		kmark_triggers_post(file, &hdr, (const u8 *)args - KMARK_HDR_SIZE,
				    0, post);
	preempt_enable_notrace();
	return ret;
}

void notrace kmark_commit(struct kmark_instance *inst, struct kmark_rec *rec)
{
	__kmark_commit(inst, rec->buf);
}
NOKPROBE_SYMBOL(kmark_commit);

/* One marker hit into @file's instance; whether it was recorded. */
static __always_inline bool __kmark_record_marker(struct kmark_event_file *file,
						  struct kmark_marker *m,
						  const void *args)
{
	struct kmark_instance *inst = file->inst;
	struct kmark_strs strs __uninitialized;
	struct trace_buffer *buf;
	struct kmark_entry *e;
	size_t size;

	if (!READ_ONCE(inst->tracing_on) ||
	    kmark_pid_filtered_out(inst, m, args) ||
	    kmark_hit_filtered_out(file, args))
		return false;
	size = kmark_record_size(m->layout, args, &strs);
	e = __kmark_reserve(inst, m->id, size, true, &buf, NULL);
	if (!e)
		return false;
	kmark_record_fill(e, m->layout, args, &strs);
	__kmark_commit(inst, buf);
	return true;
}

/*
 * The recorder's slow path: triggers (they fire whether or not the event
 * is recorded), soft-disabled events (attached for triggers only), and
 * options/stacktrace. Out of line: only such events pay.
 */
static noinline void notrace kmark_record_slow(struct kmark_event_file *file,
					       struct kmark_marker *m,
					       const void *args)
{
	const void *rec = (const u8 *)args - KMARK_HDR_SIZE;
	unsigned long flags = READ_ONCE(file->flags), post = 0;
	struct kmark_entry hdr;

	if (flags & KMARK_EF_TRIGGER_MODE) {
		kmark_fill_hdr(&hdr, m->id, true);
		kmark_triggers_call(file, &hdr, rec, 0, &post);
	}
	/* A trigger may have just enabled or disabled it. */
	if (!(READ_ONCE(file->flags) & KMARK_EF_SOFT_DISABLED) &&
	    __kmark_record_marker(file, m, args) && (flags & KMARK_EF_STACK))
		kmark_record_stack(file->inst, true, NULL);
	if (post)
		kmark_triggers_post(file, &hdr, rec, 0, post);
}
NOKPROBE_SYMBOL(kmark_record_slow);

/**
 * kmark_record_probe - kmark's recorder, attached by an event file
 * @data:	the event file (struct kmark_event_file): the event in the
 *		instance it records into
 * @m:		the marker that fired
 * @args:	the site's argument block: a record without its header
 *
 * The fixed part is one copy of @args; each string then gets its
 * __data_loc word and its text after the fixed part. An event with
 * triggers, or soft-disabled, or with a stack after it, takes the slow
 * path; the others cost one more test of the file's flags.
 */
void notrace kmark_record_probe(void *data, struct kmark_marker *m,
				const void *args)
{
	struct kmark_event_file *file = data;

	if (unlikely(READ_ONCE(file->flags) & KMARK_EF_SLOW)) {
		kmark_record_slow(file, m, args);
		return;
	}
	__kmark_record_marker(file, m, args);
}
NOKPROBE_SYMBOL(kmark_record_probe);

/* --- the snapshot buffer ---------------------------------------------------- */

/* A buffer like @inst's: same size per CPU, clock, mode and CPUs. */
static struct trace_buffer *kmark_buffer_like(struct kmark_instance *inst)
{
	struct trace_buffer *b;
	int cpu;

	b = kmark_ring_buffer_alloc(inst->buffer_kb << 10,
				    test_bit(KMARK_OPT_OVERWRITE, &inst->options) ?
				    RB_FL_OVERWRITE : 0);
	if (!b)
		return NULL;
	if (ring_buffer_subbuf_order_set(b, ring_buffer_subbuf_order_get(inst->buffer))) {
		ring_buffer_free(b);
		return NULL;
	}
	kmark_set_buffer_clock(b, inst->clock);
	for_each_possible_cpu(cpu) {
		unsigned long size = ring_buffer_size(inst->buffer, cpu);

		if (size != ring_buffer_size(b, cpu) &&
		    ring_buffer_resize(b, size, cpu) < 0) {
			ring_buffer_free(b);
			return NULL;
		}
		if (!cpumask_test_cpu(cpu, inst->cpumask))
			ring_buffer_record_disable_cpu(b, cpu);
	}
	return b;
}

/**
 * kmark_snapshot_alloc - give an instance its snapshot buffer
 * @inst:	the instance (its buffer is made too if need be)
 *
 * Under kmark_mutex. Return: 0 (also when it had one), -ENOMEM, or -EPERM
 * for the boot-mapped instance.
 */
int kmark_snapshot_alloc(struct kmark_instance *inst)
{
	struct trace_buffer *b;
	int ret;

	lockdep_assert_held(&kmark_mutex);
	if (inst->flight)
		return -EPERM;	/* a swap would leave its reserved memory */
	ret = kmark_buffer_ensure(inst);
	if (ret || inst->snapshot)
		return ret;
	b = kmark_buffer_like(inst);
	if (!b)
		return -ENOMEM;
	raw_spin_lock_irq(&inst->snap_lock);
	WRITE_ONCE(inst->snapshot, b);
	raw_spin_unlock_irq(&inst->snap_lock);
	return 0;
}

/**
 * kmark_snapshot_swap_cond - swap if @cond says so
 * @inst:	the instance
 * @cond:	called under the swap's lock, just before it (irqs off): the
 *		swap happens only if it returns true; NULL: always
 * @data:	its argument
 *
 * As ftrace's tracing_snapshot_cond(): a hist's snapshot() action checks
 * and records its new maximum under the same lock as the swap, so that
 * the snapshot it reports is the one taken.
 *
 * Return: as kmark_snapshot_swap(), or -EAGAIN when @cond said no.
 */
int notrace kmark_snapshot_swap_cond(struct kmark_instance *inst,
				     bool (*cond)(void *data), void *data)
{
	struct trace_buffer *snap;
	unsigned long flags;
	int ret = 0;

	if (!raw_spin_trylock_irqsave(&inst->snap_lock, flags))
		return -EBUSY;
	snap = inst->snapshot;
	if (inst->snap_held) {
		ret = -EBUSY;
	} else if (snap && cond && !cond(data)) {
		ret = -EAGAIN;
	} else if (snap) {
		WRITE_ONCE(inst->snapshot, inst->buffer);
		WRITE_ONCE(inst->buffer, snap);
	} else {
		ret = -ENODEV;
	}
	raw_spin_unlock_irqrestore(&inst->snap_lock, flags);
	return ret;
}
NOKPROBE_SYMBOL(kmark_snapshot_swap_cond);

/**
 * kmark_snapshot_swap - the buffer becomes the snapshot and the other way
 * @inst:	the instance
 *
 * As ftrace's snapshot: what was recorded is kept in the snapshot, and
 * recording goes on in what was the snapshot buffer. Any context (a
 * trigger's): a swap in progress on another CPU makes this one give up.
 * Writers committing meanwhile commit to the buffer they reserved in.
 *
 * Return: 0, -ENODEV without a snapshot buffer, -EBUSY when another swap
 * held the lock.
 */
int notrace kmark_snapshot_swap(struct kmark_instance *inst)
{
	return kmark_snapshot_swap_cond(inst, NULL, NULL);
}
NOKPROBE_SYMBOL(kmark_snapshot_swap);

/**
 * kmark_snapshot_hold - keep an instance's two buffers where they are
 * @inst:	the instance
 * @hold:	true before a setting is applied to both, false after
 *
 * A setting both buffers must share (size, clock, overwrite, CPUs) is
 * applied to one and then the other; a snapshot trigger swapping them in
 * between would leave the two different. Swaps meanwhile give up, as when
 * another swap holds the lock (the trigger's snapshot is not taken).
 * Under kmark_mutex, which keeps holds from nesting.
 */
void kmark_snapshot_hold(struct kmark_instance *inst, bool hold)
{
	lockdep_assert_held(&kmark_mutex);
	raw_spin_lock_irq(&inst->snap_lock);
	inst->snap_held = hold;
	raw_spin_unlock_irq(&inst->snap_lock);
}

/*
 * Free @inst's snapshot buffer. Its callers make sure that no reader has
 * one of its buffers open (one may be reading the snapshot): the snapshot
 * file's "0" and kmark_snapshot_busy() refuse then. Under kmark_mutex.
 */
void kmark_snapshot_free(struct kmark_instance *inst)
{
	struct trace_buffer *b;

	lockdep_assert_held(&kmark_mutex);
	raw_spin_lock_irq(&inst->snap_lock);
	b = inst->snapshot;
	WRITE_ONCE(inst->snapshot, NULL);
	raw_spin_unlock_irq(&inst->snap_lock);
	if (!b)
		return;
	/* A writer may still be filling it, reserved before a swap. */
	synchronize_rcu();
	ring_buffer_free(b);
}

/* --- the kernel stack event ---------------------------------------------------- */

/*
 * A kernel_stack record: ftrace's stack_entry (ftrace:kernel_stack), as
 * long as the frames it holds: @size of them. Readers (trace-cmd's
 * function plugin, KernelShark) take the frames up to the record's end.
 */
struct kmark_stack_rec {
	struct kmark_entry hdr;
	int size;
	unsigned long caller[];
};

/* The frames ftrace's format names (FTRACE_STACK_ENTRIES): a record may hold more. */
#define KMARK_STACK_FORMAT_DEPTH	8

static struct kmark_marker *kmark_stack_marker;

/*
 * <stack trace> and one " => symbol" line per frame, as ftrace's
 * (trace_stack_print(); the line has no event name, kmark_line_name()).
 */
static void kmark_stack_print(struct seq_buf *s, const struct kmark_marker *m,
			      const void *rec, unsigned int len)
{
	const struct kmark_stack_rec *r = rec;
	char name[KSYM_NAME_LEN];
	unsigned int i, n;

	seq_buf_puts(s, "<stack trace>");
	if (len < sizeof(*r) || r->size < 0)
		return;
	n = min_t(unsigned int, r->size, (len - sizeof(*r)) / sizeof(r->caller[0]));
	/* ftrace's seq_print_ip_sym(): the function alone, no [module] */
	for (i = 0; i < n; i++) {
		if (kallsyms_lookup(r->caller[i], NULL, NULL, NULL, name) && *name)
			seq_buf_printf(s, "\n => %s", name);
		else
			seq_buf_printf(s, "\n => 0x%08lx", r->caller[i]);
	}
}

/* ftrace's format of its kernel_stack, field for field (trace_entries.h). */
static void kmark_stack_print_format(struct seq_buf *s,
				     const struct kmark_marker *m)
{
	int i;

	seq_buf_printf(s, "\tfield:int size;\toffset:%zu;\tsize:%zu;\tsigned:1;\n",
		       offsetof(struct kmark_stack_rec, size), sizeof(int));
	seq_buf_printf(s, "\tfield:unsigned long caller[%d];\toffset:%zu;\tsize:%zu;\tsigned:0;\n",
		       KMARK_STACK_FORMAT_DEPTH,
		       offsetof(struct kmark_stack_rec, caller),
		       KMARK_STACK_FORMAT_DEPTH * sizeof(unsigned long));
	/* ftrace's F_printk() of eight frames: three literals, 3 + 3 + 2 */
	seq_buf_puts(s, "\nprint fmt: \"");
	for (i = 0; i < KMARK_STACK_FORMAT_DEPTH; i++)
		seq_buf_printf(s, "%s\\t=> %%ps\\n",
			       i && !(i % 3) ? "\" \"" : "");
	seq_buf_putc(s, '"');
	for (i = 0; i < KMARK_STACK_FORMAT_DEPTH; i++)
		seq_buf_printf(s, ", (void *)REC->caller[%d]", i);
	seq_buf_putc(s, '\n');
}

/* A symbol name per CPU and context level (task, softirq, irq, NMI). */
static DEFINE_PER_CPU(char [4][KSYM_NAME_LEN], kmark_stack_sym);

/*
 * The verdicts of kmark_own_frame() on the core kernel's text, cached: a
 * name lookup per frame made a stack cost six times ftrace's (make bench),
 * and the same return addresses come back event after event. An address
 * is in at most one of the two tables, which never go stale (the core
 * kernel's text does not move); each slot is one word, written and read
 * whole (any CPU, any context: a lost or overwritten slot is only a
 * lookup more).
 */
#define KMARK_OWN_CACHE_BITS	8
static unsigned long kmark_own_yes[1 << KMARK_OWN_CACHE_BITS];
static unsigned long kmark_own_no[1 << KMARK_OWN_CACHE_BITS];

/*
 * Whether @addr is in kmark's recording path or in kprobes' breakpoint
 * handling: frames the stack of an event leaves out, by name. A count of
 * frames to skip is not enough: without frame pointers (UNWINDER_GUESS)
 * the unwinder sees a varying number of them. Both are built in: a frame
 * outside the core kernel's text (a module's, a trampoline) is never
 * theirs, whatever its name.
 */
static bool notrace kmark_own_frame(unsigned long addr)
{
	static const char * const own[] = {
		"kmark_", "__kmark_", "kprobe_", "aggr_pre_handler",
		"opt_pre_handler", "optimized_callback", "exc_int3",
		"asm_exc_int3", "do_int3", "pre_handler_kretprobe",
		"kretprobe_", "__kretprobe_", "arch_rethook_", "rethook_",
	};
	char *name = this_cpu_ptr(kmark_stack_sym)[interrupt_context_level()];
	u32 h = hash_long(addr, KMARK_OWN_CACHE_BITS);
	unsigned int i;
	bool yes = false;

	if (READ_ONCE(kmark_own_yes[h]) == addr)
		return true;
	if (READ_ONCE(kmark_own_no[h]) == addr || !core_kernel_text(addr))
		return false;
	if (!lookup_symbol_name(addr, name))
		for (i = 0; i < ARRAY_SIZE(own) && !yes; i++)
			yes = str_has_prefix(name, own[i]);
	WRITE_ONCE(*(yes ? &kmark_own_yes[h] : &kmark_own_no[h]), addr);
	return yes;
}
NOKPROBE_SYMBOL(kmark_own_frame);

/*
 * The frames kmark_stack_save() looks through, per CPU and context level.
 * Without frame pointers (UNWINDER_GUESS) every return address left on the
 * stack counts as a frame: kmark's path leaves many, so a few more than the
 * depth kept were often all kmark's (the stack came out empty), and a
 * stale address of another function may come before kmark's last one.
 * A stacktrace trigger's path is deeper still: with 64, the syscall's own
 * frames were sometimes past the end (ftrace's stack holds up to 1024).
 */
#define KMARK_STACK_SCAN	128
static DEFINE_PER_CPU(unsigned long [4][KMARK_STACK_SCAN], kmark_stack_all);

/*
 * Whether a recorder of this CPU and context level holds its scan buffer
 * (and kmark_stack_sym's name): a stack taken inside another of the same
 * level (a kprobe on the unwinder, an NMI inside an int3 kprobe's handler)
 * gets no frames rather than mixing them into the outer one's (review
 * K5). Only this CPU reads and writes it, at its level.
 */
static DEFINE_PER_CPU(u8 [4], kmark_stack_busy);

static __always_inline unsigned long *kmark_stack_get(void)
{
	u8 *busy = &this_cpu_ptr(kmark_stack_busy)[interrupt_context_level()];

	if (*busy)
		return NULL;
	*busy = 1;
	barrier();
	return this_cpu_ptr(kmark_stack_all)[interrupt_context_level()];
}

static __always_inline void kmark_stack_put(void)
{
	barrier();
	this_cpu_ptr(kmark_stack_busy)[interrupt_context_level()] = 0;
}

/*
 * The registers of the kprobe hit this CPU records at each context level,
 * or NULL (a marker's hit): set by kmark_kprobe.c around its recording, so
 * that a kprobe event's stack starts where the probe hit, from its
 * registers, as ftrace's does (stack_trace_save_regs()). Unwinding from
 * kmark's own frames instead showed the probed function twice and the
 * optimized probe's detour buffer (35-stack-vs-ftrace.sh). Only this CPU
 * reads and writes its slots, with preemption off.
 */
static DEFINE_PER_CPU(struct pt_regs * [4], kmark_stack_regs);

/**
 * kmark_stack_regs_set - the registers a stack of this hit starts from
 * @regs:	a kprobe's, or NULL once its hit is recorded
 */
void notrace kmark_stack_regs_set(struct pt_regs *regs)
{
	this_cpu_ptr(kmark_stack_regs)[interrupt_context_level()] = regs;
}
NOKPROBE_SYMBOL(kmark_stack_regs_set);

/* kmark_stack_save() with the scan buffer taken (kmark_stack_get()) */
static __always_inline unsigned int kmark_stack_scan(unsigned long *all,
						     unsigned long *entries,
						     unsigned int max)
{
	struct pt_regs *regs = this_cpu_ptr(kmark_stack_regs)[interrupt_context_level()];
	unsigned int n, i, kept = 0;

	n = regs ? stack_trace_save_regs(regs, all, KMARK_STACK_SCAN, 0) :
		   stack_trace_save(all, KMARK_STACK_SCAN, 0);
	/*
	 * kmark's own frames left out wherever the unwinder put them
	 * (@entries may be @all itself: kept never passes i)
	 */
	for (i = 0; i < n && kept < max; i++)
		if (!kmark_own_frame(all[i]))
			entries[kept++] = all[i];
	return kept;
}

/**
 * kmark_stack_save - the caller's stack, without kmark's own frames
 * @entries:	gets up to @max return addresses
 * @max:	how many
 *
 * A kprobe's hit: the stack from the probe's registers (the probed
 * function first, then its callers), as ftrace's. Inside another stack's
 * scan of this CPU and context level: none.
 *
 * Return: how many were saved.
 */
unsigned int notrace kmark_stack_save(unsigned long *entries, unsigned int max)
{
	unsigned long *all = kmark_stack_get();
	unsigned int n;

	if (!all)
		return 0;
	n = kmark_stack_scan(all, entries, max);
	kmark_stack_put();
	return n;
}
NOKPROBE_SYMBOL(kmark_stack_save);

/**
 * kmark_record_stack - a kernel_stack event into an instance's buffer
 * @inst:	the instance
 * @from_hit:	called within a marker's hit (kmark_reserve()'s @from_hit)
 * @ctx:	the header of the event the stack is of, or NULL
 *
 * Where the event just recorded (options/stacktrace) or a stacktrace
 * trigger fired: up to KMARK_STACK_SCAN return addresses, kmark's own
 * frames left out (kmark_own_frame()), in a record as long as they are
 * (ftrace's), rendered as ftrace renders its <stack trace>. Its flags and
 * preemption depth are its event's (@ctx's, or as the event's were
 * taken), as ftrace's stack shares its event's context.
 */
void notrace kmark_record_stack(struct kmark_instance *inst, bool from_hit,
				const struct kmark_entry *ctx)
{
	struct kmark_marker *m = READ_ONCE(kmark_stack_marker);
	struct kmark_stack_rec *r;
	unsigned long *all;
	struct kmark_rec rec;
	unsigned int n = 0;

	if (!m)
		return;
	/*
	 * the frames first, in place: the record is as long as they are
	 * (none, a record of size 0, inside another stack of this level)
	 */
	all = kmark_stack_get();
	if (all)
		n = kmark_stack_scan(all, all, KMARK_STACK_SCAN);
	r = (void *)kmark_reserve(inst, m->id, struct_size(r, caller, n),
				  from_hit, &rec);
	if (!r)
		goto out;
	if (ctx) {
		r->hdr.flags = ctx->flags;
		r->hdr.preempt_count = ctx->preempt_count;
	}
	kmark_set_comm_id(&r->hdr);
	r->size = n;
	if (n)
		memcpy(r->caller, all, n * sizeof(r->caller[0]));
	kmark_commit(inst, &rec);
out:
	if (all)
		kmark_stack_put();
}
NOKPROBE_SYMBOL(kmark_record_stack);

/*
 * The kernel_stack event, at boot: ftrace:kernel_stack in every instance,
 * where trace-cmd (-T, -O stacktrace), its function plugin and KernelShark
 * look for ftrace's stacks.
 */
static int __init kmark_stack_init(void)
{
	struct kmark_marker *m;
	const char *err;
	unsigned int pos;
	int ret;

	m = kzalloc(sizeof(*m), GFP_KERNEL);
	if (!m)
		return -ENOMEM;
	INIT_LIST_HEAD(&m->files);
	m->system = "ftrace";
	m->name = "kernel_stack";
	m->format = "size=%d";
	m->always_on = true;
	m->no_triggers = true;	/* ftrace's has none: nothing applies them */
	m->print = kmark_stack_print;
	m->print_format = kmark_stack_print_format;
	m->layout = kmark_parse_format(m->format, &err, &pos);
	if (IS_ERR(m->layout)) {
		kfree(m);
		return -ENOMEM;
	}
	m->layout->fields[0].offset = offsetof(struct kmark_stack_rec, size);
	m->layout->fields[0].size = sizeof(int);
	m->layout->size = sizeof(struct kmark_stack_rec);
	kmark_layout_finish(m->layout);
	mutex_lock(&kmark_mutex);
	ret = kmark_dynamic_alloc_id(m);
	if (!ret) {
		kmark_dynamic_link(m);
		ret = kmark_event_files_add(m);
		if (ret)
			kmark_dynamic_unlink(m);
	}
	mutex_unlock(&kmark_mutex);
	if (ret) {
		kmark_free_layout(m->layout);
		kfree(m);
		return ret;
	}
	WRITE_ONCE(kmark_stack_marker, m);
	return 0;
}
core_initcall(kmark_stack_init);

/* options/stacktrace of @inst onto its event files. Under kmark_mutex. */
void kmark_options_apply(struct kmark_instance *inst)
{
	bool stack = test_bit(KMARK_OPT_STACKTRACE, &inst->options);
	struct kmark_event_file *file;

	lockdep_assert_held(&kmark_mutex);
	list_for_each_entry(file, &inst->files, list)
		if (!file->m->always_on)
			assign_bit(KMARK_EF_STACK_BIT, &file->flags, stack);
}

/*
 * Batched wakeups of trace_pipe readers. A blocked reader (read() or
 * poll()) is woken when the batch is ready: read_delay_ms after the first
 * event since the buffer was last drained, or at once when a CPU's buffer
 * is buffer_percent full. Waking the reader per event made an idle
 * system's trace its reader talking to itself: each wakeup is a context
 * switch, which sched_switch records, which wakes the reader.
 *
 * An instance's readers counts its open trace_pipe files; only while it is
 * non-zero does the recording path look at the batch. KMARK_BATCH_STARTED
 * is set by the first event of a batch (the timer is armed from irq_work:
 * the recording path may hold the runqueue lock), KMARK_BATCH_READY by the
 * timer or the watermark; a reader that drains the buffer clears both.
 */
static enum hrtimer_restart kmark_batch_timeout(struct hrtimer *t)
{
	struct kmark_instance *inst =
		container_of(t, struct kmark_instance, batch_timer);

	set_bit(KMARK_BATCH_READY, &inst->batch);
	wake_up_interruptible_all(&inst->read_wq);
	return HRTIMER_NORESTART;
}

static void kmark_batch_arm(struct kmark_instance *inst)
{
	hrtimer_start(&inst->batch_timer,
		      ms_to_ktime(READ_ONCE(inst->read_delay_ms)),
		      HRTIMER_MODE_REL);
}

static void kmark_batch_irq_work(struct irq_work *w)
{
	struct kmark_instance *inst =
		container_of(w, struct kmark_instance, batch_work);

	if (test_bit(KMARK_BATCH_READY, &inst->batch))
		wake_up_interruptible_all(&inst->read_wq);
	else
		kmark_batch_arm(inst);
}

/* Whether this CPU's buffer is buffer_percent full. */
/*
 * Whether @dirty of @nr_pages pages make @pct percent, as ftrace's
 * full_hit() counts: in pages, the reader's page added (a writer never
 * fills them all), in 64 bits (a size_t of 32 wrapped at 41 MiB per CPU).
 */
bool notrace kmark_full_hit(size_t dirty, size_t nr_pages, unsigned int pct)
{
	if (!nr_pages || !pct)
		return true;
	return ((u64)dirty + 1) * 100 >= (u64)pct * nr_pages;
}

static bool notrace kmark_batch_full(struct trace_buffer *b, int cpu,
				     unsigned int pct)
{
	/* ring_buffer_size() counts each page's capacity, without its header. */
	size_t cap = ring_buffer_subbuf_size_get(b) - sizeof(u64) -
		     sizeof(local_t);

	return kmark_full_hit(ring_buffer_nr_dirty_pages(b, cpu),
			      ring_buffer_size(b, cpu) / cap, pct);
}

/*
 * The recording path, after a commit, while trace_pipe is open: start the
 * batch or mark it ready. Preemption is off (a probe, or kprobe context).
 */
void notrace kmark_batch_event(struct kmark_instance *inst)
{
	unsigned int pct = READ_ONCE(inst->buffer_percent);

	if (test_bit(KMARK_BATCH_READY, &inst->batch))
		return;
	if (!READ_ONCE(inst->read_delay_ms) || !pct ||
	    kmark_batch_full(inst->buffer, smp_processor_id(), pct)) {
		if (!test_and_set_bit(KMARK_BATCH_READY, &inst->batch))
			irq_work_queue(&inst->batch_work);
		return;
	}
	if (!test_and_set_bit(KMARK_BATCH_STARTED, &inst->batch))
		irq_work_queue(&inst->batch_work);
}
NOKPROBE_SYMBOL(kmark_batch_event);

/*
 * A reader found nothing to read: the next batch begins. If events came in
 * meanwhile (their first one saw the old batch), this one starts at once.
 */
void kmark_batch_reset(struct kmark_instance *inst)
{
	clear_bit(KMARK_BATCH_STARTED, &inst->batch);
	clear_bit(KMARK_BATCH_READY, &inst->batch);
	hrtimer_try_to_cancel(&inst->batch_timer);
	/*
	 * Order the clearing before looking at the buffer: an event committed
	 * before it saw STARTED set and armed nothing, so it is found here.
	 */
	smp_mb__after_atomic();
	if (READ_ONCE(inst->buffer) && !ring_buffer_empty(inst->buffer))
		kmark_batch_start(inst);
}

/* Start a batch for events already in the buffer (none started it). */
void kmark_batch_start(struct kmark_instance *inst)
{
	if (!READ_ONCE(inst->read_delay_ms) || !READ_ONCE(inst->buffer_percent)) {
		set_bit(KMARK_BATCH_READY, &inst->batch);
		wake_up_interruptible_all(&inst->read_wq);
	} else if (!test_and_set_bit(KMARK_BATCH_STARTED, &inst->batch)) {
		kmark_batch_arm(inst);
	}
}

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

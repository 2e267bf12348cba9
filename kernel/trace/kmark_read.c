// SPDX-License-Identifier: GPL-2.0
/*
 * kmark: reading an instance's buffer.
 *
 *   trace_pipe                 consuming, blocking read of the events as
 *                              text, oldest first across CPUs (woken in
 *                              batches: read_delay_ms, buffer_percent)
 *   trace                      non-consuming read with ftrace's header;
 *                              "> trace" clears the buffer
 *   snapshot                   the same of the snapshot buffer; 1 takes a
 *                              snapshot, 0 frees it, 2 clears it
 *   per_cpu/cpuN/trace_pipe    the same, for CPU N's events only
 *   per_cpu/cpuN/trace
 *   per_cpu/cpuN/trace_pipe_raw  whole ring-buffer pages (ftrace's binary
 *                              format), consuming; read() and splice()
 *   per_cpu/cpuN/stats         entries, overrun, bytes, dropped, read, written
 *   per_cpu/cpuN/buffer_size_kb  CPU N's buffer size
 *
 * Consumers of one buffer take turns (the instance's read_mutex), so that
 * peek-then-consume sees one event. Lost events show, in the text as
 * "CPU:N [LOST M EVENTS]", in the pages as ftrace marks them.
 */
#define pr_fmt(fmt) "kmark: " fmt

#include <linux/fs.h>
#include <linux/pipe_fs_i.h>
#include <linux/poll.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/splice.h>
#include <linux/uaccess.h>

#include "kmark_internal.h"


/*
 * An instance's read_mutex serialises consumers of its buffer (trace_pipe
 * readers) and its dropped_seen, so that peek-then-consume sees one event.
 */
struct kmark_pipe {
	struct kmark_instance *inst;	/* held */
	int cpu;		/* per_cpu/cpuN/trace_pipe: N; else -1 */
	struct mutex lock;	/* one reader of this open file at a time */
	char *buf;		/* rendered text not yet read */
	size_t len, off;
};

/* Hits dropped on @cpu since the readers last reported them. */
static unsigned long kmark_new_drops(struct kmark_instance *inst, int cpu)
{
	return kmark_dropped(inst, cpu) - inst->dropped_seen[cpu];
}

/* The CPUs a reader of @only (-1: all) looks at. */
#define for_each_read_cpu(cpu, only)					\
	for_each_cpu(cpu, (only) < 0 ? cpu_possible_mask : cpumask_of(only))

/*
 * Render and consume events, oldest first across CPUs (or of CPU @only),
 * until @s is full or the buffer is empty. Return: bytes rendered.
 */
static size_t kmark_pipe_fill(struct kmark_instance *inst, int only,
			      struct seq_buf *s)
{
	struct trace_buffer *buf = READ_ONCE(inst->buffer);
	struct ring_buffer_event *ev, *e;
	unsigned long lost, l, d;
	int cpu, best;
	u64 ts, t;

	mutex_lock(&inst->read_mutex);
	for (;;) {
		/*
		 * The oldest event across CPUs. What peek returns stays valid
		 * until it is consumed: only this reader consumes (the mutex),
		 * and writers never touch the reader page.
		 */
		best = -1;
		ev = NULL;
		ts = U64_MAX;
		lost = 0;
		for_each_read_cpu(cpu, only) {
			e = ring_buffer_peek(buf, cpu, &t, &l);
			if (e && t < ts) {
				ev = e;
				ts = t;
				lost = l;
				best = cpu;
			}
		}
		if (best < 0) {
			/* Drops after the last event still get their note. */
			for_each_read_cpu(cpu, only) {
				size_t before = seq_buf_used(s);

				d = kmark_new_drops(inst, cpu);
				if (!d)
					continue;
				seq_buf_printf(s, "CPU:%d [LOST %lu EVENTS]\n",
					       cpu, d);
				if (seq_buf_has_overflowed(s)) {
					s->len = before;
					break;
				}
				inst->dropped_seen[cpu] += d;
			}
			break;
		}
		d = kmark_new_drops(inst, best);
		if (!kmark_print_record(s, best, ts, ring_buffer_event_data(ev),
					ring_buffer_event_length(ev), lost, d,
					kmark_flight_prev(inst)))
			break;	/* kept for the next read */
		inst->dropped_seen[best] += d;
		ring_buffer_consume(buf, best, NULL, NULL);
	}
	mutex_unlock(&inst->read_mutex);
	return seq_buf_used(s);
}

static int kmark_pipe_open(struct inode *inode, struct file *file)
{
	struct kmark_instance *inst;
	struct kmark_pipe *p;
	int ret;

	inst = kmark_inst_get(inode);
	if (IS_ERR(inst))
		return PTR_ERR(inst);
	mutex_lock(&kmark_mutex);
	ret = kmark_buffer_ensure(inst);
	mutex_unlock(&kmark_mutex);
	if (ret)
		goto put;
	ret = -ENOMEM;
	p = kzalloc(sizeof(*p), GFP_KERNEL);
	if (!p)
		goto put;
	p->buf = kmalloc(PAGE_SIZE, GFP_KERNEL);
	if (!p->buf) {
		kfree(p);
		goto put;
	}
	p->inst = inst;
	p->cpu = kmark_file_cpu(inode);
	mutex_init(&p->lock);
	file->private_data = p;
	atomic_inc(&inst->buf_users);
	atomic_inc(&inst->readers);
	return nonseekable_open(inode, file);
put:
	kmark_inst_put(inst);
	return ret;
}

static int kmark_pipe_release(struct inode *inode, struct file *file)
{
	struct kmark_pipe *p = file->private_data;

	atomic_dec(&p->inst->readers);
	atomic_dec(&p->inst->buf_users);
	kmark_inst_put(p->inst);
	mutex_destroy(&p->lock);
	kfree(p->buf);
	kfree(p);
	return 0;
}

/*
 * Wait for a batch of events (see the batch in kmark_record.c): the
 * read_delay_ms after its first event, or a CPU's buffer buffer_percent
 * full. Events recorded while nobody read start a batch now.
 */
static int kmark_batch_wait(struct kmark_instance *inst)
{
	if (!test_bit(KMARK_BATCH_STARTED, &inst->batch) &&
	    !ring_buffer_empty(inst->buffer))
		kmark_batch_start(inst);
	return wait_event_interruptible(inst->read_wq,
					test_bit(KMARK_BATCH_READY, &inst->batch));
}

static ssize_t kmark_pipe_read(struct file *file, char __user *ubuf,
			       size_t cnt, loff_t *ppos)
{
	struct kmark_pipe *p = file->private_data;
	struct kmark_instance *inst = p->inst;
	struct seq_buf s;
	ssize_t ret;

	if (!cnt)
		return 0;
	if (mutex_lock_interruptible(&p->lock))
		return -ERESTARTSYS;
	while (p->off == p->len) {
		if (!(file->f_flags & O_NONBLOCK)) {
			mutex_unlock(&p->lock);
			ret = kmark_batch_wait(inst);
			if (ret)
				return ret;
			if (mutex_lock_interruptible(&p->lock))
				return -ERESTARTSYS;
			if (p->off != p->len)
				break;
		}
		seq_buf_init(&s, p->buf, PAGE_SIZE);
		p->len = kmark_pipe_fill(inst, p->cpu, &s);
		p->off = 0;
		/* All read: the next event starts the next batch. */
		if (ring_buffer_empty(inst->buffer))
			kmark_batch_reset(inst);
		if (p->len)
			break;
		if (file->f_flags & O_NONBLOCK) {
			ret = -EAGAIN;
			goto out;
		}
	}
	ret = min(cnt, p->len - p->off);
	if (copy_to_user(ubuf, p->buf + p->off, ret)) {
		ret = -EFAULT;
		goto out;
	}
	p->off += ret;
out:
	mutex_unlock(&p->lock);
	return ret;
}

/* Readable once a batch is ready (or text is left from the last read). */
static __poll_t kmark_pipe_poll(struct file *file, poll_table *pt)
{
	struct kmark_pipe *p = file->private_data;
	struct kmark_instance *inst = p->inst;

	poll_wait(file, &inst->read_wq, pt);
	if (READ_ONCE(p->off) != READ_ONCE(p->len))
		return EPOLLIN | EPOLLRDNORM;
	if (ring_buffer_empty(inst->buffer)) {
		/*
		 * A batch left ready by a reader that went away, or by a
		 * clear: the next event must start a new one (it would see
		 * READY and wake nobody).
		 */
		if (test_bit(KMARK_BATCH_READY, &inst->batch))
			kmark_batch_reset(inst);
		return 0;
	}
	if (test_bit(KMARK_BATCH_READY, &inst->batch))
		return EPOLLIN | EPOLLRDNORM;
	if (!test_bit(KMARK_BATCH_STARTED, &inst->batch))
		kmark_batch_start(inst);
	return 0;
}

static const struct file_operations kmark_pipe_fops = {
	.open = kmark_pipe_open,
	.read = kmark_pipe_read,
	.poll = kmark_pipe_poll,
	.release = kmark_pipe_release,
};

/*
 * trace: a non-consuming walk over per-CPU iterators, oldest first, of the
 * events in the buffer when the walk began (a read from offset 0): none
 * recorded after @end_ts, the buffer's clock then, and at most as many as
 * the buffer held then (@end counts them, after the header at 0).
 * Recording goes on meanwhile, and the ring buffer resets an iterator whose
 * page a writer overwrote, or that a consuming reader (trace_pipe) passed,
 * to the oldest event left: without the bounds, a walk under a busy writer
 * never ended (the storm's cat of an instance's trace wrote 200 MB).
 */
struct kmark_trace_iter {
	struct kmark_instance *inst;		/* held */
	struct trace_buffer *buf;	/* the buffer read (snapshot: NULL if none) */
	bool snap;		/* the snapshot file */
	int only;		/* per_cpu/cpuN/trace: N; else -1 */
	struct ring_buffer_iter **iters;	/* [nr_cpu_ids] */
	loff_t idx;		/* index of the event the walk is at */
	int cpu;		/* CPU of that event, -1 at the end */
	u64 end_ts;		/* events after this are not shown */
	loff_t end;		/* the walk ends at this index */
	char *line;
};

static int kmark_iter_pick(struct kmark_trace_iter *it)
{
	u64 ts, best_ts = U64_MAX;
	int cpu;

	it->cpu = -1;
	for_each_possible_cpu(cpu) {
		if (!it->iters[cpu] || !ring_buffer_iter_peek(it->iters[cpu], &ts))
			continue;
		if (ts <= it->end_ts && ts < best_ts) {
			best_ts = ts;
			it->cpu = cpu;
		}
	}
	return it->cpu;
}

static void kmark_trace_rewind(struct kmark_trace_iter *it)
{
	int cpu;

	for_each_possible_cpu(cpu)
		if (it->iters[cpu])
			ring_buffer_iter_reset(it->iters[cpu]);
	it->idx = 0;
}

static void *kmark_trace_start(struct seq_file *m, loff_t *pos)
{
	struct kmark_trace_iter *it = m->private;

	if (*pos == 0) {
		/* A read from the start (again, after lseek or pread). */
		kmark_trace_rewind(it);
		if (!it->buf)	/* the snapshot file without a snapshot */
			return SEQ_START_TOKEN;
		/*
		 * A previous boot's trace (a boot-mapped instance) has times
		 * of that boot's clock, which may be past this one's.
		 */
		it->end_ts = kmark_flight_prev(it->inst) ? U64_MAX :
			     ring_buffer_time_stamp(it->buf);
		it->end = 1 + ring_buffer_entries(it->buf);
		return SEQ_START_TOKEN;
	}
	if (*pos >= it->end)
		return NULL;
	if (*pos != it->idx) {
		/* Restart the walk and skip to *pos (seq_file re-reads). */
		kmark_trace_rewind(it);
		for (it->idx = 1; it->idx < *pos; it->idx++) {
			if (kmark_iter_pick(it) < 0)
				return NULL;
			ring_buffer_iter_advance(it->iters[it->cpu]);
		}
	}
	return kmark_iter_pick(it) < 0 ? NULL : it;
}

static void *kmark_trace_next(struct seq_file *m, void *v, loff_t *pos)
{
	struct kmark_trace_iter *it = m->private;

	if (v != SEQ_START_TOKEN && it->cpu >= 0)
		ring_buffer_iter_advance(it->iters[it->cpu]);
	++*pos;
	it->idx = *pos;
	if (*pos >= it->end)
		return NULL;
	return kmark_iter_pick(it) < 0 ? NULL : it;
}

static void kmark_trace_stop(struct seq_file *m, void *v)
{
}

static int kmark_trace_show(struct seq_file *m, void *v)
{
	struct kmark_trace_iter *it = m->private;
	struct ring_buffer_event *ev;
	struct seq_buf s;
	u64 ts;

	seq_buf_init(&s, it->line, PAGE_SIZE);
	if (v == SEQ_START_TOKEN && it->snap && (!it->buf || it->end <= 1)) {
		/* ftrace's words, for the snapshot file with no events. */
		seq_buf_printf(&s, "# * Snapshot is %s *\n#\n",
			       it->buf ? "allocated" : "freed");
		seq_buf_puts(&s, "# Snapshot commands:\n"
			     "# echo 0 > snapshot : Clears and frees snapshot buffer\n"
			     "# echo 1 > snapshot : Allocates snapshot buffer, if not already allocated.\n"
			     "#                      Takes a snapshot of the main buffer.\n"
			     "# echo 2 > snapshot : Clears snapshot buffer (but does not allocate or free)\n"
			     "#                      (Doesn't have to be '2' works with any number that\n"
			     "#                       is not a '0' or '1')\n");
	} else if (v == SEQ_START_TOKEN) {
		unsigned long entries = 0, written = 0;
		int cpu;

		for_each_read_cpu(cpu, it->only) {
			struct trace_buffer *b = it->buf;

			entries += ring_buffer_entries_cpu(b, cpu);
			written += ring_buffer_entries_cpu(b, cpu) +
				   ring_buffer_overrun_cpu(b, cpu);
		}
		kmark_print_header(&s, entries, written);
	} else {
		bool lost = ring_buffer_iter_dropped(it->iters[it->cpu]);

		ev = ring_buffer_iter_peek(it->iters[it->cpu], &ts);
		if (!ev)
			return 0;
		kmark_print_record(&s, it->cpu, ts, ring_buffer_event_data(ev),
				   ring_buffer_event_length(ev),
				   lost ? ULONG_MAX : 0, 0,
				   kmark_flight_prev(it->inst));
	}
	seq_write(m, it->line, seq_buf_used(&s));
	return 0;
}

static const struct seq_operations kmark_trace_seq_ops = {
	.start = kmark_trace_start,
	.next = kmark_trace_next,
	.stop = kmark_trace_stop,
	.show = kmark_trace_show,
};

static int kmark_trace_release(struct inode *inode, struct file *file)
{
	struct kmark_trace_iter *it;
	int cpu;

	if (!(file->f_mode & FMODE_READ)) {
		kmark_inst_put(file->private_data);
		return 0;
	}
	it = ((struct seq_file *)file->private_data)->private;
	for_each_possible_cpu(cpu)
		if (it->iters && it->iters[cpu])
			ring_buffer_read_finish(it->iters[cpu]);
	atomic_dec(&it->inst->buf_users);
	kmark_inst_put(it->inst);
	kfree(it->iters);
	kfree(it->line);
	return seq_release_private(inode, file);
}

/* trace, or the snapshot file when @snap: a walk over that buffer. */
static int __kmark_trace_open(struct inode *inode, struct file *file,
			      bool snap)
{
	struct kmark_instance *inst;
	struct kmark_trace_iter *it;
	int ret, cpu;

	inst = kmark_inst_get(inode);
	if (IS_ERR(inst))
		return PTR_ERR(inst);
	mutex_lock(&kmark_mutex);
	ret = kmark_buffer_ensure(inst);
	if (!ret && !snap && (file->f_mode & FMODE_WRITE) &&
	    (file->f_flags & O_TRUNC)) {
		mutex_lock(&inst->read_mutex);
		kmark_buffer_clear(inst, kmark_file_cpu(inode));
		mutex_unlock(&inst->read_mutex);
	}
	/* Counted before the buffer is taken: the snapshot stays meanwhile. */
	if (!ret && (file->f_mode & FMODE_READ))
		atomic_inc(&inst->buf_users);
	mutex_unlock(&kmark_mutex);
	if (ret) {
		kmark_inst_put(inst);
		return ret;
	}
	if (!(file->f_mode & FMODE_READ)) {
		file->private_data = inst;
		return 0;
	}
	it = __seq_open_private(file, &kmark_trace_seq_ops, sizeof(*it));
	if (!it) {
		atomic_dec(&inst->buf_users);
		kmark_inst_put(inst);
		return -ENOMEM;
	}
	it->inst = inst;
	it->snap = snap;
	mutex_lock(&kmark_mutex);
	it->buf = snap ? inst->snapshot : inst->buffer;
	mutex_unlock(&kmark_mutex);
	it->only = kmark_file_cpu(inode);
	it->iters = kcalloc(nr_cpu_ids, sizeof(*it->iters), GFP_KERNEL);
	it->line = kmalloc(PAGE_SIZE, GFP_KERNEL);
	if (!it->iters || !it->line)
		goto nomem;
	/* NULL for CPUs the buffer does not cover (never online). */
	for_each_read_cpu(cpu, it->only)
		if (it->buf)
			it->iters[cpu] = ring_buffer_read_start(it->buf, cpu,
								GFP_KERNEL);
	return 0;
nomem:
	kmark_trace_release(inode, file);
	return -ENOMEM;
}

static int kmark_trace_open(struct inode *inode, struct file *file)
{
	return __kmark_trace_open(inode, file, false);
}

/*
 * snapshot: reads as trace does, the snapshot buffer; "echo 1 >" takes a
 * snapshot (the buffer and its snapshot swap: what was recorded is read
 * here, recording goes on in the other), "0" frees it (refused while a
 * reader of the instance's buffers is open), any other number clears it,
 * as ftrace's snapshot file.
 */
static int kmark_snapshot_open(struct inode *inode, struct file *file)
{
	return __kmark_trace_open(inode, file, true);
}

/* The snapshot file's instance: a reader's iterator holds it. */
static struct kmark_instance *kmark_snapshot_inst(struct file *file)
{
	struct seq_file *m = file->private_data;
	struct kmark_trace_iter *iter;

	if (!(file->f_mode & FMODE_READ))
		return file->private_data;
	iter = m->private;
	return iter->inst;
}

static ssize_t kmark_snapshot_write(struct file *file, const char __user *ubuf,
				    size_t cnt, loff_t *ppos)
{
	struct kmark_instance *inst = kmark_snapshot_inst(file);
	unsigned long val;
	int ret;

	ret = kstrtoul_from_user(ubuf, cnt, 10, &val);
	if (ret) {
		kmark_log_err(inst, "snapshot", 0,
			      "snapshot takes a number: 0 frees, 1 takes one, 2 clears");
		return -EINVAL;
	}
	mutex_lock(&kmark_mutex);
	if (inst->snap_cond) {
		/* As ftrace's, while a cond_snapshot is on the instance */
		kmark_log_err(inst, "snapshot", 0,
			      "A hist trigger's snapshot() action uses the snapshot: remove it first");
		mutex_unlock(&kmark_mutex);
		return -EBUSY;
	}
	switch (val) {
	case 0:
		/* This file's own reader does not count. */
		if (atomic_read(&inst->buf_users) > !!(file->f_mode & FMODE_READ)) {
			kmark_log_err(inst, "0", 0,
				      "A reader of trace, snapshot, trace_pipe or trace_pipe_raw is open: the snapshot stays");
			ret = -EBUSY;
			break;
		}
		kmark_snapshot_free(inst);
		break;
	case 1:
		ret = kmark_snapshot_alloc(inst);
		if (!ret)
			ret = kmark_snapshot_swap(inst);
		if (ret)
			kmark_log_err(inst, "1", 0, ret == -ENOMEM ?
				      "Out of memory for the snapshot buffer" :
				      ret == -EPERM ? KMARK_ERR_BOOT_MAPPED_SNAPSHOT :
				      "A snapshot is being taken: try again");
		break;
	default:
		/* The snapshot's events, not the buffer a swap just made it. */
		kmark_snapshot_hold(inst, true);
		if (inst->snapshot)
			ring_buffer_reset(inst->snapshot);
		kmark_snapshot_hold(inst, false);
		break;
	}
	mutex_unlock(&kmark_mutex);
	if (ret)
		return ret;
	*ppos += cnt;
	return cnt;
}

static const struct file_operations kmark_snapshot_fops = {
	.open = kmark_snapshot_open,
	.read = seq_read,
	.write = kmark_snapshot_write,
	.llseek = seq_lseek,
	.release = kmark_trace_release,
};

static const struct file_operations kmark_trace_fops = {
	.open = kmark_trace_open,
	.read = seq_read,
	.write = kmark_discard_write,
	.llseek = seq_lseek,
	.release = kmark_trace_release,
};

/* --- per_cpu/cpuN/trace_pipe_raw ------------------------------------------ */

/*
 * Whole ring-buffer pages, as ftrace's trace_pipe_raw gives them: the page
 * header (timestamp, commit) and the compressed event headers that
 * events/header_page and events/header_event describe, then the records
 * that events/NAME/format describes. Consuming. A blocking read (or poll)
 * waits until buffer_percent of the CPU's pages are filled, as ftrace's
 * splice does; O_NONBLOCK reads take what there is.
 */
struct kmark_raw {
	struct kmark_instance *inst;	/* held */
	struct mutex lock;	/* one reader of this open file at a time */
	int cpu;
	struct buffer_data_read_page *page;
	size_t size;		/* bytes in a page */
	size_t off;		/* bytes of the page already read; size: none */
};

static int kmark_raw_open(struct inode *inode, struct file *file)
{
	struct kmark_instance *inst;
	struct kmark_raw *r;
	int ret;

	inst = kmark_inst_get(inode);
	if (IS_ERR(inst))
		return PTR_ERR(inst);
	mutex_lock(&kmark_mutex);
	ret = kmark_buffer_ensure(inst);
	mutex_unlock(&kmark_mutex);
	if (ret)
		goto put;
	ret = -ENOMEM;
	r = kzalloc(sizeof(*r), GFP_KERNEL);
	if (!r)
		goto put;
	r->inst = inst;
	r->cpu = kmark_file_cpu(inode);
	ret = ring_buffer_alloc_read_page(inst->buffer, r->cpu, &r->page);
	if (ret) {
		kfree(r);
		goto put;
	}
	r->size = ring_buffer_read_page_size(r->page);
	r->off = r->size;
	mutex_init(&r->lock);
	file->private_data = r;
	atomic_inc(&inst->buf_users);
	return nonseekable_open(inode, file);
put:
	kmark_inst_put(inst);
	return ret;
}

static int kmark_raw_release(struct inode *inode, struct file *file)
{
	struct kmark_raw *r = file->private_data;

	ring_buffer_free_read_page(r->inst->buffer, r->cpu, r->page);
	atomic_dec(&r->inst->buf_users);
	kmark_inst_put(r->inst);
	mutex_destroy(&r->lock);
	kfree(r);
	return 0;
}

/*
 * The open file's page fits the buffer's sub-buffers: after
 * buffer_subbuf_size_kb changed, a new one (the old is freed). Under the
 * instance's read_mutex, with the page read to its end. 0 or -ENOMEM.
 */
static int kmark_raw_fit(struct kmark_raw *r, struct trace_buffer *b)
{
	struct buffer_data_read_page *page;
	int ret;

	if (ring_buffer_read_page_size(r->page) ==
	    ring_buffer_subbuf_size_get(b))
		return 0;
	ret = ring_buffer_alloc_read_page(b, r->cpu, &page);
	if (ret)
		return ret;
	ring_buffer_free_read_page(b, r->cpu, r->page);
	r->page = page;
	r->size = ring_buffer_read_page_size(page);
	r->off = r->size;
	return 0;
}

static ssize_t kmark_raw_read(struct file *file, char __user *ubuf,
			      size_t cnt, loff_t *ppos)
{
	struct kmark_raw *r = file->private_data;
	struct kmark_instance *inst = r->inst;
	ssize_t ret;

	if (!cnt)
		return 0;
	if (mutex_lock_interruptible(&r->lock))
		return -ERESTARTSYS;
	while (r->off == r->size) {
		/* Consumers of the buffer take turns (see kmark_pipe_fill()). */
		mutex_lock(&inst->read_mutex);
		ret = kmark_raw_fit(r, inst->buffer);
		if (!ret)
			ret = ring_buffer_read_page(inst->buffer, r->page,
						    r->size, r->cpu, 0);
		mutex_unlock(&inst->read_mutex);
		if (ret == -ENOMEM)
			goto out;
		if (ret >= 0) {
			r->off = 0;
			break;
		}
		if (file->f_flags & O_NONBLOCK) {
			ret = -EAGAIN;
			goto out;
		}
		mutex_unlock(&r->lock);
		/* As ftrace's splice: wait for buffer_percent of the CPU's pages. */
		ret = ring_buffer_wait(inst->buffer, r->cpu,
				       READ_ONCE(inst->buffer_percent), NULL, NULL);
		if (ret)
			return ret;
		if (mutex_lock_interruptible(&r->lock))
			return -ERESTARTSYS;
	}
	ret = min(cnt, r->size - r->off);
	if (copy_to_user(ubuf, (u8 *)ring_buffer_read_page_data(r->page) + r->off,
			 ret)) {
		ret = -EFAULT;
		goto out;
	}
	r->off += ret;
out:
	mutex_unlock(&r->lock);
	return ret;
}

static __poll_t kmark_raw_poll(struct file *file, poll_table *pt)
{
	struct kmark_raw *r = file->private_data;

	if (READ_ONCE(r->off) != r->size)
		return EPOLLIN | EPOLLRDNORM;
	return ring_buffer_poll_wait(r->inst->buffer, r->cpu, file, pt,
				     READ_ONCE(r->inst->buffer_percent));
}

/*
 * splice(): whole pages into a pipe without a copy, as ftrace's
 * tracing_buffers_splice_read(). Each page ring_buffer_read_page() takes
 * (a full reader page is swapped for a spare one, not copied) goes into
 * the pipe as it is, held by a kmark_page_ref until the pipe lets it go;
 * then it goes back to the CPU's buffer as its next spare. Only pages the
 * writer has left: the page being written stays for read(), which takes
 * partial pages. A blocking splice that finds no page waits, as read()
 * does, for buffer_percent of the CPU's pages, takes what there is then,
 * and returns 0 when that is nothing (the page being written is not full).
 *
 * A page in a pipe may outlive the file it was spliced from: its ref holds
 * the instance (no rmdir) and counts as a user of its buffers (the
 * snapshot buffer it may have come from, after a swap, is not freed).
 */
struct kmark_page_ref {
	struct kmark_instance *inst;	/* held */
	struct trace_buffer *buffer;
	struct buffer_data_read_page *rpage;
	int cpu;
	refcount_t refcount;
};

static void kmark_page_ref_put(struct kmark_page_ref *ref)
{
	if (!refcount_dec_and_test(&ref->refcount))
		return;
	ring_buffer_free_read_page(ref->buffer, ref->cpu, ref->rpage);
	atomic_dec(&ref->inst->buf_users);
	kmark_inst_put(ref->inst);
	kfree(ref);
}

static void kmark_pipe_buf_release(struct pipe_inode_info *pipe,
				   struct pipe_buffer *buf)
{
	kmark_page_ref_put((struct kmark_page_ref *)buf->private);
	buf->private = 0;
}

static bool kmark_pipe_buf_get(struct pipe_inode_info *pipe,
			       struct pipe_buffer *buf)
{
	struct kmark_page_ref *ref = (struct kmark_page_ref *)buf->private;

	if (refcount_read(&ref->refcount) > INT_MAX / 2)
		return false;
	refcount_inc(&ref->refcount);
	return true;
}

static const struct pipe_buf_operations kmark_pipe_buf_ops = {
	.release = kmark_pipe_buf_release,
	.get = kmark_pipe_buf_get,
};

/* The pages splice_to_pipe() could not put into the pipe. */
static void kmark_spd_release(struct splice_pipe_desc *spd, unsigned int i)
{
	kmark_page_ref_put((struct kmark_page_ref *)spd->partial[i].private);
	spd->partial[i].private = 0;
}

static ssize_t kmark_raw_splice_read(struct file *file, loff_t *ppos,
				     struct pipe_inode_info *pipe, size_t len,
				     unsigned int flags)
{
	struct kmark_raw *r = file->private_data;
	struct kmark_instance *inst = r->inst;
	struct trace_buffer *buffer;
	struct partial_page partial_def[PIPE_DEF_BUFFERS];
	struct page *pages_def[PIPE_DEF_BUFFERS];
	struct splice_pipe_desc spd = {
		.pages = pages_def,
		.partial = partial_def,
		.nr_pages_max = PIPE_DEF_BUFFERS,
		.ops = &kmark_pipe_buf_ops,
		.spd_release = kmark_spd_release,
	};
	struct kmark_page_ref *ref;
	bool woken = false;
	ssize_t ret = 0;
	unsigned int i, psize;

	/* Whole pages only; a page read() began is read() to its end. */
	if (READ_ONCE(r->off) != r->size)
		return -EINVAL;
	if (splice_grow_spd(pipe, &spd))
		return -ENOMEM;
again:
	/* Consumers of the buffer take turns (see kmark_pipe_fill()). */
	mutex_lock(&inst->read_mutex);
	/* A snapshot may swap the buffers: the pages are this one's. */
	buffer = READ_ONCE(inst->buffer);
	/*
	 * Pages of the buffer's sub-buffer size (buffer_subbuf_size_kb),
	 * maybe not read()'s page's: that one is read()'s alone (r->lock).
	 */
	psize = ring_buffer_subbuf_size_get(buffer);
	if (len < psize)
		ret = -EINVAL;
	for (i = 0; !ret && i < spd.nr_pages_max && len >= psize &&
	     ring_buffer_entries_cpu(buffer, r->cpu); i++) {
		int rr;

		ref = kzalloc(sizeof(*ref), GFP_KERNEL);
		if (!ref) {
			ret = -ENOMEM;
			break;
		}
		refcount_set(&ref->refcount, 1);
		ref->buffer = buffer;
		ref->cpu = r->cpu;
		ret = ring_buffer_alloc_read_page(buffer, r->cpu, &ref->rpage);
		if (ret) {
			kfree(ref);
			break;
		}
		rr = ring_buffer_read_page(buffer, ref->rpage, psize, r->cpu, 1);
		if (rr < 0) {
			/* No page the writer has left. */
			ring_buffer_free_read_page(buffer, r->cpu, ref->rpage);
			kfree(ref);
			break;
		}
		/* The open file holds the instance: this cannot fail. */
		if (WARN_ON_ONCE(kmark_inst_hold(inst))) {
			ring_buffer_free_read_page(buffer, r->cpu, ref->rpage);
			kfree(ref);
			ret = -ENODEV;
			break;
		}
		ref->inst = inst;
		atomic_inc(&inst->buf_users);
		spd.pages[i] = virt_to_page(ring_buffer_read_page_data(ref->rpage));
		spd.partial[i].offset = 0;
		spd.partial[i].len = psize;
		spd.partial[i].private = (unsigned long)ref;
		spd.nr_pages++;
		len -= psize;
		*ppos += psize;
	}
	mutex_unlock(&inst->read_mutex);

	if (!spd.nr_pages) {
		if (ret || woken)
			goto out;
		ret = -EAGAIN;
		if ((file->f_flags & O_NONBLOCK) || (flags & SPLICE_F_NONBLOCK))
			goto out;
		ret = ring_buffer_wait(READ_ONCE(inst->buffer), r->cpu,
				       READ_ONCE(inst->buffer_percent), NULL, NULL);
		if (ret)
			goto out;
		/* Once more, for what came: full pages, or nothing (0). */
		woken = true;
		goto again;
	}
	ret = splice_to_pipe(pipe, &spd);
out:
	splice_shrink_spd(&spd);
	return ret;
}

static const struct file_operations kmark_raw_fops = {
	.open = kmark_raw_open,
	.read = kmark_raw_read,
	.splice_read = kmark_raw_splice_read,
	.poll = kmark_raw_poll,
	.release = kmark_raw_release,
};


/* --- per_cpu/cpuN/stats --------------------------------------------------- */

static void kmark_print_ts_line(struct seq_file *m, const char *what, u64 ts)
{
	u64 usecs = div_u64(ts, NSEC_PER_USEC);
	u32 rem;
	u64 secs = div_u64_rem(usecs, USEC_PER_SEC, &rem);

	seq_printf(m, "%s: %5llu.%06u\n", what, secs, rem);
}

static int kmark_stats_show(struct seq_file *m, void *v)
{
	struct kmark_instance *inst = m->private;
	int cpu = kmark_file_cpu(file_inode(m->file));
	struct trace_buffer *b;

	mutex_lock(&kmark_mutex);
	b = inst->buffer;
	if (b) {
		seq_printf(m, "entries: %lu\n", ring_buffer_entries_cpu(b, cpu));
		seq_printf(m, "overrun: %lu\n", ring_buffer_overrun_cpu(b, cpu));
		seq_printf(m, "commit overrun: %lu\n",
			   ring_buffer_commit_overrun_cpu(b, cpu));
		seq_printf(m, "bytes: %lu\n", ring_buffer_bytes_cpu(b, cpu));
		kmark_print_ts_line(m, "oldest event ts",
				    ring_buffer_oldest_event_ts(b, cpu));
		kmark_print_ts_line(m, "now ts", ring_buffer_time_stamp(b));
		seq_printf(m, "dropped events: %lu\n",
			   kmark_dropped(inst, cpu) +
			   ring_buffer_dropped_events_cpu(b, cpu));
		seq_printf(m, "read events: %lu\n",
			   ring_buffer_read_events_cpu(b, cpu));
	} else {
		seq_puts(m, "entries: 0\noverrun: 0\ncommit overrun: 0\nbytes: 0\n"
			 "oldest event ts:     0.000000\nnow ts:     0.000000\n"
			 "dropped events: 0\nread events: 0\n");
	}
	seq_printf(m, "written: %lu\n", kmark_written(inst, cpu));
	mutex_unlock(&kmark_mutex);
	return 0;
}

static int kmark_stats_open(struct inode *inode, struct file *file)
{
	struct kmark_instance *inst;
	int ret;

	inst = kmark_inst_get(inode);
	if (IS_ERR(inst))
		return PTR_ERR(inst);
	ret = single_open(file, kmark_stats_show, inst);
	if (ret)
		kmark_inst_put(inst);
	return ret;
}

static int kmark_stats_release(struct inode *inode, struct file *file)
{
	kmark_inst_put(((struct seq_file *)file->private_data)->private);
	return single_release(inode, file);
}

static const struct file_operations kmark_stats_fops = {
	.open = kmark_stats_open,
	.read = seq_read,
	.llseek = seq_lseek,
	.release = kmark_stats_release,
};


/* --- per_cpu/cpuN/buffer_size_kb ---------------------------------------------- */

static ssize_t kmark_cpu_kb_read(struct file *file, char __user *ubuf,
				 size_t cnt, loff_t *ppos)
{
	struct kmark_instance *inst = file->private_data;
	int cpu = kmark_file_cpu(file_inode(file));
	unsigned long kb;
	char buf[24];
	int len;

	mutex_lock(&kmark_mutex);
	kb = kmark_buffer_cpu_size(inst, cpu) >> 10;
	mutex_unlock(&kmark_mutex);
	len = snprintf(buf, sizeof(buf), "%lu\n", kb);
	return simple_read_from_buffer(ubuf, cnt, ppos, buf, len);
}

static ssize_t kmark_cpu_kb_write(struct file *file, const char __user *ubuf,
				  size_t cnt, loff_t *ppos)
{
	struct kmark_instance *inst = file->private_data;
	int cpu = kmark_file_cpu(file_inode(file));
	unsigned long kb;
	int ret;

	ret = kstrtoul_from_user(ubuf, cnt, 10, &kb);
	if (ret || !kb || kb > KMARK_BUFFER_KB_MAX) {
		kmark_log_err(inst, "buffer_size_kb", 0,
			      "Size out of range (1 to 1048576 KiB per CPU)");
		return -EINVAL;
	}
	mutex_lock(&kmark_mutex);
	ret = kmark_buffer_ensure(inst);
	if (!ret)
		ret = kmark_buffer_resize_cpu(inst, kb, cpu);
	mutex_unlock(&kmark_mutex);
	if (ret)
		kmark_log_resize_err(inst, ret);
	if (ret)
		return ret;
	*ppos += cnt;
	return cnt;
}

static const struct file_operations kmark_cpu_kb_fops = {
	.open = kmark_inst_open,
	.read = kmark_cpu_kb_read,
	.write = kmark_cpu_kb_write,
	.llseek = default_llseek,
	.release = kmark_inst_release,
};

/* trace, trace_pipe and per_cpu/ of an instance. Under kmark_mutex. */
int kmark_read_create_files(struct kmark_instance *inst)
{
	struct kmark_dir pcpu, d;
	char name[24];	/* "cpu" and any int */
	int cpu;

	if (kmark_fs_file("trace_pipe", 0400, &inst->dir, inst,
			  &kmark_pipe_fops) ||
	    kmark_fs_file("trace", 0600, &inst->dir, inst, &kmark_trace_fops) ||
	    kmark_fs_file("snapshot", 0600, &inst->dir, inst,
			  &kmark_snapshot_fops) ||
	    kmark_fs_dir("per_cpu", &inst->dir, &pcpu))
		return -ENOMEM;
	for_each_possible_cpu(cpu) {
		snprintf(name, sizeof(name), "cpu%d", cpu);
		if (kmark_fs_dir(name, &pcpu, &d) ||
		    kmark_fs_cpu_file("stats", 0400, &d, inst, cpu,
				      &kmark_stats_fops) ||
		    kmark_fs_cpu_file("trace_pipe_raw", 0400, &d, inst, cpu,
				      &kmark_raw_fops) ||
		    kmark_fs_cpu_file("trace_pipe", 0400, &d, inst, cpu,
				      &kmark_pipe_fops) ||
		    kmark_fs_cpu_file("trace", 0600, &d, inst, cpu,
				      &kmark_trace_fops) ||
		    kmark_fs_cpu_file("buffer_size_kb", 0600, &d, inst, cpu,
				      &kmark_cpu_kb_fops))
			return -ENOMEM;
	}
	return 0;
}

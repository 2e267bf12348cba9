// SPDX-License-Identifier: GPL-2.0
/*
 * kmark: per-hit cost benchmark, in the manner of trace_benchmark.c.
 *
 *   echo 'MODE N' > /sys/kernel/debug/kmark/bench
 *   cat /sys/kernel/debug/kmark/bench      ->  "MODE N TOTAL_NS"
 *
 * runs N calls of one of three noinline functions in the writer's context
 * and times the loop with local_clock():
 *   plain       no marker (kprobes may be placed on kmbench_plain: kmark
 *               refuses its own kmark_* functions)
 *   marker      the marker kmark_bench "a=%d b=%ld comm=%s"; whether it is
 *               enabled, and tracing_on, is set through the usual files
 *   tracepoint  the ftrace event kmark_bench:kmark_bench with the same
 *               fields (CONFIG_TRACING kernels only)
 *   ringbuf     the ring buffer alone: reserve and commit, in the top
 *               instance's buffer, a record of the size the marker's would
 *               have (nothing written in it but the type 0, which no event
 *               has), to tell kmark's own part of an event from the ring
 *               buffer's
 * Under QEMU with -icount shift=0 a guest nanosecond is one instruction, so
 * the figures are instruction counts.
 */
#define pr_fmt(fmt) "kmark: " fmt

#include <linux/init.h>
#include <linux/ring_buffer.h>
#include <linux/sched.h>
#include <linux/sched/clock.h>
#include <linux/security.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uaccess.h>
#include <trace/kmark.h>

#include "kmark_internal.h"

#ifdef CONFIG_TRACING
#define CREATE_TRACE_POINTS
#include "kmark_bench_trace.h"
#endif

/* Results of the last run; under kmark_bench_mutex. */
static DEFINE_MUTEX(kmark_bench_mutex);
static char kmark_bench_result[96] = "none\n";

/*
 * noclone: the compiler keeps them whole (no .isra clones) for kprobes.
 * Not named kmark_*: kmark refuses kprobe events on its own functions.
 */
static noinline __noclone void kmbench_plain(int a, long b)
{
	barrier();
}

static noinline __noclone void kmark_bench_marker(int a, long b)
{
	kmark(kmark_bench, "a=%d b=%ld comm=%s", a, b, current->comm);
	barrier();
}

/* Set before a ringbuf run: the size of kmark_bench's record for current. */
static unsigned long kmark_bench_rb_size;

static noinline __noclone void kmark_bench_ringbuf(int a, long b)
{
	struct trace_buffer *buf = READ_ONCE(kmark_top_inst->buffer);
	struct ring_buffer_event *event;

	preempt_disable_notrace();
	event = ring_buffer_lock_reserve(buf, kmark_bench_rb_size);
	if (event) {
		((struct kmark_entry *)ring_buffer_event_data(event))->type = 0;
		ring_buffer_unlock_commit(buf);
	}
	preempt_enable_notrace();
	barrier();
}

#ifdef CONFIG_TRACING
static noinline __noclone void kmark_bench_tracepoint(int a, long b)
{
	trace_kmark_bench(a, b, current->comm);
	barrier();
}
#endif

static ssize_t kmark_bench_write(struct file *file, const char __user *ubuf,
				 size_t cnt, loff_t *ppos)
{
	void (*fn)(int a, long b);
	char mode[16], *buf;
	unsigned long n, i;
	u64 t0, t1;

	buf = memdup_user_nul(ubuf, min_t(size_t, cnt, 63));
	if (IS_ERR(buf))
		return PTR_ERR(buf);
	if (sscanf(buf, "%15s %lu", mode, &n) != 2 || !n || n > 100000000) {
		kfree(buf);
		return -EINVAL;
	}
	kfree(buf);
	if (!strcmp(mode, "plain"))
		fn = kmbench_plain;
	else if (!strcmp(mode, "marker"))
		fn = kmark_bench_marker;
	else if (!strcmp(mode, "ringbuf"))
		fn = kmark_bench_ringbuf;
#ifdef CONFIG_TRACING
	else if (!strcmp(mode, "tracepoint"))
		fn = kmark_bench_tracepoint;
#endif
	else
		return -EINVAL;

	mutex_lock(&kmark_bench_mutex);
	if (fn == kmark_bench_ringbuf) {
		/* Header, a=%d, b=%ld, the string's slot, the comm and its NUL. */
		kmark_bench_rb_size = KMARK_HDR_SIZE + sizeof(int) +
				      sizeof(long) + sizeof(char *) +
				      strlen(current->comm) + 1;
		if (!READ_ONCE(kmark_top_inst->buffer)) {
			mutex_unlock(&kmark_bench_mutex);
			return -ENODEV;	/* no buffer yet: enable an event once */
		}
	}
	t0 = local_clock();
	for (i = 0; i < n; i++) {
		fn(i, i);
		/* Up to 10^8 calls: let others run (a check, almost free). */
		if (!(i & 1023))
			cond_resched();
	}
	t1 = local_clock();
	snprintf(kmark_bench_result, sizeof(kmark_bench_result),
		 "%s %lu %llu\n", mode, n, t1 - t0);
	mutex_unlock(&kmark_bench_mutex);
	return cnt;
}

static ssize_t kmark_bench_read(struct file *file, char __user *ubuf,
				size_t cnt, loff_t *ppos)
{
	ssize_t ret;

	mutex_lock(&kmark_bench_mutex);
	ret = simple_read_from_buffer(ubuf, cnt, ppos, kmark_bench_result,
				      strlen(kmark_bench_result));
	mutex_unlock(&kmark_bench_mutex);
	return ret;
}

/* As kmark's other files: root, and not under lockdown. */
static int kmark_bench_open(struct inode *inode, struct file *file)
{
	return security_locked_down(LOCKDOWN_TRACEFS);
}

static const struct file_operations kmark_bench_fops = {
	.open = kmark_bench_open,
	.read = kmark_bench_read,
	.write = kmark_bench_write,
	.llseek = default_llseek,
};

static int __init kmark_bench_init(void)
{
	if (!kmark_top.d[KMARK_DEBUGFS])
		return -ENODEV;
	return kmark_fs_file("bench", 0600, &kmark_top, NULL,
			     &kmark_bench_fops);
}
late_initcall(kmark_bench_init);

// SPDX-License-Identifier: GPL-2.0
/*
 * kmark_sample: static markers in a module, as a driver places them.
 *
 * Build it in the tree (CONFIG_SAMPLE_KMARK=m) or out of it:
 *   make -C <kernel build dir> M=$PWD CONFIG_SAMPLE_KMARK=m modules
 * Then:
 *   modprobe kmark_sample
 *   echo 'kmark_sample:*' > /sys/kernel/debug/kmark/set_event
 *   echo 3 > /sys/module/kmark_sample/parameters/work
 *   cat /sys/kernel/debug/kmark/trace
 *
 * Its markers:
 *   kmark_sample_tick  "count=%llu period_ms=%u late_us=%lld comm=%s"
 *                      from its kthread, every period_ms milliseconds
 *                      (a module parameter, writable; 0 pauses it)
 *   kmark_sample_step  "step=%d of=%d comm=%s", on demand: a write of N to
 *                      the "work" parameter does N steps, each marked
 *   kmark_sample_done  no fields; ends each batch of steps
 *
 * With probe=1 it also attaches a probe of its own to kmark_sample_step,
 * as in-kernel users of a marker do (kmark_probe_register(), then
 * kmark_arg_value() and kmark_arg_str() on the record); the "probed"
 * parameter shows what the probe saw:
 *   modprobe kmark_sample probe=1
 *   echo 3 > /sys/module/kmark_sample/parameters/work
 *   cat /sys/module/kmark_sample/parameters/probed
 *   kmark_sample_step "step=%d of=%d comm=%s": 3 hits, last step=2 of=3 comm=sh
 */
#include <linux/err.h>
#include <linux/jiffies.h>
#include <linux/kthread.h>
#include <linux/ktime.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/sched.h>
#include <linux/spinlock.h>
#include <linux/string.h>
#include <linux/sysfs.h>
#include <trace/kmark.h>

/* kmark_sample_step's format: its sites and the probe=1 probe share it. */
#define KMARK_SAMPLE_STEP_FMT	"step=%d of=%d comm=%s"

static unsigned int period_ms = 1000;
module_param(period_ms, uint, 0644);
MODULE_PARM_DESC(period_ms, "the kthread's marker period in ms (0: paused)");

static struct task_struct *kmark_sample_task;

/*
 * The kthread: a marker each period, with how late the wakeup was. It
 * sleeps in TASK_INTERRUPTIBLE after looking at kthread_should_stop(), so
 * that kthread_stop()'s wakeup ends the sleep at once (rmmod does not wait
 * for a period); paused, it looks at period_ms ten times a second.
 */
static int kmark_sample_thread(void *unused)
{
	u64 count = 0;

	for (;;) {
		unsigned int period = READ_ONCE(period_ms);
		ktime_t due = ktime_add_ms(ktime_get(), period);

		set_current_state(TASK_INTERRUPTIBLE);
		if (kthread_should_stop()) {
			__set_current_state(TASK_RUNNING);
			break;
		}
		schedule_timeout(period ? msecs_to_jiffies(period) : HZ / 10);
		if (!period || kthread_should_stop())
			continue;
		kmark(kmark_sample_tick, "count=%llu period_ms=%u late_us=%lld comm=%s",
		      ++count, period, ktime_us_delta(ktime_get(), due),
		      kmark_comm(current));
	}
	return 0;
}

static int kmark_sample_work(const char *val, const struct kernel_param *kp)
{
	int n, i, ret = kstrtoint(val, 0, &n);

	if (ret)
		return ret;
	for (i = 0; i < n; i++)
		kmark(kmark_sample_step, KMARK_SAMPLE_STEP_FMT, i, n,
		      kmark_comm(current));
	kmark(kmark_sample_done, "");
	return 0;
}

static const struct kernel_param_ops kmark_sample_work_ops = {
	.set = kmark_sample_work,
};
module_param_cb(work, &kmark_sample_work_ops, NULL, 0200);
MODULE_PARM_DESC(work, "do this many steps of pretend work, each marked");

static bool probe;
module_param(probe, bool, 0444);
MODULE_PARM_DESC(probe, "attach a probe to kmark_sample_step (see probed)");

/* What the probe saw; kmark_sample_lock protects it. */
static DEFINE_SPINLOCK(kmark_sample_lock);
static struct kmark_marker *kmark_sample_marker;
static unsigned long kmark_sample_hits;
static long kmark_sample_last[2];
static char kmark_sample_comm[TASK_COMM_LEN];

/*
 * The probe: it runs at the marker's site, with preemption off, before
 * the recorder if kmark records the marker too. The record is read through
 * the marker's layout: argument i in format order.
 */
static void kmark_sample_probe(void *data, struct kmark_marker *marker,
			       const void *args)
{
	const char *comm = kmark_arg_str(marker, args, 2);
	unsigned long flags;

	spin_lock_irqsave(&kmark_sample_lock, flags);
	kmark_sample_marker = marker;
	kmark_sample_hits++;
	kmark_sample_last[0] = (int)kmark_arg_value(marker, args, 0);
	kmark_sample_last[1] = (int)kmark_arg_value(marker, args, 1);
	strscpy(kmark_sample_comm, comm ?: "");
	spin_unlock_irqrestore(&kmark_sample_lock, flags);
}

static int kmark_sample_probed_get(char *buf, const struct kernel_param *kp)
{
	unsigned long flags;
	int len;

	spin_lock_irqsave(&kmark_sample_lock, flags);
	if (!kmark_sample_marker)
		len = sysfs_emit(buf, "no hit\n");
	else
		len = sysfs_emit(buf, "%s \"%s\": %lu hits, last step=%ld of=%ld comm=%s\n",
				 kmark_marker_name(kmark_sample_marker),
				 kmark_marker_format(kmark_sample_marker),
				 kmark_sample_hits, kmark_sample_last[0],
				 kmark_sample_last[1], kmark_sample_comm);
	spin_unlock_irqrestore(&kmark_sample_lock, flags);
	return len;
}

static const struct kernel_param_ops kmark_sample_probed_ops = {
	.get = kmark_sample_probed_get,
};
module_param_cb(probed, &kmark_sample_probed_ops, NULL, 0444);
MODULE_PARM_DESC(probed, "what the probe=1 probe saw");

static int __init kmark_sample_init(void)
{
	int ret;

	/* The module's markers exist before its init runs. */
	if (probe) {
		ret = kmark_probe_register("kmark_sample_step",
					   KMARK_SAMPLE_STEP_FMT,
					   kmark_sample_probe, NULL);
		if (ret)
			return ret;
	}
	kmark_sample_task = kthread_run(kmark_sample_thread, NULL,
					"kmark_sample");
	if (IS_ERR(kmark_sample_task)) {
		if (probe)
			kmark_probe_unregister("kmark_sample_step",
					       kmark_sample_probe, NULL);
		return PTR_ERR(kmark_sample_task);
	}
	return 0;
}
module_init(kmark_sample_init);

static void __exit kmark_sample_exit(void)
{
	kthread_stop(kmark_sample_task);
	if (probe)
		kmark_probe_unregister("kmark_sample_step", kmark_sample_probe,
				       NULL);
}
module_exit(kmark_sample_exit);

MODULE_DESCRIPTION("kmark sample: static markers in a module");
MODULE_LICENSE("GPL");

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
 */
#include <linux/err.h>
#include <linux/jiffies.h>
#include <linux/kthread.h>
#include <linux/ktime.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/sched.h>
#include <trace/kmark.h>

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
		kmark(kmark_sample_step, "step=%d of=%d comm=%s", i, n,
		      kmark_comm(current));
	kmark(kmark_sample_done, "");
	return 0;
}

static const struct kernel_param_ops kmark_sample_work_ops = {
	.set = kmark_sample_work,
};
module_param_cb(work, &kmark_sample_work_ops, NULL, 0200);
MODULE_PARM_DESC(work, "do this many steps of pretend work, each marked");

static int __init kmark_sample_init(void)
{
	kmark_sample_task = kthread_run(kmark_sample_thread, NULL,
					"kmark_sample");
	return PTR_ERR_OR_ZERO(kmark_sample_task);
}
module_init(kmark_sample_init);

static void __exit kmark_sample_exit(void)
{
	kthread_stop(kmark_sample_task);
}
module_exit(kmark_sample_exit);

MODULE_DESCRIPTION("kmark sample: static markers in a module");
MODULE_LICENSE("GPL");

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
 * Each write to the "work" parameter does that many steps of pretend
 * work, each with a marker; the zero-argument marker ends the batch.
 */
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/sched.h>
#include <trace/kmark.h>

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

MODULE_DESCRIPTION("kmark sample: static markers in a module");
MODULE_LICENSE("GPL");

// SPDX-License-Identifier: GPL-2.0
/*
 * kmark's guest test module for markers in modules (built out of tree with
 * M=, as a driver would be): "echo N > /sys/module/kmark_mark/parameters/fire"
 * fires kmark_mod_fire N times, then kmark_mod_zero (no arguments) and the
 * kernel's own sys_sync marker, which this module's site joins.
 */
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/sched.h>
#include <trace/kmark.h>

static int kmark_mark_fire(const char *val, const struct kernel_param *kp)
{
	int n, i, ret = kstrtoint(val, 0, &n);

	if (ret)
		return ret;
	for (i = 0; i < n; i++)
		kmark(kmark_mod_fire, "seq=%d comm=%s", i, kmark_comm(current));
	kmark(kmark_mod_zero, "");
	kmark_system("syscalls", sys_sync, "");
	return 0;
}

static const struct kernel_param_ops kmark_mark_fire_ops = {
	.set = kmark_mark_fire,
};
module_param_cb(fire, &kmark_mark_fire_ops, NULL, 0200);
MODULE_PARM_DESC(fire, "fire kmark_mod_fire this many times");

MODULE_DESCRIPTION("kmark's guest test module: markers in a module");
MODULE_LICENSE("GPL");

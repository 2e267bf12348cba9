// SPDX-License-Identifier: GPL-2.0
/*
 * A test helper, not part of the kernel or of the patch series:
 * scripts/mkinitramfs.sh compiles this as the single target kmark_offsets.s
 * of an external (M=) build against the guest's kernel, the way
 * asm-offsets.c is used, to tell the guest tests where task_struct keeps
 * pid, comm and prio, for kprobe fetch arguments such as
 * "+OFF($arg1):s32".
 */
#include <linux/kbuild.h>
#include <linux/sched.h>

void kmark_offsets(void);

void kmark_offsets(void)
{
	DEFINE(TASK_PID, offsetof(struct task_struct, pid));
	DEFINE(TASK_COMM, offsetof(struct task_struct, comm));
	DEFINE(TASK_PRIO, offsetof(struct task_struct, prio));
}

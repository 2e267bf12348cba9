// SPDX-License-Identifier: GPL-2.0
/*
 * Not part of the kernel image: scripts/mkinitramfs.sh compiles this as the
 * single target kernel/trace/kmark_offsets.s (as asm-offsets.c is used) to
 * tell the guest tests where task_struct keeps pid and comm, for kprobe
 * fetch arguments such as "+OFF($arg1):s32".
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

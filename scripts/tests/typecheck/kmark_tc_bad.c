// SPDX-License-Identifier: GPL-2.0
/*
 * Built by scripts/typecheck.sh in the kernel tree: every kmark() site here
 * passes an argument its format does not take, and each must be a build
 * error (the site's -Wformat is an error), not a warning.
 */
#include <linux/sched.h>
#include <trace/kmark.h>

void kmark_tc_bad(struct task_struct *p, u64 v, unsigned long l);

void kmark_tc_bad(struct task_struct *p, u64 v, unsigned long l)
{
	kmark(kmark_tc_u64_for_d, "v=%d", v);			/* TC-1 */
	kmark(kmark_tc_int_for_s, "s=%s", p->pid);		/* TC-2 */
	kmark(kmark_tc_missing, "a=%d b=%d", 1);		/* TC-3 */
	kmark(kmark_tc_extra, "a=%d", 1, 2);			/* TC-4 */
	kmark(kmark_tc_ptr_for_lu, "p=%lu", p);			/* TC-5 */
	kmark(kmark_tc_long_for_llu, "l=%llu", l);		/* TC-6 */
	kmark(kmark_tc_comm_for_d, "c=%d", kmark_comm(p));	/* TC-7 */
}

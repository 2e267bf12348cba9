// SPDX-License-Identifier: GPL-2.0
/*
 * Built by scripts/typecheck.sh in the kernel tree: kmark() sites that must
 * compile without a single warning, the zero-argument form among them (it
 * once warned -Wformat-zero-length), kmark_comm(), a bit-field, a bool.
 */
#include <linux/sched.h>
#include <trace/kmark.h>

struct kmark_tc_bits {
	unsigned int a:3;
	bool b;
};

void kmark_tc_good(struct task_struct *p, struct kmark_tc_bits *s);

void kmark_tc_good(struct task_struct *p, struct kmark_tc_bits *s)
{
	kmark(kmark_tc_none, "");
	kmark(kmark_tc_comm, "comm=%s pid=%d", kmark_comm(p), p->pid);
	kmark(kmark_tc_bits, "a=%u b=%d", s->a, s->b);
	kmark(kmark_tc_mixed, "s=%s l=%lu ll=%llu p=%p", p->comm, 1UL, 2ULL, p);
}

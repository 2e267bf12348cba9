/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kmark: the scheduler's markers. Field layouts follow ftrace's sched events
 * (include/trace/events/sched.h) so that tools reading one read the other.
 * Included by kernel/sched/core.c, kernel/fork.c and kernel/exit.c only.
 */
#ifndef _TRACE_KMARK_SCHED_H
#define _TRACE_KMARK_SCHED_H

#include <linux/sched.h>
#include <trace/kmark.h>

/*
 * prev_state as ftrace prints it: a preempted task is "R+", otherwise the
 * letter of its state ("R", "S", "D", "T", "t", "X", "Z", "P", "I").
 * Only called while sched_switch is enabled.
 */
static inline const char *kmark_switch_state(bool preempt,
					     unsigned int prev_state,
					     struct task_struct *prev,
					     char buf[2])
{
	if (preempt)
		return "R+";
	buf[0] = task_index_to_char(__task_state_index(prev_state,
						       prev->exit_state));
	buf[1] = '\0';
	return buf;
}

/* In context_switch(), right before switch_to(): rq lock held, irqs off. */
static __always_inline void kmark_sched_switch(bool preempt,
					       unsigned int prev_state,
					       struct task_struct *prev,
					       struct task_struct *next)
{
	char state[2];

	kmark(sched_switch,
	      "prev_comm=%s prev_pid=%d prev_prio=%d prev_state=%s ==> next_comm=%s next_pid=%d next_prio=%d",
	      prev->comm, prev->pid, prev->prio,
	      kmark_switch_state(preempt, prev_state, prev, state),
	      next->comm, next->pid, next->prio);
}

static __always_inline void kmark_sched_wakeup(struct task_struct *p)
{
	kmark(sched_wakeup, "comm=%s pid=%d prio=%d target_cpu=%03d",
	      p->comm, p->pid, p->prio, task_cpu(p));
}

static __always_inline void kmark_sched_process_fork(struct task_struct *parent,
						     struct task_struct *child)
{
	kmark(sched_process_fork,
	      "comm=%s pid=%d child_comm=%s child_pid=%d",
	      parent->comm, parent->pid, child->comm, child->pid);
}

static __always_inline void kmark_sched_process_exit(struct task_struct *p)
{
	kmark(sched_process_exit, "comm=%s pid=%d prio=%d",
	      p->comm, p->pid, p->prio);
}

#endif /* _TRACE_KMARK_SCHED_H */

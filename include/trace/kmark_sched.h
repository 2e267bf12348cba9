/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kmark: the scheduler's markers. Field layouts follow ftrace's sched events
 * (include/trace/events/sched.h): comms recorded inline (kmark_comm()),
 * prev_state in ftrace's encoding, so that tools reading one read the
 * other (trace-cmd's sched plugin, KernelShark's scheduling plugin).
 * Included by kernel/sched/core.c, kernel/fork.c, kernel/exit.c and
 * fs/exec.c only.
 */
#ifndef _TRACE_KMARK_SCHED_H
#define _TRACE_KMARK_SCHED_H

#include <linux/sched.h>
#include <trace/kmark.h>

/*
 * prev_state in ftrace's encoding (__trace_sched_switch_state()): 0 for a
 * runnable task, 1 << (task_state_index() - 1) for a sleeping one,
 * TASK_REPORT_MAX for a preempted one. kmark_task_state() records it as a
 * long and prints it as ftrace does ("R", "S", "R+", ...), and the format
 * file gives it ftrace's print expression, so that viewers reading
 * prev_state as a number (KernelShark's scheduling plugin) read kmark's.
 * Only called while sched_switch is enabled.
 */
static inline unsigned long kmark_switch_state(bool preempt,
					       unsigned int prev_state,
					       struct task_struct *prev)
{
	unsigned int state;

	if (preempt)
		return TASK_REPORT_MAX;
	state = __task_state_index(prev_state, prev->exit_state);
	return state ? 1UL << (state - 1) : 0;
}

/*
 * In __schedule(), where ftrace's trace_sched_switch() fires: the rq lock is
 * held (lockdep knows it), irqs are off, current is still @prev and its mm
 * is the one loaded. A probe on sched_switch runs in that state; it must
 * not take the rq lock or anything that nests inside it.
 */
static __always_inline void kmark_sched_switch(bool preempt,
					       unsigned int prev_state,
					       struct task_struct *prev,
					       struct task_struct *next)
{
	kmark_system("sched", sched_switch,
	      "prev_comm=%s prev_pid=%d prev_prio=%d prev_state=%p ==> next_comm=%s next_pid=%d next_prio=%d",
	      kmark_comm(prev), prev->pid, prev->prio,
	      kmark_task_state(kmark_switch_state(preempt, prev_state, prev)),
	      kmark_comm(next), next->pid, next->prio);
}

/*
 * sched_waking, sched_wakeup and sched_wakeup_new: ftrace's one template
 * (sched_wakeup_template). sched_waking fires in try_to_wake_up() once the
 * wakeup is decided, on the waker's CPU, with @p's pi_lock held (or @p
 * waking itself); sched_wakeup where @p is made runnable, sched_wakeup_new
 * in wake_up_new_task(), both with the rq lock held. A probe on them must
 * take neither lock.
 */
static __always_inline void kmark_sched_waking(struct task_struct *p)
{
	kmark_system("sched", sched_waking, "comm=%s pid=%d prio=%d target_cpu=%03d",
	      kmark_comm(p), p->pid, p->prio, task_cpu(p));
}

static __always_inline void kmark_sched_wakeup(struct task_struct *p)
{
	kmark_system("sched", sched_wakeup, "comm=%s pid=%d prio=%d target_cpu=%03d",
	      kmark_comm(p), p->pid, p->prio, task_cpu(p));
}

static __always_inline void kmark_sched_wakeup_new(struct task_struct *p)
{
	kmark_system("sched", sched_wakeup_new, "comm=%s pid=%d prio=%d target_cpu=%03d",
	      kmark_comm(p), p->pid, p->prio, task_cpu(p));
}

/* ftrace's fields parent_comm and parent_pid, printed "comm=" and "pid=". */
static __always_inline void kmark_sched_process_fork(struct task_struct *parent,
						     struct task_struct *child)
{
	kmark_system("sched", sched_process_fork,
	      "{parent_comm}comm=%s {parent_pid}pid=%d child_comm=%s child_pid=%d",
	      kmark_comm(parent), parent->pid, kmark_comm(child), child->pid);
}

static __always_inline void kmark_sched_process_exit(struct task_struct *p)
{
	kmark_system("sched", sched_process_exit, "comm=%s pid=%d prio=%d",
	      kmark_comm(p), p->pid, p->prio);
}

/*
 * In delayed_put_task_struct(), an RCU callback, where ftrace's fires: the
 * task is gone and its pid may be given again (kmark's pid lists drop it
 * here, as ftrace's).
 */
static __always_inline void kmark_sched_process_free(struct task_struct *p)
{
	kmark_system("sched", sched_process_free, "comm=%s pid=%d prio=%d",
		     kmark_comm(p), p->pid, p->prio);
}

/*
 * In exec_binprm(), where ftrace's fires: the new program is loaded and
 * current runs it; @old_pid is the pid before a de_thread() (a thread's
 * exec takes its group leader's pid).
 */
static __always_inline void kmark_sched_process_exec(const char *filename,
						     pid_t pid, pid_t old_pid)
{
	kmark_system("sched", sched_process_exec,
		     "filename=%s pid=%d old_pid=%d", filename, pid, old_pid);
}

#endif /* _TRACE_KMARK_SCHED_H */

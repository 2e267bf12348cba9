// SPDX-License-Identifier: GPL-2.0
/*
 * kmark: pid filters, ftrace's set_event_pid, set_event_notrace_pid and
 * options/event-fork, in each instance.
 *
 * An event is recorded when its task is wanted: listed in set_event_pid
 * (or that list is empty) and not listed in set_event_notrace_pid. As in
 * ftrace, sched_switch is also recorded when the task switched to is
 * wanted, and sched_wakeup and sched_wakeup_new when (and only when) the
 * woken task is. With event-fork set, a listed task's children are added
 * to its list at fork and every pid leaves the lists when its task is
 * freed (sched_process_free, as ftrace's), not at sched_process_exit: the
 * events of the task's last stretch of do_exit() (files closed, the final
 * switch, interrupts in it) are filtered as its others.
 *
 * A list is a bitmap of pids, as ftrace's pid_list: a lookup is one bit,
 * whatever was added and removed before. It covers the pids up to pid_max
 * (kernel.pid_max when it was written) or the largest pid written; a child
 * of a listed task whose pid is beyond (pid_max was raised since) is not
 * followed, and options/event-fork counts it.
 *
 * Writes follow ftrace's (">" replaces, ">>" adds, an empty write clears
 * with ">"), with kmark's difference: a write that fails changes nothing,
 * and ">" replaces at the first successful write, not at open.
 */
#define pr_fmt(fmt) "kmark: " fmt

#include <linux/ctype.h>
#include <linux/kprobes.h>
#include <linux/pid.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/threads.h>

#include "kmark_internal.h"

/**
 * struct kmark_pid_set - the pids of one list
 * @rcu:	freed after a grace period (the recording path reads it with
 *		preemption off)
 * @nr_bits:	pids 0 to @nr_bits - 1 can be listed
 * @nr:		pids listed
 * @bits:	one bit a pid; changed under kmark_pid_lock
 */
struct kmark_pid_set {
	struct rcu_head rcu;
	unsigned int nr_bits;
	unsigned int nr;
	unsigned long bits[];
};

/*
 * Every instance's lists (kmark_instance.pids) are replaced (RCU) under
 * kmark_mutex and kmark_pid_lock, and changed in place (fork, exit) under
 * kmark_pid_lock: a raw spinlock, since fork and exit run the markers'
 * probes with preemption off.
 */
static DEFINE_RAW_SPINLOCK(kmark_pid_lock);

/* On while some instance has a list: the recording path looks only then. */
DEFINE_STATIC_KEY_FALSE(kmark_pid_filtering);
static unsigned int kmark_pid_filtering_users;	/* kmark_mutex */

static bool notrace kmark_pid_in(const struct kmark_pid_set *set, pid_t pid)
{
	return (unsigned int)pid < set->nr_bits && test_bit(pid, set->bits);
}
NOKPROBE_SYMBOL(kmark_pid_in);

/* Under kmark_pid_lock, or on a set nobody else sees yet. */
static bool kmark_pid_add(struct kmark_pid_set *set, pid_t pid)
{
	if ((unsigned int)pid >= set->nr_bits)
		return false;
	if (!__test_and_set_bit(pid, set->bits))
		set->nr++;
	return true;
}

static void kmark_pid_del(struct kmark_pid_set *set, pid_t pid)
{
	if ((unsigned int)pid < set->nr_bits &&
	    __test_and_clear_bit(pid, set->bits))
		set->nr--;
}

static struct kmark_pid_set *kmark_pid_set_alloc(unsigned int nr_bits)
{
	struct kmark_pid_set *set;

	nr_bits = round_up(nr_bits, BITS_PER_LONG);
	set = kvzalloc(struct_size(set, bits, BITS_TO_LONGS(nr_bits)),
		       GFP_KERNEL);
	if (set)
		set->nr_bits = nr_bits;
	return set;
}

static bool notrace kmark_pid_wanted(const struct kmark_instance *inst,
				     pid_t pid)
{
	const struct kmark_pid_set *t, *n;

	t = rcu_dereference_sched(inst->pids[KMARK_PIDS_TRACE]);
	n = rcu_dereference_sched(inst->pids[KMARK_PIDS_NOTRACE]);
	if (t && !kmark_pid_in(t, pid))
		return false;
	return !(n && kmark_pid_in(n, pid));
}
NOKPROBE_SYMBOL(kmark_pid_wanted);

/**
 * __kmark_pid_filtered_out - is an event's task unwanted? (pid filters on)
 * @inst:	the instance that would record it
 * @m:		the event
 * @args:	a marker's argument block, or NULL (kprobe events,
 *		trace_marker: only the current task counts)
 *
 * Called with preemption off.
 * Return: true when the event is not to be recorded.
 */
bool notrace __kmark_pid_filtered_out(const struct kmark_instance *inst,
				      const struct kmark_marker *m,
				      const void *args)
{
	u64 other;

	if (!rcu_access_pointer(inst->pids[KMARK_PIDS_TRACE]) &&
	    !rcu_access_pointer(inst->pids[KMARK_PIDS_NOTRACE]))
		return false;
	if (args && m->pid_field) {
		other = kmark_field_value(&m->layout->fields[m->pid_field - 1],
					  (const u8 *)args - KMARK_HDR_SIZE);
		if (kmark_pid_wanted(inst, (pid_t)other))
			return false;
		if (m->pid_field_only)
			return true;
	}
	return !kmark_pid_wanted(inst, current->pid);
}
NOKPROBE_SYMBOL(__kmark_pid_filtered_out);

/* The field that also decides for @m, as ftrace's sched probes do. */
void kmark_pid_marker_added(struct kmark_marker *m)
{
	const char *want = "next_pid";
	unsigned int i;

	m->pid_field = 0;
	m->pid_field_only = false;
	if (!m->layout || m->ops || strcmp(m->system, "sched"))
		return;
	if (!strcmp(m->name, "sched_wakeup") ||
	    !strcmp(m->name, "sched_wakeup_new")) {
		want = "pid";
		m->pid_field_only = true;
	}
	for (i = 0; i < m->layout->nr_fields; i++)
		if (!strcmp(m->layout->fields[i].name, want) &&
		    m->layout->fields[i].kind == KMARK_FIELD_INT)
			m->pid_field = i + 1;
	if (!m->pid_field)
		m->pid_field_only = false;
}

/* --- fork and exit (event-fork) ------------------------------------------ */

/*
 * Fork (@child > 0): a listed @pid's child joins its lists. Free (@child
 * 0): @pid leaves every list. From the sched markers, for instance @inst.
 */
static void kmark_pid_follow(struct kmark_instance *inst, pid_t pid,
			     pid_t child)
{
	struct kmark_pid_set *set;
	unsigned long flags;
	int l;

	raw_spin_lock_irqsave(&kmark_pid_lock, flags);
	for (l = 0; l < KMARK_NR_PID_LISTS; l++) {
		set = rcu_dereference_protected(inst->pids[l],
						lockdep_is_held(&kmark_pid_lock));
		if (!set)
			continue;
		if (!child)
			kmark_pid_del(set, pid);
		else if (kmark_pid_in(set, pid) && !kmark_pid_add(set, child))
			atomic_inc(&inst->pid_overflow);
	}
	raw_spin_unlock_irqrestore(&kmark_pid_lock, flags);
}

static int kmark_fork_child_arg = -1, kmark_fork_parent_arg = -1;
static int kmark_exit_pid_arg = -1;

static void kmark_pid_fork_probe(void *data, struct kmark_marker *m,
				 const void *args)
{
	kmark_pid_follow(data, kmark_arg_value(m, args, kmark_fork_parent_arg),
			 kmark_arg_value(m, args, kmark_fork_child_arg));
}

static void kmark_pid_exit_probe(void *data, struct kmark_marker *m,
				 const void *args)
{
	kmark_pid_follow(data, kmark_arg_value(m, args, kmark_exit_pid_arg), 0);
}

static int kmark_arg_index(struct kmark_marker *m, const char *field)
{
	unsigned int i;

	for (i = 0; m && i < m->layout->nr_fields; i++)
		if (!strcmp(m->layout->fields[i].name, field))
			return i;
	return -1;
}

static bool kmark_pid_any(struct kmark_instance *inst)
{
	return rcu_access_pointer(inst->pids[KMARK_PIDS_TRACE]) ||
	       rcu_access_pointer(inst->pids[KMARK_PIDS_NOTRACE]);
}

/*
 * Attach (@want: event-fork is on and a list will be there) or detach
 * @inst's fork and free probes. The caller decides @want from the lists as
 * they will be: a list being installed is not in @inst yet (deciding from
 * @inst, a first list written after event-fork was set left children
 * unfollowed). Under kmark_mutex. Detaching cannot fail; attaching can
 * (-ENOMEM, or -ENOENT in a kernel without the sched markers).
 */
static int kmark_pid_fork_update(struct kmark_instance *inst, bool want)
{
	struct kmark_marker *fork, *exit;
	int ret;

	lockdep_assert_held(&kmark_mutex);
	fork = kmark_find_marker("sched", "sched_process_fork");
	exit = kmark_find_marker("sched", "sched_process_free");
	if (!want) {
		/* Built in, never freed; the instance waits a grace period. */
		if (fork)
			__kmark_probe_unregister(fork, kmark_pid_fork_probe, inst);
		if (exit)
			__kmark_probe_unregister(exit, kmark_pid_exit_probe, inst);
		return 0;
	}
	kmark_fork_parent_arg = kmark_arg_index(fork, "parent_pid");
	kmark_fork_child_arg = kmark_arg_index(fork, "child_pid");
	kmark_exit_pid_arg = kmark_arg_index(exit, "pid");
	if (!fork || !exit || kmark_fork_parent_arg < 0 ||
	    kmark_fork_child_arg < 0 || kmark_exit_pid_arg < 0)
		return -ENOENT;
	ret = __kmark_probe_register(fork, kmark_pid_fork_probe, inst);
	if (ret && ret != -EEXIST)
		return ret;
	ret = __kmark_probe_register(exit, kmark_pid_exit_probe, inst);
	if (ret && ret != -EEXIST) {
		__kmark_probe_unregister(fork, kmark_pid_fork_probe, inst);
		return ret;
	}
	return 0;
}

/* options/event-fork of @inst. Under kmark_mutex. */
int kmark_pid_event_fork(struct kmark_instance *inst, bool on)
{
	return kmark_pid_fork_update(inst, on && kmark_pid_any(inst));
}

/* --- the files ------------------------------------------------------------ */

static void kmark_pid_set_free_rcu(struct rcu_head *rcu)
{
	kvfree(container_of(rcu, struct kmark_pid_set, rcu));
}

static void kmark_pid_filtering_get(void)
{
	if (!kmark_pid_filtering_users++)
		static_branch_enable(&kmark_pid_filtering);
}

static void kmark_pid_filtering_put(void)
{
	if (!--kmark_pid_filtering_users)
		static_branch_disable(&kmark_pid_filtering);
}

/* Whether @inst has a list. */
/*
 * Make @set list @l of @inst (NULL or empty: no list), adding to it the
 * pids @add (@nr of them) and, for ">>", what the old list holds at the
 * moment it is replaced (a fork or exit meanwhile is not lost), then free
 * the old one after a grace period, and switch the recording path's check
 * on or off. Under kmark_mutex; cannot fail but for event-fork's probes
 * (-ENOMEM), and then nothing changed.
 */
static int kmark_pid_install(struct kmark_instance *inst, int l,
			     struct kmark_pid_set *set, bool append)
{
	struct kmark_pid_set *old;
	bool was = kmark_pid_any(inst), on;
	int ret, i;

	lockdep_assert_held(&kmark_mutex);
	old = rcu_dereference_protected(inst->pids[l],
					lockdep_is_held(&kmark_mutex));
	/* Fork and exit change @old meanwhile: the pids merge at the swap. */
	if (set && !set->nr && !(append && old && READ_ONCE(old->nr))) {
		kvfree(set);
		set = NULL;
	}
	on = set || rcu_access_pointer(inst->pids[!l]);
	if (on && !was)
		kmark_pid_filtering_get();
	ret = kmark_pid_fork_update(inst, on &&
				    test_bit(KMARK_OPT_EVENT_FORK, &inst->options));
	if (ret) {
		if (on && !was)
			kmark_pid_filtering_put();
		kvfree(set);
		return ret;
	}
	raw_spin_lock_irq(&kmark_pid_lock);
	old = rcu_replace_pointer(inst->pids[l], set,
				  lockdep_is_held(&kmark_pid_lock));
	/* What fork and exit did to the old one meanwhile. */
	if (set && append && old) {
		for (i = 0; i < BITS_TO_LONGS(old->nr_bits); i++)
			set->bits[i] |= old->bits[i];
		set->nr = bitmap_weight(set->bits, set->nr_bits);
	}
	raw_spin_unlock_irq(&kmark_pid_lock);
	if (!on && was)
		kmark_pid_filtering_put();
	if (old)
		call_rcu(&old->rcu, kmark_pid_set_free_rcu);
	return 0;
}

/* @inst is going: its lists and probes go. Under kmark_mutex. */
void kmark_pid_inst_fini(struct kmark_instance *inst)
{
	int l;

	for (l = 0; l < KMARK_NR_PID_LISTS; l++)
		kmark_pid_install(inst, l, NULL, false);
	kmark_pid_fork_update(inst, false);
}

/* An open file: ">" replaces at the first successful write, or at close. */
struct kmark_pid_file {
	struct kmark_instance *inst;	/* held */
	int list;
	bool truncate_pending;
	bool failed;
};

static ssize_t kmark_pid_read(struct file *file, char __user *ubuf,
			      size_t cnt, loff_t *ppos)
{
	struct kmark_pid_file *pf = file->private_data;
	const struct kmark_pid_set *set;
	size_t len = 0, size;
	unsigned int pid;
	ssize_t ret;
	char *buf;

	mutex_lock(&kmark_mutex);
	set = rcu_dereference_protected(pf->inst->pids[pf->list],
					lockdep_is_held(&kmark_mutex));
	size = set ? (size_t)set->nr * 12 + 1 : 1;
	buf = kvmalloc(size, GFP_KERNEL);
	if (!buf) {
		mutex_unlock(&kmark_mutex);
		return -ENOMEM;
	}
	/* Under the lock: fork and exit change it in place. */
	raw_spin_lock_irq(&kmark_pid_lock);
	if (set)
		for_each_set_bit(pid, set->bits, set->nr_bits)
			if (len + 12 <= size)
				len += snprintf(buf + len, size - len, "%u\n", pid);
	raw_spin_unlock_irq(&kmark_pid_lock);
	mutex_unlock(&kmark_mutex);
	ret = simple_read_from_buffer(ubuf, cnt, ppos, buf, len);
	kvfree(buf);
	return ret;
}

static ssize_t kmark_pid_write(struct file *file, const char __user *ubuf,
			       size_t cnt, loff_t *ppos)
{
	struct kmark_pid_file *pf = file->private_data;
	struct kmark_instance *inst = pf->inst;
	unsigned int pos = 0, start, nr_bits = pid_max + 1;
	struct kmark_pid_set *set, *old;
	char *text;
	pid_t pid;
	int ret;

	/* A failed write changes nothing, at close neither. */
	pf->failed = true;
	text = kmark_get_cmd(inst, ubuf, cnt);
	if (IS_ERR(text))
		return PTR_ERR(text);
	/* First pass: check every pid and size the list. */
	while (text[pos]) {
		while (isspace(text[pos]))
			pos++;
		if (!text[pos])
			break;
		start = pos;
		while (text[pos] && !isspace(text[pos]))
			pos++;
		if (text[pos])
			text[pos++] = '\0';
		if (kstrtoint(text + start, 10, &pid) || pid < 0 ||
		    pid >= PID_MAX_LIMIT) {
			kmark_log_err(inst, text + start, 0,
				      "Not a pid: a number from 0 to 4194303");
			kfree(text);
			return -EINVAL;
		}
		nr_bits = max_t(unsigned int, nr_bits, pid + 1);
	}
	mutex_lock(&kmark_mutex);
	old = rcu_dereference_protected(inst->pids[pf->list],
					lockdep_is_held(&kmark_mutex));
	if (old && !pf->truncate_pending)
		nr_bits = max(nr_bits, old->nr_bits);
	set = kmark_pid_set_alloc(nr_bits);
	ret = -ENOMEM;
	if (!set)
		goto out;
	/* Second pass: the tokens the first one cut, between blanks and NULs. */
	for (start = 0; start < pos; start += strlen(text + start) + 1) {
		while (start < pos && (!text[start] || isspace(text[start])))
			start++;
		if (start < pos && !kstrtoint(text + start, 10, &pid))
			kmark_pid_add(set, pid);
	}
	/* ">>" adds to the list; ">" replaces it. */
	ret = kmark_pid_install(inst, pf->list, set, !pf->truncate_pending);
	if (!ret) {
		pf->truncate_pending = false;
		pf->failed = false;
	}
out:
	mutex_unlock(&kmark_mutex);
	kfree(text);
	if (ret)
		return ret;
	*ppos += cnt;
	return cnt;
}

static int kmark_pid_open(struct inode *inode, struct file *file)
{
	struct kmark_instance *inst;
	struct kmark_pid_file *pf;

	pf = kzalloc(sizeof(*pf), GFP_KERNEL);
	if (!pf)
		return -ENOMEM;
	inst = kmark_inst_get(inode);
	if (IS_ERR(inst)) {
		kfree(pf);
		return PTR_ERR(inst);
	}
	pf->inst = inst;
	pf->list = kmark_file_cpu(inode);
	pf->truncate_pending = (file->f_mode & FMODE_WRITE) &&
			       (file->f_flags & O_TRUNC);
	file->private_data = pf;
	return 0;
}

/* "> set_event_pid" with nothing written: the list is emptied at close. */
static int kmark_pid_release(struct inode *inode, struct file *file)
{
	struct kmark_pid_file *pf = file->private_data;

	if (pf->truncate_pending && !pf->failed) {
		mutex_lock(&kmark_mutex);
		kmark_pid_install(pf->inst, pf->list, NULL, false);
		mutex_unlock(&kmark_mutex);
	}
	kmark_inst_put(pf->inst);
	kfree(pf);
	return 0;
}

static const struct file_operations kmark_pid_fops = {
	.open = kmark_pid_open,
	.read = kmark_pid_read,
	.write = kmark_pid_write,
	.llseek = default_llseek,
	.release = kmark_pid_release,
};

/* set_event_pid and set_event_notrace_pid of @inst. Under kmark_mutex. */
int kmark_pid_create_files(struct kmark_instance *inst)
{
	return kmark_fs_cpu_file("set_event_pid", 0600, &inst->dir, inst,
				 KMARK_PIDS_TRACE, &kmark_pid_fops) ||
	       kmark_fs_cpu_file("set_event_notrace_pid", 0600, &inst->dir,
				 inst, KMARK_PIDS_NOTRACE, &kmark_pid_fops) ?
	       -ENOMEM : 0;
}

/*
 * KUnit: after @cycles add/remove cycles of consecutive pids next to a
 * listed one, the number of wrong answers of single lookups.
 */
unsigned int kmark_pid_kunit_churn_errors(unsigned int cycles)
{
	struct kmark_pid_set *set = kmark_pid_set_alloc(PID_MAX_DEFAULT + 1);
	unsigned int i, wrong = 0;

	if (!set)
		return UINT_MAX;
	kmark_pid_add(set, 1);
	for (i = 0; i < cycles; i++) {
		kmark_pid_add(set, 1000 + i);
		kmark_pid_del(set, 1000 + i);
	}
	wrong += !kmark_pid_in(set, 1);
	for (i = 0; i < cycles + 10; i++)
		wrong += kmark_pid_in(set, 990 + i);
	wrong += kmark_pid_in(set, PID_MAX_LIMIT - 1);
	wrong += set->nr != 1;
	kvfree(set);
	return wrong;
}

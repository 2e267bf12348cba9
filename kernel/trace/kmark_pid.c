// SPDX-License-Identifier: GPL-2.0
/*
 * kmark: pid filters, ftrace's set_event_pid, set_event_notrace_pid and
 * options/event-fork.
 *
 * An event is recorded when its task is wanted: listed in set_event_pid
 * (or that list is empty) and not listed in set_event_notrace_pid. As in
 * ftrace, sched_switch is also recorded when the task switched to is
 * wanted, and sched_wakeup and sched_wakeup_new when (and only when) the
 * woken task is. With event-fork set, a listed task's children are added
 * to its list at fork and every pid leaves the lists at exit.
 *
 * Writes follow ftrace's (">" replaces, ">>" adds, an empty write clears
 * with ">"), with kmark's difference: a write that fails changes nothing,
 * and ">" replaces at the first successful write, not at open.
 */
#define pr_fmt(fmt) "kmark: " fmt

#include <linux/ctype.h>
#include <linux/kprobes.h>
#include <linux/slab.h>
#include <linux/sort.h>
#include <linux/spinlock.h>

#include "kmark_internal.h"

/* Open addressing, linear probing; 0 is a free slot, -1 a removed pid. */
#define KMARK_PID_SLOTS		2048
#define KMARK_PID_MAX_LISTED	(KMARK_PID_SLOTS / 2)
#define KMARK_PID_FREE		0
#define KMARK_PID_GONE		(-1)

/**
 * struct kmark_pid_set - the pids of one list
 * @rcu:	freed after a grace period (the recording path reads it with
 *		preemption off)
 * @nr:		pids listed
 * @slot:	pid + 1, KMARK_PID_FREE or KMARK_PID_GONE; changed under
 *		kmark_pid_lock, read with READ_ONCE()
 */
struct kmark_pid_set {
	struct rcu_head rcu;
	unsigned int nr;
	int slot[KMARK_PID_SLOTS];
};

enum { KMARK_PIDS_TRACE, KMARK_PIDS_NOTRACE, KMARK_NR_PID_LISTS };

/*
 * The two lists; NULL is an empty list. Replaced (RCU) under kmark_mutex
 * and kmark_pid_lock; changed in place (fork, exit) under kmark_pid_lock,
 * a raw spinlock because fork and exit run the markers' probes with
 * preemption off.
 */
static struct kmark_pid_set __rcu *kmark_pids[KMARK_NR_PID_LISTS];
static DEFINE_RAW_SPINLOCK(kmark_pid_lock);

/* On while either list is not empty: the recording path looks only then. */
DEFINE_STATIC_KEY_FALSE(kmark_pid_filtering);

/* options/event-fork; under kmark_mutex. */
static bool kmark_event_fork;
/* Children not followed because their list was full. */
static atomic_t kmark_pid_overflow;

static unsigned int kmark_pid_hash(pid_t pid)
{
	return (u32)pid * 2654435761U % KMARK_PID_SLOTS;
}

static unsigned int kmark_pid_cost;	/* slots read by the last lookup */

static bool notrace kmark_pid_in(const struct kmark_pid_set *set, pid_t pid)
{
	unsigned int i, h = kmark_pid_hash(pid);

	for (i = 0; i < KMARK_PID_SLOTS; i++) {
		int v = READ_ONCE(set->slot[(h + i) % KMARK_PID_SLOTS]);

		kmark_pid_cost = i + 1;
		if (v == KMARK_PID_FREE)
			return false;
		if (v == pid + 1)
			return true;
	}
	return false;
}

/* Add @pid; under kmark_pid_lock or on a set nobody else sees yet. */
static bool kmark_pid_add(struct kmark_pid_set *set, pid_t pid)
{
	unsigned int i, h = kmark_pid_hash(pid);
	int *free = NULL;

	if (kmark_pid_in(set, pid))
		return true;
	if (set->nr >= KMARK_PID_MAX_LISTED)
		return false;
	for (i = 0; i < KMARK_PID_SLOTS && !free; i++) {
		int *s = &set->slot[(h + i) % KMARK_PID_SLOTS];

		if (*s == KMARK_PID_FREE || *s == KMARK_PID_GONE)
			free = s;
	}
	if (!free)
		return false;
	WRITE_ONCE(*free, pid + 1);
	set->nr++;
	return true;
}

static void kmark_pid_del(struct kmark_pid_set *set, pid_t pid)
{
	unsigned int i, h = kmark_pid_hash(pid);

	for (i = 0; i < KMARK_PID_SLOTS; i++) {
		int *s = &set->slot[(h + i) % KMARK_PID_SLOTS];

		if (*s == KMARK_PID_FREE)
			return;
		if (*s == pid + 1) {
			WRITE_ONCE(*s, KMARK_PID_GONE);
			set->nr--;
			return;
		}
	}
}

static bool notrace kmark_pid_wanted(pid_t pid)
{
	const struct kmark_pid_set *t, *n;

	t = rcu_dereference_sched(kmark_pids[KMARK_PIDS_TRACE]);
	n = rcu_dereference_sched(kmark_pids[KMARK_PIDS_NOTRACE]);
	if (t && !kmark_pid_in(t, pid))
		return false;
	return !(n && kmark_pid_in(n, pid));
}

/**
 * __kmark_pid_filtered_out - is an event's task unwanted? (pid filters on)
 * @m:		the event
 * @args:	a marker's argument block, or NULL (kprobe events,
 *		trace_marker: only the current task counts)
 *
 * Called with preemption off.
 * Return: true when the event is not to be recorded.
 */
bool notrace __kmark_pid_filtered_out(const struct kmark_marker *m,
				      const void *args)
{
	u64 other;

	if (args && m->pid_field) {
		other = kmark_field_value(&m->layout->fields[m->pid_field - 1],
					  (const u8 *)args - KMARK_HDR_SIZE);
		if (kmark_pid_wanted((pid_t)other))
			return false;
		if (m->pid_field_only)
			return true;
	}
	return !kmark_pid_wanted(current->pid);
}
NOKPROBE_SYMBOL(__kmark_pid_filtered_out);

/* The field that also decides for @m, as ftrace's sched probes do. */
static void kmark_pid_field_find(struct kmark_marker *m)
{
	const char *want = "next_pid";
	unsigned int i;

	m->pid_field = 0;
	m->pid_field_only = false;
	if (!m->layout || m->ops)
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

static int kmark_fork_child_arg = -1, kmark_fork_parent_arg = -1;
static int kmark_exit_pid_arg = -1;

/*
 * Fork (@child > 0): a listed @pid's child joins its lists. Exit (@child 0):
 * @pid leaves every list. Under kmark_pid_lock, from the sched markers.
 */
static void kmark_pid_follow(pid_t pid, pid_t child)
{
	struct kmark_pid_set *set;
	unsigned long flags;
	int l;

	raw_spin_lock_irqsave(&kmark_pid_lock, flags);
	for (l = 0; l < KMARK_NR_PID_LISTS; l++) {
		set = rcu_dereference_protected(kmark_pids[l],
						lockdep_is_held(&kmark_pid_lock));
		if (!set)
			continue;
		if (!child)
			kmark_pid_del(set, pid);
		else if (kmark_pid_in(set, pid) && !kmark_pid_add(set, child))
			atomic_inc(&kmark_pid_overflow);
	}
	raw_spin_unlock_irqrestore(&kmark_pid_lock, flags);
}

static void kmark_pid_fork_probe(void *data, struct kmark_marker *m,
				 const void *args)
{
	kmark_pid_follow(kmark_arg_value(m, args, kmark_fork_parent_arg),
			 kmark_arg_value(m, args, kmark_fork_child_arg));
}

static void kmark_pid_exit_probe(void *data, struct kmark_marker *m,
				 const void *args)
{
	kmark_pid_follow(kmark_arg_value(m, args, kmark_exit_pid_arg), 0);
}

static int kmark_arg_index(const char *marker, const char *field)
{
	struct kmark_marker *m = kmark_find_marker(marker);
	unsigned int i;

	for (i = 0; m && i < m->layout->nr_fields; i++)
		if (!strcmp(m->layout->fields[i].name, field))
			return i;
	return -1;
}

/*
 * Attach or detach the fork and exit probes as event-fork and the lists
 * say. Under kmark_mutex. Detaching cannot fail; attaching can (-ENOMEM,
 * or -ENOENT in a kernel without the sched markers).
 */
static int kmark_pid_fork_update(void)
{
	static bool attached;
	bool want = kmark_event_fork &&
		    static_branch_unlikely(&kmark_pid_filtering);
	struct kmark_marker *fork, *exit;
	int ret;

	lockdep_assert_held(&kmark_mutex);
	if (want == attached)
		return 0;
	fork = kmark_find_marker("sched_process_fork");
	exit = kmark_find_marker("sched_process_exit");
	if (!want) {
		/* Built in, never freed: nothing to wait for. */
		if (fork)
			__kmark_probe_unregister(fork, kmark_pid_fork_probe, NULL);
		if (exit)
			__kmark_probe_unregister(exit, kmark_pid_exit_probe, NULL);
		attached = false;
		return 0;
	}
	kmark_fork_parent_arg = kmark_arg_index("sched_process_fork", "pid");
	kmark_fork_child_arg = kmark_arg_index("sched_process_fork", "child_pid");
	kmark_exit_pid_arg = kmark_arg_index("sched_process_exit", "pid");
	if (!fork || !exit || kmark_fork_parent_arg < 0 ||
	    kmark_fork_child_arg < 0 || kmark_exit_pid_arg < 0)
		return -ENOENT;
	ret = __kmark_probe_register(fork, kmark_pid_fork_probe, NULL);
	if (ret)
		return ret;
	ret = __kmark_probe_register(exit, kmark_pid_exit_probe, NULL);
	if (ret) {
		__kmark_probe_unregister(fork, kmark_pid_fork_probe, NULL);
		return ret;
	}
	attached = true;
	return 0;
}

/* --- the files ------------------------------------------------------------ */

static void kmark_pid_set_free_rcu(struct rcu_head *rcu)
{
	kvfree(container_of(rcu, struct kmark_pid_set, rcu));
}

/*
 * Make @set list @l (NULL or empty: no list), freeing the old one after a
 * grace period, and switch the recording path's check on or off. Under
 * kmark_mutex; cannot fail but for event-fork's probes (-ENOMEM), and
 * then nothing changed.
 */
static int kmark_pid_install(int l, struct kmark_pid_set *set)
{
	struct kmark_pid_set *old;
	struct kmark_marker *m;
	bool on, was = static_branch_unlikely(&kmark_pid_filtering);
	int ret;

	lockdep_assert_held(&kmark_mutex);
	if (set && !set->nr) {
		kvfree(set);
		set = NULL;
	}
	on = set || rcu_access_pointer(kmark_pids[!l]);
	if (on && !was) {
		list_for_each_entry(m, &kmark_markers, list)
			kmark_pid_field_find(m);
		static_branch_enable(&kmark_pid_filtering);
	}
	ret = kmark_pid_fork_update();
	if (ret && on && !was)
		static_branch_disable(&kmark_pid_filtering);
	if (ret) {
		kvfree(set);
		return ret;
	}
	raw_spin_lock_irq(&kmark_pid_lock);
	old = rcu_replace_pointer(kmark_pids[l], set,
				  lockdep_is_held(&kmark_pid_lock));
	raw_spin_unlock_irq(&kmark_pid_lock);
	if (!on && was) {
		static_branch_disable(&kmark_pid_filtering);
		kmark_pid_fork_update();
	}
	if (old)
		call_rcu(&old->rcu, kmark_pid_set_free_rcu);
	return 0;
}

/* An open file: ">" replaces at the first successful write, or at close. */
struct kmark_pid_file {
	bool truncate_pending;
	bool failed;
};

static int kmark_pid_cmp(const void *a, const void *b)
{
	return *(const int *)a - *(const int *)b;
}

static ssize_t kmark_pid_read(struct file *file, char __user *ubuf,
			      size_t cnt, loff_t *ppos)
{
	int l = (long)file_inode(file)->i_private;
	const struct kmark_pid_set *set;
	unsigned int i, n = 0;
	size_t len = 0;
	ssize_t ret;
	char *buf;
	int *pids;

	pids = kvcalloc(KMARK_PID_MAX_LISTED, sizeof(*pids), GFP_KERNEL);
	buf = kvmalloc(KMARK_PID_MAX_LISTED * 12 + 1, GFP_KERNEL);
	if (!pids || !buf) {
		kvfree(pids);
		kvfree(buf);
		return -ENOMEM;
	}
	rcu_read_lock_sched();
	set = rcu_dereference_sched(kmark_pids[l]);
	for (i = 0; set && i < KMARK_PID_SLOTS && n < KMARK_PID_MAX_LISTED; i++) {
		int v = READ_ONCE(set->slot[i]);

		if (v > 0)
			pids[n++] = v - 1;
	}
	rcu_read_unlock_sched();
	sort(pids, n, sizeof(*pids), kmark_pid_cmp, NULL);
	for (i = 0; i < n; i++)
		len += sprintf(buf + len, "%d\n", pids[i]);
	ret = simple_read_from_buffer(ubuf, cnt, ppos, buf, len);
	kvfree(pids);
	kvfree(buf);
	return ret;
}

static ssize_t kmark_pid_write(struct file *file, const char __user *ubuf,
			       size_t cnt, loff_t *ppos)
{
	struct kmark_pid_file *pf = file->private_data;
	int l = (long)file_inode(file)->i_private;
	struct kmark_pid_set *set, *old;
	unsigned int pos = 0, start;
	char *text;
	int ret;

	/* A failed write changes nothing, at close neither. */
	pf->failed = true;
	text = kmark_get_cmd(kmark_top_inst, ubuf, cnt);
	if (IS_ERR(text))
		return PTR_ERR(text);
	set = kvzalloc(sizeof(*set), GFP_KERNEL);
	if (!set) {
		kfree(text);
		return -ENOMEM;
	}
	mutex_lock(&kmark_mutex);
	old = rcu_dereference_protected(kmark_pids[l],
					lockdep_is_held(&kmark_mutex));
	/* ">>" adds to the list; ">" replaces it (fork may add meanwhile). */
	if (old && !pf->truncate_pending) {
		raw_spin_lock_irq(&kmark_pid_lock);
		memcpy(set->slot, old->slot, sizeof(set->slot));
		set->nr = old->nr;
		raw_spin_unlock_irq(&kmark_pid_lock);
	}
	ret = 0;
	while (text[pos]) {
		pid_t pid;

		while (isspace(text[pos]))
			pos++;
		if (!text[pos])
			break;
		start = pos;
		while (text[pos] && !isspace(text[pos]))
			pos++;
		if (text[pos])
			text[pos++] = '\0';
		if (kstrtoint(text + start, 10, &pid) || pid < 0) {
			kmark_log_err(kmark_top_inst, text + start, 0,
				      "Not a pid: a number, 0 or more");
			ret = -EINVAL;
			break;
		}
		if (!kmark_pid_add(set, pid)) {
			kmark_log_err(kmark_top_inst, text + start, 0,
				      "Too many pids: at most 1024 a list");
			ret = -ENOSPC;
			break;
		}
	}
	if (!ret)
		ret = kmark_pid_install(l, set);
	else
		kvfree(set);
	if (!ret) {
		pf->truncate_pending = false;
		pf->failed = false;
	}
	mutex_unlock(&kmark_mutex);
	kfree(text);
	if (ret)
		return ret;
	*ppos += cnt;
	return cnt;
}

static int kmark_pid_open(struct inode *inode, struct file *file)
{
	struct kmark_pid_file *pf;
	int ret = kmark_open_check();

	if (ret)
		return ret;
	pf = kzalloc(sizeof(*pf), GFP_KERNEL);
	if (!pf)
		return -ENOMEM;
	pf->truncate_pending = (file->f_mode & FMODE_WRITE) &&
			       (file->f_flags & O_TRUNC);
	file->private_data = pf;
	return 0;
}

/* "> set_event_pid" with nothing written: the list is emptied at close. */
static int kmark_pid_release(struct inode *inode, struct file *file)
{
	struct kmark_pid_file *pf = file->private_data;
	int l = (long)inode->i_private;

	if (pf->truncate_pending && !pf->failed) {
		mutex_lock(&kmark_mutex);
		kmark_pid_install(l, NULL);
		mutex_unlock(&kmark_mutex);
	}
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

static ssize_t kmark_event_fork_read(struct file *file, char __user *ubuf,
				     size_t cnt, loff_t *ppos)
{
	char buf[64];
	int lost = atomic_read(&kmark_pid_overflow);

	/* Children not followed (a list was full) are not lost silently. */
	if (lost)
		snprintf(buf, sizeof(buf), "%d\n# %d children not followed: list full\n",
			 READ_ONCE(kmark_event_fork), lost);
	else
		snprintf(buf, sizeof(buf), "%d\n", READ_ONCE(kmark_event_fork));
	return simple_read_from_buffer(ubuf, cnt, ppos, buf, strlen(buf));
}

static ssize_t kmark_event_fork_write(struct file *file,
				      const char __user *ubuf, size_t cnt,
				      loff_t *ppos)
{
	bool val, was;
	int ret;

	ret = kstrtobool_from_user(ubuf, cnt, &val);
	if (ret) {
		kmark_log_err(kmark_top_inst, "", 0, "options/event-fork takes 0 or 1");
		return ret;
	}
	mutex_lock(&kmark_mutex);
	was = kmark_event_fork;
	WRITE_ONCE(kmark_event_fork, val);
	ret = kmark_pid_fork_update();
	if (ret)
		WRITE_ONCE(kmark_event_fork, was);
	mutex_unlock(&kmark_mutex);
	if (ret)
		return ret;
	*ppos += cnt;
	return cnt;
}

static const struct file_operations kmark_event_fork_fops = {
	.open = kmark_simple_open,
	.read = kmark_event_fork_read,
	.write = kmark_event_fork_write,
	.llseek = default_llseek,
};

void __init kmark_pid_create_files(const struct kmark_dir *top)
{
	struct kmark_dir opts;

	kmark_fs_file("set_event_pid", 0600, top, (void *)KMARK_PIDS_TRACE,
		      &kmark_pid_fops);
	kmark_fs_file("set_event_notrace_pid", 0600, top,
		      (void *)KMARK_PIDS_NOTRACE, &kmark_pid_fops);
	if (!kmark_fs_dir("options", top, &opts))
		kmark_fs_file("event-fork", 0600, &opts, NULL,
			      &kmark_event_fork_fops);
}

/* KUnit: slots a lookup of an absent pid reads after @cycles add/del cycles. */
unsigned int kmark_pid_kunit_churn_cost(unsigned int cycles)
{
	struct kmark_pid_set *set = kzalloc(sizeof(*set), GFP_KERNEL);
	unsigned int i, cost;

	if (!set)
		return UINT_MAX;
	kmark_pid_add(set, 1);
	for (i = 0; i < cycles; i++) {
		kmark_pid_add(set, 1000 + i);
		kmark_pid_del(set, 1000 + i);
	}
	kmark_pid_in(set, 999999);
	cost = kmark_pid_cost;
	kfree(set);
	return cost;
}

// SPDX-License-Identifier: GPL-2.0
/*
 * kmark: events in instances, and the files that name them, with ftrace's
 * layout and semantics (kernel/trace/trace_events.c):
 *
 *   events/enable              all events of the instance: 0, 1, X (mixed)
 *   events/header_page         the ring buffer's page and event headers
 *   events/header_event
 *   events/SYS/enable          the system's events: 0, 1, X, ? (none)
 *   events/SYS/filter          a filter for each of the system's events
 *   events/SYS/NAME/enable     0, 1, 0* or 1* (soft mode: triggers)
 *   events/SYS/NAME/filter     ftrace's filter grammar (kmark_filter.c)
 *   events/SYS/NAME/format     the record layout
 *   events/SYS/NAME/id         the id in each record (common_type)
 *   events/SYS/NAME/trigger    ftrace's event triggers (kmark_trigger.c)
 *   events/SYS/NAME/hist       hist triggers' tables (kmark_hist.c)
 *   set_event                  names, SYS:NAME, globs, !name
 *   available_events           SYS:NAME of every event
 *   available_markers          kmark's own list: "SYS:NAME FORMAT [module]"
 *
 * An event in an instance is a struct kmark_event_file: the files of its
 * directory point at it (i_private) and hold it while open; the recorder
 * is attached with it as the probe's data. When the event or the instance
 * goes, its file is marked FREED and the i_private of its files cleared
 * under kmark_mutex before the directory is removed (tracefs does not wait
 * for the files' users), so that an open in progress finds nothing and an
 * open file refuses service: nothing is ever looked up again by name, and
 * another event of the same name is another event.
 *
 * Writes follow ftrace's semantics with kmark's difference: a write that
 * fails changes nothing (set_event, a system's enable, events/enable are
 * all or nothing).
 */
#define pr_fmt(fmt) "kmark: " fmt

#include <linux/ctype.h>
#include <linux/glob.h>
#include <linux/module.h>
#include <linux/rculist.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/uaccess.h>
#include <asm/local.h>
#include <kunit/static_stub.h>

#include "kmark_internal.h"

/* set_event's word for the old layout's "vmlinux:NAME". */
#define KMARK_ERR_VMLINUX \
	"The kernel's markers have systems now: sched:sched_switch, syscalls:sys_sync (see available_events)"

/**
 * struct kmark_subsys - events/SYS/ of one instance
 * @list:	in its instance's @systems
 * @inst:	the instance
 * @nr_events:	its event files; the directory goes with the last
 * @dir:	the directory
 * @dents:	its enable and filter files (i_private: this)
 * @filter:	the text last written to its filter, or NULL
 * @name:	the system's name
 */
struct kmark_subsys {
	struct list_head list;
	struct kmark_instance *inst;
	unsigned int nr_events;
	struct kmark_dir dir;
	struct dentry *dents[2][KMARK_NR_FS];
	char *filter;
	char name[];
};

/* --- event files: lifetime ------------------------------------------------- */

static void kmark_event_file_free_rcu(struct rcu_head *rcu)
{
	kfree(container_of(rcu, struct kmark_event_file, rcu));
}

void kmark_event_file_put(struct kmark_event_file *file)
{
	if (refcount_dec_and_test(&file->ref))
		call_rcu(&file->rcu, kmark_event_file_free_rcu);
}

/*
 * At open() of a file of events/SYS/NAME/: the event file its inode names,
 * held (and its instance held), or NULL once it is gone. Under
 * kmark_ref_lock, never kmark_mutex (kmark_fs.c: debugfs waits for the
 * open()s in progress of a file it removes, under kmark_mutex); the
 * inode's i_private is cleared under it before the file is put.
 */
struct kmark_event_file *kmark_event_file_get(struct inode *inode)
{
	struct kmark_event_file *file;

	spin_lock(&kmark_ref_lock);
	file = inode->i_private;
	if (file && !(READ_ONCE(file->flags) & KMARK_EF_FREED) &&
	    !__kmark_inst_hold(file->inst))
		refcount_inc(&file->ref);
	else
		file = NULL;
	spin_unlock(&kmark_ref_lock);
	return file;
}

/* Release what kmark_event_file_get() took. */
void kmark_event_file_release(struct kmark_event_file *file)
{
	struct kmark_instance *inst = file->inst;

	kmark_event_file_put(file);
	kmark_inst_put(inst);
}

/* Whether @inst records @m. Under kmark_mutex (or a racy glance). */
bool kmark_event_recording(const struct kmark_marker *m,
			   const struct kmark_instance *inst)
{
	struct kmark_event_file *file;

	list_for_each_entry(file, &m->files, mlist)
		if (file->inst == inst)
			return (READ_ONCE(file->flags) &
				(KMARK_EF_ENABLED | KMARK_EF_SOFT_DISABLED)) ==
			       KMARK_EF_ENABLED;
	return false;
}

/* Whether any instance records @m (or holds it for triggers). */
bool kmark_marker_recording(const struct kmark_marker *m)
{
	return READ_ONCE(m->nr_attached);
}

struct kmark_event_file *kmark_find_file(struct kmark_instance *inst,
					 const char *system, const char *name)
{
	struct kmark_event_file *file;

	lockdep_assert_held(&kmark_mutex);
	list_for_each_entry(file, &inst->files, list)
		if (!strcmp(file->m->name, name) &&
		    (!system || !strcmp(file->m->system, system)))
			return file;
	return NULL;
}

/* --- enabling (ftrace's __ftrace_event_enable_disable()) --------------------- */

/* Attach the recorder of @file to its event. Under kmark_mutex. */
static int kmark_file_attach(struct kmark_event_file *file)
{
	struct kmark_marker *m = file->m;
	int ret;

	ret = kmark_buffer_ensure(file->inst);
	if (ret)
		return ret;
	/* A boot-mapped instance keeps the layout of what it may record. */
	if (unlikely(file->inst->flight))
		kmark_flight_event_on(file);
	if (m->ops && m->ops->enable)
		ret = m->nr_attached ? 0 : m->ops->enable(m);
	else if (!m->always_on)
		ret = __kmark_probe_register(m, kmark_record_probe, file);
	if (!ret) {
		WRITE_ONCE(m->nr_attached, m->nr_attached + 1);
		m->was_enabled = true;
	}
	return ret;
}

/* Detach it; cannot fail. Its probe may run until a grace period passed. */
static void kmark_file_detach(struct kmark_event_file *file)
{
	struct kmark_marker *m = file->m;

	WRITE_ONCE(m->nr_attached, m->nr_attached - 1);
	if (m->ops && m->ops->enable) {
		if (!m->nr_attached)
			m->ops->disable(m);
	} else if (!m->always_on) {
		WARN_ON_ONCE(__kmark_probe_unregister(m, kmark_record_probe,
						      file));
	}
}

/**
 * kmark_event_enable - enable or disable an event in an instance
 * @file:	the event file
 * @enable:	on or off
 * @soft:	a soft-mode reference (a trigger's) rather than the user's
 *
 * ftrace's state machine: the user's enable attaches the recorder and
 * records; a soft reference attaches it without recording (SOFT_DISABLED)
 * unless the user enabled it too; dropping the user's enable while soft
 * references remain keeps the recorder attached, soft-disabled. Under
 * kmark_mutex. Disabling never fails.
 *
 * Return: 0, or the error of attaching (-ENOMEM, -ENODEV: its code is
 * gone); then nothing changed.
 */
int kmark_event_enable(struct kmark_event_file *file, bool enable, bool soft)
{
	unsigned long *flags = &file->flags;
	bool disable;
	int ret = 0;

	KUNIT_STATIC_STUB_REDIRECT(kmark_event_enable, file, enable, soft);
	lockdep_assert_held(&kmark_mutex);
	if (file->m->always_on)
		return enable ? 0 : -EINVAL;
	if (!enable) {
		if (soft) {
			if (--file->sm_ref > 0)
				return 0;
			disable = *flags & KMARK_EF_SOFT_DISABLED;
			clear_bit(KMARK_EF_SOFT_MODE_BIT, flags);
		} else {
			disable = !(*flags & KMARK_EF_SOFT_MODE);
		}
		if (disable && (*flags & KMARK_EF_ENABLED)) {
			clear_bit(KMARK_EF_ENABLED_BIT, flags);
			kmark_file_detach(file);
		}
		if (*flags & KMARK_EF_SOFT_MODE)
			set_bit(KMARK_EF_SOFT_DISABLED_BIT, flags);
		else
			clear_bit(KMARK_EF_SOFT_DISABLED_BIT, flags);
		return 0;
	}
	if (soft) {
		if (file->sm_ref++ > 0)
			return 0;
		set_bit(KMARK_EF_SOFT_MODE_BIT, flags);
		if (!(*flags & KMARK_EF_ENABLED))
			set_bit(KMARK_EF_SOFT_DISABLED_BIT, flags);
	}
	if (!(*flags & KMARK_EF_ENABLED)) {
		ret = kmark_file_attach(file);
		if (ret) {
			if (soft) {
				file->sm_ref--;
				clear_bit(KMARK_EF_SOFT_MODE_BIT, flags);
				clear_bit(KMARK_EF_SOFT_DISABLED_BIT, flags);
			}
			return ret;
		}
		set_bit(KMARK_EF_ENABLED_BIT, flags);
	}
	if (!soft)
		clear_bit(KMARK_EF_SOFT_DISABLED_BIT, flags);
	return 0;
}

/* Stop recording @m in every instance (user enables only). Under kmark_mutex. */
void kmark_recording_off(struct kmark_marker *m)
{
	struct kmark_event_file *file;

	list_for_each_entry(file, &m->files, mlist)
		kmark_event_enable(file, false, false);
}

/* Whether @file records (the user's view: set_event, enable's 1). */
static bool kmark_file_on(const struct kmark_event_file *file)
{
	return (READ_ONCE(file->flags) &
		(KMARK_EF_ENABLED | KMARK_EF_SOFT_DISABLED)) == KMARK_EF_ENABLED;
}

/* --- events/SYS/ -------------------------------------------------------------- */

static const struct file_operations kmark_sys_enable_fops;
static const struct file_operations kmark_sys_filter_fops;
static const struct file_operations kmark_ev_enable_fops;
static const struct file_operations kmark_ev_filter_fops;
static const struct file_operations kmark_format_fops;
static const struct file_operations kmark_id_fops;

/* Make @sys's directory and files; 0 or -ENOMEM with nothing made. */
static int kmark_subsys_mkdir(struct kmark_subsys *sys)
{
	struct kmark_instance *inst = sys->inst;

	if (!kmark_dir_made(&inst->events) || kmark_dir_made(&sys->dir))
		return 0;
	if (kmark_fs_dir(sys->name, &inst->events, &sys->dir))
		return -ENOMEM;
	if (kmark_fs_file_d("enable", 0600, &sys->dir, sys,
			    &kmark_sys_enable_fops, sys->dents[0]) ||
	    kmark_fs_file_d("filter", 0600, &sys->dir, sys,
			    &kmark_sys_filter_fops, sys->dents[1])) {
		kmark_fs_forget(&sys->dents[0][0], 2 * KMARK_NR_FS);
		kmark_fs_remove(&sys->dir);
		return -ENOMEM;
	}
	return 0;
}

/* Forget @sys's files (i_private) and remove its directory. */
static void kmark_subsys_rmdir(struct kmark_subsys *sys)
{
	kmark_fs_forget(&sys->dents[0][0], 2 * KMARK_NR_FS);
	kmark_fs_remove(&sys->dir);
}

/* @inst's events/@name/, made if need be, one more event in it. */
static struct kmark_subsys *kmark_subsys_get(struct kmark_instance *inst,
					     const char *name)
{
	size_t len = strlen(name) + 1;
	struct kmark_subsys *sys;

	lockdep_assert_held(&kmark_mutex);
	list_for_each_entry(sys, &inst->systems, list) {
		if (!strcmp(sys->name, name)) {
			sys->nr_events++;
			return sys;
		}
	}
	sys = kzalloc(struct_size(sys, name, len), GFP_KERNEL);
	if (!sys)
		return NULL;
	memcpy(sys->name, name, len);
	sys->inst = inst;
	if (kmark_subsys_mkdir(sys)) {
		kfree(sys);
		return NULL;
	}
	sys->nr_events = 1;
	list_add_tail(&sys->list, &inst->systems);
	return sys;
}

/* One event fewer in @sys: the directory goes with its last one. */
static void kmark_subsys_put(struct kmark_subsys *sys)
{
	lockdep_assert_held(&kmark_mutex);
	if (--sys->nr_events)
		return;
	list_del(&sys->list);
	kmark_subsys_rmdir(sys);
	kfree(sys->filter);
	kfree(sys);
}

/* --- events/SYS/NAME/ ---------------------------------------------------------- */

static int kmark_event_file_mkdir(struct kmark_event_file *file)
{
	struct kmark_dir *ed = &file->dir;
	struct kmark_marker *m = file->m;

	if (!kmark_dir_made(&file->sys->dir) || kmark_dir_made(ed))
		return 0;
	if (kmark_fs_dir(m->name, &file->sys->dir, ed))
		return -ENOMEM;
	if ((!m->always_on &&
	     kmark_fs_file_d("enable", 0600, ed, file, &kmark_ev_enable_fops,
			     file->dents[KMARK_EVF_ENABLE])) ||
	    (!m->no_triggers &&
	     kmark_fs_file_d("filter", 0600, ed, file, &kmark_ev_filter_fops,
			     file->dents[KMARK_EVF_FILTER])) ||
	    kmark_fs_file_d("format", 0400, ed, file, &kmark_format_fops,
			    file->dents[KMARK_EVF_FORMAT]) ||
	    kmark_fs_file_d("id", 0400, ed, file, &kmark_id_fops,
			    file->dents[KMARK_EVF_ID]) ||
	    (!m->no_triggers &&
	     kmark_fs_file_d("trigger", 0600, ed, file, &kmark_trigger_fops,
			     file->dents[KMARK_EVF_TRIGGER])) ||
	    (IS_ENABLED(CONFIG_KMARK_HIST) && !m->no_triggers &&
	     kmark_fs_file_d("hist", 0400, ed, file, &kmark_hist_fops,
			     file->dents[KMARK_EVF_HIST]))) {
		kmark_fs_forget(&file->dents[0][0], KMARK_NR_EVF * KMARK_NR_FS);
		kmark_fs_remove(ed);
		return -ENOMEM;
	}
	return 0;
}

/* @m's event file in @inst, with its directory if the instance has events/. */
static struct kmark_event_file *kmark_event_file_new(struct kmark_marker *m,
						     struct kmark_instance *inst)
{
	struct kmark_event_file *file;

	lockdep_assert_held(&kmark_mutex);
	file = kzalloc(sizeof(*file), GFP_KERNEL);
	if (!file)
		return NULL;
	file->m = m;
	file->inst = inst;
	INIT_LIST_HEAD(&file->triggers);
	refcount_set(&file->ref, 1);
	file->sys = kmark_subsys_get(inst, m->system);
	if (!file->sys)
		goto nomem;
	if (kmark_event_file_mkdir(file))
		goto nomem_sys;
	if (!m->always_on && test_bit(KMARK_OPT_STACKTRACE, &inst->options))
		set_bit(KMARK_EF_STACK_BIT, &file->flags);
	list_add_tail(&file->list, &inst->files);
	list_add_tail_rcu(&file->mlist, &m->files);
	return file;
nomem_sys:
	kmark_subsys_put(file->sys);
nomem:
	kfree(file);
	return NULL;
}

/*
 * The end of an event file: recording stops, triggers and filter go, its
 * files refuse service from now on and its directory is removed. Its
 * memory goes with the last open file, after a grace period (the
 * recorder's probe data). Under kmark_mutex.
 */
static void kmark_event_file_remove(struct kmark_event_file *file)
{
	lockdep_assert_held(&kmark_mutex);
	/* Triggers of other events that switch this one, then its own. */
	kmark_triggers_drop_target(file);
	kmark_triggers_free_file(file);
	while (file->sm_ref)
		kmark_event_enable(file, false, true);
	kmark_event_enable(file, false, false);
	kmark_event_filter_set(file, NULL);
	set_bit(KMARK_EF_FREED_BIT, &file->flags);
	kmark_fs_forget(&file->dents[0][0], KMARK_NR_EVF * KMARK_NR_FS);
	kmark_fs_remove(&file->dir);
	kmark_subsys_put(file->sys);
	list_del(&file->list);
	list_del_rcu(&file->mlist);
	kmark_event_file_put(file);
}

/**
 * kmark_event_files_add - an event's file in every instance
 * @m:	the event, just linked into kmark_markers
 *
 * Return: 0, or -ENOMEM with none made. Under kmark_mutex.
 */
int kmark_event_files_add(struct kmark_marker *m)
{
	struct kmark_instance *inst;

	lockdep_assert_held(&kmark_mutex);
	list_for_each_entry(inst, &kmark_instance_list, list) {
		if (!kmark_event_file_new(m, inst)) {
			kmark_event_files_remove(m);
			return -ENOMEM;
		}
	}
	return 0;
}

/* Remove @m's event files in every instance. Under kmark_mutex. */
void kmark_event_files_remove(struct kmark_marker *m)
{
	struct kmark_event_file *file, *tmp;

	lockdep_assert_held(&kmark_mutex);
	list_for_each_entry_safe(file, tmp, &m->files, mlist)
		kmark_event_file_remove(file);
}

/*
 * @inst's events/ and every event's file and directory in it. Under
 * kmark_mutex. Return: 0, or -ENOMEM (the caller removes the instance).
 */
static const struct file_operations kmark_all_enable_fops;

int kmark_events_create_files(struct kmark_instance *inst)
{
	struct kmark_event_file *file;
	struct kmark_subsys *sys;
	struct kmark_marker *m;

	lockdep_assert_held(&kmark_mutex);
	if (kmark_fs_dir("events", &inst->dir, &inst->events) ||
	    kmark_fs_file("enable", 0600, &inst->events, inst,
			  &kmark_all_enable_fops) ||
	    kmark_fs_file("header_page", 0400, &inst->events, inst,
			  &kmark_header_page_fops) ||
	    kmark_fs_file("header_event", 0400, &inst->events, inst,
			  &kmark_header_event_fops))
		return -ENOMEM;
	/* The top instance's files exist from early boot, without directories. */
	list_for_each_entry(sys, &inst->systems, list)
		if (kmark_subsys_mkdir(sys))
			return -ENOMEM;
	list_for_each_entry(file, &inst->files, list)
		if (kmark_event_file_mkdir(file))
			return -ENOMEM;
	list_for_each_entry(m, &kmark_markers, list) {
		if (kmark_find_file(inst, m->system, m->name))
			continue;
		if (!kmark_event_file_new(m, inst))
			return -ENOMEM;
	}
	return 0;
}

/* Remove @inst's event files (it is going). Under kmark_mutex. */
void kmark_events_remove_inst(struct kmark_instance *inst)
{
	struct kmark_event_file *file, *tmp;

	lockdep_assert_held(&kmark_mutex);
	list_for_each_entry_safe(file, tmp, &inst->files, list)
		kmark_event_file_remove(file);
	kmark_pending_drop(inst);
}

/* --- filters ---------------------------------------------------------------------- */

/* Give @file the filter @flt (NULL: none); the old one goes after a grace period. */
void kmark_event_filter_set(struct kmark_event_file *file,
			    struct kmark_filter *flt)
{
	struct kmark_filter *old;

	lockdep_assert_held(&kmark_mutex);
	old = rcu_replace_pointer(file->filter, flt,
				  lockdep_is_held(&kmark_mutex));
	kmark_filter_free_rcu(old);
}

/*
 * events/SYS/NAME/filter: reads "none" or the filter as written; a write
 * replaces it ("0" or nothing clears it); one that does not parse changes
 * nothing and explains itself in error_log.
 */
static int kmark_ev_open(struct inode *inode, struct file *f)
{
	struct kmark_event_file *file;
	int ret = kmark_open_check();

	if (ret)
		return ret;
	file = kmark_event_file_get(inode);
	if (!file)
		return -ENODEV;
	f->private_data = file;
	return 0;
}

static int kmark_ev_release(struct inode *inode, struct file *f)
{
	kmark_event_file_release(f->private_data);
	return 0;
}

static ssize_t kmark_ev_filter_read(struct file *f, char __user *ubuf,
				    size_t cnt, loff_t *ppos)
{
	struct kmark_event_file *file = f->private_data;
	struct kmark_filter *flt;
	ssize_t ret = -ENODEV;
	char *buf;

	buf = kmalloc(KMARK_FILTER_TEXT_MAX + 2, GFP_KERNEL);
	if (!buf)
		return -ENOMEM;
	mutex_lock(&kmark_mutex);
	if (!(file->flags & KMARK_EF_FREED)) {
		flt = rcu_dereference_protected(file->filter,
						lockdep_is_held(&kmark_mutex));
		snprintf(buf, KMARK_FILTER_TEXT_MAX + 2, "%s\n",
			 flt ? kmark_filter_text(flt) : "none");
		ret = 0;
	}
	mutex_unlock(&kmark_mutex);
	if (!ret)
		ret = simple_read_from_buffer(ubuf, cnt, ppos, buf, strlen(buf));
	kfree(buf);
	return ret;
}

/* A filter written: its text, trimmed, or an error (logged). */
static char *kmark_filter_text_get(struct kmark_instance *inst,
				   const char __user *ubuf, size_t cnt)
{
	if (cnt > KMARK_FILTER_TEXT_MAX) {
		kmark_log_err(inst, "", 0, KMARK_ERR_TOO_LONG);
		return ERR_PTR(-E2BIG);
	}
	return memdup_user_nul(ubuf, cnt);
}

static ssize_t kmark_ev_filter_write(struct file *f, const char __user *ubuf,
				     size_t cnt, loff_t *ppos)
{
	struct kmark_event_file *file = f->private_data;
	struct kmark_filter *flt = NULL;
	unsigned int pos = 0;
	const char *err;
	char *text, *t;
	int ret = 0;

	text = kmark_filter_text_get(file->inst, ubuf, cnt);
	if (IS_ERR(text))
		return PTR_ERR(text);
	t = strim(text);
	mutex_lock(&kmark_mutex);
	if (file->flags & KMARK_EF_FREED) {
		ret = -ENODEV;
	} else if (*t && strcmp(t, "0")) {
		flt = kmark_filter_compile(file->m->layout, t, &err, &pos);
		if (IS_ERR(flt)) {
			ret = PTR_ERR(flt);
			kmark_log_err(file->inst, t, pos, err);
		}
	}
	if (!ret)
		kmark_event_filter_set(file, flt);
	mutex_unlock(&kmark_mutex);
	kfree(text);
	if (ret)
		return ret;
	*ppos += cnt;
	return cnt;
}

static const struct file_operations kmark_ev_filter_fops = {
	.open = kmark_ev_open,
	.read = kmark_ev_filter_read,
	.write = kmark_ev_filter_write,
	.llseek = default_llseek,
	.release = kmark_ev_release,
};

/*
 * events/SYS/filter: the filter for each event of the system, as ftrace's:
 * events whose fields it names get it, the others get none (their filter
 * is cleared, and error_log says so). It fails, changing nothing, when it
 * fits none of them. Reads back what was written last.
 */
/*
 * The instance of the system @inode is for, held; NULL once the system is
 * gone. Taken under kmark_ref_lock (not kmark_mutex: kmark_event_file_get()),
 * as the system may be freed as soon as it is dropped: tracefs does not
 * wait for an open in progress (review K2).
 */
static struct kmark_instance *kmark_subsys_inst_get(struct inode *inode)
{
	struct kmark_instance *inst = NULL;
	struct kmark_subsys *sys;

	spin_lock(&kmark_ref_lock);
	sys = inode->i_private;
	if (sys && !__kmark_inst_hold(sys->inst))
		inst = sys->inst;
	spin_unlock(&kmark_ref_lock);
	return inst;
}

static int kmark_sys_open(struct inode *inode, struct file *f)
{
	struct kmark_instance *inst;
	int ret = kmark_open_check();

	if (ret)
		return ret;
	inst = kmark_subsys_inst_get(inode);
	if (!inst)
		return -ENODEV;
	/* Held until release; the system is found again under kmark_mutex. */
	f->private_data = inst;
	return 0;
}

/* The system a file of events/SYS/ is for, or NULL once it is gone. */
static struct kmark_subsys *kmark_sys_of(struct file *f)
{
	lockdep_assert_held(&kmark_mutex);
	return file_inode(f)->i_private;
}

static int kmark_sys_release(struct inode *inode, struct file *f)
{
	kmark_inst_put(f->private_data);
	return 0;
}

static ssize_t kmark_sys_filter_read(struct file *f, char __user *ubuf,
				     size_t cnt, loff_t *ppos)
{
	struct kmark_subsys *sys;
	ssize_t ret = -ENODEV;
	char *buf;

	buf = kmalloc(KMARK_FILTER_TEXT_MAX + 2, GFP_KERNEL);
	if (!buf)
		return -ENOMEM;
	mutex_lock(&kmark_mutex);
	sys = kmark_sys_of(f);
	if (sys) {
		snprintf(buf, KMARK_FILTER_TEXT_MAX + 2, "%s\n",
			 sys->filter ?: "none");
		ret = 0;
	}
	mutex_unlock(&kmark_mutex);
	if (!ret)
		ret = simple_read_from_buffer(ubuf, cnt, ppos, buf, strlen(buf));
	kfree(buf);
	return ret;
}

static ssize_t kmark_sys_filter_write(struct file *f, const char __user *ubuf,
				      size_t cnt, loff_t *ppos)
{
	struct kmark_instance *inst = f->private_data;
	struct kmark_event_file *file, **files = NULL;
	struct kmark_filter **flts = NULL;
	const char *err = NULL, *first_err = NULL;
	unsigned int pos, first_pos = 0, n = 0, i, fit = 0;
	struct kmark_subsys *sys;
	char *text, *t, *copy = NULL;
	bool clear;
	int ret = 0;

	text = kmark_filter_text_get(inst, ubuf, cnt);
	if (IS_ERR(text))
		return PTR_ERR(text);
	t = strim(text);
	clear = !*t || !strcmp(t, "0");
	mutex_lock(&kmark_mutex);
	sys = kmark_sys_of(f);
	if (!sys) {
		ret = -ENODEV;
		goto out;
	}
	/* (an event without a filter file, kernel_stack, is not one of them) */
	list_for_each_entry(file, &inst->files, list)
		n += file->sys == sys && !file->m->no_triggers;
	files = kcalloc(n, sizeof(*files), GFP_KERNEL);
	flts = kcalloc(n, sizeof(*flts), GFP_KERNEL);
	copy = clear ? NULL : kstrdup(t, GFP_KERNEL);
	ret = -ENOMEM;
	if (!files || !flts || (!clear && !copy)) {
		kmark_log_err(inst, t, 0, "Out of memory");
		goto out;
	}
	i = 0;
	list_for_each_entry(file, &inst->files, list) {
		if (file->sys != sys || file->m->no_triggers)
			continue;
		files[i] = file;
		if (!clear) {
			flts[i] = kmark_filter_compile(file->m->layout, t, &err,
						       &pos);
			if (IS_ERR(flts[i])) {
				if (PTR_ERR(flts[i]) == -ENOMEM)
					goto nomem;
				if (!first_err) {
					first_err = err;
					first_pos = pos;
				}
				flts[i] = NULL;
			} else {
				fit++;
			}
		}
		i++;
	}
	if (!clear && !fit) {
		kmark_log_err(inst, t, first_pos, first_err ?: "No event in the system");
		ret = -EINVAL;
		goto out;
	}
	if (!clear && fit < n)
		kmark_log_err(inst, t, first_pos,
			      "Some of the system's events lack a field of the filter: their filter is cleared");
	for (i = 0; i < n; i++)
		kmark_event_filter_set(files[i], flts[i]);
	kfree(sys->filter);
	sys->filter = copy;
	copy = NULL;
	ret = 0;
	goto out;
nomem:
	kmark_log_err(inst, t, 0, "Out of memory");
	for (i = 0; i < n; i++)
		if (!IS_ERR_OR_NULL(flts[i]))
			kmark_filter_free(flts[i]);
out:
	mutex_unlock(&kmark_mutex);
	kfree(copy);
	kfree(files);
	kfree(flts);
	kfree(text);
	if (ret)
		return ret;
	*ppos += cnt;
	return cnt;
}

static const struct file_operations kmark_sys_filter_fops = {
	.open = kmark_sys_open,
	.read = kmark_sys_filter_read,
	.write = kmark_sys_filter_write,
	.llseek = default_llseek,
	.release = kmark_sys_release,
};

/* --- enable files -------------------------------------------------------------------- */

static ssize_t kmark_ev_enable_read(struct file *f, char __user *ubuf,
				    size_t cnt, loff_t *ppos)
{
	struct kmark_event_file *file = f->private_data;
	unsigned long flags = READ_ONCE(file->flags);
	char buf[4] = "0";

	if (flags & KMARK_EF_FREED)
		return -ENODEV;
	if ((flags & KMARK_EF_ENABLED) && !(flags & KMARK_EF_SOFT_DISABLED))
		buf[0] = '1';
	if (flags & (KMARK_EF_SOFT_DISABLED | KMARK_EF_SOFT_MODE))
		strcat(buf, "*");
	strcat(buf, "\n");
	return simple_read_from_buffer(ubuf, cnt, ppos, buf, strlen(buf));
}

/* 0 or 1, as ftrace's enable files take it; else logged, -EINVAL. */
static int kmark_enable_value(struct kmark_instance *inst,
			      const char __user *ubuf, size_t cnt, bool *on)
{
	unsigned long val;
	int ret;

	ret = kstrtoul_from_user(ubuf, cnt, 10, &val);
	if (ret || val > 1) {
		kmark_log_err(inst, "enable", 0,
			      "An enable file takes 1 (on) or 0 (off)");
		return -EINVAL;
	}
	*on = val;
	return 0;
}

static const char *kmark_enable_err(int ret)
{
	return ret == -ENOMEM ? "Out of memory" :
	       ret == -ENODEV ? "The event's code is gone (an __init function after boot)" :
	       "Could not enable the event";
}

static ssize_t kmark_ev_enable_write(struct file *f, const char __user *ubuf,
				     size_t cnt, loff_t *ppos)
{
	struct kmark_event_file *file = f->private_data;
	bool on;
	int ret;

	ret = kmark_enable_value(file->inst, ubuf, cnt, &on);
	if (ret)
		return ret;
	mutex_lock(&kmark_mutex);
	if (file->flags & KMARK_EF_FREED) {
		ret = -ENODEV;
		kmark_log_err(file->inst, on ? "1" : "0", 0,
			      "The event is gone (its module was unloaded, or it was deleted)");
	} else {
		ret = kmark_event_enable(file, on, false);
		if (ret)
			kmark_log_err(file->inst, on ? "1" : "0", 0,
				      kmark_enable_err(ret));
	}
	mutex_unlock(&kmark_mutex);
	if (ret)
		return ret;
	*ppos += cnt;
	return cnt;
}

static const struct file_operations kmark_ev_enable_fops = {
	.open = kmark_ev_open,
	.read = kmark_ev_enable_read,
	.write = kmark_ev_enable_write,
	.llseek = default_llseek,
	.release = kmark_ev_release,
};

/*
 * events/SYS/enable and events/enable: "0" all off, "1" all on, "X" mixed,
 * "?" no event (ftrace's characters); writing 0 or 1 sets them all, all or
 * nothing. @sys NULL: every event of @inst.
 */
static char kmark_enable_state(struct kmark_instance *inst,
			       struct kmark_subsys *sys)
{
	static const char set_to_char[4] = { '?', '0', '1', 'X' };
	struct kmark_event_file *file;
	unsigned int set = 0;

	lockdep_assert_held(&kmark_mutex);
	list_for_each_entry(file, &inst->files, list) {
		if ((sys && file->sys != sys) || file->m->always_on)
			continue;
		set |= 1 << kmark_file_on(file);
		if (set == 3)
			break;
	}
	return set_to_char[set];
}

static int kmark_enable_all(struct kmark_instance *inst,
			    struct kmark_subsys *sys, bool on)
{
	struct kmark_event_file *file, *undo;
	int ret;

	lockdep_assert_held(&kmark_mutex);
	list_for_each_entry(file, &inst->files, list) {
		if ((sys && file->sys != sys) || file->m->always_on ||
		    kmark_file_on(file) == on)
			continue;
		if (!on) {
			kmark_event_enable(file, false, false);
			continue;
		}
		ret = kmark_event_enable(file, true, false);
		if (ret == -ENODEV)	/* as a glob: passed over */
			continue;
		if (ret) {
			/* Those this write turned on go back off. */
			list_for_each_entry(undo, &inst->files, list) {
				if (undo == file)
					break;
				if ((!sys || undo->sys == sys) &&
				    !undo->m->always_on && undo->on_by_write)
					kmark_event_enable(undo, false, false);
			}
			list_for_each_entry(undo, &inst->files, list)
				undo->on_by_write = false;
			return ret;
		}
		file->on_by_write = true;
	}
	list_for_each_entry(file, &inst->files, list)
		file->on_by_write = false;
	return 0;
}

static ssize_t kmark_enable_state_read(struct kmark_instance *inst,
				       struct kmark_subsys *sys,
				       char __user *ubuf, size_t cnt,
				       loff_t *ppos)
{
	char buf[3];

	buf[0] = kmark_enable_state(inst, sys);
	buf[1] = '\n';
	buf[2] = '\0';
	return simple_read_from_buffer(ubuf, cnt, ppos, buf, 2);
}

static ssize_t kmark_sys_enable_read(struct file *f, char __user *ubuf,
				     size_t cnt, loff_t *ppos)
{
	struct kmark_subsys *sys;
	ssize_t ret;

	mutex_lock(&kmark_mutex);
	sys = kmark_sys_of(f);
	ret = sys ? kmark_enable_state_read(f->private_data, sys, ubuf, cnt,
					    ppos) : -ENODEV;
	mutex_unlock(&kmark_mutex);
	return ret;
}

static ssize_t kmark_sys_enable_write(struct file *f, const char __user *ubuf,
				      size_t cnt, loff_t *ppos)
{
	struct kmark_instance *inst = f->private_data;
	struct kmark_subsys *sys;
	bool on;
	int ret;

	ret = kmark_enable_value(inst, ubuf, cnt, &on);
	if (ret)
		return ret;
	mutex_lock(&kmark_mutex);
	sys = kmark_sys_of(f);
	ret = sys ? kmark_enable_all(inst, sys, on) : -ENODEV;
	if (ret && ret != -ENODEV)
		kmark_log_err(inst, on ? "1" : "0", 0, kmark_enable_err(ret));
	mutex_unlock(&kmark_mutex);
	if (ret)
		return ret;
	*ppos += cnt;
	return cnt;
}

static const struct file_operations kmark_sys_enable_fops = {
	.open = kmark_sys_open,
	.read = kmark_sys_enable_read,
	.write = kmark_sys_enable_write,
	.llseek = default_llseek,
	.release = kmark_sys_release,
};

static ssize_t kmark_all_enable_read(struct file *f, char __user *ubuf,
				     size_t cnt, loff_t *ppos)
{
	ssize_t ret;

	mutex_lock(&kmark_mutex);
	ret = kmark_enable_state_read(f->private_data, NULL, ubuf, cnt, ppos);
	mutex_unlock(&kmark_mutex);
	return ret;
}

static ssize_t kmark_all_enable_write(struct file *f, const char __user *ubuf,
				      size_t cnt, loff_t *ppos)
{
	struct kmark_instance *inst = f->private_data;
	bool on;
	int ret;

	ret = kmark_enable_value(inst, ubuf, cnt, &on);
	if (ret)
		return ret;
	mutex_lock(&kmark_mutex);
	ret = kmark_enable_all(inst, NULL, on);
	if (ret)
		kmark_log_err(inst, on ? "1" : "0", 0, kmark_enable_err(ret));
	mutex_unlock(&kmark_mutex);
	if (ret)
		return ret;
	*ppos += cnt;
	return cnt;
}

static const struct file_operations kmark_all_enable_fops = {
	.open = kmark_inst_open,
	.read = kmark_all_enable_read,
	.write = kmark_all_enable_write,
	.llseek = default_llseek,
	.release = kmark_inst_release,
};

/* --- format, id, header_page, header_event ---------------------------------------- */

static int kmark_format_show(struct seq_file *sf, void *v)
{
	struct kmark_event_file *file = sf->private;
	char *buf;
	struct seq_buf s;

	if (READ_ONCE(file->flags) & KMARK_EF_FREED)
		return -ENODEV;
	buf = kmalloc(PAGE_SIZE, GFP_KERNEL);
	if (!buf)
		return -ENOMEM;
	seq_buf_init(&s, buf, PAGE_SIZE);
	kmark_print_format(&s, file->m);
	seq_write(sf, buf, seq_buf_used(&s));
	kfree(buf);
	return 0;
}

static int kmark_id_show(struct seq_file *sf, void *v)
{
	struct kmark_event_file *file = sf->private;

	if (READ_ONCE(file->flags) & KMARK_EF_FREED)
		return -ENODEV;
	seq_printf(sf, "%u\n", file->m->id);
	return 0;
}

/* A file of events/SYS/NAME/ read with single_open(): holds its event file. */
#define KMARK_EV_SHOW_FOPS(_name)					\
static int _name##_open(struct inode *inode, struct file *f)		\
{									\
	struct kmark_event_file *file;					\
	int ret = kmark_open_check();					\
									\
	if (ret)							\
		return ret;						\
	file = kmark_event_file_get(inode);				\
	if (!file)							\
		return -ENODEV;						\
	ret = single_open(f, _name##_show, file);			\
	if (ret)							\
		kmark_event_file_release(file);			\
	return ret;							\
}									\
static int _name##_release(struct inode *inode, struct file *f)		\
{									\
	kmark_event_file_release(((struct seq_file *)f->private_data)->private); \
	return single_release(inode, f);				\
}									\
static const struct file_operations _name##_fops = {			\
	.open = _name##_open,						\
	.read = seq_read,						\
	.llseek = seq_lseek,						\
	.release = _name##_release,					\
}

KMARK_EV_SHOW_FOPS(kmark_format);
KMARK_EV_SHOW_FOPS(kmark_id);

/* events/header_page, as ring_buffer_print_page_header() prints it. */
static int kmark_header_page_show(struct seq_file *m, void *v)
{
	struct kmark_instance *inst = m->private;
	unsigned int size;

	mutex_lock(&kmark_mutex);
	size = inst->buffer ? ring_buffer_subbuf_size_get(inst->buffer) :
			      PAGE_SIZE << inst->subbuf_order;
	mutex_unlock(&kmark_mutex);
	seq_printf(m, "\tfield: u64 timestamp;\toffset:0;\tsize:%u;\tsigned:%u;\n",
		   (unsigned int)sizeof(u64), (unsigned int)is_signed_type(u64));
	seq_printf(m, "\tfield: local_t commit;\toffset:%u;\tsize:%u;\tsigned:%u;\n",
		   (unsigned int)offsetof(struct kmark_rb_page, commit),
		   (unsigned int)sizeof(local_t), (unsigned int)is_signed_type(long));
	seq_printf(m, "\tfield: int overwrite;\toffset:%u;\tsize:%u;\tsigned:%u;\n",
		   (unsigned int)offsetof(struct kmark_rb_page, commit), 1,
		   (unsigned int)is_signed_type(long));
	seq_printf(m, "\tfield: char data;\toffset:%u;\tsize:%u;\tsigned:%u;\n",
		   (unsigned int)offsetof(struct kmark_rb_page, data),
		   size - (unsigned int)offsetof(struct kmark_rb_page, data),
		   (unsigned int)is_signed_type(char));
	return 0;
}

/* events/header_event, as ring_buffer_print_entry_header() prints it. */
static int kmark_header_event_show(struct seq_file *m, void *v)
{
	seq_puts(m, "# compressed entry header\n"
		 "\ttype_len    :    5 bits\n"
		 "\ttime_delta  :   27 bits\n"
		 "\tarray       :   32 bits\n\n");
	seq_printf(m, "\tpadding     : type == %d\n", RINGBUF_TYPE_PADDING);
	seq_printf(m, "\ttime_extend : type == %d\n", RINGBUF_TYPE_TIME_EXTEND);
	seq_printf(m, "\ttime_stamp : type == %d\n", RINGBUF_TYPE_TIME_STAMP);
	seq_printf(m, "\tdata max type_len  == %d\n",
		   RINGBUF_TYPE_DATA_TYPE_LEN_MAX);
	return 0;
}

/*
 * A file of an instance read with single_open(): holds the instance. Not
 * static: the flight recorder's last_boot/events/ has them too.
 */
#define KMARK_INST_SHOW_FOPS(_name)					\
static int _name##_open(struct inode *inode, struct file *f)		\
{									\
	struct kmark_instance *inst = kmark_inst_get(inode);		\
	int ret;							\
									\
	if (IS_ERR(inst))						\
		return PTR_ERR(inst);					\
	ret = single_open(f, _name##_show, inst);			\
	if (ret)							\
		kmark_inst_put(inst);					\
	return ret;							\
}									\
const struct file_operations _name##_fops = {				\
	.open = _name##_open,						\
	.read = seq_read,						\
	.llseek = seq_lseek,						\
	.release = kmark_inst_seq_release,				\
}

KMARK_INST_SHOW_FOPS(kmark_header_page);
KMARK_INST_SHOW_FOPS(kmark_header_event);

/* --- set_event ------------------------------------------------------------------------- */

static bool kmark_glob_ok(const char *g)
{
	for (; *g; g++) {
		if (*g == '[') {
			const char *c = strchr(g + 1, ']');

			if (!c || c == g + 1)
				return false;
			g = c;
		} else if (*g == ']') {
			return false;
		}
	}
	return true;
}

/*
 * Does @tok name the event @system:@name? As ftrace's set_event: "SYS:NAME"
 * (globs in both parts; "SYS:" is "SYS:*", ":NAME" is "*:NAME"), or "NAME"
 * alone, which names the events of that name and the events of a system
 * of that name. kmark's older "SYS/NAME" is "SYS:NAME".
 */
static bool kmark_event_matches(const char *tok, const char *system,
				const char *name)
{
	const char *sep = strpbrk(tok, ":/");
	char syspat[KMARK_NAME_MAX];
	size_t n;

	if (!sep)
		return glob_match(tok, name) || glob_match(tok, system);
	n = sep - tok;
	if (n >= sizeof(syspat))
		return false;
	memcpy(syspat, tok, n);
	syspat[n] = '\0';
	if (n && !glob_match(syspat, system))
		return false;
	return !sep[1] || glob_match(sep + 1, name);
}

/*
 * A "MODULE:NAME" token whose module is not loaded (and is named without a
 * glob) waits for the module: the pending tokens, applied to the module's
 * markers when it loads, until "> set_event" or a '!' token that names
 * it ("!MODULE:NAME", "!MODULE:*", "!NAME", "!*"). Under kmark_mutex.
 */
struct kmark_pending {
	struct list_head list;
	struct kmark_instance *inst;	/* whose set_event has it */
	char tok[];
};

static LIST_HEAD(kmark_pending);

static bool kmark_pending_ok(const char *tok)
{
	const char *colon = strchr(tok, ':');
	char mod[MODULE_NAME_LEN];
	bool loaded;

	if (!colon || colon == tok || colon - tok >= sizeof(mod) || !colon[1])
		return false;
	memcpy(mod, tok, colon - tok);
	mod[colon - tok] = '\0';
	if (strpbrk(mod, "*?[/"))
		return false;
#ifdef CONFIG_MODULES
	rcu_read_lock_sched();
	loaded = find_module(mod);
	rcu_read_unlock_sched();
#else
	loaded = true;
#endif
	return !loaded;
}

/*
 * Whether the system of @tok ("SYSTEM:NAME") is one that exists or can only
 * be kmark's own: then a NAME that matched nothing is a typo, not an event
 * of a module still to load ("sched:sched_swich" must not wait silently).
 */
static bool kmark_tok_system_known(const char *tok,
				   const char * const *systems,
				   unsigned int nr)
{
	static const char * const own[] = {
		"kprobes", "synthetic", "vmlinux", "ftrace", "kmark",
	};
	const char *colon = strchr(tok, ':');
	unsigned int i;
	size_t len;

	if (!colon || strpbrk(tok, "*?["))
		return false;
	len = colon - tok;
	for (i = 0; i < ARRAY_SIZE(own); i++)
		if (strlen(own[i]) == len && !strncmp(tok, own[i], len))
			return true;
	for (i = 0; i < nr; i++)
		if (strlen(systems[i]) == len && !strncmp(tok, systems[i], len))
			return true;
	return false;
}

/*
 * Whether set_event command @buf has a '!' token that drops pending token
 * @tok ("MODULE:NAME"): the same text, or one that names what @tok names
 * ("!MODULE:*", "!NAME", "!*"), as it would disable those markers.
 */
static bool kmark_cmd_negates(const char *buf, const char *tok)
{
	char neg[KMARK_TOKEN_MAX];
	char mod[MODULE_NAME_LEN];
	const char *colon = strchr(tok, ':');
	const char *p = buf;
	size_t n = strlen(tok);

	if (!colon || colon - tok >= sizeof(mod))
		return false;
	memcpy(mod, tok, colon - tok);
	mod[colon - tok] = '\0';
	while (*p) {
		const char *start;
		size_t len;

		while (*p && (isspace(*p) || *p == ','))
			p++;
		start = p;
		while (*p && !isspace(*p) && *p != ',')
			p++;
		len = p - start;
		if (len < 2 || *start != '!' || len > sizeof(neg))
			continue;
		memcpy(neg, start + 1, len - 1);
		neg[len - 1] = '\0';
		if ((len - 1 == n && !memcmp(neg, tok, n)) ||
		    kmark_event_matches(neg, mod, colon + 1))
			return true;
	}
	return false;
}

static struct kmark_pending *kmark_pending_find(struct kmark_instance *inst,
						const char *tok)
{
	struct kmark_pending *p;

	list_for_each_entry(p, &kmark_pending, list)
		if (p->inst == inst && !strcmp(p->tok, tok))
			return p;
	return NULL;
}

/**
 * kmark_set_event_parse - apply a set_event command to an enable set
 * @buf:	the command: names, SYS:NAME, globs and !names, separated by
 *		white space or commas
 * @systems:	the events' systems
 * @names:	the events' names
 * @nr:		number of events
 * @state:	in: which events are on; out: which are on after @buf
 * @named:	out, if not NULL: which events a name (not a glob) turned on
 * @pending:	out, if not NULL: "MODULE:NAME" tokens of modules not loaded
 * @err:	on failure, the message
 * @err_pos:	on failure, the offset in @buf of the token it is about
 *
 * Nothing is applied here: the caller applies @state only when the whole
 * command parsed, so a bad command never half-applies.
 *
 * Return: 0 or -EINVAL.
 */
int kmark_set_event_parse(const char *buf, const char * const *systems,
			  const char * const *names, unsigned int nr,
			  bool *state, bool *named,
			  struct kmark_pending_req *pending,
			  const char **err, unsigned int *err_pos)
{
	const char *p = buf;
	char tok[KMARK_TOKEN_MAX];

	while (*p) {
		const char *start;
		bool neg = false, any = false;
		size_t len;
		unsigned int i;

		while (*p && (isspace(*p) || *p == ','))
			p++;
		if (!*p)
			break;
		start = p;
		while (*p && !isspace(*p) && *p != ',')
			p++;
		len = p - start;
		*err_pos = start - buf;
		if (*start == '!') {
			neg = true;
			start++;
			len--;
			if (!len) {
				*err = "'!' must be followed by an event name";
				return -EINVAL;
			}
		}
		if (len >= sizeof(tok) - 1) {
			*err = "Name too long";
			return -EINVAL;
		}
		memcpy(tok, start, len);
		tok[len] = '\0';
		if (strpbrk(tok, "*?[]") && !kmark_glob_ok(tok)) {
			*err = "Bad glob: unmatched '[' or ']'";
			return -EINVAL;
		}
		for (i = 0; i < nr; i++) {
			if (kmark_event_matches(tok, systems[i], names[i])) {
				state[i] = !neg;
				if (named)
					named[i] = !neg && !strpbrk(tok, "*?[");
				any = true;
			}
		}
		if (!any && kmark_tok_system_known(tok, systems, nr)) {
			*err = str_has_prefix(tok, "vmlinux:") ?
			       KMARK_ERR_VMLINUX :
			       "Unknown event (see available_events)";
			return -EINVAL;
		}
		if (!any && pending && kmark_pending_ok(tok)) {
			if (pending->nr == ARRAY_SIZE(pending->tok)) {
				*err = "Too many events of unloaded modules in one write";
				return -EINVAL;
			}
			strscpy(pending->tok[pending->nr], tok);
			pending->neg[pending->nr++] = neg;
			continue;
		}
		if (!any) {
			*err = strpbrk(tok, "*?[") ? "No event matches the glob" :
			       strpbrk(tok, ":/") ? "Unknown event (see available_events)" :
			       KMARK_ERR_UNKNOWN_PLAIN;
			return -EINVAL;
		}
	}
	return 0;
}

/**
 * kmark_set_event_apply - run a set_event command
 * @inst:	the instance whose set_event it is
 * @buf:	the command (see kmark_set_event_parse())
 * @truncate:	start from "nothing enabled" (open with O_TRUNC)
 * @err:	on failure, the message
 * @err_pos:	on failure, the offset in @buf
 *
 * All or nothing, and only in @inst: the events the command turns on are
 * turned on first; if one fails, those turned on so far are turned off
 * again, and nothing else was touched. Only then are the others turned
 * off, which cannot fail.
 *
 * Return: 0, -EINVAL for a bad command, or the error of enabling; on
 * error, no event changed.
 */
int kmark_set_event_apply(struct kmark_instance *inst, const char *buf,
			  bool truncate, const char **err,
			  unsigned int *err_pos)
{
	struct kmark_pending *newp[KMARK_PENDING_MAX] = { };
	struct kmark_event_file *file, **fs;
	struct kmark_pending *p, *tmp;
	struct kmark_pending_req *req;
	const char **names, **systems;
	bool *state, *was, *named;
	unsigned int nr = 0, i;
	int ret;

	req = kzalloc(sizeof(*req), GFP_KERNEL);
	if (!req) {
		*err = "Out of memory";
		*err_pos = 0;
		return -ENOMEM;
	}
	mutex_lock(&kmark_mutex);
	list_for_each_entry(file, &inst->files, list)
		nr += !file->m->always_on;
	fs = kcalloc(nr, sizeof(*fs), GFP_KERNEL);
	names = kcalloc(nr, sizeof(*names), GFP_KERNEL);
	systems = kcalloc(nr, sizeof(*systems), GFP_KERNEL);
	state = kcalloc(nr, sizeof(*state), GFP_KERNEL);
	was = kcalloc(nr, sizeof(*was), GFP_KERNEL);
	named = kcalloc(nr, sizeof(*named), GFP_KERNEL);
	ret = -ENOMEM;
	*err = "Out of memory";
	*err_pos = 0;
	if (nr && (!fs || !names || !systems || !state || !was || !named))
		goto out;
	i = 0;
	list_for_each_entry(file, &inst->files, list) {
		if (file->m->always_on)
			continue;
		fs[i] = file;
		names[i] = file->m->name;
		systems[i] = file->m->system;
		was[i] = kmark_file_on(file);
		state[i] = truncate ? false : was[i];
		i++;
	}
	ret = kmark_set_event_parse(buf, systems, names, nr, state, named, req,
				    err, err_pos);
	if (ret)
		goto out;
	/* Room for the new pending tokens before anything changes. */
	for (i = 0; i < req->nr; i++) {
		size_t size = strlen(req->tok[i]) + 1;

		if (req->neg[i] || kmark_pending_find(inst, req->tok[i]))
			continue;
		newp[i] = kmalloc(struct_size(newp[i], tok, size), GFP_KERNEL);
		if (!newp[i]) {
			ret = -ENOMEM;
			*err = "Out of memory";
			*err_pos = 0;
			goto out;
		}
		strscpy(newp[i]->tok, req->tok[i], size);
		newp[i]->inst = inst;
	}
	for (i = 0; i < nr; i++) {
		if (!state[i] || was[i])
			continue;
		ret = kmark_event_enable(fs[i], true, false);
		if (ret == -ENODEV && !named[i]) {
			/* A glob passes over an event whose code is gone. */
			state[i] = false;
			ret = 0;
			continue;
		}
		if (ret) {
			*err = kmark_enable_err(ret);
			*err_pos = 0;
			/* Only what this command turned on goes back off. */
			while (i--)
				if (state[i] && !was[i])
					kmark_event_enable(fs[i], false, false);
			goto out;
		}
	}
	for (i = 0; i < nr; i++)
		if (!state[i] && was[i])
			kmark_event_enable(fs[i], false, false);
	/*
	 * The pending tokens: '>' drops the old ones, a '!' token those it
	 * names (whether or not their module is loaded now), new ones join.
	 */
	list_for_each_entry_safe(p, tmp, &kmark_pending, list) {
		if (p->inst != inst)
			continue;
		if (truncate || kmark_cmd_negates(buf, p->tok)) {
			list_del(&p->list);
			kfree(p);
		}
	}
	for (i = 0; i < req->nr; i++) {
		if (newp[i])
			list_add_tail(&newp[i]->list, &kmark_pending);
		newp[i] = NULL;
	}
out:
	mutex_unlock(&kmark_mutex);
	for (i = 0; i < ARRAY_SIZE(newp); i++)
		kfree(newp[i]);
	kfree(req);
	kfree(fs);
	kfree(systems);
	kfree(names);
	kfree(state);
	kfree(was);
	kfree(named);
	return ret;
}

/* Drop @inst's pending tokens (it is being removed). Under kmark_mutex. */
void kmark_pending_drop(struct kmark_instance *inst)
{
	struct kmark_pending *p, *tmp;

	lockdep_assert_held(&kmark_mutex);
	list_for_each_entry_safe(p, tmp, &kmark_pending, list) {
		if (p->inst == inst) {
			list_del(&p->list);
			kfree(p);
		}
	}
}

/*
 * Enable @mod's markers that a pending token names, in the token's
 * instance (the module has just loaded); a failure is reported, the token
 * stays. Under kmark_mutex.
 */
void kmark_pending_apply(const char *mod)
{
	struct kmark_event_file *file;
	struct kmark_pending *p;
	size_t n = strlen(mod);
	int ret;

	lockdep_assert_held(&kmark_mutex);
	list_for_each_entry(p, &kmark_pending, list) {
		if (strncmp(p->tok, mod, n) || p->tok[n] != ':')
			continue;
		list_for_each_entry(file, &p->inst->files, list) {
			struct kmark_marker *m = file->m;

			if (!m->module || strcmp(m->module, mod) ||
			    kmark_file_on(file) || m->always_on ||
			    !kmark_event_matches(p->tok, m->system, m->name))
				continue;
			ret = kmark_event_enable(file, true, false);
			if (ret)
				pr_warn("set_event %s: %s:%s not enabled: %d\n",
					p->tok, m->system, m->name, ret);
		}
	}
}

/*
 * set_event lists "SYS:NAME" of each event it records (ftrace's form), then
 * the tokens waiting for their module.
 */
struct kmark_set_event_file {
	struct kmark_instance *inst;	/* held */
	bool truncate_pending;
	bool failed;
};

static void *kmark_se_start(struct seq_file *m, loff_t *pos)
{
	struct kmark_set_event_file *sef = m->private;

	mutex_lock(&kmark_mutex);
	return seq_list_start(&sef->inst->files, *pos);
}

static void *kmark_se_next(struct seq_file *m, void *v, loff_t *pos)
{
	struct kmark_set_event_file *sef = m->private;

	return seq_list_next(v, &sef->inst->files, pos);
}

static void kmark_se_stop(struct seq_file *m, void *v)
{
	mutex_unlock(&kmark_mutex);
}

static int kmark_se_show(struct seq_file *sf, void *v)
{
	struct kmark_event_file *file = list_entry(v, struct kmark_event_file,
						   list);
	struct kmark_set_event_file *sef = sf->private;
	struct kmark_pending *p;

	if (READ_ONCE(file->flags) & KMARK_EF_ENABLED && !file->m->always_on)
		seq_printf(sf, "%s:%s\n", file->m->system, file->m->name);
	if (list_is_last(&file->list, &sef->inst->files))
		list_for_each_entry(p, &kmark_pending, list)
			if (p->inst == sef->inst)
				seq_printf(sf, "%s\n", p->tok);
	return 0;
}

static const struct seq_operations kmark_set_event_seq_ops = {
	.start = kmark_se_start,
	.next = kmark_se_next,
	.stop = kmark_se_stop,
	.show = kmark_se_show,
};

static struct kmark_set_event_file *kmark_sef(struct file *file)
{
	if (file->f_mode & FMODE_READ)
		return ((struct seq_file *)file->private_data)->private;
	return file->private_data;
}

/*
 * Opening with O_TRUNC does not clear at open (as ftrace does) but at the
 * first successful write, or at close when nothing was written: a write
 * that fails changes nothing.
 */
static int kmark_set_event_open(struct inode *inode, struct file *file)
{
	struct kmark_set_event_file *sef;
	struct kmark_instance *inst;
	int ret;

	sef = kzalloc(sizeof(*sef), GFP_KERNEL);
	if (!sef)
		return -ENOMEM;
	inst = kmark_inst_get(inode);
	if (IS_ERR(inst)) {
		kfree(sef);
		return PTR_ERR(inst);
	}
	sef->inst = inst;
	sef->truncate_pending = (file->f_mode & FMODE_WRITE) &&
				(file->f_flags & O_TRUNC);
	if (file->f_mode & FMODE_READ) {
		ret = seq_open(file, &kmark_set_event_seq_ops);
		if (ret) {
			kmark_inst_put(inst);
			kfree(sef);
			return ret;
		}
		((struct seq_file *)file->private_data)->private = sef;
	} else {
		file->private_data = sef;
	}
	return 0;
}

static ssize_t kmark_set_event_write(struct file *file,
				     const char __user *ubuf, size_t cnt,
				     loff_t *ppos)
{
	struct kmark_set_event_file *sef = kmark_sef(file);
	unsigned int pos = 0;
	const char *err = NULL;
	char *cmd;
	int ret;

	cmd = kmark_get_cmd(sef->inst, ubuf, cnt);
	if (IS_ERR(cmd)) {
		sef->failed = true;	/* no clearing at close either */
		return PTR_ERR(cmd);
	}
	ret = kmark_set_event_apply(sef->inst, cmd, sef->truncate_pending,
				    &err, &pos);
	if (ret) {
		sef->failed = true;
		kmark_log_err(sef->inst, cmd, pos, err ?: "Failed");
	} else {
		sef->truncate_pending = false;
		*ppos += cnt;
		ret = cnt;
	}
	kfree(cmd);
	return ret;
}

static int kmark_set_event_release(struct inode *inode, struct file *file)
{
	struct kmark_set_event_file *sef = kmark_sef(file);
	const char *err;
	unsigned int pos;

	/* "> set_event" with nothing written: disable everything. */
	if (sef->truncate_pending && !sef->failed)
		kmark_set_event_apply(sef->inst, "", true, &err, &pos);
	kmark_inst_put(sef->inst);
	kfree(sef);
	if (file->f_mode & FMODE_READ)
		return seq_release(inode, file);
	return 0;
}

static const struct file_operations kmark_set_event_fops = {
	.open = kmark_set_event_open,
	.read = seq_read,
	.write = kmark_set_event_write,
	.llseek = seq_lseek,
	.release = kmark_set_event_release,
};

/* --- available_events, available_markers ------------------------------------------ */

/* seq_file walk over kmark_markers, under kmark_mutex (also kprobe files). */
void *kmark_markers_start(struct seq_file *m, loff_t *pos)
{
	mutex_lock(&kmark_mutex);
	return seq_list_start(&kmark_markers, *pos);
}

void *kmark_markers_next(struct seq_file *m, void *v, loff_t *pos)
{
	return seq_list_next(v, &kmark_markers, pos);
}

void kmark_markers_stop(struct seq_file *m, void *v)
{
	mutex_unlock(&kmark_mutex);
}

static int kmark_available_events_show(struct seq_file *m, void *v)
{
	struct kmark_marker *mk = list_entry(v, struct kmark_marker, list);

	if (!mk->always_on)
		seq_printf(m, "%s:%s\n", mk->system, mk->name);
	return 0;
}

/* available_markers: "SYS:NAME FORMAT", "[module]" after a module's. */
static int kmark_available_show(struct seq_file *m, void *v)
{
	struct kmark_marker *mk = list_entry(v, struct kmark_marker, list);

	if (mk->always_on)
		return 0;
	seq_printf(m, "%s:%s ", mk->system, mk->name);
	if (mk->ops)
		mk->ops->show(m, mk);
	else
		seq_puts(m, mk->format);
	/* ftrace's habit for module symbols: "name [module]". */
	if (mk->module)
		seq_printf(m, " [%s]", mk->module);
	seq_putc(m, '\n');
	return 0;
}

static const struct seq_operations kmark_available_events_seq_ops = {
	.start = kmark_markers_start,
	.next = kmark_markers_next,
	.stop = kmark_markers_stop,
	.show = kmark_available_events_show,
};

static const struct seq_operations kmark_available_seq_ops = {
	.start = kmark_markers_start,
	.next = kmark_markers_next,
	.stop = kmark_markers_stop,
	.show = kmark_available_show,
};

static int kmark_available_events_open(struct inode *inode, struct file *file)
{
	int ret = kmark_open_check();

	return ret ? ret : seq_open(file, &kmark_available_events_seq_ops);
}

static int kmark_available_open(struct inode *inode, struct file *file)
{
	int ret = kmark_open_check();

	return ret ? ret : seq_open(file, &kmark_available_seq_ops);
}

static const struct file_operations kmark_available_events_fops = {
	.open = kmark_available_events_open,
	.read = seq_read,
	.llseek = seq_lseek,
	.release = seq_release,
};

static const struct file_operations kmark_available_fops = {
	.open = kmark_available_open,
	.read = seq_read,
	.llseek = seq_lseek,
	.release = seq_release,
};

/* set_event in every instance; available_* at the top only (ftrace has both). */
int kmark_events_create_inst_files(struct kmark_instance *inst)
{
	return kmark_fs_file("set_event", 0600, &inst->dir, inst,
			     &kmark_set_event_fops) ||
	       kmark_fs_file("available_events", 0400, &inst->dir, inst,
			     &kmark_available_events_fops) ?
	       -ENOMEM : 0;
}

void __init kmark_events_create_top_files(void)
{
	kmark_fs_file("available_markers", 0400, &kmark_top, NULL,
		      &kmark_available_fops);
}

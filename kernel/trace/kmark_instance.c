// SPDX-License-Identifier: GPL-2.0
/*
 * kmark: instances, several recording sessions at once (ftrace's
 * instances/). Each has its own buffer, tracing_on, event files
 * (set_event, enable, filters), pid filters, readers and error_log; the
 * top one is kmark's directory itself.
 *
 * They are made and removed as ftrace's are, with mkdir and rmdir in
 * instances/ of the tracefs copy (/sys/kernel/tracing/kmark/instances);
 * debugfs has no such hook, so its copy also has instances/new and
 * instances/remove ("echo NAME > instances/new"). An instance exists in
 * both copies, whichever way it was made. There is no fixed number of
 * them: each takes its buffer's memory and a few KiB.
 *
 * Removal is refused (EBUSY) while a file of the instance is open, as
 * ftrace refuses it while its trace_array is referenced: every file of an
 * instance holds it from open() to release().
 */
#define pr_fmt(fmt) "kmark: " fmt

#include <linux/ctype.h>
#include <linux/debugfs.h>
#include <linux/slab.h>
#include <linux/tracefs.h>

#include "kmark_internal.h"

struct kmark_instance kmark_top_instance;
LIST_HEAD(kmark_instance_list);

/*
 * kmark_ref_lock guards what open() needs: the instances' @live, @ref and
 * their list, and the i_private of the files of events/ that point at
 * things that can go. open() takes it, never kmark_mutex: debugfs waits
 * for the opens in progress of a file it removes, and directories are
 * removed under kmark_mutex. Writers of the list hold both.
 */
DEFINE_SPINLOCK(kmark_ref_lock);

/* Hold @inst if it is live; under kmark_ref_lock. */
int __kmark_inst_hold(struct kmark_instance *inst)
{
	struct kmark_instance *pos;

	lockdep_assert_held(&kmark_ref_lock);
	list_for_each_entry(pos, &kmark_instance_list, list) {
		if (pos == inst && inst->live) {
			inst->ref++;
			return 0;
		}
	}
	return -ENODEV;
}

int kmark_inst_hold(struct kmark_instance *inst)
{
	int ret;

	spin_lock(&kmark_ref_lock);
	ret = __kmark_inst_hold(inst);
	spin_unlock(&kmark_ref_lock);
	return ret;
}

void kmark_inst_put(struct kmark_instance *inst)
{
	spin_lock(&kmark_ref_lock);
	WARN_ON_ONCE(!inst->ref);
	inst->ref--;
	spin_unlock(&kmark_ref_lock);
}

/*
 * At open() of an instance's file (its i_private): the lockdown check, then
 * hold the instance. Return: the instance, ERR_PTR(-ENODEV) once it is
 * being removed, or the lockdown error.
 */
struct kmark_instance *kmark_inst_get(struct inode *inode)
{
	struct kmark_instance *inst = inode->i_private;
	int ret = kmark_open_check();

	if (ret)
		return ERR_PTR(ret);
	ret = kmark_inst_hold(inst);
	return ret ? ERR_PTR(ret) : inst;
}

/* open() of a file whose private_data is its (held) instance. */
int kmark_inst_open(struct inode *inode, struct file *file)
{
	struct kmark_instance *inst = kmark_inst_get(inode);

	if (IS_ERR(inst))
		return PTR_ERR(inst);
	file->private_data = inst;
	return 0;
}

int kmark_inst_release(struct inode *inode, struct file *file)
{
	kmark_inst_put(file->private_data);
	return 0;
}

/* release() of a single_open() file whose private is its instance. */
int kmark_inst_seq_release(struct inode *inode, struct file *file)
{
	kmark_inst_put(((struct seq_file *)file->private_data)->private);
	return single_release(inode, file);
}

struct kmark_instance *kmark_inst_by_name(const char *name)
{
	struct kmark_instance *inst;

	lockdep_assert_held(&kmark_mutex);
	list_for_each_entry(inst, &kmark_instance_list, list)
		if (inst != kmark_top_inst && !strcmp(inst->name, name))
			return inst;
	return NULL;
}

/*
 * An instance's files, in its directory (made): the settings, set_event,
 * the readers, per_cpu/, events/ with every event, the pid filters. Under
 * kmark_mutex. Return: 0, or -ENOMEM: the caller removes what was made.
 */
static int kmark_inst_create_files(struct kmark_instance *inst)
{
	lockdep_assert_held(&kmark_mutex);
	if (kmark_fs_create_inst_settings(inst) ||
	    kmark_events_create_inst_files(inst) ||
	    kmark_read_create_files(inst) ||
	    kmark_pid_create_files(inst) ||
	    kmark_events_create_files(inst))
		return -ENOMEM;
	return 0;
}

/* --- instances/ -------------------------------------------------------------- */

static struct kmark_dir kmark_instances_dir;

static const char *kmark_inst_name_err(const char *name)
{
	const char *p;

	if (!*name)
		return "An instance needs a name";
	if (strlen(name) >= KMARK_INSTANCE_NAME_MAX)
		return "Instance name too long (at most 63 characters)";
	for (p = name; *p; p++)
		if (!isalnum(*p) && *p != '_' && *p != '-' && *p != '.')
			return "Instance names take letters, digits, '_', '-' and '.'";
	if (!strcmp(name, "new") || !strcmp(name, "remove") ||
	    !strcmp(name, ".") || !strcmp(name, ".."))
		return "Reserved name";
	return NULL;
}

/*
 * The end of an instance taken out of the list: its event files (recording
 * stops), pid lists and directories go; after a grace period for the
 * recorders that were running, its memory. Under kmark_mutex.
 */
static void kmark_inst_teardown(struct kmark_instance *inst)
{
	lockdep_assert_held(&kmark_mutex);
	kmark_events_remove_inst(inst);
	kmark_pid_inst_fini(inst);
	kmark_fs_remove(&inst->dir);
	/* No probe, kprobe handler or trace_marker writer uses it after this. */
	synchronize_rcu();
	kmark_err_log_clear(inst);
	kmark_instance_fini(inst);
	kfree(inst);
}

/*
 * Make instance @name (mkdir, instances/new; kmark_flight.c's boot-mapped
 * one). 0 or an error, with @err set.
 */
int kmark_inst_make(const char *name, const char **err)
{
	struct kmark_instance *inst;
	int ret;

	*err = kmark_inst_name_err(name);
	if (*err)
		return -EINVAL;
	inst = kzalloc(sizeof(*inst), GFP_KERNEL);
	*err = "Out of memory";
	if (!inst)
		return -ENOMEM;
	strscpy(inst->name, name);
	ret = kmark_instance_init(inst);
	if (ret) {
		kfree(inst);
		return ret;
	}
	mutex_lock(&kmark_mutex);
	ret = -EEXIST;
	*err = "The instance exists";
	if (kmark_inst_by_name(name))
		goto fini;
	*err = "Out of memory";
	ret = -ENOMEM;
	if (kmark_fs_dir(name, &kmark_instances_dir, &inst->dir))
		goto fini;
	spin_lock(&kmark_ref_lock);
	list_add_tail_rcu(&inst->list, &kmark_instance_list);
	spin_unlock(&kmark_ref_lock);
	if (kmark_inst_create_files(inst)) {
		spin_lock(&kmark_ref_lock);
		list_del_rcu(&inst->list);
		spin_unlock(&kmark_ref_lock);
		kmark_inst_teardown(inst);
		mutex_unlock(&kmark_mutex);
		return -ENOMEM;
	}
	inst->live = true;
	mutex_unlock(&kmark_mutex);
	return 0;
fini:
	mutex_unlock(&kmark_mutex);
	kmark_instance_fini(inst);
	kfree(inst);
	return ret;
}

/* Remove instance @name, refused while a file of it is open. */
static int kmark_inst_unmake(const char *name, const char **err)
{
	struct kmark_instance *inst;

	mutex_lock(&kmark_mutex);
	inst = kmark_inst_by_name(name);
	if (!inst) {
		mutex_unlock(&kmark_mutex);
		*err = "No such instance";
		return -ENOENT;
	}
	if (inst->flight) {
		mutex_unlock(&kmark_mutex);
		*err = "The boot-mapped instance (kmark_instance=) cannot be removed";
		return -EPERM;
	}
	spin_lock(&kmark_ref_lock);
	if (inst->ref) {
		spin_unlock(&kmark_ref_lock);
		mutex_unlock(&kmark_mutex);
		*err = "The instance is busy: a file of it is open";
		return -EBUSY;
	}
	inst->live = false;
	list_del_rcu(&inst->list);
	spin_unlock(&kmark_ref_lock);
	kmark_inst_teardown(inst);
	mutex_unlock(&kmark_mutex);
	return 0;
}

#ifdef CONFIG_TRACEFS_FS
/* tracefs's mkdir and rmdir in instances/: errors also go to error_log. */
static int kmark_inst_mkdir(const char *name)
{
	const char *err;
	int ret = kmark_inst_make(name, &err);

	if (ret)
		kmark_log_err(kmark_top_inst, name, 0, err);
	return ret;
}

static int kmark_inst_rmdir(const char *name)
{
	const char *err;
	int ret = kmark_inst_unmake(name, &err);

	if (ret)
		kmark_log_err(kmark_top_inst, name, 0, err);
	return ret;
}
#endif

static ssize_t kmark_inst_ctl_write(struct file *file, const char __user *ubuf,
				    size_t cnt, loff_t *ppos, bool make)
{
	const char *err = NULL;
	char *cmd, *name;
	int ret;

	cmd = kmark_get_cmd(kmark_top_inst, ubuf, cnt);
	if (IS_ERR(cmd))
		return PTR_ERR(cmd);
	name = strim(cmd);
	ret = make ? kmark_inst_make(name, &err) : kmark_inst_unmake(name, &err);
	if (ret)
		kmark_log_err(kmark_top_inst, name, 0, err);
	kfree(cmd);
	if (ret)
		return ret;
	*ppos += cnt;
	return cnt;
}

static ssize_t kmark_inst_new_write(struct file *file, const char __user *ubuf,
				    size_t cnt, loff_t *ppos)
{
	return kmark_inst_ctl_write(file, ubuf, cnt, ppos, true);
}

static ssize_t kmark_inst_remove_write(struct file *file,
				       const char __user *ubuf, size_t cnt,
				       loff_t *ppos)
{
	return kmark_inst_ctl_write(file, ubuf, cnt, ppos, false);
}

static const struct file_operations kmark_inst_new_fops = {
	.open = kmark_simple_open,
	.write = kmark_inst_new_write,
	.llseek = noop_llseek,
};

static const struct file_operations kmark_inst_remove_fops = {
	.open = kmark_simple_open,
	.write = kmark_inst_remove_write,
	.llseek = noop_llseek,
};

/*
 * instances/ in both copies: tracefs's takes mkdir and rmdir; debugfs's
 * has the files new and remove. At boot.
 */
void __init kmark_instances_init(void)
{
	struct dentry *d;

#ifdef CONFIG_TRACEFS_FS
	if (kmark_top.d[KMARK_TRACEFS])
		kmark_instances_dir.d[KMARK_TRACEFS] =
			tracefs_create_instance_dir("instances",
						    kmark_top.d[KMARK_TRACEFS],
						    kmark_inst_mkdir,
						    kmark_inst_rmdir);
#endif
	if (!kmark_top.d[KMARK_DEBUGFS])
		return;
	d = debugfs_create_dir("instances", kmark_top.d[KMARK_DEBUGFS]);
	if (IS_ERR(d))
		return;
	kmark_instances_dir.d[KMARK_DEBUGFS] = d;
	debugfs_create_file_unsafe("new", 0200, d, NULL, &kmark_inst_new_fops);
	debugfs_create_file_unsafe("remove", 0200, d, NULL,
				   &kmark_inst_remove_fops);
}

/* The top instance's files, at boot (its event files exist already). */
int __init kmark_top_inst_create_files(void)
{
	int ret;

	mutex_lock(&kmark_mutex);
	kmark_top_inst->dir = kmark_top;
	ret = kmark_inst_create_files(kmark_top_inst);
	mutex_unlock(&kmark_mutex);
	return ret;
}

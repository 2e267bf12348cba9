// SPDX-License-Identifier: GPL-2.0
/*
 * kmark: the control files in /sys/kernel/debug/kmark/ and, when the
 * kernel has tracefs, the same files in /sys/kernel/tracing/kmark/.
 *
 *   tracing_on         1/0: record or not (markers stay armed)
 *   available_markers  "name format", one per line
 *   saved_comms        "id name": the task names records hold by id
 *   set_event          names, globs, !name; ">" replaces, ">>" adds
 *   trace_pipe         consuming, blocking read of the events (woken in
 *                      batches: read_delay_ms, buffer_percent)
 *   trace              non-consuming read with ftrace's header; "> trace"
 *                      clears the buffer
 *   buffer_size_kb     per-CPU buffer size, resizable while tracing
 *   per_cpu/cpuN/stats entries, overrun, bytes, dropped, read, written
 *   error_log          the last errors, ftrace's format; "> error_log" clears
 *   trace_marker       a write records its text (tracing_mark_write)
 *   events/NAME/       format, id, filter of each event
 *   instances/new      "echo NAME >" makes instances/NAME/: a session with
 *                      its own buffer and its own copy of the session's
 *                      files (kmark_inst_files[]); instances/remove
 *   README             short help
 *
 * Writes follow ftrace's semantics, with one difference: a command that
 * fails changes nothing. Opening set_event with O_TRUNC does not clear at
 * open (as ftrace does) but at the first successful write, or at close
 * when nothing was written.
 */
#define pr_fmt(fmt) "kmark: " fmt

#include <linux/ctype.h>
#include <linux/debugfs.h>
#include <linux/fs.h>
#include <linux/init.h>
#include <linux/poll.h>
#include <linux/sched/clock.h>
#include <linux/security.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/tracefs.h>
#include <linux/uaccess.h>
#include <asm/local.h>

#include "kmark_internal.h"

/* --- error_log ---------------------------------------------------------- */

#define KMARK_ERR_LOG_MAX	8
#define KMARK_CMD_PREFIX	"  Command: "

struct kmark_err {
	struct list_head list;
	u64 ts;
	unsigned int pos;
	const char *msg;	/* static string */
	char *cmd;
};

/**
 * kmark_log_err - add an entry to an instance's error_log
 * @inst:	the instance whose file the command was written to
 * @cmd:	the command that failed (a trailing newline is dropped)
 * @pos:	offset in @cmd of the caret
 * @msg:	what is wrong, a static string
 *
 * Keeps the last KMARK_ERR_LOG_MAX entries, as ftrace does.
 */
void kmark_log_err(struct kmark_instance *inst, const char *cmd,
		   unsigned int pos, const char *msg)
{
	struct kmark_err *e;
	size_t len = strlen(cmd);

	while (len && cmd[len - 1] == '\n')
		len--;
	mutex_lock(&inst->err_mutex);
	if (inst->nr_errs < KMARK_ERR_LOG_MAX) {
		e = kzalloc(sizeof(*e), GFP_KERNEL);
		if (!e)
			goto out;
		inst->nr_errs++;
	} else {
		e = list_first_entry(&inst->errs, struct kmark_err, list);
		list_del(&e->list);
		kfree(e->cmd);
	}
	e->cmd = kstrndup(cmd, len, GFP_KERNEL);
	if (!e->cmd) {
		kfree(e);
		inst->nr_errs--;
		goto out;
	}
	e->ts = local_clock();
	e->pos = min_t(unsigned int, pos, len);
	e->msg = msg;
	list_add_tail(&e->list, &inst->errs);
out:
	mutex_unlock(&inst->err_mutex);
}

void kmark_err_log_clear(struct kmark_instance *inst)
{
	struct kmark_err *e, *n;

	mutex_lock(&inst->err_mutex);
	list_for_each_entry_safe(e, n, &inst->errs, list) {
		list_del(&e->list);
		kfree(e->cmd);
		kfree(e);
	}
	inst->nr_errs = 0;
	mutex_unlock(&inst->err_mutex);
}

static void *kmark_err_start(struct seq_file *m, loff_t *pos)
{
	struct kmark_instance *inst = m->private;

	mutex_lock(&inst->err_mutex);
	return seq_list_start(&inst->errs, *pos);
}

static void *kmark_err_next(struct seq_file *m, void *v, loff_t *pos)
{
	struct kmark_instance *inst = m->private;

	return seq_list_next(v, &inst->errs, pos);
}

static void kmark_err_stop(struct seq_file *m, void *v)
{
	struct kmark_instance *inst = m->private;

	mutex_unlock(&inst->err_mutex);
}

static int kmark_err_show(struct seq_file *m, void *v)
{
	struct kmark_err *e = list_entry(v, struct kmark_err, list);
	u64 sec = e->ts;
	u32 nsec = do_div(sec, NSEC_PER_SEC);

	seq_printf(m, "[%5llu.%06u] kmark: error: %s\n", sec, nsec / 1000,
		   e->msg);
	seq_printf(m, KMARK_CMD_PREFIX "%s\n", e->cmd);
	seq_printf(m, "%*s^\n", (int)(sizeof(KMARK_CMD_PREFIX) - 1 + e->pos), "");
	return 0;
}

static const struct seq_operations kmark_err_seq_ops = {
	.start = kmark_err_start,
	.next = kmark_err_next,
	.stop = kmark_err_stop,
	.show = kmark_err_show,
};

/* --- helpers ------------------------------------------------------------ */

int kmark_open_check(void)
{
	return security_locked_down(LOCKDOWN_TRACEFS);
}

/*
 * kmark's directory exists twice, with the same files and the same code:
 * in debugfs (/sys/kernel/debug/kmark) and, when the kernel has tracefs,
 * in tracefs (/sys/kernel/tracing/kmark). lockdown=integrity makes debugfs
 * refuse every writable file (LOCKDOWN_DEBUGFS) but leaves tracefs alone,
 * as it does for ftrace; lockdown=confidentiality refuses both, at open
 * (kmark_open_check()) and, for tracefs, already at creation.
 *
 * No file's private data points at anything that can be freed. Removing
 * a file does not wait for its readers and writers (tracefs never does;
 * debugfs files are made _unsafe), but debugfs does wait for the open()s
 * of it in progress. So: the files of events/NAME/ find their event by
 * name and may take kmark_mutex in read() and write(), never in open();
 * their directories are removed under kmark_mutex. An instance's own files
 * take kmark_mutex in open() (kmark_inst_get()): its directory is removed
 * without it (kmark_inst_teardown()).
 */
static struct dentry *kmark_fs_mkdir(int fs, const char *name,
				     struct dentry *parent)
{
	struct dentry *d = NULL;

	if (fs == KMARK_DEBUGFS)
		d = debugfs_create_dir(name, parent);
#ifdef CONFIG_TRACING
	else
		d = tracefs_create_dir(name, parent);
#endif
	return IS_ERR(d) ? NULL : d;
}

static void kmark_fs_rm(int fs, struct dentry *d)
{
	if (fs == KMARK_DEBUGFS)
		debugfs_remove(d);
#ifdef CONFIG_TRACING
	else
		tracefs_remove(d);
#endif
}

/**
 * kmark_fs_dir - a directory in each of kmark's two trees
 * @name:	its name
 * @parent:	where, or NULL for the top of debugfs and tracefs
 * @dir:	gets the new directories
 *
 * A tree whose @parent is missing (no tracefs, or tracefs refused at boot)
 * is skipped.
 *
 * Return: 0, or -ENOMEM with nothing created.
 */
int kmark_fs_dir(const char *name, const struct kmark_dir *parent,
		 struct kmark_dir *dir)
{
	int fs;

	for (fs = 0; fs < KMARK_NR_FS; fs++) {
		dir->d[fs] = NULL;
		if (parent && !parent->d[fs])
			continue;
		dir->d[fs] = kmark_fs_mkdir(fs, name,
					    parent ? parent->d[fs] : NULL);
		if (!dir->d[fs] && (parent || fs == KMARK_DEBUGFS)) {
			kmark_fs_remove(dir);
			return -ENOMEM;
		}
	}
	return 0;
}

/**
 * kmark_fs_file - a file in each of kmark's two trees
 * @name:	its name
 * @mode:	its mode
 * @parent:	the directories it goes in
 * @data:	its inode's i_private: never freed while the file exists
 * @fops:	what it does
 *
 * Return: 0, or -ENOMEM with nothing created.
 */
int kmark_fs_file(const char *name, umode_t mode,
		  const struct kmark_dir *parent, void *data,
		  const struct file_operations *fops)
{
	struct dentry *f[KMARK_NR_FS] = { };
	int fs;

	for (fs = 0; fs < KMARK_NR_FS; fs++) {
		if (!parent->d[fs])
			continue;
		/*
		 * _unsafe: debugfs_remove() does not wait for the file's
		 * users, as tracefs does not; the files are written for that.
		 */
		if (fs == KMARK_DEBUGFS)
			f[fs] = debugfs_create_file_unsafe(name, mode,
							   parent->d[fs], data,
							   fops);
#ifdef CONFIG_TRACING
		else
			f[fs] = tracefs_create_file(name, mode, parent->d[fs],
						    data, fops);
#endif
		if (IS_ERR_OR_NULL(f[fs])) {
			while (fs--)
				kmark_fs_rm(fs, f[fs]);
			return -ENOMEM;
		}
	}
	return 0;
}

/* Remove @dir and everything in it from both trees. */
void kmark_fs_remove(struct kmark_dir *dir)
{
	int fs;

	for (fs = 0; fs < KMARK_NR_FS; fs++) {
		kmark_fs_rm(fs, dir->d[fs]);
		dir->d[fs] = NULL;
	}
}

/* kmark's top directory in both trees; set once at boot. */
struct kmark_dir kmark_top;

/* A user's text command: at most a page, NUL-terminated. */
char *kmark_get_cmd(struct kmark_instance *inst, const char __user *ubuf,
		    size_t cnt)
{
	if (cnt >= PAGE_SIZE) {
		kmark_log_err(inst, "", 0, KMARK_ERR_TOO_LONG);
		return ERR_PTR(-E2BIG);
	}
	return memdup_user_nul(ubuf, cnt);
}

/*
 * The instance a file belongs to. The files of every instance (the top one
 * included) share their code; a file's inode holds no pointer to its
 * instance. The instance's directory is @depth levels up from the file
 * (1: a file of the instance's directory; 3: per_cpu/cpuN/FILE or
 * events/NAME/FILE), compared under kmark_mutex with the live instances'.
 * A file that uses its instance after open() holds it (@users), and
 * instances/remove refuses an instance that is held; the slots themselves
 * are never freed.
 */
#define KMARK_DEPTH_TOP	1
#define KMARK_DEPTH_CPU	3

static struct kmark_instance *kmark_inst_lookup(const struct file *file,
						int depth)
{
	struct dentry *d = file->f_path.dentry;
	int i, fs;

	lockdep_assert_held(&kmark_mutex);
	while (depth--)
		d = d->d_parent;
	for (i = 0; i < KMARK_MAX_INSTANCES; i++) {
		struct kmark_instance *inst = &kmark_instances[i];

		if (!inst->live)
			continue;
		for (fs = 0; fs < KMARK_NR_FS; fs++)
			if (inst->dir.d[fs] && inst->dir.d[fs] == d)
				return inst;
	}
	return NULL;
}

/*
 * At open(): the lockdown check, then hold @file's instance. Return: the
 * instance, ERR_PTR(-ENODEV) once it is removed, or the lockdown error.
 */
static struct kmark_instance *kmark_inst_get(const struct file *file,
					     int depth)
{
	struct kmark_instance *inst;
	int ret = kmark_open_check();

	if (ret)
		return ERR_PTR(ret);
	mutex_lock(&kmark_mutex);
	inst = kmark_inst_lookup(file, depth);
	if (inst)
		inst->users++;
	mutex_unlock(&kmark_mutex);
	return inst ?: ERR_PTR(-ENODEV);
}

static void kmark_inst_put(struct kmark_instance *inst)
{
	mutex_lock(&kmark_mutex);
	inst->users--;
	mutex_unlock(&kmark_mutex);
}

/* open() of a file whose private_data is its (held) instance. */
static int kmark_inst_open(struct inode *inode, struct file *file)
{
	struct kmark_instance *inst;

	inst = kmark_inst_get(file, KMARK_DEPTH_TOP);
	if (IS_ERR(inst))
		return PTR_ERR(inst);
	file->private_data = inst;
	return 0;
}

static int kmark_inst_release(struct inode *inode, struct file *file)
{
	kmark_inst_put(file->private_data);
	return 0;
}

/* The instance of a file opened with seq_open() (its private) or not. */
static struct kmark_instance *kmark_seq_inst(struct file *file)
{
	if (file->f_mode & FMODE_READ)
		return ((struct seq_file *)file->private_data)->private;
	return file->private_data;
}

static int kmark_err_log_open(struct inode *inode, struct file *file)
{
	struct kmark_instance *inst;
	int ret;

	inst = kmark_inst_get(file, KMARK_DEPTH_TOP);
	if (IS_ERR(inst))
		return PTR_ERR(inst);
	if ((file->f_mode & FMODE_WRITE) && (file->f_flags & O_TRUNC))
		kmark_err_log_clear(inst);
	if (!(file->f_mode & FMODE_READ)) {
		file->private_data = inst;
		return 0;
	}
	ret = seq_open(file, &kmark_err_seq_ops);
	if (ret) {
		kmark_inst_put(inst);
		return ret;
	}
	((struct seq_file *)file->private_data)->private = inst;
	return 0;
}

static ssize_t kmark_discard_write(struct file *file, const char __user *ubuf,
				   size_t cnt, loff_t *ppos)
{
	return cnt;
}

static int kmark_seq_release(struct inode *inode, struct file *file)
{
	if (file->f_mode & FMODE_READ)
		return seq_release(inode, file);
	return 0;
}

static int kmark_err_log_release(struct inode *inode, struct file *file)
{
	kmark_inst_put(kmark_seq_inst(file));
	return kmark_seq_release(inode, file);
}

static const struct file_operations kmark_err_log_fops = {
	.open = kmark_err_log_open,
	.read = seq_read,
	.write = kmark_discard_write,
	.llseek = seq_lseek,
	.release = kmark_err_log_release,
};

/* --- tracing_on, buffer_size_kb ------------------------------------------ */

int kmark_simple_open(struct inode *inode, struct file *file)
{
	return kmark_open_check();
}

static ssize_t kmark_read_ulong(char __user *ubuf, size_t cnt, loff_t *ppos,
				unsigned long val)
{
	char buf[24];
	int len = snprintf(buf, sizeof(buf), "%lu\n", val);

	return simple_read_from_buffer(ubuf, cnt, ppos, buf, len);
}

/* Parse a number written to @what; on failure log it and return -EINVAL. */
static int kmark_write_ulong(struct kmark_instance *inst,
			     const char __user *ubuf, size_t cnt,
			     unsigned long *val, const char *what)
{
	char *cmd = kmark_get_cmd(inst, ubuf, cnt);
	int ret;

	if (IS_ERR(cmd))
		return PTR_ERR(cmd);
	ret = kstrtoul(strim(cmd), 10, val);
	if (ret) {
		kmark_log_err(inst, cmd, 0, what);
		ret = -EINVAL;
	}
	kfree(cmd);
	return ret;
}

static ssize_t kmark_tracing_on_read(struct file *file, char __user *ubuf,
				     size_t cnt, loff_t *ppos)
{
	struct kmark_instance *inst = file->private_data;

	return kmark_read_ulong(ubuf, cnt, ppos, READ_ONCE(inst->tracing_on));
}

static ssize_t kmark_tracing_on_write(struct file *file,
				      const char __user *ubuf, size_t cnt,
				      loff_t *ppos)
{
	struct kmark_instance *inst = file->private_data;
	unsigned long val;
	int ret;

	ret = kmark_write_ulong(inst, ubuf, cnt, &val,
				"tracing_on takes a number: 1 (on) or 0 (off)");
	if (ret)
		return ret;
	WRITE_ONCE(inst->tracing_on, !!val);
	*ppos += cnt;
	return cnt;
}

static const struct file_operations kmark_tracing_on_fops = {
	.open = kmark_inst_open,
	.read = kmark_tracing_on_read,
	.write = kmark_tracing_on_write,
	.llseek = default_llseek,
	.release = kmark_inst_release,
};

static ssize_t kmark_buffer_kb_read(struct file *file, char __user *ubuf,
				    size_t cnt, loff_t *ppos)
{
	struct kmark_instance *inst = file->private_data;

	/* The size asked for, as ftrace shows it (pages round it up). */
	return kmark_read_ulong(ubuf, cnt, ppos, READ_ONCE(inst->buffer_kb));
}

#define KMARK_BUFFER_KB_MAX	(1UL << 20)	/* 1 GiB per CPU */

static ssize_t kmark_buffer_kb_write(struct file *file,
				     const char __user *ubuf, size_t cnt,
				     loff_t *ppos)
{
	struct kmark_instance *inst = file->private_data;
	unsigned long kb;
	int ret;

	ret = kmark_write_ulong(inst, ubuf, cnt, &kb,
				"buffer_size_kb takes a size in KiB per CPU");
	if (ret)
		return ret;
	if (!kb || kb > KMARK_BUFFER_KB_MAX) {
		kmark_log_err(inst, "buffer_size_kb", 0,
			      "Size out of range (1 to 1048576 KiB per CPU)");
		return -EINVAL;
	}
	mutex_lock(&kmark_mutex);
	ret = kmark_buffer_resize(inst, kb);
	mutex_unlock(&kmark_mutex);
	if (ret) {
		kmark_log_err(inst, "buffer_size_kb", 0,
			      "Could not resize the buffer (out of memory?)");
		return ret;
	}
	*ppos += cnt;
	return cnt;
}

static const struct file_operations kmark_buffer_kb_fops = {
	.open = kmark_inst_open,
	.read = kmark_buffer_kb_read,
	.write = kmark_buffer_kb_write,
	.llseek = default_llseek,
	.release = kmark_inst_release,
};

/* --- read_delay_ms, buffer_percent: batched wakeups of readers ------------ */

/* Which setting an open file is: data of the file. */
struct kmark_uint_setting {
	size_t off;		/* of the value in struct kmark_instance */
	unsigned int max;
	const char *err;
};

static const struct kmark_uint_setting kmark_read_delay_setting = {
	offsetof(struct kmark_instance, read_delay_ms), 10000,
	"read_delay_ms takes milliseconds, 0 to 10000",
};

static const struct kmark_uint_setting kmark_buffer_percent_setting = {
	offsetof(struct kmark_instance, buffer_percent), 100,
	"buffer_percent takes a percentage, 0 to 100",
};

static unsigned int *kmark_uint_val(struct file *file,
				    const struct kmark_uint_setting **stp)
{
	*stp = file_inode(file)->i_private;
	return (unsigned int *)((u8 *)file->private_data + (*stp)->off);
}

static ssize_t kmark_uint_read(struct file *file, char __user *ubuf,
			       size_t cnt, loff_t *ppos)
{
	const struct kmark_uint_setting *st;
	unsigned int *val = kmark_uint_val(file, &st);

	return kmark_read_ulong(ubuf, cnt, ppos, READ_ONCE(*val));
}

static ssize_t kmark_uint_write(struct file *file, const char __user *ubuf,
				size_t cnt, loff_t *ppos)
{
	const struct kmark_uint_setting *st;
	unsigned int *p = kmark_uint_val(file, &st);
	unsigned long val;
	int ret;

	ret = kmark_write_ulong(file->private_data, ubuf, cnt, &val, st->err);
	if (ret)
		return ret;
	if (val > st->max) {
		char num[24];

		snprintf(num, sizeof(num), "%lu", val);
		kmark_log_err(file->private_data, num, 0, st->err);
		return -EINVAL;
	}
	mutex_lock(&kmark_mutex);
	WRITE_ONCE(*p, val);
	mutex_unlock(&kmark_mutex);
	*ppos += cnt;
	return cnt;
}

static const struct file_operations kmark_uint_fops = {
	.open = kmark_inst_open,
	.read = kmark_uint_read,
	.write = kmark_uint_write,
	.llseek = default_llseek,
	.release = kmark_inst_release,
};

/* --- available_markers, set_event ---------------------------------------- */

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

static int kmark_available_show(struct seq_file *m, void *v)
{
	struct kmark_marker *mk = list_entry(v, struct kmark_marker, list);

	seq_printf(m, "%s ", mk->name);
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

static const struct seq_operations kmark_available_seq_ops = {
	.start = kmark_markers_start,
	.next = kmark_markers_next,
	.stop = kmark_markers_stop,
	.show = kmark_available_show,
};

static int kmark_available_open(struct inode *inode, struct file *file)
{
	int ret = kmark_open_check();

	return ret ? ret : seq_open(file, &kmark_available_seq_ops);
}

static const struct file_operations kmark_available_fops = {
	.open = kmark_available_open,
	.read = seq_read,
	.llseek = seq_lseek,
	.release = seq_release,
};

/* --- saved_comms: the table behind common_comm_id ------------------------ */

/*
 * Every name the records may hold, "ID NAME", in id order; then, if names
 * found no room, "# N records without a saved name" (each record whose
 * name found no room: it says id 0 and prints as <...>). Lock-free, like
 * the table: a name being added may be missed.
 */
static int kmark_comms_show(struct seq_file *m, void *v)
{
	char name[TASK_COMM_LEN];
	unsigned long missed;
	u32 id;

	for (id = 1; id <= KMARK_COMM_IDS; id++)
		if (kmark_comm_name(id, name))
			seq_printf(m, "%u %s\n", id, name);
	missed = kmark_comm_misses();
	if (missed)
		seq_printf(m, "# %lu records without a saved name\n", missed);
	return 0;
}

static int kmark_comms_open(struct inode *inode, struct file *file)
{
	int ret = kmark_open_check();

	return ret ? ret : single_open(file, kmark_comms_show, NULL);
}

static const struct file_operations kmark_comms_fops = {
	.open = kmark_comms_open,
	.read = seq_read,
	.llseek = seq_lseek,
	.release = single_release,
};

/* One open of set_event; see the comment at the top about O_TRUNC. */
struct kmark_set_event_file {
	struct kmark_instance *inst;	/* held */
	bool truncate_pending;
	bool failed;
};

static int kmark_set_event_show(struct seq_file *m, void *v)
{
	struct kmark_marker *mk = list_entry(v, struct kmark_marker, list);
	struct kmark_set_event_file *sef = m->private;
	bool on = mk->recording & BIT(sef->inst->idx);

	if (on && mk->module)
		seq_printf(m, "%s:%s\n", mk->module, mk->name);
	else if (on)
		seq_printf(m, "%s\n", mk->name);
	/* After the last event, the tokens waiting for their module. */
	if (list_is_last(&mk->list, &kmark_markers))
		kmark_pending_show(sef->inst, m);
	return 0;
}

static const struct seq_operations kmark_set_event_seq_ops = {
	.start = kmark_markers_start,
	.next = kmark_markers_next,
	.stop = kmark_markers_stop,
	.show = kmark_set_event_show,
};

static struct kmark_set_event_file *kmark_sef(struct file *file)
{
	if (file->f_mode & FMODE_READ)
		return ((struct seq_file *)file->private_data)->private;
	return file->private_data;
}

static int kmark_set_event_open(struct inode *inode, struct file *file)
{
	struct kmark_set_event_file *sef;
	struct kmark_instance *inst;
	int ret;

	sef = kzalloc(sizeof(*sef), GFP_KERNEL);
	if (!sef)
		return -ENOMEM;
	inst = kmark_inst_get(file, KMARK_DEPTH_TOP);
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
	return kmark_seq_release(inode, file);
}

static const struct file_operations kmark_set_event_fops = {
	.open = kmark_set_event_open,
	.read = seq_read,
	.write = kmark_set_event_write,
	.llseek = seq_lseek,
	.release = kmark_set_event_release,
};

/* --- reading the buffer -------------------------------------------------- */

/*
 * An instance's read_mutex serialises consumers of its buffer (trace_pipe
 * readers) and its dropped_seen, so that peek-then-consume sees one event.
 */
struct kmark_pipe {
	struct kmark_instance *inst;	/* held */
	struct mutex lock;	/* one reader of this open file at a time */
	char *buf;		/* rendered text not yet read */
	size_t len, off;
};

/* Hits dropped on @cpu since the readers last reported them. */
static unsigned long kmark_new_drops(struct kmark_instance *inst, int cpu)
{
	return kmark_dropped(inst, cpu) - inst->dropped_seen[cpu];
}

/*
 * Render and consume events, oldest first across CPUs, until @s is full
 * or the buffer is empty. Return: bytes rendered.
 */
static size_t kmark_pipe_fill(struct kmark_instance *inst, struct seq_buf *s)
{
	struct trace_buffer *buf = READ_ONCE(inst->buffer);
	struct ring_buffer_event *ev, *e;
	unsigned long lost, l, d;
	int cpu, best;
	u64 ts, t;

	mutex_lock(&inst->read_mutex);
	for (;;) {
		/*
		 * The oldest event across CPUs. What peek returns stays valid
		 * until it is consumed: only this reader consumes (the mutex),
		 * and writers never touch the reader page.
		 */
		best = -1;
		ev = NULL;
		ts = U64_MAX;
		lost = 0;
		for_each_possible_cpu(cpu) {
			e = ring_buffer_peek(buf, cpu, &t, &l);
			if (e && t < ts) {
				ev = e;
				ts = t;
				lost = l;
				best = cpu;
			}
		}
		if (best < 0) {
			/* Drops after the last event still get their note. */
			for_each_possible_cpu(cpu) {
				size_t before = seq_buf_used(s);

				d = kmark_new_drops(inst, cpu);
				if (!d)
					continue;
				seq_buf_printf(s, "CPU:%d [LOST %lu EVENTS]\n",
					       cpu, d);
				if (seq_buf_has_overflowed(s)) {
					s->len = before;
					break;
				}
				inst->dropped_seen[cpu] += d;
			}
			break;
		}
		d = kmark_new_drops(inst, best);
		if (!kmark_print_record(s, best, ts, ring_buffer_event_data(ev),
					ring_buffer_event_length(ev), lost, d))
			break;	/* kept for the next read */
		inst->dropped_seen[best] += d;
		ring_buffer_consume(buf, best, NULL, NULL);
	}
	mutex_unlock(&inst->read_mutex);
	return seq_buf_used(s);
}

static int kmark_pipe_open(struct inode *inode, struct file *file)
{
	struct kmark_instance *inst;
	struct kmark_pipe *p;
	int ret;

	inst = kmark_inst_get(file, KMARK_DEPTH_TOP);
	if (IS_ERR(inst))
		return PTR_ERR(inst);
	mutex_lock(&kmark_mutex);
	ret = kmark_buffer_ensure(inst);
	mutex_unlock(&kmark_mutex);
	if (ret)
		goto put;
	ret = -ENOMEM;
	p = kzalloc(sizeof(*p), GFP_KERNEL);
	if (!p)
		goto put;
	p->buf = kmalloc(PAGE_SIZE, GFP_KERNEL);
	if (!p->buf) {
		kfree(p);
		goto put;
	}
	p->inst = inst;
	mutex_init(&p->lock);
	file->private_data = p;
	atomic_inc(&inst->readers);
	return nonseekable_open(inode, file);
put:
	kmark_inst_put(inst);
	return ret;
}

static int kmark_pipe_release(struct inode *inode, struct file *file)
{
	struct kmark_pipe *p = file->private_data;

	atomic_dec(&p->inst->readers);
	kmark_inst_put(p->inst);
	mutex_destroy(&p->lock);
	kfree(p->buf);
	kfree(p);
	return 0;
}

/*
 * Wait for a batch of events (see the batch in kmark_record.c): the
 * read_delay_ms after its first event, or a CPU's buffer buffer_percent
 * full. Events recorded while nobody read start a batch now.
 */
static int kmark_batch_wait(struct kmark_instance *inst)
{
	if (!test_bit(KMARK_BATCH_STARTED, &inst->batch) &&
	    !ring_buffer_empty(inst->buffer))
		kmark_batch_start(inst);
	return wait_event_interruptible(inst->read_wq,
					test_bit(KMARK_BATCH_READY, &inst->batch));
}

static ssize_t kmark_pipe_read(struct file *file, char __user *ubuf,
			       size_t cnt, loff_t *ppos)
{
	struct kmark_pipe *p = file->private_data;
	struct kmark_instance *inst = p->inst;
	struct seq_buf s;
	ssize_t ret;

	if (!cnt)
		return 0;
	if (mutex_lock_interruptible(&p->lock))
		return -ERESTARTSYS;
	while (p->off == p->len) {
		if (!(file->f_flags & O_NONBLOCK)) {
			mutex_unlock(&p->lock);
			ret = kmark_batch_wait(inst);
			if (ret)
				return ret;
			if (mutex_lock_interruptible(&p->lock))
				return -ERESTARTSYS;
			if (p->off != p->len)
				break;
		}
		seq_buf_init(&s, p->buf, PAGE_SIZE);
		p->len = kmark_pipe_fill(inst, &s);
		p->off = 0;
		/* All read: the next event starts the next batch. */
		if (ring_buffer_empty(inst->buffer))
			kmark_batch_reset(inst);
		if (p->len)
			break;
		if (file->f_flags & O_NONBLOCK) {
			ret = -EAGAIN;
			goto out;
		}
	}
	ret = min(cnt, p->len - p->off);
	if (copy_to_user(ubuf, p->buf + p->off, ret)) {
		ret = -EFAULT;
		goto out;
	}
	p->off += ret;
out:
	mutex_unlock(&p->lock);
	return ret;
}

/* Readable once a batch is ready (or text is left from the last read). */
static __poll_t kmark_pipe_poll(struct file *file, poll_table *pt)
{
	struct kmark_pipe *p = file->private_data;
	struct kmark_instance *inst = p->inst;

	poll_wait(file, &inst->read_wq, pt);
	if (READ_ONCE(p->off) != READ_ONCE(p->len))
		return EPOLLIN | EPOLLRDNORM;
	if (ring_buffer_empty(inst->buffer)) {
		/*
		 * A batch left ready by a reader that went away, or by a
		 * clear: the next event must start a new one (it would see
		 * READY and wake nobody).
		 */
		if (test_bit(KMARK_BATCH_READY, &inst->batch))
			kmark_batch_reset(inst);
		return 0;
	}
	if (test_bit(KMARK_BATCH_READY, &inst->batch))
		return EPOLLIN | EPOLLRDNORM;
	if (!test_bit(KMARK_BATCH_STARTED, &inst->batch))
		kmark_batch_start(inst);
	return 0;
}

static const struct file_operations kmark_pipe_fops = {
	.open = kmark_pipe_open,
	.read = kmark_pipe_read,
	.poll = kmark_pipe_poll,
	.release = kmark_pipe_release,
};

/*
 * trace: a non-consuming walk over per-CPU iterators, oldest first, of the
 * events in the buffer when the walk began (a read from offset 0): none
 * recorded after @end_ts, the buffer's clock then, and at most as many as
 * the buffer held then (@end counts them, after the header at 0).
 * Recording goes on meanwhile, and the ring buffer resets an iterator whose
 * page a writer overwrote, or that a consuming reader (trace_pipe) passed,
 * to the oldest event left: without the bounds, a walk under a busy writer
 * never ended (the storm's cat of an instance's trace wrote 200 MB).
 */
struct kmark_trace_iter {
	struct kmark_instance *inst;		/* held */
	struct ring_buffer_iter **iters;	/* [nr_cpu_ids] */
	loff_t idx;		/* index of the event the walk is at */
	int cpu;		/* CPU of that event, -1 at the end */
	u64 end_ts;		/* events after this are not shown */
	loff_t end;		/* the walk ends at this index */
	char *line;
};

static int kmark_iter_pick(struct kmark_trace_iter *it)
{
	u64 ts, best_ts = U64_MAX;
	int cpu;

	it->cpu = -1;
	for_each_possible_cpu(cpu) {
		if (!it->iters[cpu] || !ring_buffer_iter_peek(it->iters[cpu], &ts))
			continue;
		if (ts <= it->end_ts && ts < best_ts) {
			best_ts = ts;
			it->cpu = cpu;
		}
	}
	return it->cpu;
}

static void kmark_trace_rewind(struct kmark_trace_iter *it)
{
	int cpu;

	for_each_possible_cpu(cpu)
		if (it->iters[cpu])
			ring_buffer_iter_reset(it->iters[cpu]);
	it->idx = 0;
}

static void *kmark_trace_start(struct seq_file *m, loff_t *pos)
{
	struct kmark_trace_iter *it = m->private;

	if (*pos == 0) {
		/* A read from the start (again, after lseek or pread). */
		kmark_trace_rewind(it);
		it->end_ts = ring_buffer_time_stamp(it->inst->buffer);
		it->end = 1 + ring_buffer_entries(it->inst->buffer);
		return SEQ_START_TOKEN;
	}
	if (*pos >= it->end)
		return NULL;
	if (*pos != it->idx) {
		/* Restart the walk and skip to *pos (seq_file re-reads). */
		kmark_trace_rewind(it);
		for (it->idx = 1; it->idx < *pos; it->idx++) {
			if (kmark_iter_pick(it) < 0)
				return NULL;
			ring_buffer_iter_advance(it->iters[it->cpu]);
		}
	}
	return kmark_iter_pick(it) < 0 ? NULL : it;
}

static void *kmark_trace_next(struct seq_file *m, void *v, loff_t *pos)
{
	struct kmark_trace_iter *it = m->private;

	if (v != SEQ_START_TOKEN && it->cpu >= 0)
		ring_buffer_iter_advance(it->iters[it->cpu]);
	++*pos;
	it->idx = *pos;
	if (*pos >= it->end)
		return NULL;
	return kmark_iter_pick(it) < 0 ? NULL : it;
}

static void kmark_trace_stop(struct seq_file *m, void *v)
{
}

static int kmark_trace_show(struct seq_file *m, void *v)
{
	struct kmark_trace_iter *it = m->private;
	struct ring_buffer_event *ev;
	struct seq_buf s;
	u64 ts;

	seq_buf_init(&s, it->line, PAGE_SIZE);
	if (v == SEQ_START_TOKEN) {
		unsigned long entries = 0, written = 0;
		int cpu;

		for_each_possible_cpu(cpu) {
			struct trace_buffer *b = it->inst->buffer;

			entries += ring_buffer_entries_cpu(b, cpu);
			written += ring_buffer_entries_cpu(b, cpu) +
				   ring_buffer_overrun_cpu(b, cpu);
		}
		kmark_print_header(&s, entries, written);
	} else {
		bool lost = ring_buffer_iter_dropped(it->iters[it->cpu]);

		ev = ring_buffer_iter_peek(it->iters[it->cpu], &ts);
		if (!ev)
			return 0;
		kmark_print_record(&s, it->cpu, ts, ring_buffer_event_data(ev),
				   ring_buffer_event_length(ev),
				   lost ? ULONG_MAX : 0, 0);
	}
	seq_write(m, it->line, seq_buf_used(&s));
	return 0;
}

static const struct seq_operations kmark_trace_seq_ops = {
	.start = kmark_trace_start,
	.next = kmark_trace_next,
	.stop = kmark_trace_stop,
	.show = kmark_trace_show,
};

static int kmark_trace_release(struct inode *inode, struct file *file)
{
	struct kmark_trace_iter *it;
	int cpu;

	if (!(file->f_mode & FMODE_READ)) {
		kmark_inst_put(file->private_data);
		return 0;
	}
	it = ((struct seq_file *)file->private_data)->private;
	for_each_possible_cpu(cpu)
		if (it->iters && it->iters[cpu])
			ring_buffer_read_finish(it->iters[cpu]);
	kmark_inst_put(it->inst);
	kfree(it->iters);
	kfree(it->line);
	return seq_release_private(inode, file);
}

static int kmark_trace_open(struct inode *inode, struct file *file)
{
	struct kmark_instance *inst;
	struct kmark_trace_iter *it;
	int ret, cpu;

	inst = kmark_inst_get(file, KMARK_DEPTH_TOP);
	if (IS_ERR(inst))
		return PTR_ERR(inst);
	mutex_lock(&kmark_mutex);
	ret = kmark_buffer_ensure(inst);
	if (!ret && (file->f_mode & FMODE_WRITE) && (file->f_flags & O_TRUNC)) {
		mutex_lock(&inst->read_mutex);
		kmark_buffer_clear(inst);
		memset(inst->dropped_seen, 0,
		       nr_cpu_ids * sizeof(*inst->dropped_seen));
		mutex_unlock(&inst->read_mutex);
	}
	mutex_unlock(&kmark_mutex);
	if (ret) {
		kmark_inst_put(inst);
		return ret;
	}
	if (!(file->f_mode & FMODE_READ)) {
		file->private_data = inst;
		return 0;
	}
	it = __seq_open_private(file, &kmark_trace_seq_ops, sizeof(*it));
	if (!it) {
		kmark_inst_put(inst);
		return -ENOMEM;
	}
	it->inst = inst;
	it->iters = kcalloc(nr_cpu_ids, sizeof(*it->iters), GFP_KERNEL);
	it->line = kmalloc(PAGE_SIZE, GFP_KERNEL);
	if (!it->iters || !it->line)
		goto nomem;
	/* NULL for CPUs the buffer does not cover (never online). */
	for_each_possible_cpu(cpu)
		it->iters[cpu] = ring_buffer_read_start(inst->buffer, cpu,
							GFP_KERNEL);
	return 0;
nomem:
	kmark_trace_release(inode, file);
	return -ENOMEM;
}

static const struct file_operations kmark_trace_fops = {
	.open = kmark_trace_open,
	.read = seq_read,
	.write = kmark_discard_write,
	.llseek = seq_lseek,
	.release = kmark_trace_release,
};

/* --- per_cpu/cpuN/trace_pipe_raw ------------------------------------------ */

/*
 * Whole ring-buffer pages, as ftrace's trace_pipe_raw gives them: the page
 * header (timestamp, commit) and the compressed event headers that
 * events/header_page and events/header_event describe, then the records
 * that events/NAME/format describes. Consuming. A blocking read (or poll)
 * waits until buffer_percent of the CPU's pages are filled, as ftrace's
 * splice does; O_NONBLOCK reads take what there is.
 */
struct kmark_raw {
	struct kmark_instance *inst;	/* held */
	struct mutex lock;	/* one reader of this open file at a time */
	int cpu;
	struct buffer_data_read_page *page;
	size_t size;		/* bytes in a page */
	size_t off;		/* bytes of the page already read; size: none */
};

static int kmark_raw_open(struct inode *inode, struct file *file)
{
	struct kmark_instance *inst;
	struct kmark_raw *r;
	int ret;

	inst = kmark_inst_get(file, KMARK_DEPTH_CPU);
	if (IS_ERR(inst))
		return PTR_ERR(inst);
	mutex_lock(&kmark_mutex);
	ret = kmark_buffer_ensure(inst);
	mutex_unlock(&kmark_mutex);
	if (ret)
		goto put;
	ret = -ENOMEM;
	r = kzalloc(sizeof(*r), GFP_KERNEL);
	if (!r)
		goto put;
	r->inst = inst;
	r->cpu = (long)inode->i_private;
	ret = ring_buffer_alloc_read_page(inst->buffer, r->cpu, &r->page);
	if (ret) {
		kfree(r);
		goto put;
	}
	r->size = ring_buffer_read_page_size(r->page);
	r->off = r->size;
	mutex_init(&r->lock);
	file->private_data = r;
	return nonseekable_open(inode, file);
put:
	kmark_inst_put(inst);
	return ret;
}

static int kmark_raw_release(struct inode *inode, struct file *file)
{
	struct kmark_raw *r = file->private_data;

	ring_buffer_free_read_page(r->inst->buffer, r->cpu, r->page);
	kmark_inst_put(r->inst);
	mutex_destroy(&r->lock);
	kfree(r);
	return 0;
}

static ssize_t kmark_raw_read(struct file *file, char __user *ubuf,
			      size_t cnt, loff_t *ppos)
{
	struct kmark_raw *r = file->private_data;
	struct kmark_instance *inst = r->inst;
	ssize_t ret;

	if (!cnt)
		return 0;
	if (mutex_lock_interruptible(&r->lock))
		return -ERESTARTSYS;
	while (r->off == r->size) {
		/* Consumers of the buffer take turns (see kmark_pipe_fill()). */
		mutex_lock(&inst->read_mutex);
		ret = ring_buffer_read_page(inst->buffer, r->page, r->size,
					    r->cpu, 0);
		mutex_unlock(&inst->read_mutex);
		if (ret >= 0) {
			r->off = 0;
			break;
		}
		if (file->f_flags & O_NONBLOCK) {
			ret = -EAGAIN;
			goto out;
		}
		mutex_unlock(&r->lock);
		/* As ftrace's splice: wait for buffer_percent of the CPU's pages. */
		ret = ring_buffer_wait(inst->buffer, r->cpu,
				       READ_ONCE(inst->buffer_percent), NULL, NULL);
		if (ret)
			return ret;
		if (mutex_lock_interruptible(&r->lock))
			return -ERESTARTSYS;
	}
	ret = min(cnt, r->size - r->off);
	if (copy_to_user(ubuf, (u8 *)ring_buffer_read_page_data(r->page) + r->off,
			 ret)) {
		ret = -EFAULT;
		goto out;
	}
	r->off += ret;
out:
	mutex_unlock(&r->lock);
	return ret;
}

static __poll_t kmark_raw_poll(struct file *file, poll_table *pt)
{
	struct kmark_raw *r = file->private_data;

	if (READ_ONCE(r->off) != r->size)
		return EPOLLIN | EPOLLRDNORM;
	return ring_buffer_poll_wait(r->inst->buffer, r->cpu, file, pt,
				     READ_ONCE(r->inst->buffer_percent));
}

static const struct file_operations kmark_raw_fops = {
	.open = kmark_raw_open,
	.read = kmark_raw_read,
	.poll = kmark_raw_poll,
	.release = kmark_raw_release,
};

/* --- events/: the binary format -------------------------------------------- */

/*
 * Each instance's events/ in both trees, and its group directories
 * (events/GROUP/ for "GROUP/EVENT" names, kept once made): inst->events
 * and inst->groups, under kmark_mutex.
 */

struct kmark_group {
	struct list_head list;
	struct kmark_dir dir;
	char name[];
};

/* A mirror of ring_buffer.c's struct buffer_data_page, for header_page. */
struct kmark_rb_page {
	u64 time_stamp;
	local_t commit;
	unsigned char data[];
};

/* events/header_page, as ring_buffer_print_page_header() prints it. */
static int kmark_header_page_show(struct seq_file *m, void *v)
{
	unsigned int size = PAGE_SIZE;

	mutex_lock(&kmark_mutex);
	if (kmark_top_inst->buffer)
		size = ring_buffer_subbuf_size_get(kmark_top_inst->buffer);
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
 * The event a file of events/NAME/ is for, found by the file's directory
 * names, and the instance whose events/ it is in. The format and id files
 * are the top instance's only and look under RCU (markers are freed a
 * grace period after they leave kmark_ids); the filter files of every
 * instance look under kmark_mutex (@any). NULL once the event or the
 * instance is gone. The files hold no pointer to either: their directory
 * is removed without waiting for them.
 */
static struct kmark_marker *kmark_file_event(const struct file *file,
					     bool any,
					     struct kmark_instance **instp)
{
	struct dentry *d = file->f_path.dentry->d_parent;
	char name[KMARK_NAME_MAX];
	int i, fs;

	for (i = 0; i < (any ? KMARK_MAX_INSTANCES : 1); i++) {
		struct kmark_instance *inst = &kmark_instances[i];

		if (!READ_ONCE(inst->live))
			continue;
		for (fs = 0; fs < KMARK_NR_FS; fs++) {
			struct dentry *ev = READ_ONCE(inst->events.d[fs]);

			if (!ev)
				continue;
			if (d->d_parent == ev)
				snprintf(name, sizeof(name), "%pd", d);
			else if (d->d_parent->d_parent == ev)
				snprintf(name, sizeof(name), "%pd2", d);
			else
				continue;
			if (instp)
				*instp = inst;
			return kmark_marker_by_name_rcu(name);
		}
	}
	return NULL;
}

static int kmark_format_show(struct seq_file *sf, void *v)
{
	char *buf = kmalloc(PAGE_SIZE, GFP_KERNEL);
	struct kmark_marker *m;
	struct seq_buf s;

	if (!buf)
		return -ENOMEM;
	seq_buf_init(&s, buf, PAGE_SIZE);
	rcu_read_lock();
	m = kmark_file_event(sf->file, false, NULL);
	if (m)
		kmark_print_format(&s, m);
	rcu_read_unlock();
	seq_write(sf, buf, seq_buf_used(&s));
	kfree(buf);
	return m ? 0 : -ENODEV;
}

static int kmark_id_show(struct seq_file *sf, void *v)
{
	struct kmark_marker *m;

	rcu_read_lock();
	m = kmark_file_event(sf->file, false, NULL);
	if (m)
		seq_printf(sf, "%u\n", m->id);
	rcu_read_unlock();
	return m ? 0 : -ENODEV;
}

#define KMARK_SHOW_FOPS(_name)						\
static int _name##_open(struct inode *inode, struct file *file)	\
{									\
	int ret = kmark_open_check();					\
									\
	return ret ? ret : single_open(file, _name##_show,		\
				       inode->i_private);		\
}									\
static const struct file_operations _name##_fops = {			\
	.open = _name##_open,						\
	.read = seq_read,						\
	.llseek = seq_lseek,						\
	.release = single_release,					\
}

KMARK_SHOW_FOPS(kmark_header_page);
KMARK_SHOW_FOPS(kmark_header_event);
KMARK_SHOW_FOPS(kmark_format);
KMARK_SHOW_FOPS(kmark_id);

/*
 * events/NAME/filter: reads "none" or the filter as written; a write
 * replaces it ("0" or nothing clears it); one that does not parse changes
 * nothing and explains itself in error_log. Each instance has its own.
 */
static ssize_t kmark_filter_read(struct file *file, char __user *ubuf,
				 size_t cnt, loff_t *ppos)
{
	struct kmark_instance *inst = NULL;
	struct kmark_filter *flt = NULL;
	struct kmark_marker *m;
	ssize_t ret;
	char *buf;

	buf = kmalloc(KMARK_FILTER_TEXT_MAX + 2, GFP_KERNEL);
	if (!buf)
		return -ENOMEM;
	mutex_lock(&kmark_mutex);
	m = kmark_file_event(file, true, &inst);
	if (m)
		flt = rcu_dereference_protected(m->filter[inst->idx],
						lockdep_is_held(&kmark_mutex));
	snprintf(buf, KMARK_FILTER_TEXT_MAX + 2, "%s\n",
		 flt ? kmark_filter_text(flt) : "none");
	mutex_unlock(&kmark_mutex);
	ret = m ? simple_read_from_buffer(ubuf, cnt, ppos, buf, strlen(buf)) :
		  -ENODEV;
	kfree(buf);
	return ret;
}

static ssize_t kmark_filter_write(struct file *file, const char __user *ubuf,
				  size_t cnt, loff_t *ppos)
{
	struct kmark_instance *inst = kmark_top_inst;
	struct kmark_filter *flt = NULL;
	struct kmark_marker *m;
	unsigned int pos = 0;
	const char *err;
	char *text, *t;
	int ret = 0;

	text = cnt > KMARK_FILTER_TEXT_MAX ? ERR_PTR(-E2BIG) :
	       memdup_user_nul(ubuf, cnt);
	mutex_lock(&kmark_mutex);
	m = kmark_file_event(file, true, &inst);
	if (IS_ERR(text)) {
		if (PTR_ERR(text) == -E2BIG)
			kmark_log_err(inst, "", 0, KMARK_ERR_TOO_LONG);
		mutex_unlock(&kmark_mutex);
		return PTR_ERR(text);
	}
	t = strim(text);
	if (!m) {
		ret = -ENODEV;
	} else if (*t && strcmp(t, "0")) {
		flt = kmark_filter_compile(m->layout, t, &err, &pos);
		if (IS_ERR(flt)) {
			ret = PTR_ERR(flt);
			kmark_log_err(inst, t, pos, err);
		}
	}
	if (!ret)
		kmark_filter_set(m, inst, flt);
	mutex_unlock(&kmark_mutex);
	kfree(text);
	if (ret)
		return ret;
	*ppos += cnt;
	return cnt;
}

static const struct file_operations kmark_filter_fops = {
	.open = kmark_simple_open,
	.read = kmark_filter_read,
	.write = kmark_filter_write,
	.llseek = default_llseek,
};

/* @inst's events/GROUP/, made if need be; NULL when out of memory. */
static struct kmark_group *kmark_group_get(struct kmark_instance *inst,
					   const char *name, size_t len,
					   bool *made)
{
	struct kmark_group *g;

	*made = false;
	list_for_each_entry(g, &inst->groups, list)
		if (strlen(g->name) == len && !strncmp(g->name, name, len))
			return g;
	g = kzalloc(struct_size(g, name, len + 1), GFP_KERNEL);
	if (!g)
		return NULL;
	memcpy(g->name, name, len);
	if (kmark_fs_dir(g->name, &inst->events, &g->dir)) {
		kfree(g);
		return NULL;
	}
	list_add_tail(&g->list, &inst->groups);
	*made = true;
	return g;
}

/* Forget @inst's group directories (its events/ is being removed). */
static void kmark_groups_free(struct kmark_instance *inst)
{
	struct kmark_group *g, *tmp;

	list_for_each_entry_safe(g, tmp, &inst->groups, list) {
		list_del(&g->list);
		kfree(g);
	}
}

/* events/NAME/ of @m in instance @inst; see kmark_event_dir_create(). */
static int kmark_event_dir_create_inst(struct kmark_marker *m,
				       struct kmark_instance *inst)
{
	const char *slash = strchr(m->name, '/');
	const struct kmark_dir *parent = &inst->events;
	struct kmark_group *group = NULL;
	struct kmark_dir *ed;
	bool made = false;

	if (!inst->events.d[KMARK_DEBUGFS] || m->edir[inst->idx])
		return 0;
	ed = kzalloc(sizeof(*ed), GFP_KERNEL);
	if (!ed)
		return -ENOMEM;
	if (slash) {
		group = kmark_group_get(inst, m->name, slash - m->name, &made);
		if (!group)
			goto nomem;
		parent = &group->dir;
	}
	if (kmark_fs_dir(m->event, parent, ed))
		goto nomem_group;
	/* The format and id are the same everywhere: the top one has them. */
	if ((!inst->idx &&
	     (kmark_fs_file("format", 0400, ed, NULL, &kmark_format_fops) ||
	      kmark_fs_file("id", 0400, ed, NULL, &kmark_id_fops))) ||
	    kmark_fs_file("filter", 0600, ed, NULL, &kmark_filter_fops))
		goto nomem_dir;
	m->edir[inst->idx] = ed;
	return 0;
nomem_dir:
	kmark_fs_remove(ed);
nomem_group:
	if (made) {	/* a group made for this event only */
		list_del(&group->list);
		kmark_fs_remove(&group->dir);
		kfree(group);
	}
nomem:
	kfree(ed);
	return -ENOMEM;
}

/* Forget an event's events/NAME/ record of one instance (files left alone). */
static void kmark_event_dir_forget_inst(struct kmark_marker *m,
					struct kmark_instance *inst)
{
	kfree(m->edir[inst->idx]);
	m->edir[inst->idx] = NULL;
}

static void kmark_event_dir_remove_inst(struct kmark_marker *m,
					struct kmark_instance *inst)
{
	if (!m->edir[inst->idx])
		return;
	kmark_fs_remove(m->edir[inst->idx]);
	kmark_event_dir_forget_inst(m, inst);
}

/**
 * kmark_event_dir_create - events/NAME/ for an event, in every instance
 * @m:	the event ("GROUP/EVENT" names get events/GROUP/EVENT/)
 *
 * Called under kmark_mutex, for each marker once the events directory
 * exists and for each new kprobe event before it is added.
 *
 * Return: 0 (also when the events directory does not exist yet: it gets
 * the event's then), or -ENOMEM, with nothing created.
 */
int kmark_event_dir_create(struct kmark_marker *m)
{
	int i;

	lockdep_assert_held(&kmark_mutex);
	for (i = 0; i < KMARK_MAX_INSTANCES; i++) {
		if (!kmark_instances[i].live)
			continue;
		if (kmark_event_dir_create_inst(m, &kmark_instances[i])) {
			kmark_event_dir_remove(m);
			return -ENOMEM;
		}
	}
	return 0;
}

/*
 * Give @from's events/NAME/ to @to (same name); under kmark_mutex. The
 * files find their event by name, so they show @to from now on.
 */
void kmark_event_dir_move(struct kmark_marker *from, struct kmark_marker *to)
{
	int i;

	lockdep_assert_held(&kmark_mutex);
	for (i = 0; i < KMARK_MAX_INSTANCES; i++) {
		to->edir[i] = from->edir[i];
		from->edir[i] = NULL;
	}
}

/* Remove events/NAME/ (its open files fail from now on). Under kmark_mutex. */
void kmark_event_dir_remove(struct kmark_marker *m)
{
	int i;

	lockdep_assert_held(&kmark_mutex);
	for (i = 0; i < KMARK_MAX_INSTANCES; i++)
		kmark_event_dir_remove_inst(m, &kmark_instances[i]);
}

/* --- per_cpu/cpuN/stats --------------------------------------------------- */

static void kmark_print_ts_line(struct seq_file *m, const char *what, u64 ts)
{
	u64 usecs = div_u64(ts, NSEC_PER_USEC);
	u32 rem;
	u64 secs = div_u64_rem(usecs, USEC_PER_SEC, &rem);

	seq_printf(m, "%s: %5llu.%06u\n", what, secs, rem);
}

static int kmark_stats_show(struct seq_file *m, void *v)
{
	struct kmark_instance *inst = m->private;
	int cpu = (long)file_inode(m->file)->i_private;
	struct trace_buffer *b;

	mutex_lock(&kmark_mutex);
	b = inst->buffer;
	if (b) {
		seq_printf(m, "entries: %lu\n", ring_buffer_entries_cpu(b, cpu));
		seq_printf(m, "overrun: %lu\n", ring_buffer_overrun_cpu(b, cpu));
		seq_printf(m, "commit overrun: %lu\n",
			   ring_buffer_commit_overrun_cpu(b, cpu));
		seq_printf(m, "bytes: %lu\n", ring_buffer_bytes_cpu(b, cpu));
		kmark_print_ts_line(m, "oldest event ts",
				    ring_buffer_oldest_event_ts(b, cpu));
		kmark_print_ts_line(m, "now ts", ring_buffer_time_stamp(b));
		seq_printf(m, "dropped events: %lu\n",
			   kmark_dropped(inst, cpu) +
			   ring_buffer_dropped_events_cpu(b, cpu));
		seq_printf(m, "read events: %lu\n",
			   ring_buffer_read_events_cpu(b, cpu));
	} else {
		seq_puts(m, "entries: 0\noverrun: 0\ncommit overrun: 0\nbytes: 0\n"
			 "oldest event ts:     0.000000\nnow ts:     0.000000\n"
			 "dropped events: 0\nread events: 0\n");
	}
	seq_printf(m, "written: %lu\n", kmark_written(inst, cpu));
	mutex_unlock(&kmark_mutex);
	return 0;
}

static int kmark_stats_open(struct inode *inode, struct file *file)
{
	struct kmark_instance *inst;
	int ret;

	inst = kmark_inst_get(file, KMARK_DEPTH_CPU);
	if (IS_ERR(inst))
		return PTR_ERR(inst);
	ret = single_open(file, kmark_stats_show, inst);
	if (ret)
		kmark_inst_put(inst);
	return ret;
}

static int kmark_stats_release(struct inode *inode, struct file *file)
{
	kmark_inst_put(((struct seq_file *)file->private_data)->private);
	return single_release(inode, file);
}

static const struct file_operations kmark_stats_fops = {
	.open = kmark_stats_open,
	.read = seq_read,
	.llseek = seq_lseek,
	.release = kmark_stats_release,
};

/* --- trace_marker ------------------------------------------------------------ */

/*
 * trace_marker: each write records its text as a tracing_mark_write event
 * with the writer's task, pid, CPU and flags (ftrace's habit; Perfetto
 * draws atrace's "B|pid|name" and "E|pid" lines from it as slices); one
 * trailing newline is dropped. As ftrace's, a longer write than an event
 * holds records what it holds and returns that (a partial write: the
 * writer goes on with the rest); ftrace's limit is 4096 bytes, kmark's
 * 3968 (its text line must fit in a page) or less when a ring-buffer page
 * holds less,
 * and a write while tracing_on is 0 fails with EBADF. It records whenever
 * tracing is on, so the event is in neither available_markers nor
 * set_event; events/tracing_mark_write/ has its format and its filter.
 */
/* ftrace's 4096, less room for the text line's prefix (a line is a page). */
#define KMARK_MARKER_MAX	(PAGE_SIZE - 128)

static struct kmark_marker *kmark_mark_write;

static int __init kmark_mark_write_init(void)
{
	struct kmark_marker *m;
	const char *err;
	unsigned int pos;
	int ret;

	m = kzalloc(sizeof(*m), GFP_KERNEL);
	if (!m)
		return -ENOMEM;
	m->name = "tracing_mark_write";
	m->event = m->name;
	m->format = "%s";
	m->layout = kmark_parse_format(m->format, &err, &pos);
	if (IS_ERR(m->layout)) {
		kfree(m);
		return -ENOMEM;
	}
	/* ftrace's print event calls it buf; its slot is a pointer wide. */
	strscpy(m->layout->fields[0].name, "buf");
	m->layout->fields[0].offset = KMARK_HDR_SIZE;
	m->layout->fields[0].size = sizeof(u32);
	m->layout->size = KMARK_HDR_SIZE + sizeof(void *);
	kmark_layout_finish(m->layout);
	mutex_lock(&kmark_mutex);
	ret = kmark_dynamic_alloc_id(m);
	mutex_unlock(&kmark_mutex);
	if (ret) {
		kmark_free_layout(m->layout);
		kfree(m);
		return ret;
	}
	kmark_mark_write = m;
	return 0;
}

static ssize_t kmark_trace_marker_write(struct file *file,
					const char __user *ubuf, size_t cnt,
					loff_t *ppos)
{
	struct kmark_instance *inst = file->private_data;
	struct kmark_marker *m = kmark_mark_write;
	struct trace_buffer *b;
	size_t max, len;
	char *text;
	int ret;

	if (!m)
		return -ENODEV;
	if ((ssize_t)cnt < 0)
		return -EINVAL;
	b = READ_ONCE(inst->buffer);
	if (!b) {
		mutex_lock(&kmark_mutex);
		ret = kmark_buffer_ensure(inst);
		b = inst->buffer;
		mutex_unlock(&kmark_mutex);
		if (ret)
			return ret;
	}
	max = min_t(size_t, KMARK_MARKER_MAX,
		    ring_buffer_max_event_size(b) - m->layout->size - 1);
	cnt = min(cnt, max);
	text = memdup_user_nul(ubuf, cnt);
	if (IS_ERR(text))
		return PTR_ERR(text);
	len = strnlen(text, cnt);
	if (len && text[len - 1] == '\n')
		text[--len] = '\0';
	ret = kmark_record_text(inst, m, text, len);
	kfree(text);
	if (ret)
		return ret;
	*ppos += cnt;
	return cnt;
}

static const struct file_operations kmark_trace_marker_fops = {
	.open = kmark_inst_open,
	.write = kmark_trace_marker_write,
	.llseek = noop_llseek,
	.release = kmark_inst_release,
};

/* --- README ---------------------------------------------------------------- */

static const char kmark_readme[] =
	"kmark: static markers, ftrace style. Files in this directory:\n\n"
	"  tracing_on\t\t- 1 records events, 0 stops recording at once\n"
	"  available_markers\t- every marker: 'name format'\n"
	"  saved_comms\t\t- the task names records hold by id: 'id name'\n"
	"  set_event\t\t- enabled markers; write names or globs to enable:\n"
	"\t\t\t  echo sched_switch > set_event    enable only it\n"
	"\t\t\t  echo 'sched_*' >> set_event      add all matching\n"
	"\t\t\t  echo '!sched_wakeup' >> set_event disable one\n"
	"\t\t\t  echo > set_event                  disable all\n"
	"\t\t\t  A bad name or glob fails with EINVAL, changes nothing\n"
	"\t\t\t  and explains itself in error_log.\n"
	"  trace_pipe\t\t- read and consume events; a blocked reader is woken\n"
	"\t\t\t  read_delay_ms after the first new event, or when a\n"
	"\t\t\t  CPU's buffer is buffer_percent full\n"
	"  read_delay_ms\t\t- at most this long an event waits for a blocked\n"
	"\t\t\t  reader (default 50; 0: wake at every event)\n"
	"  buffer_percent\t- wake readers early at this fill (default 50);\n"
	"\t\t\t  trace_pipe_raw readers wait for it, as ftrace's\n"
	"  per_cpu/cpuN/trace_pipe_raw - ring-buffer pages (ftrace's format)\n"
	"  events/NAME/format\t- the record layout of each event\n"
	"  events/NAME/filter\t- record only what matches, ftrace's grammar:\n"
	"\t\t\t  echo 'prev_pid == 1 || next_comm ~ \"k*\"' > filter\n"
	"\t\t\t  echo 0 > filter                   clear it\n"
	"  trace\t\t\t- read events without consuming; 'echo > trace' clears\n"
	"  buffer_size_kb\t- ring buffer size per CPU, in KiB\n"
	"  per_cpu/cpuN/stats\t- entries, overrun, dropped, read, written\n"
	"  trace_marker\t\t- write text to record it: tracing_mark_write\n"
	"  set_event_pid\t\t- record only these pids' events ('>' replaces,\n"
	"\t\t\t  '>>' adds, 'echo > set_event_pid' clears)\n"
	"  set_event_notrace_pid\t- never record these pids' events\n"
	"  options/event-fork\t- 1: children of listed pids are listed too\n"
	"  error_log\t\t- last errors with the command and a caret;\n"
	"\t\t\t  'echo > error_log' clears it\n"
	"  instances/new\t\t- 'echo NAME > instances/new' makes instances/NAME/,\n"
	"\t\t\t  a session of its own: tracing_on, set_event, trace,\n"
	"\t\t\t  trace_pipe, buffer_size_kb, per_cpu/, events/*/filter,\n"
	"\t\t\t  trace_marker, error_log (at most 7)\n"
	"  instances/remove\t- 'echo NAME > instances/remove' (refused while\n"
	"\t\t\t  a reader of it is open)\n\n"
	"  Lost events show in trace_pipe as 'CPU:N [LOST M EVENTS]'.\n"
	"  Boot parameter: kmark_event=sched_switch,sched_wakeup\n";

static ssize_t kmark_readme_read(struct file *file, char __user *ubuf,
				 size_t cnt, loff_t *ppos)
{
	return simple_read_from_buffer(ubuf, cnt, ppos, kmark_readme,
				       sizeof(kmark_readme) - 1);
}

static const struct file_operations kmark_readme_fops = {
	.open = kmark_simple_open,
	.read = kmark_readme_read,
	.llseek = default_llseek,
};

/* --- the directories -------------------------------------------------------- */

struct kmark_top_file {
	const char *name;
	umode_t mode;
	void *data;
	const struct file_operations *fops;
};

/* The files every instance has (the top one too). */
static const struct kmark_top_file kmark_inst_files[] = {
	{ "tracing_on", 0600, NULL, &kmark_tracing_on_fops },
	{ "set_event", 0600, NULL, &kmark_set_event_fops },
	{ "trace_pipe", 0400, NULL, &kmark_pipe_fops },
	{ "trace", 0600, NULL, &kmark_trace_fops },
	{ "buffer_size_kb", 0600, NULL, &kmark_buffer_kb_fops },
	{ "error_log", 0600, NULL, &kmark_err_log_fops },
	{ "read_delay_ms", 0600, (void *)&kmark_read_delay_setting,
	  &kmark_uint_fops },
	{ "buffer_percent", 0600, (void *)&kmark_buffer_percent_setting,
	  &kmark_uint_fops },
	{ "trace_marker", 0200, NULL, &kmark_trace_marker_fops },
};

/* The top directory's own. */
static const struct kmark_top_file kmark_top_files[] __initconst = {
	{ "available_markers", 0400, NULL, &kmark_available_fops },
	{ "saved_comms", 0400, NULL, &kmark_comms_fops },
	{ "README", 0400, NULL, &kmark_readme_fops },
};

/*
 * An instance's files, in its directory (made): per_cpu/, events/ and
 * every event's events/NAME/. Under kmark_mutex (the event list).
 *
 * Return: 0, or -ENOMEM: the caller removes what was made.
 */
static int kmark_inst_create_files(struct kmark_instance *inst)
{
	struct kmark_dir pcpu, d;
	struct kmark_marker *m;
	char name[24];	/* "cpu" and any long */
	long cpu;
	int i;

	lockdep_assert_held(&kmark_mutex);
	for (i = 0; i < ARRAY_SIZE(kmark_inst_files); i++)
		if (kmark_fs_file(kmark_inst_files[i].name,
				  kmark_inst_files[i].mode, &inst->dir,
				  kmark_inst_files[i].data,
				  kmark_inst_files[i].fops))
			return -ENOMEM;
	if (kmark_fs_dir("per_cpu", &inst->dir, &pcpu))
		return -ENOMEM;
	for_each_possible_cpu(cpu) {
		snprintf(name, sizeof(name), "cpu%ld", cpu);
		if (kmark_fs_dir(name, &pcpu, &d) ||
		    kmark_fs_file("stats", 0400, &d, (void *)cpu,
				  &kmark_stats_fops) ||
		    kmark_fs_file("trace_pipe_raw", 0400, &d, (void *)cpu,
				  &kmark_raw_fops))
			return -ENOMEM;
	}
	if (kmark_fs_dir("events", &inst->dir, &inst->events))
		return -ENOMEM;
	if (!inst->idx &&
	    (kmark_fs_file("header_page", 0400, &inst->events, NULL,
			   &kmark_header_page_fops) ||
	     kmark_fs_file("header_event", 0400, &inst->events, NULL,
			   &kmark_header_event_fops)))
		return -ENOMEM;
	list_for_each_entry(m, &kmark_markers, list)
		if (kmark_event_dir_create_inst(m, inst))
			return -ENOMEM;
	if (kmark_mark_write && kmark_event_dir_create_inst(kmark_mark_write, inst))
		return -ENOMEM;
	return 0;
}

/*
 * Take @inst's files away from kmark's bookkeeping, under kmark_mutex: its
 * events/NAME/ and group records are forgotten and @dir gets its
 * directories. The caller removes them from the file systems with
 * kmark_fs_remove() once it dropped kmark_mutex: debugfs waits for the
 * open()s in progress of the files it removes, and an instance file's
 * open() takes kmark_mutex (kmark_inst_get()).
 */
static void kmark_inst_detach_files(struct kmark_instance *inst,
				    struct kmark_dir *dir)
{
	struct kmark_marker *m;

	lockdep_assert_held(&kmark_mutex);
	list_for_each_entry(m, &kmark_markers, list)
		kmark_event_dir_forget_inst(m, inst);
	if (kmark_mark_write)
		kmark_event_dir_forget_inst(kmark_mark_write, inst);
	kmark_groups_free(inst);
	*dir = inst->dir;
	memset(&inst->dir, 0, sizeof(inst->dir));
	memset(&inst->events, 0, sizeof(inst->events));
}

/* --- instances/ ------------------------------------------------------------- */

/*
 * instances/new and instances/remove: "echo NAME > instances/new" makes
 * instances/NAME/ with its own buffer, tracing_on, set_event, filters,
 * trace, trace_pipe, per_cpu/, trace_marker and error_log;
 * "echo NAME > instances/remove" removes it, refused while a file of it
 * that holds it (a reader of trace, trace_pipe or trace_pipe_raw, an open
 * set_event, error_log or stats) is open. ftrace makes them with mkdir and
 * rmdir, which debugfs cannot offer; errors go to the top error_log.
 */
static struct kmark_dir kmark_instances_dir;

static const char *kmark_inst_name_err(const char *name)
{
	const char *p;

	if (!*name)
		return "An instance needs a name";
	if (strlen(name) >= KMARK_INSTANCE_NAME_MAX)
		return "Instance name too long (at most 31 characters)";
	for (p = name; *p; p++)
		if (!isalnum(*p) && *p != '_' && *p != '-' && *p != '.')
			return "Instance names take letters, digits, '_', '-' and '.'";
	if (!strcmp(name, "new") || !strcmp(name, "remove") ||
	    !strcmp(name, ".") || !strcmp(name, ".."))
		return "Reserved name";
	return NULL;
}

static struct kmark_instance *kmark_inst_by_name(const char *name)
{
	int i;

	for (i = 1; i < KMARK_MAX_INSTANCES; i++)
		if (kmark_instances[i].live &&
		    !strcmp(kmark_instances[i].name, name))
			return &kmark_instances[i];
	return NULL;
}

/*
 * instances/new and instances/remove run one at a time (kmark_inst_ctl_mutex,
 * taken before kmark_mutex): a slot being torn down is not reused, and a
 * name's directory is gone before the name can be made again.
 */
static DEFINE_MUTEX(kmark_inst_ctl_mutex);

/*
 * The end of an instance whose files were detached into @dir and which
 * nothing records into or holds any more (not live): its directories
 * removed (open()s in progress find no instance), a grace period for the
 * recorders that saw it @was_live, then its slot freed. Under
 * kmark_inst_ctl_mutex, not kmark_mutex.
 */
static void kmark_inst_teardown(struct kmark_instance *inst,
				struct kmark_dir *dir, bool was_live)
{
	lockdep_assert_held(&kmark_inst_ctl_mutex);
	kmark_fs_remove(dir);
	/* No probe, kprobe handler or trace_marker writer uses it after this. */
	if (was_live)
		synchronize_rcu();
	mutex_lock(&kmark_mutex);
	kmark_err_log_clear(inst);
	kmark_instance_fini(inst);
	mutex_unlock(&kmark_mutex);
}

/* Make instance @name. 0 or an error, with @err set. */
static int kmark_inst_make(const char *name, const char **err)
{
	struct kmark_instance *inst = NULL;
	struct kmark_dir dir;
	int i, ret;

	lockdep_assert_held(&kmark_inst_ctl_mutex);
	mutex_lock(&kmark_mutex);
	ret = -EEXIST;
	*err = "The instance exists";
	if (kmark_inst_by_name(name))
		goto out;
	for (i = 1; i < KMARK_MAX_INSTANCES && !inst; i++)
		if (!kmark_instances[i].live)
			inst = &kmark_instances[i];
	ret = -ENOSPC;
	*err = "Too many instances (at most 7)";
	if (!inst)
		goto out;
	*err = "Out of memory";
	memset(inst, 0, sizeof(*inst));
	inst->idx = inst - kmark_instances;
	strscpy(inst->name, name);
	ret = kmark_instance_init(inst);
	if (ret)
		goto out;
	ret = -ENOMEM;
	if (kmark_fs_dir(name, &kmark_instances_dir, &inst->dir)) {
		kmark_instance_fini(inst);
		goto out;
	}
	if (kmark_inst_create_files(inst)) {
		/* Its files may be being opened already: see teardown. */
		kmark_inst_detach_files(inst, &dir);
		mutex_unlock(&kmark_mutex);
		kmark_inst_teardown(inst, &dir, false);
		return ret;
	}
	inst->live = true;
	ret = 0;
out:
	mutex_unlock(&kmark_mutex);
	return ret;
}

/*
 * Remove instance @name. Its recorders are detached and waited for before
 * its buffer is freed.
 */
static int kmark_inst_unmake(const char *name, const char **err)
{
	struct kmark_instance *inst;
	struct kmark_marker *m;
	struct kmark_dir dir;

	lockdep_assert_held(&kmark_inst_ctl_mutex);
	mutex_lock(&kmark_mutex);
	inst = kmark_inst_by_name(name);
	if (!inst) {
		mutex_unlock(&kmark_mutex);
		*err = "No such instance";
		return -ENOENT;
	}
	if (inst->users) {
		mutex_unlock(&kmark_mutex);
		*err = "The instance is busy: a file of it is open";
		return -EBUSY;
	}
	WRITE_ONCE(inst->live, false);
	list_for_each_entry(m, &kmark_markers, list) {
		kmark_set_recording(m, inst, false);
		kmark_filter_set(m, inst, NULL);
	}
	if (kmark_mark_write)
		kmark_filter_set(kmark_mark_write, inst, NULL);
	kmark_pending_drop(inst);
	kmark_inst_detach_files(inst, &dir);
	mutex_unlock(&kmark_mutex);
	kmark_inst_teardown(inst, &dir, true);
	return 0;
}

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
	err = kmark_inst_name_err(name);
	ret = err ? -EINVAL : 0;
	if (!ret) {
		mutex_lock(&kmark_inst_ctl_mutex);
		ret = make ? kmark_inst_make(name, &err) :
			     kmark_inst_unmake(name, &err);
		mutex_unlock(&kmark_inst_ctl_mutex);
	}
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

static int __init kmark_fs_init(void)
{
	struct kmark_instance *top = kmark_top_inst;
	int i;

	/* Boot-time allocations: a failure leaves a file out, as debugfs'. */
	if (kmark_mark_write_init())
		pr_warn("no trace_marker: out of memory\n");
	if (kmark_fs_dir("kmark", NULL, &kmark_top))
		return -ENOMEM;
	if (!kmark_top.d[KMARK_TRACEFS])
		pr_info("no /sys/kernel/tracing/kmark (no tracefs, or locked down)\n");
	for (i = 0; i < ARRAY_SIZE(kmark_top_files); i++)
		kmark_fs_file(kmark_top_files[i].name, kmark_top_files[i].mode,
			      &kmark_top, kmark_top_files[i].data,
			      kmark_top_files[i].fops);
	kmark_kprobe_create_files(&kmark_top);
	kmark_pid_create_files(&kmark_top);
	if (!kmark_fs_dir("instances", &kmark_top, &kmark_instances_dir)) {
		kmark_fs_file("new", 0200, &kmark_instances_dir, NULL,
			      &kmark_inst_new_fops);
		kmark_fs_file("remove", 0200, &kmark_instances_dir, NULL,
			      &kmark_inst_remove_fops);
	}
	mutex_lock(&kmark_mutex);
	top->dir = kmark_top;
	if (kmark_inst_create_files(top))
		pr_warn("some files of /sys/kernel/debug/kmark are missing: out of memory\n");
	mutex_unlock(&kmark_mutex);
	return 0;
}
fs_initcall(kmark_fs_init);

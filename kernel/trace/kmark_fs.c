// SPDX-License-Identifier: GPL-2.0
/*
 * kmark: the control directory, /sys/kernel/tracing/kmark/ and, when the
 * kernel has debugfs, the same files in /sys/kernel/debug/kmark/. This
 * file makes the directories and holds what every instance has besides its
 * events and readers:
 *
 *   tracing_on         1/0: record or not (events stay armed)
 *   buffer_size_kb     per-CPU buffer size ("X" when the CPUs differ)
 *   buffer_total_size_kb  all CPUs together (read only)
 *   buffer_percent     wake trace_pipe(_raw) readers at this fill
 *   read_delay_ms      at most this long an event waits for a reader
 *   trace_clock        the buffer's clock: "[local] global counter ..."
 *   tracing_cpumask    the CPUs whose events are recorded (hex mask)
 *   current_tracer, available_tracers  "nop": events only, as ftrace's nop
 *   options/           event-fork, overwrite, stacktrace: 1/0
 *   trace_options      the same as ftrace's file: NAME or noNAME
 *   trace_marker       a write records its text (ftrace:print)
 *   error_log          the last errors, ftrace's format; "> error_log" clears
 *   saved_comms        "id name": the task names records hold by id
 *   saved_cmdlines     "pid comm", for tools that read ftrace's
 *   saved_cmdlines_size  saved_cmdlines' lines (only that number is taken)
 *   printk_formats     empty: kmark records no trace_printk() formats
 *   README             ftrace's mini-HOWTO for what kmark supports
 *
 * The rooms that make the other files: kmark_events.c (set_event,
 * events/, available_events), kmark_read.c (trace, trace_pipe, per_cpu/),
 * kmark_instance.c (instances/), kmark_pid.c (set_event_pid...),
 * kmark_kprobe.c (kprobe_events), kmark_dynevent.c (dynamic_events).
 */
#define pr_fmt(fmt) "kmark: " fmt

#include <linux/ctype.h>
#include <linux/debugfs.h>
#include <linux/fs.h>
#include <linux/init.h>
#include <linux/sched/clock.h>
#include <linux/security.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/trace_clock.h>
#include <linux/tracefs.h>
#include <linux/uaccess.h>

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
	const char *loc;	/* in @cmd's allocation, after it */
};

/**
 * kmark_log_err_loc - add an entry to an instance's error_log
 * @inst:	the instance whose file the command was written to
 * @loc:	who says it (copied): "kmark" for kmark's own files, or
 *		where ftrace's error_log says it for the same parser
 *		("trace_kprobe", "hist:sched:sched_switch", "synthetic_events"),
 *		which tools and ftrace's selftests look for
 * @cmd:	the command that failed (a trailing newline is dropped)
 * @pos:	offset in @cmd of the caret
 * @msg:	what is wrong, a static string
 *
 * Keeps the last KMARK_ERR_LOG_MAX entries, as ftrace does.
 */
void kmark_log_err_loc(struct kmark_instance *inst, const char *loc,
		       const char *cmd, unsigned int pos, const char *msg)
{
	struct kmark_err *e;
	size_t len = strlen(cmd), llen = strlen(loc);
	char *buf;

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
	buf = kmalloc(len + llen + 2, GFP_KERNEL);
	if (!buf) {
		kfree(e);
		inst->nr_errs--;
		goto out;
	}
	memcpy(buf, cmd, len);
	buf[len] = '\0';
	memcpy(buf + len + 1, loc, llen + 1);
	e->cmd = buf;
	e->loc = buf + len + 1;
	e->ts = local_clock();
	e->pos = min_t(unsigned int, pos, len);
	e->msg = msg;
	list_add_tail(&e->list, &inst->errs);
out:
	mutex_unlock(&inst->err_mutex);
}

void kmark_log_err(struct kmark_instance *inst, const char *cmd,
		   unsigned int pos, const char *msg)
{
	kmark_log_err_loc(inst, "kmark", cmd, pos, msg);
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

	seq_printf(m, "[%5llu.%06u] %s: error: %s\n", sec, nsec / 1000,
		   e->loc, e->msg);
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


/* --- both trees ----------------------------------------------------------- */

int kmark_open_check(void)
{
	return security_locked_down(LOCKDOWN_TRACEFS);
}

/*
 * kmark's directory exists twice, with the same files and the same code:
 * in tracefs (/sys/kernel/tracing/kmark; kmark selects TRACEFS_FS) and,
 * when the kernel has debugfs, in debugfs (/sys/kernel/debug/kmark); a
 * kernel without debugfs has the tracefs copy alone. lockdown=integrity
 * makes debugfs refuse every writable file (LOCKDOWN_DEBUGFS) but leaves
 * tracefs alone, as it does for ftrace; lockdown=confidentiality refuses
 * both, at open (kmark_open_check()) and, for tracefs, already at creation.
 *
 * A file's i_private points at what it serves: an instance (the instance's
 * files: validated against the live instances at open, kmark_inst_get()),
 * or an event file or a system of events/ (cleared when that goes, under
 * kmark_ref_lock, before the directory is removed: kmark_fs_forget()).
 * Removing a file does not wait for its readers and writers (tracefs never
 * does; debugfs files are made _unsafe), but debugfs does wait for the
 * open()s of it in progress: open() therefore never takes kmark_mutex,
 * under which directories are removed.
 */
static struct dentry *kmark_fs_mkdir(int fs, const char *name,
				     struct dentry *parent)
{
	struct dentry *d = NULL;

	if (fs == KMARK_DEBUGFS)
		d = debugfs_create_dir(name, parent);
#ifdef CONFIG_TRACEFS_FS
	else
		d = tracefs_create_dir(name, parent);
#endif
	return IS_ERR(d) ? NULL : d;
}

static void kmark_fs_rm(int fs, struct dentry *d)
{
	if (fs == KMARK_DEBUGFS)
		debugfs_remove(d);
#ifdef CONFIG_TRACEFS_FS
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
 * A tree whose @parent is missing (no debugfs or no tracefs) is skipped.
 * At the top (@parent NULL), a tree that refuses the directory (debugfs
 * compiled out or off, tracefs locked down) is left out, and it is enough
 * that one of them took it.
 *
 * Return: 0 (nothing made under a @parent in neither tree), or -ENOMEM
 * with nothing created; -ENODEV at the top when neither tree took it.
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
		if (!dir->d[fs] && parent) {
			kmark_fs_remove(dir);
			return -ENOMEM;
		}
	}
	return parent || kmark_dir_made(dir) ? 0 : -ENODEV;
}

/**
 * kmark_fs_file_d - a file in each of kmark's two trees
 * @name:	its name
 * @mode:	its mode
 * @parent:	the directories it goes in
 * @data:	its inode's i_private
 * @fops:	what it does
 * @dents:	if not NULL, gets the dentries [KMARK_NR_FS]
 *
 * Return: 0, or -ENOMEM with nothing created.
 */
int kmark_fs_file_d(const char *name, umode_t mode,
		    const struct kmark_dir *parent, void *data,
		    const struct file_operations *fops, struct dentry **dents)
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
#ifdef CONFIG_TRACEFS_FS
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
	for (fs = 0; dents && fs < KMARK_NR_FS; fs++)
		dents[fs] = f[fs];
	return 0;
}

int kmark_fs_file(const char *name, umode_t mode,
		  const struct kmark_dir *parent, void *data,
		  const struct file_operations *fops)
{
	return kmark_fs_file_d(name, mode, parent, data, fops, NULL);
}

/*
 * A file of per_cpu/cpuN/: its CPU in i_cdev (+1), as ftrace's
 * trace_create_cpu_file() keeps it; i_private is @data.
 */
int kmark_fs_cpu_file(const char *name, umode_t mode,
		      const struct kmark_dir *parent, void *data, int cpu,
		      const struct file_operations *fops)
{
	struct dentry *d[KMARK_NR_FS] = { };
	int fs, ret;

	ret = kmark_fs_file_d(name, mode, parent, data, fops, d);
	for (fs = 0; !ret && fs < KMARK_NR_FS; fs++)
		if (d[fs])
			d_inode(d[fs])->i_cdev = (void *)(long)(cpu + 1);
	return ret;
}

/* The CPU of a per_cpu/cpuN/ file, or -1 for any other file. */
int kmark_file_cpu(const struct inode *inode)
{
	return (long)inode->i_cdev - 1;
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

/*
 * The files @dents (@n of them, NULLs skipped) stop pointing at what they
 * served: an open() in progress or to come finds nothing. Before their
 * directory is removed.
 */
void kmark_fs_forget(struct dentry **dents, unsigned int n)
{
	unsigned int i;

	spin_lock(&kmark_ref_lock);
	for (i = 0; i < n; i++) {
		if (dents[i])
			d_inode(dents[i])->i_private = NULL;
		dents[i] = NULL;
	}
	spin_unlock(&kmark_ref_lock);
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

int kmark_simple_open(struct inode *inode, struct file *file)
{
	return kmark_open_check();
}

/* The state of an open command file (kmark_cmd_open()). */
struct kmark_cmd_file *kmark_cmd_file(struct file *file)
{
	if (file->f_mode & FMODE_READ)
		return ((struct seq_file *)file->private_data)->private;
	return file->private_data;
}

/**
 * kmark_cmd_open - open a command file
 * @file:	the file
 * @ops:	the command file's own
 *
 * As ftrace's: "> FILE" fails at once (EBUSY, error_log) when a definition
 * there is in use; otherwise the definitions go only with the first write
 * that succeeds, or at release when nothing was written.
 */
int kmark_cmd_open(struct file *file, const struct kmark_cmd_ops *ops)
{
	struct kmark_cmd_file *cf;
	const char *busy;
	int ret = kmark_open_check();

	if (ret)
		return ret;
	cf = kzalloc(sizeof(*cf), GFP_KERNEL);
	if (!cf)
		return -ENOMEM;
	if ((file->f_mode & FMODE_WRITE) && (file->f_flags & O_TRUNC)) {
		mutex_lock(&kmark_mutex);
		busy = ops->busy();
		if (busy)
			kmark_log_err_loc(kmark_top_inst, ops->loc, ops->what,
					  0, busy);
		mutex_unlock(&kmark_mutex);
		if (busy) {
			kfree(cf);
			return -EBUSY;
		}
		cf->truncate_pending = true;
	}
	if (!(file->f_mode & FMODE_READ)) {
		file->private_data = cf;
		return 0;
	}
	ret = seq_open(file, ops->seq);
	if (ret) {
		kfree(cf);
		return ret;
	}
	((struct seq_file *)file->private_data)->private = cf;
	return 0;
}

/* Release a command file: "> FILE" with nothing written removes them all. */
int kmark_cmd_release(struct inode *inode, struct file *file,
		      const struct kmark_cmd_ops *ops)
{
	struct kmark_cmd_file *cf = kmark_cmd_file(file);

	if (cf->truncate_pending && !cf->failed)
		ops->clear();
	kfree(cf);
	if (file->f_mode & FMODE_READ)
		return seq_release(inode, file);
	return 0;
}

ssize_t kmark_discard_write(struct file *file, const char __user *ubuf,
			    size_t cnt, loff_t *ppos)
{
	return cnt;
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

	inst = kmark_inst_get(inode);
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

static int kmark_err_log_release(struct inode *inode, struct file *file)
{
	kmark_inst_put(kmark_seq_inst(file));
	if (file->f_mode & FMODE_READ)
		return seq_release(inode, file);
	return 0;
}

static const struct file_operations kmark_err_log_fops = {
	.open = kmark_err_log_open,
	.read = seq_read,
	.write = kmark_discard_write,
	.llseek = seq_lseek,
	.release = kmark_err_log_release,
};

/* --- tracing_on, buffer_size_kb, buffer_total_size_kb ------------------------- */

#define KMARK_ERR_TRACE_READER \
	"The buffer is busy: a reader of trace holds it (close it and retry)"
#define KMARK_ERR_SUBBUF_RANGE \
	"A sub-buffer is 1 to 128 pages: its size in KiB, rounded up to a power of two of pages"

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
	/* A previous boot's trace is cleared first: the two never mix. */
	if (val)
		kmark_flight_start(inst);
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

/*
 * The size asked for, as ftrace shows it (pages round it up); "X" when the
 * CPUs' buffers were given different sizes (per_cpu/cpuN/buffer_size_kb).
 */
static ssize_t kmark_buffer_kb_read(struct file *file, char __user *ubuf,
				    size_t cnt, loff_t *ppos)
{
	struct kmark_instance *inst = file->private_data;
	unsigned long kb = READ_ONCE(inst->buffer_kb);
	bool same = true;
	int cpu, first = -1;

	mutex_lock(&kmark_mutex);
	for_each_possible_cpu(cpu) {
		if (!inst->buffer)
			break;
		if (first < 0)
			first = cpu;
		else if (ring_buffer_size(inst->buffer, cpu) !=
			 ring_buffer_size(inst->buffer, first))
			same = false;
	}
	mutex_unlock(&kmark_mutex);
	if (!same)
		return simple_read_from_buffer(ubuf, cnt, ppos, "X\n", 2);
	return kmark_read_ulong(ubuf, cnt, ppos, kb);
}

void kmark_log_resize_err(struct kmark_instance *inst, int ret)
{
	kmark_log_err(inst, "buffer_size_kb", 0,
		      ret == -EPERM ? KMARK_ERR_BOOT_MAPPED_SIZE :
		      ret == -EBUSY ? KMARK_ERR_TRACE_READER :
		      ret == -ENOMEM ? "Could not resize the buffer: out of memory" :
		      "Could not resize the buffer");
}

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
		kmark_log_resize_err(inst, ret);
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

/*
 * buffer_subbuf_size_kb: the size of the buffer's sub-buffers (pages of
 * trace_pipe_raw), as ftrace's: a size in KiB, rounded up to a power of
 * two of pages, 1 to 128 pages. A change empties the buffer.
 */
static ssize_t kmark_subbuf_read(struct file *file, char __user *ubuf,
				 size_t cnt, loff_t *ppos)
{
	struct kmark_instance *inst = file->private_data;
	unsigned int order;

	mutex_lock(&kmark_mutex);
	order = inst->buffer ? ring_buffer_subbuf_order_get(inst->buffer) :
			       inst->subbuf_order;
	mutex_unlock(&kmark_mutex);
	return kmark_read_ulong(ubuf, cnt, ppos, (PAGE_SIZE << order) >> 10);
}

static ssize_t kmark_subbuf_write(struct file *file, const char __user *ubuf,
				  size_t cnt, loff_t *ppos)
{
	struct kmark_instance *inst = file->private_data;
	unsigned long kb, pages = 0;
	unsigned int order = 0;
	const char *err = NULL;
	char *cmd;
	int ret;

	cmd = kmark_get_cmd(inst, ubuf, cnt);
	if (IS_ERR(cmd))
		return PTR_ERR(cmd);
	strim(cmd);
	ret = kstrtoul(cmd, 10, &kb);
	if (ret) {
		err = "buffer_subbuf_size_kb takes a size in KiB";
	} else {
		pages = kb > (128 * PAGE_SIZE) >> 10 ? 129 :
			DIV_ROUND_UP(kb << 10, PAGE_SIZE);
		order = pages ? fls(pages - 1) : 0;
		if (!pages || order > 7)
			err = KMARK_ERR_SUBBUF_RANGE;
	}
	if (!err) {
		mutex_lock(&kmark_mutex);
		ret = kmark_buffer_set_subbuf_order(inst, order);
		mutex_unlock(&kmark_mutex);
		if (ret)
			err = ret == -EPERM ? KMARK_ERR_BOOT_MAPPED_SIZE :
			      ret == -EBUSY ? KMARK_ERR_TRACE_READER :
			      "Could not change the sub-buffers: out of memory";
	} else {
		ret = -EINVAL;
	}
	if (err)
		kmark_log_err(inst, cmd, 0, err);
	kfree(cmd);
	if (ret)
		return ret;
	*ppos += cnt;
	return cnt;
}

static const struct file_operations kmark_subbuf_fops = {
	.open = kmark_inst_open,
	.read = kmark_subbuf_read,
	.write = kmark_subbuf_write,
	.llseek = default_llseek,
	.release = kmark_inst_release,
};

/* All CPUs' buffers together, in KiB (ftrace's buffer_total_size_kb). */
static ssize_t kmark_buffer_total_read(struct file *file, char __user *ubuf,
				       size_t cnt, loff_t *ppos)
{
	struct kmark_instance *inst = file->private_data;
	unsigned long kb = 0;
	int cpu;

	mutex_lock(&kmark_mutex);
	for_each_possible_cpu(cpu)
		kb += kmark_buffer_cpu_size(inst, cpu) >> 10;
	mutex_unlock(&kmark_mutex);
	return kmark_read_ulong(ubuf, cnt, ppos, kb);
}

static const struct file_operations kmark_buffer_total_fops = {
	.open = kmark_inst_open,
	.read = kmark_buffer_total_read,
	.llseek = default_llseek,
	.release = kmark_inst_release,
};

/* --- read_delay_ms, buffer_percent: batched wakeups of readers ------------ */

/* Which setting an open file is: data of the file, in i_cdev's number. */
struct kmark_uint_setting {
	size_t off;		/* of the value in struct kmark_instance */
	unsigned int max;
	const char *err;
};

static const struct kmark_uint_setting kmark_uint_settings[] = {
	{ offsetof(struct kmark_instance, read_delay_ms), 10000,
	  "read_delay_ms takes milliseconds, 0 to 10000" },
	{ offsetof(struct kmark_instance, buffer_percent), 100,
	  "buffer_percent takes a percentage, 0 to 100" },
};

static unsigned int *kmark_uint_val(struct file *file,
				    const struct kmark_uint_setting **stp)
{
	*stp = &kmark_uint_settings[kmark_file_cpu(file_inode(file))];
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

/* --- trace_clock ------------------------------------------------------------------ */

/* ftrace's clocks (trace.c's trace_clocks[]), those kmark can give a buffer. */
static const struct {
	u64 (*func)(void);
	const char *name;
	int in_ns;		/* ftrace's: nanoseconds, not counts */
} kmark_clocks[] = {
	{ trace_clock_local,		"local",	1 },
	{ trace_clock_global,		"global",	1 },
	{ trace_clock_counter,		"counter",	0 },
	{ trace_clock_jiffies,		"uptime",	0 },
	{ ktime_get_mono_fast_ns,	"mono",		1 },
	{ ktime_get_raw_fast_ns,	"mono_raw",	1 },
	{ ktime_get_boot_fast_ns,	"boot",		1 },
	{ ktime_get_tai_fast_ns,	"tai",		1 },
	ARCH_TRACE_CLOCKS
};

void kmark_set_buffer_clock(struct trace_buffer *b, unsigned int clock)
{
	ring_buffer_set_clock(b, kmark_clocks[clock].func);
}

/* The index of the clock named @name, or -EINVAL. */
int kmark_clock_lookup(const char *name)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(kmark_clocks); i++)
		if (!strcmp(name, kmark_clocks[i].name))
			return i;
	return -EINVAL;
}

/* Give @inst's buffer clock @clock (an index); its events are cleared. */
int kmark_set_clock(struct kmark_instance *inst, unsigned int clock)
{
	lockdep_assert_held(&kmark_mutex);
	if (clock >= ARRAY_SIZE(kmark_clocks))
		return -EINVAL;
	inst->clock = clock;
	kmark_snapshot_hold(inst, true);
	if (inst->snapshot)
		ring_buffer_set_clock(inst->snapshot, kmark_clocks[clock].func);
	if (inst->buffer)
		ring_buffer_set_clock(inst->buffer, kmark_clocks[clock].func);
	kmark_snapshot_hold(inst, false);
	if (inst->buffer) {
		mutex_lock(&inst->read_mutex);
		kmark_buffer_clear(inst, -1);
		mutex_unlock(&inst->read_mutex);
	}
	return 0;
}

static int kmark_clock_show(struct seq_file *m, void *v)
{
	struct kmark_instance *inst = m->private;
	unsigned int i, cur = READ_ONCE(inst->clock);

	for (i = 0; i < ARRAY_SIZE(kmark_clocks); i++)
		seq_printf(m, i == cur ? "%s[%s]" : "%s%s", i ? " " : "",
			   kmark_clocks[i].name);
	seq_putc(m, '\n');
	return 0;
}

static int kmark_clock_open(struct inode *inode, struct file *file)
{
	struct kmark_instance *inst = kmark_inst_get(inode);
	int ret;

	if (IS_ERR(inst))
		return PTR_ERR(inst);
	ret = single_open(file, kmark_clock_show, inst);
	if (ret)
		kmark_inst_put(inst);
	return ret;
}

static ssize_t kmark_clock_write(struct file *file, const char __user *ubuf,
				 size_t cnt, loff_t *ppos)
{
	struct kmark_instance *inst = ((struct seq_file *)file->private_data)->private;
	unsigned int i;
	char *cmd, *name;
	int ret = -EINVAL;

	cmd = kmark_get_cmd(inst, ubuf, cnt);
	if (IS_ERR(cmd))
		return PTR_ERR(cmd);
	name = strim(cmd);
	for (i = 0; i < ARRAY_SIZE(kmark_clocks); i++)
		if (!strcmp(name, kmark_clocks[i].name))
			break;
	if (i < ARRAY_SIZE(kmark_clocks)) {
		mutex_lock(&kmark_mutex);
		ret = kmark_set_clock(inst, i);
		mutex_unlock(&kmark_mutex);
	} else {
		kmark_log_err(inst, name, 0,
			      "Unknown clock: one of those trace_clock lists");
	}
	kfree(cmd);
	if (ret)
		return ret;
	*ppos += cnt;
	return cnt;
}

static const struct file_operations kmark_clock_fops = {
	.open = kmark_clock_open,
	.read = seq_read,
	.write = kmark_clock_write,
	.llseek = seq_lseek,
	.release = kmark_inst_seq_release,
};

/* --- current_tracer, available_tracers ---------------------------------------- */

/*
 * kmark records events only, what ftrace does with its "nop" tracer: the
 * one tracer it lists, and the one current_tracer takes, so that scripts
 * that reset ftrace with "echo nop > current_tracer" work unchanged.
 */
static ssize_t kmark_tracer_read(struct file *file, char __user *ubuf,
				 size_t cnt, loff_t *ppos)
{
	return simple_read_from_buffer(ubuf, cnt, ppos, "nop\n", 4);
}

static ssize_t kmark_tracer_write(struct file *file, const char __user *ubuf,
				  size_t cnt, loff_t *ppos)
{
	struct kmark_instance *inst = file->private_data;
	char *cmd = kmark_get_cmd(inst, ubuf, cnt);
	int ret = 0;

	if (IS_ERR(cmd))
		return PTR_ERR(cmd);
	if (strcmp(strim(cmd), "nop")) {
		kmark_log_err(inst, cmd, 0,
			      "Unknown tracer: kmark has nop (events) only");
		ret = -EINVAL;
	}
	kfree(cmd);
	if (ret)
		return ret;
	*ppos += cnt;
	return cnt;
}

static const struct file_operations kmark_tracer_fops = {
	.open = kmark_inst_open,
	.read = kmark_tracer_read,
	.write = kmark_tracer_write,
	.llseek = default_llseek,
	.release = kmark_inst_release,
};

/* --- tracing_cpumask ----------------------------------------------------------------- */

static ssize_t kmark_cpumask_read(struct file *file, char __user *ubuf,
				  size_t cnt, loff_t *ppos)
{
	struct kmark_instance *inst = file->private_data;
	char *buf;
	ssize_t ret;
	int len;

	buf = kasprintf(GFP_KERNEL, "%*pb\n", cpumask_pr_args(inst->cpumask));
	if (!buf)
		return -ENOMEM;
	len = strlen(buf);
	ret = simple_read_from_buffer(ubuf, cnt, ppos, buf, len);
	kfree(buf);
	return ret;
}

/* The buffer records on the CPUs of @inst's cpumask only. Under kmark_mutex. */
void kmark_cpumask_apply(struct kmark_instance *inst, const struct cpumask *old)
{
	int cpu;

	lockdep_assert_held(&kmark_mutex);
	if (!inst->buffer)
		return;
	kmark_snapshot_hold(inst, true);
	for_each_possible_cpu(cpu) {
		bool was = cpumask_test_cpu(cpu, old);
		bool now = cpumask_test_cpu(cpu, inst->cpumask);

		if (was && !now) {
			ring_buffer_record_disable_cpu(inst->buffer, cpu);
			if (inst->snapshot)
				ring_buffer_record_disable_cpu(inst->snapshot, cpu);
		} else if (!was && now) {
			ring_buffer_record_enable_cpu(inst->buffer, cpu);
			if (inst->snapshot)
				ring_buffer_record_enable_cpu(inst->snapshot, cpu);
		}
	}
	kmark_snapshot_hold(inst, false);
}

static ssize_t kmark_cpumask_write(struct file *file, const char __user *ubuf,
				   size_t cnt, loff_t *ppos)
{
	struct kmark_instance *inst = file->private_data;
	cpumask_var_t mask, old;
	char *cmd;
	int ret;

	cmd = kmark_get_cmd(inst, ubuf, cnt);
	if (IS_ERR(cmd))
		return PTR_ERR(cmd);
	ret = -ENOMEM;
	if (!zalloc_cpumask_var(&mask, GFP_KERNEL))
		goto out_cmd;
	if (!zalloc_cpumask_var(&old, GFP_KERNEL)) {
		free_cpumask_var(mask);
		goto out_cmd;
	}
	ret = cpumask_parse(strim(cmd), mask);
	if (ret) {
		/* EOVERFLOW (a CPU past nr_cpu_ids) stays: it says why. */
		if (ret != -EOVERFLOW)
			ret = -EINVAL;
		kmark_log_err(inst, strim(cmd), 0,
			      "tracing_cpumask takes a hex CPU mask (3: CPUs 0 and 1)");
		goto out;
	}
	mutex_lock(&kmark_mutex);
	cpumask_copy(old, inst->cpumask);
	cpumask_copy(inst->cpumask, mask);
	kmark_cpumask_apply(inst, old);
	mutex_unlock(&kmark_mutex);
	*ppos += cnt;
	ret = cnt;
out:
	free_cpumask_var(mask);
	free_cpumask_var(old);
out_cmd:
	kfree(cmd);
	return ret;
}

static const struct file_operations kmark_cpumask_fops = {
	.open = kmark_inst_open,
	.read = kmark_cpumask_read,
	.write = kmark_cpumask_write,
	.llseek = default_llseek,
	.release = kmark_inst_release,
};

/* --- options/ ------------------------------------------------------------------------ */

static const char * const kmark_opt_names[KMARK_NR_OPTS] = {
	[KMARK_OPT_EVENT_FORK] = "event-fork",
	[KMARK_OPT_OVERWRITE] = "overwrite",
	[KMARK_OPT_STACKTRACE] = "stacktrace",
};

static ssize_t kmark_opt_read(struct file *file, char __user *ubuf,
			      size_t cnt, loff_t *ppos)
{
	struct kmark_instance *inst = file->private_data;
	int opt = kmark_file_cpu(file_inode(file));
	char buf[64];
	int lost = atomic_read(&inst->pid_overflow);

	/* Children not followed (a pid past the list) are not lost silently. */
	if (opt == KMARK_OPT_EVENT_FORK && lost)
		snprintf(buf, sizeof(buf), "%d\n# %d children not followed\n",
			 test_bit(opt, &inst->options), lost);
	else
		snprintf(buf, sizeof(buf), "%d\n", test_bit(opt, &inst->options));
	return simple_read_from_buffer(ubuf, cnt, ppos, buf, strlen(buf));
}

/*
 * Set option @opt of @inst to @val (0 or 1): options/NAME and trace_options
 * alike. Takes kmark_mutex. 0 or -errno.
 */
static int kmark_opt_set(struct kmark_instance *inst, int opt,
			 unsigned long val)
{
	int ret = 0;

	mutex_lock(&kmark_mutex);
	switch (opt) {
	case KMARK_OPT_EVENT_FORK:
		ret = kmark_pid_event_fork(inst, val);
		break;
	case KMARK_OPT_OVERWRITE:
		/* Both buffers: they are swapped (ftrace's max_buffer too). */
		kmark_snapshot_hold(inst, true);
		if (inst->buffer)
			ring_buffer_change_overwrite(inst->buffer, val);
		if (inst->snapshot)
			ring_buffer_change_overwrite(inst->snapshot, val);
		kmark_snapshot_hold(inst, false);
		break;
	}
	if (!ret)
		assign_bit(opt, &inst->options, val);
	if (!ret && opt == KMARK_OPT_STACKTRACE)
		kmark_options_apply(inst);
	mutex_unlock(&kmark_mutex);
	return ret;
}

/*
 * A write of 1 or 0. What a read gave is taken back as it was: event-fork's
 * "# N children not followed" line (trace-cmd writes the file's old
 * content back when it ends) is a comment, and comments are passed over.
 */
static ssize_t kmark_opt_write(struct file *file, const char __user *ubuf,
			       size_t cnt, loff_t *ppos)
{
	struct kmark_instance *inst = file->private_data;
	int opt = kmark_file_cpu(file_inode(file));
	char buf[64], *nl;
	unsigned long val;
	int ret;

	if (cnt >= sizeof(buf))
		goto bad;
	if (copy_from_user(buf, ubuf, cnt))
		return -EFAULT;
	buf[cnt] = '\0';
	nl = strchr(buf, '\n');
	if (nl && (!nl[1] || nl[1] == '#'))
		*nl = '\0';
	if (kstrtoul(strim(buf), 10, &val) || val > 1)
		goto bad;
	ret = kmark_opt_set(inst, opt, val);
	if (ret)
		return ret;
	*ppos += cnt;
	return cnt;
bad:
	kmark_log_err(inst, kmark_opt_names[opt], 0,
		      "An option takes 1 (on) or 0 (off)");
	return -EINVAL;
}

static const struct file_operations kmark_opt_fops = {
	.open = kmark_inst_open,
	.read = kmark_opt_read,
	.write = kmark_opt_write,
	.llseek = default_llseek,
	.release = kmark_inst_release,
};

/*
 * trace_options: ftrace's one-file view of options/, as trace-cmd reads and
 * writes it (-T, -O, -c). A read gives a line per option, NAME when on and
 * noNAME when off; no name is part of another, so that a search for one
 * finds its own line (trace-cmd's reset of "-O noNAME" relies on that). A
 * write sets one option: NAME or noNAME.
 */
static ssize_t kmark_trace_options_read(struct file *file, char __user *ubuf,
					size_t cnt, loff_t *ppos)
{
	struct kmark_instance *inst = file->private_data;
	char buf[KMARK_NR_OPTS * 24];
	int i, len = 0;

	for (i = 0; i < KMARK_NR_OPTS; i++)
		len += scnprintf(buf + len, sizeof(buf) - len, "%s%s\n",
				 test_bit(i, &inst->options) ? "" : "no",
				 kmark_opt_names[i]);
	return simple_read_from_buffer(ubuf, cnt, ppos, buf, len);
}

static ssize_t kmark_trace_options_write(struct file *file,
					 const char __user *ubuf,
					 size_t cnt, loff_t *ppos)
{
	struct kmark_instance *inst = file->private_data;
	char buf[64], *text, *name;
	unsigned long val = 1;
	int opt, ret;

	if (cnt >= sizeof(buf)) {
		kmark_log_err(inst, "", 0, "Option name too long");
		return -EINVAL;
	}
	if (copy_from_user(buf, ubuf, cnt))
		return -EFAULT;
	buf[cnt] = '\0';
	text = strim(buf);
	name = text;
	if (str_has_prefix(name, "no")) {
		name += 2;
		val = 0;
	}
	opt = match_string(kmark_opt_names, KMARK_NR_OPTS, name);
	if (opt < 0) {
		kmark_log_err(inst, text, name - text,
			      "Unknown option: kmark has event-fork, overwrite and stacktrace (each may take no in front)");
		return -EINVAL;
	}
	ret = kmark_opt_set(inst, opt, val);
	if (ret)
		return ret;
	*ppos += cnt;
	return cnt;
}

static const struct file_operations kmark_trace_options_fops = {
	.open = kmark_inst_open,
	.read = kmark_trace_options_read,
	.write = kmark_trace_options_write,
	.llseek = default_llseek,
	.release = kmark_inst_release,
};

/* --- saved_comms: the table behind common_comm_id ------------------------ */

/*
 * Every name the records may hold, "ID NAME" (kmark_record.c prints the
 * table), then its counters as comments. Lock-free, like the table: a name
 * being added may be missed.
 */
static int kmark_comms_show(struct seq_file *m, void *v)
{
	kmark_comms_show_table(m);
	kmark_cmdlines_show_complete(m);
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

/* --- saved_cmdlines: "pid comm", as ftrace's, for the tools that read it -------- */

static int kmark_cmdlines_open(struct inode *inode, struct file *file)
{
	int ret = kmark_open_check();

	return ret ? ret : single_open(file, kmark_cmdlines_show, NULL);
}

static const struct file_operations kmark_cmdlines_fops = {
	.open = kmark_cmdlines_open,
	.read = seq_read,
	.llseek = seq_lseek,
	.release = single_release,
};

/*
 * saved_cmdlines_size: ftrace's file, for the tools that read and write it
 * (trace-cmd --cmdlines-size): the lines saved_cmdlines has, fixed at
 * build (a line per pid below PID_MAX_DEFAULT, and KMARK_CMDLINES shared
 * by larger pids). A write of that number is taken, another is refused
 * (-EINVAL, error_log) rather than taken and not done.
 */
static ssize_t kmark_cmdlines_size_read(struct file *file, char __user *ubuf,
					size_t cnt, loff_t *ppos)
{
	return kmark_read_ulong(ubuf, cnt, ppos,
				KMARK_PID_NAMES + KMARK_CMDLINES);
}

static ssize_t kmark_cmdlines_size_write(struct file *file,
					 const char __user *ubuf, size_t cnt,
					 loff_t *ppos)
{
	unsigned long val;
	char num[24];
	int ret;

	ret = kmark_write_ulong(kmark_top_inst, ubuf, cnt, &val,
				"saved_cmdlines_size takes a number");
	if (ret)
		return ret;
	if (val != KMARK_PID_NAMES + KMARK_CMDLINES) {
		snprintf(num, sizeof(num), "%lu", val);
		kmark_log_err(kmark_top_inst, num, 0,
			      "saved_cmdlines has a line per pid up to pid_max's default and 1024 more, fixed at build: its size is what saved_cmdlines_size reads");
		return -EINVAL;
	}
	*ppos += cnt;
	return cnt;
}

static const struct file_operations kmark_cmdlines_size_fops = {
	.open = kmark_simple_open,
	.read = kmark_cmdlines_size_read,
	.write = kmark_cmdlines_size_write,
	.llseek = default_llseek,
};

/*
 * printk_formats: ftrace's "address : format" list of trace_printk()'s
 * formats, which binary printk records point into. kmark records no such
 * thing (a marker's format is in its event's format file): empty, for the
 * tools that read it.
 */
static int kmark_printk_formats_show(struct seq_file *m, void *v)
{
	return 0;
}

static int kmark_printk_formats_open(struct inode *inode, struct file *file)
{
	int ret = kmark_open_check();

	return ret ? ret : single_open(file, kmark_printk_formats_show, NULL);
}

static const struct file_operations kmark_printk_formats_fops = {
	.open = kmark_printk_formats_open,
	.read = seq_read,
	.llseek = seq_lseek,
	.release = single_release,
};

/* --- trace_marker ------------------------------------------------------------ */

/*
 * trace_marker: each write records its text as ftrace's print event
 * (events/ftrace/print/, its lines "tracing_mark_write: TEXT" as ftrace's
 * are; kmark_line_name()) with the writer's task, pid, CPU and
 * flags (ftrace's habit; Perfetto draws atrace's "B|pid|name" and "E|pid"
 * lines from it as slices); one trailing newline is dropped. As ftrace's,
 * a longer write than an event holds records what it holds and returns
 * that (a partial write: the writer goes on with the rest); ftrace's limit
 * is 4096 bytes, kmark's 3968 (its text line must fit in a page) or less
 * when a ring-buffer page holds less, and a write while tracing_on is 0
 * fails with EBADF. It records whenever tracing is on (it is in neither
 * set_event nor has an enable file); its filter and triggers apply.
 */
/* ftrace's 4096, less room for the text line's prefix (a line is a page). */
#define KMARK_MARKER_MAX	(PAGE_SIZE - 128)

static int __init kmark_mark_write_init(void)
{
	struct kmark_marker *m;
	const char *err;
	unsigned int pos;
	int ret;

	m = kzalloc(sizeof(*m), GFP_KERNEL);
	if (!m)
		return -ENOMEM;
	INIT_LIST_HEAD(&m->files);
	m->system = "ftrace";
	m->name = "print";
	m->format = "%s";
	m->always_on = true;
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
	if (!ret) {
		kmark_dynamic_link(m);
		ret = kmark_event_files_add(m);
		if (ret)
			kmark_dynamic_unlink(m);
	}
	mutex_unlock(&kmark_mutex);
	if (ret) {
		kmark_free_layout(m->layout);
		kfree(m);
	}
	return ret;
}

/* An open trace_marker: its instance and that instance's event, held. */
static int kmark_trace_marker_open(struct inode *inode, struct file *file)
{
	struct kmark_instance *inst = kmark_inst_get(inode);
	struct kmark_event_file *ef;

	if (IS_ERR(inst))
		return PTR_ERR(inst);
	mutex_lock(&kmark_mutex);
	ef = kmark_find_file(inst, "ftrace", "print");
	if (ef)
		refcount_inc(&ef->ref);
	mutex_unlock(&kmark_mutex);
	if (!ef) {
		kmark_inst_put(inst);
		return -ENODEV;
	}
	file->private_data = ef;
	return 0;
}

static int kmark_trace_marker_release(struct inode *inode, struct file *file)
{
	struct kmark_event_file *ef = file->private_data;
	struct kmark_instance *inst = ef->inst;

	kmark_event_file_put(ef);
	kmark_inst_put(inst);
	return 0;
}

static ssize_t kmark_trace_marker_write(struct file *file,
					const char __user *ubuf, size_t cnt,
					loff_t *ppos)
{
	struct kmark_event_file *ef = file->private_data;
	struct kmark_instance *inst = ef->inst;
	struct trace_buffer *b;
	size_t max, len;
	char *text;
	int ret;

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
		    ring_buffer_max_event_size(b) - ef->m->layout->size - 1);
	cnt = min(cnt, max);
	text = memdup_user_nul(ubuf, cnt);
	if (IS_ERR(text))
		return PTR_ERR(text);
	len = strnlen(text, cnt);
	if (len && text[len - 1] == '\n')
		text[--len] = '\0';
	ret = kmark_record_text(ef, text, len);
	kfree(text);
	if (ret)
		return ret;
	*ppos += cnt;
	return cnt;
}

static const struct file_operations kmark_trace_marker_fops = {
	.open = kmark_trace_marker_open,
	.write = kmark_trace_marker_write,
	.llseek = noop_llseek,
	.release = kmark_trace_marker_release,
};

/* --- README ---------------------------------------------------------------- */

/*
 * ftrace's mini-HOWTO (trace.c's readme_msg), line for line where kmark
 * has the same thing, so that tools and ftrace's own selftests, which read
 * it to learn what the kernel supports, learn exactly what kmark does.
 */
static const char kmark_readme[] =
	"kmark: static markers and kprobe events, ftrace's files.\n\n"
	"_-----=> irqs-off/BH-disabled\n"
	"                / _----=> need-resched\n"
	"               | / _---=> hardirq/softirq\n"
	"               || / _--=> preempt-depth\n"
	"               ||| / _-=> migrate-disable\n"
	"               |||| /     delay\n"
	"           cpu#||||| /\n"
	"              |||||| |\n"
	"              |||||| |\n"
	"  tracing_on\t- Enable or disable writing to the ring buffer\n"
	"  trace\t\t- The static contents of the buffer\n"
	"\t\t\t  To clear the buffer write into this file: echo > trace\n"
	"  trace_pipe\t\t- A consuming read to see the contents of the buffer\n"
	"  current_tracer\t- nop only (events): no function or latency tracers\n"
	"  available_tracers\t- list of configured tracers for current_tracer\n"
	"  buffer_size_kb\t- View and modify size of per cpu buffer\n"
	"  buffer_total_size_kb  - view total size of all cpu buffers\n\n"
	"  buffer_subbuf_size_kb\t- edit the size of the sub buffers\n"
	"  trace_clock\t\t- change the clock used to order events\n"
	"       local:   Per cpu clock but may not be synced across CPUs\n"
	"      global:   Synced across CPUs but slows tracing down.\n"
	"     counter:   Not a clock, but just an increment\n"
	"      uptime:   Jiffy counter from time of boot\n"
	"        mono:   Monotonic clock\n"
	"    mono_raw:   Monotonic raw clock\n"
	"        boot:   Clock that includes time spent in suspend\n"
	"         tai:   TAI clock\n"
#ifdef CONFIG_X86_TSC
	"     x86-tsc:   TSC cycle counter\n"
#endif
	"\n  trace_marker\t\t- Writes into this file writes into the kernel buffer\n"
	"\n  tracing_cpumask\t- Limit which CPUs to trace\n"
	"  instances\t\t- Make sub-buffers with: mkdir instances/foo\n"
	"\t\t\t  Remove sub-buffer with rmdir\n"
	"  options/\t\t- event-fork, overwrite, stacktrace: write 1 or 0\n"
	"  trace_options\t\t- the same: NAME to set one, noNAME to clear it\n"
	"  saved_cmdlines\t- pid and comm of tasks seen in the buffer\n"
	"  saved_cmdlines_size\t- the number of lines saved_cmdlines has (fixed)\n"
	"  printk_formats\t- empty: kmark has no trace_printk() formats\n"
	"  error_log\t- error log for failed commands (that support it)\n"
#ifdef CONFIG_KMARK_KPROBES
	"  dynamic_events\t\t- Create/append/remove/show the generic dynamic events\n"
	"\t\t\t  Write into this file to define/undefine new trace events.\n"
	"  kprobe_events\t\t- Create/append/remove/show the kernel dynamic events\n"
	"\t\t\t  Write into this file to define/undefine new trace events.\n"
	"\t  accepts: event-definitions (one definition per line)\n"
	"\t   Format: p[:[<group>/][<event>]] <place> [<args>]\n"
	"\t           r[maxactive][:[<group>/][<event>]] <place> [<args>]\n"
#ifdef CONFIG_KMARK_HIST
	"\t           s:[synthetic/]<event> <field> [<field>]\n"
#endif
	"\t           -:[<group>/][<event>]\n"
	"\t    place: [<module>:]<symbol>[+<offset>]|<memaddr>\n"
	"place (kretprobe): [<module>:]<symbol>[+<offset>]%return|<memaddr>\n"
	"\t     args: <name>=fetcharg[:type]\n"
	"\t fetcharg: %<register>, @<address>, @<symbol>[+|-<offset>],\n"
	"\t           $stack<index>, $stack, $retval, $comm, $arg<N>,\n"
	"\t           +|-[u]<offset>(<fetcharg>)\n"
	"\t     kernel return probes support: $retval, $arg<N>, $comm\n"
	"\t     type: s8/16/32/64, u8/16/32/64, x8/16/32/64, string, symbol,\n"
	"\t           b<bit-width>@<bit-offset>/<container-size>, ustring,\n"
	"\t           %pd/%pD\n"
#endif
	"  events/\t\t- Directory containing all trace event subsystems:\n"
	"      enable\t\t- Write 0/1 to enable/disable tracing of all events\n"
	"  events/<system>/\t- Directory containing all trace events for <system>:\n"
	"      enable\t\t- Write 0/1 to enable/disable tracing of all <system>\n"
	"\t\t\t  events\n"
	"      filter\t\t- If set, only events passing filter are traced\n"
	"  events/<system>/<event>/\t- Directory containing control files for\n"
	"\t\t\t  <event>:\n"
	"      enable\t\t- Write 0/1 to enable/disable tracing of <event>\n"
	"      filter\t\t- If set, only events passing filter are traced\n"
	"      trigger\t\t- If set, a command to perform when event is hit\n"
	"\t    Format: <trigger>[:count][if <filter>]\n"
	"\t   trigger: traceon, traceoff\n"
	"\t            enable_event:<system>:<event>\n"
	"\t            disable_event:<system>:<event>\n"
	"\t\t    stacktrace\n"
	"\t\t    snapshot\n"
#ifdef CONFIG_KMARK_HIST
	"\t\t    hist (see below)\n"
	"      hist trigger\t- If set, event hits are aggregated into a hash table\n"
	"\t    Format: hist:keys=<field1[,field2,...]>\n"
	"\t            [:<var1>=<field|var_ref|numeric_literal>[,<var2>=...]]\n"
	"\t            [:values=<field1[,field2,...]>]\n"
	"\t            [:sort=<field1[,field2,...]>]\n"
	"\t            [:size=#entries]\n"
	"\t            [:pause][:continue][:clear]\n"
	"\t            [:name=histname1]\n"
	"\t            [:nohitcount]\n"
	"\t            [:<handler>.<action>]\n"
	"\t            [if <filter>]\n\n"
	"\t    A hist trigger variable can be:\n"
	"\t        - a reference to a field e.g. x=common_timestamp,\n"
	"\t        - a reference to another variable e.g. y=$x,\n"
	"\t        - a numeric literal: e.g. ms_per_sec=1000,\n"
	"\t        - an arithmetic expression: e.g. time_secs=common_timestamp/1000\n"
	"\n"
	"\t    hist trigger arithmetic expressions support addition(+), subtraction(-),\n"
	"\t    multiplication(*) and division(/) operators. An operand can be either a\n"
	"\t    variable reference, field or numeric literal.\n"
	"\t    The available handlers are:\n\n"
	"\t        onmatch(matching.event)  - invoke on addition or update\n"
	"\t        onmax(var)               - invoke if var exceeds current max\n"
	"\t        onchange(var)            - invoke action if var changes\n\n"
	"\t    The available actions are:\n\n"
	"\t        trace(<synthetic_event>,param list)  - generate synthetic event\n"
	"\t        save(field,...)                      - save current event fields\n"
	"\t        snapshot()                           - snapshot the trace buffer\n\n"
	"  synthetic_events\t- Create/append/remove/show synthetic events\n"
	"\t  Write into this file to define/undefine new synthetic events.\n"
	"\t     example: echo 'myevent u64 lat; char name[]' >> synthetic_events\n"
#endif
	"  set_event\t\t- Enables events by name written into it\n"
	"  set_event_pid\t\t- If set, only the pids listed are traced\n"
	"  set_event_notrace_pid\t- If set, the pids listed are not traced\n"
	"\n"
	"kmark's own, beyond ftrace's:\n"
	"  available_markers\t- every event: 'system:name format [module]'\n"
	"  saved_comms\t\t- the task names records hold by id: 'id name'\n"
	"  read_delay_ms\t\t- at most this long an event waits for a blocked\n"
	"\t\t\t  trace_pipe reader (default 50; 0: wake at every event)\n"
	"  buffer_percent\t- wake readers early at this fill (default 50)\n"
	"  instances/new, instances/remove - 'echo NAME >' them in debugfs\n"
	"  A write that fails changes nothing; error_log says why.\n"
	"  Lost events show in trace_pipe as 'CPU:N [LOST M EVENTS]'.\n"
	"  Boot parameters: kmark_event=sched:sched_switch,sched_wakeup\n"
	"                   kmark_kprobe=p:myprobe,do_sys_openat2\n";

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

/* --- the directories --------------------------------------------------------- */

struct kmark_top_file {
	const char *name;
	umode_t mode;
	const struct file_operations *fops;
};

/* The settings every instance has (the top one too); i_private: it. */
static const struct kmark_top_file kmark_inst_files[] = {
	{ "tracing_on", 0600, &kmark_tracing_on_fops },
	{ "buffer_size_kb", 0600, &kmark_buffer_kb_fops },
	{ "buffer_total_size_kb", 0400, &kmark_buffer_total_fops },
	{ "buffer_subbuf_size_kb", 0600, &kmark_subbuf_fops },
	{ "error_log", 0600, &kmark_err_log_fops },
	{ "trace_marker", 0200, &kmark_trace_marker_fops },
	{ "tracing_cpumask", 0600, &kmark_cpumask_fops },
	{ "current_tracer", 0600, &kmark_tracer_fops },
	{ "available_tracers", 0400, &kmark_tracer_fops },
	{ "trace_options", 0600, &kmark_trace_options_fops },
};

/* The top directory's own. */
static const struct kmark_top_file kmark_top_files[] __initconst = {
	{ "saved_comms", 0400, &kmark_comms_fops },
	{ "saved_cmdlines", 0400, &kmark_cmdlines_fops },
	{ "saved_cmdlines_size", 0600, &kmark_cmdlines_size_fops },
	{ "printk_formats", 0400, &kmark_printk_formats_fops },
	{ "README", 0400, &kmark_readme_fops },
};

/* An instance's settings files. Under kmark_mutex; 0 or -ENOMEM. */
int kmark_fs_create_inst_settings(struct kmark_instance *inst)
{
	struct kmark_dir opts;
	int i;

	for (i = 0; i < ARRAY_SIZE(kmark_inst_files); i++)
		if (kmark_fs_file(kmark_inst_files[i].name,
				  kmark_inst_files[i].mode, &inst->dir, inst,
				  kmark_inst_files[i].fops))
			return -ENOMEM;
	if (kmark_fs_cpu_file("read_delay_ms", 0600, &inst->dir, inst, 0,
			      &kmark_uint_fops) ||
	    kmark_fs_cpu_file("buffer_percent", 0600, &inst->dir, inst, 1,
			      &kmark_uint_fops) ||
	    kmark_fs_file("trace_clock", 0600, &inst->dir, inst,
			  &kmark_clock_fops) ||
	    kmark_fs_dir("options", &inst->dir, &opts))
		return -ENOMEM;
	for (i = 0; i < KMARK_NR_OPTS; i++)
		if (kmark_opt_names[i] &&
		    kmark_fs_cpu_file(kmark_opt_names[i], 0600, &opts, inst, i,
				      &kmark_opt_fops))
			return -ENOMEM;
	return 0;
}

static int __init kmark_fs_init(void)
{
	int i;

	/* Boot-time allocations: a failure leaves a file out, as debugfs'. */
	if (kmark_mark_write_init())
		pr_warn("no trace_marker: out of memory\n");
	/*
	 * Neither tree (no debugfs, tracefs locked down): no file is made
	 * below, and the events, instances and boot parameters work all
	 * the same, without files.
	 */
	if (kmark_fs_dir("kmark", NULL, &kmark_top))
		pr_warn("no control files: neither debugfs nor tracefs took kmark's directory\n");
	else if (!kmark_top.d[KMARK_TRACEFS])
		pr_info("no /sys/kernel/tracing/kmark (tracefs locked down)\n");
	else if (!kmark_top.d[KMARK_DEBUGFS])
		pr_info("control files in /sys/kernel/tracing/kmark only (no debugfs)\n");
	for (i = 0; i < ARRAY_SIZE(kmark_top_files); i++)
		kmark_fs_file(kmark_top_files[i].name, kmark_top_files[i].mode,
			      &kmark_top, NULL, kmark_top_files[i].fops);
	kmark_events_create_top_files();
	kmark_kprobe_create_files(&kmark_top);
	if (IS_ENABLED(CONFIG_KMARK_HIST))
		kmark_synth_create_files(&kmark_top);
	kmark_dynevent_create_files(&kmark_top);
	kmark_instances_init();
	if (kmark_top_inst_create_files())
		pr_warn("some of kmark's control files are missing: out of memory\n");
	return 0;
}
fs_initcall(kmark_fs_init);

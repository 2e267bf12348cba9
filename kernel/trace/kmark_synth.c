// SPDX-License-Identifier: GPL-2.0
/*
 * kmark: synthetic events, ftrace's synthetic_events file
 * (Documentation/trace/histogram.rst, section 2.2).
 *
 *   echo 'wakeup_latency u64 lat; pid_t pid; char comm[16]' >> synthetic_events
 *   echo '!wakeup_latency' >> synthetic_events
 *
 * A synthetic event is an ordinary kmark event made at run time, in system
 * "synthetic": it has events/synthetic/NAME/ with format, filter, enable
 * and trigger, set_event takes it, it is recorded like a marker (its
 * record is a header and the packed fields, as a marker site's) and opens
 * in trace-cmd and KernelShark. What fires it is a hist trigger's action,
 * onmatch(SYS.EVENT).trace(NAME, ...) (kmark_hist.c).
 *
 * Field types: u8, u16, u32, u64, s8, s16, s32, s64, int, unsigned int,
 * long, unsigned long, pid_t, bool, and char[N] (char[16] is inline, as a
 * comm: other sizes are recorded as strings). At most 16 fields. A write
 * that fails changes nothing; an event that is enabled or that a hist
 * action uses cannot be removed (EBUSY).
 */
#define pr_fmt(fmt) "kmark: " fmt

#include <linux/ctype.h>
#include <linux/kprobes.h>
#include <linux/seq_file.h>
#include <linux/slab.h>

#include "kmark_internal.h"

#define KMARK_SYNTH_SYSTEM	"synthetic"

/* A kind of field: its C name, its conversion, its argument block slot. */
struct kmark_synth_type {
	const char *name;
	const char *conv;
	u8 size;
	u8 class;
};

static const struct kmark_synth_type kmark_synth_types[] = {
	{ "u64", "%llu", 8, KMARK_ARG_UNSIGNED },
	{ "s64", "%lld", 8, KMARK_ARG_SIGNED },
	{ "u32", "%u", 4, KMARK_ARG_UNSIGNED },
	{ "s32", "%d", 4, KMARK_ARG_SIGNED },
	{ "u16", "%u", 4, KMARK_ARG_UNSIGNED },
	{ "s16", "%d", 4, KMARK_ARG_SIGNED },
	{ "u8", "%u", 4, KMARK_ARG_UNSIGNED },
	{ "s8", "%d", 4, KMARK_ARG_SIGNED },
	{ "int", "%d", 4, KMARK_ARG_SIGNED },
	{ "unsigned int", "%u", 4, KMARK_ARG_UNSIGNED },
	{ "pid_t", "%d", 4, KMARK_ARG_SIGNED },
	{ "bool", "%u", 4, KMARK_ARG_UNSIGNED },
	{ "long", "%ld", sizeof(long), KMARK_ARG_SIGNED },
	{ "unsigned long", "%lu", sizeof(long), KMARK_ARG_UNSIGNED },
};

/**
 * struct kmark_synth - a synthetic event
 * @marker:	its place in kmark's namespace (system "synthetic")
 * @site:	the argument table a marker site would have (its layout is
 *		bound to it)
 * @args:	@site's table
 * @is_str:	fields recorded as strings (char[N], N != 16)
 * @users:	hist actions that fire it (kmark_mutex)
 * @def:	the definition as written, for reading back
 */
struct kmark_synth {
	struct kmark_marker marker;
	struct kmark_site site;
	struct kmark_arg args[KMARK_MAX_FIELDS];
	bool is_str[KMARK_MAX_FIELDS];
	unsigned int users;
	char *def;
};

static const struct kmark_event_ops kmark_synth_ops;

static struct kmark_synth *to_synth(struct kmark_marker *m)
{
	return container_of(m, struct kmark_synth, marker);
}

static void kmark_synth_free(struct kmark_synth *sy)
{
	if (!sy)
		return;
	kmark_free_layout(sy->marker.layout);
	kfree(sy->marker.name);
	kfree(sy->marker.format);
	kfree(sy->def);
	kfree(sy);
}

/* The synthetic event @name, or NULL. Under kmark_mutex. */
struct kmark_marker *kmark_synth_find(const char *name)
{
	struct kmark_marker *m = kmark_find_marker(KMARK_SYNTH_SYSTEM, name);

	return !IS_ERR_OR_NULL(m) && m->ops == &kmark_synth_ops ? m : NULL;
}

/* A hist action fires @m: it holds it (kmark_mutex). */
void kmark_synth_get(struct kmark_marker *m)
{
	to_synth(m)->users++;
}

void kmark_synth_put(struct kmark_marker *m)
{
	to_synth(m)->users--;
}

/* Whether field @i of @m is a string (char[N] other than 16), else a number. */
bool kmark_synth_field_is_str(const struct kmark_marker *m, unsigned int i)
{
	const struct kmark_synth *sy = container_of(m, struct kmark_synth,
						    marker);

	return sy->is_str[i] || sy->args[i].class == KMARK_ARG_COMM;
}

/**
 * kmark_synth_fire - record a synthetic event where it is enabled
 * @m:		the event
 * @vals:	its fields' values, in order: numbers, or for a string field
 *		a pointer to its text (cast to u64)
 *
 * From a hist action, on the recording path (preemption off). The fields
 * are packed into an argument block as a marker site's, and the event's
 * probes (its recorders) are called with it.
 */
void notrace kmark_synth_fire(struct kmark_marker *m, const u64 *vals)
{
	struct kmark_synth *sy = to_synth(m);
	u8 block[KMARK_MAX_FIELDS * 16] __aligned(8);
	unsigned int i;

	for (i = 0; i < m->layout->nr_fields; i++) {
		const struct kmark_arg *a = &sy->args[i];
		void *slot = block + a->offset;

		if (a->class == KMARK_ARG_COMM) {
			const char *s = (const char *)(unsigned long)vals[i];

			memset(slot, 0, a->size);
			if (s)
				strscpy(slot, s, a->size);
		} else if (a->size == 8) {
			put_unaligned(vals[i], (u64 *)slot);
		} else if (a->size == 4) {
			put_unaligned((u32)vals[i], (u32 *)slot);
		} else {
			put_unaligned((unsigned long)vals[i],
				      (unsigned long *)slot);
		}
	}
	kmark_marker_fire(m, block);
}
NOKPROBE_SYMBOL(kmark_synth_fire);

static void kmark_synth_show(struct seq_file *s, struct kmark_marker *m)
{
	seq_printf(s, "[synthetic] %s", to_synth(m)->def);
}

/* No enable: they record through probes, as markers (kmark_marker_fire()). */
static const struct kmark_event_ops kmark_synth_ops = {
	.show = kmark_synth_show,
};

static bool kmark_synth_ident(const char *s, size_t len)
{
	size_t i;

	if (!len || len >= KMARK_NAME_MAX || !(isalpha(*s) || *s == '_'))
		return false;
	for (i = 1; i < len; i++)
		if (!isalnum(s[i]) && s[i] != '_')
			return false;
	return true;
}

/*
 * Parse "NAME TYPE FIELD[; TYPE FIELD]..." into a synthetic event, not yet
 * in the namespace. Return: it, or an ERR_PTR with @err and @pos set.
 */
static struct kmark_synth *kmark_synth_parse(char *def, const char **err,
					     unsigned int *pos)
{
	const size_t fmt_size = KMARK_MAX_FIELDS * (KMARK_NAME_MAX + 8);
	char *p = def, *name, *field, *semi, *fmt;
	struct kmark_synth *sy;
	unsigned int n = 0, off = 0;
	const char *lerr;
	unsigned int lpos;

	*pos = 0;
	/* The format being built: too big for a 32-bit kernel's stack. */
	fmt = kzalloc(fmt_size, GFP_KERNEL);
	sy = kzalloc(sizeof(*sy), GFP_KERNEL);
	if (!sy || !fmt)
		goto nomem;
	INIT_LIST_HEAD(&sy->marker.files);
	sy->def = kstrdup(def, GFP_KERNEL);
	if (!sy->def)
		goto nomem;
	name = strsep(&p, " \t");
	if (!kmark_synth_ident(name, strlen(name))) {
		*err = "Synthetic event name must be letters, digits and '_'";
		goto fail;
	}
	sy->marker.name = kstrdup(name, GFP_KERNEL);
	if (!sy->marker.name)
		goto nomem;
	while (p && *(p = skip_spaces(p))) {
		const struct kmark_synth_type *t = NULL;
		unsigned int i, chars = 0;
		char *type = p;
		size_t tl;

		*pos = p - def;
		semi = strchr(p, ';');
		if (semi)
			*semi = '\0';
		field = strrchr(strim(p), ' ');
		if (!field) {
			*err = "A field is 'TYPE NAME'";
			goto fail;
		}
		*field++ = '\0';
		type = strim(type);
		tl = strlen(type);
		/* "char comm[16]": the size goes with the name in C. */
		if (!strcmp(type, "char") && strchr(field, '[')) {
			char *open = strchr(field, '['), *close;

			close = strchr(open, ']');
			if (close)
				*close = '\0';
			if (!close || kstrtouint(open + 1, 10, &chars) ||
			    !chars || chars > KMARK_STR_MAX) {
				*err = "char[N] takes a size, 1 to 256";
				goto fail;
			}
			*open = '\0';
		} else {
			for (i = 0; i < ARRAY_SIZE(kmark_synth_types); i++)
				if (strlen(kmark_synth_types[i].name) == tl &&
				    !strcmp(kmark_synth_types[i].name, type))
					t = &kmark_synth_types[i];
			if (!t) {
				*err = "Unknown type: u8..u64, s8..s64, int, unsigned int, long, unsigned long, pid_t, bool, char[N]";
				goto fail;
			}
		}
		if (!kmark_synth_ident(field, strlen(field))) {
			*err = "Field name must be letters, digits and '_'";
			goto fail;
		}
		if (n == KMARK_MAX_FIELDS) {
			*err = "Too many fields (at most 16)";
			goto fail;
		}
		if (chars == TASK_COMM_LEN) {
			sy->args[n] = (struct kmark_arg){ off, TASK_COMM_LEN,
							  KMARK_ARG_COMM };
			off += TASK_COMM_LEN;
		} else if (chars) {
			sy->args[n] = (struct kmark_arg){ off, sizeof(char *),
							  KMARK_ARG_CHARP };
			sy->is_str[n] = true;
			off += sizeof(char *);
		} else {
			sy->args[n] = (struct kmark_arg){ off, t->size, t->class };
			off += t->size;
		}
		snprintf(fmt + strlen(fmt), fmt_size - strlen(fmt), "%s%s=%s",
			 n ? " " : "", field, chars ? "%s" : t->conv);
		n++;
		p = semi ? semi + 1 : NULL;
	}
	*pos = 0;
	sy->marker.format = kstrdup(fmt, GFP_KERNEL);
	if (!sy->marker.format)
		goto nomem;
	sy->marker.layout = kmark_parse_format(fmt, &lerr, &lpos);
	if (IS_ERR(sy->marker.layout)) {
		sy->marker.layout = NULL;
		*err = lerr;
		goto fail;
	}
	/* Duplicate field names: the layout has them both. */
	for (lpos = 0; lpos < n; lpos++) {
		unsigned int j;

		for (j = 0; j < lpos; j++)
			if (!strcmp(sy->marker.layout->fields[j].name,
				    sy->marker.layout->fields[lpos].name)) {
				*err = "Duplicate field name";
				goto fail;
			}
	}
	sy->site.system = KMARK_SYNTH_SYSTEM;
	sy->site.name = sy->marker.name;
	sy->site.format = sy->marker.format;
	sy->site.args = sy->args;
	sy->site.nr_args = n;
	sy->site.args_size = off;
	lerr = kmark_layout_bind(sy->marker.layout, &sy->site);
	if (lerr) {
		*err = lerr;
		goto fail;
	}
	kmark_layout_finish(sy->marker.layout);
	sy->marker.system = KMARK_SYNTH_SYSTEM;
	sy->marker.ops = &kmark_synth_ops;
	kfree(fmt);
	return sy;
nomem:
	*err = "Out of memory";
	kfree(fmt);
	kmark_synth_free(sy);
	return ERR_PTR(-ENOMEM);
fail:
	kfree(fmt);
	kmark_synth_free(sy);
	return ERR_PTR(-EINVAL);
}

/* Add or remove one definition. Under kmark_mutex. */
static bool kmark_synth_busy(struct kmark_marker *m)
{
	return kmark_marker_recording(m) || to_synth(m)->users;
}

static void kmark_synth_remove(struct kmark_marker *m)
{
	kmark_event_files_remove(m);
	kmark_dynamic_unlink(m);
	/* Renderers may still hold it by its id. */
	synchronize_rcu();
	kmark_synth_free(to_synth(m));
}

/* Some synthetic event is enabled or used: "> synthetic_events" fails. */
static bool kmark_synth_any_busy(void)
{
	struct kmark_marker *m;

	list_for_each_entry(m, &kmark_markers, list)
		if (m->ops == &kmark_synth_ops && kmark_synth_busy(m))
			return true;
	return false;
}

/* All synthetic events but @keep go (none may be busy: checked before). */
static void kmark_synth_truncate(struct kmark_marker *keep)
{
	struct kmark_marker *m, *n;

	list_for_each_entry_safe(m, n, &kmark_markers, list)
		if (m->ops == &kmark_synth_ops && m != keep)
			kmark_synth_remove(m);
}

#define KMARK_SYNTH_BUSY_ALL "Some synthetic events are enabled or used by hist actions"

/*
 * One command. @truncate: the file was opened with O_TRUNC and this is its
 * first command, so the events there before go too, but only if the
 * command succeeds: a failed write changes nothing.
 */
static int kmark_synth_run(char *line, bool truncate, const char **err,
			   unsigned int *pos)
{
	struct kmark_synth *sy;
	struct kmark_marker *m, *old = NULL;
	int ret;

	lockdep_assert_held(&kmark_mutex);
	*pos = 0;
	*err = KMARK_SYNTH_BUSY_ALL;
	if (truncate && kmark_synth_any_busy())
		return -EBUSY;
	if (*line == '!') {
		m = kmark_synth_find(strim(line + 1));
		*err = "No such synthetic event";
		if (!m)
			return -ENOENT;
		*err = "The synthetic event is enabled or a hist action uses it";
		if (kmark_synth_busy(m))
			return -EBUSY;
		kmark_synth_remove(m);
		if (truncate)
			kmark_synth_truncate(NULL);
		return 0;
	}
	sy = kmark_synth_parse(line, err, pos);
	if (IS_ERR(sy))
		return PTR_ERR(sy);
	ret = -EEXIST;
	*err = "An event of that name exists";
	m = kmark_find_marker(KMARK_SYNTH_SYSTEM, sy->marker.name);
	if (m && !(truncate && m->ops == &kmark_synth_ops))
		goto fail;
	old = m;
	ret = kmark_dynamic_alloc_id(&sy->marker);
	*err = "No event id left";
	if (ret)
		goto fail;
	/*
	 * The same name again after "> synthetic_events": the old one goes
	 * first (were the new one's files to fail then, only out of memory,
	 * the old would be gone).
	 */
	if (old)
		kmark_synth_truncate(NULL);
	kmark_dynamic_link(&sy->marker);
	ret = kmark_event_files_add(&sy->marker);
	if (ret) {
		*err = "Out of memory";
		kmark_dynamic_unlink(&sy->marker);
		synchronize_rcu();
		goto fail;
	}
	if (truncate && !old)
		kmark_synth_truncate(&sy->marker);
	return 0;
fail:
	kmark_synth_free(sy);
	return ret;
}

/* --- the synthetic_events file ---------------------------------------------- */

static int kmark_synth_show_line(struct seq_file *s, void *v)
{
	struct kmark_marker *m = list_entry(v, struct kmark_marker, list);

	if (m->ops == &kmark_synth_ops)
		seq_printf(s, "%s\n", to_synth(m)->def);
	return 0;
}

static const struct seq_operations kmark_synth_seq_ops = {
	.start = kmark_markers_start,
	.next = kmark_markers_next,
	.stop = kmark_markers_stop,
	.show = kmark_synth_show_line,
};

/*
 * Per open file. Opening with O_TRUNC fails at once when some synthetic
 * event is busy (ftrace's habit), but clears only with the first command
 * that succeeds, or at close when nothing was written: a failed write
 * changes nothing.
 */
struct kmark_synth_file {
	bool truncate_pending;
	bool failed;
};

static struct kmark_synth_file *kmark_synth_sf(struct file *file)
{
	if (file->f_mode & FMODE_READ)
		return ((struct seq_file *)file->private_data)->private;
	return file->private_data;
}

static int kmark_synth_open(struct inode *inode, struct file *file)
{
	struct kmark_synth_file *sf;
	int ret = kmark_open_check();

	if (ret)
		return ret;
	sf = kzalloc(sizeof(*sf), GFP_KERNEL);
	if (!sf)
		return -ENOMEM;
	if ((file->f_mode & FMODE_WRITE) && (file->f_flags & O_TRUNC)) {
		mutex_lock(&kmark_mutex);
		ret = kmark_synth_any_busy() ? -EBUSY : 0;
		if (ret)
			kmark_log_err(kmark_top_inst, "> synthetic_events", 0,
				      KMARK_SYNTH_BUSY_ALL);
		mutex_unlock(&kmark_mutex);
		if (ret) {
			kfree(sf);
			return ret;
		}
		sf->truncate_pending = true;
	}
	if (file->f_mode & FMODE_READ) {
		ret = seq_open(file, &kmark_synth_seq_ops);
		if (ret) {
			kfree(sf);
			return ret;
		}
		((struct seq_file *)file->private_data)->private = sf;
	} else {
		file->private_data = sf;
	}
	return 0;
}

static ssize_t kmark_synth_write(struct file *file, const char __user *ubuf,
				 size_t cnt, loff_t *ppos)
{
	struct kmark_synth_file *sf = kmark_synth_sf(file);
	unsigned int pos = 0;
	const char *err = "Failed";
	char *cmd, *line, *copy;
	int ret;

	cmd = kmark_get_cmd(kmark_top_inst, ubuf, cnt);
	if (IS_ERR(cmd)) {
		sf->failed = true;
		return PTR_ERR(cmd);
	}
	line = strim(cmd);
	copy = kstrdup(line, GFP_KERNEL);
	if (!copy) {
		kfree(cmd);
		sf->failed = true;
		return -ENOMEM;
	}
	mutex_lock(&kmark_mutex);
	ret = *line ? kmark_synth_run(line, sf->truncate_pending, &err, &pos) : 0;
	if (ret)
		kmark_log_err(kmark_top_inst, copy, pos, err);
	else if (*line)
		sf->truncate_pending = false;
	mutex_unlock(&kmark_mutex);
	kfree(copy);
	kfree(cmd);
	if (ret) {
		sf->failed = true;
		return ret;
	}
	*ppos += cnt;
	return cnt;
}

static int kmark_synth_release(struct inode *inode, struct file *file)
{
	struct kmark_synth_file *sf = kmark_synth_sf(file);

	/* "> synthetic_events" with nothing written: remove them all. */
	if (sf->truncate_pending && !sf->failed) {
		mutex_lock(&kmark_mutex);
		if (kmark_synth_any_busy())
			kmark_log_err(kmark_top_inst, "> synthetic_events", 0,
				      KMARK_SYNTH_BUSY_ALL);
		else
			kmark_synth_truncate(NULL);
		mutex_unlock(&kmark_mutex);
	}
	kfree(sf);
	if (file->f_mode & FMODE_READ)
		return seq_release(inode, file);
	return 0;
}

static const struct file_operations kmark_synth_fops = {
	.open = kmark_synth_open,
	.read = seq_read,
	.write = kmark_synth_write,
	.llseek = seq_lseek,
	.release = kmark_synth_release,
};

int __init kmark_synth_create_files(const struct kmark_dir *dir)
{
	return kmark_fs_file("synthetic_events", 0600, dir, NULL,
			     &kmark_synth_fops);
}

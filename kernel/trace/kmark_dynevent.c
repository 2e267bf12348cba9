// SPDX-License-Identifier: GPL-2.0
/*
 * kmark: dynamic_events, ftrace's one file for the events made at run
 * time (trace_dynevent.c). Kprobe events are written as in kprobe_events
 * ("p:", "r:"), synthetic events as in synthetic_events with "s:" first;
 * reading lists them all, each in the syntax that makes it, by group and
 * name (kmark's event list is kept so; ftrace's lists them as made):
 *
 *   echo 's:wake_lat u64 lat; pid_t pid' >> dynamic_events
 *   echo 'p:myopen do_sys_openat2 dfd=$arg1' >> dynamic_events
 *   echo '-:synthetic/wake_lat' >> dynamic_events	(or -:wake_lat)
 *   echo '!p:myopen do_sys_openat2 dfd=$arg1' >> dynamic_events
 *   echo > dynamic_events				(all of them)
 *
 * A write is all or nothing, as every kmark control file's: a write that
 * fails changes nothing. ftrace applies a write's lines one by one; kmark
 * takes several kprobe commands in one write (as kprobe_events does) but a
 * synthetic event's command only alone, so that no write is half applied
 * across the two kinds. "> dynamic_events" deletes both kinds, and none
 * while one of either kind is enabled or used by a hist action.
 */
#define pr_fmt(fmt) "kmark: " fmt

#include <linux/ctype.h>
#include <linux/seq_file.h>
#include <linux/slab.h>

#include "kmark_internal.h"

#define KMARK_DYN_LOC		"dynamic_events"
/* ftrace's synthetic events report here, from either file. */
#define KMARK_SYNTH_LOC		"synthetic_events"
/* ftrace's SYNTH_ERR_INVALID_DYN_CMD and SYNTH_ERR_INVALID_CMD */
#define KMARK_DYN_ERR_SYNTH_GROUP \
	"Command must be of the form: s or -:[synthetic/]<name> field[;field] ..."
#define KMARK_DYN_ERR_SYNTH_CMD \
	"Command must be of the form: <name> field[;field] ..."
#define KMARK_DYN_ERR_ALONE \
	"A synthetic event's command comes alone in a write (a write is all or nothing)"
#define KMARK_DYN_ERR_NO_KPROBES \
	"This kernel has no kprobe events (CONFIG_KMARK_KPROBES): only s: and -:synthetic/"
#define KMARK_DYN_ERR_KPROBES_BUSY \
	"Some kprobe events are enabled: disable them in set_event first"

#define KMARK_HAVE_KPROBES	IS_ENABLED(CONFIG_KMARK_KPROBES)
#define KMARK_HAVE_SYNTH	IS_ENABLED(CONFIG_KMARK_HIST)

static bool kmark_dyn_synth_busy(void)
{
	return KMARK_HAVE_SYNTH && kmark_synth_any_busy();
}

static void kmark_dyn_synth_remove_all(void)
{
	if (KMARK_HAVE_SYNTH)
		kmark_synth_remove_all();
}

/* What "> dynamic_events" deletes besides the kprobe events. */
static const struct kmark_dyn_also kmark_dyn_synth_also = {
	.busy = kmark_dyn_synth_busy,
	.remove_all = kmark_dyn_synth_remove_all,
};

/*
 * Where the synthetic event's name starts in a command for it: after
 * "s:", "!s:" or "-:", and "synthetic/". 0 if it is not one: "-:NAME"
 * without a group is one when NAME is a synthetic event and no kprobe
 * event kprobes/NAME exists (ftrace's "-:NAME" deletes any event so
 * named). Under kmark_mutex.
 */
static unsigned int kmark_dyn_synth_start(const char *line)
{
	static const char grp[] = "synthetic/";
	char name[KMARK_NAME_MAX];
	struct kmark_marker *m;
	unsigned int k;
	size_t n;

	if (!strncmp(line, "s:", 2))
		k = 2;
	else if (!strncmp(line, "!s:", 3))
		k = 3;
	else if (!strncmp(line, "-:", 2))
		k = 2;
	else
		return 0;
	if (!strncmp(line + k, grp, sizeof(grp) - 1))
		return k + sizeof(grp) - 1;
	if (line[0] != '-')
		return k;
	n = strcspn(line + k, " \t/");
	if (!KMARK_HAVE_SYNTH || line[k + n] == '/' || n >= sizeof(name))
		return 0;
	memcpy(name, line + k, n);
	name[n] = '\0';
	if (!kmark_synth_find(name))
		return 0;
	if (KMARK_HAVE_KPROBES) {
		m = kmark_find_marker("kprobes", name);
		if (!IS_ERR_OR_NULL(m))
			return 0;
	}
	return k;
}

/*
 * One synthetic event's command, alone in its write, in @line (changed in
 * place; @orig is it as written, for error_log). @truncate: after "> ",
 * the kprobe events go too if it succeeds.
 */
static int kmark_dyn_synth(char *line, const char *orig, bool truncate)
{
	unsigned int start, pos = 0;
	const char *err = "Failed";
	const char *loc = KMARK_SYNTH_LOC;
	LIST_HEAD(dead);
	int ret = -EINVAL;

	mutex_lock(&kmark_mutex);
	start = kmark_dyn_synth_start(line);
	if (!KMARK_HAVE_SYNTH || !start) {
		/* "s:GRP/NAME" of another group */
		err = KMARK_DYN_ERR_SYNTH_GROUP;
		goto out;
	}
	if (line[0] == 's' && !strpbrk(line, " \t")) {
		err = KMARK_DYN_ERR_SYNTH_CMD;
		goto out;
	}
	if (line[0] == 's' && memchr(line + start, '/',
				     strcspn(line + start, " \t"))) {
		err = KMARK_DYN_ERR_SYNTH_GROUP;
		goto out;
	}
	if (truncate && KMARK_HAVE_KPROBES && kmark_kprobe_any_busy()) {
		loc = KMARK_DYN_LOC;
		err = KMARK_DYN_ERR_KPROBES_BUSY;
		ret = -EBUSY;
		goto out;
	}
	/* A removal is synthetic_events' "!NAME", in place. */
	if (line[0] != 's')
		line[--start] = '!';
	ret = kmark_synth_command(line, start, truncate, &err, &pos);
	if (!ret && truncate && KMARK_HAVE_KPROBES)
		kmark_kprobe_remove_all(&dead);
out:
	if (ret)
		kmark_log_err_loc(kmark_top_inst, loc, orig, pos, err);
	mutex_unlock(&kmark_mutex);
	if (KMARK_HAVE_KPROBES)
		kmark_kprobe_free_list(&dead);
	return ret;
}

/*
 * "> dynamic_events" with nothing written: every dynamic event goes,
 * unless one is busy (then none does, and error_log says why).
 */
static int kmark_dyn_clear(void)
{
	int ret = 0;

	if (KMARK_HAVE_KPROBES) {
		kmark_kprobe_truncate("> dynamic_events", &kmark_dyn_synth_also);
		return 0;
	}
	mutex_lock(&kmark_mutex);
	if (kmark_dyn_synth_busy()) {
		kmark_log_err_loc(kmark_top_inst, KMARK_DYN_LOC,
				  "> dynamic_events", 0, KMARK_SYNTH_BUSY_ALL);
		ret = -EBUSY;
	} else {
		kmark_dyn_synth_remove_all();
	}
	mutex_unlock(&kmark_mutex);
	return ret;
}

/*
 * The kprobe commands of a write: "!p:..." and "!r:..." (dynamic_events'
 * deletion by definition) become kprobe_events' "-:...", in place.
 */
static int kmark_dyn_kprobes(char *buf, bool truncate)
{
	char *line, *colon;

	for (line = buf; line; line = strchr(line, '\n')) {
		line = skip_spaces(line + (*line == '\n'));
		if (*line != '!')
			continue;
		/* (its own line's colon: "!" alone on a line is no deletion) */
		colon = strpbrk(line, ":\n");
		if (!colon || *colon != ':' || colon - line < 2 ||
		    memchr(line, ' ', colon - line))
			continue;	/* the kprobe parser says what is wrong */
		memset(line, ' ', colon - line);
		colon[-1] = '-';
	}
	return kmark_kprobe_command(buf, truncate, &kmark_dyn_synth_also);
}

/*
 * The write's synthetic event command, in *@synth (its line, trimmed and
 * NUL-terminated), or NULL if it has none. Return: -EINVAL when that
 * command is among others, else 0.
 */
static int kmark_dyn_find_synth(char *buf, char **synth)
{
	unsigned int nlines = 0;
	char *line, *next;
	char c;

	*synth = NULL;
	mutex_lock(&kmark_mutex);
	for (line = buf; *line; line = next + !!c) {
		next = strchrnul(line, '\n');
		c = *next;
		*next = '\0';	/* for a moment: the line alone */
		line = skip_spaces(line);
		if (*line && *line != '#') {
			nlines++;
			if (!*synth && kmark_dyn_synth_start(line))
				*synth = line;
		}
		if (*synth != line)
			*next = c;
	}
	mutex_unlock(&kmark_mutex);
	if (*synth)
		*synth = strim(*synth);
	return *synth && nlines > 1 ? -EINVAL : 0;
}

static ssize_t kmark_dyn_write(struct file *file, const char __user *ubuf,
			       size_t cnt, loff_t *ppos)
{
	struct kmark_cmd_file *df = kmark_cmd_file(file);
	char *buf, *orig = NULL, *synth;
	int ret;

	if (cnt >= PAGE_SIZE) {
		df->failed = true;
		kmark_log_err_loc(kmark_top_inst, KMARK_DYN_LOC, "", 0,
				  KMARK_ERR_TOO_LONG);
		return -E2BIG;
	}
	buf = memdup_user_nul(ubuf, cnt);
	if (IS_ERR(buf)) {
		df->failed = true;
		return PTR_ERR(buf);
	}
	ret = kmark_dyn_find_synth(buf, &synth);
	if (ret) {
		kmark_log_err_loc(kmark_top_inst, KMARK_DYN_LOC, synth, 0,
				  KMARK_DYN_ERR_ALONE);
	} else if (synth) {
		orig = kstrdup(synth, GFP_KERNEL);
		ret = orig ? kmark_dyn_synth(synth, orig, df->truncate_pending) :
			     -ENOMEM;
	} else if (KMARK_HAVE_KPROBES) {
		ret = kmark_dyn_kprobes(buf, df->truncate_pending);
	} else if (*skip_spaces(buf)) {
		kmark_log_err_loc(kmark_top_inst, KMARK_DYN_LOC, strim(buf), 0,
				  KMARK_DYN_ERR_NO_KPROBES);
		ret = -EINVAL;
	} else {
		ret = df->truncate_pending ? kmark_dyn_clear() : 0;
	}
	kfree(orig);
	kfree(buf);
	if (ret) {
		df->failed = true;
		return ret;
	}
	df->truncate_pending = false;
	*ppos += cnt;
	return cnt;
}

static int kmark_dyn_show(struct seq_file *s, void *v)
{
	struct kmark_marker *m = list_entry(v, struct kmark_marker, list);

	if (!(KMARK_HAVE_KPROBES && kmark_kprobe_show_def(s, m)) && KMARK_HAVE_SYNTH)
		kmark_synth_show_dyn(s, m);
	return 0;
}

static const struct seq_operations kmark_dyn_seq_ops = {
	.start = kmark_markers_start,
	.next = kmark_markers_next,
	.stop = kmark_markers_stop,
	.show = kmark_dyn_show,
};

/* "> dynamic_events" fails at once if an event of either kind is busy. */
static const char *kmark_dyn_trunc_busy(void)
{
	if (KMARK_HAVE_KPROBES && kmark_kprobe_any_busy())
		return KMARK_DYN_ERR_KPROBES_BUSY;
	if (kmark_dyn_synth_busy())
		return KMARK_SYNTH_BUSY_ALL;
	return NULL;
}

static void kmark_dyn_trunc_clear(void)
{
	kmark_dyn_clear();
}

static const struct kmark_cmd_ops kmark_dyn_cmd_ops = {
	.seq = &kmark_dyn_seq_ops,
	.busy = kmark_dyn_trunc_busy,
	.loc = KMARK_DYN_LOC,
	.what = "> dynamic_events",
	.clear = kmark_dyn_trunc_clear,
};

static int kmark_dyn_open(struct inode *inode, struct file *file)
{
	return kmark_cmd_open(file, &kmark_dyn_cmd_ops);
}

static int kmark_dyn_release(struct inode *inode, struct file *file)
{
	return kmark_cmd_release(inode, file, &kmark_dyn_cmd_ops);
}

static const struct file_operations kmark_dyn_fops = {
	.open = kmark_dyn_open,
	.read = seq_read,
	.write = kmark_dyn_write,
	.llseek = seq_lseek,
	.release = kmark_dyn_release,
};

int __init kmark_dynevent_create_files(const struct kmark_dir *dir)
{
	if (!KMARK_HAVE_KPROBES && !KMARK_HAVE_SYNTH)
		return 0;
	return kmark_fs_file("dynamic_events", 0600, dir, NULL,
			     &kmark_dyn_fops) ? -ENOMEM : 0;
}

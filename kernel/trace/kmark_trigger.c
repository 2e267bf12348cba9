// SPDX-License-Identifier: GPL-2.0
/*
 * kmark: event triggers, ftrace's events/SYS/NAME/trigger
 * (Documentation/trace/events.rst, section 6; kernel/trace/trace_events_trigger.c).
 *
 *   echo 'COMMAND[:COUNT] [if FILTER]' > events/SYS/NAME/trigger
 *   echo '!COMMAND' >> events/SYS/NAME/trigger        removes it
 *
 *   traceon, traceoff               the instance's tracing_on
 *   snapshot                        swap the buffer with its snapshot
 *   stacktrace                      a kernel stack into the buffer
 *   enable_event:SYS:NAME           record SYS:NAME (soft mode: its
 *   disable_event:SYS:NAME          recorder is attached, soft-disabled)
 *   hist:...                        kmark_hist.c (CONFIG_KMARK_HIST)
 *
 * A command is a struct kmark_trigger_cmd, registered in kmark_trigger_cmds[]
 * (adding one is adding a table entry); an installed trigger is a struct
 * kmark_trigger on its event file's RCU list. A trigger fires whether or
 * not its event is recorded: installing one attaches the event's recorder
 * in soft mode (ftrace's TRIGGER_MODE), which runs the triggers before it
 * looks at whether to record.
 *
 * COUNT as ftrace's: the trigger fires that many more times, counting only
 * the times it did something (traceoff when tracing was on, ...). FILTER is
 * events/SYS/NAME/filter's grammar, read on the event's fields.
 *
 * Reading the file lists the triggers as ftrace does ("traceoff:unlimited",
 * "enable_event:sched:sched_switch:count=3 if prev_pid == 1"), or, when
 * there are none, the commands available. A write that fails changes
 * nothing and says why in error_log.
 */
#define pr_fmt(fmt) "kmark: " fmt

#include <linux/ctype.h>
#include <linux/kprobes.h>
#include <linux/rculist.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/stacktrace.h>

#include "kmark_internal.h"

#define KMARK_TRIGGERS_MAX	32	/* per event file: a bit each when hit */

static const struct kmark_trigger_cmd *kmark_trigger_cmds[] = {
	&kmark_traceon_cmd,
	&kmark_traceoff_cmd,
	&kmark_snapshot_cmd,
	&kmark_stacktrace_cmd,
	&kmark_enable_event_cmd,
	&kmark_disable_event_cmd,
#ifdef CONFIG_KMARK_HIST
	&kmark_hist_cmd,
#endif
};

#define KMARK_ERR_TRIGGER \
	"Unknown trigger: traceon, traceoff, snapshot, stacktrace, enable_event, disable_event or hist"

/* --- firing --------------------------------------------------------------- */

/*
 * Count one firing of @t that did something. Racy between CPUs, as
 * ftrace's: two CPUs may both fire the last one.
 */
static void kmark_trigger_count(struct kmark_trigger *t)
{
	long c = READ_ONCE(t->count);

	if (c > 0)
		WRITE_ONCE(t->count, c - 1);
}

static bool kmark_trigger_live(const struct kmark_trigger *t)
{
	return READ_ONCE(t->count) != 0 && !READ_ONCE(t->paused);
}

/* Each CPU's nesting of trigger runs, per context level (task, softirq...). */
static DEFINE_PER_CPU(u8 [4], kmark_trigger_nest);

/* How deep this context's triggers run now: 1 in the outermost. */
unsigned int notrace kmark_trigger_depth(void)
{
	unsigned int level = interrupt_context_level();

	return level < 4 ? this_cpu_read(kmark_trigger_nest[level]) : 0;
}
NOKPROBE_SYMBOL(kmark_trigger_depth);

static bool notrace kmark_trigger_enter(struct kmark_event_file *file)
{
	unsigned int level = interrupt_context_level();

	if (WARN_ON_ONCE(level >= 4))
		return false;
	if (this_cpu_read(kmark_trigger_nest[level]) >= KMARK_TRIGGER_DEPTH) {
		atomic_long_inc(&file->nested);
		return false;
	}
	this_cpu_inc(kmark_trigger_nest[level]);
	return true;
}
NOKPROBE_SYMBOL(kmark_trigger_enter);

static void notrace kmark_trigger_exit(void)
{
	this_cpu_dec(kmark_trigger_nest[interrupt_context_level()]);
}
NOKPROBE_SYMBOL(kmark_trigger_exit);

/**
 * kmark_triggers_call - run an event's triggers for one hit
 * @file:	the event file (its recorder was called)
 * @hdr:	the hit's common header (what the record would have)
 * @rec:	its fields: a record, or a marker's argument block less
 *		KMARK_HDR_SIZE (then @len is 0: its strings are pointers)
 * @len:	the record's length, or 0
 * @post:	out: the triggers that fired but run only after the record is
 *		committed (snapshot, stacktrace), or that fired and have more
 *		to do then (hist's snapshot()), a bit each by position
 *
 * Called on the recording path, preemption off, any context.
 */
void notrace kmark_triggers_call(struct kmark_event_file *file,
				 const struct kmark_entry *hdr,
				 const void *rec, unsigned int len,
				 unsigned long *post)
{
	struct kmark_trigger *t;
	unsigned int i = 0;

	if (!kmark_trigger_enter(file))
		return;
	list_for_each_entry_rcu(t, &file->triggers, list) {
		const struct kmark_filter *flt;

		if (i >= KMARK_TRIGGERS_MAX)
			break;
		if (!kmark_trigger_live(t))
			goto next;
		flt = rcu_dereference_sched(t->filter);
		if (flt && !kmark_filter_match(flt, hdr, rec, len))
			goto next;
		if (t->cmd->post) {
			__set_bit(i, post);
		} else {
			if (t->cmd->fire(t, hdr, rec, len))
				kmark_trigger_count(t);
			if (t->after)
				__set_bit(i, post);
		}
next:
		i++;
	}
	kmark_trigger_exit();
}
NOKPROBE_SYMBOL(kmark_triggers_call);

/* The triggers kmark_triggers_call() left for after the commit. */
void notrace kmark_triggers_post(struct kmark_event_file *file,
				 const struct kmark_entry *hdr,
				 const void *rec, unsigned int len,
				 unsigned long post)
{
	struct kmark_trigger *t;
	unsigned int i = 0;

	/* (post is empty when kmark_triggers_call() refused the depth) */
	if (!kmark_trigger_enter(file))
		return;
	list_for_each_entry_rcu(t, &file->triggers, list) {
		if (i >= KMARK_TRIGGERS_MAX)
			break;
		/*
		 * A bit is a position: triggers added or removed since the
		 * first pass move the others. Only a trigger of a post kind
		 * (or with an after hook) runs here, never another kind
		 * without its filter, as ftrace's post pass selects by kind;
		 * nor one paused or spent since. (An after hook finds its own
		 * hit's state, or does nothing.)
		 */
		if (!test_bit(i, &post))
			;
		else if (t->after)
			t->cmd->after(t);
		else if (t->cmd->post && kmark_trigger_live(t) &&
			 t->cmd->fire(t, hdr, rec, len))
			kmark_trigger_count(t);
		i++;
	}
	kmark_trigger_exit();
}
NOKPROBE_SYMBOL(kmark_triggers_post);

/* --- the commands ------------------------------------------------------------- */

static bool notrace kmark_traceon_fire(struct kmark_trigger *t,
				       const struct kmark_entry *hdr,
				       const void *rec, unsigned int len)
{
	struct kmark_instance *inst = t->file->inst;

	if (READ_ONCE(inst->tracing_on))
		return false;
	WRITE_ONCE(inst->tracing_on, true);
	return true;
}
NOKPROBE_SYMBOL(kmark_traceon_fire);

static bool notrace kmark_traceoff_fire(struct kmark_trigger *t,
					const struct kmark_entry *hdr,
					const void *rec, unsigned int len)
{
	struct kmark_instance *inst = t->file->inst;

	if (!READ_ONCE(inst->tracing_on))
		return false;
	WRITE_ONCE(inst->tracing_on, false);
	return true;
}
NOKPROBE_SYMBOL(kmark_traceoff_fire);

const struct kmark_trigger_cmd kmark_traceon_cmd = {
	.name = "traceon",
	.fire = kmark_traceon_fire,
};

/* After the commit: the event that turns tracing off is recorded, as ftrace's. */
const struct kmark_trigger_cmd kmark_traceoff_cmd = {
	.name = "traceoff",
	.fire = kmark_traceoff_fire,
	.post = true,
};

/* snapshot: the instance's buffer and its snapshot swap (allocated now). */
static int kmark_snapshot_reg(struct kmark_trigger *t,
			      struct kmark_trigger_err *err)
{
	return kmark_snapshot_alloc(t->file->inst);
}

static bool notrace kmark_snapshot_fire(struct kmark_trigger *t,
					const struct kmark_entry *hdr,
					const void *rec, unsigned int len)
{
	return !kmark_snapshot_swap(t->file->inst);
}
NOKPROBE_SYMBOL(kmark_snapshot_fire);

const struct kmark_trigger_cmd kmark_snapshot_cmd = {
	.name = "snapshot",
	.reg = kmark_snapshot_reg,
	.fire = kmark_snapshot_fire,
	.post = true,
};

/* stacktrace: where the event fired, as a kernel_stack event. */
static bool notrace kmark_stacktrace_fire(struct kmark_trigger *t,
					  const struct kmark_entry *hdr,
					  const void *rec, unsigned int len)
{
	kmark_record_stack(t->file->inst, false, hdr);
	return true;
}
NOKPROBE_SYMBOL(kmark_stacktrace_fire);

const struct kmark_trigger_cmd kmark_stacktrace_cmd = {
	.name = "stacktrace",
	.fire = kmark_stacktrace_fire,
	.post = true,
};

/*
 * enable_event:SYS:NAME and disable_event:SYS:NAME: the target event of the
 * same instance, held in soft mode while the trigger exists; firing clears
 * or sets its SOFT_DISABLED flag.
 */
static int kmark_event_ctl_parse(struct kmark_trigger *t, char *param,
				 struct kmark_trigger_err *err)
{
	char *sys = strsep(&param, ":"), *name = strsep(&param, ":");
	struct kmark_event_file *target;

	err->msg = "enable_event and disable_event take SYSTEM:EVENT";
	if (!sys || !*sys || !name || !*name)
		return -EINVAL;
	target = kmark_find_file(t->file->inst, sys, name);
	err->msg = "No such event in this instance (see available_events)";
	if (!target || target->m->always_on)
		return -EINVAL;
	t->target = target;
	/* What is left is the count, "[:COUNT]", for the caller. */
	t->rest = param;
	return 0;
}

static int kmark_event_ctl_reg(struct kmark_trigger *t,
			       struct kmark_trigger_err *err)
{
	int ret = kmark_event_enable(t->target, true, true);

	if (!ret)
		refcount_inc(&t->target->ref);
	return ret;
}

static void kmark_event_ctl_unreg(struct kmark_trigger *t)
{
	kmark_event_enable(t->target, false, true);
	kmark_event_file_put(t->target);
}

static bool kmark_event_ctl_same(const struct kmark_trigger *a,
				 const struct kmark_trigger *b)
{
	return a->target == b->target;
}

static void kmark_event_ctl_print(struct seq_file *m,
				  const struct kmark_trigger *t)
{
	seq_printf(m, ":%s:%s", t->target->m->system, t->target->m->name);
}

static bool notrace kmark_enable_event_fire(struct kmark_trigger *t,
					    const struct kmark_entry *hdr,
					    const void *rec, unsigned int len)
{
	return test_and_clear_bit(KMARK_EF_SOFT_DISABLED_BIT,
				  &t->target->flags);
}
NOKPROBE_SYMBOL(kmark_enable_event_fire);

static bool notrace kmark_disable_event_fire(struct kmark_trigger *t,
					     const struct kmark_entry *hdr,
					     const void *rec, unsigned int len)
{
	return !test_and_set_bit(KMARK_EF_SOFT_DISABLED_BIT,
				 &t->target->flags);
}
NOKPROBE_SYMBOL(kmark_disable_event_fire);

const struct kmark_trigger_cmd kmark_enable_event_cmd = {
	.name = "enable_event",
	.parse = kmark_event_ctl_parse,
	.reg = kmark_event_ctl_reg,
	.unreg = kmark_event_ctl_unreg,
	.same = kmark_event_ctl_same,
	.print = kmark_event_ctl_print,
	.fire = kmark_enable_event_fire,
};

const struct kmark_trigger_cmd kmark_disable_event_cmd = {
	.name = "disable_event",
	.parse = kmark_event_ctl_parse,
	.reg = kmark_event_ctl_reg,
	.unreg = kmark_event_ctl_unreg,
	.same = kmark_event_ctl_same,
	.print = kmark_event_ctl_print,
	.fire = kmark_disable_event_fire,
};

/* --- installing and removing ------------------------------------------------- */

static void kmark_trigger_free(struct kmark_trigger *t)
{
	if (!t)
		return;
	if (t->cmd && t->cmd->free)
		t->cmd->free(t);
	kmark_filter_free(rcu_dereference_protected(t->filter, 1));
	kfree(t->filter_str);
	kfree(t);
}

static void kmark_trigger_free_rcu(struct rcu_head *rcu)
{
	kmark_trigger_free(container_of(rcu, struct kmark_trigger, rcu));
}

/* Whether @a and @b are the same trigger (for '!' and for duplicates). */
static bool kmark_trigger_same(const struct kmark_trigger *a,
			       const struct kmark_trigger *b)
{
	return a->cmd == b->cmd && (!a->cmd->same || a->cmd->same(a, b));
}

/*
 * Take @t off its event (it is on the list): the command's undo, the soft
 * mode it held, then its memory after a grace period. Under kmark_mutex.
 */
static void kmark_trigger_remove(struct kmark_trigger *t)
{
	struct kmark_event_file *file = t->file;

	lockdep_assert_held(&kmark_mutex);
	list_del_rcu(&t->list);
	if (t->cmd->unreg)
		t->cmd->unreg(t);
	if (!--file->tm_ref)
		clear_bit(KMARK_EF_TRIGGER_MODE_BIT, &file->flags);
	kmark_event_enable(file, false, true);
	call_rcu(&t->rcu, kmark_trigger_free_rcu);
}

/* Every trigger of @file goes (its event or instance is going). */
void kmark_triggers_free_file(struct kmark_event_file *file)
{
	struct kmark_trigger *t, *tmp;

	lockdep_assert_held(&kmark_mutex);
	/* What depends on them first: it may be on this file too. */
	list_for_each_entry(t, &file->triggers, list)
		if (t->cmd->going)
			t->cmd->going(t);
	list_for_each_entry_safe(t, tmp, &file->triggers, list)
		kmark_trigger_remove(t);
}

/*
 * The triggers of @inst whose data is @data (a hist's table, named or
 * not), @not excepted: the first one's file, or with @drop set, each one
 * removed (and NULL).
 */
static struct kmark_event_file *kmark_triggers_in(const void *data,
						  struct kmark_instance *inst,
						  const struct kmark_trigger *not,
						  bool drop)
{
	struct kmark_event_file *file;
	struct kmark_trigger *t, *tmp;

	list_for_each_entry(file, &inst->files, list)
		list_for_each_entry_safe(t, tmp, &file->triggers, list) {
			if (t->data != data || t == not)
				continue;
			if (!drop)
				return file;
			kmark_trigger_remove(t);
		}
	return NULL;
}

/*
 * kmark_triggers_in() over @inst first, which may be an instance being
 * removed (off kmark_instance_list), then every listed one.
 */
static struct kmark_event_file *kmark_triggers_of(const void *data,
						  struct kmark_instance *inst,
						  const struct kmark_trigger *not,
						  bool drop)
{
	struct kmark_event_file *file;
	struct kmark_instance *pos;

	lockdep_assert_held(&kmark_mutex);
	file = kmark_triggers_in(data, inst, not, drop);
	list_for_each_entry(pos, &kmark_instance_list, list)
		if (!file && pos != inst)
			file = kmark_triggers_in(data, pos, not, drop);
	return file;
}

/* The event file of a trigger other than @not whose data is @data. */
struct kmark_event_file *kmark_triggers_other_file(const void *data,
						   const struct kmark_trigger *not)
{
	struct kmark_event_file *file;

	file = kmark_triggers_of(data, not->file->inst, not, false);
	return WARN_ON_ONCE(!file) ? not->file : file;
}

/*
 * Every trigger whose data is @data goes; @inst may be an instance being
 * removed (off the list).
 */
void kmark_triggers_drop_data(const void *data, struct kmark_instance *inst)
{
	kmark_triggers_of(data, inst, NULL, true);
}

/* The event files whose enable_event or disable_event triggers hold @target. */
void kmark_triggers_drop_target(struct kmark_event_file *target)
{
	struct kmark_event_file *file;
	struct kmark_trigger *t, *tmp;

	lockdep_assert_held(&kmark_mutex);
	list_for_each_entry(file, &target->inst->files, list)
		list_for_each_entry_safe(t, tmp, &file->triggers, list)
			if (t->target == target)
				kmark_trigger_remove(t);
}

/*
 * Parse one command, "[!]NAME[:PARAM...][:COUNT] [if FILTER]", into a new
 * trigger of @file. Return: the trigger (not installed), or an ERR_PTR with
 * @err set; *@remove says '!'.
 */
static struct kmark_trigger *kmark_trigger_parse(struct kmark_event_file *file,
						 char *cmd, bool *remove,
						 struct kmark_trigger_err *err)
{
	char *text = cmd, *word, *filter, *param, *count;
	const struct kmark_trigger_cmd *c = NULL;
	struct kmark_trigger *t;
	unsigned int i;
	int ret;

	err->pos = 0;
	*remove = *text == '!';
	if (*remove)
		text++;
	filter = strstr(text, " if ");
	if (filter) {
		*filter = '\0';
		filter += 4;
	}
	word = strim(text);
	param = strchr(word, ':');
	if (param)
		*param++ = '\0';
	for (i = 0; i < ARRAY_SIZE(kmark_trigger_cmds); i++)
		if (!strcmp(word, kmark_trigger_cmds[i]->name))
			c = kmark_trigger_cmds[i];
	if (!c) {
		err->msg = KMARK_ERR_TRIGGER;
		err->pos = *remove;
		return ERR_PTR(-EINVAL);
	}
	t = kzalloc(sizeof(*t), GFP_KERNEL);
	if (!t)
		goto nomem;
	t->cmd = c;
	t->file = file;
	t->count = -1;
	t->removing = *remove;
	count = param;
	if (c->parse) {
		ret = c->parse(t, param ?: (char *)"", err);
		if (ret)
			goto fail;
		count = t->rest;
	}
	/*
	 * '!' needs only enough to find the trigger: count and filter are
	 * ignored, as ftrace ignores them, so that a line read back from the
	 * trigger file ("snapshot:count=0") removes its trigger.
	 */
	if (count && *count && !c->own_count && !*remove) {
		if (!strcmp(count, "unlimited")) {
			t->count = -1;
		} else if (kstrtol(count, 0, &t->count) || t->count < 0) {
			err->msg = "Bad count: a number of times, 0 or more";
			ret = -EINVAL;
			goto fail;
		}
	}
	/*
	 * '!' needs only enough to find the trigger: count and filter are
	 * ignored, but for the kinds whose '!' names the filter (hist).
	 */
	if (filter && (!*remove || c->remove_filter)) {
		struct kmark_filter *flt;
		unsigned int fpos;

		filter = strim(filter);
		flt = kmark_filter_compile(file->m->layout, filter, &err->msg,
					   &fpos);
		if (IS_ERR(flt)) {
			/*
			 * As ftrace's error_log: the filter alone, with the
			 * caret in it, as the filter parser's error.
			 */
			ret = PTR_ERR(flt);
			err->loc = "event filter parse error";
			err->shown = err->line + (filter - cmd);
			err->pos = fpos;
			goto fail;
		}
		RCU_INIT_POINTER(t->filter, flt);
		t->filter_str = kstrdup(filter, GFP_KERNEL);
		if (!t->filter_str)
			goto nomem;
	}
	return t;
nomem:
	err->msg = "Out of memory";
	ret = -ENOMEM;
fail:
	kmark_trigger_free(t);
	return ERR_PTR(ret);
}

/*
 * One command written to @file's trigger file: add or remove a trigger.
 * All or nothing. Under kmark_mutex.
 */
static int kmark_trigger_run(struct kmark_event_file *file, char *cmd,
			     struct kmark_trigger_err *err)
{
	struct kmark_trigger *t, *old;
	unsigned int n = 0;
	bool remove;
	int ret;

	lockdep_assert_held(&kmark_mutex);
	t = kmark_trigger_parse(file, cmd, &remove, err);
	if (IS_ERR(t))
		return PTR_ERR(t);
	list_for_each_entry(old, &file->triggers, list) {
		n++;
		if (!kmark_trigger_same(old, t))
			continue;
		if (remove) {
			err->msg = old->cmd->busy ? old->cmd->busy(old) : NULL;
			if (err->msg) {
				kmark_trigger_free(t);
				return -EBUSY;
			}
			kmark_trigger_remove(old);
			kmark_trigger_free(t);
			return 0;
		}
		ret = old->cmd->update ? old->cmd->update(old, t) : -EEXIST;
		err->msg = old->cmd->exists ?:
			   "The event has this trigger already ('!' removes it)";
		err->pos = 0;
		kmark_trigger_free(t);
		return ret;
	}
	if (remove) {
		/* As ftrace: removing what is not there is not an error. */
		kmark_trigger_free(t);
		return 0;
	}
	ret = -ENOSPC;
	err->msg = "Too many triggers on this event (at most 32)";
	if (n >= KMARK_TRIGGERS_MAX)
		goto fail;
	/*
	 * tracing_on clears the previous boot's trace before this boot
	 * records (kmark_flight_start()); a traceon trigger would record
	 * into it, the two boots mixed under the old boot's event table.
	 */
	ret = -EBUSY;
	err->msg = "The previous boot's trace is here: set tracing_on (it clears it) first";
	if (t->cmd == &kmark_traceon_cmd && kmark_flight_prev(file->inst))
		goto fail;
	/* The event's recorder in soft mode: triggers fire unrecorded too. */
	ret = kmark_event_enable(file, true, true);
	err->msg = ret == -ENOMEM ? "Out of memory" :
		   "The event's code is gone (an __init function after boot)";
	if (ret)
		goto fail;
	err->msg = NULL;
	ret = t->cmd->reg ? t->cmd->reg(t, err) : 0;
	if (ret) {
		if (ret == -ENOMEM)
			err->msg = "Out of memory";
		else if (!err->msg)
			err->msg = "Could not set the trigger up";
		kmark_event_enable(file, false, true);
		goto fail;
	}
	file->tm_ref++;
	set_bit(KMARK_EF_TRIGGER_MODE_BIT, &file->flags);
	list_add_tail_rcu(&t->list, &file->triggers);
	return 0;
fail:
	kmark_trigger_free(t);
	return ret;
}

/* --- the trigger file -------------------------------------------------------------- */

static void kmark_trigger_print(struct seq_file *m, const struct kmark_trigger *t)
{
	if (t->cmd->show) {
		t->cmd->show(m, t);
		return;
	}
	seq_puts(m, t->cmd->name);
	if (t->cmd->print)
		t->cmd->print(m, t);
	if (t->count < 0)
		seq_puts(m, ":unlimited");
	else
		seq_printf(m, ":count=%ld", t->count);
	if (t->filter_str)
		seq_printf(m, " if %s", t->filter_str);
	seq_putc(m, '\n');
}

static int kmark_trigger_show(struct seq_file *m, void *v)
{
	struct kmark_event_file *file = m->private;
	struct kmark_trigger *t;
	unsigned int i;

	mutex_lock(&kmark_mutex);
	if (file->flags & KMARK_EF_FREED) {
		mutex_unlock(&kmark_mutex);
		return -ENODEV;
	}
	if (list_empty(&file->triggers)) {
		seq_puts(m, "# Available triggers:\n#");
		for (i = 0; i < ARRAY_SIZE(kmark_trigger_cmds); i++)
			seq_printf(m, " %s", kmark_trigger_cmds[i]->name);
		seq_putc(m, '\n');
	}
	list_for_each_entry(t, &file->triggers, list)
		kmark_trigger_print(m, t);
	if (atomic_long_read(&file->nested))
		seq_printf(m, "# %ld hits whose triggers did not run: nested deeper than %d (an action firing an event whose triggers fire it again)\n",
			   atomic_long_read(&file->nested), KMARK_TRIGGER_DEPTH);
	mutex_unlock(&kmark_mutex);
	return 0;
}

static int kmark_trigger_open(struct inode *inode, struct file *f)
{
	struct kmark_event_file *file;
	int ret = kmark_open_check();

	if (ret)
		return ret;
	file = kmark_event_file_get(inode);
	if (!file)
		return -ENODEV;
	/* "> trigger" does not clear (ftrace's does not either). */
	if (f->f_mode & FMODE_READ) {
		ret = single_open(f, kmark_trigger_show, file);
		if (ret)
			kmark_event_file_release(file);
		return ret;
	}
	f->private_data = file;
	return 0;
}

static struct kmark_event_file *kmark_trigger_file(struct file *f)
{
	if (f->f_mode & FMODE_READ)
		return ((struct seq_file *)f->private_data)->private;
	return f->private_data;
}

static int kmark_trigger_release(struct inode *inode, struct file *f)
{
	kmark_event_file_release(kmark_trigger_file(f));
	if (f->f_mode & FMODE_READ)
		return single_release(inode, f);
	return 0;
}

static ssize_t kmark_trigger_write(struct file *f, const char __user *ubuf,
				   size_t cnt, loff_t *ppos)
{
	struct kmark_event_file *file = kmark_trigger_file(f);
	struct kmark_trigger_err err = { .loc = "kmark" };
	char *cmd, *line, *copy, loc[2 * KMARK_NAME_MAX + 8];
	int ret;

	cmd = kmark_get_cmd(file->inst, ubuf, cnt);
	if (IS_ERR(cmd))
		return PTR_ERR(cmd);
	line = strim(cmd);
	/* The parser cuts the line up: error_log gets it whole. */
	copy = kstrdup(line, GFP_KERNEL);
	if (!copy) {
		kfree(cmd);
		return -ENOMEM;
	}
	err.line = copy;
	err.shown = copy;
	mutex_lock(&kmark_mutex);
	if (file->flags & KMARK_EF_FREED)
		ret = -ENODEV;
	else if (!*line)	/* an empty write changes nothing, as ftrace's */
		ret = 0;
	else
		ret = kmark_trigger_run(file, line, &err);
	if (ret && ret != -ENODEV) {
		if (!strcmp(err.loc, "hist"))
			snprintf(loc, sizeof(loc), "hist:%s:%s",
				 file->m->system, file->m->name);
		else
			strscpy(loc, err.loc);
		if (err.pre_msg)
			kmark_log_err_loc(file->inst, loc, err.line, err.pre_pos,
					  err.pre_msg);
		kmark_log_err_loc(file->inst, loc, err.shown, err.pos,
				  err.msg ?: "Failed");
	}
	mutex_unlock(&kmark_mutex);
	kfree(copy);
	kfree(cmd);
	if (ret)
		return ret;
	*ppos += cnt;
	return cnt;
}

const struct file_operations kmark_trigger_fops = {
	.open = kmark_trigger_open,
	.read = seq_read,
	.write = kmark_trigger_write,
	.llseek = seq_lseek,
	.release = kmark_trigger_release,
};

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

/*
 * A type ftrace's synthetic events take (synth_field_size()), its
 * conversion (synth_field_fmt()) and its slot in the argument block.
 */
struct kmark_synth_type {
	const char *name;
	const char *conv;
	u8 size;		/* the slot's */
	u8 class;
	u8 csize;		/* the C type's */
};

static const struct kmark_synth_type kmark_synth_types[] = {
	{ "s64", "%lld", 8, KMARK_ARG_SIGNED, 8 },
	{ "u64", "%llu", 8, KMARK_ARG_UNSIGNED, 8 },
	{ "s32", "%d", 4, KMARK_ARG_SIGNED, 4 },
	{ "u32", "%u", 4, KMARK_ARG_UNSIGNED, 4 },
	{ "s16", "%d", 4, KMARK_ARG_SIGNED, 2 },
	{ "u16", "%u", 4, KMARK_ARG_UNSIGNED, 2 },
	{ "s8", "%d", 4, KMARK_ARG_SIGNED, 1 },
	{ "u8", "%u", 4, KMARK_ARG_UNSIGNED, 1 },
	{ "char", "%d", 4, KMARK_ARG_SIGNED, 1 },
	{ "unsigned char", "%u", 4, KMARK_ARG_UNSIGNED, 1 },
	{ "int", "%d", 4, KMARK_ARG_SIGNED, 4 },
	{ "unsigned int", "%u", 4, KMARK_ARG_UNSIGNED, 4 },
	{ "long", "%ld", sizeof(long), KMARK_ARG_SIGNED, sizeof(long) },
	{ "unsigned long", "%lu", sizeof(long), KMARK_ARG_UNSIGNED,
	  sizeof(long) },
	{ "bool", "%d", 4, KMARK_ARG_SIGNED, 1 },
	{ "pid_t", "%d", 4, KMARK_ARG_SIGNED, 4 },
	{ "gfp_t", "%x", 4, KMARK_ARG_UNSIGNED, 4 },
};

/* ftrace's error_log texts (trace_events_synth.c). */
#define KMARK_SE_BAD_NAME	"Illegal name"
#define KMARK_SE_INVALID_CMD	"Command must be of the form: <name> field[;field] ..."
#define KMARK_SE_EXISTS		"Event already exists"
#define KMARK_SE_TOO_MANY	"Too many fields"
#define KMARK_SE_INCOMPLETE	"Incomplete type"
#define KMARK_SE_TYPE		"Invalid type"
#define KMARK_SE_FIELD		"Invalid field"
#define KMARK_SE_ARRAY		"Invalid array specification"

/**
 * struct kmark_synth - a synthetic event
 * @marker:	its place in kmark's namespace (system "synthetic")
 * @site:	the argument table a marker site would have (its layout is
 *		bound to it)
 * @args:	@site's table
 * @is_str:	fields recorded as strings (char[N], N != 16)
 * @chars:	each field's N of char[N] (0: char[]), -1 for a number
 * @csize:	a number's C size, as ftrace's synth_field_size()
 * @users:	hist actions that fire it (kmark_mutex)
 * @def:	the definition as ftrace lists it ("NAME\tTYPE FIELD; ..."), for
 *		reading back
 */
struct kmark_synth {
	struct kmark_marker marker;
	struct kmark_site site;
	struct kmark_arg args[KMARK_MAX_FIELDS];
	bool is_str[KMARK_MAX_FIELDS];
	s16 chars[KMARK_MAX_FIELDS];
	u8 csize[KMARK_MAX_FIELDS];
	unsigned int users;
	char *def;
};

/* The parser's buffers, off the stack. */
struct kmark_synth_scratch {
	char fmt[KMARK_MAX_FIELDS * (KMARK_NAME_MAX + 8)];
	char desc[KMARK_MAX_FIELDS * (2 * KMARK_NAME_MAX + 24) + KMARK_NAME_MAX];
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

/**
 * kmark_synth_field_takes - whether field @i of @m takes a hist parameter
 * @m:		the synthetic event
 * @i:		the field
 * @chars:	the parameter's char[N] (0: a string of any length), or -1
 *		for a number
 * @size:	a number's size
 * @is_signed:	a number's signedness
 *
 * As ftrace's check_synth_field(): char[] takes any string, char[N] a
 * char[N], a number one of its size and signedness.
 */
bool kmark_synth_field_takes(const struct kmark_marker *m, unsigned int i,
			     int chars, unsigned int size, bool is_signed)
{
	const struct kmark_synth *sy = container_of(m, struct kmark_synth,
						    marker);

	if (i >= m->layout->nr_fields)
		return false;
	if (sy->chars[i] >= 0)
		return chars >= 0 && (!sy->chars[i] || chars == sy->chars[i]);
	return chars < 0 && size == sy->csize[i] &&
	       is_signed == (sy->args[i].class == KMARK_ARG_SIGNED);
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
	const char *def = to_synth(m)->def;

	/* The fields, after the name and its tab */
	seq_printf(s, "[synthetic] %s", strchr(def, '\t') + 1);
}

/* No enable: they record through probes, as markers (kmark_marker_fire()). */
static const struct kmark_event_ops kmark_synth_ops = {
	.show = kmark_synth_show,
};

/* ftrace's is_good_name(): a letter or '_', then letters, digits, '_'. */
static bool kmark_synth_good_name(const char *s)
{
	if (!isalpha(*s) && *s != '_')
		return false;
	while (*++s)
		if (!isalnum(*s) && *s != '_')
			return false;
	return true;
}

/*
 * Fail with @msg, the caret where ftrace's err_pos() puts it: at the first
 * occurrence of @str in @cmd (0 if none, or no @str).
 */
static int kmark_synth_err(const char *cmd, const char **err,
			   unsigned int *pos, const char *msg, const char *str)
{
	const char *found = str ? strstr(cmd, str) : NULL;

	*err = msg;
	*pos = found ? found - cmd : 0;
	return -EINVAL;
}

/*
 * ftrace's synth_field_string_size(): N of "char[N]" (at most 256), 0 for
 * "char[]" (a string of any length), or -EINVAL.
 */
static int kmark_synth_string_size(const char *type)
{
	const char *start = strstr(type, "char["), *end;
	unsigned int size;
	char buf[4];

	if (!start)
		return -EINVAL;
	start += 5;
	end = strchr(type, ']');
	if (!end || end < start || end[1] || end - start > 3)
		return -EINVAL;
	if (end == start)
		return 0;
	memcpy(buf, start, end - start);
	buf[end - start] = '\0';
	if (kstrtouint(buf, 0, &size) || size > KMARK_STR_MAX)
		return -EINVAL;
	return size;
}

/*
 * One field of a definition, as ftrace's parse_synth_field(): "TYPE NAME"
 * or "unsigned TYPE NAME", NAME maybe with "[N]" for a char array. Adds it
 * as field @n of @sy at *@off, its conversion to @fmt and its description
 * to @desc; *@consumed counts the words taken.
 */
static int kmark_synth_field(struct kmark_synth *sy, unsigned int n,
			     int argc, char **argv, int *consumed,
			     const char *cmd, const char **err,
			     unsigned int *pos, char *fmt, char *desc,
			     unsigned int *off)
{
	const struct kmark_synth_type *t = NULL;
	char type[KMARK_NAME_MAX + 16], name[KMARK_NAME_MAX];
	const char *ftype = argv[0], *fname, *array;
	bool is_unsigned = !strcmp(ftype, "unsigned");
	unsigned int i, len;
	int chars = -1;

	if (is_unsigned) {
		if (argc < 3)
			return kmark_synth_err(cmd, err, pos, KMARK_SE_INCOMPLETE,
					       ftype);
		ftype = argv[1];
		fname = argv[2];
		*consumed += 3;
	} else {
		fname = argc > 1 ? argv[1] : NULL;
		*consumed += 2;
	}
	if (!fname)
		return kmark_synth_err(cmd, err, pos, KMARK_SE_FIELD, ftype);
	array = strchr(fname, '[');
	len = array ? array - fname : strlen(fname);
	if (len >= sizeof(name)) {
		*err = "Field name too long";
		return -EINVAL;
	}
	memcpy(name, fname, len);
	name[len] = '\0';
	if (!kmark_synth_good_name(name))
		return kmark_synth_err(cmd, err, pos, KMARK_SE_BAD_NAME, fname);
	snprintf(type, sizeof(type), "%s%s%s", is_unsigned ? "unsigned " : "",
		 ftype, array ?: "");
	if (strstr(type, "char[")) {
		chars = kmark_synth_string_size(type);
		if (chars < 0)
			return kmark_synth_err(cmd, err, pos,
					       array ? KMARK_SE_ARRAY :
					       KMARK_SE_TYPE,
					       array ? fname : ftype);
	} else {
		for (i = 0; i < ARRAY_SIZE(kmark_synth_types); i++)
			if (!strcmp(kmark_synth_types[i].name, type))
				t = &kmark_synth_types[i];
		if (!t)
			return kmark_synth_err(cmd, err, pos,
					       array ? KMARK_SE_ARRAY :
					       KMARK_SE_TYPE,
					       array ? fname : ftype);
	}
	if (n == KMARK_MAX_FIELDS)
		return kmark_synth_err(cmd, err, pos, KMARK_SE_TOO_MANY, NULL);
	sy->chars[n] = chars;
	sy->csize[n] = t ? t->csize : 0;
	if (chars == TASK_COMM_LEN) {
		/* char comm[16]: inline, as a marker's kmark_comm() */
		sy->args[n] = (struct kmark_arg){ *off, TASK_COMM_LEN,
						  KMARK_ARG_COMM };
		*off += TASK_COMM_LEN;
	} else if (chars >= 0) {
		/* other sizes, and char[]: recorded as strings */
		sy->args[n] = (struct kmark_arg){ *off, sizeof(char *),
						  KMARK_ARG_CHARP };
		sy->is_str[n] = true;
		*off += sizeof(char *);
	} else {
		sy->args[n] = (struct kmark_arg){ *off, t->size, t->class };
		*off += t->size;
	}
	sprintf(fmt + strlen(fmt), "%s%s=%s", n ? " " : "", name,
		chars >= 0 ? "%s" : t->conv);
	sprintf(desc + strlen(desc), "%s%s %s", n ? "; " : "", type, name);
	return 0;
}

/*
 * Parse "NAME FIELD[;FIELD]..." into a synthetic event, not yet in the
 * namespace, as ftrace's create_or_delete_synth_event() and
 * __create_synth_event() do, with their errors. @def is in @cmd, the
 * whole command (dynamic_events' has "s:" before it), where the carets
 * are placed as ftrace's. Return: it, or an ERR_PTR with @err and @pos set.
 */
static struct kmark_synth *kmark_synth_parse(const char *cmd, const char *def,
					     bool replace, const char **err,
					     unsigned int *pos)
{
	char *copy = NULL, *tmp, *chunk, *name, **argv, *fmt, *desc;
	struct kmark_synth_scratch *sc;
	unsigned int n = 0, off = 0, lpos;
	struct kmark_marker *m;
	struct kmark_synth *sy;
	int argc, consumed, ret = -EINVAL;
	const char *lerr;

	*pos = 0;
	sc = kzalloc(sizeof(*sc), GFP_KERNEL);
	sy = kzalloc(sizeof(*sy), GFP_KERNEL);
	if (!sy || !sc)
		goto nomem;
	fmt = sc->fmt;
	desc = sc->desc;
	INIT_LIST_HEAD(&sy->marker.files);
	/* check_command(): NAME and a first field before any ';' */
	copy = kstrdup(def, GFP_KERNEL);
	if (!copy)
		goto nomem;
	tmp = copy;
	chunk = strsep(&tmp, ";");
	argv = argv_split(GFP_KERNEL, chunk, &argc);
	if (!argv)
		goto nomem;
	argv_free(argv);
	if (argc < 3) {
		kmark_synth_err(cmd, err, pos, KMARK_SE_INVALID_CMD, NULL);
		goto fail;
	}
	kfree(copy);
	copy = kstrdup(def, GFP_KERNEL);
	if (!copy)
		goto nomem;
	tmp = copy;
	name = strsep(&tmp, " \t");
	if (!kmark_synth_good_name(name) || strlen(name) >= KMARK_NAME_MAX) {
		kmark_synth_err(cmd, err, pos, KMARK_SE_BAD_NAME, name);
		goto fail;
	}
	/* @replace: after "> synthetic_events" an old synthetic one goes */
	m = kmark_find_marker(KMARK_SYNTH_SYSTEM, name);
	if (m && !(replace && m->ops == &kmark_synth_ops)) {
		kmark_synth_err(cmd, err, pos, KMARK_SE_EXISTS, name);
		ret = -EEXIST;
		goto fail;
	}
	sy->marker.name = kstrdup(name, GFP_KERNEL);
	if (!sy->marker.name)
		goto nomem;
	sprintf(desc, "%s\t", name);
	tmp = skip_spaces(tmp);
	while ((chunk = strsep(&tmp, ";"))) {
		argv = argv_split(GFP_KERNEL, chunk, &argc);
		if (!argv)
			goto nomem;
		consumed = 0;
		while (argc > consumed) {
			ret = kmark_synth_field(sy, n, argc - consumed,
						argv + consumed, &consumed, cmd,
						err, pos, fmt, desc + strlen(desc),
						&off);
			if (ret) {
				argv_free(argv);
				goto fail;
			}
			n++;
		}
		argv_free(argv);
	}
	if (!n) {
		kmark_synth_err(cmd, err, pos, KMARK_SE_INVALID_CMD, NULL);
		goto fail;
	}
	*pos = 0;
	sy->def = kstrdup(desc, GFP_KERNEL);
	sy->marker.format = kstrdup(fmt, GFP_KERNEL);
	if (!sy->def || !sy->marker.format)
		goto nomem;
	sy->marker.layout = kmark_parse_format(fmt, &lerr, &lpos);
	if (IS_ERR(sy->marker.layout)) {
		ret = PTR_ERR(sy->marker.layout);
		sy->marker.layout = NULL;
		*err = ret == -ENOMEM ? "Out of memory" : lerr;
		goto fail;
	}
	ret = -EINVAL;
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
	kfree(copy);
	kfree(sc);
	return sy;
nomem:
	*err = "Out of memory";
	ret = -ENOMEM;
fail:
	kfree(copy);
	kfree(sc);
	kmark_synth_free(sy);
	return ERR_PTR(ret);
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
bool kmark_synth_any_busy(void)
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

/* Every synthetic event goes (none is busy: checked before). */
void kmark_synth_remove_all(void)
{
	kmark_synth_truncate(NULL);
}

/**
 * kmark_synth_command - run one synthetic_events command
 * @cmd:	the command as written (for error_log's carets)
 * @skip:	where in @cmd the synthetic_events syntax starts ("NAME
 *		FIELDS" or "!NAME"): dynamic_events has "s:" or "-:" first
 * @truncate:	the file was opened with O_TRUNC and this is its first
 *		command, so the events there before go too, but only if the
 *		command succeeds: a failed write changes nothing
 * @err:	output: error_log's text on failure
 * @pos:	output: the caret's place in @cmd
 *
 * Under kmark_mutex. Return: 0 or an error.
 */
int kmark_synth_command(char *cmd, unsigned int skip, bool truncate,
			const char **err, unsigned int *pos)
{
	char *line = cmd + skip;
	struct kmark_synth *sy;
	struct kmark_marker *m, *old = NULL;
	int ret;

	lockdep_assert_held(&kmark_mutex);
	*pos = 0;
	*err = KMARK_SYNTH_BUSY_ALL;
	if (truncate && kmark_synth_any_busy())
		return -EBUSY;
	if (*line == '!') {
		/* As ftrace: the name, up to a blank; the rest is ignored. */
		m = kmark_synth_find(strsep(&line, " \t") + 1);
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
	sy = kmark_synth_parse(cmd, line, truncate, err, pos);
	if (IS_ERR(sy))
		return PTR_ERR(sy);
	old = kmark_find_marker(KMARK_SYNTH_SYSTEM, sy->marker.name);
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

/**
 * kmark_synth_show_dyn - a synthetic event's line in dynamic_events
 * @s:		the file
 * @m:		an event
 *
 * Return: false if @m is not a synthetic event (nothing written).
 */
bool kmark_synth_show_dyn(struct seq_file *s, struct kmark_marker *m)
{
	if (m->ops != &kmark_synth_ops)
		return false;
	seq_printf(s, "s:%s/%s\n", KMARK_SYNTH_SYSTEM, to_synth(m)->def);
	return true;
}

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

static const char *kmark_synth_trunc_busy(void)
{
	return kmark_synth_any_busy() ? KMARK_SYNTH_BUSY_ALL : NULL;
}

/* "> synthetic_events" closed with nothing written: remove them all. */
static void kmark_synth_trunc_clear(void)
{
	mutex_lock(&kmark_mutex);
	if (kmark_synth_any_busy())
		kmark_log_err_loc(kmark_top_inst, "synthetic_events",
				  "> synthetic_events", 0, KMARK_SYNTH_BUSY_ALL);
	else
		kmark_synth_truncate(NULL);
	mutex_unlock(&kmark_mutex);
}

/*
 * Opening with O_TRUNC fails at once when some synthetic event is busy
 * (ftrace's habit), but clears only with the first command that
 * succeeds, or at close when nothing was written: a failed write changes
 * nothing (kmark_cmd_open()).
 */
static const struct kmark_cmd_ops kmark_synth_cmd_ops = {
	.seq = &kmark_synth_seq_ops,
	.busy = kmark_synth_trunc_busy,
	.loc = "synthetic_events",
	.what = "> synthetic_events",
	.clear = kmark_synth_trunc_clear,
};

static int kmark_synth_open(struct inode *inode, struct file *file)
{
	return kmark_cmd_open(file, &kmark_synth_cmd_ops);
}

static ssize_t kmark_synth_write(struct file *file, const char __user *ubuf,
				 size_t cnt, loff_t *ppos)
{
	struct kmark_cmd_file *sf = kmark_cmd_file(file);
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
	ret = *line ? kmark_synth_command(line, 0, sf->truncate_pending,
					  &err, &pos) : 0;
	if (ret)
		kmark_log_err_loc(kmark_top_inst, "synthetic_events", copy, pos,
				  err);
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
	return kmark_cmd_release(inode, file, &kmark_synth_cmd_ops);
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

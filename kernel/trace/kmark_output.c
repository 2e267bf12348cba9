// SPDX-License-Identifier: GPL-2.0
/*
 * kmark: one record -> one line of text, shared by trace and trace_pipe.
 *
 * The line has ftrace's trace_pipe layout (trace_print_context() and
 * trace_print_lat_fmt() in kernel/trace/trace_output.c), so tools that read
 * ftrace's text read kmark's:
 *
 *            TASK-PID     CPU#  |||||  TIMESTAMP  EVENT: FIELDS
 *              sh-72      [001] d..2.     4.512345: sched_switch: prev_comm=...
 */
#include <linux/cpumask.h>
#include <linux/math64.h>
#include <linux/string.h>
#include <linux/unaligned.h>

#include "kmark_internal.h"

/**
 * kmark_escape_name - a task name (or a name-like field) as printed
 * @dst:	KMARK_ESC_LEN(@n) bytes
 * @name:	the name, ending at its first NUL or after @n bytes
 * @n:		at most this many bytes of it
 *
 * A task chooses its name (/proc/PID/comm, prctl(PR_SET_NAME)), so it may
 * hold a newline or another control byte: printed raw, as ftrace prints
 * it, the name splits its trace line in two and can forge a line that
 * reads as another task's event. Control bytes, DEL and the backslash
 * are printed as \ooo (octal), everything else as it is.
 *
 * Return: @dst.
 */
const char *kmark_escape_name(char *dst, const char *name, size_t n)
{
	static const char oct[] = "01234567";
	char *p = dst;
	size_t i;

	for (i = 0; i < n && name[i]; i++) {
		unsigned char c = name[i];

		if (c >= ' ' && c != 0x7f && c != '\\') {
			*p++ = c;
			continue;
		}
		*p++ = '\\';
		*p++ = oct[c >> 6];
		*p++ = oct[(c >> 3) & 7];
		*p++ = oct[c & 7];
	}
	*p = '\0';
	return dst;
}

/* ftrace's five context characters (trace_print_lat_fmt()) into @c[6]. */
static void kmark_ctx_chars(const struct kmark_entry *e, char *c)
{
	u8 f = e->flags;
	bool irqs_off = f & KMARK_FLAG_IRQS_OFF, bh_off = f & KMARK_FLAG_BH_OFF;
	bool nmi = f & KMARK_FLAG_NMI, hard = f & KMARK_FLAG_HARDIRQ;
	bool soft = f & KMARK_FLAG_SOFTIRQ;

	c[0] = irqs_off && bh_off ? 'D' : irqs_off ? 'd' : bh_off ? 'b' : '.';
	switch (f & (KMARK_FLAG_NEED_RESCHED | KMARK_FLAG_PREEMPT_RESCHED)) {
	case KMARK_FLAG_NEED_RESCHED | KMARK_FLAG_PREEMPT_RESCHED:
		c[1] = 'N';
		break;
	case KMARK_FLAG_NEED_RESCHED:
		c[1] = 'n';
		break;
	case KMARK_FLAG_PREEMPT_RESCHED:
		c[1] = 'p';
		break;
	default:
		c[1] = '.';
	}
	c[2] = nmi && hard ? 'Z' : nmi ? 'z' : hard && soft ? 'H' :
	       hard ? 'h' : soft ? 's' : '.';
	c[3] = (e->preempt_count & 0xf) ? hex_asc[e->preempt_count & 0xf] : '.';
	c[4] = (e->preempt_count >> 4) ? hex_asc[e->preempt_count >> 4] : '.';
	c[5] = '\0';
}

/**
 * kmark_field_value - an integer or pointer field of a record
 * @f:		the field
 * @rec:	the record (its fixed part must hold @f)
 *
 * Return: the value, sign-extended for signed fields.
 */
u64 kmark_field_value(const struct kmark_field *f, const void *rec)
{
	const void *p = (const u8 *)rec + f->offset;

	switch (f->size) {
	case 1:
		return f->is_signed ? (u64)(s64)*(const s8 *)p : *(const u8 *)p;
	case 2:
		return f->is_signed ? (u64)(s64)(s16)get_unaligned((const u16 *)p) :
				      get_unaligned((const u16 *)p);
	case 4:
		return f->is_signed ? (u64)(s64)(s32)get_unaligned((const u32 *)p) :
				      get_unaligned((const u32 *)p);
	case 8:
		return get_unaligned((const u64 *)p);
	}
	return 0;
}

/**
 * kmark_field_str - a string field of a record
 * @f:		the field (KMARK_FIELD_STR)
 * @rec:	the record
 * @len:	the record's length
 *
 * Return: the string, or NULL if its __data_loc word does not point at a
 * NUL-terminated string inside the record.
 */
const char *kmark_field_str(const struct kmark_field *f, const void *rec,
			    unsigned int len)
{
	u32 loc = get_unaligned((const u32 *)((const u8 *)rec + f->offset));
	unsigned int off = loc & 0xffff, n = loc >> 16;
	const char *str = (const char *)rec + off;

	if (!n || off < f->offset + f->size || off + n > len || str[n - 1])
		return NULL;
	return str;
}

/*
 * A task state as ftrace's sched_switch prints it: "R" when no state bit
 * is set, else the letters of the bits joined by '|'; "+" when preempted
 * (TASK_REPORT_MAX). The bits are 1 << (task_state_index() - 1).
 */
static const char kmark_state_letters[] = "SDTtXZPI";

static void kmark_print_task_state(struct seq_buf *s, u64 v)
{
	unsigned int i;
	bool any = false;

	for (i = 0; i < sizeof(kmark_state_letters) - 1; i++) {
		if (!(v & (1U << i)))
			continue;
		if (any)
			seq_buf_putc(s, '|');
		seq_buf_putc(s, kmark_state_letters[i]);
		any = true;
	}
	if (!any)
		seq_buf_putc(s, 'R');
	if (v & TASK_REPORT_MAX)
		seq_buf_putc(s, '+');
}

/**
 * kmark_print_fields - render a record's fields with its event's format
 * @s:		output
 * @l:		the event's layout
 * @rec:	the record, header included
 * @len:	its length; a short or damaged record prints what it holds
 */
void kmark_print_fields(struct seq_buf *s, const struct kmark_layout *l,
			const void *rec, unsigned int len)
{
	bool unquote = false;
	unsigned int i;

	for (i = 0; i < l->nr_fields; i++) {
		const struct kmark_field *f = &l->fields[i];
		u64 v;

		/* After "(fault)": its quotes left out, as ftrace prints it. */
		seq_buf_puts(s, f->prefix + (unquote && f->prefix[0] == '"'));
		unquote = false;
		if (f->offset + f->size > len) {
			seq_buf_puts(s, "<short record>");
			return;
		}
		if (f->kind == KMARK_FIELD_STR) {
			const char *str = kmark_field_str(f, rec, len);

			/* No data: a kprobe string that faulted, as ftrace. */
			if (!str && !(get_unaligned((const u32 *)((const u8 *)rec +
								  f->offset)) >> 16)) {
				unquote = s->len && s->buffer[s->len - 1] == '"' &&
					  !seq_buf_has_overflowed(s);
				if (unquote)
					s->len--;
				seq_buf_puts(s, "(fault)");
				continue;
			}
			if (!str) {
				seq_buf_puts(s, "<bad string>");
				return;
			}
			seq_buf_printf(s, f->conv, str);
			continue;
		}
		if (f->kind == KMARK_FIELD_CHARS) {
			char buf[KMARK_ESC_LEN(KMARK_NAME_MAX)];
			unsigned int n = min_t(unsigned int, f->size,
					       KMARK_NAME_MAX - 1);

			/* (a task's name, as its line's one is) */
			seq_buf_printf(s, f->conv,
				       kmark_escape_name(buf, (const char *)rec + f->offset, n));
			continue;
		}
		v = kmark_field_value(f, rec);
		switch (f->conv_arg) {
		case KMARK_CONV_TASK_STATE:
			kmark_print_task_state(s, v);
			break;
		case KMARK_CONV_INT:
			seq_buf_printf(s, f->conv, (int)v);
			break;
		case KMARK_CONV_LONG:
			seq_buf_printf(s, f->conv, (long)v);
			break;
		case KMARK_CONV_LLONG:
			seq_buf_printf(s, f->conv, (long long)v);
			break;
		default:
			seq_buf_printf(s, f->conv, (void *)(unsigned long)v);
			break;
		}
	}
	seq_buf_puts(s, l->suffix + (unquote && l->suffix[0] == '"'));
}

/*
 * The name a trace line gives its event: the event's, but trace_marker's
 * (ftrace:print) shows as ftrace's does, "tracing_mark_write: TEXT" (ftrace
 * prints the address it was written from, tracing_mark_write()). By name,
 * so that a previous boot's event (kmark_flight.c) shows the same.
 */
static const char *kmark_line_name(const struct kmark_marker *m)
{
	if (m->system && !strcmp(m->system, "ftrace")) {
		if (!strcmp(m->name, "print"))
			return "tracing_mark_write";
		/* "<stack trace>" follows the context alone, as ftrace's */
		if (!strcmp(m->name, "kernel_stack"))
			return NULL;
	}
	return m->name;
}

/**
 * kmark_print_event - render one record as a trace line
 * @s:		output
 * @cpu:	CPU the record came from
 * @ts:		its timestamp (ns)
 * @e:		the record
 * @len:	its length in bytes
 * @prev:	the events of the boot that wrote it, when that was a previous
 *		boot (a boot-mapped instance, kmark_flight.c); NULL: this one's
 */
void kmark_print_event(struct seq_buf *s, int cpu, u64 ts,
		       const struct kmark_entry *e, unsigned int len,
		       const struct kmark_ghosts *prev)
{
	const struct kmark_marker *m;
	const char *name;
	char comm[TASK_COMM_LEN], ctx[6];
	char esc[KMARK_ESC_LEN(TASK_COMM_LEN)];
	u64 usecs;
	u32 rem;

	if (len < sizeof(*e)) {
		seq_buf_printf(s, "CPU:%d [BAD RECORD %u BYTES]\n", cpu, len);
		return;
	}
	if (e->pid == 0)
		strscpy(comm, "<idle>", sizeof(comm));
	else if (!kmark_comm_name(e->comm_id, comm))
		strscpy(comm, "<...>", sizeof(comm));	/* table full: counted */
	kmark_ctx_chars(e, ctx);
	/* ftrace rounds nanoseconds to the nearest microsecond (ns2usecs()). */
	usecs = div_u64(ts + 500, NSEC_PER_USEC);
	usecs = div_u64_rem(usecs, USEC_PER_SEC, &rem);

	rcu_read_lock();
	m = prev ? kmark_ghost_by_id(prev, e->type) : kmark_marker_by_id(e->type);
	name = m ? kmark_line_name(m) : "?";
	/* One printf for the whole context: the reader's main cost. */
	seq_buf_printf(s, "%16s-%-7d [%03d] %s %5lu.%06u: %s%s",
		       kmark_escape_name(esc, comm, sizeof(comm)), e->pid,
		       cpu, ctx, (unsigned long)usecs, rem,
		       name ?: "", name ? ": " : "");
	if (m && m->print)
		m->print(s, m, e, len);
	else if (m)
		kmark_print_fields(s, m->layout, e, len);
	else
		seq_buf_printf(s, "<unknown event %u>", e->type);
	rcu_read_unlock();
	seq_buf_putc(s, '\n');
}

/**
 * kmark_print_record - a record's loss notes and its line
 * @s:		output
 * @cpu:	CPU the record came from
 * @ts:		its timestamp
 * @e:		the record
 * @len:	its length
 * @lost:	records lost before it (overwritten); ULONG_MAX: some, count
 *		unknown
 * @dropped:	hits dropped before it (no room)
 * @prev:	as kmark_print_event()'s
 *
 * A line that does not fit in what is left of @s is not written half: if
 * @s held text before, nothing is written and false is returned (the
 * caller keeps the record for its next buffer); if @s was empty, the line
 * is replaced by a note that says so, and the loss notes stay.
 *
 * Return: true if the record was written (or noted), false if it should be
 * tried again with an empty @s.
 */
bool kmark_print_record(struct seq_buf *s, int cpu, u64 ts,
			const struct kmark_entry *e, unsigned int len,
			unsigned long lost, unsigned long dropped,
			const struct kmark_ghosts *prev)
{
	size_t before = seq_buf_used(s), notes;

	if (lost == ULONG_MAX)
		seq_buf_printf(s, "CPU:%d [LOST EVENTS]\n", cpu);
	else if (lost)
		seq_buf_printf(s, "CPU:%d [LOST %lu EVENTS]\n", cpu, lost);
	if (dropped)
		seq_buf_printf(s, "CPU:%d [LOST %lu EVENTS]\n", cpu, dropped);
	notes = seq_buf_used(s);
	kmark_print_event(s, cpu, ts, e, len, prev);
	if (!seq_buf_has_overflowed(s))
		return true;
	if (before) {
		s->len = before;
		return false;
	}
	s->len = notes;
	seq_buf_printf(s, "CPU:%d [EVENT TOO LONG TO PRINT]\n", cpu);
	return true;
}

/* ftrace's header (print_func_help_header_irq()), tracer "kmark". */
void kmark_print_header(struct seq_buf *s, unsigned long entries,
			unsigned long written)
{
	static const char space[] = "            ";
	int prec = 2;

	seq_buf_puts(s, "# tracer: kmark\n#\n");
	seq_buf_printf(s, "# entries-in-buffer/entries-written: %lu/%lu   #P:%d\n",
		       entries, written, num_online_cpus());
	seq_buf_puts(s, "#\n");
	seq_buf_printf(s,
		       "#                            %.*s  _-----=> irqs-off/BH-disabled\n",
		       prec, space);
	seq_buf_printf(s,
		       "#                            %.*s / _----=> need-resched\n",
		       prec, space);
	seq_buf_printf(s,
		       "#                            %.*s| / _---=> hardirq/softirq\n",
		       prec, space);
	seq_buf_printf(s,
		       "#                            %.*s|| / _--=> preempt-depth\n",
		       prec, space);
	seq_buf_printf(s,
		       "#                            %.*s||| / _-=> migrate-disable\n",
		       prec, space);
	seq_buf_printf(s, "#                            %.*s|||| /     delay\n", prec, space);
	seq_buf_printf(s,
		       "#           TASK-PID  %.*s CPU#  |||||  TIMESTAMP  FUNCTION\n",
		       prec, "     TGID   ");
	seq_buf_printf(s,
		       "#              | |    %.*s   |   |||||     |         |\n",
		       prec, "       |    ");
}

/* --- the binary format: what events/NAME/format says ------------------ */

#define KMARK_COMMON(_name, _type, _off, _size, _sig, _kind)		\
	{ .name = _name, .type = _type, .offset = _off, .size = _size,	\
	  .is_signed = _sig, .kind = _kind }

/* struct kmark_entry, field by field: the common_* fields of every event. */
const struct kmark_field kmark_common_fields[] = {
	KMARK_COMMON("common_type", "unsigned short",
		     offsetof(struct kmark_entry, type), 2, false, KMARK_FIELD_INT),
	KMARK_COMMON("common_flags", "unsigned char",
		     offsetof(struct kmark_entry, flags), 1, false, KMARK_FIELD_INT),
	KMARK_COMMON("common_preempt_count", "unsigned char",
		     offsetof(struct kmark_entry, preempt_count), 1, false,
		     KMARK_FIELD_INT),
	KMARK_COMMON("common_pid", "int",
		     offsetof(struct kmark_entry, pid), 4, true, KMARK_FIELD_INT),
	KMARK_COMMON("common_comm_id", "unsigned int",
		     offsetof(struct kmark_entry, comm_id), 4, false,
		     KMARK_FIELD_INT),
};

const unsigned int kmark_nr_common_fields = ARRAY_SIZE(kmark_common_fields);

static void kmark_print_field_def(struct seq_buf *s, const struct kmark_field *f)
{
	if (f->kind == KMARK_FIELD_CHARS)
		seq_buf_printf(s, "\tfield:%s %s[%u];", f->type, f->name, f->size);
	else
		seq_buf_printf(s, "\tfield:%s %s;", f->type, f->name);
	seq_buf_printf(s, "\toffset:%u;\tsize:%u;\tsigned:%d;\n", f->offset,
		       f->size, f->is_signed);
}

/* Literal format text inside print fmt's quotes: '%' doubled, '"' escaped. */
static void kmark_print_fmt_text(struct seq_buf *s, const char *t)
{
	for (; *t; t++) {
		if (*t == '"' || *t == '\\')
			seq_buf_putc(s, '\\');
		else if (*t == '%')
			seq_buf_putc(s, '%');
		seq_buf_putc(s, *t);
	}
}

/* A task state's two print fmt arguments, as ftrace's sched_switch has them. */
static void kmark_print_state_args(struct seq_buf *s, const char *name)
{
	unsigned int i;

	seq_buf_printf(s, ", (REC->%s & 0x%x) ? __print_flags(REC->%s & 0x%x, \"|\"",
		       name, TASK_REPORT_MAX - 1, name, TASK_REPORT_MAX - 1);
	for (i = 0; i < sizeof(kmark_state_letters) - 1; i++)
		seq_buf_printf(s, ", { 0x%x, \"%c\" }", 1U << i,
			       kmark_state_letters[i]);
	seq_buf_printf(s, ") : \"R\", REC->%s & 0x%x ? \"+\" : \"\"", name,
		       TASK_REPORT_MAX);
}

/**
 * kmark_print_format - an event's format file, as ftrace prints one
 * @s:	output
 * @m:	the event
 *
 * The common fields, a blank line, the event's fields by offset, and the
 * print fmt: the event's own format with each field as an argument
 * (strings through __get_str()), which is what libtraceevent evaluates.
 */
void kmark_print_format(struct seq_buf *s, const struct kmark_marker *m)
{
	const struct kmark_layout *l = m->layout;
	unsigned int i, done = 0, last = 0;

	seq_buf_printf(s, "name: %s\nID: %u\nformat:\n", m->name, m->id);
	for (i = 0; i < kmark_nr_common_fields; i++)
		kmark_print_field_def(s, &kmark_common_fields[i]);
	seq_buf_putc(s, '\n');
	if (m->print_format) {
		m->print_format(s, m);
		return;
	}
	/* By offset (a return probe renders its fields in another order). */
	while (done < l->nr_fields) {
		const struct kmark_field *next = NULL;

		for (i = 0; i < l->nr_fields; i++) {
			const struct kmark_field *f = &l->fields[i];

			if ((f->offset > last || (!done && f->offset == last)) &&
			    (!next || f->offset < next->offset))
				next = f;
		}
		if (!next)
			break;
		kmark_print_field_def(s, next);
		last = next->offset;
		done++;
	}
	seq_buf_puts(s, "\nprint fmt: \"");
	for (i = 0; i < l->nr_fields; i++) {
		const struct kmark_field *f = &l->fields[i];

		kmark_print_fmt_text(s, f->prefix);
		seq_buf_puts(s, f->conv_arg == KMARK_CONV_TASK_STATE ? "%s%s" :
			     f->conv);
	}
	kmark_print_fmt_text(s, l->suffix);
	seq_buf_putc(s, '"');
	for (i = 0; i < l->nr_fields; i++) {
		const struct kmark_field *f = &l->fields[i];

		if (f->kind == KMARK_FIELD_STR)
			seq_buf_printf(s, ", __get_str(%s)", f->name);
		else if (f->conv_arg == KMARK_CONV_TASK_STATE)
			kmark_print_state_args(s, f->name);
		else
			seq_buf_printf(s, ", REC->%s", f->name);
	}
	seq_buf_putc(s, '\n');
}

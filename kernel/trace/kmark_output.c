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

#include "kmark_internal.h"

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
 * kmark_print_fields - render a record's arguments with its marker's format
 * @s:		output
 * @l:		the marker's layout
 * @data:	the arguments as kmark_write_args() stored them
 * @end:	end of the record; a short record prints what it holds
 */
void kmark_print_fields(struct seq_buf *s, const struct kmark_layout *l,
			const u8 *data, const u8 *end)
{
	const u8 *p = data;
	unsigned int i;

	for (i = 0; i < l->nr_fields; i++) {
		const struct kmark_field *f = &l->fields[i];
		union { int i; unsigned long l; u64 ll; } v;
		size_t n;

		seq_buf_puts(s, f->prefix);
		if (f->type == KMARK_ARG_STR) {
			n = p < end ? strnlen(p, end - p) : 0;
			if (p >= end || n == end - p)
				goto short_record;
			seq_buf_printf(s, f->conv, (const char *)p);
			p += n + 1;
			continue;
		}
		if (end - p < f->size)
			goto short_record;
		memcpy(&v, p, f->size);
		p += f->size;
		if (f->type == KMARK_ARG_INT)
			seq_buf_printf(s, f->conv, v.i);
		else if (f->type == KMARK_ARG_LLONG)
			seq_buf_printf(s, f->conv, v.ll);
		else if (f->is_ptr)
			seq_buf_printf(s, f->conv, (void *)v.l);
		else
			seq_buf_printf(s, f->conv, v.l);
	}
	seq_buf_puts(s, l->suffix);
	return;
short_record:
	seq_buf_puts(s, "<short record>");
}

/**
 * kmark_print_event - render one record as a trace line
 * @s:		output
 * @cpu:	CPU the record came from
 * @ts:		its timestamp (ns)
 * @e:		the record
 * @len:	its length in bytes
 */
void kmark_print_event(struct seq_buf *s, int cpu, u64 ts,
		       const struct kmark_entry *e, unsigned int len)
{
	const struct kmark_marker *m;
	char comm[TASK_COMM_LEN], ctx[6];
	u64 usecs;
	u32 rem;

	if (len < sizeof(*e)) {
		seq_buf_printf(s, "CPU:%d [BAD RECORD %u BYTES]\n", cpu, len);
		return;
	}
	if (e->pid == 0) {
		strscpy(comm, "<idle>", sizeof(comm));
	} else {
		memcpy(comm, e->comm, TASK_COMM_LEN);
		comm[TASK_COMM_LEN - 1] = '\0';
	}
	kmark_ctx_chars(e, ctx);
	/* ftrace rounds nanoseconds to the nearest microsecond (ns2usecs()). */
	usecs = div_u64(ts + 500, NSEC_PER_USEC);
	usecs = div_u64_rem(usecs, USEC_PER_SEC, &rem);

	rcu_read_lock();
	m = kmark_marker_by_id(e->id);
	/* One printf for the whole context: the reader's main cost. */
	seq_buf_printf(s, "%16s-%-7d [%03d] %s %5lu.%06u: %s: ", comm, e->pid,
		       cpu, ctx, (unsigned long)usecs, rem, m ? m->event : "?");
	if (m)
		kmark_print_fields(s, m->layout, e->data, (const u8 *)e + len);
	else
		seq_buf_printf(s, "<unknown event %u>", e->id);
	rcu_read_unlock();
	seq_buf_putc(s, '\n');
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
	seq_buf_printf(s, "#                            %.*s  _-----=> irqs-off/BH-disabled\n", prec, space);
	seq_buf_printf(s, "#                            %.*s / _----=> need-resched\n", prec, space);
	seq_buf_printf(s, "#                            %.*s| / _---=> hardirq/softirq\n", prec, space);
	seq_buf_printf(s, "#                            %.*s|| / _--=> preempt-depth\n", prec, space);
	seq_buf_printf(s, "#                            %.*s||| / _-=> migrate-disable\n", prec, space);
	seq_buf_printf(s, "#                            %.*s|||| /     delay\n", prec, space);
	seq_buf_printf(s, "#           TASK-PID  %.*s CPU#  |||||  TIMESTAMP  FUNCTION\n", prec, "     TGID   ");
	seq_buf_printf(s, "#              | |    %.*s   |   |||||     |         |\n", prec, "       |    ");
}

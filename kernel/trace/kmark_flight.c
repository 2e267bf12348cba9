// SPDX-License-Identifier: GPL-2.0
/*
 * kmark: the flight recorder. What happened right before the machine died,
 * with ftrace's names and kmark's prefix, and without ftrace:
 *
 *   kmark_dump_on_oops[=orig_cpu|=INSTANCE[=orig_cpu]]
 *   kernel.kmark_dump_on_oops (sysctl)
 *	At an oops or a panic, an instance's buffer goes to the console at
 *	KERN_EMERG, trace lines merged by time (or the oopsing CPU's only):
 *	the last kmark_dump_lines (kernel.kmark_dump_lines) events of each
 *	CPU, with the number left out. Recording in the instance stops first.
 *	Nothing is allocated and no lock is taken that the dying CPU may hold:
 *	one static line buffer, one dump at a time, the instance list walked
 *	under RCU. As ftrace's dump, it consumes what it prints, except in the
 *	boot-mapped instance, which it reads with iterators made at boot so
 *	that the next boot still has the trace.
 *
 *   kmark_traceoff_on_warning, kernel.kmark_traceoff_on_warning
 *	A WARN stops recording in every instance, with a line in each buffer
 *	that says so (__warn() calls kmark_on_warning(), patched into
 *	kernel/panic.c beside ftrace's disable_trace_on_warning()).
 *
 *   reserve_mem=SIZE:ALIGN:LABEL kmark_instance=NAME[^traceoff]@LABEL[,EVENT...]
 *	Instance NAME's buffer is ring_buffer_alloc_range() over the memory
 *	reserve_mem= set aside, which a warm reboot or a crash leaves as it
 *	was. The next boot (the same kernel, the same command line) finds the
 *	previous boot's trace in the instance and reads it as any instance's:
 *	trace, trace_pipe, per_cpu/cpuN/trace_pipe_raw, kmark record, with
 *	the task names, event layouts and kprobe definitions of the boot that
 *	wrote it (last_boot/ has its format files). last_boot_info says what
 *	that boot was and why it ended, when a panic, an oops, a warning or a
 *	reboot said so. Recording stays off while the instance holds the
 *	previous boot's trace; setting tracing_on (or clearing trace) clears
 *	it first, so the two boots never mix. ^traceoff keeps it off on a boot
 *	that found no trace too. Its size is reserve_mem='s: buffer_size_kb
 *	refuses a change, and it has no snapshot.
 *
 * The region, page aligned:
 *
 *   0          struct kmark_flight_hdr: the identity of the kernel that
 *              wrote it (checksummed), that boot's start and notes
 *   comm_off   struct kmark_comm_table: kmark's table of task names, the
 *              live one (kmark_record.c): records hold ids into it
 *   evtab_off  the event table: one entry (struct kmark_flight_ev, then
 *              names and the format) per event the instance may record,
 *              each with its own checksum
 *   hdr_size   the ring buffer (ring_buffer_alloc_range(): per CPU, its
 *              meta data and pages; ring_buffer.c validates them)
 *
 * Everything read from the region is checked before use. A region without
 * the header (a cold start), with a header that does not check, or whose
 * ring buffer holds nothing, gives "no previous trace" and a new trace; a
 * header written by another build of the kernel (another linux_banner, or
 * another layout) is refused with a message saying so. The event table
 * entries are rebuilt into markers of their own ("ghosts", never in
 * kmark's namespace) by kmark's own format parser, each field checked
 * against its conversion, so that a damaged table can make an event
 * unknown, never make the printer read outside a record.
 */
#define pr_fmt(fmt) "kmark: " fmt

#include <linux/crc32.h>
#include <linux/ctype.h>
#include <linux/io.h>
#include <linux/kdebug.h>
#include <linux/mm.h>
#include <linux/nmi.h>
#include <linux/notifier.h>
#include <linux/panic_notifier.h>
#include <linux/printk.h>
#include <linux/ptrace.h>
#include <linux/random.h>
#include <linux/rculist.h>
#include <linux/reboot.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/string_helpers.h>
#include <linux/sysctl.h>
#include <linux/time.h>
#include <linux/time64.h>
#include <linux/timekeeping.h>
#include <asm/setup.h>

#include "kmark_internal.h"

/* --- parameters and sysctls ------------------------------------------------ */

enum { KMARK_DUMP_OFF, KMARK_DUMP_ALL, KMARK_DUMP_ORIG };

/* kmark_dump_on_oops as written (the sysctl shows it), and parsed. */
static char kmark_dump_on_oops[KMARK_INSTANCE_NAME_MAX + 16] = "0";
static int kmark_dump_mode;				/* KMARK_DUMP_* */
static char kmark_dump_inst[KMARK_INSTANCE_NAME_MAX];	/* "": the top one */
static unsigned int kmark_dump_lines = 100;
static int kmark_traceoff_on_warning;
static DEFINE_MUTEX(kmark_dump_mutex);	/* sysctl writers */

/*
 * A kmark_dump_on_oops value, ftrace's forms for one instance: "0" (or
 * nothing) off; "1" every CPU of the top instance; "2" or "orig_cpu" the
 * oopsing CPU's; "NAME" every CPU of instance NAME; "NAME=2" or
 * "NAME=orig_cpu" its oopsing CPU's. 0 or -EINVAL.
 */
static int kmark_dump_parse(const char *val, int *mode, char *inst)
{
	const char *eq = strchr(val, '=');
	size_t i, n = eq ? eq - val : strlen(val);

	*inst = '\0';
	*mode = KMARK_DUMP_ALL;
	if (!*val || !strcmp(val, "0")) {
		*mode = KMARK_DUMP_OFF;
		return 0;
	}
	if (!strcmp(val, "1"))
		return 0;
	if (!strcmp(val, "2") || !strcmp(val, "orig_cpu")) {
		*mode = KMARK_DUMP_ORIG;
		return 0;
	}
	if (!n || n >= KMARK_INSTANCE_NAME_MAX)
		return -EINVAL;
	for (i = 0; i < n; i++)
		if (!isalnum(val[i]) && val[i] != '_' && val[i] != '-' &&
		    val[i] != '.')
			return -EINVAL;
	if (eq && (!strcmp(eq + 1, "2") || !strcmp(eq + 1, "orig_cpu")))
		*mode = KMARK_DUMP_ORIG;
	else if (eq && strcmp(eq + 1, "1"))
		return -EINVAL;
	memcpy(inst, val, n);
	inst[n] = '\0';
	return 0;
}

/* Set kmark_dump_on_oops; the dump reads the mode last (release/acquire). */
static int kmark_dump_set(const char *val)
{
	char name[KMARK_INSTANCE_NAME_MAX];
	int mode, ret = kmark_dump_parse(val, &mode, name);

	if (ret)
		return ret;
	WRITE_ONCE(kmark_dump_mode, KMARK_DUMP_OFF);
	strscpy(kmark_dump_inst, name);
	strscpy(kmark_dump_on_oops, *val ? val : "0");
	/* The name before the mode: kmark_dump() reads the mode first. */
	smp_store_release(&kmark_dump_mode, mode);
	return 0;
}

static int __init kmark_dump_on_oops_setup(char *str)
{
	if (*str && *str != '=')
		return 0;	/* another parameter that starts so */
	str = *str ? str + 1 : "1";
	if (kmark_dump_set(str))
		pr_warn("kmark_dump_on_oops=%s: use 1, orig_cpu, INSTANCE or INSTANCE=orig_cpu\n",
			str);
	return 1;
}
__setup("kmark_dump_on_oops", kmark_dump_on_oops_setup);

static int __init kmark_dump_lines_setup(char *str)
{
	if (kstrtouint(str, 0, &kmark_dump_lines))
		pr_warn("kmark_dump_lines=%s: not a number (kept %u)\n", str,
			kmark_dump_lines);
	return 1;
}
__setup("kmark_dump_lines=", kmark_dump_lines_setup);

static int __init kmark_traceoff_on_warning_setup(char *str)
{
	if (*str == '=')
		str++;
	else if (*str)
		return 0;
	kmark_traceoff_on_warning = strcmp(str, "0") && strcmp(str, "off");
	return 1;
}
__setup("kmark_traceoff_on_warning", kmark_traceoff_on_warning_setup);

/* kmark_instance=: kept whole until the flight recorder is set up. */
static char kmark_flight_arg[COMMAND_LINE_SIZE];

static int __init kmark_instance_setup(char *str)
{
	if (kmark_flight_arg[0]) {
		pr_warn("kmark_instance=%s: one boot-mapped instance only (%s is); ignored\n",
			str, kmark_flight_arg);
		return 1;
	}
	strscpy(kmark_flight_arg, str);
	return 1;
}
__setup("kmark_instance=", kmark_instance_setup);

#ifdef CONFIG_SYSCTL
static int kmark_dump_sysctl(const struct ctl_table *table, int write,
			     void *buffer, size_t *lenp, loff_t *ppos)
{
	char val[sizeof(kmark_dump_on_oops)];
	struct ctl_table t = *table;
	int ret;

	if (!write)
		return proc_dostring(table, write, buffer, lenp, ppos);
	mutex_lock(&kmark_dump_mutex);
	strscpy(val, kmark_dump_on_oops);
	t.data = val;
	ret = proc_dostring(&t, write, buffer, lenp, ppos);
	if (!ret)
		ret = kmark_dump_set(strim(val));
	mutex_unlock(&kmark_dump_mutex);
	return ret;
}

static struct ctl_table kmark_flight_sysctls[] = {
	{
		.procname	= "kmark_dump_on_oops",
		.data		= kmark_dump_on_oops,
		.maxlen		= sizeof(kmark_dump_on_oops),
		.mode		= 0644,
		.proc_handler	= kmark_dump_sysctl,
	},
	{
		.procname	= "kmark_dump_lines",
		.data		= &kmark_dump_lines,
		.maxlen		= sizeof(kmark_dump_lines),
		.mode		= 0644,
		.proc_handler	= proc_douintvec,
	},
	{
		.procname	= "kmark_traceoff_on_warning",
		.data		= &kmark_traceoff_on_warning,
		.maxlen		= sizeof(kmark_traceoff_on_warning),
		.mode		= 0644,
		.proc_handler	= proc_dointvec_minmax,
		.extra1		= SYSCTL_ZERO,
		.extra2		= SYSCTL_ONE,
	},
};
#endif

/* --- the region ---------------------------------------------------------- */

#define KMARK_FLIGHT_MAGIC	0x31544c464b524d4bULL	/* "KMRKFLT1" */
#define KMARK_FLIGHT_VERSION	2	/* 2: task-name ids by generation */
#define KMARK_FLIGHT_BANNER	384
#define KMARK_FLIGHT_NOTES	4
#define KMARK_FLIGHT_NOTE_LEN	200
#define KMARK_FLIGHT_EVTAB	(32 << 10)

/*
 * What must be the same for a trace to be read back: kmark's layouts, the
 * ring buffer's split of the range, and the kernel (its banner names the
 * version, the build number and time, the compiler).
 */
struct kmark_flight_id {
	u64 magic;
	u32 version;
	u32 hdr_size;		/* the ring buffer's range starts here */
	u64 region_size;
	u32 long_size;
	u32 page_size;
	u32 entry_size;		/* struct kmark_entry */
	u32 comm_size;		/* struct kmark_comm_table */
	u32 comm_off;
	u32 evtab_off;
	u32 evtab_size;
	u32 ncpus;
	char banner[KMARK_FLIGHT_BANNER];	/* linux_banner */
	u32 crc;		/* crc32 of the above */
};

/* Why a boot ended, or what it went through: written where it happens. */
struct kmark_flight_note {
	u64 uptime_ns;		/* boot clock */
	s64 real_s;		/* UTC seconds */
	u32 kind;		/* KMARK_NOTE_* */
	u32 cpu;
	char text[KMARK_FLIGHT_NOTE_LEN];
};

enum {
	KMARK_NOTE_WARNING, KMARK_NOTE_OOPS, KMARK_NOTE_PANIC,
	KMARK_NOTE_REBOOT, KMARK_NR_NOTE_KINDS
};

static const char * const kmark_note_kinds[KMARK_NR_NOTE_KINDS] = {
	"warning", "oops", "panic", "reboot",
};

struct kmark_flight_hdr {
	struct kmark_flight_id id;
	s64 boot_real_s;	/* when that boot started (UTC seconds) */
	u64 start_ns;		/* when it started recording (boot clock) */
	/* Notes written; past the slots, the last slot holds the latest. */
	u32 nr_notes;
	u32 evtab_used;		/* bytes of the event table in use */
	struct kmark_flight_note notes[KMARK_FLIGHT_NOTES];
};

/* An entry of the event table; its fields, then NUL-terminated strings. */
struct kmark_flight_ev {
	u32 crc;		/* crc32 of the entry after this word */
	u16 len;		/* the whole entry, a multiple of 4 */
	u16 id;
	u16 size;		/* the record's fixed part */
	u8 nr_fields;
	u8 flags;		/* KMARK_FEV_* */
};

struct kmark_flight_field {
	u16 offset;
	u8 size;
	u8 kind;
	u8 is_signed;
	u8 conv_arg;
	u16 pad;
};

#define KMARK_FEV_OWN_PRINT	BIT(0)	/* rendered by its own code (kernel_stack) */
#define KMARK_FEV_MAX		4096	/* bytes of one entry */
#define KMARK_FEV_STR_MAX	1024	/* a format or a definition */

/* What the previous boot left. */
enum {
	KMARK_PREV_COLD,	/* no header */
	KMARK_PREV_DAMAGED,	/* a header that does not check */
	KMARK_PREV_OTHER,	/* written by another build of the kernel */
	KMARK_PREV_EMPTY,	/* a header, no events */
	KMARK_PREV_VALID,	/* its trace is in the buffer */
};

/* An event of the previous boot: a marker of its own, never in the namespace. */
struct kmark_ghost {
	struct kmark_marker m;
	char *def;		/* a kprobe event's definition, or NULL */
	struct kmark_dir dir;
};

struct kmark_ghosts {
	unsigned int nr;
	unsigned int bad;	/* entries that did not check */
	struct kmark_ghost *g[];
};

/**
 * struct kmark_flight - the boot-mapped instance (one per boot)
 * @name:	its name, from kmark_instance=
 * @label:	its reserve_mem= label
 * @events:	the events to enable, or NULL
 * @traceoff:	^traceoff: it starts with tracing off
 * @prepared:	kmark_flight_prepare() ran
 * @ok:		the region is in use (its header and table of names are)
 * @phys:	the region
 * @size:	its size
 * @hdr:	its header (the region's start)
 * @comms:	the table of task names in it
 * @evtab:	the event table in it
 * @hdr_size:	bytes before the ring buffer's range
 * @prev:	KMARK_PREV_*
 * @why:	what "no previous trace" is about (static text)
 * @old:	a copy of the previous boot's header (VALID, EMPTY, OTHER)
 * @old_events:	the previous boot's events (VALID)
 * @old_entries: events the previous boot left in the buffer
 * @old_cpu:	[nr_cpu_ids] of them, each CPU's
 * @old_lost:	[nr_cpu_ids] each CPU's pages that did not check (dropped
 *		one by one, the others kept), or -1: its ring buffer meta
 *		data did not check and all of its pages went
 * @inst:	the instance
 * @buf:	its buffer
 * @iters:	[nr_cpu_ids] the dump's iterators (it must not consume)
 * @ghosts:	@old_events while the buffer holds the previous boot's trace;
 *		NULL once this boot records (readers: READ_ONCE)
 * @owned:	the header is this boot's: notes go there
 * @cleared_ns:	when the previous boot's trace was cleared (boot clock)
 * @notes:	notes written this boot
 * @last_boot:	instances/NAME/last_boot/
 */
struct kmark_flight {
	char name[KMARK_INSTANCE_NAME_MAX];
	char label[16];
	char *events;
	bool traceoff;
	bool prepared;
	bool ok;
	phys_addr_t phys;
	phys_addr_t size;
	struct kmark_flight_hdr *hdr;
	struct kmark_comm_table *comms;
	u8 *evtab;
	u32 hdr_size;
	int prev;
	const char *why;
	struct kmark_flight_hdr *old;
	struct kmark_ghosts *old_events;
	unsigned long old_entries;
	unsigned long *old_cpu;
	long *old_lost;
	struct kmark_instance *inst;
	struct trace_buffer *buf;
	struct ring_buffer_iter **iters;
	const struct kmark_ghosts *ghosts;
	bool owned;
	u64 cleared_ns;
	atomic_t notes;
	struct kmark_dir last_boot;
};

static struct kmark_flight kmark_flight;

/* ftrace:print (trace_marker's event), which the notes in a buffer are. */
static struct kmark_marker *kmark_note_marker;

static u32 kmark_crc(const void *p, size_t len)
{
	return crc32_le(~0U, p, len) ^ ~0U;	/* zlib's crc32 */
}

#define KMARK_COMM_OFF	ALIGN(sizeof(struct kmark_flight_hdr), 64)
#define KMARK_EVTAB_OFF	ALIGN(KMARK_COMM_OFF + sizeof(struct kmark_comm_table), 64)
#define KMARK_HDR_AREA	PAGE_ALIGN(KMARK_EVTAB_OFF + KMARK_FLIGHT_EVTAB)

/* The identity this kernel writes. */
static void kmark_flight_id_fill(struct kmark_flight *f,
				 struct kmark_flight_id *id)
{
	memset(id, 0, sizeof(*id));
	id->magic = KMARK_FLIGHT_MAGIC;
	id->version = KMARK_FLIGHT_VERSION;
	id->hdr_size = KMARK_HDR_AREA;
	id->region_size = f->size;
	id->long_size = sizeof(long);
	id->page_size = PAGE_SIZE;
	id->entry_size = sizeof(struct kmark_entry);
	id->comm_size = sizeof(struct kmark_comm_table);
	id->comm_off = KMARK_COMM_OFF;
	id->evtab_off = KMARK_EVTAB_OFF;
	id->evtab_size = KMARK_FLIGHT_EVTAB;
	id->ncpus = nr_cpu_ids;
	strscpy(id->banner, linux_banner);
	id->crc = kmark_crc(id, offsetof(struct kmark_flight_id, crc));
}

/*
 * What the header at the region's start is. Return: KMARK_PREV_VALID, or
 * another state with @why set.
 */
static int kmark_flight_check(struct kmark_flight *f, const char **why)
{
	const struct kmark_flight_id *id = &f->hdr->id;
	struct kmark_flight_id *want;
	int ret = KMARK_PREV_VALID;

	if (id->magic != KMARK_FLIGHT_MAGIC) {
		*why = "no kmark header in the region (a cold start, or memory that was not kept)";
		return KMARK_PREV_COLD;
	}
	if (id->crc != kmark_crc(id, offsetof(struct kmark_flight_id, crc))) {
		*why = "the header in the region is damaged (its checksum does not match)";
		return KMARK_PREV_DAMAGED;
	}
	want = kmalloc(sizeof(*want), GFP_KERNEL);
	if (!want) {
		*why = "out of memory while checking the header";
		return KMARK_PREV_DAMAGED;
	}
	kmark_flight_id_fill(f, want);
	if (id->version != want->version || id->hdr_size != want->hdr_size ||
	    id->long_size != want->long_size ||
	    id->page_size != want->page_size ||
	    id->entry_size != want->entry_size ||
	    id->comm_size != want->comm_size ||
	    id->comm_off != want->comm_off ||
	    id->evtab_off != want->evtab_off ||
	    id->evtab_size != want->evtab_size) {
		*why = "recorded by a kmark with another layout (another kernel build)";
		ret = KMARK_PREV_OTHER;
	} else if (memcmp(id->banner, want->banner, sizeof(id->banner))) {
		*why = "the trace was recorded by another kernel build";
		ret = KMARK_PREV_OTHER;
	} else if (id->region_size != want->region_size) {
		*why = "the reserved region's size changed since the trace was recorded";
		ret = KMARK_PREV_DAMAGED;
	} else if (id->ncpus != want->ncpus) {
		*why = "the number of possible CPUs changed since the trace was recorded";
		ret = KMARK_PREV_DAMAGED;
	}
	kfree(want);
	return ret;
}

/* A copy of the header, every string terminated, every count in range. */
static struct kmark_flight_hdr *kmark_flight_hdr_copy(const struct kmark_flight_hdr *h)
{
	struct kmark_flight_hdr *c = kmemdup(h, sizeof(*h), GFP_KERNEL);
	unsigned int i;

	if (!c)
		return NULL;
	c->id.banner[sizeof(c->id.banner) - 1] = '\0';
	strim(c->id.banner);
	for (i = 0; i < KMARK_FLIGHT_NOTES; i++) {
		c->notes[i].text[sizeof(c->notes[i].text) - 1] = '\0';
		if (c->notes[i].kind >= KMARK_NR_NOTE_KINDS)
			c->notes[i].kind = KMARK_NOTE_WARNING;
	}
	if (c->evtab_used > KMARK_FLIGHT_EVTAB)
		c->evtab_used = 0;
	return c;
}

/*
 * The table of names the previous boot left, made safe to use on: a slot
 * that was being written (BUSY) or whose tag makes no sense is freed, every
 * name ends within its slot. Ids of the records still name what they named
 * (or "<...>" once a new name took a slot), never another task.
 */
static void kmark_flight_comms_check(struct kmark_comm_table *t)
{
	unsigned int i;

	if (!t->era || t->era > KMARK_COMM_ERA_MASK)
		t->era = 1;
	atomic_long_set(&t->missed, 0);
	atomic_long_set(&t->recycled, 0);
	atomic_set(&t->fresh, 0);
	for (i = 0; i < KMARK_COMM_IDS; i++) {
		struct kmark_comm_slot *s = &t->slots[i];
		u32 tag = s->tag;

		if (KMARK_COMM_TAG_STATE(tag) != KMARK_COMM_READY ||
		    !KMARK_COMM_TAG_GEN(tag) || !KMARK_COMM_TAG_LAST(tag)) {
			memset(s, 0, sizeof(*s));
			continue;
		}
		((char *)s->name)[TASK_COMM_LEN - 1] = '\0';
	}
}

/* The header becomes this boot's: its identity, its start, no notes yet. */
static void kmark_flight_own(struct kmark_flight *f)
{
	struct kmark_flight_hdr *h = f->hdr;
	u64 now = ktime_get_boottime_ns();

	kmark_flight_id_fill(f, &h->id);
	h->boot_real_s = ktime_get_real_seconds() - div_u64(now, NSEC_PER_SEC);
	h->start_ns = now;
	h->nr_notes = 0;
	h->evtab_used = 0;
	memset(h->notes, 0, sizeof(h->notes));
	atomic_set(&f->notes, 0);
	WRITE_ONCE(f->owned, true);
}

/* Parse kmark_instance=NAME[^traceoff]@LABEL[,EVENT...] into @f. */
static int kmark_flight_parse(struct kmark_flight *f, char *arg)
{
	char *at = strchr(arg, '@'), *flags, *comma, *flag;

	if (!at) {
		pr_err("kmark_instance=%s: no @LABEL (of reserve_mem=SIZE:ALIGN:LABEL)\n",
		       arg);
		return -EINVAL;
	}
	*at = '\0';
	comma = strchr(at + 1, ',');
	if (comma) {
		*comma = '\0';
		f->events = comma + 1;
	}
	if (!at[1] || strlen(at + 1) >= sizeof(f->label)) {
		pr_err("kmark_instance=: label '%s': 1 to 15 characters, as reserve_mem='s\n",
		       at + 1);
		return -EINVAL;
	}
	strscpy(f->label, at + 1);
	flags = strchr(arg, '^');
	if (flags)
		*flags++ = '\0';
	while ((flag = strsep(&flags, "^"))) {
		if (!strcmp(flag, "traceoff")) {
			f->traceoff = true;
		} else {
			pr_err("kmark_instance=%s: unknown flag ^%s (there is ^traceoff)\n",
			       arg, flag);
			return -EINVAL;
		}
	}
	if (!*arg || strlen(arg) >= sizeof(f->name)) {
		pr_err("kmark_instance=: an instance name of 1 to 63 characters before '@'\n");
		return -EINVAL;
	}
	strscpy(f->name, arg);
	return 0;
}

/*
 * Find the region and look at what it holds: once, from the first of the
 * flight recorder's setup and the first allocation of the table of names
 * (which goes into the region). Under kmark_mutex.
 */
static void kmark_flight_prepare(void)
{
	struct kmark_flight *f = &kmark_flight;
	phys_addr_t start, size, min;
	const char *why = NULL;
	int state;

	lockdep_assert_held(&kmark_mutex);
	if (f->prepared)
		return;
	f->prepared = true;
	if (!kmark_flight_arg[0] || kmark_flight_parse(f, kmark_flight_arg))
		return;
	if (!reserve_mem_find_by_name(f->label, &start, &size)) {
		pr_err("kmark_instance=%s@%s: no reserve_mem= region labelled '%s' (reserve_mem=SIZE:ALIGN:%s on the command line, before it)\n",
		       f->name, f->label, f->label, f->label);
		return;
	}
	min = KMARK_HDR_AREA + (phys_addr_t)nr_cpu_ids * 8 * PAGE_SIZE;
	if (!PAGE_ALIGNED(start) || !PAGE_ALIGNED(size)) {
		pr_err("kmark_instance=%s: reserve_mem %s at %pa is not page aligned: give it an alignment of 4096 or more (reserve_mem=SIZE:4096:%s)\n",
		       f->name, f->label, &start, f->label);
		return;
	}
	if (size < min) {
		pr_err("kmark_instance=%s: reserve_mem %s has %llu KiB, it needs %llu KiB at least (%u CPUs)\n",
		       f->name, f->label, (u64)size >> 10, (u64)min >> 10,
		       nr_cpu_ids);
		return;
	}
	/* reserve_mem= takes memory below the memblock limit: lowmem. */
	if (!pfn_valid(PHYS_PFN(start + size - 1)) ||
	    PageHighMem(pfn_to_page(PHYS_PFN(start + size - 1)))) {
		pr_err("kmark_instance=%s: reserve_mem %s at %pa is not in the kernel's direct map\n",
		       f->name, f->label, &start);
		return;
	}
	f->phys = start;
	f->size = size;
	f->hdr_size = KMARK_HDR_AREA;
	f->hdr = phys_to_virt(start);
	f->comms = (void *)f->hdr + KMARK_COMM_OFF;
	f->evtab = (u8 *)f->hdr + KMARK_EVTAB_OFF;

	state = kmark_flight_check(f, &why);
	f->prev = state;
	f->why = why;
	if (state == KMARK_PREV_VALID || state == KMARK_PREV_OTHER)
		f->old = kmark_flight_hdr_copy(f->hdr);
	if (state == KMARK_PREV_VALID && f->old) {
		/* The records' names: the table goes on where it was. */
		kmark_flight_comms_check(f->comms);
	} else {
		if (state == KMARK_PREV_VALID) {
			f->prev = KMARK_PREV_DAMAGED;
			f->why = "out of memory while reading the header";
		}
		kmark_comm_table_init(f->comms, get_random_u32());
		kmark_flight_own(f);
	}
	f->ok = true;
}

/* kmark_comms_ensure(): the table of names lives in the region, if any. */
struct kmark_comm_table *kmark_flight_comms(void)
{
	kmark_flight_prepare();
	return kmark_flight.ok ? kmark_flight.comms : NULL;
}

/* --- the event table ------------------------------------------------------- */

/* Put @str and its NUL; false if it does not fit. */
static bool kmark_put0(struct seq_buf *s, const char *str)
{
	seq_buf_puts(s, str);
	seq_buf_putc(s, '\0');
	return !seq_buf_has_overflowed(s);
}

/*
 * Encode @m's event table entry into @out (KMARK_FEV_MAX bytes, zeroed).
 * Return: its length, or -E2BIG.
 */
static int kmark_flight_encode(struct kmark_marker *m, u8 *out)
{
	const struct kmark_layout *l = m->layout;
	struct kmark_flight_ev *ev = (void *)out;
	struct kmark_flight_field *ff = (void *)(ev + 1);
	u8 *strs = (u8 *)(ff + l->nr_fields);
	struct seq_buf s;
	unsigned int i, len;
	bool ok;

	if (l->size > U16_MAX || l->nr_fields > KMARK_MAX_FIELDS ||
	    strlen(m->format) >= KMARK_FEV_STR_MAX)
		return -E2BIG;
	ev->id = m->id;
	ev->size = l->size;
	ev->nr_fields = l->nr_fields;
	ev->flags = m->print ? KMARK_FEV_OWN_PRINT : 0;
	for (i = 0; i < l->nr_fields; i++) {
		ff[i].offset = l->fields[i].offset;
		ff[i].size = l->fields[i].size;
		ff[i].kind = l->fields[i].kind;
		ff[i].is_signed = l->fields[i].is_signed;
		ff[i].conv_arg = l->fields[i].conv_arg;
	}
	seq_buf_init(&s, strs, out + KMARK_FEV_MAX - strs);
	ok = kmark_put0(&s, m->system) && kmark_put0(&s, m->name) &&
	     kmark_put0(&s, m->format);
	kmark_kprobe_def(&s, m);
	ok = ok && kmark_put0(&s, "");
	for (i = 0; ok && i < l->nr_fields; i++)
		ok = kmark_put0(&s, l->fields[i].name) &&
		     kmark_put0(&s, l->fields[i].type ?: "");
	if (!ok)
		return -E2BIG;
	len = ALIGN(strs - out + seq_buf_used(&s), 4);
	if (len > KMARK_FEV_MAX)
		return -E2BIG;
	ev->len = len;
	ev->crc = kmark_crc(out + sizeof(ev->crc), len - sizeof(ev->crc));
	return len;
}

/* Add @m to this boot's event table, unless it is there. Under kmark_mutex. */
static void kmark_flight_ev_add(struct kmark_flight *f, struct kmark_marker *m)
{
	struct kmark_flight_hdr *h = f->hdr;
	u32 used = h->evtab_used, off, len;
	u8 *buf;
	int ret;

	lockdep_assert_held(&kmark_mutex);
	buf = kzalloc(KMARK_FEV_MAX, GFP_KERNEL);
	if (!buf)
		goto full;
	ret = kmark_flight_encode(m, buf);
	if (ret < 0)
		goto full;
	for (off = 0; off < used; off += len) {
		const struct kmark_flight_ev *ev = (void *)(f->evtab + off);

		len = ev->len;
		if (!len)
			break;
		if (len == ret && !memcmp(ev, buf, len)) {
			kfree(buf);
			return;
		}
	}
	if (used + ret > KMARK_FLIGHT_EVTAB)
		goto full;
	memcpy(f->evtab + used, buf, ret);
	WRITE_ONCE(h->evtab_used, used + ret);
	kfree(buf);
	return;
full:
	kfree(buf);
	pr_warn("instance %s: no room to keep the layout of %s:%s: its events will show as unknown after a reboot\n",
		f->name, m->system, m->name);
}

/*
 * This boot's event table, from the start: the events that record whenever
 * tracing is on (trace_marker's, kernel_stack) and those the instance has
 * attached. Under kmark_mutex.
 */
static void kmark_flight_evtab_fill(struct kmark_flight *f)
{
	struct kmark_event_file *file;
	struct kmark_marker *m;

	lockdep_assert_held(&kmark_mutex);
	WRITE_ONCE(f->hdr->evtab_used, 0);
	list_for_each_entry(m, &kmark_markers, list)
		if (m->always_on)
			kmark_flight_ev_add(f, m);
	if (!f->inst)
		return;
	list_for_each_entry(file, &f->inst->files, list)
		if (file->flags & KMARK_EF_ENABLED)
			kmark_flight_ev_add(f, file->m);
}

/* An event file of the boot-mapped instance attaches. Under kmark_mutex. */
void kmark_flight_event_on(struct kmark_event_file *file)
{
	struct kmark_flight *f = file->inst->flight;

	if (f && f->owned)
		kmark_flight_ev_add(f, file->m);
}

/* --- the previous boot's events -------------------------------------------- */

struct kmark_marker *kmark_ghost_by_id(const struct kmark_ghosts *gs, u16 id)
{
	unsigned int i;

	/* The latest entry of an id is the one its records were made with. */
	for (i = gs->nr; i--; )
		if (gs->g[i]->m.id == id)
			return &gs->g[i]->m;
	return NULL;
}

/* The previous boot's events, while the instance shows its trace. */
const struct kmark_ghosts *kmark_flight_prev(const struct kmark_instance *inst)
{
	return inst->flight ? READ_ONCE(inst->flight->ghosts) : NULL;
}

/*
 * The next NUL-terminated string of an entry: shorter than @max, within
 * @end, printable; @ident: letters, digits and '_' only. NULL if not so.
 */
static const char *kmark_ghost_str(const char **p, const char *end,
				   size_t max, bool ident)
{
	const char *s = *p;
	size_t n, i;

	if (s >= end)
		return NULL;
	n = strnlen(s, end - s);
	if (n == end - s || n >= max)
		return NULL;
	for (i = 0; i < n; i++)
		if (ident ? !isalnum(s[i]) && s[i] != '_' && s[i] != '-' :
			    !isprint(s[i]) && s[i] != '\t' && s[i] != '\n')
			return NULL;
	*p = s + n + 1;
	return s;
}

/*
 * Give field @f (its conversion parsed from the format) what the entry
 * says, if that fits the conversion: the printer then reads the record as
 * the format file says, within the record, with the argument type its
 * conversion takes.
 */
static bool kmark_ghost_field(struct kmark_field *f,
			      const struct kmark_flight_field *ff,
			      unsigned int size)
{
	unsigned int sz = ff->size;
	size_t n = strlen(f->conv);

	if (ff->offset < KMARK_HDR_SIZE || ff->offset + sz > size)
		return false;
	switch (f->kind) {
	case KMARK_FIELD_STR:
		if (ff->conv_arg != KMARK_CONV_STR)
			return false;
		if (ff->kind == KMARK_FIELD_STR ? sz != sizeof(u32) :
		    ff->kind != KMARK_FIELD_CHARS || !sz || sz > KMARK_NAME_MAX)
			return false;
		break;
	case KMARK_FIELD_INT:
		if (ff->kind != KMARK_FIELD_INT || ff->conv_arg != f->conv_arg ||
		    sz > 8 || !is_power_of_2(sz))
			return false;
		break;
	case KMARK_FIELD_PTR:
		if (ff->kind != KMARK_FIELD_PTR || sz > 8 || !is_power_of_2(sz))
			return false;
		/* kmark_task_state(): a plain %p, printed as ftrace's prev_state. */
		if (ff->conv_arg == KMARK_CONV_TASK_STATE ?
		    f->conv[n - 1] != 'p' : ff->conv_arg != KMARK_CONV_PTR)
			return false;
		break;
	default:
		return false;
	}
	f->kind = ff->kind;
	f->offset = ff->offset;
	f->size = sz;
	f->is_signed = !!ff->is_signed;
	f->conv_arg = ff->conv_arg;
	return true;
}

static void kmark_ghost_free(struct kmark_ghost *g)
{
	unsigned int i;

	if (!IS_ERR_OR_NULL(g->m.layout))
		for (i = 0; i < g->m.layout->nr_fields; i++)
			kfree(g->m.layout->fields[i].type);
	kmark_free_layout(g->m.layout);
	kfree(g->m.system);
	kfree(g->m.name);
	kfree(g->m.format);
	kfree(g->def);
	kfree(g);
}

/* An event table entry (@len bytes, checksum checked) as a marker, or NULL. */
static struct kmark_ghost *kmark_ghost_make(const u8 *p, unsigned int len)
{
	const struct kmark_flight_ev *ev = (const void *)p;
	const struct kmark_flight_field *ff = (const void *)(ev + 1);
	const char *end = (const char *)p + len, *str, *sys, *name, *fmt, *def;
	struct kmark_marker *live;
	struct kmark_layout *l;
	struct kmark_ghost *g;
	const char *err;
	unsigned int i, pos;

	if (ev->nr_fields > KMARK_MAX_FIELDS || ev->size < KMARK_HDR_SIZE ||
	    (const u8 *)(ff + ev->nr_fields) > (const u8 *)end)
		return NULL;
	str = (const char *)(ff + ev->nr_fields);
	sys = kmark_ghost_str(&str, end, KMARK_NAME_MAX, true);
	name = kmark_ghost_str(&str, end, KMARK_NAME_MAX, true);
	fmt = kmark_ghost_str(&str, end, KMARK_FEV_STR_MAX, false);
	def = kmark_ghost_str(&str, end, KMARK_FEV_STR_MAX, false);
	if (!sys || !name || !fmt || !def || !*sys || !*name)
		return NULL;
	g = kzalloc(sizeof(*g), GFP_KERNEL);
	if (!g)
		return NULL;
	INIT_LIST_HEAD(&g->m.files);
	INIT_LIST_HEAD(&g->m.list);
	g->m.gone = true;
	g->m.id = ev->id;
	g->m.system = kstrdup(sys, GFP_KERNEL);
	g->m.name = kstrdup(name, GFP_KERNEL);
	g->m.format = kstrdup(fmt, GFP_KERNEL);
	g->def = *def ? kstrdup(def, GFP_KERNEL) : NULL;
	/* kmark's own parser: every conversion is one kmark accepts. */
	l = kmark_parse_format(fmt, &err, &pos);
	g->m.layout = l;
	if (!g->m.system || !g->m.name || !g->m.format || (*def && !g->def) ||
	    IS_ERR(l) || l->nr_fields != ev->nr_fields)
		goto bad;
	for (i = 0; i < l->nr_fields; i++) {
		const char *fname = kmark_ghost_str(&str, end, KMARK_NAME_MAX, true);
		const char *ftype = kmark_ghost_str(&str, end, KMARK_NAME_MAX, false);

		if (!fname || !ftype || !*fname ||
		    !kmark_ghost_field(&l->fields[i], &ff[i], ev->size))
			goto bad;
		strscpy(l->fields[i].name, fname);
		l->fields[i].type = kstrdup(*ftype ? ftype : "int", GFP_KERNEL);
		if (!l->fields[i].type)
			goto bad;
	}
	l->size = ev->size;
	kmark_layout_finish(l);
	if (ev->flags & KMARK_FEV_OWN_PRINT) {
		/* Rendered by kmark's code (the same kernel): the live one's. */
		live = kmark_find_marker(sys, name);
		if (IS_ERR_OR_NULL(live) || !live->print ||
		    live->layout->size != ev->size)
			goto bad;
		g->m.print = live->print;
		g->m.print_format = live->print_format;
	}
	return g;
bad:
	pr_info("the previous boot's event %s:%s (id %u) does not check: its records show as unknown\n",
		sys, name, ev->id);
	if (IS_ERR(l))
		g->m.layout = NULL;
	kmark_ghost_free(g);
	return NULL;
}

/* The previous boot's event table, as markers. Under kmark_mutex. */
static struct kmark_ghosts *kmark_ghosts_load(struct kmark_flight *f)
{
	u32 used = f->old->evtab_used, off, len, n = 0;
	struct kmark_ghosts *gs;
	struct kmark_ghost *g;
	u8 *tab;

	tab = kmemdup(f->evtab, used ?: 1, GFP_KERNEL);
	if (!tab)
		return NULL;
	/* Whole entries only: the count first. */
	for (off = 0; off + sizeof(struct kmark_flight_ev) <= used; off += len) {
		len = ((struct kmark_flight_ev *)(tab + off))->len;
		if (len < sizeof(struct kmark_flight_ev) || len > used - off ||
		    len % 4)
			break;
		n++;
	}
	gs = kzalloc(struct_size(gs, g, n), GFP_KERNEL);
	if (!gs)
		goto out;
	for (off = 0; n--; off += len) {
		struct kmark_flight_ev *ev = (void *)(tab + off);

		len = ev->len;
		g = NULL;
		if (ev->crc == kmark_crc(tab + off + sizeof(ev->crc),
					 len - sizeof(ev->crc)))
			g = kmark_ghost_make(tab + off, len);
		if (g)
			gs->g[gs->nr++] = g;
		else
			gs->bad++;
	}
	if (off < used)
		gs->bad++;	/* a damaged length: the rest is lost */
out:
	kfree(tab);
	return gs;
}

/* --- notes: why the boot ended -------------------------------------------- */

/*
 * Note @text in the header, if the header is this boot's (a boot that
 * still shows the previous boot's trace notes nothing: that trace is not
 * its). Any context: plain stores into the region.
 */
static void kmark_flight_note(u32 kind, const char *text)
{
	struct kmark_flight *f = &kmark_flight;
	struct kmark_flight_note *n;
	unsigned int i, nr;

	if (!f->inst || !READ_ONCE(f->owned))
		return;
	nr = atomic_inc_return(&f->notes);
	/* The first ones stay; past them, the last slot holds the latest. */
	i = min_t(unsigned int, nr, KMARK_FLIGHT_NOTES) - 1;
	n = &f->hdr->notes[i];
	n->kind = kind;
	n->cpu = raw_smp_processor_id();
	n->uptime_ns = ktime_get_boot_fast_ns();
	n->real_s = div_u64(ktime_get_real_fast_ns(), NSEC_PER_SEC);
	strscpy(n->text, text, sizeof(n->text));
	/* The note before its count: a reader trusts what the count covers. */
	smp_wmb();
	WRITE_ONCE(f->hdr->nr_notes, nr);
}

/*
 * A line of text into @inst's buffer, as trace_marker writes one (its
 * event, ftrace:print), if it is recording. Any context.
 */
static void notrace kmark_buffer_note(struct kmark_instance *inst,
				      const char *text)
{
	struct kmark_marker *m = READ_ONCE(kmark_note_marker);
	unsigned int len = strnlen(text, KMARK_FLIGHT_NOTE_LEN);
	const struct kmark_layout *l;
	struct kmark_entry *e;
	struct kmark_rec rec;

	if (!m)
		return;
	l = m->layout;
	preempt_disable_notrace();
	e = kmark_reserve(inst, m->id, l->size + len + 1, false, &rec);
	if (e) {
		kmark_set_comm_id(e);
		memset(e + 1, 0, l->size - KMARK_HDR_SIZE);
		kmark_put_str(e, &l->fields[0], (u8 *)e + l->size, text, len);
		kmark_commit(inst, &rec);
	}
	preempt_enable_notrace();
}

/* Stop @inst recording, with why (@kind: @why) as its last line. Any context. */
static void kmark_traceoff(struct kmark_instance *inst, u32 kind,
			   const char *why)
{
	char line[KMARK_FLIGHT_NOTE_LEN + 32];

	if (!READ_ONCE(inst->tracing_on))
		return;
	snprintf(line, sizeof(line), "kmark: tracing stopped: %s: %s",
		 kmark_note_kinds[kind], why);
	kmark_buffer_note(inst, line);
	WRITE_ONCE(inst->tracing_on, false);
}

/* --- the dump ------------------------------------------------------------- */

/*
 * One line at a time, static: the dump runs where nothing may be
 * allocated. One dump at a time (kmark_dump_busy); a dump that went is not
 * repeated (an oops that panics is dumped once, at the oops).
 */
static char kmark_dump_text[1024];
static atomic_t kmark_dump_busy;
static bool kmark_dump_done;
#define KMARK_DUMP_MAX_EVENTS	(1UL << 22)	/* a loop guard */

static void kmark_dump_emit(struct seq_buf *s)
{
	printk(KERN_EMERG "%.*s", (int)seq_buf_used(s), s->buffer);
	touch_nmi_watchdog();
}

#define for_each_dump_cpu(cpu, only)					\
	for_each_cpu(cpu, (only) < 0 ? cpu_possible_mask : cpumask_of(only))

static void kmark_dump_head(struct kmark_instance *inst, int only,
			    unsigned int max, unsigned long left,
			    bool prev)
{
	const char *name = inst == kmark_top_inst ? "(top)" : inst->name;
	char cpus[24] = "all CPUs";

	if (only >= 0)
		snprintf(cpus, sizeof(cpus), "CPU %d", only);
	if (max)
		pr_emerg("dump of instance %s, %s, oldest first: the last %u events of each CPU, %lu older events left out (kernel.kmark_dump_lines)\n",
			 name, cpus, max, left);
	else
		pr_emerg("dump of instance %s, %s, oldest first: every event\n",
			 name, cpus);
	if (prev)
		pr_emerg("(the previous boot's trace: this boot did not record in the instance)\n");
}

/* Consuming, as ftrace's dump: for ordinary instances. */
static unsigned long kmark_dump_consume(struct kmark_instance *inst,
					struct trace_buffer *buf, int only,
					const struct kmark_ghosts *prev)
{
	unsigned int max = READ_ONCE(kmark_dump_lines);
	unsigned long left = 0, done = 0, lost, l, n;
	struct ring_buffer_event *ev, *e;
	struct seq_buf s;
	int cpu, best;
	u64 ts, t;

	for_each_dump_cpu(cpu, only) {
		n = ring_buffer_entries_cpu(buf, cpu);
		while (max && n > max && ring_buffer_consume(buf, cpu, NULL, NULL)) {
			left++;
			n--;
		}
	}
	kmark_dump_head(inst, only, max, left, prev);
	while (done < KMARK_DUMP_MAX_EVENTS) {
		best = -1;
		ev = NULL;
		ts = U64_MAX;
		lost = 0;
		for_each_dump_cpu(cpu, only) {
			e = ring_buffer_peek(buf, cpu, &t, &l);
			if (e && t < ts) {
				ev = e;
				ts = t;
				lost = l;
				best = cpu;
			}
		}
		if (best < 0)
			break;
		seq_buf_init(&s, kmark_dump_text, sizeof(kmark_dump_text));
		kmark_print_record(&s, best, ts, ring_buffer_event_data(ev),
				   ring_buffer_event_length(ev), lost, 0, prev);
		kmark_dump_emit(&s);
		ring_buffer_consume(buf, best, NULL, NULL);
		done++;
	}
	return done;
}

/* With the boot-mapped instance's iterators: what is printed stays. */
static unsigned long kmark_dump_iter(struct kmark_instance *inst,
				     struct ring_buffer_iter **iters, int only,
				     const struct kmark_ghosts *prev)
{
	unsigned int max = READ_ONCE(kmark_dump_lines);
	unsigned long left = 0, done = 0, n, skip;
	struct ring_buffer_event *ev, *e;
	struct seq_buf s;
	int cpu, best;
	u64 ts, t;

	for_each_dump_cpu(cpu, only) {
		if (!iters[cpu])
			continue;
		ring_buffer_iter_reset(iters[cpu]);
		for (n = 0; n < KMARK_DUMP_MAX_EVENTS &&
		     ring_buffer_iter_peek(iters[cpu], &t); n++)
			ring_buffer_iter_advance(iters[cpu]);
		ring_buffer_iter_reset(iters[cpu]);
		skip = max && n > max ? n - max : 0;
		left += skip;
		/*
		 * As the count went: a peek steps over time extends and
		 * padding, so each advance passes one event.
		 */
		while (skip-- && ring_buffer_iter_peek(iters[cpu], &t))
			ring_buffer_iter_advance(iters[cpu]);
	}
	kmark_dump_head(inst, only, max, left, prev);
	while (done < KMARK_DUMP_MAX_EVENTS) {
		best = -1;
		ev = NULL;
		ts = U64_MAX;
		for_each_dump_cpu(cpu, only) {
			if (!iters[cpu])
				continue;
			e = ring_buffer_iter_peek(iters[cpu], &t);
			if (e && t < ts) {
				ev = e;
				ts = t;
				best = cpu;
			}
		}
		if (best < 0)
			break;
		seq_buf_init(&s, kmark_dump_text, sizeof(kmark_dump_text));
		kmark_print_record(&s, best, ts, ring_buffer_event_data(ev),
				   ring_buffer_event_length(ev),
				   ring_buffer_iter_dropped(iters[best]) ? ULONG_MAX : 0,
				   0, prev);
		kmark_dump_emit(&s);
		ring_buffer_iter_advance(iters[best]);
		done++;
	}
	return done;
}

/* The instance kmark_dump_on_oops names, under RCU; NULL if none. */
static struct kmark_instance *kmark_dump_target(const char *name)
{
	struct kmark_instance *inst;

	if (!*name)
		return kmark_top_inst;
	list_for_each_entry_rcu(inst, &kmark_instance_list, list)
		if (inst != kmark_top_inst && READ_ONCE(inst->live) &&
		    !strcmp(inst->name, name))
			return inst;
	return NULL;
}

/* kmark_dump_on_oops: an oops or a panic (@kind, @why). Any context. */
static void kmark_dump(u32 kind, const char *why)
{
	/* Pairs with kmark_dump_set(): the instance name before the mode. */
	int mode = smp_load_acquire(&kmark_dump_mode), only = -1;
	char name[KMARK_INSTANCE_NAME_MAX], line[KMARK_FLIGHT_NOTE_LEN];
	struct kmark_instance *inst;
	struct trace_buffer *buf;
	unsigned long done;

	if (mode == KMARK_DUMP_OFF)
		return;
	if (atomic_cmpxchg(&kmark_dump_busy, 0, 1)) {
		pr_emerg("dump_on_oops: another CPU is dumping\n");
		return;
	}
	if (kmark_dump_done) {
		pr_emerg("dump_on_oops: dumped already, at the first oops\n");
		goto out;
	}
	strscpy(name, kmark_dump_inst);
	rcu_read_lock();
	inst = kmark_dump_target(name);
	buf = inst ? READ_ONCE(inst->buffer) : NULL;
	if (!buf) {
		pr_emerg("dump_on_oops: %s '%s'\n",
			 inst ? "nothing recorded in instance" : "no instance", name);
		goto unlock;
	}
	kmark_dump_done = true;
	snprintf(line, sizeof(line), "%s; the trace follows on the console", why);
	kmark_traceoff(inst, kind, line);
	/* Writers that passed tracing_on already: none gets in now. */
	ring_buffer_record_disable(buf);
	if (mode == KMARK_DUMP_ORIG)
		only = raw_smp_processor_id();
	if (inst->flight && kmark_flight.iters && buf == kmark_flight.buf)
		done = kmark_dump_iter(inst, kmark_flight.iters, only,
				       kmark_flight_prev(inst));
	else if (inst->flight)
		done = 0;	/* no iterators: its trace is kept, not dumped */
	else
		done = kmark_dump_consume(inst, buf, only, NULL);
	pr_emerg("end of dump: %lu events\n", done);
	ring_buffer_record_enable(buf);
unlock:
	rcu_read_unlock();
out:
	atomic_set(&kmark_dump_busy, 0);
}

/* --- notifiers ------------------------------------------------------------- */

/* The boot-mapped instance at an oops, a panic or a reboot: noted, stopped. */
static void kmark_flight_end(u32 kind, const char *text)
{
	struct kmark_flight *f = &kmark_flight;

	kmark_flight_note(kind, text);
	if (f->inst)
		kmark_traceoff(f->inst, kind, text);
}

static int kmark_die_notify(struct notifier_block *nb, unsigned long val,
			    void *data)
{
	struct die_args *args = data;
	char text[KMARK_FLIGHT_NOTE_LEN];

	if (val != DIE_OOPS)
		return NOTIFY_DONE;
	snprintf(text, sizeof(text), "%s (trap %d, error %#lx) at %pS, CPU %d, pid %d %s",
		 args->str, args->trapnr, (unsigned long)args->err,
		 args->regs ? (void *)instruction_pointer(args->regs) : NULL,
		 raw_smp_processor_id(), current->pid, current->comm);
	kmark_flight_end(KMARK_NOTE_OOPS, text);
	kmark_dump(KMARK_NOTE_OOPS, text);
	return NOTIFY_DONE;
}

static int kmark_panic_notify(struct notifier_block *nb, unsigned long val,
			      void *data)
{
	char text[KMARK_FLIGHT_NOTE_LEN];

	snprintf(text, sizeof(text), "%s", data ? (const char *)data : "");
	strim(text);
	snprintf(text + strlen(text), sizeof(text) - strlen(text), ", CPU %d",
		 raw_smp_processor_id());
	kmark_flight_end(KMARK_NOTE_PANIC, text);
	kmark_dump(KMARK_NOTE_PANIC, text);
	return NOTIFY_DONE;
}

static int kmark_reboot_notify(struct notifier_block *nb, unsigned long code,
			       void *data)
{
	kmark_flight_end(KMARK_NOTE_REBOOT,
			 code == SYS_HALT ? "halt" :
			 code == SYS_POWER_OFF ? "power off" : "reboot");
	return NOTIFY_DONE;
}

/* ftrace's are at INT_MAX - 1; kmark's come next. */
static struct notifier_block kmark_die_nb = {
	.notifier_call = kmark_die_notify,
	.priority = INT_MAX - 2,
};

static struct notifier_block kmark_panic_nb = {
	.notifier_call = kmark_panic_notify,
	.priority = INT_MAX - 2,
};

static struct notifier_block kmark_reboot_nb = {
	.notifier_call = kmark_reboot_notify,
};

/**
 * kmark_on_warning - a WARN (from __warn(), any context)
 * @file:	where, or NULL
 * @line:	its line
 * @caller:	the function that warned
 *
 * The boot-mapped instance notes it; with kmark_traceoff_on_warning, every
 * instance stops recording, its last line saying why, so that what led to
 * the warning is not overwritten.
 */
void kmark_on_warning(const char *file, int line, void *caller)
{
	char text[KMARK_FLIGHT_NOTE_LEN];
	struct kmark_instance *inst;

	if (file)
		snprintf(text, sizeof(text), "at %s:%d %pS, CPU %d, pid %d %s",
			 file, line, caller, raw_smp_processor_id(),
			 current->pid, current->comm);
	else
		snprintf(text, sizeof(text), "at %pS, CPU %d, pid %d %s",
			 caller, raw_smp_processor_id(), current->pid,
			 current->comm);
	kmark_flight_note(KMARK_NOTE_WARNING, text);
	if (!READ_ONCE(kmark_traceoff_on_warning))
		return;
	rcu_read_lock();
	list_for_each_entry_rcu(inst, &kmark_instance_list, list)
		kmark_traceoff(inst, KMARK_NOTE_WARNING, text);
	rcu_read_unlock();
}

/* --- this boot records ------------------------------------------------------ */

/*
 * trace was cleared (kmark_buffer_clear(), all CPUs): the previous boot's
 * trace, if it was there, is gone, and the instance is this boot's. Under
 * kmark_mutex.
 */
void kmark_flight_cleared(struct kmark_instance *inst)
{
	struct kmark_flight *f = inst->flight;

	lockdep_assert_held(&kmark_mutex);
	if (!f->owned) {
		WRITE_ONCE(f->ghosts, NULL);
		f->cleared_ns = ktime_get_boottime_ns();
		kmark_flight_own(f);
	}
	kmark_flight_evtab_fill(f);
}

/* tracing_on is set: a previous boot's trace is cleared first. */
void kmark_flight_start(struct kmark_instance *inst)
{
	if (!inst->flight)
		return;
	mutex_lock(&kmark_mutex);
	if (!inst->flight->owned) {
		mutex_lock(&inst->read_mutex);
		kmark_buffer_clear(inst, -1);
		mutex_unlock(&inst->read_mutex);
	}
	mutex_unlock(&kmark_mutex);
}

/* --- files: last_boot_info, last_boot/ ------------------------------------ */

/* The microseconds of @ns past its second (no 64-bit '%': i386). */
static unsigned long kmark_usecs(u64 ns)
{
	u32 rem;

	div_u64_rem(ns, NSEC_PER_SEC, &rem);
	return rem / 1000;
}

/* "WHAT at 12.345678 s (2025-01-31 12:00:00 UTC)" */
static void kmark_print_time(struct seq_file *m, const char *what, s64 secs,
			     u64 ns)
{
	struct tm tm;
	u32 rem;
	u64 s = div_u64_rem(ns, NSEC_PER_SEC, &rem);

	time64_to_tm(secs, 0, &tm);
	seq_printf(m, "%s at %llu.%06u s (%04ld-%02d-%02d %02d:%02d:%02d UTC)",
		   what, s, rem / 1000, tm.tm_year + 1900, tm.tm_mon + 1,
		   tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec);
}

static int kmark_lbi_show(struct seq_file *m, void *v)
{
	struct kmark_flight *f = m->private;
	const struct kmark_flight_hdr *h = f->old;
	unsigned int i, nr;
	const char *nl;
	struct tm tm;
	size_t len;
	int cpu;

	mutex_lock(&kmark_mutex);
	switch (f->prev) {
	case KMARK_PREV_VALID:
		if (f->ghosts)
			seq_puts(m, "previous boot: its trace is in this instance (trace, trace_pipe, per_cpu/cpuN/trace_pipe_raw); recording stays off until tracing_on is set, which clears it\n");
		else
			seq_printf(m, "previous boot: its trace was cleared %llu.%06lu s after this boot started, to record this boot\n",
				   div_u64(f->cleared_ns, NSEC_PER_SEC),
				   kmark_usecs(f->cleared_ns));
		break;
	case KMARK_PREV_OTHER:
		seq_printf(m, "no previous trace: refused: %s; this kernel is:\n  %.*s\n",
			   f->why, (int)strcspn(linux_banner, "\n"), linux_banner);
		break;
	default:
		seq_printf(m, "no previous trace: %s\n", f->why);
		break;
	}
	if (h) {
		/*
		 * The region's text (checksummed, yet anyone's who could
		 * write the memory): its control bytes escaped, as a task's
		 * name is, so that it cannot forge lines of this file.
		 */
		len = strnlen(h->id.banner, sizeof(h->id.banner));
		nl = memchr(h->id.banner, '\n', len);	/* linux_banner's own */
		seq_puts(m, "kernel: ");
		seq_escape_mem(m, h->id.banner, nl ? nl - h->id.banner : len,
			       ESCAPE_ANY_NP, NULL);
		seq_putc(m, '\n');
		time64_to_tm(h->boot_real_s, 0, &tm);
		seq_printf(m, "booted: %04ld-%02d-%02d %02d:%02d:%02d UTC; recording from %llu.%06lu s\n",
			   tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday,
			   tm.tm_hour, tm.tm_min, tm.tm_sec,
			   div_u64(h->start_ns, NSEC_PER_SEC),
			   kmark_usecs(h->start_ns));
		nr = min_t(u32, h->nr_notes, KMARK_FLIGHT_NOTES);
		for (i = 0; i < nr; i++) {
			const struct kmark_flight_note *n = &h->notes[i];

			if (i == KMARK_FLIGHT_NOTES - 1 && h->nr_notes > nr)
				seq_printf(m, "(%u notes; the last one:)\n",
					   h->nr_notes);
			kmark_print_time(m, kmark_note_kinds[n->kind],
					 n->real_s, n->uptime_ns);
			seq_puts(m, ": ");
			seq_escape_mem(m, n->text, strnlen(n->text, sizeof(n->text)),
				       ESCAPE_ANY_NP, NULL);
			seq_putc(m, '\n');
		}
		if (!nr)
			seq_puts(m, "ended: nothing noted (no panic, oops, warning or reboot was: a hang, a reset or a power loss)\n");
	}
	if (f->prev == KMARK_PREV_VALID) {
		seq_printf(m, "events: %lu in the buffer when this boot started",
			   f->old_entries);
		for_each_possible_cpu(cpu)
			if (f->old_cpu)
				seq_printf(m, "%sCPU%d %lu", cpu ? ", " : " (",
					   cpu, f->old_cpu[cpu]);
		seq_puts(m, f->old_cpu ? ")\n" : "\n");
		seq_puts(m, "lost:");
		nr = 0;
		for_each_possible_cpu(cpu) {
			long lost = f->old_lost ? f->old_lost[cpu] : 0;

			if (lost < 0)
				seq_printf(m, "%s CPU%d all (its ring buffer meta data did not check: see dmesg)",
					   nr++ ? "," : "", cpu);
			else if (lost)
				seq_printf(m, "%s CPU%d %ld pages (damaged; its other pages are kept)",
					   nr++ ? "," : "", cpu, lost);
		}
		seq_puts(m, nr ? "\n" : " nothing\n");
		seq_printf(m, "formats: last_boot/events/ (%u events%s), task names: last_boot/saved_comms, kprobes: last_boot/kprobe_events\n",
			   f->old_events ? f->old_events->nr : 0,
			   f->old_events && f->old_events->bad ?
			   ", some not readable: their events show as unknown" : "");
	}
	seq_printf(m, "region: reserve_mem %s at %pa, %llu KiB (header %u KiB, ring buffer %llu KiB)\n",
		   f->label, &f->phys, (u64)f->size >> 10, f->hdr_size >> 10,
		   (u64)(f->size - f->hdr_size) >> 10);
	mutex_unlock(&kmark_mutex);
	return 0;
}

static int kmark_flight_open(struct inode *inode, struct file *file,
			     int (*show)(struct seq_file *, void *))
{
	int ret = kmark_open_check();

	return ret ?: single_open(file, show, inode->i_private);
}

static int kmark_lbi_open(struct inode *inode, struct file *file)
{
	return kmark_flight_open(inode, file, kmark_lbi_show);
}

static const struct file_operations kmark_lbi_fops = {
	.open = kmark_lbi_open,
	.read = seq_read,
	.llseek = seq_lseek,
	.release = single_release,
};

/* last_boot/events/SYS/NAME/format: an event of the previous boot. */
static int kmark_ghost_format_show(struct seq_file *sf, void *v)
{
	struct kmark_ghost *g = sf->private;
	struct seq_buf s;
	char *buf = kmalloc(PAGE_SIZE, GFP_KERNEL);

	if (!buf)
		return -ENOMEM;
	seq_buf_init(&s, buf, PAGE_SIZE);
	kmark_print_format(&s, &g->m);
	seq_write(sf, buf, seq_buf_used(&s));
	kfree(buf);
	return 0;
}

static int kmark_ghost_format_open(struct inode *inode, struct file *file)
{
	return kmark_flight_open(inode, file, kmark_ghost_format_show);
}

static const struct file_operations kmark_ghost_format_fops = {
	.open = kmark_ghost_format_open,
	.read = seq_read,
	.llseek = seq_lseek,
	.release = single_release,
};

/* last_boot/saved_comms: the table of names, which went on from that boot's. */
static int kmark_lb_comms_show(struct seq_file *m, void *v)
{
	kmark_comms_show_table(m);
	return 0;
}

static int kmark_lb_comms_open(struct inode *inode, struct file *file)
{
	return kmark_flight_open(inode, file, kmark_lb_comms_show);
}

static const struct file_operations kmark_lb_comms_fops = {
	.open = kmark_lb_comms_open,
	.read = seq_read,
	.llseek = seq_lseek,
	.release = single_release,
};

/* last_boot/kprobe_events: the definitions of the kprobe events it recorded. */
static int kmark_lb_kprobes_show(struct seq_file *m, void *v)
{
	const struct kmark_ghosts *gs = ((struct kmark_flight *)m->private)->old_events;
	unsigned int i;

	for (i = 0; gs && i < gs->nr; i++)
		if (gs->g[i]->def)
			seq_printf(m, "%s\n", gs->g[i]->def);
	return 0;
}

static int kmark_lb_kprobes_open(struct inode *inode, struct file *file)
{
	return kmark_flight_open(inode, file, kmark_lb_kprobes_show);
}

static const struct file_operations kmark_lb_kprobes_fops = {
	.open = kmark_lb_kprobes_open,
	.read = seq_read,
	.llseek = seq_lseek,
	.release = single_release,
};

/*
 * last_boot/: what a tool needs to read the previous boot's raw pages, laid
 * out as kmark's own directory (events/header_page, events/SYS/NAME/format,
 * saved_comms), so that "kmark dump -o prev.dat" writes a trace.dat from it
 * and the instance's trace_pipe_raw. Under kmark_mutex, at boot.
 */
static void __init kmark_flight_last_boot_files(struct kmark_flight *f)
{
	struct kmark_ghosts *gs = f->old_events;
	struct kmark_dir events, *sys = NULL;
	unsigned int i, j;

	if (kmark_fs_dir("last_boot", &f->inst->dir, &f->last_boot) ||
	    kmark_fs_dir("events", &f->last_boot, &events) ||
	    kmark_fs_file("header_page", 0400, &events, f->inst,
			  &kmark_header_page_fops) ||
	    kmark_fs_file("header_event", 0400, &events, f->inst,
			  &kmark_header_event_fops) ||
	    kmark_fs_file("saved_comms", 0400, &f->last_boot, f,
			  &kmark_lb_comms_fops) ||
	    kmark_fs_file("kprobe_events", 0400, &f->last_boot, f,
			  &kmark_lb_kprobes_fops))
		goto fail;
	/* sys[i]: the directory of the system of the first event that has it. */
	if (gs && gs->nr) {
		sys = kcalloc(gs->nr, sizeof(*sys), GFP_KERNEL);
		if (!sys)
			goto fail;
	}
	for (i = 0; gs && i < gs->nr; i++) {
		struct kmark_ghost *g = gs->g[i];

		/* An event entered again (a new layout): the latest one has files. */
		for (j = i + 1; j < gs->nr; j++)
			if (!strcmp(gs->g[j]->m.system, g->m.system) &&
			    !strcmp(gs->g[j]->m.name, g->m.name))
				break;
		if (j < gs->nr)
			continue;
		for (j = 0; j < i; j++)
			if (kmark_dir_made(&sys[j]) &&
			    !strcmp(gs->g[j]->m.system, g->m.system))
				break;
		if (j == i && kmark_fs_dir(g->m.system, &events, &sys[i]))
			goto fail;
		if (kmark_fs_dir(g->m.name, &sys[j], &g->dir) ||
		    kmark_fs_file("format", 0400, &g->dir, g,
				  &kmark_ghost_format_fops))
			goto fail;
	}
	kfree(sys);
	return;
fail:
	kfree(sys);
	pr_warn("instance %s: some files of last_boot/ are missing (out of memory)\n",
		f->name);
}

/* --- setup ----------------------------------------------------------------- */

static void __init kmark_flight_setup(struct kmark_flight *f)
{
	struct trace_buffer *buf;
	struct kmark_instance *inst;
	unsigned int pos;
	const char *err;
	int ret, cpu;

	buf = ring_buffer_alloc_range(0, RB_FL_OVERWRITE, 0,
				      (unsigned long)f->hdr + f->hdr_size,
				      f->size - f->hdr_size);
	if (!buf) {
		pr_err("kmark_instance=%s: no ring buffer over reserve_mem %s (out of memory, or fewer than 3 pages per CPU)\n",
		       f->name, f->label);
		return;
	}
	if (f->prev == KMARK_PREV_VALID) {
		f->old_cpu = kcalloc(nr_cpu_ids, sizeof(*f->old_cpu), GFP_KERNEL);
		f->old_lost = kcalloc(nr_cpu_ids, sizeof(*f->old_lost), GFP_KERNEL);
		for_each_possible_cpu(cpu) {
			unsigned long dropped;
			bool kept;

			if (f->old_cpu)
				f->old_cpu[cpu] = ring_buffer_entries_cpu(buf, cpu);
			/* (a CPU not up at boot has no buffer yet: nothing lost) */
			kept = ring_buffer_range_last_boot(buf, cpu, &dropped) ||
			       !cpu_online(cpu);
			if (f->old_lost)
				f->old_lost[cpu] = kept ? (long)dropped : -1;
			if (!kept)
				pr_warn("instance %s: CPU%d's part of the previous boot's trace is lost: its ring buffer meta data did not check\n",
					f->name, cpu);
			else if (dropped)
				pr_warn("instance %s: CPU%d: %lu pages of the previous boot's trace did not check and were dropped; its other pages are kept\n",
					f->name, cpu, dropped);
		}
		f->old_entries = ring_buffer_entries(buf);
		if (!f->old_entries) {
			f->prev = KMARK_PREV_EMPTY;
			f->why = "the buffer held no events (none, or its pages did not check)";
		}
	}
	if (f->prev != KMARK_PREV_VALID) {
		/* What the ring buffer kept is not this header's: gone. */
		ring_buffer_reset(buf);
		mutex_lock(&kmark_mutex);
		if (!f->owned)
			kmark_flight_own(f);
		mutex_unlock(&kmark_mutex);
	}
	ret = kmark_inst_make(f->name, &err);
	if (ret) {
		pr_err("kmark_instance=%s: %s\n", f->name, err);
		ring_buffer_free(buf);
		return;
	}
	mutex_lock(&kmark_mutex);
	inst = kmark_inst_by_name(f->name);
	f->inst = inst;
	f->buf = buf;
	/*
	 * The table of names, which kmark_buffer_ensure() makes with a
	 * buffer: this buffer is made here. The region has it (prepared).
	 */
	if (kmark_comms_ensure())
		pr_warn("instance %s: no table of task names: its events show <...>\n",
			f->name);
	kmark_set_buffer_clock(buf, inst->clock);
	inst->buffer_kb = ring_buffer_size(buf, raw_smp_processor_id()) >> 10;
	if (f->prev == KMARK_PREV_VALID) {
		f->old_events = kmark_ghosts_load(f);
		WRITE_ONCE(f->ghosts, f->old_events);
	}
	inst->flight = f;
	/* Pairs with READ_ONCE() in the recorder and readers. */
	smp_store_release(&inst->buffer, buf);
	if (f->owned)
		kmark_flight_evtab_fill(f);
	if (kmark_fs_file("last_boot_info", 0400, &inst->dir, f, &kmark_lbi_fops))
		pr_warn("instance %s: no last_boot_info (out of memory)\n", f->name);
	if (f->prev == KMARK_PREV_VALID)
		kmark_flight_last_boot_files(f);
	WRITE_ONCE(inst->tracing_on, f->owned && !f->traceoff);
	mutex_unlock(&kmark_mutex);

	if (f->events && *f->events &&
	    kmark_set_event_apply(inst, f->events, false, &err, &pos)) {
		pr_err("kmark_instance=%s: events '%s': %s (at offset %u)\n",
		       f->name, f->events, err, pos);
		kmark_log_err(inst, f->events, pos, err);
	}

	/* The dump's iterators: made now, where it may sleep. */
	f->iters = kcalloc(nr_cpu_ids, sizeof(*f->iters), GFP_KERNEL);
	for_each_possible_cpu(cpu)
		if (f->iters)
			f->iters[cpu] = ring_buffer_read_start(buf, cpu, GFP_KERNEL);

	if (f->prev == KMARK_PREV_VALID)
		pr_info("instance %s: the previous boot's trace, %lu events (%u event types%s): recording is off until tracing_on is set (see last_boot_info)\n",
			f->name, f->old_entries, f->old_events ? f->old_events->nr : 0,
			f->old_events && f->old_events->bad ? ", some unreadable" : "");
	else
		pr_info("instance %s: no previous trace: %s%s\n", f->name, f->why,
			f->traceoff ? "; ^traceoff: recording is off" : "");
	pr_info("instance %s on reserve_mem %s at %pa, %llu KiB (header %u KiB, %lu KiB per CPU)\n",
		f->name, f->label, &f->phys, (u64)f->size >> 10,
		f->hdr_size >> 10, inst->buffer_kb);
}

static int __init kmark_flight_init(void)
{
	struct kmark_marker *m;

#ifdef CONFIG_SYSCTL
	register_sysctl_init("kernel", kmark_flight_sysctls);
#endif
	register_die_notifier(&kmark_die_nb);
	atomic_notifier_chain_register(&panic_notifier_list, &kmark_panic_nb);
	register_reboot_notifier(&kmark_reboot_nb);

	mutex_lock(&kmark_mutex);
	m = kmark_find_marker("ftrace", "print");
	if (!IS_ERR_OR_NULL(m))
		WRITE_ONCE(kmark_note_marker, m);
	kmark_flight_prepare();
	mutex_unlock(&kmark_mutex);
	if (kmark_flight.ok)
		kmark_flight_setup(&kmark_flight);
	return 0;
}
/* After kmark's directories and kmark_kprobe='s events (fs_initcall). */
fs_initcall_sync(kmark_flight_init);

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kmark internals, shared by kmark.c (markers and probes), kmark_record.c
 * (the recorder and the ring buffer), kmark_output.c (one event -> one line
 * of text) and kmark_fs.c (the control files).
 *
 * Data flows one way: site -> probe -> ring buffer -> output -> file. Only
 * the control files reach back into the core, through the functions below.
 */
#ifndef _KMARK_INTERNAL_H
#define _KMARK_INTERNAL_H

#include <linux/fs.h>
#include <linux/hash.h>
#include <linux/hrtimer.h>
#include <linux/irq_work.h>
#include <linux/jump_label.h>
#include <linux/list.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/rcupdate.h>
#include <linux/ring_buffer.h>
#include <linux/sched.h>
#include <linux/seq_buf.h>
#include <linux/string.h>
#include <linux/unaligned.h>
#include <trace/kmark.h>

#include <asm/local.h>

#define KMARK_MAX_FIELDS	16
#define KMARK_NAME_MAX		64
#define KMARK_CONV_MAX		16
#define KMARK_STR_MAX		256
#define KMARK_FILTER_TEXT_MAX	(PAGE_SIZE - 1)	/* a filter as written */

/* What a field of a record holds. */
enum kmark_field_kind {
	KMARK_FIELD_INT,	/* an integer of @size bytes */
	KMARK_FIELD_PTR,	/* a pointer value, never dereferenced */
	KMARK_FIELD_STR,	/* ftrace's __data_loc: u32, (len << 16) | offset */
	KMARK_FIELD_CHARS,	/* a char array of @size bytes (common_comm) */
};

/* What a field's text conversion takes from snprintf's argument list. */
enum kmark_conv_arg {
	KMARK_CONV_INT,		/* %d %u %x %c, with h and hh: an int */
	KMARK_CONV_LONG,	/* l, z, t: a long */
	KMARK_CONV_LLONG,	/* ll: a long long */
	KMARK_CONV_PTR,		/* %p and its extensions */
	KMARK_CONV_STR,		/* %s */
	KMARK_CONV_TASK_STATE,	/* kmark_task_state() for a %p: ftrace's encoding */
};

/**
 * struct kmark_field - one field of an event's records
 * @name:	field name: the word before '=' in "name=%d", else "argN"
 * @type:	C type as the format file shows it ("int", "__data_loc char[]")
 * @offset:	offset from the start of the record (the common header
 *		included), as the format file shows it
 * @size:	bytes it takes there (a string: its 4-byte __data_loc word)
 * @kind:	enum kmark_field_kind
 * @is_signed:	integers: sign-extend when reading
 * @conv_arg:	enum kmark_conv_arg: what @conv takes
 * @conv:	the conversion alone, e.g. "%-5lu", given to snprintf
 * @prefix:	literal text before the conversion, "%%" already unescaped
 *
 * One table of these per event is what the recorder writes, the text
 * output renders, the format file prints and filters read.
 */
struct kmark_field {
	char name[KMARK_NAME_MAX];
	const char *type;
	u16 offset;
	u8 size;
	u8 kind;
	bool is_signed;
	u8 conv_arg;
	char conv[KMARK_CONV_MAX];
	const char *prefix;
};

/**
 * struct kmark_layout - an event's record layout and text format
 * @nr_fields:	number of fields (conversions of the format)
 * @size:	size of a record's fixed part, common header included; strings
 *		follow it
 * @nr_str:	number of string fields
 * @str:	their indexes in @fields
 * @suffix:	literal text after the last conversion
 * @fields:	the fields, in the order of the text format
 *
 * A marker's layout is its format parsed once, then bound to its sites'
 * argument table (kmark_layout_bind()): the fixed part of a record is the
 * site's packed argument block, verbatim, after the common header. This is
 * what makes recording cheap (one copy, no format walk, unlike
 * vbin_printf) and rendering exact (snprintf on the field's own
 * conversion).
 */
struct kmark_layout {
	unsigned int nr_fields;
	unsigned int size;
	unsigned int nr_str;
	u8 str[KMARK_MAX_FIELDS];
	const char *suffix;
	struct kmark_field fields[];
};

/*
 * kmark's directory in tracefs and (when the kernel has debugfs) in
 * debugfs: same files, same code. d[KMARK_DEBUGFS] is NULL without
 * debugfs (CONFIG_DEBUG_FS=n or debugfs=off), d[KMARK_TRACEFS] without
 * tracefs (lockdown=confidentiality refuses it); a directory exists when
 * it was made in at least one of them (kmark_dir_made()).
 */
enum { KMARK_DEBUGFS, KMARK_TRACEFS, KMARK_NR_FS };

struct kmark_dir {
	struct dentry *d[KMARK_NR_FS];
};

static inline bool kmark_dir_made(const struct kmark_dir *dir)
{
	return dir->d[KMARK_DEBUGFS] || dir->d[KMARK_TRACEFS];
}

#define KMARK_INSTANCE_NAME_MAX	64	/* with the NUL */

struct kmark_instance;
struct kmark_event_file;
struct kmark_flight;

struct kmark_probe {
	kmark_probe_fn func;
	void *data;
};

struct kmark_probe_array {
	struct rcu_head rcu;
	unsigned int nr;
	struct kmark_probe probes[];
};

struct kmark_marker;
struct kmark_filter;
struct seq_file;
struct dentry;

/**
 * struct kmark_event_ops - what makes a dynamic event (kprobe, synthetic)
 * @enable:	start firing (the first event file attached; kmark_mutex
 *		held); NULL: it fires through its probes (kmark_marker_fire())
 * @disable:	stop firing (the last one detached; kmark_mutex held)
 * @show:	the rest of its available_markers line, after the name
 */
struct kmark_event_ops {
	int (*enable)(struct kmark_marker *m);
	void (*disable)(struct kmark_marker *m);
	void (*show)(struct seq_file *s, struct kmark_marker *m);
};

/**
 * struct kmark_marker - one event type: all sites of a marker, or one
 *			 kprobe event, or trace_marker's event
 * @list:	in kmark_markers, sorted by system then name; the markers of
 *		a module that went are on kmark_module.c's kept list
 * @system:	its system ("sched", a module's name, a kprobe's group)
 * @name:	its name in that system, and in trace lines
 * @format:	printf-style format
 * @id:		non-zero id stored in each record (kmark_marker_by_id())
 * @sites:	static marker sites (empty for dynamic events)
 * @nr_sites:	number of @sites
 * @layout:	@format parsed
 * @probes:	attached probes; readers use RCU-sched, writers kmark_mutex
 * @files:	its event file in each instance (struct kmark_event_file,
 *		mlist); changed under kmark_mutex, walked under RCU by the
 *		kprobe handlers
 * @nr_attached: event files that attached to it (dynamic events fire
 *		while there is one)
 * @ops:	NULL for static markers; else how to enable the dynamic event
 * @module:	the module whose kmark() sites brought it, or NULL (vmlinux,
 *		and dynamic events); its name, format and this are kmark's
 *		copies, kept after the module is gone (records still render)
 * @print:	renders its fields itself (kernel_stack), or NULL
 * @print_format: prints its format file's fields itself, or NULL
 * @gone:	its module went: out of the namespace, kept for its records
 * @always_on:	records whenever tracing is on (trace_marker's event): not in
 *		set_event, no enable file
 * @pid_field:	1 + the field that the pid filters also look at (next_pid
 *		of sched_switch, pid of sched_wakeup), or 0
 * @pid_field_only: that field alone decides (sched_wakeup: the woken task)
 *
 * Everything but @probes and @files' RCU readers is written under
 * kmark_mutex. @system, @name, @format, @id and @layout do not change while
 * the marker exists, so readers that hold an event file read them without
 * the mutex. A marker is what a file, a filter or a probe refers to: never
 * found again by its name once it left the namespace.
 */
struct kmark_marker {
	struct list_head list;
	const char *system;
	const char *name;
	const char *format;
	u16 id;
	struct kmark_site **sites;
	unsigned int nr_sites;
	struct kmark_layout *layout;
	struct kmark_probe_array __rcu *probes;
	struct list_head files;
	unsigned int nr_attached;
	const struct kmark_event_ops *ops;
	const char *module;
	void (*print)(struct seq_buf *s, const struct kmark_marker *m,
		      const void *rec, unsigned int len);
	void (*print_format)(struct seq_buf *s, const struct kmark_marker *m);
	bool gone;
	bool always_on;
	bool no_triggers;	/* no filter, trigger, hist files (kernel_stack) */
	bool was_enabled;	/* attached once: records may be in a buffer */
	u8 pid_field;
	bool pid_field_only;
};

/*
 * An event file: an event in one instance (ftrace's trace_event_file).
 * What set_event, events/SYS/NAME/{enable,filter,trigger} and the triggers
 * act on; the recorder's probe data. Its flags follow ftrace's
 * __ftrace_event_enable_disable():
 *
 *   ENABLED	    the recorder is attached to the marker (user-enabled, or
 *		    in soft mode for triggers)
 *   SOFT_MODE	    attached for triggers (enable_event:, or triggers of its
 *		    own); sm_ref counts them
 *   SOFT_DISABLED  attached but not recording (the user did not enable it,
 *		    or a disable_event trigger fired)
 *   TRIGGER_MODE   it has triggers; tm_ref counts them
 *   STACK	    its instance's options/stacktrace: a kernel stack after
 *		    each record
 *   FREED	    its event or instance is gone; its files refuse service
 *
 * The recorder records when ENABLED and not SOFT_DISABLED; it runs the
 * triggers first when TRIGGER_MODE (whether or not it records).
 */
enum {
	KMARK_EF_ENABLED_BIT,
	KMARK_EF_SOFT_MODE_BIT,
	KMARK_EF_SOFT_DISABLED_BIT,
	KMARK_EF_TRIGGER_MODE_BIT,
	KMARK_EF_STACK_BIT,
	KMARK_EF_FREED_BIT,
};

#define KMARK_EF_ENABLED	BIT(KMARK_EF_ENABLED_BIT)
#define KMARK_EF_SOFT_MODE	BIT(KMARK_EF_SOFT_MODE_BIT)
#define KMARK_EF_SOFT_DISABLED	BIT(KMARK_EF_SOFT_DISABLED_BIT)
#define KMARK_EF_TRIGGER_MODE	BIT(KMARK_EF_TRIGGER_MODE_BIT)
#define KMARK_EF_STACK		BIT(KMARK_EF_STACK_BIT)
#define KMARK_EF_FREED		BIT(KMARK_EF_FREED_BIT)
/* What sends a hit down the recorder's slow path (one test on the fast one). */
#define KMARK_EF_SLOW		(KMARK_EF_SOFT_DISABLED | KMARK_EF_TRIGGER_MODE | \
				 KMARK_EF_STACK)

struct kmark_subsys;

/* The files of events/SYS/NAME/, in the order of kmark_event_file.dents. */
enum {
	KMARK_EVF_ENABLE, KMARK_EVF_FILTER, KMARK_EVF_FORMAT, KMARK_EVF_ID,
	KMARK_EVF_TRIGGER, KMARK_EVF_HIST, KMARK_NR_EVF,
};

/**
 * struct kmark_event_file - an event in an instance
 * @list:	in its instance's @files (kmark_mutex)
 * @mlist:	in its marker's @files (kmark_mutex; RCU readers)
 * @m:		the event
 * @inst:	the instance
 * @flags:	KMARK_EF_* (set under kmark_mutex, read anywhere)
 * @sm_ref:	soft-mode references (kmark_mutex)
 * @tm_ref:	trigger references (kmark_mutex)
 * @filter:	its filter or NULL; RCU, set under kmark_mutex
 * @triggers:	its triggers (struct kmark_trigger): RCU list, changed under
 *		kmark_mutex
 * @sys:	its events/SYS/ directory record
 * @dir:	its events/SYS/NAME/ directory
 * @dents:	the files in it, whose i_private points here until it goes
 * @ref:	open files and kmark's own holds; freed at 0 (after RCU)
 * @on_by_write: scratch of an enable write that may be undone (kmark_mutex)
 * @nested:	hits whose triggers did not run: nested too deep (a trace()
 *		action firing an event whose triggers fire it again)
 * @rcu:	for freeing
 */
struct kmark_event_file {
	struct list_head list;
	struct list_head mlist;
	struct kmark_marker *m;
	struct kmark_instance *inst;
	unsigned long flags;
	int sm_ref;
	int tm_ref;
	struct kmark_filter __rcu *filter;
	struct list_head triggers;
	struct kmark_subsys *sys;
	struct kmark_dir dir;
	struct dentry *dents[KMARK_NR_EVF][KMARK_NR_FS];
	refcount_t ref;
	bool on_by_write;
	atomic_long_t nested;
	struct rcu_head rcu;
};

/**
 * struct kmark_entry - the common head of every record in the ring buffer
 * @type:	event id (common_type)
 * @flags:	TRACE_FLAG_* bits, as ftrace stores them (common_flags)
 * @preempt_count: preemption depth (low nibble), migrate-disable (high)
 * @pid:	current's pid (common_pid)
 * @comm_id:	current's comm as an id of kmark's table of task names
 *		(common_comm_id; 0: none could be given), so that every line
 *		names its task as it was called then, through overwrite,
 *		exit and exec, in 4 bytes where the name takes 16
 *
 * The first four are ftrace's struct trace_entry, so that readers of
 * ftrace's binary format (libtraceevent) decode kmark's records. The
 * event's fields follow, as its struct kmark_layout says.
 */
struct kmark_entry {
	u16 type;
	u8 flags;
	u8 preempt_count;
	s32 pid;
	u32 comm_id;
};

/*
 * The task names of the records (kmark_record.c): a record holds an id,
 * (generation << KMARK_COMM_SLOT_BITS) | slot, where the table's slot holds
 * the name, and the generation counts the names the slot has held. Written
 * lock-free from any context, NMI included.
 *
 * The table cannot be exhausted: a slot whose name was last given in an
 * earlier era may be taken over by a new name, the one given longest ago
 * in the name's window (KMARK_COMM_PROBES slots from its hash); the slot's
 * generation then advances, so an id renders its name while its slot still
 * holds it, and "<...>" once a newer name took the slot, never another
 * task's name. That holds until one slot has been taken over
 * 2^KMARK_COMM_GEN_BITS - 1 times (its generations wrap): some four
 * billion new names in all, spread over the slots by the hash.
 *
 * The era only orders the names by when they were last given: it advances
 * every KMARK_COMM_ERA_NAMES new names, and when the window of a name is
 * all taken by names of the current era, so that "given longest ago" means
 * something and the last names given keep their slots (with eras that only
 * ended at a full window, one era held nearly the whole table, and the
 * names of its end were taken over as soon as the next began:
 * 99-comm-table-full.sh, KUnit kmark_test_comm_recent). It wraps after
 * 2^KMARK_COMM_ERA_BITS - 1 eras, which at worst makes an old name look
 * recent for a while: no id changes meaning (an id carried its era before,
 * and a slot kept in use across the wrap named a record of another name:
 * KUnit kmark_test_comm_generation). A slot last given in the current era
 * is not taken over until the era changes, which is what lets the
 * recorder trust a per-CPU hint. saved_comms counts the names taken over
 * ("recycled").
 */
/*
 * saved_cmdlines' lines (kmark_record.c): one per pid below
 * KMARK_PID_NAMES, and KMARK_CMDLINES shared by larger pids; their sum is
 * saved_cmdlines_size.
 */
#define KMARK_PID_NAMES		PID_MAX_DEFAULT
#define KMARK_CMDLINES		1024

#define KMARK_COMM_SLOT_BITS	12
#define KMARK_COMM_IDS		(1U << KMARK_COMM_SLOT_BITS)	/* slots */
#define KMARK_COMM_PROBES	64	/* slots a name may take */
#define KMARK_COMM_GEN_BITS	20	/* generations 1 .. 2^20 - 1, then 1 */
#define KMARK_COMM_GEN_MASK	((1U << KMARK_COMM_GEN_BITS) - 1)
#define KMARK_COMM_ERA_BITS	10	/* eras 1 .. 2^10 - 1, then 1 again */
#define KMARK_COMM_ERA_NAMES	(KMARK_COMM_IDS / 8)	/* new names an era */
#define KMARK_COMM_ERA_MASK	((1U << KMARK_COMM_ERA_BITS) - 1)

enum { KMARK_COMM_FREE, KMARK_COMM_BUSY, KMARK_COMM_READY };

/* A slot's tag: state (2 bits), generation (20), era last given (10). */
#define KMARK_COMM_TAG(st, gen, last)				\
	((u32)(st) | (u32)(gen) << 2 | (u32)(last) << 22)
#define KMARK_COMM_TAG_STATE(tag)	((tag) & 3)
#define KMARK_COMM_TAG_GEN(tag)		(((tag) >> 2) & KMARK_COMM_GEN_MASK)
#define KMARK_COMM_TAG_LAST(tag)	((tag) >> 22)

/* The generation a slot of tag @tag gets with its next name (never 0). */
static inline u32 kmark_comm_next_gen(u32 tag)
{
	u32 gen = (KMARK_COMM_TAG_GEN(tag) + 1) & KMARK_COMM_GEN_MASK;

	return gen ?: 1;
}

struct kmark_comm_slot {
	unsigned long name[TASK_COMM_LEN / sizeof(unsigned long)];
	u32 tag;
};

/**
 * struct kmark_comm_table - the task names of the records
 * @era:	the current era, 1 to KMARK_COMM_ERA_MASK (see above)
 * @seed:	the hash's seed, random: nobody can aim names at one window
 * @missed:	lookups that found no slot even in a new era (records with
 *		comm_id 0, shown as "<...>")
 * @recycled:	names of earlier eras taken over by new ones
 * @fresh:	new names given in this era (about: it is reset by whoever
 *		advances the era, racing with the others)
 * @slots:	KMARK_COMM_IDS of them
 */
struct kmark_comm_table {
	u32 era;
	u32 seed;
	atomic_long_t missed;
	atomic_long_t recycled;
	atomic_t fresh;
	struct kmark_comm_slot slots[KMARK_COMM_IDS];
};

/* Allocated (under kmark_mutex) before the first buffer; never freed. */
extern struct kmark_comm_table *kmark_comms;

/*
 * Per CPU, the ids given last, one per bucket of tasks (by task_struct
 * address), each with the pid it was given to: guesses for pid 0 and the
 * pids saved_cmdlines has no line of their own for, see
 * kmark_comm_of_current(). Written by this CPU only (any context).
 */
#define KMARK_COMM_HINT_BITS	4
struct kmark_comm_hint {
	u32 id;
	pid_t pid;
};
DECLARE_PER_CPU(struct kmark_comm_hint [1 << KMARK_COMM_HINT_BITS],
		kmark_comm_hint);

static __always_inline unsigned int kmark_comm_hint_idx(void)
{
	return hash_ptr(current, KMARK_COMM_HINT_BITS);
}

int kmark_comms_ensure(void);
void kmark_comm_table_init(struct kmark_comm_table *t, u32 seed);
u32 kmark_comm_table_id(struct kmark_comm_table *t, const char *comm);
bool kmark_comm_table_name(const struct kmark_comm_table *t, u32 id,
			   char *buf);
u32 kmark_comm_id_slow(const char *comm);
bool kmark_comm_name(u32 id, char *buf);

/* Room for a name of @n bytes as kmark_escape_name() prints it. */
#define KMARK_ESC_LEN(n)	(4 * (n) + 1)
const char *kmark_escape_name(char *dst, const char *name, size_t n);

/* Whether two names are the same, word by word (both zero-padded). */
static __always_inline bool kmark_comm_eq(const unsigned long *a,
					  const char *b)
{
	unsigned int i;

	for (i = 0; i < TASK_COMM_LEN / sizeof(unsigned long); i++)
		if (a[i] != get_unaligned((const unsigned long *)b + i))
			return false;
	return true;
}

/*
 * saved_cmdlines' name id of each pid below KMARK_PID_NAMES (kmark_record.c;
 * allocated before kmark_comms is published, never freed).
 */
extern u32 *kmark_pid_names;

/*
 * current's name as an id. The guess: for a pid below KMARK_PID_NAMES
 * (but 0, which every CPU's idle task shares), the id saved_cmdlines has
 * for it; else the id this CPU gave last to current's pid in current's
 * bucket. The guess is taken if its slot still has its generation, was
 * last given in the current era and holds current's name; else a lookup
 * in the table, which also notes the pid's name for saved_cmdlines
 * (kmark_saved_cmdline()): so every pid that records has its latest name
 * there, whichever CPU it records on. A guess is only a guess: another
 * CPU, or a context that nests on this one, may replace it at any time
 * (the hint's pid and id are checked each on its own, and any pair that
 * passes names current's pid and name), and a slot given in the current
 * era does not change until the era does.
 */
static __always_inline u32 kmark_comm_of_current(void)
{
	const struct kmark_comm_table *t = READ_ONCE(kmark_comms);
	const u32 *names = READ_ONCE(kmark_pid_names);
	const struct kmark_comm_slot *s;
	struct kmark_comm_hint *h;
	u32 pid = current->pid, id;

	if (unlikely(!t))
		return 0;	/* no buffer yet: nothing will be recorded */
	if (likely(names && pid - 1 < KMARK_PID_NAMES - 1)) {
		id = READ_ONCE(names[pid]);
	} else {
		h = this_cpu_ptr(&kmark_comm_hint[kmark_comm_hint_idx()]);
		id = READ_ONCE(h->id);
		if (READ_ONCE(h->pid) != pid)
			return kmark_comm_id_slow(current->comm);
	}
	s = &t->slots[id & (KMARK_COMM_IDS - 1)];
	/* Pairs with the release that publishes the slot's name. */
	if (likely(smp_load_acquire(&s->tag) ==
		   KMARK_COMM_TAG(KMARK_COMM_READY, id >> KMARK_COMM_SLOT_BITS,
				  READ_ONCE(t->era))) &&
	    kmark_comm_eq(s->name, current->comm))
		return id;
	return kmark_comm_id_slow(current->comm);
}

#define KMARK_HDR_SIZE		sizeof(struct kmark_entry)

/*
 * ring_buffer_event_data() without the call. The ring buffer hands out a
 * time extend (or absolute stamp) with the event after it when the delta
 * to the previous event did not fit (RB_LEN_TIME_EXTEND, 8 bytes, in
 * ring_buffer.c); the data event's length is in type_len, or in array[0]
 * when it is too long for that. KUnit checks it against
 * ring_buffer_event_data() (kmark_test_event_data).
 */
#define KMARK_RB_LEN_TIME_EXTEND	8
static __always_inline void *kmark_event_data(struct ring_buffer_event *event)
{
	if (unlikely(event->type_len >= RINGBUF_TYPE_TIME_EXTEND))
		event = (void *)event + KMARK_RB_LEN_TIME_EXTEND;
	return event->type_len ? (void *)event->array : (void *)&event->array[1];
}

/* ftrace's context flags (enum trace_flag_type in linux/trace_events.h). */
#define KMARK_FLAG_IRQS_OFF		0x01
#define KMARK_FLAG_NEED_RESCHED		0x04
#define KMARK_FLAG_HARDIRQ		0x08
#define KMARK_FLAG_SOFTIRQ		0x10
#define KMARK_FLAG_PREEMPT_RESCHED	0x20
#define KMARK_FLAG_NMI			0x40
#define KMARK_FLAG_BH_OFF		0x80

/* The common header's fields, for format files and filters. */
extern const struct kmark_field kmark_common_fields[];
extern const unsigned int kmark_nr_common_fields;

/* Section bounds of the kmark() sites (include/asm-generic/vmlinux.lds.h). */
extern struct kmark_site * const __start___kmark_sites[];
extern struct kmark_site * const __stop___kmark_sites[];

/* kmark.c: serialises every change to markers, probes and settings. */
extern struct mutex kmark_mutex;
extern struct list_head kmark_markers;

struct kmark_layout *kmark_parse_format(const char *fmt, const char **err,
					unsigned int *err_pos);
const char *kmark_layout_bind(struct kmark_layout *l,
			      const struct kmark_site *site);
void kmark_layout_finish(struct kmark_layout *l);
void kmark_free_layout(struct kmark_layout *layout);
int kmark_site_cmp(const void *a, const void *b);
struct kmark_marker *kmark_find_marker(const char *system, const char *name);
struct kmark_marker *kmark_find_marker_any(const char *name);
struct kmark_marker *kmark_marker_by_id(u16 id);
bool kmark_rcu_watching_kunit(void);
int kmark_dynamic_alloc_id(struct kmark_marker *m);
void kmark_dynamic_free_id(struct kmark_marker *m);
void kmark_dynamic_link(struct kmark_marker *m);
void kmark_dynamic_unlink(struct kmark_marker *m);
void kmark_boot_events_retry(void);
int __kmark_probe_register(struct kmark_marker *m, kmark_probe_fn probe,
			   void *data);
int __kmark_probe_unregister(struct kmark_marker *m, kmark_probe_fn probe,
			     void *data);
bool kmark_has_probe(struct kmark_marker *m, kmark_probe_fn probe, void *data);
/* Hits dropped where RCU does not watch (any instance; never freed). */
unsigned long kmark_unwatched_drops(int cpu);

#ifdef CONFIG_MODULES
/* kmark_module.c: a module's sites join or leave (the module notifier) */
void kmark_module_coming(struct module *mod);
void kmark_module_going(struct module *mod);
bool kmark_gone_has_probe(const char *name, kmark_probe_fn probe,
			  void *data, struct kmark_marker **mp);
unsigned int kmark_gone_count(const char *mod);
#else
static inline bool kmark_gone_has_probe(const char *name, kmark_probe_fn probe,
					void *data, struct kmark_marker **mp)
{
	return false;
}
#endif

/*
 * An instance: one recording session with its own buffer, tracing_on,
 * event files (set_event, enable, filters, triggers), pid filters, readers
 * and error_log (ftrace's struct trace_array). The top one is kmark's own
 * directory and always exists; the others are made with mkdir in
 * instances/ of the tracefs copy, or with "echo NAME > instances/new".
 */

struct kmark_cpu_stats;
struct kmark_stats_base;
struct kmark_pid_set;

/* options/: one bit each in kmark_instance.options */
enum {
	KMARK_OPT_EVENT_FORK,	/* children of listed pids are listed */
	KMARK_OPT_OVERWRITE,	/* a full buffer overwrites its oldest events */
	KMARK_OPT_STACKTRACE,	/* a kernel stack after each event */
	KMARK_NR_OPTS,
};

enum { KMARK_PIDS_TRACE, KMARK_PIDS_NOTRACE, KMARK_NR_PID_LISTS };

/**
 * struct kmark_instance - a recording session
 * @list:	in kmark_instance_list (kmark_mutex), the top one first
 * @live:	made and not being removed
 * @ref:	open files that hold it (and kmark's own holds): removal is
 *		refused while there are any; under kmark_mutex
 * @name:	its directory name under instances/ ("" for the top)
 * @buffer:	its ring buffer, allocated on first use, freed at removal
 * @snapshot:	its snapshot buffer (the snapshot file, snapshot triggers),
 *		swapped with @buffer under @snap_lock, or NULL
 * @snap_lock:	serialises swaps (a trigger's: any context, so a try)
 * @snap_held:	swaps give up while a setting is applied to both buffers
 *		(kmark_snapshot_hold()); under @snap_lock
 * @snap_cond:	the hist whose snapshot() action owns the snapshot (one an
 *		instance, as ftrace's cond_snapshot; the snapshot file then
 *		refuses writes), or NULL; under kmark_mutex
 * @buf_users:	open readers of its buffers (trace, snapshot, trace_pipe,
 *		trace_pipe_raw): the snapshot is not freed under them
 * @tracing_on:	record or not (read locklessly on the recording path)
 * @buffer_kb:	per-CPU buffer size in KiB
 * @subbuf_order: its sub-buffers are PAGE_SIZE << this (buffer_subbuf_size_kb)
 * @clock:	index of its trace_clock (kmark_fs.c's table)
 * @options:	KMARK_OPT_* bits
 * @cpumask:	tracing_cpumask: the CPUs whose events it records
 * @stats:	per-CPU written/dropped counters (see kmark_record.c)
 * @stats_base:	where they stood at the last clear
 * @unwatched_seen: [nr_cpu_ids] kmark_unwatched_drops() at the last clear
 * @readers:	open trace_pipe files (the batch is looked at only then)
 * @read_wq:	blocked trace_pipe readers
 * @read_delay_ms: settings of the batched wakeups
 * @buffer_percent: ditto
 * @batch:	KMARK_BATCH_* bits
 * @batch_timer: read_delay_ms after a batch's first event
 * @batch_work:	arms it from the recording path
 * @read_mutex:	serialises consumers of @buffer and @dropped_seen
 * @dropped_seen: [nr_cpu_ids] drops already reported to readers
 * @files:	its event files (struct kmark_event_file, list)
 * @systems:	its events/SYS/ directories (struct kmark_subsys)
 * @pids:	set_event_pid, set_event_notrace_pid: RCU, NULL when empty
 * @pid_overflow: children event-fork could not list (pid past the list)
 * @dir:	its directory (the top: kmark's)
 * @events:	its events/ directory
 * @err_mutex:	protects @errs and @nr_errs
 * @errs:	its error_log entries
 * @nr_errs:	how many
 * @flight:	the boot-mapped instance's state (kmark_flight.c), else NULL
 * @rcu:	freed after a grace period
 *
 * The recording path reaches an instance through an event file (a probe's
 * data) under RCU-sched: removal detaches every probe and waits for a
 * grace period before it frees anything. Everything else is set under
 * kmark_mutex.
 */
struct kmark_instance {
	struct list_head list;
	bool live;
	unsigned int ref;
	char name[KMARK_INSTANCE_NAME_MAX];
	struct trace_buffer *buffer;
	struct trace_buffer *snapshot;
	raw_spinlock_t snap_lock;
	bool snap_held;
	void *snap_cond;
	atomic_t buf_users;
	bool tracing_on;
	unsigned long buffer_kb;
	unsigned int subbuf_order;
	unsigned int clock;
	unsigned long options;
	cpumask_var_t cpumask;
	struct kmark_cpu_stats __percpu *stats;
	struct kmark_stats_base __percpu *stats_base;
	unsigned long *unwatched_seen;
	atomic_t readers;
	struct wait_queue_head read_wq;
	unsigned int read_delay_ms;
	unsigned int buffer_percent;
	unsigned long batch;
	struct hrtimer batch_timer;
	struct irq_work batch_work;
	struct mutex read_mutex;	/* consumers of @buffer, @dropped_seen */
	unsigned long *dropped_seen;
	struct list_head files;
	struct list_head systems;
	struct kmark_pid_set __rcu *pids[KMARK_NR_PID_LISTS];
	atomic_t pid_overflow;
	struct kmark_dir dir;
	struct kmark_dir events;
	struct mutex err_mutex;		/* @errs, @nr_errs */
	struct list_head errs;
	unsigned int nr_errs;
	struct kmark_flight *flight;
	struct rcu_head rcu;
};

extern struct kmark_instance kmark_top_instance;
#define kmark_top_inst	(&kmark_top_instance)
/*
 * The live instances, the top one first; changed under kmark_mutex and
 * kmark_ref_lock with the RCU list primitives, so that the flight recorder
 * walks it in any context (an instance is freed a grace period after it
 * left the list).
 */
extern struct list_head kmark_instance_list;

/* kmark_instance.c */
extern spinlock_t kmark_ref_lock;
void kmark_instances_init(void);
int kmark_top_inst_create_files(void);
int __kmark_inst_hold(struct kmark_instance *inst);
int kmark_inst_hold(struct kmark_instance *inst);
void kmark_inst_put(struct kmark_instance *inst);
struct kmark_instance *kmark_inst_by_name(const char *name);
int kmark_inst_make(const char *name, const char **err);

/* kmark_record.c: the buffers, the recorder probe and its counters. */
int kmark_instance_init(struct kmark_instance *inst);
void kmark_instance_fini(struct kmark_instance *inst);
int kmark_buffer_ensure(struct kmark_instance *inst);
/*
 * A mirror of ring_buffer.c's struct buffer_data_page: a sub-buffer's
 * header (events/header_page), then its events.
 */
struct kmark_rb_page {
	u64 time_stamp;
	local_t commit;
	unsigned char data[];
};

int kmark_buffer_resize(struct kmark_instance *inst, unsigned long kb);
void kmark_log_resize_err(struct kmark_instance *inst, int ret);
unsigned long kmark_buffer_cpu_size(struct kmark_instance *inst, int cpu);
int kmark_buffer_set_subbuf_order(struct kmark_instance *inst,
				  unsigned int order);
void kmark_buffer_clear(struct kmark_instance *inst, int only);
int kmark_buffer_resize_cpu(struct kmark_instance *inst, unsigned long kb,
			    int cpu);
#define KMARK_BUFFER_KB_MAX	(1UL << 20)	/* 1 GiB per CPU */
/* A boot-mapped instance's buffer is its reserved memory (kmark_flight.c). */
#define KMARK_ERR_BOOT_MAPPED_SIZE \
	"The boot-mapped instance's buffer is its reserve_mem= region: its size cannot change"
#define KMARK_ERR_BOOT_MAPPED_SNAPSHOT \
	"The boot-mapped instance has no snapshot: its buffer is its reserve_mem= region"
void kmark_comms_show_table(struct seq_file *m);
int kmark_cmdlines_show(struct seq_file *m, void *v);
void kmark_cmdlines_show_complete(struct seq_file *m);
void kmark_record_probe(void *data, struct kmark_marker *m, const void *args);
/* A record between reserve and commit: the buffer it is in, its event. */
struct kmark_rec {
	struct trace_buffer *buf;
	struct ring_buffer_event *event;
};

struct kmark_entry *kmark_reserve(struct kmark_instance *inst, u16 id,
				  size_t size, bool from_hit,
				  struct kmark_rec *rec);
void kmark_discard(struct kmark_instance *inst, struct kmark_rec *rec);
int kmark_record_text(struct kmark_event_file *file, const char *text,
		      unsigned int len);
void kmark_commit(struct kmark_instance *inst, struct kmark_rec *rec);
void kmark_fill_hdr(struct kmark_entry *e, u16 id, bool from_hit);
void kmark_options_apply(struct kmark_instance *inst);
void kmark_count_unwatched(void);
void kmark_set_comm_id(struct kmark_entry *e);

/**
 * kmark_put_loc - point a string field at the text after a record's fixed part
 * @e:		the record
 * @f:		the string field
 * @dst:	where its text is (after the fixed part and earlier strings)
 * @len:	its length without the NUL (at most KMARK_STR_MAX - 1)
 *
 * Writes ftrace's __data_loc word, (length with NUL << 16) | offset, into
 * the field's 4-byte slot.
 *
 * Return: where the next string goes.
 */
static __always_inline u8 *kmark_put_loc(struct kmark_entry *e,
					 const struct kmark_field *f, u8 *dst,
					 unsigned int len)
{
	u32 loc = ((len + 1) << 16) | (u32)(dst - (u8 *)e);

	put_unaligned(loc, (u32 *)((u8 *)e + f->offset));
	return dst + len + 1;
}

/* Store @str (@len bytes, no NUL) as string field @f at @dst. */
static __always_inline u8 *kmark_put_str(struct kmark_entry *e,
					 const struct kmark_field *f, u8 *dst,
					 const char *str, unsigned int len)
{
	memcpy(dst, str, len);
	dst[len] = '\0';
	return kmark_put_loc(e, f, dst, len);
}

/* A marker's strings, between measuring and copying them. */
struct kmark_strs {
	const char *str[KMARK_MAX_FIELDS];
	unsigned int len[KMARK_MAX_FIELDS];
};

/*
 * kmark_record_size - bytes a marker's record takes, strings measured once
 * @l:		the marker's layout
 * @args:	the site's argument block
 * @strs:	out: each string and its length (for kmark_record_fill())
 */
static __always_inline size_t kmark_record_size(const struct kmark_layout *l,
						const void *args,
						struct kmark_strs *strs)
{
	size_t size = l->size;
	unsigned int i;

	for (i = 0; i < l->nr_str; i++) {
		const struct kmark_field *f = &l->fields[l->str[i]];
		const char *s;

		s = get_unaligned((const char * const *)((const u8 *)args +
					f->offset - KMARK_HDR_SIZE));
		strs->str[i] = s ?: "(null)";
		strs->len[i] = strnlen(strs->str[i], KMARK_STR_MAX - 1);
		size += strs->len[i] + 1;
	}
	return size;
}

/*
 * kmark_record_fill - a marker's record after its header: one copy of the
 * argument block, then each string's __data_loc word and text
 */
static __always_inline void kmark_record_fill(struct kmark_entry *e,
					      const struct kmark_layout *l,
					      const void *args,
					      const struct kmark_strs *strs)
{
	u8 *dst = (u8 *)e + l->size;
	unsigned int i;

	memcpy(e + 1, args, l->size - KMARK_HDR_SIZE);
	for (i = 0; i < l->nr_str; i++) {
		const struct kmark_field *f = &l->fields[l->str[i]];

		/* A pointer's slot: no address bits may stay in the record. */
		put_unaligned(0UL, (unsigned long *)((u8 *)e + f->offset));
		dst = kmark_put_str(e, f, dst, strs->str[i], strs->len[i]);
	}
}

unsigned long kmark_written(struct kmark_instance *inst, int cpu);
unsigned long kmark_dropped(struct kmark_instance *inst, int cpu);

/* kmark_record.c: batched wakeups of trace_pipe readers. */
#define KMARK_BATCH_STARTED	0	/* an event since the last drain */
#define KMARK_BATCH_READY	1	/* the delay passed, or a watermark */
void kmark_batch_event(struct kmark_instance *inst);
void kmark_batch_reset(struct kmark_instance *inst);
void kmark_batch_start(struct kmark_instance *inst);
bool kmark_full_hit(size_t dirty, size_t nr_pages, unsigned int pct);

/* kmark_output.c */
u64 kmark_field_value(const struct kmark_field *f, const void *rec);
const char *kmark_field_str(const struct kmark_field *f, const void *rec,
			    unsigned int len);
struct kmark_ghosts;
void kmark_print_event(struct seq_buf *s, int cpu, u64 ts,
		       const struct kmark_entry *e, unsigned int len,
		       const struct kmark_ghosts *prev);
void kmark_print_fields(struct seq_buf *s, const struct kmark_layout *layout,
			const void *rec, unsigned int len);
bool kmark_print_record(struct seq_buf *s, int cpu, u64 ts,
			const struct kmark_entry *e, unsigned int len,
			unsigned long lost, unsigned long dropped,
			const struct kmark_ghosts *prev);
void kmark_print_header(struct seq_buf *s, unsigned long entries,
			unsigned long written);
void kmark_print_format(struct seq_buf *s, const struct kmark_marker *m);

/* Writes are taken whole, at most a page: longer ones fail with E2BIG. */
#define KMARK_ERR_TOO_LONG	"Write too long: at most 4095 bytes at once"

/* kmark_fs.c: both trees, error_log, the instance-wide settings. */
extern struct kmark_dir kmark_top;
int kmark_fs_dir(const char *name, const struct kmark_dir *parent,
		 struct kmark_dir *dir);
int kmark_fs_file(const char *name, umode_t mode,
		  const struct kmark_dir *parent, void *data,
		  const struct file_operations *fops);
int kmark_fs_file_d(const char *name, umode_t mode,
		    const struct kmark_dir *parent, void *data,
		    const struct file_operations *fops,
		    struct dentry **dents);
int kmark_fs_cpu_file(const char *name, umode_t mode,
		      const struct kmark_dir *parent, void *data, int cpu,
		      const struct file_operations *fops);
int kmark_file_cpu(const struct inode *inode);
void kmark_fs_remove(struct kmark_dir *dir);
void kmark_fs_forget(struct dentry **dents, unsigned int n);
void kmark_log_err(struct kmark_instance *inst, const char *cmd,
		   unsigned int pos, const char *msg);
void kmark_log_err_loc(struct kmark_instance *inst, const char *loc,
		       const char *cmd, unsigned int pos, const char *msg);
void kmark_err_log_clear(struct kmark_instance *inst);
int kmark_open_check(void);
int kmark_simple_open(struct inode *inode, struct file *file);

/**
 * struct kmark_cmd_file - one open of a command file (kprobe_events,
 *			   synthetic_events, dynamic_events)
 * @truncate_pending:	opened with O_TRUNC, nothing applied yet: the first
 *			write that succeeds replaces every definition, and
 *			release removes them all if nothing was written
 * @failed:		a write failed: release removes nothing (a failed
 *			write changes nothing)
 */
struct kmark_cmd_file {
	bool truncate_pending;
	bool failed;
};

/**
 * struct kmark_cmd_ops - what makes a command file its own
 * @seq:	its listing
 * @busy:	under kmark_mutex: why "> FILE" fails now (ftrace's habit: at
 *		open), an error_log message, or NULL
 * @loc:	error_log's location for it
 * @what:	error_log's command for it ("> kprobe_events")
 * @clear:	"> FILE" closed with nothing written: remove every definition
 *		(it takes kmark_mutex, and says in error_log why not)
 */
struct kmark_cmd_ops {
	const struct seq_operations *seq;
	const char *(*busy)(void);
	const char *loc;
	const char *what;
	void (*clear)(void);
};

struct kmark_cmd_file *kmark_cmd_file(struct file *file);
int kmark_cmd_open(struct file *file, const struct kmark_cmd_ops *ops);
int kmark_cmd_release(struct inode *inode, struct file *file,
		      const struct kmark_cmd_ops *ops);
char *kmark_get_cmd(struct kmark_instance *inst, const char __user *ubuf,
		    size_t cnt);
struct kmark_instance *kmark_inst_get(struct inode *inode);
int kmark_inst_open(struct inode *inode, struct file *file);
int kmark_inst_release(struct inode *inode, struct file *file);
int kmark_inst_seq_release(struct inode *inode, struct file *file);
ssize_t kmark_discard_write(struct file *file, const char __user *ubuf,
			    size_t cnt, loff_t *ppos);
int kmark_fs_create_inst_settings(struct kmark_instance *inst);
int kmark_set_clock(struct kmark_instance *inst, unsigned int clock);
void kmark_set_buffer_clock(struct trace_buffer *b, unsigned int clock);
int kmark_clock_lookup(const char *name);
void kmark_cpumask_apply(struct kmark_instance *inst,
			 const struct cpumask *old);
void kmark_saved_cmdline(pid_t pid, u32 comm_id);
u32 kmark_saved_cmdline_id(pid_t pid);

/* kmark_read.c: trace, trace_pipe, trace_pipe_raw, per_cpu/ */
int kmark_read_create_files(struct kmark_instance *inst);

/* kmark_events.c: event files, events/, set_event, available_events */
struct kmark_event_file *kmark_event_file_get(struct inode *inode);
void kmark_event_file_put(struct kmark_event_file *file);
void kmark_event_file_release(struct kmark_event_file *file);
int kmark_event_enable(struct kmark_event_file *file, bool enable,
		       bool soft);
int kmark_event_files_add(struct kmark_marker *m);
void kmark_event_files_remove(struct kmark_marker *m);
int kmark_events_create_files(struct kmark_instance *inst);
int kmark_events_create_inst_files(struct kmark_instance *inst);
void kmark_events_remove_inst(struct kmark_instance *inst);
struct kmark_event_file *kmark_find_file(struct kmark_instance *inst,
					 const char *system,
					 const char *name);
bool kmark_event_recording(const struct kmark_marker *m,
			   const struct kmark_instance *inst);
bool kmark_marker_recording(const struct kmark_marker *m);
void kmark_recording_off(struct kmark_marker *m);
void *kmark_markers_start(struct seq_file *m, loff_t *pos);
void *kmark_markers_next(struct seq_file *m, void *v, loff_t *pos);
void kmark_markers_stop(struct seq_file *m, void *v);
void kmark_events_create_top_files(void);
extern const struct file_operations kmark_header_page_fops;
extern const struct file_operations kmark_header_event_fops;
void kmark_event_filter_set(struct kmark_event_file *file,
			    struct kmark_filter *flt);

/* set_event: a plain name that names nothing (it may be a module's) */
#define KMARK_ERR_UNKNOWN_PLAIN \
	"Unknown event (one of a module not loaded yet: MODULE:NAME)"
/* "MODULE:NAME" tokens of set_event whose module is not loaded */
#define KMARK_PENDING_MAX	8	/* such tokens in one write */
#define KMARK_TOKEN_MAX		(KMARK_NAME_MAX + KMARK_NAME_MAX + 2)

struct kmark_pending_req {
	char tok[KMARK_PENDING_MAX][KMARK_TOKEN_MAX];
	bool neg[KMARK_PENDING_MAX];
	unsigned int nr;
};

int kmark_set_event_parse(const char *buf, const char * const *systems,
			  const char * const *names, unsigned int nr,
			  bool *state, bool *named,
			  struct kmark_pending_req *pending,
			  const char **err, unsigned int *err_pos);
int kmark_set_event_apply(struct kmark_instance *inst, const char *buf,
			  bool truncate, const char **err,
			  unsigned int *err_pos);
void kmark_pending_apply(const char *mod);
void kmark_pending_drop(struct kmark_instance *inst);

/* kmark_pid.c: set_event_pid, set_event_notrace_pid, options/event-fork */
DECLARE_STATIC_KEY_FALSE(kmark_pid_filtering);
bool __kmark_pid_filtered_out(const struct kmark_instance *inst,
			      const struct kmark_marker *m, const void *args);
int kmark_pid_create_files(struct kmark_instance *inst);
void kmark_pid_inst_fini(struct kmark_instance *inst);
int kmark_pid_event_fork(struct kmark_instance *inst, bool on);
void kmark_pid_marker_added(struct kmark_marker *m);
unsigned int kmark_pid_kunit_churn_errors(unsigned int cycles);

/* Is @m's hit (@args: a marker's argument block, or NULL) unwanted? */
static __always_inline bool
kmark_pid_filtered_out(const struct kmark_instance *inst,
		       const struct kmark_marker *m, const void *args)
{
	return static_branch_unlikely(&kmark_pid_filtering) &&
	       __kmark_pid_filtered_out(inst, m, args);
}

/* kmark_filter.c: events/SYS/NAME/filter */
struct kmark_filter *kmark_filter_compile(const struct kmark_layout *l,
					  const char *text, const char **err,
					  unsigned int *err_pos);
bool kmark_filter_match(const struct kmark_filter *flt,
			const struct kmark_entry *hdr,
			const void *rec, unsigned int len);
bool kmark_filter_needs_hdr(const struct kmark_filter *flt);
bool kmark_filter_needs_comm_id(const struct kmark_filter *flt);
const char *kmark_filter_text(const struct kmark_filter *flt);
void kmark_filter_free(struct kmark_filter *flt);
void kmark_filter_free_rcu(struct kmark_filter *flt);

/* kmark_trigger.c: events/SYS/NAME/trigger */
struct kmark_trigger;

/**
 * struct kmark_trigger_err - why a trigger command failed, for error_log
 * @line:	the command as written (read-only): carets are offsets in it
 * @msg:	what is wrong (a static string)
 * @pos:	the caret, an offset in @shown
 * @shown:	what error_log shows as the command: @line, or its filter
 * @loc:	where, as ftrace's error_log says it: "kmark", "hist" (shown
 *		as "hist:SYS:EVENT") or "event filter parse error"
 * @pre_msg:	an entry before @msg's, where ftrace logs two (or NULL)
 * @pre_pos:	its caret, in @line
 */
struct kmark_trigger_err {
	const char *line;
	const char *msg;
	unsigned int pos;
	const char *shown;
	const char *loc;
	const char *pre_msg;
	unsigned int pre_pos;
};

/**
 * struct kmark_trigger_cmd - a kind of trigger (ftrace's event_command)
 * @name:	what the trigger file takes ("traceoff")
 * @parse:	its ":PARAM" part (NULL: none but the count); it leaves what
 *		follows in @rest for the count; says why in @err on failure
 * @reg:	set up what it needs (kmark_mutex held); may say why in @err
 * @unreg:	undo @reg
 * @same:	whether two triggers of this kind are the same one (NULL: any
 *		two are)
 * @fire:	it fired (recording path, any context): whether it did
 *		something (counts are spent only then)
 * @print:	what the file shows after the name ("enable_event:sys:name")
 * @show:	the whole line, for kinds that print their own (hist)
 * @free:	free what @parse allocated
 * @update:	a trigger the same as one there was written: act on the one
 *		there (hist's pause, continue, clear); -EEXIST if it does not
 * @exists:	error_log's message when it is there already (NULL: kmark's)
 * @busy:	why the trigger cannot be removed now, or NULL
 * @going:	its event is going (module unload, instance removal), which
 *		no @busy can refuse: what depends on it goes first
 * @post:	fires after the event's record is committed
 * @after:	for a trigger with @after set: runs after the commit, when
 *		@fire ran for the hit (hist's snapshot() action)
 * @own_count:	@parse takes the whole parameter (no ":COUNT")
 * @remove_filter: '!' must name the filter too (hist's, as ftrace's)
 */
struct kmark_trigger_cmd {
	const char *name;
	int (*parse)(struct kmark_trigger *t, char *param,
		     struct kmark_trigger_err *err);
	int (*reg)(struct kmark_trigger *t, struct kmark_trigger_err *err);
	void (*unreg)(struct kmark_trigger *t);
	bool (*same)(const struct kmark_trigger *a,
		     const struct kmark_trigger *b);
	bool (*fire)(struct kmark_trigger *t, const struct kmark_entry *hdr,
		     const void *rec, unsigned int len);
	void (*print)(struct seq_file *m, const struct kmark_trigger *t);
	void (*show)(struct seq_file *m, const struct kmark_trigger *t);
	void (*free)(struct kmark_trigger *t);
	int (*update)(struct kmark_trigger *old, struct kmark_trigger *new);
	const char *exists;
	const char *(*busy)(const struct kmark_trigger *t);
	void (*going)(struct kmark_trigger *t);
	void (*after)(struct kmark_trigger *t);
	bool post;
	bool own_count;
	bool remove_filter;
};

/**
 * struct kmark_trigger - a trigger on an event file (ftrace's
 *			  event_trigger_data)
 * @list:	in its file's @triggers (RCU; changed under kmark_mutex)
 * @cmd:	its kind
 * @file:	the event file whose trigger file has it
 * @count:	firings left (-1: unlimited)
 * @paused:	hist's pause
 * @filter:	its "if FILTER", or NULL
 * @filter_str:	the filter as written
 * @target:	enable_event/disable_event: the event file it switches (held)
 * @rest:	parse's scratch: the text after the parameter
 * @flags:	the kind's own (hist: pause, continue, clear as written)
 * @after:	its cmd's @after runs after the commit (set at reg)
 * @data:	the kind's own (hist: its table)
 * @rcu:	freed after a grace period
 */
struct kmark_trigger {
	struct list_head list;
	const struct kmark_trigger_cmd *cmd;
	struct kmark_event_file *file;
	long count;
	bool paused;
	bool removing;		/* parsed from '!': filters are not compared */
	struct kmark_filter __rcu *filter;
	char *filter_str;
	struct kmark_event_file *target;
	char *rest;
	unsigned int flags;
	bool after;
	void *data;
	struct rcu_head rcu;
};

extern const struct kmark_trigger_cmd kmark_traceon_cmd, kmark_traceoff_cmd,
	kmark_snapshot_cmd, kmark_stacktrace_cmd, kmark_enable_event_cmd,
	kmark_disable_event_cmd, kmark_hist_cmd;
extern const struct file_operations kmark_trigger_fops;
/*
 * Triggers run nested when an action fires another event (hist's trace()
 * of a synthetic event) whose own triggers run in turn: at most this deep
 * in one context, as ftrace's ring buffer allows one nested reservation.
 * A deeper hit's triggers do not run; its file counts it (@nested).
 */
#define KMARK_TRIGGER_DEPTH	2
unsigned int kmark_trigger_depth(void);
void kmark_triggers_call(struct kmark_event_file *file,
			 const struct kmark_entry *hdr, const void *rec,
			 unsigned int len, unsigned long *post);
void kmark_triggers_post(struct kmark_event_file *file,
			 const struct kmark_entry *hdr, const void *rec,
			 unsigned int len, unsigned long post);
struct kmark_event_file *kmark_triggers_other_file(const void *data,
						   const struct kmark_trigger *not);
void kmark_triggers_drop_data(const void *data, struct kmark_instance *inst);
void kmark_triggers_free_file(struct kmark_event_file *file);
void kmark_triggers_drop_target(struct kmark_event_file *target);

extern const struct file_operations kmark_hist_fops;

/* kmark_synth.c: synthetic events */
#define KMARK_SYNTH_BUSY_ALL "Some synthetic events are enabled or used by hist actions"
struct kmark_marker *kmark_synth_find(const char *name);
int kmark_synth_command(char *cmd, unsigned int skip, bool truncate,
			const char **err, unsigned int *pos);
bool kmark_synth_any_busy(void);
void kmark_synth_remove_all(void);
bool kmark_synth_show_dyn(struct seq_file *s, struct kmark_marker *m);
int kmark_dynevent_create_files(const struct kmark_dir *dir);
void kmark_synth_get(struct kmark_marker *m);
void kmark_synth_put(struct kmark_marker *m);
bool kmark_synth_field_takes(const struct kmark_marker *m, unsigned int i,
			     int chars, unsigned int size, bool is_signed);
void kmark_synth_fire(struct kmark_marker *m, const u64 *vals);
int kmark_synth_create_files(const struct kmark_dir *dir);
void kmark_marker_fire(struct kmark_marker *m, const void *args);

/* kmark_record.c: the snapshot buffer, the kernel stack event */
int kmark_snapshot_alloc(struct kmark_instance *inst);
int kmark_snapshot_swap(struct kmark_instance *inst);
int kmark_snapshot_swap_cond(struct kmark_instance *inst,
			     bool (*cond)(void *data), void *data);
void kmark_snapshot_hold(struct kmark_instance *inst, bool hold);
void kmark_snapshot_free(struct kmark_instance *inst);
void kmark_record_stack(struct kmark_instance *inst, bool from_hit,
			const struct kmark_entry *ctx);
unsigned int kmark_stack_save(unsigned long *entries, unsigned int max);
struct pt_regs;
void kmark_stack_regs_set(struct pt_regs *regs);

/*
 * Dynamic events of other kinds that "> dynamic_events" deletes with the
 * kprobe events (kmark_dynevent.c): whether one is busy, and deleting them
 * all (cannot fail once none is busy). Both under kmark_mutex.
 */
struct kmark_dyn_also {
	bool (*busy)(void);
	void (*remove_all)(void);
};

/*
 * The kprobe functions dynamic_events calls are declared whatever the
 * configuration: it calls them under IS_ENABLED(CONFIG_KMARK_KPROBES).
 */
int kmark_kprobe_command(char *buf, bool truncate,
			 const struct kmark_dyn_also *also);
void kmark_kprobe_truncate(const char *what, const struct kmark_dyn_also *also);
bool kmark_kprobe_any_busy(void);
void kmark_kprobe_remove_all(struct list_head *dead);
void kmark_kprobe_free_list(struct list_head *dead);
bool kmark_kprobe_show_def(struct seq_file *m, struct kmark_marker *mk);

#ifdef CONFIG_KMARK_KPROBES
int kmark_kprobe_create_files(const struct kmark_dir *dir);
bool kmark_kprobe_def(struct seq_buf *s, struct kmark_marker *m);
#else
static inline int kmark_kprobe_create_files(const struct kmark_dir *dir)
{
	return 0;
}

static inline bool kmark_kprobe_def(struct seq_buf *s, struct kmark_marker *m)
{
	return false;
}
#endif

/*
 * kmark_flight.c: the flight recorder (dump on oops and panic, traceoff on
 * warning, the boot-mapped instance whose trace survives a reboot).
 */
#ifdef CONFIG_KMARK_FLIGHT
struct kmark_comm_table *kmark_flight_comms(void);
const struct kmark_ghosts *kmark_flight_prev(const struct kmark_instance *inst);
struct kmark_marker *kmark_ghost_by_id(const struct kmark_ghosts *g, u16 id);
void kmark_flight_start(struct kmark_instance *inst);
void kmark_flight_cleared(struct kmark_instance *inst);
void kmark_flight_event_on(struct kmark_event_file *file);
#else
static inline struct kmark_comm_table *kmark_flight_comms(void)
{
	return NULL;
}

static inline const struct kmark_ghosts *
kmark_flight_prev(const struct kmark_instance *inst)
{
	return NULL;
}

static inline struct kmark_marker *kmark_ghost_by_id(const struct kmark_ghosts *g,
						     u16 id)
{
	return NULL;
}

static inline void kmark_flight_start(struct kmark_instance *inst)
{
}

static inline void kmark_flight_cleared(struct kmark_instance *inst)
{
}

static inline void kmark_flight_event_on(struct kmark_event_file *file)
{
}
#endif

#endif /* _KMARK_INTERNAL_H */

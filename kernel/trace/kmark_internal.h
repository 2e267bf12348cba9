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
 * kmark's directory in debugfs and (when the kernel has tracefs) in
 * tracefs: same files, same code. d[KMARK_TRACEFS] is NULL without tracefs.
 */
enum { KMARK_DEBUGFS, KMARK_TRACEFS, KMARK_NR_FS };

struct kmark_dir {
	struct dentry *d[KMARK_NR_FS];
};

/* Instances (struct kmark_instance): the top one and 7 made by users. */
#define KMARK_MAX_INSTANCES	8
#define KMARK_INSTANCE_NAME_MAX	32

struct kmark_instance;

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
struct kmark_dir;
struct kmark_filter;
struct seq_file;
struct dentry;

/**
 * struct kmark_event_ops - what makes a dynamic event (a kprobe event)
 * @enable:	start recording (kmark_mutex held)
 * @disable:	stop recording (kmark_mutex held)
 * @show:	the rest of its available_markers line, after the name
 */
struct kmark_event_ops {
	int (*enable)(struct kmark_marker *m);
	void (*disable)(struct kmark_marker *m);
	void (*show)(struct seq_file *s, struct kmark_marker *m);
};

/**
 * struct kmark_marker - all sites of one name, or one kprobe event
 * @list:	in kmark_markers, sorted by name
 * @name:	event name as users write it ("sched_switch", "kprobes/myopen")
 * @event:	name in trace lines (@name without its "GROUP/")
 * @format:	printf-style format
 * @id:		non-zero id stored in each record (kmark_marker_by_id())
 * @sites:	static marker sites (empty for kprobe events)
 * @nr_sites:	number of @sites
 * @layout:	@format parsed
 * @probes:	attached probes; readers use RCU-sched, writers kmark_mutex
 * @recording:	the instances (bit kmark_instance.idx) whose recorder is
 *		attached (the marker is in their set_event)
 * @ops:	NULL for static markers; else how to enable the dynamic event
 * @edir:	its directory events/NAME/ in each instance (the top's has
 *		format, id and filter, the others' filter)
 * @filter:	its filter in each instance (events/NAME/filter) or NULL;
 *		RCU, set under kmark_mutex
 * @module:	the module whose kmark() sites brought it, or NULL (vmlinux,
 *		and dynamic events); its name, format and this are kmark's
 *		copies, kept after the module is gone (records still render)
 * @pid_field:	1 + the field that the pid filters also look at (next_pid
 *		of sched_switch, pid of sched_wakeup), or 0
 * @pid_field_only: that field alone decides (sched_wakeup: the woken task)
 *
 * Everything but @probes is written under kmark_mutex. @name, @event,
 * @format, @id and @layout do not change while the marker exists, so the
 * files of events/NAME/ read them without the mutex.
 */
struct kmark_marker {
	struct list_head list;
	const char *name;
	const char *event;
	const char *format;
	u16 id;
	struct kmark_site **sites;
	unsigned int nr_sites;
	struct kmark_layout *layout;
	struct kmark_probe_array __rcu *probes;
	unsigned long recording;
	const struct kmark_event_ops *ops;
	struct kmark_dir *edir[KMARK_MAX_INSTANCES];
	struct kmark_filter __rcu *filter[KMARK_MAX_INSTANCES];
	const char *module;
	u8 pid_field;
	bool pid_field_only;
};

/**
 * struct kmark_entry - the common head of every record in the ring buffer
 * @type:	event id (common_type)
 * @flags:	TRACE_FLAG_* bits, as ftrace stores them (common_flags)
 * @preempt_count: preemption depth (low nibble), migrate-disable (high)
 * @pid:	current's pid (common_pid)
 * @comm_id:	current's comm as an id of kmark's table of task names
 *		(common_comm_id; 0: the table was full), so that every line
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
 * The task names of the records: each name once, for good (ids stay valid
 * as long as records may hold them). Written lock-free from any context,
 * NMI included; a slot's name is written before the slot is READY and
 * never changes after. Allocated with the first buffer, never freed.
 */
#define KMARK_COMM_IDS		4096	/* a power of 2 */
#define KMARK_COMM_PROBES	32	/* slots looked at before giving up */

enum { KMARK_COMM_FREE, KMARK_COMM_BUSY, KMARK_COMM_READY };

struct kmark_comm_slot {
	unsigned long name[TASK_COMM_LEN / sizeof(unsigned long)];
	u32 state;
};

extern struct kmark_comm_slot *kmark_comms;

/*
 * Per CPU, the ids given last, one per bucket of tasks (by task_struct
 * address): guesses, see kmark_comm_of_current().
 */
#define KMARK_COMM_HINT_BITS	4
DECLARE_PER_CPU(u32 [1 << KMARK_COMM_HINT_BITS], kmark_comm_hint);

static __always_inline unsigned int kmark_comm_hint_idx(void)
{
	return hash_ptr(current, KMARK_COMM_HINT_BITS);
}

int kmark_comms_ensure(void);
u32 kmark_comm_lookup(struct kmark_comm_slot *t, unsigned int nr,
		      const char *comm);
bool kmark_comm_slot_name(const struct kmark_comm_slot *t, unsigned int nr,
			  u32 id, char *buf);
u32 kmark_comm_id_slow(const char *comm);
bool kmark_comm_name(u32 id, char *buf);
unsigned long kmark_comm_misses(void);

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
 * current's name as an id: the id this CPU gave last to a task of
 * current's bucket, if it is current's name (a task keeps its CPU, and its
 * name, between records; the tasks that switch on a CPU mostly fall in
 * buckets of their own); else a lookup in the table. The hint is only a
 * guess, checked against the table's slot, which never changes once
 * READY: contexts that nest on this CPU may replace it at any time, and
 * whatever id names current's name is right.
 */
static __always_inline u32 kmark_comm_of_current(void)
{
	const struct kmark_comm_slot *t = READ_ONCE(kmark_comms);
	u32 id = __this_cpu_read(kmark_comm_hint[kmark_comm_hint_idx()]);

	if (likely(t && id && id <= KMARK_COMM_IDS) &&
	    kmark_comm_eq(t[id - 1].name, current->comm))
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
struct kmark_marker *kmark_find_marker(const char *name);
struct kmark_marker *kmark_marker_by_id(u16 id);
struct kmark_marker *kmark_marker_by_name_rcu(const char *name);
bool kmark_rcu_watching_kunit(void);
/* "MODULE:NAME" tokens of set_event whose module is not loaded */
#define KMARK_PENDING_MAX	8	/* such tokens in one write */

struct kmark_pending_req {
	char tok[KMARK_PENDING_MAX][KMARK_NAME_MAX + MODULE_NAME_LEN + 2];
	bool neg[KMARK_PENDING_MAX];
	unsigned int nr;
};

/* set_event: a plain name that names nothing (it may be a module's) */
#define KMARK_ERR_UNKNOWN_PLAIN \
	"Unknown marker or event (one of a module not loaded yet: MODULE:NAME)"

int kmark_set_event_parse(const char *buf, const char * const *names,
			  const char * const *mods, unsigned int nr,
			  bool *state, bool *named,
			  struct kmark_pending_req *pending,
			  const char **err, unsigned int *err_pos);
int kmark_set_recording(struct kmark_marker *m, struct kmark_instance *inst,
			bool on);
void kmark_recording_off(struct kmark_marker *m);
void kmark_pending_show(struct kmark_instance *inst, struct seq_file *sf);
void kmark_pending_drop(struct kmark_instance *inst);
#ifdef CONFIG_MODULES
struct kmark_marker *kmark_gone_marker(const char *name);
unsigned int kmark_gone_count(const char *mod);
/* kmark_module.c: a module's sites join or leave (the module notifier) */
void kmark_module_coming(struct module *mod);
void kmark_module_going(struct module *mod);
#else
static inline struct kmark_marker *kmark_gone_marker(const char *name)
{
	return NULL;
}
#endif
void kmark_pending_apply(const char *mod);
int kmark_dynamic_alloc_id(struct kmark_marker *m);
void kmark_dynamic_free_id(struct kmark_marker *m);
void kmark_dynamic_link(struct kmark_marker *m);
void kmark_dynamic_unlink(struct kmark_marker *m);
void kmark_boot_events_retry(void);
int __kmark_probe_register(struct kmark_marker *m, kmark_probe_fn probe,
			   void *data);
int __kmark_probe_unregister(struct kmark_marker *m, kmark_probe_fn probe,
			     void *data);

/*
 * An instance: one recording session with its own buffer, tracing_on,
 * set_event, filters, readers and error_log. Instance 0 is kmark's top
 * directory and always exists; the others are made and removed through
 * instances/new and instances/remove (kmark_fs.c).
 */

struct kmark_cpu_stats;
struct kmark_stats_base;

/**
 * struct kmark_instance - a recording session
 * @idx:	its slot, and its bit in kmark_marker.recording; 0: the top
 * @live:	made and not removed
 * @name:	its directory name under instances/ ("" for the top)
 * @buffer:	its ring buffer, allocated on first use, freed at removal
 * @tracing_on:	record or not (read locklessly on the recording path)
 * @buffer_kb:	per-CPU buffer size in KiB
 * @stats:	per-CPU written/dropped counters (see kmark_record.c)
 * @stats_base:	where they stood at the last clear
 * @readers:	open trace_pipe files (the batch is looked at only then)
 * @read_wq:	blocked trace_pipe readers
 * @read_delay_ms: settings of the batched wakeups
 * @buffer_percent: ditto
 * @batch:	KMARK_BATCH_* bits
 * @batch_timer: read_delay_ms after a batch's first event
 * @batch_work:	arms it from the recording path
 * @users:	open files that hold the instance (readers): removal is
 *		refused while there are any; under kmark_mutex
 * @read_mutex:	serialises consumers of @buffer and @dropped_seen
 * @dropped_seen: [nr_cpu_ids] drops already reported to readers
 * @dir:	its directory (the top: kmark_top)
 * @events:	its events/ directory
 * @groups:	its events/GROUP/ directories
 * @err_mutex:	protects @errs and @nr_errs
 * @errs:	its error_log entries
 * @nr_errs:	how many
 *
 * The slots are static and never freed, so the recording path may hold a
 * pointer to one (a probe's data) across the instance's removal, which
 * detaches its probes and waits for them before freeing @buffer.
 * Everything else is set under kmark_mutex.
 */
struct kmark_instance {
	unsigned int idx;
	bool live;
	char name[KMARK_INSTANCE_NAME_MAX];
	struct trace_buffer *buffer;
	bool tracing_on;
	unsigned long buffer_kb;
	struct kmark_cpu_stats __percpu *stats;
	struct kmark_stats_base __percpu *stats_base;
	atomic_t readers;
	struct wait_queue_head read_wq;
	unsigned int read_delay_ms;
	unsigned int buffer_percent;
	unsigned long batch;
	struct hrtimer batch_timer;
	struct irq_work batch_work;
	unsigned int users;
	struct mutex read_mutex;	/* consumers of @buffer, @dropped_seen */
	unsigned long *dropped_seen;
	struct kmark_dir dir;
	struct kmark_dir events;
	struct list_head groups;
	struct mutex err_mutex;		/* @errs, @nr_errs */
	struct list_head errs;
	unsigned int nr_errs;
};

extern struct kmark_instance kmark_instances[KMARK_MAX_INSTANCES];
#define kmark_top_inst	(&kmark_instances[0])

/* kmark_record.c: the buffers, the recorder probe and its counters. */
int kmark_instance_init(struct kmark_instance *inst);
void kmark_instance_fini(struct kmark_instance *inst);
int kmark_buffer_ensure(struct kmark_instance *inst);
int kmark_buffer_resize(struct kmark_instance *inst, unsigned long kb);
void kmark_buffer_clear(struct kmark_instance *inst);
void kmark_record_probe(void *data, struct kmark_marker *m, const void *args);
struct kmark_entry *kmark_reserve(struct kmark_instance *inst, u16 id,
				  size_t size, bool from_hit,
				  struct ring_buffer_event **evp);
void kmark_discard(struct kmark_instance *inst,
		   struct ring_buffer_event *event);
int kmark_record_text(struct kmark_instance *inst, struct kmark_marker *m,
		      const char *text, unsigned int len);
void kmark_commit(struct kmark_instance *inst);
void kmark_count_drop(const struct kmark_marker *m);
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
void kmark_print_event(struct seq_buf *s, int cpu, u64 ts,
		       const struct kmark_entry *e, unsigned int len);
void kmark_print_fields(struct seq_buf *s, const struct kmark_layout *layout,
			const void *rec, unsigned int len);
bool kmark_print_record(struct seq_buf *s, int cpu, u64 ts,
			const struct kmark_entry *e, unsigned int len,
			unsigned long lost, unsigned long dropped);
void kmark_print_header(struct seq_buf *s, unsigned long entries,
			unsigned long written);
void kmark_print_format(struct seq_buf *s, const struct kmark_marker *m);

/* Writes are taken whole, at most a page: longer ones fail with E2BIG. */
#define KMARK_ERR_TOO_LONG	"Write too long: at most 4095 bytes at once"

/* kmark_fs.c: ftrace-style error_log; seq_file walk over kmark_markers. */
void *kmark_markers_start(struct seq_file *m, loff_t *pos);
void *kmark_markers_next(struct seq_file *m, void *v, loff_t *pos);
void kmark_markers_stop(struct seq_file *m, void *v);
void kmark_log_err(struct kmark_instance *inst, const char *cmd,
		   unsigned int pos, const char *msg);
void kmark_err_log_clear(struct kmark_instance *inst);
int kmark_event_dir_create(struct kmark_marker *m);
void kmark_event_dir_move(struct kmark_marker *from, struct kmark_marker *to);
void kmark_event_dir_remove(struct kmark_marker *m);

extern struct kmark_dir kmark_top;
int kmark_fs_dir(const char *name, const struct kmark_dir *parent,
		 struct kmark_dir *dir);
int kmark_fs_file(const char *name, umode_t mode,
		  const struct kmark_dir *parent, void *data,
		  const struct file_operations *fops);
void kmark_fs_remove(struct kmark_dir *dir);

/* kmark_fs.c helpers for the other files' control files */
int kmark_open_check(void);
int kmark_simple_open(struct inode *inode, struct file *file);
char *kmark_get_cmd(struct kmark_instance *inst, const char __user *ubuf,
		    size_t cnt);

/* kmark_pid.c: set_event_pid, set_event_notrace_pid, options/event-fork */
DECLARE_STATIC_KEY_FALSE(kmark_pid_filtering);
bool __kmark_pid_filtered_out(const struct kmark_marker *m, const void *args);
void kmark_pid_create_files(const struct kmark_dir *top);
unsigned int kmark_pid_kunit_churn_cost(unsigned int cycles);

/* Is @m's hit (@args: a marker's argument block, or NULL) unwanted? */
static __always_inline bool kmark_pid_filtered_out(const struct kmark_marker *m,
						   const void *args)
{
	return static_branch_unlikely(&kmark_pid_filtering) &&
	       __kmark_pid_filtered_out(m, args);
}

/* kmark_filter.c: events/NAME/filter */
struct kmark_filter *kmark_filter_compile(const struct kmark_layout *l,
					  const char *text, const char **err,
					  unsigned int *err_pos);
bool kmark_filter_match(const struct kmark_filter *flt,
			const struct kmark_entry *hdr,
			const void *rec, unsigned int len);
bool kmark_filter_needs_hdr(const struct kmark_filter *flt);
const char *kmark_filter_text(const struct kmark_filter *flt);
void kmark_filter_set(struct kmark_marker *m, struct kmark_instance *inst,
		      struct kmark_filter *flt);
void kmark_filter_free(struct kmark_filter *flt);

#ifdef CONFIG_KMARK_KPROBES
void kmark_kprobe_create_files(const struct kmark_dir *dir);
#else
static inline void kmark_kprobe_create_files(const struct kmark_dir *dir)
{
}
#endif
int kmark_set_event_apply(struct kmark_instance *inst, const char *buf,
			  bool truncate, const char **err,
			  unsigned int *err_pos);

#endif /* _KMARK_INTERNAL_H */

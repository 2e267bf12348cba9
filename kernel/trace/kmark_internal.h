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

#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/rcupdate.h>
#include <linux/ring_buffer.h>
#include <linux/sched.h>
#include <linux/seq_buf.h>
#include <trace/kmark.h>

/* How each argument is passed and stored (after C's default promotions). */
enum kmark_arg_type {
	KMARK_ARG_INT,		/* int, char, short: 4 bytes */
	KMARK_ARG_LONG,		/* long, size_t, ptrdiff_t, pointers */
	KMARK_ARG_LLONG,	/* long long: 8 bytes */
	KMARK_ARG_STR,		/* NUL-terminated copy, at most KMARK_STR_MAX */
};

#define KMARK_MAX_FIELDS	16
#define KMARK_NAME_MAX		64
#define KMARK_CONV_MAX		16
#define KMARK_STR_MAX		256

/**
 * struct kmark_field - one conversion of a marker's format
 * @name:	field name: the word before '=' in "name=%d", else "argN"
 * @conv:	the conversion alone, e.g. "%-5lu", given to snprintf
 * @prefix:	literal text before the conversion, "%%" already unescaped
 * @type:	how the argument is stored (enum kmark_arg_type)
 * @size:	bytes it takes in a record (0 for strings: NUL-terminated)
 * @is_ptr:	a %p conversion: printed as a pointer
 */
struct kmark_field {
	char name[KMARK_NAME_MAX];
	char conv[KMARK_CONV_MAX];
	const char *prefix;
	u8 type;
	u8 size;
	bool is_ptr;
};

/**
 * struct kmark_layout - a format parsed once, used for every event
 * @nr_fields:	number of conversions
 * @fixed_size:	bytes the non-string arguments take in a record
 * @has_strings: some field is a string (its size is known per event)
 * @suffix:	literal text after the last conversion
 * @fields:	the conversions in order
 *
 * Records store the arguments back to back, unaligned, in field order:
 * this is what makes recording cheap (no format parsing per event, unlike
 * vbin_printf) and rendering exact (snprintf on the field's own
 * conversion).
 */
struct kmark_layout {
	unsigned int nr_fields;
	unsigned int fixed_size;
	bool has_strings;
	const char *suffix;
	struct kmark_field fields[];
};

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
struct seq_file;

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
 * @recording:	kmark's recorder is attached (the marker is in set_event)
 * @ops:	NULL for static markers; else how to enable the dynamic event
 *
 * Everything but @probes is written under kmark_mutex.
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
	bool recording;
	const struct kmark_event_ops *ops;
};

/**
 * struct kmark_entry - the fixed head of every record in the ring buffer
 * @id:		marker id
 * @flags:	KMARK_FLAG_*
 * @preempt_count: preemption depth (low nibble), migrate-disable (high)
 * @pid:	current's pid
 * @comm:	current's comm, so names are right for every task (no <...>)
 * @data:	the arguments, as described by the marker's layout
 */
struct kmark_entry {
	u16 id;
	u8 flags;
	u8 preempt_count;
	s32 pid;
	char comm[TASK_COMM_LEN];
	u8 data[];
};

#define KMARK_FLAG_IRQS_OFF	0x01
#define KMARK_FLAG_NEED_RESCHED	0x02
#define KMARK_FLAG_PREEMPT_RESCHED 0x04
#define KMARK_FLAG_HARDIRQ	0x08
#define KMARK_FLAG_SOFTIRQ	0x10
#define KMARK_FLAG_NMI		0x20
#define KMARK_FLAG_BH_OFF	0x40

/* Record size of a fixed-size argument type (0 for strings). */
static inline u8 kmark_arg_size(u8 type)
{
	return type == KMARK_ARG_INT ? sizeof(int) :
	       type == KMARK_ARG_LONG ? sizeof(long) :
	       type == KMARK_ARG_LLONG ? sizeof(u64) : 0;
}

/* Section bounds of the kmark() sites (include/asm-generic/vmlinux.lds.h). */
extern struct kmark_site * const __start___kmark_sites[];
extern struct kmark_site * const __stop___kmark_sites[];

/* kmark.c: serialises every change to markers, probes and settings. */
extern struct mutex kmark_mutex;
extern struct list_head kmark_markers;

struct kmark_layout *kmark_parse_format(const char *fmt, const char **err,
					unsigned int *err_pos);
void kmark_free_layout(struct kmark_layout *layout);
struct kmark_marker *kmark_find_marker(const char *name);
struct kmark_marker *kmark_marker_by_id(u16 id);
int kmark_set_event_parse(const char *buf, const char * const *names,
			  unsigned int nr, bool *state, const char **err,
			  unsigned int *err_pos);
int kmark_set_recording(struct kmark_marker *m, bool on);
int kmark_add_dynamic(struct kmark_marker *m);
void kmark_boot_events_retry(void);
void kmark_remove_dynamic(struct kmark_marker *m);
int __kmark_probe_register(struct kmark_marker *m, kmark_probe_fn probe,
			   void *data);
int __kmark_probe_unregister(struct kmark_marker *m, kmark_probe_fn probe,
			     void *data);

/* kmark_record.c: the buffer, the recorder probe and its counters. */
extern struct trace_buffer *kmark_buffer;
extern bool kmark_tracing_on;
extern unsigned long kmark_buffer_kb;

int kmark_buffer_ensure(void);
int kmark_buffer_resize(unsigned long kb);
void kmark_buffer_clear(void);
void kmark_record_probe(void *data, struct kmark_marker *m, va_list *args);
struct kmark_entry *kmark_reserve(u16 id, size_t size, bool from_hit);
void kmark_commit(void);
/* A marker's arguments between taking them off the va_list and storing. */
struct kmark_argv {
	union {
		u64 ll;		/* integers, zero-extended; pointers */
		const char *s;
	} v[KMARK_MAX_FIELDS];
	u16 len[KMARK_MAX_FIELDS];	/* string lengths, without the NUL */
};

size_t kmark_collect_args(const struct kmark_layout *l, va_list *args,
			  struct kmark_argv *a);
void kmark_write_args(const struct kmark_layout *l, const struct kmark_argv *a,
		      u8 *dst);
unsigned long kmark_written(int cpu);
unsigned long kmark_dropped(int cpu);

/* kmark_output.c */
void kmark_print_event(struct seq_buf *s, int cpu, u64 ts,
		       const struct kmark_entry *e, unsigned int len);
void kmark_print_fields(struct seq_buf *s, const struct kmark_layout *layout,
			const u8 *data, const u8 *end);
void kmark_print_header(struct seq_buf *s, unsigned long entries,
			unsigned long written);

/* Writes are taken whole, at most a page: longer ones fail with E2BIG. */
#define KMARK_ERR_TOO_LONG	"Write too long: at most 4095 bytes at once"

/* kmark_fs.c: ftrace-style error_log; seq_file walk over kmark_markers. */
void *kmark_markers_start(struct seq_file *m, loff_t *pos);
void *kmark_markers_next(struct seq_file *m, void *v, loff_t *pos);
void kmark_markers_stop(struct seq_file *m, void *v);
void kmark_log_err(const char *cmd, unsigned int pos, const char *msg);
struct dentry;
#ifdef CONFIG_KMARK_KPROBES
void kmark_kprobe_create_files(struct dentry *dir);
#else
static inline void kmark_kprobe_create_files(struct dentry *dir)
{
}
#endif
int kmark_set_event_apply(const char *buf, bool truncate, const char **err,
			  unsigned int *err_pos);

#endif /* _KMARK_INTERNAL_H */

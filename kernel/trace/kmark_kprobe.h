/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kmark: kprobe events (kmark_kprobe.c), shared with the KUnit tests.
 */
#ifndef _KMARK_KPROBE_H
#define _KMARK_KPROBE_H

#include <linux/kprobes.h>
#include "kmark_internal.h"

#define KMARK_KPROBE_GROUP	"kprobes"
/* Who says an error in error_log: ftrace's name for its kprobe parser. */
#define KMARK_KPROBE_LOC	"trace_kprobe"
/* Two layout fields go to the probe address (and the caller, for r). */
#define KMARK_KPROBE_MAX_ARGS	(KMARK_MAX_FIELDS - 2)
#define KMARK_KPROBE_MAX_DEREF	4
#define KMARK_KPROBE_MAXACTIVE_MAX	4096	/* as ftrace */
#define KMARK_KPROBE_ARG_NAME_MAX	32	/* as ftrace's MAX_ARG_NAME_LEN */
#define KMARK_KPROBE_ARG_MAX		63	/* as ftrace's MAX_ARGSTR_LEN */

/*
 * Every message kprobe_events can leave in error_log, one per cause a user
 * can act on (as trace_probe.h's ERRORS table); kmark_kprobe.c has their
 * texts.
 */
enum {
	KMARK_KPE_NOMEM,
	KMARK_KPE_BAD_CMD,
	KMARK_KPE_BAD_MAXACT,
	KMARK_KPE_BAD_MAXACT_TYPE,
	KMARK_KPE_MAXACT_TOO_BIG,
	KMARK_KPE_BAD_GROUP_NAME,
	KMARK_KPE_BAD_EVENT_NAME,
	KMARK_KPE_EMPTY_EVENT_NAME,
	KMARK_KPE_NO_PROBE_POINT,
	KMARK_KPE_BAD_RETURN_SUFFIX,
	KMARK_KPE_BAD_PROBE_ADDR,
	KMARK_KPE_BAD_MODULE_NAME,
	KMARK_KPE_NO_SYMBOL,
	KMARK_KPE_BAD_OFFSET,
	KMARK_KPE_BAD_SYMBOL,
	KMARK_KPE_CLONE_AMBIGUOUS,
	KMARK_KPE_BLACKLISTED,
	KMARK_KPE_KRETPROBE_BLACKLISTED,
	KMARK_KPE_BAD_RETPROBE_OFFSET,
	KMARK_KPE_NOT_INSN_BOUNDARY,
	KMARK_KPE_CANNOT_PROBE,
	KMARK_KPE_REGISTER_FAILED,
	KMARK_KPE_TOO_MANY_ARGS,
	KMARK_KPE_BAD_ARG_NAME,
	KMARK_KPE_DUP_ARG_NAME,
	KMARK_KPE_BAD_ARG_NUM,
	KMARK_KPE_NOFENTRY_ARGS,
	KMARK_KPE_BAD_STACK_NUM,
	KMARK_KPE_RETVAL_ON_PROBE,
	KMARK_KPE_BAD_VAR,
	KMARK_KPE_BAD_REG,
	KMARK_KPE_BAD_MEM_ADDR,
	KMARK_KPE_BAD_DEREF,
	KMARK_KPE_BAD_DEREF_OFFS,
	KMARK_KPE_DEREF_OPEN_BRACE,
	KMARK_KPE_DEREF_TOO_DEEP,
	KMARK_KPE_COMM_DEREF,
	KMARK_KPE_BAD_FETCH_ARG,
	KMARK_KPE_BAD_TYPE,
	KMARK_KPE_BAD_BITFIELD,
	KMARK_KPE_BAD_COMM_TYPE,
	KMARK_KPE_BAD_STRING,
	KMARK_KPE_ARG_NAME_TOO_LONG,
	KMARK_KPE_ARG_TOO_LONG,
	KMARK_KPE_NO_EVENT_NAME,
	KMARK_KPE_NO_SUCH_EVENT,
	KMARK_KPE_EVENT_BUSY,
	KMARK_KPE_SOME_BUSY,
	KMARK_KPE_EVENT_EXISTS,
	KMARK_KPE_DIFF_PROBE_TYPE,
	KMARK_KPE_DIFF_ARG_TYPE,
	KMARK_KPE_SAME_PROBE,
	KMARK_KPE_MARKER_CLASH,
	KMARK_KPE_TOO_MANY_LINES,
	KMARK_KPE_NO_IDS,
	KMARK_KPE_LOCKED_DOWN,
	KMARK_KPE_SELF_PROBE,
	KMARK_KPE_RESERVED_ARG_NAME,
	KMARK_KPE_NOTRACE,
	KMARK_KPE_OTHERS_BUSY,
};

enum kmark_fetch_op {
	KMARK_F_REG, KMARK_F_ARG, KMARK_F_STACK, KMARK_F_STACKP,
	KMARK_F_RETVAL, KMARK_F_COMM, KMARK_F_MEM, KMARK_F_DEREF,
};

/*
 * One fetch step; DEREF reads memory at base's value + param. In a return
 * probe, ARG reads the argument its entry handler saved, in slot @slot.
 */
struct kmark_fetch {
	u8 op;
	u8 slot;
	bool user;		/* DEREF: "+uOFFS(...)", user memory */
	unsigned long param;
	char *sym;		/* MEM of @SYM: looked up again at arming */
	long sym_off;
	struct kmark_fetch *base;
};

/* Ordered: the integer types first (kmark_kprobe_record() relies on it). */
enum kmark_ktype {
	KMARK_T_U, KMARK_T_S, KMARK_T_X,
	KMARK_T_STRING, KMARK_T_USTRING, KMARK_T_SYMBOL,
};

struct kmark_karg {
	char name[KMARK_NAME_MAX];
	char *text;		/* FETCHARG[:TYPE] as written, for reading back */
	struct kmark_fetch *fetch;
	u8 type;
	u8 bits;		/* an integer's size; a bitfield's container */
	u8 bf_width;		/* bW@O/C: W bits at bit O (0: no bitfield) */
	u8 bf_offset;
};

/**
 * struct kmark_kprobe - one probe of a kprobe event
 * @marker:	the event's place in kmark's namespace (ops: kmark_kprobe_ops),
 *		used in the event's first probe only
 * @ev:		the probe whose @marker is the event: this one, or the first
 *		of an event with several probes (multiprobe, as ftrace's:
 *		"p:EVENT SYM2" on an existing EVENT with the same arguments)
 * @probes:	in @ev: the event's probes (@ev's own too, unless deleted
 *		while others remain: then @ev only holds the event)
 * @probe_node:	this probe in @ev's @probes
 * @rp:		the kretprobe (return probes) or its kprobe, rp.kp (entry)
 * @is_return:	a return probe
 * @at_entry:	an entry probe on a function's entry: $argN is allowed
 * @maxactive_set: the user gave rN (else kretprobe's default)
 * @registered:	registered with kprobes (disabled until set_event)
 * @doomed:	to be deleted by the kprobe_events write being applied
 * @heir:	in @ev: the event of the same name that write adds in its
 *		place
 * @symbol:	the resolved symbol (maybe a clone's name), NULL for ADDR
 * @module:	the module @symbol is in (armed again when it loads), or NULL
 * @offset:	offset in @symbol
 * @addr:	the probed address
 * @name_pos:	offset of the event name in the defining command
 * @arg_pos:	offset of each argument in it (for carets)
 * @nhit:	hits per CPU, for kprobe_profile
 * @nr_entry_args: return probes: arguments saved at function entry
 * @entry_args:	their numbers ($argN is N - 1), by slot
 * @nr_args:	number of @args
 * @args:	fetch arguments
 */
struct kmark_kprobe {
	struct kmark_marker marker;
	struct kmark_kprobe *ev;
	struct list_head probes;
	struct list_head probe_node;
	struct kretprobe rp;
	bool is_return;
	bool at_entry;
	bool maxactive_set;
	bool registered;
	bool doomed;
	bool ghost;	/* deleted, kept to render its records (kmark_kprobe.c) */
	struct kmark_kprobe *heir;
	char *symbol;
	char *module;
	unsigned long offset;
	unsigned long addr;
	unsigned int name_pos;
	unsigned short arg_pos[KMARK_KPROBE_MAX_ARGS];
	unsigned long __percpu *nhit;
	unsigned int nr_entry_args;
	u8 entry_args[KMARK_KPROBE_MAX_ARGS];
	unsigned int nr_args;
	struct kmark_karg args[KMARK_KPROBE_MAX_ARGS];
};

int kmark_kprobe_parse(const char *cmd, struct kmark_kprobe **out, int *err,
		       unsigned int *pos);
void kmark_kprobe_free(struct kmark_kprobe *tk);
const char *kmark_kprobe_err_text(int err);

#endif /* _KMARK_KPROBE_H */

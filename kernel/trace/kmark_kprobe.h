/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kmark: kprobe events (kmark_kprobe.c), shared with the KUnit tests.
 */
#ifndef _KMARK_KPROBE_H
#define _KMARK_KPROBE_H

#include <linux/kprobes.h>
#include "kmark_internal.h"

#define KMARK_KPROBE_GROUP	"kprobes"
/* Two layout fields go to the probe address (and the caller, for r). */
#define KMARK_KPROBE_MAX_ARGS	(KMARK_MAX_FIELDS - 2)
#define KMARK_KPROBE_MAX_DEREF	4
#define KMARK_KPROBE_MAXACTIVE_MAX	4096	/* as ftrace */
#define KMARK_KPROBE_ARG_NAME_MAX	32	/* as ftrace's MAX_ARG_NAME_LEN */
#define KMARK_KPROBE_ARG_MAX		63	/* as ftrace's MAX_ARGSTR_LEN */

/*
 * Every message kprobe_events can leave in error_log, one per cause a user
 * can act on (as trace_probe.h's ERRORS table).
 */
#define KMARK_KPROBE_ERRORS						\
	C(NOMEM,		"Out of memory"),			\
	C(BAD_CMD,		"Unknown command: use p, r or -"),	\
	C(BAD_MAXACT,		"Bad maxactive number"),		\
	C(BAD_MAXACT_TYPE,	"Maxactive is only for return probes (rN)"), \
	C(MAXACT_TOO_BIG,	"Maxactive is too big (at most 4096)"),	\
	C(BAD_GROUP_NAME,	"Group name must be letters, digits and '_'"), \
	C(BAD_EVENT_NAME,	"Event name must be letters, digits and '_'"), \
	C(EMPTY_EVENT_NAME,	"Event name is not specified"),		\
	C(NO_PROBE_POINT,	"Probe point is missing"),		\
	C(BAD_RETURN_SUFFIX,	"Only %return may follow the symbol"),	\
	C(BAD_PROBE_ADDR,	"Bad probe address"),			\
	C(BAD_MODULE_NAME,	"Bad module name in MOD:SYM"),		\
	C(NO_SYMBOL,		"Symbol is missing or too long"),	\
	C(BAD_OFFSET,		"Bad offset"),				\
	C(BAD_SYMBOL,		"Unknown symbol: not in kallsyms (inlined functions, such as context_switch, cannot be probed)"), \
	C(CLONE_AMBIGUOUS,	"Symbol exists only as several compiler clones (SYM.isra.0, ...): name one"), \
	C(BLACKLISTED,		"Symbol is on the kprobe blacklist (see /sys/kernel/debug/kprobes/blacklist)"), \
	C(KRETPROBE_BLACKLISTED, "Return probes on this function are refused (kretprobe blacklist); an entry probe works"), \
	C(BAD_RETPROBE_OFFSET,	"Return probe must be on the function entry (+0)"), \
	C(NOT_INSN_BOUNDARY,	"Probe address is not on an instruction boundary"), \
	C(CANNOT_PROBE,		"This address cannot be probed (kprobes refused it)"), \
	C(REGISTER_FAILED,	"Failed to register the probe"),	\
	C(TOO_MANY_ARGS,	"Too many arguments (at most 14)"),	\
	C(BAD_ARG_NAME,		"Argument name must be letters, digits and '_'"), \
	C(DUP_ARG_NAME,		"Duplicate argument name"),		\
	C(BAD_ARG_NUM,		"Invalid $argN (N is 1 to 64)"),	\
	C(NOFENTRY_ARGS,	"$arg* can be used only on function entry or exit"), \
	C(BAD_STACK_NUM,	"Invalid $stackN"),			\
	C(RETVAL_ON_PROBE,	"$retval is only for return probes"),	\
	C(BAD_VAR,		"Unknown variable: use $argN, $retval, $comm, $stackN or $stack"), \
	C(BAD_REG,		"Unknown register"),			\
	C(BAD_MEM_ADDR,		"Unknown symbol or bad address after '@'"), \
	C(BAD_DEREF,		"Bad dereference: use +|-OFFS(FETCHARG)"), \
	C(BAD_DEREF_OFFS,	"Bad dereference offset"),		\
	C(DEREF_OPEN_BRACE,	"Dereference brace is not closed"),	\
	C(DEREF_TOO_DEEP,	"Dereference nested too deep (at most 4)"), \
	C(COMM_DEREF,		"$comm cannot be dereferenced"),	\
	C(BAD_FETCH_ARG,	"Bad fetch argument"),			\
	C(BAD_TYPE,		"Unknown type: use u8..u64, s8..s64, x8..x64, string, ustring or symbol"), \
	C(BAD_COMM_TYPE,	"$comm is a string"),			\
	C(BAD_STRING,		"A string is read from memory: +OFFS(FETCHARG), @SYM or @ADDR (or $comm)"), \
	C(ARG_NAME_TOO_LONG,	"Argument name is too long (at most 32 characters)"), \
	C(ARG_TOO_LONG,		"Argument expression is too long (at most 63 characters)"), \
	C(NO_EVENT_NAME,	"'-' needs :[GROUP/]EVENT"),		\
	C(NO_SUCH_EVENT,	"No such kprobe event"),		\
	C(EVENT_BUSY,		"The event is enabled: disable it in set_event first"), \
	C(SOME_BUSY,		"Some kprobe events are enabled: disable them in set_event first"), \
	C(EVENT_EXISTS,		"A kprobe event with this name exists already"), \
	C(MARKER_CLASH,		"A static marker has this name"),	\
	C(TOO_MANY_LINES,	"Too many commands in one write (at most 32)"), \
	C(NO_IDS,		"No event id left (65535 kprobe events in use)"), \
	C(LOCKED_DOWN,		"Kprobes are locked down (lockdown=confidentiality or integrity)"), \
	C(SELF_PROBE,		"kmark's recording path, the ring buffer and its clock cannot be probed")

#define C(a, b)		KMARK_KPE_##a
enum { KMARK_KPROBE_ERRORS };
#undef C

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
	unsigned long param;
	struct kmark_fetch *base;
};

/* Ordered: the integer types first (kmark_kprobe_record() relies on it). */
enum kmark_ktype {
	KMARK_T_U, KMARK_T_S, KMARK_T_X,
	KMARK_T_STRING, KMARK_T_USTRING, KMARK_T_SYMBOL,
};

struct kmark_karg {
	char name[KMARK_NAME_MAX];
	char *text;		/* as the user wrote it, for reading back */
	struct kmark_fetch *fetch;
	u8 type;
	u8 bits;
};

/**
 * struct kmark_kprobe - one kprobe event
 * @marker:	its place in kmark's namespace (ops: kmark_kprobe_ops)
 * @rp:		the kretprobe (return probes) or its kprobe, rp.kp (entry)
 * @is_return:	a return probe
 * @at_entry:	an entry probe on a function's entry: $argN is allowed
 * @maxactive_set: the user gave rN (else kretprobe's default)
 * @registered:	registered with kprobes (disabled until set_event)
 * @doomed:	to be deleted by the kprobe_events write being applied
 * @heir:	the event of the same name that write adds in its place
 * @symbol:	the resolved symbol (maybe a clone's name), NULL for ADDR
 * @module:	the module @symbol is in (armed again when it loads), or NULL
 * @offset:	offset in @symbol
 * @addr:	the probed address
 * @name_pos:	offset of the event name in the defining command
 * @nhit:	hits per CPU, for kprobe_profile
 * @nr_entry_args: return probes: arguments saved at function entry
 * @entry_args:	their numbers ($argN is N - 1), by slot
 * @nr_args:	number of @args
 * @args:	fetch arguments
 */
struct kmark_kprobe {
	struct kmark_marker marker;
	struct kretprobe rp;
	bool is_return;
	bool at_entry;
	bool maxactive_set;
	bool registered;
	bool doomed;
	struct kmark_kprobe *heir;
	char *symbol;
	char *module;
	unsigned long offset;
	unsigned long addr;
	unsigned int name_pos;
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

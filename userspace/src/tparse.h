/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Parser for trace / trace_pipe lines (ftrace layout). Pure functions.
 */
#ifndef KMARK_TPARSE_H
#define KMARK_TPARSE_H

#include <stdbool.h>
#include <stddef.h>

#define TL_COMM_LEN	64
#define NSEC_PER_SEC	1000000000ULL
/*
 * Numbers from trace input are untrusted. CPU numbers must be below
 * TL_MAX_CPUS (the kernel's largest NR_CPUS); pids must fit in an int,
 * timestamps and lost counts in 64 bits. A line with the layout of an
 * event or lost-event record but a number out of range is TL_INVALID
 * with out_of_range set.
 */
#define TL_MAX_CPUS	8192

enum tl_kind {
	TL_EVENT,	/* "comm-pid [cpu] flags ts: name: fields", or
			 * "comm-pid [cpu] flags ts: <stack trace>" (a kernel
			 * stack, name "kernel_stack", no fields) */
	TL_FRAME,	/* " => symbol": a frame of the stack above */
	TL_LOST,	/* "CPU:N [LOST M EVENTS]" */
	TL_HEADER,	/* "# ..." header of the trace file */
	TL_BLANK,	/* empty or whitespace-only line */
	TL_INVALID,	/* anything else */
};

struct tl_event {
	char comm[TL_COMM_LEN];
	int pid;
	int cpu;
	char flags[8];		/* "" when the trace has no flags column */
	unsigned long long ts_ns;
	char name[64];
	const char *fields;	/* points into the parsed line */
	size_t fields_len;	/* trailing blanks and newline excluded */
};

struct tl_line {
	enum tl_kind kind;
	struct tl_event ev;	/* TL_EVENT */
	int lost_cpu;		/* TL_LOST */
	unsigned long long lost;
	bool out_of_range;	/* TL_INVALID: a number is out of range */
};

/* a + b, saturating at ULLONG_MAX instead of wrapping around */
static inline unsigned long long tl_sat_add(unsigned long long a,
					    unsigned long long b)
{
	return a + b < a ? ~0ULL : a + b;
}

/* line may end in "\n"; it must stay alive while ev.fields is used */
enum tl_kind tl_parse(const char *line, struct tl_line *out);

struct tl_switch {
	char prev_comm[TL_COMM_LEN];
	int prev_pid;
	int prev_prio;
	char prev_state[16];
	char next_comm[TL_COMM_LEN];
	int next_pid;
	int next_prio;
};

struct tl_wakeup {
	char comm[TL_COMM_LEN];
	int pid;
	int prio;
	int target_cpu;
};

/* 0 on success, -1 when the fields do not have the expected layout */
int tl_parse_switch(const struct tl_event *ev, struct tl_switch *sw);
int tl_parse_wakeup(const struct tl_event *ev, struct tl_wakeup *wk);

/*
 * --pretty rendering of a sched_switch event:
 *   "[  12.345678] CPU1: bash (123) switching to sh (45)"
 * Returns -1 (buf untouched) for other events.
 */
int tl_pretty_switch(const struct tl_event *ev, char *buf, size_t size);

struct tl_filter {
	bool use_pid;
	int pid;
	const char *comm;	/* NULL: no comm filter */
};

/*
 * True when the event's task (or, for sched_switch, the prev or next
 * task) satisfies every active filter.
 */
bool tl_filter_match(const struct tl_event *ev, const struct tl_filter *f);

#endif

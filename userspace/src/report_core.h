/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Aggregation for "kmark report". Pure: feed lines, read the structs,
 * print to any FILE.
 */
#ifndef KMARK_REPORT_CORE_H
#define KMARK_REPORT_CORE_H

#include <stdbool.h>
#include <stdio.h>

#include "tparse.h"

struct rp_task {
	int pid;
	char comm[TL_COMM_LEN];		/* last comm seen; "<idle>" for pid 0 */
	unsigned long sw_in;		/* sched_switch with next_pid == pid */
	unsigned long sw_out;		/* sched_switch with prev_pid == pid */
	unsigned long wakeups;		/* sched_wakeup with pid == pid */
	unsigned long events;		/* events whose task column is pid */
	unsigned long long oncpu_ns;	/* sum of complete in->out intervals */
};

struct rp_cpu {
	bool seen;
	unsigned long switches;
	unsigned long events;
	unsigned long long lost;
	/* running state: who was switched in, and when */
	bool cur_valid;
	int cur_pid;
	unsigned long long cur_since;
};

struct report {
	struct rp_task *tasks;
	size_t ntasks, atasks;
	size_t *hash;			/* pid -> index + 1, open addressing */
	size_t hsize;
	struct rp_cpu *cpus;
	size_t ncpus;			/* highest cpu seen + 1 (<= TL_MAX_CPUS) */
	unsigned long long lines, events, headers, invalid;
	unsigned long long frames;	/* " => sym" lines of kernel stacks */
	unsigned long long out_of_range;	/* of invalid: bad CPU, pid... */
	unsigned long long lost, lost_records;
	unsigned long long bad_switch;	/* unparsable sched_switch/wakeup */
	unsigned long long mismatched;	/* switch-out of unexpected task */
	bool have_ts;
	unsigned long long first_ts, last_ts;
};

void report_init(struct report *r);
void report_free(struct report *r);
void report_feed(struct report *r, const struct tl_line *tl);
void report_feed_line(struct report *r, const char *line);
const struct rp_task *report_task(const struct report *r, int pid);
/* sort tasks by time on CPU (desc), then switches in (desc), then pid */
void report_sort(struct report *r);
/* top == 0: all tasks */
void report_print(const struct report *r, FILE *out, const char *title,
		  size_t top);

#endif

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * trace.dat files (trace-cmd's format: trace-cmd.dat.v7(5) written, v6
 * and v7 read), written from a control directory's format files and the
 * raw pages of per_cpu/cpuN/trace_pipe_raw, and read back for "kmark
 * report". No exit(): every error is returned with a message.
 */
#ifndef KMARK_DATFILE_H
#define KMARK_DATFILE_H

#include <stdbool.h>
#include <stddef.h>

#include "evfmt.h"
#include "recplan.h"

#define DAT_MAGIC	"\027\010\104tracing"
#define DAT_MAGIC_LEN	10

/* one CPU's pages: up to two pieces of fd, oldest first */
struct dat_cpu {
	int fd;
	struct seg seg[2];
	unsigned int nseg;
	/* events lost before its first page (-m): that page is marked */
	unsigned long long lost;
};

struct dat_info {
	unsigned int ncpus;
	unsigned int nformats;		/* event format files written */
	unsigned long long pages;
	bool counted;			/* the records were counted: */
	unsigned long long events;	/* records, */
	unsigned long long *cpu_events;	/* per CPU (malloc'd) */
	unsigned long long lost;	/* counted lost events */
	unsigned long long lost_unknown;	/* pages with an unknown count */
	unsigned long long bad_pages;	/* pages that did not parse */
	unsigned int ncmdlines;
};

struct dat_write_args {
	const char *dir;	/* events/ and trace_clock (the instance's) */
	const char *top;	/* saved_cmdlines and saved_comms */
	int out;
	const struct dat_cpu *cpu;	/* the pages of each CPU */
	unsigned int ncpus;
	unsigned int first;	/* the CPU whose pages come first */
	/*
	 * out already holds CPU first's pages at offset page_size (its
	 * dat_cpu: fd out, one piece there): the rest is written around
	 * them, with pwrite(). Else out is written in order (a FIFO too).
	 */
	bool in_place;
	bool count;		/* count every CPU's records (reads the pages) */
	char *const *cpustats;	/* per_cpu/cpuN/stats texts, or NULL */
};

/*
 * Write a trace.dat, version 7 (trace-cmd.dat.v7(5)): the first page
 * holds the initial header and the flyrecord section's header; each CPU's
 * pages follow, page aligned (dat_plan()), then the metadata: the headers
 * and every event format of dir/events/SYS/NAME/ (system SYS), no kallsyms
 * or printk formats, the saved cmdlines (top's saved_cmdlines alone when
 * top's saved_comms says it is complete, without reading the pages; else
 * pid and comm of the records first: common_pid/common_comm or
 * common_comm_id and saved_comms, FOO_pid/FOO_comm field pairs), then the
 * options (the trace clock of dir/trace_clock, the CPU count, each CPU's
 * stats, the buffer: where each CPU's pages are). 0, or -1 with a
 * message in err; info is filled either way (dat_info_free()).
 */
int dat_write(const struct dat_write_args *a, struct dat_info *info,
	      char *err, size_t errlen);
void dat_info_free(struct dat_info *info);

/* a trace.dat opened for reading */
struct dat_file {
	const unsigned char *map;
	size_t size;
	char version[8];
	unsigned int long_size;
	struct ef_header hdr;
	struct ef_event *events;
	size_t nevents;
	struct dat_cmdline {
		int pid;
		char comm[64];
	} *cmdlines;
	size_t ncmdlines;
	unsigned int ncpus;
	char clock[32];
	struct {
		unsigned long long offset, size;
	} *cpu;
};

/* true when the first bytes are the trace.dat magic */
bool dat_is_dat(const void *buf, size_t len);
/* 0, or -1 with a message in err */
int dat_open(const char *path, struct dat_file *df, char *err, size_t errlen);
void dat_close(struct dat_file *df);

/* one record, or a lost-events marker (ev NULL, lost > 0) */
struct dat_rec {
	int cpu;
	unsigned long long ts;
	const struct ef_event *ev;	/* NULL: unknown id, or lost marker */
	unsigned int id;
	const unsigned char *data;
	size_t len;
	unsigned long long lost;	/* marker: events lost (~0: unknown) */
};

/*
 * Call cb for every record of every CPU in timestamp order (a lost
 * marker precedes the first record after the loss). Stops when cb
 * returns non-zero and returns that value; -1 with err when a page is
 * corrupt.
 */
int dat_each(const struct dat_file *df,
	     int (*cb)(const struct dat_rec *r, void *arg), void *arg,
	     char *err, size_t errlen);

/*
 * The record as a trace file line (without newline), like the kernel's
 * "trace" file: "COMM-PID [CPU] FLAGS SECS.USECS: NAME: TEXT"; task name
 * from common_comm when the event has it, else from the saved cmdlines.
 * Lost markers give "CPU:N [LOST M EVENTS]".
 */
void dat_line(const struct dat_file *df, const struct dat_rec *r,
	      struct ef_buf *out);
/* task name and pid of a record ("<idle>" for pid 0) */
void dat_task(const struct dat_file *df, const struct dat_rec *r,
	      char *comm, size_t size, int *pid);

#endif

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kmark record's readers: a thread per CPU moves whole pages from
 * per_cpu/cpuN/trace_pipe_raw into a file of its own (recorder.c).
 */
#ifndef KMARK_RECORDER_H
#define KMARK_RECORDER_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>

#include "datfile.h"
#include "recplan.h"

struct recorder;

struct rec_cpu {
	struct recorder *rec;
	unsigned int cpu;
	int in;			/* trace_pipe_raw (O_NONBLOCK); -1: none */
	int out;		/* the CPU's file */
	char *path;		/* its name */
	int pipe[2];		/* splice()'s pipe */
	size_t pipe_bytes;	/* its size, whole pages */
	unsigned int page_size;
	unsigned long long base;	/* the file's data start (a page) */
	struct rot rot;		/* where the pages go in it */
	unsigned long long bytes;	/* written (atomic: the progress line) */
	unsigned char *buf;	/* read() pages, not yet written */
	size_t buf_bytes, fill;
	bool use_read;		/* read(), not splice() */
	bool woken;		/* poll() said there is data */
	bool eof, partial;	/* end of file (a regular file), mid-page */
	int err;		/* the first error, and what failed */
	const char *what;
	pthread_t thread;
	bool started;
};

struct recorder {
	unsigned int ncpus, page_size;
	unsigned int commit_size, data_offset;	/* of a page's header */
	struct rec_cpu *cpu;
	int stop[2];		/* written once: the threads drain and end */
	int done[2];		/* a byte from each thread that ended */
	bool stopping;		/* read by the threads */
	bool stopped;		/* rec_stop() ran */
	unsigned int finished;	/* threads that ended (main thread's) */
};

/*
 * Open trace_pipe_raw of every CPU in the directory per_cpu (pages laid
 * out as h says: events/header_page), and a file
 * per CPU named after out_path (OUT.cpuN.XXXXXX). max_bytes: -m (0: none).
 * use_splice: splice() the full pages (read() where there is none).
 * 0, or an exit code after saying why.
 */
int rec_open(struct recorder *r, const char *per_cpu, const char *out_path,
	     const struct ef_header *h, unsigned long long max_bytes,
	     bool use_splice);
/* start the threads; 0 or an exit code */
int rec_start(struct recorder *r);
/*
 * Wait until deadline (a mono_now() time; 0: none), a stop signal, every
 * CPU at its end of file, or a CPU's failure (exit code 1); with tick > 0,
 * call progress every tick seconds.
 */
int rec_wait(struct recorder *r, double deadline, double tick,
	     void (*progress)(struct recorder *r, void *arg), void *arg);
/*
 * The threads take what is left (full pages, then the page being
 * written) and end; their errors are printed. 0 or an exit code.
 */
int rec_stop(struct recorder *r);
/*
 * A CPU's recording as trace.dat's writer reads it (dat_write()): its
 * file and the parts of it that hold pages, in order; nothing lost.
 */
void rec_dat_cpu(const struct rec_cpu *c, struct dat_cpu *d);
/* bytes written for a CPU so far */
unsigned long long rec_bytes(const struct rec_cpu *c);
/* close everything, remove the CPU files but keep_cpu's (-1: none) */
void rec_close(struct recorder *r, int keep_cpu);

#endif

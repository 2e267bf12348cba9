// SPDX-License-Identifier: GPL-2.0
/*
 * The recorder of "kmark record -o FILE.dat": a thread per CPU moves the
 * pages of per_cpu/cpuN/trace_pipe_raw into a file of its own, with no
 * look at what they hold:
 *
 *   poll(trace_pipe_raw, stop)     woken at buffer_percent, or to stop
 *   read() page after page         into a buffer of up to 1 MiB, until
 *                                  there is nothing (EAGAIN)
 *   pwrite() of the buffer         when full, and before each sleep
 *
 * so no CPU's pages wait behind another's, and nothing waits longer than
 * the kernel's wake-up (buffer_percent). With --splice, the full pages go
 * through a pipe instead (splice() from trace_pipe_raw, which hands them
 * over without a copy, then splice() into the file, which copies them into
 * the page cache) and the page being written is read() at the end. On the
 * file systems measured (make bench: the guest's ramfs) read() and a
 * large write() are the faster: a splice into a file costs a pipe buffer,
 * a page allocated for the ring buffer and freed again, and the kernel's
 * iter_file_splice_write() for each page. Each CPU file keeps its first
 * page free: the largest one becomes the trace.dat, the header written
 * there and the other CPUs' pages copied after its own (datfile.c). With
 * -m, a CPU file is a ring of whole pages (recplan.c).
 *
 * A regular file in place of trace_pipe_raw (the host tests' fake control
 * directory) ends with end of file; the kernel's never does.
 */
#define _GNU_SOURCE		/* splice(), F_SETPIPE_SZ, ppoll() */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "kmark.h"
#include "recorder.h"
#include "strlist.h"

/* the pipe of a CPU: up to 1 MiB of pages per splice */
#define REC_PIPE_BYTES	(1 << 20)
/* the buffer of read() pages */
#define REC_BUF_BYTES	(1 << 20)

/* highest N of per_cpu/cpuN + 1; 0 when there is none */
static unsigned int count_cpus(const char *per_cpu)
{
	DIR *d = opendir(per_cpu);
	struct dirent *de;
	unsigned int n = 0;

	if (!d)
		return 0;
	while ((de = readdir(d))) {
		unsigned long cpu;

		if (strncmp(de->d_name, "cpu", 3) ||
		    !parse_ulong(de->d_name + 3, &cpu) || cpu >= 8192)
			continue;
		if (cpu + 1 > n)
			n = (unsigned int)cpu + 1;
	}
	closedir(d);
	return n;
}

static void set_error(struct rec_cpu *c, int err, const char *what)
{
	if (!c->err) {
		c->err = err ? err : EIO;
		c->what = what;
	}
}

/* write n bytes of c's pipe into its file, the ring's way (-m) */
static int drain_pipe(struct rec_cpu *c, size_t n)
{
	while (n) {
		size_t room = rot_room(&c->rot, n);
		loff_t off = (loff_t)(c->base + c->rot.head);
		ssize_t w = splice(c->pipe[0], NULL, c->out, &off, room,
				   SPLICE_F_MOVE);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			set_error(c, w < 0 ? errno : ENOSPC, "writing its file");
			return -1;
		}
		rot_advance(&c->rot, (size_t)w);
		__atomic_add_fetch(&c->bytes, (unsigned long long)w,
				   __ATOMIC_RELAXED);
		n -= (size_t)w;
	}
	return 0;
}

/* write the whole pages of the buffer (read() pages) */
static int flush(struct rec_cpu *c)
{
	size_t whole = c->fill - c->fill % c->page_size, done = 0;

	while (done < whole) {
		size_t room = rot_room(&c->rot, whole - done);
		ssize_t w = pwrite(c->out, c->buf + done, room,
				   (off_t)(c->base + c->rot.head));

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			set_error(c, w < 0 ? errno : ENOSPC, "writing its file");
			return -1;
		}
		rot_advance(&c->rot, (size_t)w);
		__atomic_add_fetch(&c->bytes, (unsigned long long)w,
				   __ATOMIC_RELAXED);
		done += (size_t)w;
	}
	memmove(c->buf, c->buf + whole, c->fill - whole);
	c->fill -= whole;
	return 0;
}

/*
 * Splice the full pages there are (until EAGAIN). Returns the bytes moved,
 * or -1 on an error; c->use_read when this file has no splice.
 */
static long long splice_pages(struct rec_cpu *c)
{
	long long moved = 0;

	while (!c->use_read && !c->eof) {
		ssize_t n = splice(c->in, NULL, c->pipe[1], NULL,
				   c->pipe_bytes, SPLICE_F_MOVE |
				   SPLICE_F_NONBLOCK);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && errno == EAGAIN)
			break;
		if (n < 0 && (errno == EINVAL || errno == ENOSYS)) {
			if (moved)
				break;	/* a read() began a page: later */
			c->use_read = true;	/* no splice here */
			break;
		}
		if (n < 0) {
			set_error(c, errno, "splice() from trace_pipe_raw");
			return -1;
		}
		if (n == 0)
			break;		/* end of file, or nothing full */
		if (drain_pipe(c, (size_t)n))
			return -1;
		moved += n;
	}
	return moved;
}

/*
 * Whether the page at @p is less than half full: the kernel hands out a
 * part-filled page only when its reader caught up with the writer (the
 * page being written). Its commit field, less the flags of its top two
 * bits (RB_MISSED_EVENTS, RB_MISSED_STORED), says how many bytes it holds.
 */
static bool page_short(const struct rec_cpu *c, const unsigned char *p)
{
	unsigned long long commit = 0;
	unsigned int cap = c->page_size - c->rec->data_offset;

	memcpy(&commit, p + 8, c->rec->commit_size);	/* host order */
	if (c->rec->commit_size == 4)
		commit &= 0xffffffffULL;
	commit &= (1ULL << 30) - 1;
	return commit < cap / 2;
}

/*
 * read() pages into the buffer, written out when it is full: one page
 * (@all false) or all there are, until one that is less than half full
 * (@all, not @stopping: the reader caught up with a writer that is still
 * writing; reading on would take its page a few events at a time, a page
 * each, as fast as it writes them: poll() waits for buffer_percent
 * instead). 1 when a page came, 0 when none (EAGAIN, end of file), -1 on
 * an error.
 */
static int read_pages(struct rec_cpu *c, bool all, bool stopping)
{
	int got = 0;

	while (!c->eof) {
		size_t part = c->fill % c->page_size;
		ssize_t n;

		if (c->fill + c->page_size - part > c->buf_bytes &&
		    flush(c))
			return -1;
		n = read(c->in, c->buf + c->fill, c->page_size - part);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && errno == EAGAIN)
			break;
		if (n < 0) {
			set_error(c, errno, "reading trace_pipe_raw");
			return -1;
		}
		if (n == 0) {
			/* end of file; a partial page at the end is dropped */
			if (part)
				c->partial = true;
			c->eof = true;
			break;
		}
		c->fill += (size_t)n;
		if (c->fill % c->page_size)
			continue;
		got = 1;
		if (!all || (!stopping &&
			     page_short(c, c->buf + c->fill - c->page_size)))
			break;
	}
	return got;
}

static void *cpu_thread(void *arg)
{
	struct rec_cpu *c = arg;
	struct recorder *r = c->rec;
	bool stopping = false;
	char one = 1;

	while (!c->err && !c->eof) {
		struct pollfd p[2] = {
			{ .fd = c->in, .events = POLLIN },
			{ .fd = r->stop[0], .events = POLLIN },
		};
		long long moved = 0;

		stopping = __atomic_load_n(&r->stopping, __ATOMIC_ACQUIRE);
		if (!c->use_read)
			moved = splice_pages(c);
		if (moved < 0)
			break;
		/*
		 * read(): every page there is. splice(): the full pages went
		 * above; the page being written is read at the end, or when
		 * woken with no full page (buffer_percent 0), or poll() would
		 * wake at once again.
		 */
		if ((c->use_read || stopping || (!moved && c->woken)) &&
		    read_pages(c, c->use_read || stopping, stopping) < 0)
			break;
		if (flush(c))
			break;
		if (stopping || c->eof)
			break;
		c->woken = false;
		if (poll(p, 2, -1) < 0 && errno != EINTR) {
			set_error(c, errno, "poll() of trace_pipe_raw");
			break;
		}
		c->woken = p[0].revents != 0;
	}
	/* tell the main thread (it may be waiting for every CPU's end) */
	if (write(r->done[1], &one, 1) < 0)
		set_error(c, errno, "its end");
	return NULL;
}

/* the process's umask (there is no call that only reads it) */
static mode_t umask_now(void)
{
	mode_t m = umask(022);

	umask(m);
	return m;
}

static int tmp_file(const char *out_path, unsigned int cpu, char **path)
{
	size_t len = strlen(out_path) + 32;
	char *tmpl = xmalloc(len);
	int fd;

	snprintf(tmpl, len, "%s.cpu%u.XXXXXX", out_path, cpu);
	fd = mkstemp(tmpl);
	if (fd < 0) {
		info("cannot create a temporary file %s: %s", tmpl,
		     strerror(errno));
		free(tmpl);
		return -1;
	}
	/* one of them becomes FILE: the mode open(O_CREAT, 0666) gives */
	if (fchmod(fd, 0666 & ~umask_now()))
		warning("cannot set the mode of %s: %s", tmpl, strerror(errno));
	*path = tmpl;
	return fd;
}

int rec_open(struct recorder *r, const char *per_cpu, const char *out_path,
	     const struct ef_header *h, unsigned long long max_bytes,
	     bool use_splice)
{
	unsigned int cpu, nopen = 0, page_size = h->page_size;
	char path[64];

	memset(r, 0, sizeof(*r));
	r->stop[0] = r->stop[1] = r->done[0] = r->done[1] = -1;
	r->page_size = page_size;
	r->commit_size = h->commit_size;
	r->data_offset = h->data_offset;
	r->ncpus = count_cpus(per_cpu);
	if (!r->ncpus) {
		info("no per_cpu/cpuN directories in %s", per_cpu);
		return KM_EXIT_ERROR;
	}
	r->cpu = xmalloc(r->ncpus * sizeof(*r->cpu));
	memset(r->cpu, 0, r->ncpus * sizeof(*r->cpu));
	for (cpu = 0; cpu < r->ncpus; cpu++) {
		struct rec_cpu *c = &r->cpu[cpu];

		c->rec = r;
		c->cpu = cpu;
		c->in = c->out = c->pipe[0] = c->pipe[1] = -1;
		c->page_size = page_size;
		c->base = page_size;	/* the trace.dat's first page */
		c->use_read = !use_splice;
		rot_init(&c->rot, max_bytes, page_size);
	}
	if (pipe2(r->stop, O_CLOEXEC) || pipe2(r->done, O_CLOEXEC)) {
		info("pipe: %s", strerror(errno));
		return KM_EXIT_ERROR;
	}
	for (cpu = 0; cpu < r->ncpus; cpu++) {
		struct rec_cpu *c = &r->cpu[cpu];
		char *p;

		snprintf(path, sizeof(path), "/cpu%u/trace_pipe_raw", cpu);
		p = xmalloc(strlen(per_cpu) + strlen(path) + 1);
		sprintf(p, "%s%s", per_cpu, path);
		c->in = open(p, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
		if (c->in < 0 && errno != ENOENT) {
			info("cannot open %s: %s", p, strerror(errno));
			free(p);
			return KM_EXIT_ERROR;
		}
		free(p);
		c->out = tmp_file(out_path, cpu, &c->path);
		if (c->out < 0)
			return KM_EXIT_ERROR;
		if (c->in < 0) {
			c->eof = true;	/* a CPU that cannot be there */
			continue;
		}
		nopen++;
		c->buf_bytes = REC_BUF_BYTES - REC_BUF_BYTES % page_size;
		if (c->buf_bytes < page_size)
			c->buf_bytes = page_size;
		c->buf = xmalloc(c->buf_bytes);
		if (!use_splice)
			continue;
		if (pipe2(c->pipe, O_CLOEXEC)) {
			info("pipe: %s", strerror(errno));
			return KM_EXIT_ERROR;
		}
		/* up to 1 MiB; the default (16 pages) where that is refused */
		c->pipe_bytes = (size_t)fcntl(c->pipe[1], F_SETPIPE_SZ,
					       REC_PIPE_BYTES);
		if ((long)c->pipe_bytes < (long)page_size)
			c->pipe_bytes = (size_t)fcntl(c->pipe[1], F_GETPIPE_SZ);
		if ((long)c->pipe_bytes < (long)page_size)
			c->pipe_bytes = 16 * (size_t)page_size;
		c->pipe_bytes -= c->pipe_bytes % page_size;
	}
	if (!nopen) {
		info("no per_cpu/cpuN/trace_pipe_raw in %s (a kmark without the binary format?)",
		     per_cpu);
		return KM_EXIT_ERROR;
	}
	return KM_EXIT_OK;
}

int rec_start(struct recorder *r)
{
	unsigned int cpu;
	int e;

	for (cpu = 0; cpu < r->ncpus; cpu++) {
		struct rec_cpu *c = &r->cpu[cpu];

		if (c->in < 0) {
			r->finished++;
			continue;
		}
		e = pthread_create(&c->thread, NULL, cpu_thread, c);
		if (e) {
			info("cannot start a reader for CPU %u: %s", cpu,
			     strerror(e));
			return KM_EXIT_ERROR;
		}
		c->started = true;
	}
	return KM_EXIT_OK;
}

int rec_wait(struct recorder *r, double deadline, double tick,
	     void (*progress)(struct recorder *r, void *arg), void *arg)
{
	while (!kmark_stop && r->finished < r->ncpus) {
		struct pollfd p = { .fd = r->done[0], .events = POLLIN };
		double until = tick > 0 ? mono_now() + tick : 0;
		int n;

		if (deadline > 0 && (!until || deadline < until))
			until = deadline;
		if (deadline > 0 && mono_now() >= deadline)
			break;
		n = stop_poll(&p, 1, until);
		if (n < 0 && errno != EINTR) {
			info("poll: %s", strerror(errno));
			return KM_EXIT_ERROR;
		}
		if (n > 0) {
			char buf[64];
			ssize_t got = read(r->done[0], buf, sizeof(buf));
			unsigned int cpu;

			if (got > 0)
				r->finished += (unsigned int)got;
			/* a CPU that failed ends the recording */
			for (cpu = 0; cpu < r->ncpus; cpu++)
				if (r->cpu[cpu].err)
					return KM_EXIT_ERROR;
		}
		if (progress && tick > 0)
			progress(r, arg);
	}
	return KM_EXIT_OK;
}

int rec_stop(struct recorder *r)
{
	unsigned int cpu;
	char one = 1;
	int ret = KM_EXIT_OK;

	if (r->stopped)
		return KM_EXIT_OK;
	r->stopped = true;
	__atomic_store_n(&r->stopping, true, __ATOMIC_RELEASE);
	if (write(r->stop[1], &one, 1) < 0)
		ret = KM_EXIT_ERROR;	/* cannot happen: an empty pipe */
	for (cpu = 0; cpu < r->ncpus; cpu++) {
		struct rec_cpu *c = &r->cpu[cpu];

		if (!c->started)
			continue;
		pthread_join(c->thread, NULL);
		c->started = false;
		if (c->err) {
			info("CPU %u: %s: %s", cpu, c->what, strerror(c->err));
			ret = KM_EXIT_ERROR;
		}
		if (c->partial)
			warning("per_cpu/cpu%u/trace_pipe_raw ended in the middle of a page",
				cpu);
	}
	return ret;
}

void rec_dat_cpu(const struct rec_cpu *c, struct dat_cpu *d)
{
	struct seg seg[2];
	unsigned int i;

	d->fd = c->out;
	d->nseg = rot_segments(&c->rot, seg);
	for (i = 0; i < d->nseg; i++) {
		d->seg[i].off = c->base + seg[i].off;
		d->seg[i].len = seg[i].len;
	}
	d->lost = 0;
}

unsigned long long rec_bytes(const struct rec_cpu *c)
{
	return __atomic_load_n(&c->bytes, __ATOMIC_RELAXED);
}

void rec_close(struct recorder *r, int keep_cpu)
{
	unsigned int cpu;

	if (r->cpu && r->stop[1] >= 0)
		rec_stop(r);
	for (cpu = 0; r->cpu && cpu < r->ncpus; cpu++) {
		struct rec_cpu *c = &r->cpu[cpu];

		if (c->in >= 0)
			close(c->in);
		if (c->out >= 0)
			close(c->out);
		if (c->pipe[0] >= 0)
			close(c->pipe[0]);
		if (c->pipe[1] >= 0)
			close(c->pipe[1]);
		if (c->path && (int)cpu != keep_cpu)
			unlink(c->path);
		free(c->path);
		free(c->buf);
	}
	if (r->stop[0] >= 0)
		close(r->stop[0]);
	if (r->stop[1] >= 0)
		close(r->stop[1]);
	if (r->done[0] >= 0)
		close(r->done[0]);
	if (r->done[1] >= 0)
		close(r->done[1]);
	free(r->cpu);
	memset(r, 0, sizeof(*r));
	r->stop[0] = r->stop[1] = r->done[0] = r->done[1] = -1;
}

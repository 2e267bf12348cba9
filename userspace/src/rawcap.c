// SPDX-License-Identifier: GPL-2.0
/*
 * Reading per_cpu/cpuN/trace_pipe_raw the way trace-cmd's recorder does:
 * every CPU's file opened with O_NONBLOCK, poll() for data, read whole
 * pages; when the recording ends, read what is left until EAGAIN. Pages
 * go to one unlinked temporary file per CPU (a trace.dat keeps each
 * CPU's pages together, so they cannot be written as they come).
 *
 * A regular file (the host tests' fake control directory) ends with
 * end of file; the kernel's file never returns 0 for a non-empty read.
 */
#define _GNU_SOURCE		/* ppoll() via stop_poll() */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "datfile.h"
#include "kmark.h"
#include "strlist.h"

/* pause between two rounds of reads */
#define RAWCAP_PAUSE_S	0.1

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

static int tmp_file(const char *out_path, unsigned int cpu)
{
	size_t len = strlen(out_path) + 32;
	char *tmpl = xmalloc(len);
	int fd, e;

	snprintf(tmpl, len, "%s.cpu%u.XXXXXX", out_path, cpu);
	fd = mkstemp(tmpl);
	e = errno;
	if (fd >= 0)
		unlink(tmpl);
	else
		info("cannot create a temporary file %s: %s", tmpl,
		     strerror(e));
	free(tmpl);
	return fd;
}

int rawcap_open(struct rawcap *rc, const char *out_path,
		unsigned int page_size)
{
	char *per_cpu = ctl_path("per_cpu"), path[64];
	unsigned int cpu, nopen = 0;

	memset(rc, 0, sizeof(*rc));
	rc->page_size = page_size;
	rc->ncpus = count_cpus(per_cpu);
	if (!rc->ncpus) {
		info("no per_cpu/cpuN directories in %s", ctl_dir());
		free(per_cpu);
		return KM_EXIT_ERROR;
	}
	rc->in = xmalloc(rc->ncpus * sizeof(*rc->in));
	rc->out = xmalloc(rc->ncpus * sizeof(*rc->out));
	rc->buf = xmalloc(rc->ncpus * sizeof(*rc->buf));
	rc->fill = xmalloc(rc->ncpus * sizeof(*rc->fill));
	for (cpu = 0; cpu < rc->ncpus; cpu++) {
		rc->in[cpu] = -1;
		rc->out[cpu].fd = -1;
		rc->out[cpu].size = 0;
		rc->buf[cpu] = NULL;
		rc->fill[cpu] = 0;
	}
	for (cpu = 0; cpu < rc->ncpus; cpu++) {
		char *p;

		snprintf(path, sizeof(path), "cpu%u/trace_pipe_raw", cpu);
		p = xmalloc(strlen(per_cpu) + strlen(path) + 2);
		sprintf(p, "%s/%s", per_cpu, path);
		rc->in[cpu] = open(p, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
		if (rc->in[cpu] < 0 && errno != ENOENT) {
			info("cannot open %s: %s", p, strerror(errno));
			free(p);
			free(per_cpu);
			return KM_EXIT_ERROR;
		}
		free(p);
		rc->out[cpu].fd = tmp_file(out_path, cpu);
		if (rc->out[cpu].fd < 0) {
			free(per_cpu);
			return KM_EXIT_ERROR;
		}
		rc->buf[cpu] = xmalloc(page_size);
		nopen += rc->in[cpu] >= 0;
	}
	if (!nopen) {
		info("no per_cpu/cpuN/trace_pipe_raw in %s (a kmark without the binary format?)",
		     ctl_dir());
		free(per_cpu);
		return KM_EXIT_ERROR;
	}
	free(per_cpu);
	return KM_EXIT_OK;
}

/* append the finished page of cpu to its temporary file */
static int save_page(struct rawcap *rc, unsigned int cpu)
{
	const unsigned char *p = rc->buf[cpu];
	size_t left = rc->page_size;

	while (left) {
		ssize_t n = write(rc->out[cpu].fd, p, left);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			info("cannot write a temporary file: %s",
			     n < 0 ? strerror(errno) : "no space");
			return KM_EXIT_ERROR;
		}
		p += n;
		left -= (size_t)n;
	}
	rc->out[cpu].size += rc->page_size;
	rc->fill[cpu] = 0;
	rc->pages++;
	return KM_EXIT_OK;
}

/* read from cpu's file until it has nothing (EAGAIN); 0 or an exit code */
/*
 * Whether the page in rc->buf[cpu] is nearly full: the kernel hands out the
 * page being written with whatever it holds, so a reader that reads again
 * at once gets pages of a few events each (and its own reading makes more
 * events). Less than 1/4 free counts as full.
 */
static bool page_full(const struct rawcap *rc, unsigned int cpu)
{
	size_t hdr = 8 + sizeof(long), cap = rc->page_size - hdr;
	unsigned long commit;

	memcpy(&commit, rc->buf[cpu] + 8, sizeof(commit));
	commit &= ~(3UL << 30);		/* RB_MISSED_EVENTS, RB_MISSED_STORED */
	return commit >= cap - cap / 4;
}

/*
 * Read pages of @cpu: all there are when @drain, else until a page that is
 * not full (the rest waits for the next round, so that pages fill up).
 */
static int read_cpu(struct rawcap *rc, unsigned int cpu, bool drain)
{
	for (;;) {
		ssize_t n = read(rc->in[cpu], rc->buf[cpu] + rc->fill[cpu],
				 rc->page_size - rc->fill[cpu]);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && errno == EAGAIN)
			return KM_EXIT_OK;
		if (n < 0) {
			info("cannot read per_cpu/cpu%u/trace_pipe_raw: %s",
			     cpu, strerror(errno));
			return KM_EXIT_ERROR;
		}
		if (n == 0) {
			/* end of file; a partial page at the end is dropped */
			if (rc->fill[cpu])
				warning("per_cpu/cpu%u/trace_pipe_raw ended in the middle of a page",
					cpu);
			close(rc->in[cpu]);
			rc->in[cpu] = -1;
			return KM_EXIT_OK;
		}
		rc->fill[cpu] += (size_t)n;
		if (rc->fill[cpu] == rc->page_size) {
			bool full = page_full(rc, cpu);

			rc->full_pages += full;
			if (save_page(rc, cpu))
				return KM_EXIT_ERROR;
			if (!drain && !full)
				return KM_EXIT_OK;
		}
	}
}

int rawcap_run(struct rawcap *rc, double seconds)
{
	struct pollfd *pfd = xmalloc(rc->ncpus * sizeof(*pfd));
	unsigned int *which = xmalloc(rc->ncpus * sizeof(*which));
	double deadline = seconds > 0 ? mono_now() + seconds : 0;
	unsigned long long full_before;
	double pause_until;
	int ret = KM_EXIT_OK;

	while (!kmark_stop && !ret) {
		unsigned int cpu, n = 0, i;
		int r;

		if (deadline > 0 && mono_now() >= deadline)
			break;
		for (cpu = 0; cpu < rc->ncpus; cpu++) {
			if (rc->in[cpu] < 0)
				continue;
			pfd[n].fd = rc->in[cpu];
			pfd[n].events = POLLIN;
			pfd[n].revents = 0;
			which[n++] = cpu;
		}
		if (!n)
			break;		/* every CPU at end of file */
		r = stop_poll(pfd, n, deadline);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			info("poll: %s", strerror(errno));
			ret = KM_EXIT_ERROR;
			break;
		}
		full_before = rc->full_pages;
		for (i = 0; i < n && !ret; i++)
			if (pfd[i].revents)
				ret = read_cpu(rc, which[i], false);
		for (i = 0; i < rc->ncpus && rc->in[i] < 0; i++)
			;
		if (i == rc->ncpus)
			break;		/* every CPU at end of file */
		/*
		 * The kernel hands out the page being written as soon as it
		 * holds one event: after a round that found no full page (a
		 * trickle, or buffer_percent 0), a pause lets pages fill up
		 * (trace-cmd's recorder sleeps between reads too). After a
		 * round that did, events come faster than the pause would
		 * allow (a 1 MiB buffer fills in milliseconds in a flood):
		 * back to poll(), which waits for buffer_percent.
		 */
		if (rc->full_pages != full_before)
			continue;
		pause_until = mono_now() + RAWCAP_PAUSE_S;
		if (!ret && (deadline <= 0 || pause_until < deadline))
			stop_poll(NULL, 0, pause_until);
	}
	free(pfd);
	free(which);
	return ret;
}

int rawcap_drain(struct rawcap *rc)
{
	unsigned int cpu;
	int ret = KM_EXIT_OK;

	for (cpu = 0; cpu < rc->ncpus && !ret; cpu++)
		if (rc->in[cpu] >= 0)
			ret = read_cpu(rc, cpu, true);
	return ret;
}

void rawcap_close(struct rawcap *rc)
{
	unsigned int cpu;

	for (cpu = 0; cpu < rc->ncpus; cpu++) {
		if (rc->in && rc->in[cpu] >= 0)
			close(rc->in[cpu]);
		if (rc->out && rc->out[cpu].fd >= 0)
			close(rc->out[cpu].fd);
		if (rc->buf)
			free(rc->buf[cpu]);
	}
	free(rc->in);
	free(rc->out);
	free(rc->buf);
	free(rc->fill);
	memset(rc, 0, sizeof(*rc));
}

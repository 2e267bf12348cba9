// SPDX-License-Identifier: GPL-2.0
/*
 * Line reader for trace_pipe with a deadline and clean SIGINT handling.
 *
 * The stop signals (SIGINT, SIGTERM) are blocked except inside ppoll(),
 * which unblocks them atomically for the wait: a signal arriving after
 * the loop's "should I stop?" check stays pending and interrupts the
 * wait, instead of being handled just before poll() and then lost until
 * the next event arrives.
 */
#define _GNU_SOURCE		/* ppoll() in glibc < 2.38 */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "kmark.h"
#include "strlist.h"

volatile sig_atomic_t kmark_stop;
static sigset_t wait_mask;	/* the mask inside ppoll() */
static bool have_wait_mask;

static void on_signal(int sig)
{
	(void)sig;
	kmark_stop = 1;
}

void install_stop_handlers(void)
{
	struct sigaction sa;
	sigset_t stop;

	sigemptyset(&stop);
	sigaddset(&stop, SIGINT);
	sigaddset(&stop, SIGTERM);
	/* blocked from now on, but for the waits in read_lines() */
	sigprocmask(SIG_BLOCK, &stop, &wait_mask);
	sigdelset(&wait_mask, SIGINT);
	sigdelset(&wait_mask, SIGTERM);
	have_wait_mask = true;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sa.sa_flags = 0;	/* no SA_RESTART (ppoll() returns EINTR anyway) */
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
}

double mono_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int stop_poll(struct pollfd *pfd, unsigned int n, double deadline)
{
	struct timespec ts, *timeout = NULL;

	if (deadline > 0) {
		double left = deadline - mono_now();

		if (left <= 0)
			return 0;
		if (left > 86400)	/* keeps the conversion defined */
			left = 86400;	/* the caller rechecks the deadline */
		ts.tv_sec = (time_t)left;
		ts.tv_nsec = (long)((left - (double)ts.tv_sec) * 1e9);
		timeout = &ts;
	}
	return ppoll(pfd, n, timeout, have_wait_mask ? &wait_mask : NULL);
}

int read_lines(int fd, double seconds, int (*cb)(char *line, void *arg),
	       void *arg)
{
	size_t alloc = 65536, len = 0;
	char *buf = xmalloc(alloc);
	double deadline = seconds > 0 ? mono_now() + seconds : 0;
	int ret = 0, stop = 0;
	bool warned = false;

	while (!stop && !kmark_stop) {
		struct pollfd pfd = { .fd = fd, .events = POLLIN };
		struct timespec ts, *timeout = NULL;
		ssize_t r, i;
		char *p, *nl;
		int n;

		if (deadline > 0) {
			double left = deadline - mono_now();

			if (left <= 0)
				break;
			if (left > 86400)	/* keeps the conversion defined */
				left = 86400;	/* the deadline is rechecked */
			ts.tv_sec = (time_t)left;
			ts.tv_nsec = (long)((left - (double)ts.tv_sec) * 1e9);
			timeout = &ts;
		}
		n = ppoll(&pfd, 1, timeout, have_wait_mask ? &wait_mask : NULL);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			ret = -errno;
			break;
		}
		if (n == 0)
			continue;	/* deadline re-checked above */

		if (alloc - len < 4096) {
			alloc *= 2;
			buf = xrealloc(buf, alloc);
		}
		r = read(fd, buf + len, alloc - len - 1);
		if (r < 0) {
			if (errno == EINTR || errno == EAGAIN)
				continue;
			ret = -errno;
			break;
		}
		if (r == 0) {
			/* EOF: regular file, or tracing was turned off */
			if (len) {
				buf[len] = '\0';
				cb(buf, arg);
				len = 0;
			}
			break;
		}
		/*
		 * A NUL would end the string early: the line splitter would
		 * never find the next newline and stop making progress.
		 */
		for (i = 0; i < r; i++) {
			if (buf[len + (size_t)i])
				continue;
			buf[len + (size_t)i] = '?';
			if (!warned) {
				warning("NUL byte(s) in the input, shown as '?'");
				warned = true;
			}
		}
		len += (size_t)r;
		buf[len] = '\0';
		p = buf;
		while (!stop && (nl = strchr(p, '\n'))) {
			*nl = '\0';
			stop = cb(p, arg);
			p = nl + 1;
		}
		len -= (size_t)(p - buf);
		memmove(buf, p, len);
	}
	free(buf);
	return ret;
}

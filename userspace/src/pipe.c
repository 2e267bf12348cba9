// SPDX-License-Identifier: GPL-2.0
/*
 * Line reader for trace_pipe with a deadline and clean SIGINT handling.
 */
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

static void on_signal(int sig)
{
	(void)sig;
	kmark_stop = 1;
}

void install_stop_handlers(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sa.sa_flags = 0;	/* no SA_RESTART: poll()/read() return EINTR */
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int read_lines(int fd, double seconds, int (*cb)(char *line, void *arg),
	       void *arg)
{
	size_t alloc = 65536, len = 0;
	char *buf = xmalloc(alloc);
	double deadline = seconds > 0 ? now() + seconds : 0;
	int ret = 0, stop = 0;

	while (!stop && !kmark_stop) {
		struct pollfd pfd = { .fd = fd, .events = POLLIN };
		int timeout = -1, n;
		ssize_t r;
		char *p, *nl;

		if (deadline > 0) {
			double left = deadline - now();

			if (left <= 0)
				break;
			timeout = (int)(left * 1000) + 1;
		}
		n = poll(&pfd, 1, timeout);
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

// SPDX-License-Identifier: GPL-2.0
/*
 * kmark-testprog: what the guest tests cannot do with busybox alone.
 *   pingpong N [PING PONG]
 *                     two processes, "kmping" and "kmpong" (or the names
 *                     given), pinned to CPU 0, N round trips over pipes;
 *                     prints "ping=PID pong=PID"
 *   pingpong-time N   the same, but prints the elapsed CLOCK_MONOTONIC ns
 *   nonblock FILE     read FILE with O_NONBLOCK; prints "EAGAIN", "data" or
 *                     the errno text
 *   poll FILE MS      poll FILE for input; prints "readable" or "timeout"
 *   drain FILE        read FILE with O_NONBLOCK until EAGAIN, to stdout
 *   sync N            call sync() N times
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static void pin0(void)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(0, &set);
	if (sched_setaffinity(0, sizeof(set), &set))
		perror("sched_setaffinity");
}

static int pingpong(int n, const char *ping, const char *pong, int timed)
{
	struct timespec t0, t1;
	int a[2], b[2], i;
	char c = 'x';
	pid_t child;

	if (pipe(a) || pipe(b))
		return perror("pipe"), 1;
	pin0();
	child = fork();
	if (child < 0)
		return perror("fork"), 1;
	if (child == 0) {
		prctl(PR_SET_NAME, pong);
		for (i = 0; i < n; i++) {
			if (read(a[0], &c, 1) != 1 || write(b[1], &c, 1) != 1)
				_exit(1);
		}
		_exit(0);
	}
	prctl(PR_SET_NAME, ping);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (i = 0; i < n; i++) {
		if (write(a[1], &c, 1) != 1 || read(b[0], &c, 1) != 1)
			return perror("pingpong"), 1;
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	waitpid(child, NULL, 0);
	if (timed)
		printf("%lld\n", (t1.tv_sec - t0.tv_sec) * 1000000000LL +
		       (t1.tv_nsec - t0.tv_nsec));
	else
		printf("ping=%d pong=%d\n", (int)getpid(), (int)child);
	return 0;
}

int main(int argc, char **argv)
{
	char buf[4096];
	ssize_t r;
	int fd;

	if (argc >= 3 && !strcmp(argv[1], "pingpong"))
		return pingpong(atoi(argv[2]), argc >= 5 ? argv[3] : "kmping",
				argc >= 5 ? argv[4] : "kmpong", 0);
	if (argc >= 3 && !strcmp(argv[1], "pingpong-time"))
		return pingpong(atoi(argv[2]), "kmping", "kmpong", 1);
	if (argc >= 3 && !strcmp(argv[1], "sync")) {
		for (int i = atoi(argv[2]); i > 0; i--)
			sync();
		return 0;
	}
	if (argc < 3) {
		fprintf(stderr, "usage: kmark-testprog pingpong N | nonblock FILE | poll FILE MS | drain FILE | sync N\n");
		return 2;
	}
	fd = open(argv[2], O_RDONLY | (strcmp(argv[1], "poll") ? O_NONBLOCK : 0));
	if (fd < 0)
		return perror(argv[2]), 1;
	if (!strcmp(argv[1], "nonblock")) {
		r = read(fd, buf, sizeof(buf));
		puts(r > 0 ? "data" : r == 0 ? "eof" :
		     errno == EAGAIN ? "EAGAIN" : strerror(errno));
		return 0;
	}
	if (!strcmp(argv[1], "poll") && argc >= 4) {
		struct pollfd p = { .fd = fd, .events = POLLIN };
		int n = poll(&p, 1, atoi(argv[3]));

		puts(n > 0 && (p.revents & POLLIN) ? "readable" : n == 0 ? "timeout" : "error");
		return 0;
	}
	if (!strcmp(argv[1], "drain")) {
		while ((r = read(fd, buf, sizeof(buf))) > 0)
			fwrite(buf, 1, r, stdout);
		return r < 0 && errno != EAGAIN;
	}
	return 2;
}

// SPDX-License-Identifier: GPL-2.0
/*
 * kmark-testprog: what the guest tests cannot do with busybox alone.
 *   pingpong N [PING PONG [CPU]]
 *                     two processes, "kmping" and "kmpong" (or the names
 *                     given), pinned to CPU 0 (or CPU), N round trips over
 *                     pipes; prints "ping=PID pong=PID"
 *   pingpong-time N   the same, but prints the elapsed CLOCK_MONOTONIC ns
 *                     (both: with KMARK_WINDOW=FILE in the environment,
 *                     "1" is written to FILE, tracing_on, after the first
 *                     round trip and "0" after the last: a window in which
 *                     both tasks have their names and nobody forks)
 *   nonblock FILE     read FILE with O_NONBLOCK; prints "EAGAIN", "data" or
 *                     the errno text
 *   poll FILE MS      poll FILE for input; prints "readable" or "timeout"
 *   drain FILE        read FILE with O_NONBLOCK until EAGAIN, to stdout
 *   sync N            call sync() N times
 *   forkto PID NAME   a child of pid PID (clone3() with set_tid; where
 *                     that is refused, forks until a child's pid is PID or
 *                     more, the others exiting at once): it renames itself
 *                     NAME and calls sync(); prints its pid
 *   names N FILE      N times: rename this process (prctl PR_SET_NAME)
 *                     to "kmnI" and write "kmnI\n" to FILE (trace_marker),
 *                     I from 0 to N-1: N task names, one event each
 *   time CMD ARG...   run CMD, print its elapsed CLOCK_MONOTONIC ns (or
 *                     "failed STATUS"); its output goes to /dev/null
 *   cputime CMD ARG...
 *                     the same, its standard error kept; prints the
 *                     elapsed ns and the CPU time CMD used (user + system,
 *                     all its threads), in microseconds
 *   reread FILE       read FILE to the end, lseek to 0, read it again and
 *                     pread it from 0: prints "same BYTES" or "differ ..."
 *   rawdump [--splice] FILE
 *                     read ring-buffer pages (trace_pipe_raw) with
 *                     O_NONBLOCK until EAGAIN; print "TS TYPE PID" per
 *                     event, "lost N" where a page says events were lost
 *                     (N -1: how many, not stored). --splice: the pages
 *                     come through a pipe, splice(SPLICE_F_NONBLOCK), and
 *                     each page is first "page COMMIT" (its data bytes);
 *                     pages of RAWDUMP_PAGE bytes (4096 without it);
 *                     FILE "-": standard input
 *   splice FILE LEN [wait]
 *                     one splice() of LEN bytes from FILE into a pipe,
 *                     SPLICE_F_NONBLOCK unless "wait": prints the bytes
 *                     moved or the errno name
 *   readsplice FILE   read 100 bytes of FILE, then splice() a page of it:
 *                     prints the errno name (or the bytes)
 *   splicehold FILE CMD
 *                     splice a page of FILE into a pipe, close FILE, run
 *                     CMD (sh -c); read the pipe, run CMD again: prints
 *                     "held STATUS released STATUS"
 *   splicedrain FILE OUT
 *                     splice FILE's pages through a 1 MiB pipe into OUT
 *                     until EAGAIN
 *   readdrain FILE OUT BYTES
 *                     read FILE's pages (4 KiB reads, O_NONBLOCK) into a
 *                     buffer of BYTES, write it to OUT when full, until
 *                     EAGAIN
 *   latency FILE N    N times, a child calls sync() (after 20..80 ms) and
 *                     notes the time; this process reads FILE (trace_pipe,
 *                     blocking) and measures how long each sys_sync line
 *                     took to arrive; prints "n=N max_ms=M median_ms=M"
 *   failnth N OP ...  fail the Nth allocation (/proc/thread-self/fail-nth)
 *                     of one operation and print "ok" or the errno name,
 *                     then " reached" if the Nth allocation happened:
 *                       write FILE TEXT    open O_APPEND, write TEXT
 *                       trunc FILE TEXT    open O_TRUNC, write TEXT
 *                       open-trunc FILE    open O_TRUNC, close
 *                       open-read FILE     open, read 4 KiB, close
 *                       rmmod NAME         delete_module(NAME)
 *                     the open comes before the injection, the close after
 *   sweep [-s M:FILE:TEXT]... [-n DENSE:STRIDE] OP ...
 *                     failnth for N = 1, 2, ... until OP makes fewer than
 *                     N allocations (with -n: every N up to DENSE, then
 *                     every STRIDE-th, for operations that make thousands
 *                     of alike allocations, as a table's entries); before
 *                     each run the -s writes (M: t
 *                     truncates, a appends; FILE relative to $K) set the
 *                     state up. Each failure must leave kmark's state (the
 *                     control files that describe it) as it was; each
 *                     success as a run without failures leaves it; an
 *                     error must come from the failed allocation. Prints
 *                     "ok FAILS of N" or "bad N: why"
 *   state             print kmark's state as sweep compares it
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/sched.h>
#include <signal.h>
#include <poll.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static void pin(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set))
		perror("sched_setaffinity");
}

/* With KMARK_WINDOW=FILE: write @what to FILE (see pingpong above). */
static int window(const char *what)
{
	const char *file = getenv("KMARK_WINDOW");
	int fd;

	if (!file)
		return 0;
	fd = open(file, O_WRONLY);
	if (fd < 0 || write(fd, what, strlen(what)) != (ssize_t)strlen(what))
		return perror(file), 1;
	close(fd);
	return 0;
}

static int pingpong(int n, const char *ping, const char *pong, int cpu,
		    int timed)
{
	struct timespec t0, t1;
	int a[2], b[2], i;
	char c = 'x';
	pid_t child;

	if (pipe(a) || pipe(b))
		return perror("pipe"), 1;
	pin(cpu);
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
		if (i == 0 && window("1\n"))
			return 1;
	}
	if (window("0\n"))
		return 1;
	clock_gettime(CLOCK_MONOTONIC, &t1);
	waitpid(child, NULL, 0);
	if (timed)
		printf("%lld\n", (t1.tv_sec - t0.tv_sec) * 1000000000LL +
		       (t1.tv_nsec - t0.tv_nsec));
	else
		printf("ping=%d pong=%d\n", (int)getpid(), (int)child);
	return 0;
}

static const char *errname(int e)
{
	switch (e) {
	case ENOMEM: return "ENOMEM";
	case EINVAL: return "EINVAL";
	case EBUSY: return "EBUSY";
	case E2BIG: return "E2BIG";
	case EPERM: return "EPERM";
	case ENOENT: return "ENOENT";
	case EAGAIN: return "EAGAIN";
	case EIO: return "EIO";
	default: return strerror(e);
	}
}

static int set_fail_nth(unsigned int n)
{
	char b[16];
	int fd = open("/proc/thread-self/fail-nth", O_RDWR);
	int len = snprintf(b, sizeof(b), "%u", n);

	if (fd < 0 || write(fd, b, len) != len) {
		perror("fail-nth");
		exit(1);
	}
	return fd;
}

/* Whether the Nth allocation happened (fail-nth reads 0 once it did). */
static int fail_nth_reached(int fd)
{
	char b[16] = "";
	ssize_t r = pread(fd, b, sizeof(b) - 1, 0);
	int left = r > 0 ? atoi(b) : -1;

	if (left > 0 && write(fd, "0", 1) != 1)
		perror("fail-nth reset");
	close(fd);
	return left == 0;
}

static int failnth(int argc, char **argv)
{
	unsigned int n = atoi(argv[2]);
	const char *op = argv[3];
	int fd = -1, nfd, ok, err = 0, reached;
	char buf[4096];

	if (!strcmp(op, "rmmod")) {
		nfd = set_fail_nth(n);
		ok = syscall(__NR_delete_module, argv[4], O_NONBLOCK) == 0;
		err = errno;
		reached = fail_nth_reached(nfd);
	} else if (!strcmp(op, "write") || !strcmp(op, "trunc")) {
		size_t len = argc > 5 ? strlen(argv[5]) : 0;

		fd = open(argv[4], O_WRONLY | (op[0] == 'w' ? O_APPEND : O_TRUNC));
		if (fd < 0)
			return perror(argv[4]), 1;
		nfd = set_fail_nth(n);
		ok = write(fd, argv[5], len) == (ssize_t)len;
		err = errno;
		reached = fail_nth_reached(nfd);
		close(fd);
	} else if (!strcmp(op, "open-trunc") || !strcmp(op, "open-read")) {
		int rd = !strcmp(op, "open-read");

		nfd = set_fail_nth(n);
		fd = open(argv[4], rd ? O_RDONLY | O_NONBLOCK : O_WRONLY | O_TRUNC);
		ok = fd >= 0;
		err = errno;
		if (ok && rd && read(fd, buf, sizeof(buf)) < 0 && errno != EAGAIN) {
			ok = 0;
			err = errno;
		}
		reached = fail_nth_reached(nfd);
		if (fd >= 0)
			close(fd);
	} else {
		fprintf(stderr, "failnth: unknown operation %s\n", op);
		return 2;
	}
	printf("%s%s\n", ok ? "ok" : errname(err), reached ? " reached" : "");
	return 0;
}

/* --- sweep ----------------------------------------------------------- */

static const char *kdir(void)
{
	const char *k = getenv("K");

	return k ? k : "/sys/kernel/debug/kmark";
}

/* Append FILE (or the first word of each of its lines) to @out. */
static void slurp(const char *path, char *out, size_t size, int first_word)
{
	size_t n = strlen(out);
	char buf[8192];
	int fd = open(path, O_RDONLY), skip = 0;
	ssize_t r;

	if (fd < 0) {
		snprintf(out + n, size - n, "[no %s]", path);
		return;
	}
	while ((r = read(fd, buf, sizeof(buf))) > 0) {
		for (ssize_t i = 0; i < r && n + 2 < size; i++) {
			char c = buf[i];

			if (first_word && c == '\n')
				skip = 0;
			else if (first_word && (c == ' ' || c == '\t'))
				skip = n && out[n - 1] != '\n';
			if (skip)
				continue;
			out[n++] = c;
		}
	}
	out[n] = '\0';
	close(fd);
}

/* kmark's observable state, error_log aside. */
static void kstate(char *out, size_t size)
{
	static const char * const files[] = {
		"set_event", "kprobe_events", "buffer_size_kb", "tracing_on",
		"read_delay_ms", "buffer_percent",
		"events/sched/sched_switch/filter", "events/kprobes/fa/filter",
		"set_event_pid", "set_event_notrace_pid", "options/event-fork",
		"instances/fi/set_event", "instances/fi/buffer_size_kb",
		"instances/fi/read_delay_ms", "instances/fi/buffer_percent",
		"instances/fi/events/sched/sched_switch/filter",
		"trace_clock", "synthetic_events",
		"events/sched/sched_switch/trigger",
		"events/sched/sched_switch/enable",
		"events/sched/sched_wakeup/trigger",
		"events/sched/sched_wakeup/enable",
		"events/syscalls/sys_sync/trigger",
		"events/syscalls/sys_sync/enable",
		"instances/fi/events/sched/sched_switch/trigger",
		/* whether its snapshot is allocated (nothing records there) */
		"instances/fi/snapshot",
	};
	char path[512];
	DIR *d;
	struct dirent *de;
	size_t i;

	out[0] = '\0';
	for (i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		snprintf(path, sizeof(path), "%s/%s", kdir(), files[i]);
		snprintf(out + strlen(out), size - strlen(out), "%s: ", files[i]);
		slurp(path, out, size, 0);
	}
	strncat(out, "available: ", size - strlen(out) - 1);
	snprintf(path, sizeof(path), "%s/available_markers", kdir());
	slurp(path, out, size, 1);
	strncat(out, "profile: ", size - strlen(out) - 1);
	snprintf(path, sizeof(path), "%s/kprobe_profile", kdir());
	slurp(path, out, size, 1);
	for (i = 0; i < 4; i++) {
		static const char * const dirs[] = {
			"events/kprobes", "instances", "instances/fi/events/kprobes",
			"events/synthetic",
		};

		snprintf(out + strlen(out), size - strlen(out), " %s:", dirs[i]);
		snprintf(path, sizeof(path), "%s/%s", kdir(), dirs[i]);
		d = opendir(path);
		while (d && (de = readdir(d)))
			snprintf(out + strlen(out), size - strlen(out), " %s",
				 de->d_name);
		if (d)
			closedir(d);
	}
}

static int do_write(const char *file, const char *text, int trunc)
{
	char path[512];
	int fd, ok;

	snprintf(path, sizeof(path), "%s/%s", kdir(), file);
	fd = open(path, O_WRONLY | (trunc ? O_TRUNC : O_APPEND));
	if (fd < 0)
		return -1;
	ok = !*text || write(fd, text, strlen(text)) == (ssize_t)strlen(text);
	close(fd);
	return ok ? 0 : -1;
}

/* Run the -s writes; an error in them is the test's own. */
static void setup(int n, char **steps)
{
	for (int i = 0; i < n; i++) {
		char *s = strdup(steps[i]), *file = strchr(s, ':'), *text;

		if (!file || !(text = strchr(file + 1, ':'))) {
			fprintf(stderr, "sweep: bad setup step %s\n", steps[i]);
			exit(2);
		}
		*file++ = '\0';
		*text++ = '\0';
		do_write(file, text, s[0] == 't');
		free(s);
	}
}

static int sweep(int argc, char **argv)
{
	static char before[65536], after[65536], now[65536];
	char *steps[16], res[64];
	int nsteps = 0, i = 2, n, fails = 0, pfd[2], dense = 1 << 30, stride = 1;
	int iter;

	while (i + 1 < argc && !strcmp(argv[i], "-s") && nsteps < 16) {
		steps[nsteps++] = argv[i + 1];
		i += 2;
	}
	if (i + 1 < argc && !strcmp(argv[i], "-n")) {
		if (sscanf(argv[i + 1], "%d:%d", &dense, &stride) != 2 ||
		    dense < 1 || stride < 1) {
			fprintf(stderr, "sweep: -n DENSE:STRIDE\n");
			return 2;
		}
		i += 2;
	}
	/* A plain run (N never reached), from the setup's state. */
	setup(nsteps, steps);
	kstate(before, sizeof(before));
	for (n = 0, iter = 0; iter <= 2000; iter++, n += n < dense ? 1 : stride) {
		pid_t child;

		setup(nsteps, steps);
		kstate(now, sizeof(now));
		if (strcmp(now, before)) {
			printf("bad %d: the setup did not bring the state back: %s\n", n, now);
			return 0;
		}
		/* The operation in a child: failnth prints its result. */
		if (pipe(pfd))
			return perror("pipe"), 1;
		child = fork();
		if (child == 0) {
			char nbuf[16], *av[8];
			int k = 0;

			snprintf(nbuf, sizeof(nbuf), "%d", n ? n : 100000);
			dup2(pfd[1], 1);
			av[k++] = argv[0];
			av[k++] = "failnth";
			av[k++] = nbuf;
			for (int j = i; j < argc && k < 7; j++)
				av[k++] = argv[j];
			av[k] = NULL;
			int r = failnth(k, av);

			fflush(stdout);
			_exit(r);
		}
		close(pfd[1]);
		memset(res, 0, sizeof(res));
		if (read(pfd[0], res, sizeof(res) - 1) < 0)
			res[0] = '\0';
		close(pfd[0]);
		waitpid(child, NULL, 0);
		res[strcspn(res, "\n")] = '\0';
		kstate(now, sizeof(now));
		if (n == 0) {
			if (strcmp(res, "ok")) {
				printf("bad 0: the plain run failed: %s\n", res);
				return 0;
			}
			memcpy(after, now, sizeof(after));
			continue;
		}
		if (!strncmp(res, "ok", 2)) {
			if (strcmp(now, after)) {
				printf("bad %d: succeeded (%s) with another state than a plain run's: %s\n",
				       n, res, now);
				return 0;
			}
			if (!strcmp(res, "ok")) {
				printf("ok %d of %d%s\n", fails, n - 1,
				       n > dense ? " (sampled)" : "");
				return 0;
			}
		} else {
			/* An error, but not from the failure injected. */
			if (!strstr(res, " reached")) {
				printf("bad %d: failed (%s) with no allocation failed\n",
				       n, res);
				return 0;
			}
			fails++;
			if (strcmp(now, before)) {
				printf("bad %d: failed (%s) and changed the state: %s\n", n, res, now);
				return 0;
			}
		}
	}
	printf("bad %d: still allocating\n", n);
	return 0;
}

/* Read FILE, again after lseek(0), and with pread(0): the same bytes? */
static int reread(const char *path)
{
	static char a[1 << 20], b[1 << 20], c[1 << 20];
	size_t na = 0, nb = 0, nc = 0;
	ssize_t r;
	int fd = open(path, O_RDONLY);

	if (fd < 0)
		return perror(path), 1;
	while ((r = read(fd, a + na, sizeof(a) - na)) > 0)
		na += r;
	if (lseek(fd, 0, SEEK_SET) != 0)
		return perror("lseek"), 1;
	while ((r = read(fd, b + nb, sizeof(b) - nb)) > 0)
		nb += r;
	while ((r = pread(fd, c + nc, sizeof(c) - nc, nc)) > 0)
		nc += r;
	close(fd);
	if (na == nb && na == nc && !memcmp(a, b, na) && !memcmp(a, c, na))
		printf("same %zu\n", na);
	else
		printf("differ %zu %zu %zu\n", na, nb, nc);
	return 0;
}

/*
 * Decode ring-buffer pages as events/header_page and header_event describe
 * them: u64 timestamp, local_t commit (bytes of data; flags in the top
 * bits), then events with a 32-bit header (type_len:5, time_delta:27).
 */
/* the next page: read(), or through a pipe with splice() (@p[0] >= 0) */
static ssize_t next_page(int fd, const int *p, unsigned char *page,
			 size_t size, size_t *queued)
{
	ssize_t r;

	if (p[0] < 0)
		return read(fd, page, size);
	if (!*queued) {
		r = splice(fd, NULL, p[1], NULL, 16 * size, SPLICE_F_NONBLOCK);
		if (r <= 0)
			return r;
		if (r % size) {
			fprintf(stderr, "rawdump: splice moved %zd bytes, not whole pages\n", r);
			errno = EIO;
			return -1;
		}
		*queued = (size_t)r;
	}
	r = read(p[0], page, size);
	if (r > 0)
		*queued -= (size_t)r;
	return r;
}

static int rawdump(const char *path, int use_splice)
{
	/* The pages' size: RAWDUMP_PAGE (buffer_subbuf_size_kb), else 4096. */
	const char *ps = getenv("RAWDUMP_PAGE");
	size_t psz = ps ? strtoul(ps, NULL, 0) : 4096;
	unsigned char *page = malloc(psz);
	/* "-": standard input, a file opened before (made non-blocking) */
	int fd = strcmp(path, "-") ? open(path, O_RDONLY | O_NONBLOCK) :
		 fcntl(0, F_SETFL, fcntl(0, F_GETFL) | O_NONBLOCK) ? -1 : 0;
	int p[2] = { -1, -1 };
	const size_t hdr = 8 + sizeof(long);
	size_t queued = 0;

	if (fd < 0 || !page)
		return perror(path), 1;
	if (use_splice && pipe(p))
		return perror("pipe"), 1;
	for (;;) {
		ssize_t r = next_page(fd, p, page, psz, &queued);
		unsigned long commit, flags;
		unsigned long long ts;
		size_t off;

		if (!r || (r < 0 && errno == EAGAIN))
			break;
		if (r < 0) {
			printf("error %s\n", errname(errno));
			return 1;
		}
		if (r != (ssize_t)psz) {
			fprintf(stderr, "rawdump: short page (%zd)\n", r);
			return 1;
		}
		memcpy(&ts, page, 8);
		memcpy(&commit, page + 8, sizeof(long));
		/* RB_MISSED_EVENTS (bit 31), RB_MISSED_STORED (bit 30). */
		flags = (commit >> 30) & 3;
		commit &= ~(3UL << 30);
		if (use_splice)
			printf("page %lu\n", commit);
		if (flags & 2) {
			long lost = -1;

			if (flags & 1)
				memcpy(&lost, page + hdr + commit, sizeof(long));
			printf("lost %ld\n", lost);
		}
		for (off = 0; off < commit;) {
			unsigned int h, type_len, delta, len;
			unsigned char *d;

			memcpy(&h, page + hdr + off, 4);
			type_len = h & 31;
			delta = h >> 5;
			d = page + hdr + off + 4;
			if (type_len == 29) {		/* padding */
				unsigned int plen;

				if (!delta)		/* the rest of the page */
					break;
				memcpy(&plen, d, 4);
				off += 4 + plen;
				continue;
			}
			if (type_len == 30 || type_len == 31) {	/* time */
				unsigned int hi;

				memcpy(&hi, d, 4);
				if (type_len == 30)
					ts += ((unsigned long long)hi << 27) + delta;
				else
					ts = ((unsigned long long)hi << 27) | delta;
				off += 8;
				continue;
			}
			ts += delta;
			if (type_len) {
				len = type_len * 4;
			} else {
				memcpy(&len, d, 4);
				len -= 4;
				d += 4;
				off += 4;
			}
			{
				unsigned short type;
				int pid;

				memcpy(&type, d, 2);
				memcpy(&pid, d + 4, 4);
				printf("%llu %u %d\n", ts, type, pid);
			}
			off += 4 + len;
		}
	}
	close(fd);
	return 0;
}

static int splice_once(const char *path, size_t len, int wait)
{
	int fd = open(path, O_RDONLY | (wait ? 0 : O_NONBLOCK)), p[2];
	ssize_t r;

	if (fd < 0 || pipe(p))
		return perror(path), 1;
	r = splice(fd, NULL, p[1], NULL, len, wait ? 0 : SPLICE_F_NONBLOCK);
	if (r < 0)
		puts(errname(errno));
	else
		printf("%zd\n", r);
	return 0;
}

/* splice FILE's pages through a 1 MiB pipe into OUT until EAGAIN */
static int splicedrain(const char *path, const char *outp)
{
	int fd = open(path, O_RDONLY | O_NONBLOCK), p[2], out;
	ssize_t r, w;

	out = open(outp, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0 || out < 0 || pipe(p))
		return perror(path), 1;
	fcntl(p[1], F_SETPIPE_SZ, 1 << 20);
	while ((r = splice(fd, NULL, p[1], NULL, 1 << 20, SPLICE_F_NONBLOCK)) > 0)
		while (r > 0 && (w = splice(p[0], NULL, out, NULL, r, 0)) > 0)
			r -= w;
	return 0;
}

/*
 * splice a page of FILE into a pipe, close FILE, run CMD with the page in
 * the pipe, then read the pipe and run CMD again: "held STATUS released
 * STATUS" (each CMD's exit status).
 */
static int splicehold(const char *path, const char *cmd)
{
	int fd = open(path, O_RDONLY | O_NONBLOCK), p[2], a, b;
	char page[4096];
	ssize_t r;

	if (fd < 0 || pipe(p))
		return perror(path), 1;
	r = splice(fd, NULL, p[1], NULL, sizeof(page), SPLICE_F_NONBLOCK);
	close(fd);
	if (r != (ssize_t)sizeof(page)) {
		printf("splice %s\n", r < 0 ? errname(errno) : "short");
		return 1;
	}
	a = system(cmd);
	if (read(p[0], page, sizeof(page)) != (ssize_t)sizeof(page))
		return perror("read"), 1;
	b = system(cmd);
	printf("held %d released %d\n", WEXITSTATUS(a), WEXITSTATUS(b));
	return 0;
}

/* read FILE's pages into a buffer of BUF bytes, write it to OUT when full */
static int readdrain(const char *path, const char *outp, size_t bufsz)
{
	int fd = open(path, O_RDONLY | O_NONBLOCK), out;
	char *buf = malloc(bufsz);
	size_t fill = 0;
	ssize_t r;

	out = open(outp, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0 || out < 0 || !buf)
		return perror(path), 1;
	for (;;) {
		r = read(fd, buf + fill, 4096);
		if (r > 0)
			fill += r;
		if (fill + 4096 > bufsz || r <= 0) {
			if (fill && write(out, buf, fill) != (ssize_t)fill)
				return perror(outp), 1;
			fill = 0;
		}
		if (r <= 0)
			break;
	}
	return 0;
}

static int readsplice(const char *path)
{
	char buf[100];
	int fd = open(path, O_RDONLY | O_NONBLOCK), p[2];
	ssize_t r;

	if (fd < 0 || pipe(p))
		return perror(path), 1;
	r = read(fd, buf, sizeof(buf));
	if (r != (ssize_t)sizeof(buf)) {
		printf("read %zd\n", r);
		return 0;
	}
	r = splice(fd, NULL, p[1], NULL, 4096, SPLICE_F_NONBLOCK);
	if (r < 0)
		puts(errname(errno));
	else
		printf("%zd\n", r);
	return 0;
}

static long long ns_now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1000000000LL + t.tv_nsec;
}

static int cmp_ll(const void *a, const void *b)
{
	long long x = *(const long long *)a, y = *(const long long *)b;

	return x < y ? -1 : x > y;
}

static int latency(const char *path, int n)
{
	static char buf[65536];
	long long *lat = calloc(n, sizeof(*lat));
	int fd = open(path, O_RDONLY), p[2], got = 0;
	size_t len = 0;
	pid_t child;

	if (fd < 0 || !lat || pipe(p))
		return perror(path), 1;
	child = fork();
	if (child == 0) {
		for (int i = 0; i < n; i++) {
			long long t;

			usleep(20000 + (i * 37 % 61) * 1000);
			t = ns_now();
			if (write(p[1], &t, sizeof(t)) != sizeof(t))
				_exit(1);
			sync();
		}
		_exit(0);
	}
	while (got < n) {
		ssize_t r = read(fd, buf + len, sizeof(buf) - 1 - len);
		char *line, *nl;

		if (r <= 0)
			return perror("read"), 1;
		len += r;
		buf[len] = '\0';
		line = buf;
		while ((nl = strchr(line, '\n'))) {
			*nl = '\0';
			if (strstr(line, ": sys_sync: ") && got < n) {
				long long t;

				if (read(p[0], &t, sizeof(t)) != sizeof(t))
					return perror("pipe"), 1;
				lat[got++] = ns_now() - t;
			}
			line = nl + 1;
		}
		len = buf + len - line;
		memmove(buf, line, len);
	}
	waitpid(child, NULL, 0);
	qsort(lat, n, sizeof(*lat), cmp_ll);
	printf("n=%d max_ms=%lld median_ms=%lld min_us=%lld p50_us=%lld p90_us=%lld p99_us=%lld max_us=%lld\n",
	       n, lat[n - 1] / 1000000, lat[n / 2] / 1000000, lat[0] / 1000,
	       lat[n / 2] / 1000, lat[n * 9 / 10] / 1000,
	       lat[n * 99 / 100] / 1000, lat[n - 1] / 1000);
	return 0;
}

/*
 * time CMD ARG... / cputime CMD ARG... (@cpu): run CMD, its output (and,
 * for time, its standard error) to /dev/null; print the elapsed ns, and
 * for cputime the CPU time CMD used (user + system, all its threads) in
 * microseconds
 */
static int time_cmd(char **cmd, int cpu)
{
	long long t0 = ns_now();
	struct rusage ru;
	int status;
	pid_t pid;

	pid = fork();
	if (pid < 0)
		return perror("fork"), 1;
	if (!pid) {
		int fd = open("/dev/null", O_WRONLY);

		if (fd >= 0) {
			dup2(fd, 1);
			if (!cpu)
				dup2(fd, 2);
		}
		execvp(cmd[0], cmd);
		_exit(127);
	}
	if (wait4(pid, &status, 0, &ru) < 0)
		return perror("wait4"), 1;
	t0 = ns_now() - t0;
	if (!WIFEXITED(status) || WEXITSTATUS(status)) {
		printf("failed %d\n", status);
		return 1;
	}
	if (cpu)
		printf("%lld %lld\n", t0,
		       (long long)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1000000 +
		       ru.ru_utime.tv_usec + ru.ru_stime.tv_usec);
	else
		printf("%lld\n", t0);
	return 0;
}

static int names(int n, const char *file)
{
	char name[16];
	int fd = open(file, O_WRONLY);

	if (fd < 0)
		return perror(file), 1;
	for (int i = 0; i < n; i++) {
		int len = snprintf(name, sizeof(name), "kmn%d", i);

		if (prctl(PR_SET_NAME, name, 0, 0, 0))
			return perror("prctl"), 1;
		name[len] = '\n';
		if (write(fd, name, len + 1) != len + 1)
			return perror(file), 1;
	}
	close(fd);
	return 0;
}

/* the child of forkto: NAME, one sync() */
static void forkto_child(const char *name)
{
	prctl(PR_SET_NAME, name);
	sync();
	_exit(0);
}

/* forkto PID NAME: see the top of the file */
static int forkto(long want, const char *name)
{
	pid_t tid = (pid_t)want;
	struct clone_args ca = {
		.exit_signal = SIGCHLD,
		.set_tid = (unsigned long)&tid,
		.set_tid_size = 1,
	};
	long c;
	int st;

	/* clone3() with set_tid makes the pid at once (CAP_SYS_ADMIN) */
	c = syscall(SYS_clone3, &ca, sizeof(ca));
	if (!c)
		forkto_child(name);
	if (c > 0) {
		if (waitpid((pid_t)c, &st, 0) < 0)
			return perror("waitpid"), 1;
		printf("%ld\n", c);
		return 0;
	}
	/* else one fork after another (vfork: no copy of the memory) */
	for (long n = 0; n < 4 * 4194304L; n++) {
		pid_t p = vfork();

		if (p < 0) {
			perror("fork");
			return 1;
		}
		if (!p) {
			if (getpid() < want)
				_exit(0);
			forkto_child(name);
		}
		if (waitpid(p, &st, 0) < 0) {
			perror("waitpid");
			return 1;
		}
		if (p >= want) {
			printf("%d\n", (int)p);
			return 0;
		}
	}
	fprintf(stderr, "forkto: no pid reached %ld\n", want);
	return 1;
}

int main(int argc, char **argv)
{
	char buf[4096];
	ssize_t r;
	int fd;

	if (argc >= 3 && !strcmp(argv[1], "pingpong"))
		return pingpong(atoi(argv[2]), argc >= 5 ? argv[3] : "kmping",
				argc >= 5 ? argv[4] : "kmpong",
				argc >= 6 ? atoi(argv[5]) : 0, 0);
	if (argc >= 3 && !strcmp(argv[1], "pingpong-time"))
		return pingpong(atoi(argv[2]), "kmping", "kmpong", 0, 1);
	if (argc >= 3 && !strcmp(argv[1], "sync")) {
		for (int i = atoi(argv[2]); i > 0; i--)
			sync();
		return 0;
	}
	if (argc >= 4 && !strcmp(argv[1], "forkto"))
		return forkto(atol(argv[2]), argv[3]);
	if (argc >= 5 && !strcmp(argv[1], "failnth"))
		return failnth(argc, argv);
	if (argc >= 2 && !strcmp(argv[1], "state")) {
		static char st[65536];

		kstate(st, sizeof(st));
		puts(st);
		return 0;
	}
	if (argc >= 4 && !strcmp(argv[1], "sweep"))
		return sweep(argc, argv);
	if (argc >= 3 && !strcmp(argv[1], "reread"))
		return reread(argv[2]);
	if (argc >= 3 && !strcmp(argv[1], "time"))
		return time_cmd(argv + 2, 0);
	if (argc >= 3 && !strcmp(argv[1], "cputime"))
		return time_cmd(argv + 2, 1);
	if (argc >= 4 && !strcmp(argv[1], "rawdump") &&
	    !strcmp(argv[2], "--splice"))
		return rawdump(argv[3], 1);
	if (argc >= 3 && !strcmp(argv[1], "rawdump"))
		return rawdump(argv[2], 0);
	if (argc >= 4 && !strcmp(argv[1], "splice"))
		return splice_once(argv[2], (size_t)atol(argv[3]),
				   argc >= 5 && !strcmp(argv[4], "wait"));
	if (argc >= 5 && !strcmp(argv[1], "readdrain"))
		return readdrain(argv[2], argv[3], (size_t)atol(argv[4]));
	if (argc >= 4 && !strcmp(argv[1], "splicehold"))
		return splicehold(argv[2], argv[3]);
	if (argc >= 4 && !strcmp(argv[1], "splicedrain"))
		return splicedrain(argv[2], argv[3]);
	if (argc >= 3 && !strcmp(argv[1], "readsplice"))
		return readsplice(argv[2]);
	if (argc >= 4 && !strcmp(argv[1], "latency"))
		return latency(argv[2], atoi(argv[3]));
	if (argc >= 4 && !strcmp(argv[1], "names"))
		return names(atoi(argv[2]), argv[3]);
	if (argc < 3) {
		fprintf(stderr, "usage: kmark-testprog pingpong N [PING PONG [CPU]] | nonblock FILE | poll FILE MS |\n"
			"       drain FILE | sync N | forkto PID NAME | time CMD... | cputime CMD... |\n"
			"       reread FILE |\n"
			"       rawdump [--splice] FILE | splice FILE LEN [wait] | readsplice FILE |\n"
			"       splicehold FILE CMD | splicedrain FILE OUT | readdrain FILE OUT BYTES |\n"
			"       latency FILE N | names N FILE |\n"
			"       failnth N OP ARGS | sweep [-s M:FILE:TEXT]... OP ARGS | state\n");
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

// SPDX-License-Identifier: GPL-2.0
/*
 * The trace_pipe reader (pipe.c, linked into the test binary):
 *  - a NUL byte in the input must not stall the line splitter;
 *  - a stop signal arriving just before the reader starts waiting must
 *    not be lost (the reader must not then sleep until the next event).
 *
 * The second case is made deterministic by wrapping poll() and ppoll()
 * at link time (-Wl,--wrap): the wrapper raises the signal right before
 * the real call, i.e. after the reader's last "should I stop?" check.
 * A reader that checks a flag and then calls poll() sleeps forever; one
 * that waits in ppoll() with the signal blocked outside it wakes up.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "kmark.h"
#include "proc.h"
#include "test.h"
#include "util_read.h"

/* ---- link-time wrappers ---------------------------------------------- */

static volatile sig_atomic_t hook_signal;	/* raised before 1st wait */
static volatile sig_atomic_t hook_calls;
static int hook_notify = -1;	/* gets a byte once the signal is raised */

int __real_poll(struct pollfd *fds, nfds_t n, int timeout);
int __wrap_poll(struct pollfd *fds, nfds_t n, int timeout);
int __real_ppoll(struct pollfd *fds, nfds_t n, const struct timespec *ts,
		 const sigset_t *mask);
int __wrap_ppoll(struct pollfd *fds, nfds_t n, const struct timespec *ts,
		 const sigset_t *mask);

static void before_wait(void)
{
	if (hook_calls++ == 0 && hook_signal) {
		raise(hook_signal);
		if (hook_notify >= 0 && write(hook_notify, "r", 1) != 1)
			abort();
	}
}

int __wrap_poll(struct pollfd *fds, nfds_t n, int timeout)
{
	before_wait();
	return __real_poll(fds, n, timeout);
}

int __wrap_ppoll(struct pollfd *fds, nfds_t n, const struct timespec *ts,
		 const sigset_t *mask)
{
	before_wait();
	return __real_ppoll(fds, n, ts, mask);
}

/* ---- NUL bytes --------------------------------------------------------- */

struct lines {
	char v[8][64];
	size_t n;		/* lines seen (v keeps the first 8) */
	size_t stop_after;	/* 0: never stop */
	size_t with_q;		/* lines containing the '?' replacement */
};

static int collect(char *line, void *arg)
{
	struct lines *l = arg;

	if (l->n < 8)
		snprintf(l->v[l->n], sizeof(l->v[0]), "%s", line);
	if (strchr(line, '?'))
		l->with_q++;
	l->n++;
	return l->stop_after && l->n >= l->stop_after;
}

static void write_all(int fd, const char *buf, size_t len)
{
	while (len) {
		ssize_t n = write(fd, buf, len);

		if (n <= 0)
			abort();
		buf += n;
		len -= (size_t)n;
	}
}

/* stderr of this process into a file while read_lines() warns */
static char warn_path[64];
static int saved_stderr = -1;

static void capture_stderr(void)
{
	int fd;

	snprintf(warn_path, sizeof(warn_path), "/tmp/kmark-warn.%d",
		 (int)getpid());
	fflush(stderr);
	fd = open(warn_path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	saved_stderr = dup(2);
	if (fd < 0 || saved_stderr < 0 || dup2(fd, 2) < 0)
		abort();
	close(fd);
}

/* restore stderr; check the warning was printed exactly once */
static void check_nul_warning(const char *what)
{
	char *got;

	fflush(stderr);
	dup2(saved_stderr, 2);
	close(saved_stderr);
	got = slurp(warn_path);
	unlink(warn_path);
	check_str(got, "kmark: warning: NUL byte(s) in the input, shown as '?'\n",
		  "pipe: %s: NUL bytes reported by one warning", what);
	free(got);
}

static void test_nul_open_pipe(void)
{
	static const char data[] = "a\n\0b\nc\n";
	struct lines l = { .stop_after = 3 };
	int p[2];

	if (pipe(p))
		abort();
	/* the writer stays open: only newlines can end the lines */
	write_all(p[1], data, sizeof(data) - 1);
	capture_stderr();
	read_lines(p[0], 5, collect, &l);
	check_nul_warning("open pipe");
	close(p[0]);
	close(p[1]);
	check_ll((long long)l.n, 3,
		 "pipe: NUL byte: the lines after it are still delivered");
	check_str(l.n > 1 ? l.v[1] : NULL, "?b",
		  "pipe: NUL byte is replaced by '?', the line kept whole");
	check_str(l.n > 2 ? l.v[2] : NULL, "c",
		  "pipe: the line after a NUL line is intact");
}

static void test_nul_at_eof(void)
{
	static const char data[] = "x\0y";
	struct lines l = { 0 };
	int p[2];

	if (pipe(p))
		abort();
	write_all(p[1], data, sizeof(data) - 1);
	close(p[1]);
	capture_stderr();
	read_lines(p[0], 5, collect, &l);
	check_nul_warning("end of file");
	close(p[0]);
	check_ll((long long)l.n, 1, "pipe: unterminated last line with a NUL delivered once");
	check_str(l.n ? l.v[0] : NULL, "x?y",
		  "pipe: unterminated last line keeps the text after the NUL");
}

/* many lines with NULs, larger than the pipe buffer, from a writer */
static void test_nul_volume(void)
{
	struct lines l = { 0 };
	bool timed_out;
	pid_t pid;
	int p[2], rc;

	if (pipe(p))
		abort();
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		char line[64];
		int i, n;

		close(p[0]);
		for (i = 0; i < 5000; i++) {
			n = snprintf(line, sizeof(line), "line %d", i);
			line[n++] = (i % 7) ? ' ' : '\0';
			n += snprintf(line + n, sizeof(line) - (size_t)n,
				      "tail\n");
			write_all(p[1], line, (size_t)n);
		}
		_exit(0);
	}
	close(p[1]);
	capture_stderr();
	read_lines(p[0], 30, collect, &l);
	check_nul_warning("5000 lines");
	close(p[0]);
	rc = wait_child(pid, PROC_TIMEOUT_S, &timed_out);
	check(rc == 0 && !timed_out, "pipe: NUL volume writer finished");
	check_ll((long long)l.n, 5000,
		 "pipe: 5000 lines with NULs (> pipe buffer) all delivered");
	check_ll((long long)l.with_q, 715,
		 "pipe: every NUL replaced (715 lines had one)");
}

/* ---- stop signal racing with the wait --------------------------------- */

static int never(char *line, void *arg)
{
	(void)line;
	(void)arg;
	return 0;
}

/*
 * Child: install the handlers, let the wrapper raise sig just before the
 * first wait, read an idle pipe without time limit. Exit 0 when
 * read_lines returned because of the signal; 3 when no wait was wrapped.
 */
static void race_child(int sig, bool raise_early, int notify)
{
	int p[2], err;

	if (pipe(p))
		_exit(5);
	hook_calls = 0;		/* the parent's read_lines() waited too */
	hook_notify = notify;
	install_stop_handlers();
	if (raise_early)
		raise(sig);
	else
		hook_signal = sig;
	err = read_lines(p[0], 0, never, NULL);
	if (!raise_early && !hook_calls)
		_exit(3);
	_exit(!err && kmark_stop ? 0 : 4);
}

static void test_race(int sig, const char *name, bool raise_early)
{
	bool timed_out;
	char c;
	pid_t pid;
	int rc, n[2];

	if (pipe(n))
		abort();
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		close(n[0]);
		race_child(sig, raise_early, n[1]);
	}
	close(n[1]);
	rc = wait_child(pid, PROC_TIMEOUT_S, &timed_out);
	if (!raise_early)
		check(read(n[0], &c, 1) == 1,
		      "pipe: %s raised by the wrapper right before the wait",
		      name);
	close(n[0]);
	if (timed_out)
		printf("# reader still waiting after %d s: the signal was lost\n",
		       PROC_TIMEOUT_S);
	check(!timed_out && rc == 0,
	      raise_early ? "pipe: %s before the reader starts ends it at once"
			  : "pipe: %s arriving just before the wait is not lost",
	      name);
	if (rc == 3)
		printf("# the poll()/ppoll() wrapper was not reached\n");
}

/* ---- end to end: kmark stream/record on a FIFO ------------------------- */

static struct scratch s;

static void make_fifo(void)
{
	const char *path = scratch_path(&s, "trace_pipe");

	unlink(path);
	if (mkfifo(path, 0644)) {
		perror("mkfifo");
		abort();
	}
}

static void test_e2e_nul(void)
{
	static const char data[] =
		"junk\0junk\n"
		"              sh-72      [000] .....     4.600000: sys_sync: \n"
		"           cat-7\0      [001] .....     4.700000: sys_sync: \n"
		"              sh-72      [001] .....     4.800000: sys_sync: \n";
	const char *const argv[] = { "-d", s.dir, "stream", NULL };
	struct proc_result r;

	scratch_put(&s, "trace_pipe", data, sizeof(data) - 1);
	proc_run(&r, s.root, NULL, NULL, argv);
	check(!r.timed_out && r.rc == 0, "pipe: stream with NUL bytes exits 0");
	check_has(r.out, "junk?junk\n", "pipe: stream prints the NUL line with '?'");
	check_has(r.out, "4.800000: sys_sync: \n",
		  "pipe: stream prints the lines after a NUL");
	check_has(r.err, "NUL", "pipe: stream warns about NUL bytes");
	proc_result_free(&r);
}

static void test_e2e_sigint_stream(void)
{
	static const char ev[] =
		"              sh-72      [000] .....     4.600000: sys_sync: \n"
		"              sh-72      [001] .....     4.800000: sys_sync: \n";
	const char *const argv[] = { "-d", s.dir, "stream", NULL };
	struct proc_result r;
	struct proc p;
	int wfd;

	make_fifo();
	/* O_RDWR: a writer that never writes, so no end of file */
	wfd = open(scratch_path(&s, "trace_pipe"), O_RDWR);
	if (wfd < 0)
		abort();
	write_all(wfd, ev, sizeof(ev) - 1);
	proc_start(&p, s.root, NULL, NULL, argv);
	check(proc_wait_sleeping(p.pid, SIGINT, PROC_TIMEOUT_S),
	      "pipe: stream on an idle FIFO waits with a SIGINT handler");
	kill(p.pid, SIGINT);
	proc_wait(&p, PROC_TIMEOUT_S, &r);
	close(wfd);
	check(!r.timed_out && r.rc == 0,
	      "pipe: SIGINT ends 'stream' on an idle FIFO, exit 0");
	check_has(r.out, "4.800000: sys_sync: \n",
		  "pipe: stream printed the events before SIGINT");
	check_str(r.err, "kmark: 2 events, 0 lost\n",
		  "pipe: stream summary after SIGINT");
	proc_result_free(&r);
}

static void test_e2e_sigterm_record(void)
{
	char out[256];
	const char *const argv[] = { "-d", s.dir, "record", "-o", out,
				     "sys_sync", NULL };
	struct proc_result r;
	struct proc p;
	char *se;
	int wfd;

	snprintf(out, sizeof(out), "%s/rec.txt", s.root);
	make_fifo();
	scratch_put(&s, "set_event", "", 0);
	wfd = open(scratch_path(&s, "trace_pipe"), O_RDWR);
	if (wfd < 0)
		abort();
	proc_start(&p, s.root, NULL, NULL, argv);
	check(proc_wait_sleeping(p.pid, SIGTERM, PROC_TIMEOUT_S),
	      "pipe: record on an idle FIFO waits with a SIGTERM handler");
	kill(p.pid, SIGTERM);
	proc_wait(&p, PROC_TIMEOUT_S, &r);
	close(wfd);
	check(!r.timed_out && r.rc == 0,
	      "pipe: SIGTERM ends 'record' on an idle FIFO, exit 0");
	check_has(r.err, "recorded 0 events, 0 lost",
		  "pipe: record summary after SIGTERM");
	se = slurp(scratch_path(&s, "set_event"));
	check_str(se, "sys_sync\n!sys_sync\n",
		  "pipe: record disabled its event after SIGTERM");
	free(se);
	proc_result_free(&r);
}

void test_pipe(void)
{
	test_nul_open_pipe();
	test_nul_at_eof();
	test_nul_volume();
	test_race(SIGINT, "SIGINT", true);
	test_race(SIGINT, "SIGINT", false);
	test_race(SIGTERM, "SIGTERM", false);

	scratch_setup(&s);
	test_e2e_nul();
	test_e2e_sigint_stream();
	test_e2e_sigterm_record();
	scratch_cleanup(&s);
}

// SPDX-License-Identifier: GPL-2.0
/*
 * ctl_write() (util.c, linked into the test binary) against a write()
 * that misbehaves. write() is wrapped at link time (-Wl,--wrap=write):
 * normally it passes through; the tests make it accept no byte (return
 * 0, which a debugfs write handler can do) or one byte at a time.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kmark.h"
#include "proc.h"
#include "test.h"
#include "util_read.h"

enum fake { FAKE_NONE, FAKE_ZERO, FAKE_ONE_BYTE };
static enum fake fake;
static unsigned long fake_calls;

ssize_t __real_write(int fd, const void *buf, size_t len);
ssize_t __wrap_write(int fd, const void *buf, size_t len);

ssize_t __wrap_write(int fd, const void *buf, size_t len)
{
	switch (fake) {
	case FAKE_ZERO:
		fake_calls++;
		return 0;
	case FAKE_ONE_BYTE:
		fake_calls++;
		return __real_write(fd, buf, len ? 1 : 0);
	default:
		return __real_write(fd, buf, len);
	}
}

static struct scratch s;

/*
 * In a child (a looping ctl_write would hang the tests): exit 0 when
 * ctl_write("tracing_on", "1\n") returned an error, 1 when it claimed
 * success, 2 when write() was never called.
 */
static void test_zero(void)
{
	bool timed_out;
	pid_t pid;
	int rc;

	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		int err;

		set_ctl_dir(s.dir);
		fake = FAKE_ZERO;
		err = ctl_write("tracing_on", O_TRUNC, "1\n");
		fake = FAKE_NONE;
		if (!fake_calls)
			_exit(2);
		if (err == KM_EWRITE0)
			_exit(0);
		_exit(err < 0 ? 3 : 1);
	}
	rc = wait_child(pid, PROC_TIMEOUT_S, &timed_out);
	if (timed_out)
		printf("# ctl_write still looping after %d s\n", PROC_TIMEOUT_S);
	check(!timed_out, "ctl_write: write() returning 0 does not loop forever");
	check_ll(rc, 0, "ctl_write: write() returning 0 is an error (KM_EWRITE0)");
	check_str(ctl_strerror(KM_EWRITE0),
		  "I/O error: write() accepted no data (returned 0)",
		  "ctl_write: clear message for a write() returning 0");
	check_str(ctl_strerror(-ENOSPC), "No space left on device",
		  "ctl_write: other errors keep their strerror() text");
}

static void test_short_writes(void)
{
	char *got;
	int err;

	set_ctl_dir(s.dir);
	fake = FAKE_ONE_BYTE;
	fake_calls = 0;
	err = ctl_write("set_event", O_TRUNC, "sched_switch\n");
	fake = FAKE_NONE;
	check_ll(err, 0, "ctl_write: one byte per write() still succeeds");
	check_ll((long long)fake_calls, 13, "ctl_write: 13 bytes, 13 write() calls");
	got = slurp(scratch_path(&s, "set_event"));
	check_str(got, "sched_switch\n", "ctl_write: short writes add up to the text");
	free(got);
}

void test_ctlwrite(void)
{
	scratch_setup(&s);
	test_zero();
	test_short_writes();
	scratch_cleanup(&s);
}

// SPDX-License-Identifier: GPL-2.0
/*
 * Write errors on the output: every command that prints must notice that
 * its output could not be written (here: /dev/full, always ENOSPC), say
 * so on stderr and exit non-zero, instead of exiting 0 with the data lost.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "proc.h"
#include "test.h"

#define ENOSPC_MSG	"kmark: writing output: No space left on device\n"

static struct scratch s;

/* run "kmark -d DIR args..." with stdout on /dev/full */
static void full(const char *what, const char *const *args, bool with_dir)
{
	const char *argv[16];
	struct proc_result r;
	int n = 0;

	if (with_dir) {
		argv[n++] = "-d";
		argv[n++] = s.dir;
	}
	while (*args && n < 15)
		argv[n++] = *args++;
	argv[n] = NULL;
	proc_run(&r, s.root, NULL, "/dev/full", argv);
	check_ll(r.rc, 1, "output: '%s' > /dev/full exits 1", what);
	check_has(r.err, ENOSPC_MSG,
		  "output: '%s' > /dev/full says 'writing output: No space left on device'",
		  what);
	proc_result_free(&r);
}

static void test_commands(void)
{
	static const char *const stream[] = { "stream", NULL };
	static const char *const pretty[] = { "stream", "--pretty", NULL };
	static const char *const count[] = { "stream", "-n", "1", NULL };
	static const char *const list[] = { "list", NULL };
	static const char *const stats[] = { "stats", NULL };
	static const char *const help[] = { "help", NULL };
	static const char *const help_cmd[] = { "stream", "--help", NULL };
	static const char *const version[] = { "--version", NULL };
	const char *report[] = { "report", NULL, NULL };
	char path[256];

	full("stream", stream, true);
	full("stream --pretty", pretty, true);
	full("stream -n 1", count, true);
	full("list", list, true);
	full("stats", stats, true);
	snprintf(path, sizeof(path), "%s/trace_basic.txt", fixtures);
	report[1] = path;
	full("report FILE", report, false);
	full("help", help, false);
	full("stream --help", help_cmd, false);
	full("--version", version, false);
}

/* the output of record is its -o FILE */
static void test_record(void)
{
	const char *const argv[] = { "-d", s.dir, "record", "-o", "/dev/full",
				     "sys_sync", NULL };
	struct proc_result r;

	proc_run(&r, s.root, NULL, NULL, argv);
	check_ll(r.rc, 1, "output: 'record -o /dev/full' exits 1");
	check_has(r.err, "kmark: cannot write /dev/full: No space left on device\n",
		  "output: 'record -o /dev/full' names the file and the error");
	proc_result_free(&r);
}

/* sanity: the same commands succeed on a working output */
static void test_ok(void)
{
	const char *const argv[] = { "-d", s.dir, "stream", NULL };
	struct proc_result r;

	proc_run(&r, s.root, NULL, "/dev/null", argv);
	check_ll(r.rc, 0, "output: 'stream' > /dev/null exits 0");
	proc_result_free(&r);
}

void test_output(void)
{
	scratch_setup(&s);
	test_commands();
	test_record();
	test_ok();
	scratch_cleanup(&s);
}

// SPDX-License-Identifier: GPL-2.0
/*
 * kmark instance new|remove|list: the kernel's instances/ directory
 * (independent sessions, used with "kmark -B NAME COMMAND").
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ctlfmt.h"
#include "kmark.h"
#include "strlist.h"

const char *const usage_instance =
	"usage: kmark instance new NAME...\n"
	"       kmark instance remove NAME...\n"
	"       kmark instance list [-l]\n"
	"\n"
	"Manage instances: independent tracing sessions, each with its own\n"
	"set_event, events/ (enable, filter), tracing_on, buffer (trace,\n"
	"trace_pipe, per_cpu/), buffer_size_kb, trace_clock, options/, pid\n"
	"filters and error_log, in <control dir>/instances/NAME/. Use one with\n"
	"'kmark -B NAME COMMAND' (list, enable, disable, stream, record, stats,\n"
	"reset). Markers and kprobe event definitions are shared by all\n"
	"instances.\n"
	"\n"
	"  new NAME...     create instances: mkdir instances/NAME in the tracefs\n"
	"                  copy (/sys/kernel/tracing/kmark), echo NAME >\n"
	"                  instances/new in debugfs. Names take letters,\n"
	"                  digits, '_', '-' and '.', at most 63 characters;\n"
	"                  'new' and 'remove' are reserved; there is no limit\n"
	"                  to their number (each takes its buffer's memory)\n"
	"  remove NAME...  remove instances (rmdir, or echo NAME >\n"
	"                  instances/remove); refused (Device or resource busy)\n"
	"                  while a file of the instance is open, e.g. by a\n"
	"                  'kmark -B NAME stream'\n"
	"  list            print the instances' names, one per line\n"
	"\n"
	"When the kernel refuses, its errno and the last entry of the top\n"
	"error_log are printed.\n"
	"\n"
	"Options:\n"
	"  -l, --long      list: also the number of set_event lines and\n"
	"                  tracing_on of each instance\n"
	"  -h, --help      show this help\n";

/* the top instances/ directory (malloc'd); exit 5 when there is none */
static char *instances_dir(void)
{
	char *dir = ctl_path("instances");
	struct stat st;

	if (stat(dir, &st) || !S_ISDIR(st.st_mode))
		die_code(KM_EXIT_NOINST,
			 "this kernel's kmark has no instances (no directory %s)",
			 dir);
	return dir;
}

/*
 * Make or remove instance NAME: mkdir/rmdir in instances/ of the tracefs
 * copy; in debugfs, which has no such hook, echo NAME > instances/new or
 * instances/remove (there, those files exist). 0 or -errno.
 */
static int make_or_remove(const char *what, const char *name)
{
	char file[32], *buf, *path;
	bool make = !strcmp(what, "new");
	int err;

	snprintf(file, sizeof(file), "instances/%s", what);
	path = ctl_path(file);
	if (access(path, F_OK)) {
		free(path);
		path = xmalloc(strlen(ctl_top_dir()) + strlen(name) + 16);
		sprintf(path, "%s/instances/%s", ctl_top_dir(), name);
		err = make ? mkdir(path, 0755) : rmdir(path);
		err = err ? -errno : 0;
		free(path);
		return err;
	}
	free(path);
	buf = xmalloc(strlen(name) + 2);
	sprintf(buf, "%s\n", name);
	err = ctl_write(file, O_TRUNC, buf);
	free(buf);
	return err;
}

/* make or remove NAME, say why not; an exit code */
static int control(const char *what, const char *name)
{
	char file[32];
	int err = make_or_remove(what, name);

	snprintf(file, sizeof(file), "instances/%s", what);
	if (!err)
		return KM_EXIT_OK;
	if (!strcmp(what, "new"))
		info("cannot create instance '%s': %s", name,
		     ctl_strerror(err));
	else if (err == -EBUSY)
		info("cannot remove instance '%s': %s (a reader of it is open: a 'kmark -B %s stream' or 'record'?)",
		     name, ctl_strerror(err), name);
	else
		info("cannot remove instance '%s': %s", name,
		     ctl_strerror(err));
	print_error_log(file);
	if (err == -ENOENT && strcmp(what, "new"))
		return KM_EXIT_NOINST;
	return KM_EXIT_ERROR;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* the first line of instances/NAME/FILE, trimmed, or "?" (malloc'd) */
static char *first_line(const char *name, const char *file)
{
	char path[128], *v;
	size_t l;

	snprintf(path, sizeof(path), "instances/%s/%s", name, file);
	v = ctl_read(path);
	if (!v)
		return xstrdup("?");
	l = strcspn(v, "\n");
	while (l && isspace((unsigned char)v[l - 1]))
		l--;
	v[l] = '\0';
	return v;
}

static long set_event_lines(const char *name)
{
	struct strlist lines = { 0 };
	char path[128], *v;
	long n;

	snprintf(path, sizeof(path), "instances/%s/set_event", name);
	v = ctl_read(path);
	if (!v)
		return -1;
	set_event_parse(v, &lines);
	free(v);
	n = (long)lines.n;
	sl_free(&lines);
	return n;
}

static int list(bool lng)
{
	struct strlist names = { 0 };
	char *dir = instances_dir();
	struct dirent *de;
	size_t i, w = 8;
	DIR *d;

	d = opendir(dir);
	if (!d)
		die("cannot open %s: %s", dir, strerror(errno));
	while ((de = readdir(d))) {
		struct stat st;
		char *p;

		if (!instance_dirent(de->d_name))
			continue;
		p = xmalloc(strlen(dir) + strlen(de->d_name) + 2);
		sprintf(p, "%s/%s", dir, de->d_name);
		if (!stat(p, &st) && S_ISDIR(st.st_mode))
			sl_push(&names, de->d_name);
		free(p);
	}
	closedir(d);
	free(dir);
	if (names.n)
		qsort(names.v, names.n, sizeof(*names.v), cmp_str);
	for (i = 0; i < names.n; i++)
		if (strlen(names.v[i]) > w)
			w = strlen(names.v[i]);
	if (lng && names.n)
		printf("%-*s  %9s  %s\n", (int)w, "INSTANCE", "SET_EVENT",
		       "TRACING_ON");
	for (i = 0; i < names.n; i++) {
		if (lng) {
			long n = set_event_lines(names.v[i]);
			char *on = first_line(names.v[i], "tracing_on");

			if (n < 0)
				printf("%-*s  %9s  %s\n", (int)w, names.v[i],
				       "?", on);
			else
				printf("%-*s  %9ld  %s\n", (int)w, names.v[i],
				       n, on);
			free(on);
		} else {
			put_line(names.v[i]);
		}
	}
	sl_free(&names);
	return KM_EXIT_OK;
}

int cmd_instance(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "long", no_argument, NULL, 'l' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	bool lng = false;
	const char *sub;
	int opt, i, ret = KM_EXIT_OK;

	while ((opt = getopt_long(argc, argv, "lh", opts, NULL)) != -1) {
		switch (opt) {
		case 'l':
			lng = true;
			break;
		case 'h':
			print_usage(find_cmd("instance"), stdout);
			return KM_EXIT_OK;
		default:
			usage_error("instance", "invalid option");
		}
	}
	if (instance_name())
		usage_error("instance",
			    "-B does not apply: instances are made and removed in the top directory");
	if (optind >= argc)
		usage_error("instance", "no subcommand given (new, remove or list)");
	sub = argv[optind++];
	if (!strcmp(sub, "list")) {
		if (optind < argc)
			usage_error("instance", "unexpected argument '%s'",
				    argv[optind]);
		return list(lng);
	}
	if (strcmp(sub, "new") && strcmp(sub, "remove"))
		usage_error("instance",
			    "unknown subcommand '%s' (new, remove or list)", sub);
	if (lng)
		usage_error("instance", "-l is for 'list' only");
	if (optind >= argc)
		usage_error("instance", "no instance name given");
	free(instances_dir());
	for (i = optind; i < argc; i++) {
		int r = control(sub, argv[i]);

		if (r && !ret)
			ret = r;
	}
	return ret;
}

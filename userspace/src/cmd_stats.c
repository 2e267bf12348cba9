// SPDX-License-Identifier: GPL-2.0
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ctlfmt.h"
#include "kmark.h"
#include "strlist.h"
#include "tparse.h"

const char *const usage_stats =
	"usage: kmark stats [-B NAME]\n"
	"\n"
	"Print the per-CPU ring buffer statistics (per_cpu/cpuN/stats, all\n"
	"CPUs found) as a table, plus tracing_on, buffer_size_kb,\n"
	"buffer_total_size_kb and the trace clock in use (trace_clock).\n"
	"With -B NAME, those of instance NAME (its own buffer).\n"
	"\n"
	"Options:\n"
	KM_HELP_INSTANCE
	"  -h, --help             show this help\n";

static const struct {
	const char *key;
	const char *title;
} columns[] = {
	{ "entries", "ENTRIES" },
	{ "overrun", "OVERRUN" },
	{ "commit overrun", "COMMIT-OVERRUN" },
	{ "bytes", "BYTES" },
	{ "oldest event ts", "OLDEST-TS" },
	{ "now ts", "NOW-TS" },
	{ "dropped events", "DROPPED" },
	{ "read events", "READ" },
	{ "written", "WRITTEN" },
};

#define NCOLS ARRAY_SIZE(columns)
#define MAXKV 32

struct cpu_stats {
	int cpu;
	struct kv kv[MAXKV];
	size_t n;
};

static int cmp_cpu(const void *a, const void *b)
{
	const struct cpu_stats *x = a, *y = b;

	return (x->cpu > y->cpu) - (x->cpu < y->cpu);
}

static const char *value(const struct cpu_stats *c, size_t col)
{
	const char *v = kv_get(c->kv, c->n, columns[col].key);

	return v ? v : "-";
}

/* a control file's value; @optional: nothing when the file is missing */
static void print_value(const char *file, bool optional)
{
	char *v = ctl_read(file), *b, *e;
	size_t l;

	if (!v) {
		if (!optional || errno != ENOENT)
			printf("%s: (unreadable: %s)\n", file, strerror(errno));
		return;
	}
	l = strlen(v);
	while (l && isspace((unsigned char)v[l - 1]))
		v[--l] = '\0';
	/* trace_clock lists them all: "[local] global counter ..." */
	b = strchr(v, '[');
	e = b ? strchr(b, ']') : NULL;
	if (!strcmp(file, "trace_clock") && e) {
		*e = '\0';
		memmove(v, b + 1, strlen(b + 1) + 1);
	}
	printf("%s: %s%s\n", file, v,
	       strcmp(file, "buffer_size_kb") ? "" : " (per CPU)");
	free(v);
}

int cmd_stats(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "help", no_argument, NULL, 'h' },
		KM_OPT_INSTANCE,
		{ NULL, 0, NULL, 0 },
	};
	struct cpu_stats *cpus = NULL;
	size_t ncpus = 0, i, j, w[NCOLS];
	struct dirent *de;
	char *dirpath;
	DIR *d;
	int opt;

	while ((opt = getopt_long(argc, argv, "B:h", opts, NULL)) != -1) {
		switch (opt) {
		case 'B':
			set_instance("stats", optarg);
			break;
		case 'h':
			print_usage(find_cmd("stats"), stdout);
			return KM_EXIT_OK;
		default:
			usage_error("stats", "invalid option");
		}
	}
	if (optind < argc)
		usage_error("stats", "unexpected argument '%s'", argv[optind]);

	dirpath = ctl_path("per_cpu");
	d = opendir(dirpath);
	if (!d)
		die("cannot open %s: %s", dirpath, strerror(errno));
	while ((de = readdir(d))) {
		char file[300], *buf;
		struct cpu_stats *c;
		unsigned long n;

		if (strncmp(de->d_name, "cpu", 3) ||
		    !parse_ulong(de->d_name + 3, &n))
			continue;
		if (n >= TL_MAX_CPUS) {
			warning("ignoring %s/per_cpu/%s: CPU number out of range",
				ctl_dir(), de->d_name);
			continue;
		}
		snprintf(file, sizeof(file), "per_cpu/%s/stats", de->d_name);
		buf = ctl_read(file);
		if (!buf) {
			warning("cannot read %s/%s: %s", ctl_dir(), file,
				strerror(errno));
			continue;
		}
		cpus = xrealloc(cpus, (ncpus + 1) * sizeof(*cpus));
		c = &cpus[ncpus++];
		c->cpu = (int)n;
		c->n = stats_parse(buf, c->kv, MAXKV);
		free(buf);
	}
	closedir(d);
	free(dirpath);
	qsort(cpus, ncpus, sizeof(*cpus), cmp_cpu);

	for (j = 0; j < NCOLS; j++) {
		w[j] = strlen(columns[j].title);
		for (i = 0; i < ncpus; i++)
			if (strlen(value(&cpus[i], j)) > w[j])
				w[j] = strlen(value(&cpus[i], j));
	}
	printf("%4s", "CPU");
	for (j = 0; j < NCOLS; j++)
		printf("  %*s", (int)w[j], columns[j].title);
	putchar('\n');
	for (i = 0; i < ncpus; i++) {
		printf("%4d", cpus[i].cpu);
		for (j = 0; j < NCOLS; j++)
			printf("  %*s", (int)w[j], value(&cpus[i], j));
		putchar('\n');
	}
	if (!ncpus)
		puts("(no per-CPU statistics found)");
	free(cpus);
	print_value("tracing_on", false);
	print_value("buffer_size_kb", false);
	print_value("buffer_total_size_kb", true);
	print_value("trace_clock", true);
	return KM_EXIT_OK;
}

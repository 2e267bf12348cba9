// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kmark.h"
#include "report_core.h"

const char *const usage_report =
	"usage: kmark report [--top N] FILE\n"
	"\n"
	"Summarise a trace recorded with 'kmark record' (or a copy of the\n"
	"trace file; '#' header lines are skipped; FILE '-' is stdin):\n"
	"per task: switches in/out and time on CPU from sched_switch,\n"
	"wakeups from sched_wakeup, events; per CPU: switches, events, lost\n"
	"events. Time on CPU only counts complete intervals, from a task's\n"
	"switch-in to its switch-out on the same CPU. Lines with a number out\n"
	"of range (CPU above 8191, or a pid, timestamp or count too large) are\n"
	"skipped with a warning; NUL bytes are read as '?'.\n"
	"\n"
	"Options:\n"
	"  -n, --top N     show only the N tasks with most time on CPU\n"
	"  -h, --help      show this help\n";

int cmd_report(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "top", required_argument, NULL, 'n' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct report r;
	unsigned long top = 0;
	char *line = NULL;
	size_t cap = 0;
	ssize_t n;
	bool nul = false;
	FILE *f;
	int opt;

	while ((opt = getopt_long(argc, argv, "n:h", opts, NULL)) != -1) {
		switch (opt) {
		case 'n':
			if (!parse_ulong(optarg, &top) || !top)
				usage_error("report", "invalid --top '%s'",
					    optarg);
			break;
		case 'h':
			print_usage(find_cmd("report"), stdout);
			return KM_EXIT_OK;
		default:
			usage_error("report", "invalid option");
		}
	}
	if (optind >= argc)
		usage_error("report", "no trace file given");
	if (argc - optind > 1)
		usage_error("report", "too many arguments");

	if (!strcmp(argv[optind], "-"))
		f = stdin;
	else
		f = fopen(argv[optind], "r");
	if (!f)
		die("cannot open %s: %s", argv[optind], strerror(errno));

	report_init(&r);
	while ((n = getline(&line, &cap, f)) >= 0) {
		/* a NUL would cut the line short: read it as '?' */
		for (; n > 0; n--) {
			if (!line[n - 1]) {
				line[n - 1] = '?';
				nul = true;
			}
		}
		report_feed_line(&r, line);
	}
	if (ferror(f))
		die("cannot read %s: %s", argv[optind], strerror(errno));
	free(line);
	if (f != stdin)
		fclose(f);

	if (nul)
		warning("NUL byte(s) in %s, read as '?'", argv[optind]);
	if (r.out_of_range)
		warning("skipped %llu line(s) with a number out of range (CPU above %d, or a pid, timestamp or count too large)",
			r.out_of_range, TL_MAX_CPUS - 1);
	report_sort(&r);
	report_print(&r, stdout, argv[optind], top);
	report_free(&r);
	return KM_EXIT_OK;
}

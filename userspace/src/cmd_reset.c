// SPDX-License-Identifier: GPL-2.0
#include <fcntl.h>
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "kmark.h"
#include "strlist.h"

const char *const usage_reset =
	"usage: kmark reset\n"
	"\n"
	"Turn everything off and start afresh: disable all events (truncate\n"
	"set_event), remove all kprobe events (truncate kprobe_events), clear\n"
	"the trace buffer (truncate trace) and set tracing_on to 1.\n"
	"\n"
	"Options:\n"
	"  -h, --help      show this help\n";

int cmd_reset(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	static const char *const clear[] = {
		"set_event",		/* first: enabled kprobes can't go */
		"kprobe_events",
		"trace",
	};
	int opt, err, ret = KM_EXIT_OK;
	size_t i;

	while ((opt = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (opt) {
		case 'h':
			print_usage(find_cmd("reset"), stdout);
			return KM_EXIT_OK;
		default:
			usage_error("reset", "invalid option");
		}
	}
	if (optind < argc)
		usage_error("reset", "unexpected argument '%s'", argv[optind]);

	ctl_dir();
	for (i = 0; i < ARRAY_SIZE(clear); i++) {
		err = ctl_clear(clear[i]);
		if (err) {
			info("cannot clear %s: %s", clear[i], ctl_strerror(err));
			print_error_log();
			ret = KM_EXIT_ERROR;
		}
	}
	err = ctl_write("tracing_on", O_TRUNC, "1\n");
	if (err) {
		info("cannot write 1 to tracing_on: %s", ctl_strerror(err));
		ret = KM_EXIT_ERROR;
	}
	return ret;
}

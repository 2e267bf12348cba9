// SPDX-License-Identifier: GPL-2.0
#include <fcntl.h>
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "kmark.h"
#include "strlist.h"

const char *const usage_reset =
	"usage: kmark reset [-B NAME]\n"
	"\n"
	"Turn everything off and start afresh: disable all events (truncate\n"
	"set_event), remove all kprobe events (truncate kprobe_events), clear\n"
	"the trace buffer (truncate trace) and set tracing_on to 1.\n"
	"With -B NAME, in instance NAME only: its set_event, trace and\n"
	"tracing_on. Kprobe events are then kept: they are defined for every\n"
	"instance, and other sessions may use them. Instances themselves are\n"
	"never removed ('kmark instance remove NAME').\n"
	"\n"
	"Options:\n"
	KM_HELP_INSTANCE
	"  -h, --help             show this help\n";

int cmd_reset(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "help", no_argument, NULL, 'h' },
		KM_OPT_INSTANCE,
		{ NULL, 0, NULL, 0 },
	};
	static const char *const clear[] = {
		"set_event",		/* first: enabled kprobes can't go */
		"kprobe_events",
		"trace",
	};
	int opt, err, ret = KM_EXIT_OK;
	size_t i;

	while ((opt = getopt_long(argc, argv, "B:h", opts, NULL)) != -1) {
		switch (opt) {
		case 'B':
			set_instance("reset", optarg);
			break;
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
		/* kprobe events are shared by every instance: keep them */
		if (instance_name() && !strcmp(clear[i], "kprobe_events"))
			continue;
		/* a kernel without kprobes has no kprobe_events */
		if (!strcmp(clear[i], "kprobe_events") &&
		    !ctl_exists("kprobe_events"))
			continue;
		err = ctl_clear(clear[i]);
		if (err) {
			info("cannot clear %s: %s", clear[i], ctl_strerror(err));
			print_error_log(clear[i]);
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

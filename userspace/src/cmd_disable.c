// SPDX-License-Identifier: GPL-2.0
#include <getopt.h>
#include <stdio.h>

#include "kmark.h"

const char *const usage_disable =
	"usage: kmark disable [-B NAME] NAME|SYS:NAME|GLOB...\n"
	"\n"
	"Disable events by appending '!NAME' to set_event. Names take the\n"
	"forms 'kmark enable' takes ('SYS:NAME', 'NAME', globs such as\n"
	"'mydrv:*'); a 'MODULE:NAME' waiting for its module is dropped by any\n"
	"name or glob that names it (kmark warns if the kernel kept it). The\n"
	"kprobe event that 'kmark enable MODULE:SYM' defined is disabled as\n"
	"'kprobes:SYM'. Kprobe event definitions are kept (use 'kmark reset'\n"
	"to remove them).\n"
	"With -B NAME, the names are disabled in instance NAME's set_event\n"
	"only; other instances and the top keep theirs.\n"
	"\n"
	"Options:\n"
	KM_HELP_INSTANCE
	"  -h, --help             show this help\n";

int cmd_disable(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "help", no_argument, NULL, 'h' },
		KM_OPT_INSTANCE,
		{ NULL, 0, NULL, 0 },
	};
	int opt, i, ret = KM_EXIT_OK;

	while ((opt = getopt_long(argc, argv, "B:h", opts, NULL)) != -1) {
		switch (opt) {
		case 'B':
			set_instance("disable", optarg);
			break;
		case 'h':
			print_usage(find_cmd("disable"), stdout);
			return KM_EXIT_OK;
		default:
			usage_error("disable", "invalid option");
		}
	}
	if (optind >= argc)
		usage_error("disable", "no event name given");
	ctl_dir();	/* -B NAME: exit 5 when there is no such instance */
	for (i = optind; i < argc; i++) {
		int r = disable_event(argv[i]);

		if (r && !ret)
			ret = r;
	}
	events_cleanup();
	return ret;
}

// SPDX-License-Identifier: GPL-2.0
#include <getopt.h>
#include <stdio.h>

#include "kmark.h"

const char *const usage_disable =
	"usage: kmark disable NAME|GLOB...\n"
	"\n"
	"Disable events by appending '!NAME' to set_event. Kprobe event\n"
	"definitions are kept (use 'kmark reset' to remove them).\n"
	"\n"
	"Options:\n"
	"  -h, --help      show this help\n";

int cmd_disable(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int opt, i, ret = KM_EXIT_OK;

	while ((opt = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (opt) {
		case 'h':
			print_usage(find_cmd("disable"), stdout);
			return KM_EXIT_OK;
		default:
			usage_error("disable", "invalid option");
		}
	}
	if (optind >= argc)
		usage_error("disable", "no event name given");
	for (i = optind; i < argc; i++) {
		int r = disable_event(argv[i]);

		if (r && !ret)
			ret = r;
	}
	return ret;
}

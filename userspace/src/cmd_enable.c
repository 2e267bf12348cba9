// SPDX-License-Identifier: GPL-2.0
#include <getopt.h>
#include <stdio.h>

#include "kmark.h"

const char *const usage_enable =
	"usage: kmark enable [--no-fallback] NAME|GLOB...\n"
	"\n"
	"Enable markers or kprobe events by appending their names to\n"
	"set_event. If NAME (not a glob) is not a marker, kmark looks for a\n"
	"kernel function of that name in /proc/kallsyms (a unique compiler\n"
	"clone NAME.isra.N, NAME.constprop.N or NAME.part.N is accepted) that\n"
	"is not on the kprobe blacklist, defines 'p:kprobes/NAME SYMBOL' in\n"
	"kprobe_events and enables it. Otherwise it explains why, and\n"
	"suggests up to 3 marker names close to NAME.\n"
	"\n"
	"Options:\n"
	"  -n, --no-fallback   never define kprobe events\n"
	"  -q, --quiet         do not report kprobe fallbacks\n"
	"  -h, --help          show this help\n";

int cmd_enable(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "no-fallback", no_argument, NULL, 'n' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct enable_opts o = { 0 };
	int opt, i, ret = KM_EXIT_OK;

	while ((opt = getopt_long(argc, argv, "nqh", opts, NULL)) != -1) {
		switch (opt) {
		case 'n':
			o.no_fallback = true;
			break;
		case 'q':
			o.quiet = true;
			break;
		case 'h':
			print_usage(find_cmd("enable"), stdout);
			return KM_EXIT_OK;
		default:
			usage_error("enable", "invalid option");
		}
	}
	if (optind >= argc)
		usage_error("enable", "no event name given");
	for (i = optind; i < argc; i++) {
		int r = enable_event(argv[i], &o, NULL);

		/* keep going; report the first failure */
		if (r && !ret)
			ret = r;
	}
	events_cleanup();
	return ret;
}

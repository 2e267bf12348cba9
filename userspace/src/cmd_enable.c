// SPDX-License-Identifier: GPL-2.0
#include <getopt.h>
#include <stdio.h>

#include "kmark.h"

const char *const usage_enable =
	"usage: kmark enable [-B NAME] [--no-fallback] NAME|SYS:NAME|GLOB...\n"
	"\n"
	"Enable markers or kprobe events by appending their names to\n"
	"set_event, as the kernel takes them: 'SYS:NAME' (sched:sched_switch,\n"
	"kprobes:myopen; a module's markers are in the system of the module's\n"
	"name: kmark_sample:kmark_sample_step), with globs in both parts\n"
	"('kmark_sample:*', '*:sched_*'), 'SYS:' for a whole system, or a\n"
	"plain 'NAME', which names the events of that name in every system\n"
	"and every event of a system of that name. 'MODULE:NAME' of a module\n"
	"that is not loaded (no glob in MODULE) is written all the same: it\n"
	"waits in set_event and takes effect when the module loads.\n"
	"\n"
	"If NAME (not a glob) is not a marker, kmark looks for a kernel\n"
	"function of that name in /proc/kallsyms (a unique compiler clone\n"
	"NAME.isra.N, NAME.constprop.N or NAME.part.N is accepted; with\n"
	"MODULE:NAME, among MODULE's functions only) that is not on the kprobe\n"
	"blacklist, defines 'p:kprobes/NAME SYMBOL' in kprobe_events (SYMBOL\n"
	"is 'MODULE:SYM' for a module's function, so that the probe is armed\n"
	"again when the module reloads) and enables kprobes:NAME. Otherwise\n"
	"it explains why, and suggests up to 3 event names close to NAME. A\n"
	"kernel without kprobe events (no kprobe_events file) has no fallback,\n"
	"and kmark says so.\n"
	"\n"
	"With -B NAME, the names go to instance NAME's set_event; a kprobe\n"
	"fallback still defines its event in the top kprobe_events (kprobe\n"
	"events are defined for all instances) and enables it in NAME only.\n"
	"\n"
	"Options:\n"
	"  -n, --no-fallback      never define kprobe events\n"
	"  -q, --quiet            do not report kprobe fallbacks or names\n"
	"                         that wait for their module\n"
	KM_HELP_INSTANCE
	"  -h, --help             show this help\n";

int cmd_enable(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "no-fallback", no_argument, NULL, 'n' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "help", no_argument, NULL, 'h' },
		KM_OPT_INSTANCE,
		{ NULL, 0, NULL, 0 },
	};
	struct enable_opts o = { 0 };
	int opt, i, ret = KM_EXIT_OK;

	while ((opt = getopt_long(argc, argv, "B:nqh", opts, NULL)) != -1) {
		switch (opt) {
		case 'n':
			o.no_fallback = true;
			break;
		case 'q':
			o.quiet = true;
			break;
		case 'B':
			set_instance("enable", optarg);
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
	ctl_dir();	/* -B NAME: exit 5 when there is no such instance */
	for (i = optind; i < argc; i++) {
		int r = enable_event(argv[i], &o, NULL);

		/* keep going; report the first failure */
		if (r && !ret)
			ret = r;
	}
	events_cleanup();
	return ret;
}

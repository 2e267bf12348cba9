// SPDX-License-Identifier: GPL-2.0
#include <fcntl.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kmark.h"
#include "strlist.h"

const char *const usage_probe =
	"usage: kmark probe DEFINITION\n"
	"\n"
	"Append a kprobe event definition to kprobe_events, e.g.\n"
	"  kmark probe 'p:myopen do_sys_openat2 dfd=%di fname=+0(%si):string'\n"
	"  kmark probe 'r:myret do_sys_openat2 ret=$retval'\n"
	"When the kernel rejects it, the error and the last error_log entry\n"
	"(which points at the offending token) are printed.\n"
	"Kprobe events are defined at the top, for every instance: -B makes\n"
	"no difference here; enable the event in an instance with\n"
	"'kmark -B NAME enable EVENT'.\n"
	"\n"
	"Options:\n"
	"  -h, --help      show this help\n";

int cmd_probe(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	char *buf;
	int opt, err;

	while ((opt = getopt_long(argc, argv, "+h", opts, NULL)) != -1) {
		switch (opt) {
		case 'h':
			print_usage(find_cmd("probe"), stdout);
			return KM_EXIT_OK;
		default:
			usage_error("probe", "invalid option");
		}
	}
	if (optind >= argc)
		usage_error("probe", "no probe definition given");
	if (argc - optind > 1)
		usage_error("probe",
			    "too many arguments (quote the definition)");

	if (!ctl_exists("kprobe_events")) {
		info("cannot add probe '%s': this kernel has no kprobe events (no %s/kprobe_events: CONFIG_KPROBES or CONFIG_KMARK_KPROBES is off)",
		     argv[optind], ctl_top_dir());
		return KM_EXIT_ERROR;
	}
	buf = xmalloc(strlen(argv[optind]) + 2);
	sprintf(buf, "%s\n", argv[optind]);
	err = ctl_write("kprobe_events", O_APPEND, buf);
	free(buf);
	if (err) {
		info("cannot add probe '%s': %s", argv[optind],
		     ctl_strerror(err));
		print_error_log("kprobe_events");
		return KM_EXIT_ERROR;
	}
	return KM_EXIT_OK;
}

// SPDX-License-Identifier: GPL-2.0
#include <fnmatch.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ctlfmt.h"
#include "kmark.h"

const char *const usage_list =
	"usage: kmark list [-e] [GLOB]\n"
	"\n"
	"List markers and kprobe events with their fields and state, from\n"
	"available_markers and set_event. GLOB (shell pattern) restricts the\n"
	"list; kprobe events match as 'kprobes/NAME' or 'NAME'.\n"
	"\n"
	"Options:\n"
	"  -e, --enabled   list enabled events only\n"
	"  -h, --help      show this help\n";

static void print_fields(const struct marker *m)
{
	size_t i;

	if (!m->nfields)
		fputs("-", stdout);
	for (i = 0; i < m->nfields; i++)
		printf("%s%s=%s", i ? " " : "", m->fields[i].name,
		       m->fields[i].conv);
}

int cmd_list(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "enabled", no_argument, NULL, 'e' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct marker_list ml;
	struct strlist enabled = { 0 };
	const char *glob = NULL;
	bool only_enabled = false;
	char *buf;
	size_t i, w = 5, shown = 0;
	int opt;

	while ((opt = getopt_long(argc, argv, "eh", opts, NULL)) != -1) {
		switch (opt) {
		case 'e':
			only_enabled = true;
			break;
		case 'h':
			print_usage(find_cmd("list"), stdout);
			return KM_EXIT_OK;
		default:
			usage_error("list", "invalid option");
		}
	}
	if (argc - optind > 1)
		usage_error("list", "too many arguments");
	if (optind < argc)
		glob = argv[optind];

	buf = ctl_read_or_die("available_markers");
	markers_parse(buf, &ml);
	free(buf);
	buf = ctl_read_or_die("set_event");
	set_event_parse(buf, &enabled);
	free(buf);

	for (i = 0; i < ml.n; i++)
		if (strlen(ml.v[i].name) > w)
			w = strlen(ml.v[i].name);
	for (i = 0; i < ml.n; i++) {
		const struct marker *m = &ml.v[i];
		bool on = set_event_has(&enabled, m->name);

		if (glob && fnmatch(glob, m->name, 0) &&
		    fnmatch(glob, event_short_name(m->name), 0))
			continue;
		if (only_enabled && !on)
			continue;
		if (!shown++)
			printf("%-*s  %-9s  %-8s  %s\n", (int)w, "EVENT",
			       "TYPE", "STATE", "FIELDS");
		printf("%-*s  %-9s  %-8s  ", (int)w, m->name,
		       marker_type_name(m->type), on ? "enabled" : "disabled");
		print_fields(m);
		putchar('\n');
	}
	markers_free(&ml);
	sl_free(&enabled);
	if (!shown && glob) {
		info("no event matches '%s'", glob);
		return KM_EXIT_NOEVENT;
	}
	return KM_EXIT_OK;
}

// SPDX-License-Identifier: GPL-2.0
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ctlfmt.h"
#include "kmark.h"

const char *const usage_list =
	"usage: kmark list [-B NAME] [-e] [GLOB]\n"
	"\n"
	"List markers and kprobe events, as SYS:NAME, with their module, type,\n"
	"state and fields, from available_markers and set_event. SYS is the\n"
	"event's system: sched, syscalls, kmark for the kernel's other\n"
	"markers, a module's name for its markers, the group of a kprobe\n"
	"event (kprobes). MODULE is the module a marker belongs to, '-' for\n"
	"the kernel's markers and kprobe events. STATE is enabled, disabled,\n"
	"or pending: a 'MODULE:NAME' in set_event that waits for MODULE to\n"
	"load (no listed event matches it).\n"
	"\n"
	"GLOB (shell pattern) restricts the list, as set_event matches names:\n"
	"'SYS:NAME' with a pattern in both parts ('kmark_sample:*',\n"
	"'*:sched_*'), or a plain 'NAME', which matches the events of that\n"
	"name in every system and every event of a system of that name.\n"
	"\n"
	"With -B NAME, STATE is the one in instance NAME's set_event (the\n"
	"events themselves are the top's available_markers: every instance\n"
	"has them all).\n"
	"\n"
	"Options:\n"
	"  -e, --enabled          list enabled and pending events only\n"
	KM_HELP_INSTANCE
	"  -h, --help             show this help\n";

struct listing {
	struct marker_list ml;
	char **ids;		/* ml.n entries: "SYS:NAME" */
	bool *on;		/* ml.n entries: enabled */
	struct strlist waiting;	/* set_event tokens no listed event matches */
	const char *glob;
	bool only_enabled;
	int w, mw;		/* widths of the EVENT and MODULE columns */
	size_t shown;
};

static void widen(int *w, const char *s)
{
	if ((int)strlen(s) > *w)
		*w = (int)strlen(s);
}

/* the tokens no listed event matches: they wait for their module */
static void find_waiting(struct listing *l, const struct strlist *tokens)
{
	struct strlist ids = { 0 };
	char mod[KM_MODNAME_LEN];
	size_t i;

	markers_names(&l->ml, &ids);
	for (i = 0; i < tokens->n; i++)
		if (event_split(tokens->v[i], mod) && mod[0] &&
		    !ids_match_token(&ids, tokens->v[i]) &&
		    !sl_contains(&l->waiting, tokens->v[i]))
			sl_push(&l->waiting, tokens->v[i]);
	sl_free(&ids);
}

/*
 * A line of set_event that is an event's id is that event enabled, or a
 * token kept for its module while the event was turned off another way
 * (events/SYS/NAME/enable): its enable file says which.
 */
static void confirm_enabled(struct listing *l)
{
	size_t i;

	for (i = 0; i < l->ml.n; i++) {
		const struct marker *m = &l->ml.v[i];
		char *path, *v;

		if (!l->on[i])
			continue;
		path = xmalloc(strlen(m->system) + strlen(m->name) + 16);
		sprintf(path, "events/%s/%s/enable", m->system, m->name);
		v = ctl_read(path);
		if (v && v[0] == '0')
			l->on[i] = false;
		free(v);
		free(path);
	}
}

static void set_widths(struct listing *l)
{
	size_t i;

	l->w = 5;
	l->mw = 6;
	for (i = 0; i < l->ml.n; i++) {
		widen(&l->w, l->ids[i]);
		if (l->ml.v[i].module)
			widen(&l->mw, l->ml.v[i].module);
	}
	for (i = 0; i < l->waiting.n; i++) {
		char mod[KM_MODNAME_LEN];

		widen(&l->w, l->waiting.v[i]);
		event_split(l->waiting.v[i], mod);
		widen(&l->mw, mod);
	}
}

static void load(struct listing *l)
{
	struct strlist lines = { 0 }, tokens = { 0 };
	char *buf;
	size_t i;

	buf = ctl_read_or_die("available_markers");
	markers_parse(buf, &l->ml);
	free(buf);
	l->ids = xmalloc((l->ml.n + 1) * sizeof(*l->ids));
	for (i = 0; i < l->ml.n; i++)
		l->ids[i] = marker_id(&l->ml.v[i]);
	buf = ctl_read_or_die("set_event");
	set_event_parse(buf, &lines);
	free(buf);
	l->on = xmalloc((l->ml.n + 1) * sizeof(*l->on));
	set_event_split(&l->ml, &lines, l->on, &tokens);
	confirm_enabled(l);
	find_waiting(l, &tokens);
	set_widths(l);
	sl_free(&lines);
	sl_free(&tokens);
}

/* print a row's first columns (and the header before the first row) */
static void row(struct listing *l, const char *id, const char *mod,
		const char *type, const char *state)
{
	if (!l->shown++)
		printf("%-*s  %-*s  %-9s  %-8s  %s\n", l->w, "EVENT", l->mw,
		       "MODULE", "TYPE", "STATE", "FIELDS");
	printf("%-*s  %-*s  %-9s  %-8s  ", l->w, id, l->mw, mod ? mod : "-",
	       type, state);
}

static void print_fields(const struct marker *m)
{
	size_t i;

	if (!m->nfields)
		fputs("-", stdout);
	for (i = 0; i < m->nfields; i++)
		printf("%s%s=%s", i ? " " : "", m->fields[i].name,
		       m->fields[i].conv);
}

static void list_events(struct listing *l)
{
	size_t i;

	for (i = 0; i < l->ml.n; i++) {
		const struct marker *m = &l->ml.v[i];

		if (l->glob && !event_token_matches(l->glob, m->system, m->name))
			continue;
		if (l->only_enabled && !l->on[i])
			continue;
		row(l, l->ids[i], m->module, marker_type_name(m->type),
		    l->on[i] ? "enabled" : "disabled");
		print_fields(m);
		putchar('\n');
	}
}

/* the tokens waiting for their module: only markers can wait */
static void list_waiting(struct listing *l)
{
	char mod[KM_MODNAME_LEN];
	size_t i;

	for (i = 0; i < l->waiting.n; i++) {
		const char *name = event_split(l->waiting.v[i], mod);

		if (l->glob && !event_token_matches(l->glob, mod, name))
			continue;
		row(l, l->waiting.v[i], mod, "marker", "pending");
		printf("(waits for module %s)\n", mod);
	}
}

int cmd_list(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "enabled", no_argument, NULL, 'e' },
		{ "help", no_argument, NULL, 'h' },
		KM_OPT_INSTANCE,
		{ NULL, 0, NULL, 0 },
	};
	struct listing l = { 0 };
	int opt;

	while ((opt = getopt_long(argc, argv, "B:eh", opts, NULL)) != -1) {
		switch (opt) {
		case 'e':
			l.only_enabled = true;
			break;
		case 'B':
			set_instance("list", optarg);
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
		l.glob = argv[optind];

	ctl_dir();	/* -B NAME: exit 5 when there is no such instance */
	load(&l);
	list_events(&l);
	list_waiting(&l);
	for (size_t i = 0; i < l.ml.n; i++)
		free(l.ids[i]);
	free(l.ids);
	markers_free(&l.ml);
	free(l.on);
	sl_free(&l.waiting);
	if (!l.shown && l.glob) {
		info("no event matches '%s'", l.glob);
		return KM_EXIT_NOEVENT;
	}
	return KM_EXIT_OK;
}

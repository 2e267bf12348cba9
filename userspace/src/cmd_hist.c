// SPDX-License-Identifier: GPL-2.0
/*
 * kmark hist: a hist trigger for the time of a command (or -t, or until
 * Ctrl-C), its table printed, everything it set up removed again. With
 * --latency FROM TO, histogram.rst's wakeup_latency pairing: a synthetic
 * event fed by onmatch(), and the hist of its latencies.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "kmark.h"
#include "strlist.h"

const char *const usage_hist =
	"usage: kmark hist [options] EVENT [-- COMMAND [ARG...]]\n"
	"       kmark hist [options] --latency FROM.FIELD TO.FIELD [-- COMMAND...]\n"
	"\n"
	"Count in the kernel, as ftrace's hist triggers do: write a hist trigger\n"
	"on EVENT (SYSTEM:NAME, SYSTEM/NAME, or a NAME only one system has),\n"
	"wait while COMMAND runs (or -t SECONDS, or until Ctrl-C), print the\n"
	"event's hist file, and remove the trigger.\n"
	"\n"
	"With --latency, the time in microseconds from an event FROM to the\n"
	"next event TO whose FIELD has the same value (FROM's FIELD), as\n"
	"histogram.rst's wakeup_latency: 'kmark hist --latency\n"
	"sched:sched_wakeup.pid sched:sched_switch.next_pid' is the wakeup to\n"
	"run latency by task. A synthetic event kmark_lat_PID (u64 lat, and\n"
	"key: TO's FIELD) gets each latency; its hist is printed (default keys:\n"
	"lat.log2), then the triggers and the synthetic event are removed.\n"
	"\n"
	"Options:\n"
	"  -k, --keys KEYS        keys= (default: common_pid.execname; with\n"
	"                         --latency, lat.log2; key is TO's FIELD)\n"
	"  -v, --vals VALS        vals= (default: hitcount only)\n"
	"  -s, --sort SORT        sort= (default: hitcount.descending; with\n"
	"                         --latency, the first key)\n"
	"  -S, --size N           size= (entries of the table)\n"
	"  -f, --filter FILTER    count only the events FILTER accepts (EVENT's,\n"
	"                         or FROM's with --latency)\n"
	"  -t, --time SECONDS     count for SECONDS (without COMMAND)\n"
	"  -l, --latency          FROM.FIELD TO.FIELD instead of EVENT\n"
	KM_HELP_INSTANCE
	"  -h, --help             show this help\n"
	"\n"
	"The hist file's text is printed as the kernel gives it (Totals:\n"
	"Hits, Entries, Dropped: a full table counts what it drops).\n";

struct hist_ev {
	char *sys, *name;
	char *field;		/* --latency: the pid-like field */
	char *trigger;		/* events/SYS/NAME/trigger */
};

/* SYS:NAME, SYS/NAME or NAME (one system has it), with .FIELD if want */
static int parse_event(const char *spec, bool field, struct hist_ev *e)
{
	char *s = xstrdup(spec), *dot = NULL, *sep, *avail, *line, *save;
	char *found = NULL;
	int n = 0;

	if (field) {
		dot = strrchr(s, '.');
		if (!dot || !dot[1] || dot == s)
			usage_error("hist", "'%s': FROM and TO are SYSTEM:EVENT.FIELD",
				    spec);
		*dot++ = '\0';
		e->field = xstrdup(dot);
	}
	sep = strpbrk(s, ":/");
	if (sep) {
		*sep = '\0';
		e->sys = xstrdup(s);
		e->name = xstrdup(sep + 1);
	} else {
		/* available_events: SYS:NAME lines */
		avail = ctl_read("available_events");
		if (!avail) {
			info("cannot read available_events: %s", strerror(errno));
			free(s);
			return KM_EXIT_ERROR;
		}
		for (line = strtok_r(avail, "\n", &save); line;
		     line = strtok_r(NULL, "\n", &save)) {
			char *c = strchr(line, ':');

			if (c && !strcmp(c + 1, s)) {
				n++;
				free(found);
				found = xstrdup(line);
			}
		}
		free(avail);
		if (n != 1) {
			info(n ? "'%s' is in %d systems: name it SYSTEM:%s" :
			     "no event '%s' (see available_events)", s, n, s);
			free(found);
			free(s);
			return KM_EXIT_NOEVENT;
		}
		sep = strchr(found, ':');
		*sep = '\0';
		e->sys = xstrdup(found);
		e->name = xstrdup(sep + 1);
		free(found);
	}
	free(s);
	if (!*e->sys || !*e->name)
		usage_error("hist", "'%s': an empty system or event name", spec);
	e->trigger = xmalloc(strlen(e->sys) + strlen(e->name) + 32);
	sprintf(e->trigger, "events/%s/%s/trigger", e->sys, e->name);
	s = ctl_path(e->trigger);
	n = access(s, F_OK);
	free(s);
	if (n) {
		info("no event %s:%s (no %s/%s)", e->sys, e->name, ctl_dir(),
		     e->trigger);
		return KM_EXIT_NOEVENT;
	}
	return KM_EXIT_OK;
}

/* The type of @e's field, from its format file ("s64" if not found). */
static char *field_type(const struct hist_ev *e)
{
	char *path = xmalloc(strlen(e->sys) + strlen(e->name) + 32), *fmt;
	char *line, *save, *type = NULL;
	size_t flen = strlen(e->field);

	sprintf(path, "events/%s/%s/format", e->sys, e->name);
	fmt = ctl_read(path);
	free(path);
	for (line = fmt ? strtok_r(fmt, "\n", &save) : NULL; line && !type;
	     line = strtok_r(NULL, "\n", &save)) {
		char *f = strstr(line, "field:"), *semi;

		if (!f)
			continue;
		f += 6;
		semi = strchr(f, ';');
		/* "TYPE NAME;": NAME is the field's, TYPE has no '[' */
		if (!semi || (size_t)(semi - f) <= flen + 1 ||
		    strncmp(semi - flen, e->field, flen) || semi[-flen - 1] != ' ')
			continue;
		semi[-flen - 1] = '\0';
		if (!strchr(f, '['))
			type = xstrdup(f);
	}
	free(fmt);
	return type ? type : xstrdup("s64");
}

static void free_event(struct hist_ev *e)
{
	free(e->sys);
	free(e->name);
	free(e->field);
	free(e->trigger);
}

/* what the user asked for the table */
struct hist_opts {
	const char *keys, *vals, *sort, *filter;
	unsigned long size;
};

/* "hist:keys=K[:vals=V][:sort=S][:size=N][ if F]" into a malloc'd string */
static char *hist_text(const char *keys, const char *vals, const char *sort,
		       unsigned long size, const char *filter)
{
	size_t n = strlen(keys) + (vals ? strlen(vals) : 0) +
		   (sort ? strlen(sort) : 0) + (filter ? strlen(filter) : 0) + 96;
	char *t = xmalloc(n);
	int at = snprintf(t, n, "hist:keys=%s", keys);

	if (vals && *vals)
		at += snprintf(t + at, n - at, ":vals=%s", vals);
	if (sort && *sort)
		at += snprintf(t + at, n - at, ":sort=%s", sort);
	if (size)
		at += snprintf(t + at, n - at, ":size=%lu", size);
	if (filter && *filter)
		snprintf(t + at, n - at, " if %s", filter);
	return t;
}

/* A line written to a control file (O_APPEND), its error told. */
static int put(const char *file, const char *text)
{
	int err = ctl_write(file, O_APPEND, text);

	if (err) {
		info("cannot write '%s' to %s: %s", text, file,
		     ctl_strerror(err));
		print_error_log(file);
		return KM_EXIT_ERROR;
	}
	return KM_EXIT_OK;
}

/* synthetic_events is the top directory's, whatever -B says */
static int put_synth(const char *text)
{
	char *path = xmalloc(strlen(ctl_top_dir()) + 32);
	int fd, ret = KM_EXIT_OK;

	sprintf(path, "%s/synthetic_events", ctl_top_dir());
	fd = open(path, O_WRONLY | O_APPEND | O_CLOEXEC);
	if (fd < 0 || write(fd, text, strlen(text)) < 0) {
		info("cannot write '%s' to %s: %s", text, path, strerror(errno));
		ret = KM_EXIT_ERROR;
	}
	if (fd >= 0)
		close(fd);
	free(path);
	return ret;
}

/* Until the command ends, the time is up or a stop signal came. */
static int hist_wait(char **cmd, double seconds)
{
	double deadline = seconds > 0 ? mono_now() + seconds : 0;
	pid_t pid;
	int st;

	install_stop_handlers();
	if (!cmd || !*cmd) {
		while (!kmark_stop && (!deadline || mono_now() < deadline))
			stop_poll(NULL, 0, deadline);
		return KM_EXIT_OK;
	}
	pid = fork();
	if (pid < 0) {
		info("cannot fork: %s", strerror(errno));
		return KM_EXIT_ERROR;
	}
	if (!pid) {
		execvp(cmd[0], cmd);
		fprintf(stderr, "kmark: cannot run %s: %s\n", cmd[0],
			strerror(errno));
		_exit(127);
	}
	while (waitpid(pid, &st, 0) < 0) {
		if (errno != EINTR) {
			info("cannot wait for %s: %s", cmd[0], strerror(errno));
			return KM_EXIT_ERROR;
		}
		/* Ctrl-C reached the command too; a TERM is passed on */
		if (kmark_stop)
			kill(pid, SIGTERM);
	}
	if (WIFEXITED(st) && WEXITSTATUS(st) == 127) {
		info("%s did not run", cmd[0]);
		return KM_EXIT_ERROR;
	}
	return KM_EXIT_OK;
}

static int print_hist(const char *sys, const char *name)
{
	char *path = xmalloc(strlen(sys) + strlen(name) + 32), *text;
	int ret = KM_EXIT_OK;

	sprintf(path, "events/%s/%s/hist", sys, name);
	text = ctl_read(path);
	if (!text) {
		info("cannot read %s: %s", path, strerror(errno));
		ret = KM_EXIT_ERROR;
	} else if (fputs(text, stdout) == EOF) {
		ret = KM_EXIT_ERROR;
	}
	free(text);
	free(path);
	return ret;
}

/* "!TEXT" into FILE: what put() wrote goes; an error is said */
static int unput(const char *file, const char *text)
{
	char *t = xmalloc(strlen(text) + 2);
	int ret;

	sprintf(t, "!%s", text);
	ret = put(file, t);
	free(t);
	return ret;
}

static int hist_one(const char *spec, const struct hist_opts *o, char **cmd,
		    double seconds)
{
	struct hist_ev e = { 0 };
	char *t;
	int ret;

	ret = parse_event(spec, false, &e);
	if (ret)
		goto out;
	t = hist_text(o->keys ? o->keys : "common_pid.execname", o->vals,
		      o->sort ? o->sort : "hitcount.descending", o->size,
		      o->filter);
	ret = put(e.trigger, t);
	if (!ret) {
		ret = hist_wait(cmd, seconds);
		if (print_hist(e.sys, e.name) && !ret)
			ret = KM_EXIT_ERROR;
		if (unput(e.trigger, t) && !ret)
			ret = KM_EXIT_ERROR;
	}
	free(t);
out:
	free_event(&e);
	return ret;
}

static int hist_latency(const char *from_s, const char *to_s,
			const struct hist_opts *o, char **cmd, double seconds)
{
	struct hist_ev from = { 0 }, to = { 0 };
	char synth[64], *def = NULL, *t_from = NULL, *t_to = NULL, *t_syn = NULL;
	char *strig = NULL, *ktype = NULL;
	bool synth_made = false, from_set = false, to_set = false;
	bool syn_set = false;
	const char *keys;
	size_t n;
	int ret;

	ret = parse_event(from_s, true, &from);
	if (!ret)
		ret = parse_event(to_s, true, &to);
	if (ret)
		goto out;
	snprintf(synth, sizeof(synth), "kmark_lat_%d", (int)getpid());
	/* key: TO's field, of its type (the synthetic field's must match) */
	ktype = field_type(&to);
	n = strlen(synth) + strlen(ktype) + 64;
	def = xmalloc(n);
	snprintf(def, n, "%s u64 lat; %s key", synth, ktype);
	ret = put_synth(def);
	if (ret)
		goto out;
	synth_made = true;
	/* FROM: the time, per value of its field */
	n = strlen(from.field) + (o->filter ? strlen(o->filter) : 0) + 64;
	t_from = xmalloc(n);
	snprintf(t_from, n, "hist:keys=%s:kmark_ts0=common_timestamp.usecs%s%s",
		 from.field, o->filter ? " if " : "", o->filter ? o->filter : "");
	ret = put(from.trigger, t_from);
	if (ret)
		goto out;
	from_set = true;
	/* TO: the time since, when its field matches, into the synthetic event */
	n = strlen(to.field) * 2 + strlen(from.sys) + strlen(from.name) +
	    strlen(synth) + 160;
	t_to = xmalloc(n);
	snprintf(t_to, n,
		 "hist:keys=%s:kmark_lat=common_timestamp.usecs-$kmark_ts0:onmatch(%s.%s).trace(%s,$kmark_lat,%s)",
		 to.field, from.sys, from.name, synth, to.field);
	ret = put(to.trigger, t_to);
	if (ret)
		goto out;
	to_set = true;
	/* the table: the synthetic event's hist */
	keys = o->keys ? o->keys : "lat.log2";
	t_syn = hist_text(keys, o->vals, o->sort ? o->sort : NULL, o->size,
			  NULL);
	strig = xmalloc(strlen(synth) + 48);
	sprintf(strig, "events/synthetic/%s/trigger", synth);
	ret = put(strig, t_syn);
	if (ret)
		goto out;
	syn_set = true;
	ret = hist_wait(cmd, seconds);
	if (print_hist("synthetic", synth) && !ret)
		ret = KM_EXIT_ERROR;
out:
	/* in the reverse order: a synthetic event in use cannot go */
	if (syn_set && unput(strig, t_syn) && !ret)
		ret = KM_EXIT_ERROR;
	if (to_set && unput(to.trigger, t_to) && !ret)
		ret = KM_EXIT_ERROR;
	if (from_set && unput(from.trigger, t_from) && !ret)
		ret = KM_EXIT_ERROR;
	if (synth_made) {
		char undo[80];

		snprintf(undo, sizeof(undo), "!%s", synth);
		if (put_synth(undo) && !ret)
			ret = KM_EXIT_ERROR;
	}
	free(def);
	free(ktype);
	free(t_from);
	free(t_to);
	free(t_syn);
	free(strig);
	free_event(&from);
	free_event(&to);
	return ret;
}

int cmd_hist(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "keys", required_argument, NULL, 'k' },
		{ "vals", required_argument, NULL, 'v' },
		{ "sort", required_argument, NULL, 's' },
		{ "size", required_argument, NULL, 'S' },
		{ "filter", required_argument, NULL, 'f' },
		{ "time", required_argument, NULL, 't' },
		{ "latency", no_argument, NULL, 'l' },
		{ "help", no_argument, NULL, 'h' },
		KM_OPT_INSTANCE,
		{ NULL, 0, NULL, 0 },
	};
	struct hist_opts o = { 0 };
	bool latency = false;
	double seconds = 0;
	char **cmd = NULL;
	int opt, nargs, i;

	/* COMMAND and its options after "--": getopt sees what comes before */
	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--")) {
			cmd = &argv[i + 1];
			if (!*cmd)
				usage_error("hist", "no COMMAND after --");
			argc = i;
			break;
		}
	}
	while ((opt = getopt_long(argc, argv, "k:v:s:S:f:t:lhB:", opts,
				  NULL)) != -1) {
		switch (opt) {
		case 'k':
			o.keys = optarg;
			break;
		case 'v':
			o.vals = optarg;
			break;
		case 's':
			o.sort = optarg;
			break;
		case 'S':
			if (!parse_ulong(optarg, &o.size) || !o.size)
				usage_error("hist", "invalid size '%s'", optarg);
			break;
		case 'f':
			o.filter = optarg;
			break;
		case 't':
			if (!parse_seconds(optarg, &seconds) || seconds <= 0)
				usage_error("hist", "invalid time '%s'", optarg);
			break;
		case 'l':
			latency = true;
			break;
		case 'B':
			set_instance("hist", optarg);
			break;
		case 'h':
			print_usage(find_cmd("hist"), stdout);
			return KM_EXIT_OK;
		default:
			usage_error("hist", "invalid option");
		}
	}
	nargs = argc - optind;
	if (nargs != (latency ? 2 : 1))
		usage_error("hist", latency ? "--latency takes FROM.FIELD and TO.FIELD" :
			    "one EVENT (then -- COMMAND)");
	if (cmd && seconds > 0)
		usage_error("hist", "-t or a COMMAND, not both");
	ctl_dir();
	if (latency)
		return finish_output(hist_latency(argv[optind], argv[optind + 1],
						  &o, cmd, seconds));
	return finish_output(hist_one(argv[optind], &o, cmd, seconds));
}

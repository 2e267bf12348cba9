// SPDX-License-Identifier: GPL-2.0
/*
 * kmark-tracefs: a libtracefs/libtraceevent program, as a user writes one,
 * linked statically with Debian's libtracefs and libtraceevent, pointed at
 * kmark's directory with tracefs_set_tracing_dir(). Prints one "ok" or
 * "not ok" line per check (qemu-tests/test.d/88-trace-cmd.sh counts them):
 *   usage: kmark-tracefs [DIR]   (default /sys/kernel/tracing/kmark)
 * - tracefs_event_systems() lists sched;
 * - every event's format (the ftrace system's too) parses in
 *   libtraceevent (tep_parse_event());
 * - tracefs_local_events() loads them and header_page, and has
 *   sched_switch with its seven fields;
 * - tracefs_event_enable() and tracefs_trace_on() record, and
 *   tracefs_iterate_raw_events() reads the records back: every field of
 *   every sched_switch is checked against the switch before it on the same
 *   CPU (its prev_* are that one's next_*), this program's own switches
 *   name it, and every prev_state is 0 or one state bit;
 * - tracefs_instance_create() and tracefs_instance_destroy() make and
 *   remove an instance, in DIR.
 * Exit status: 0 when every check passed.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <event-parse.h>
#include <tracefs.h>

#define MAX_CPUS	64

static int failed;

static int is_dir(const char *path)
{
	struct stat st;

	return !stat(path, &st) && S_ISDIR(st.st_mode);
}

static void result(int good, const char *what, const char *detail)
{
	printf("%s %s%s%s\n", good ? "ok" : "not ok", what,
	       detail && *detail ? ": " : "", detail ? detail : "");
	if (!good)
		failed = 1;
}

struct walk {
	struct tep_event *ev;
	struct tep_format_field *f[7];	/* prev_comm ... next_prio */
	int self;
	/* what the last switch of each CPU switched to */
	int seen[MAX_CPUS];
	long long next_pid[MAX_CPUS], next_prio[MAX_CPUS];
	char next_comm[MAX_CPUS][16];
	long switches, chained, broken, own, bad_state, bad_read;
	char first_break[160];
};

static const char *const names[7] = {
	"prev_comm", "prev_pid", "prev_prio", "prev_state",
	"next_comm", "next_pid", "next_prio",
};

static int one(struct tep_event *ev, struct tep_record *rec, int cpu,
	       void *data)
{
	struct walk *w = data;
	unsigned long long v[7];
	char prev_comm[16], next_comm[16];
	int i, len;
	void *p;

	if (ev->id != w->ev->id || cpu < 0 || cpu >= MAX_CPUS)
		return 0;
	w->switches++;
	for (i = 0; i < 7; i++) {
		if (i == 0 || i == 4) {
			p = tep_get_field_raw(NULL, ev, names[i], rec, &len, 0);
			if (!p) {
				w->bad_read++;
				return 0;
			}
			snprintf(i ? next_comm : prev_comm, 16, "%.*s",
				 len < 16 ? len : 16, (char *)p);
		} else if (tep_read_number_field(w->f[i], rec->data, &v[i])) {
			w->bad_read++;
			return 0;
		}
	}
	/* a task's state: 0, one of TASK_REPORT's bits, or TASK_REPORT_MAX */
	if (v[3] > 0x100 || (v[3] & (v[3] - 1)))
		w->bad_state++;
	if ((int)v[1] == w->self || (int)v[5] == w->self) {
		const char *c = (int)v[1] == w->self ? prev_comm : next_comm;

		if (!strcmp(c, "kmark-tracefs"))
			w->own++;
	}
	if (w->seen[cpu]) {
		if ((long long)(int)v[1] == w->next_pid[cpu] &&
		    (long long)(int)v[2] == w->next_prio[cpu] &&
		    !strcmp(prev_comm, w->next_comm[cpu])) {
			w->chained++;
		} else {
			/* lost events or a record read wrong */
			if (!w->broken)
				snprintf(w->first_break, sizeof(w->first_break),
					 "CPU %d: prev %s/%d/%d after next %s/%lld/%lld",
					 cpu, prev_comm, (int)v[1], (int)v[2],
					 w->next_comm[cpu], w->next_pid[cpu],
					 w->next_prio[cpu]);
			w->broken++;
		}
	}
	w->seen[cpu] = 1;
	w->next_pid[cpu] = (int)v[5];
	w->next_prio[cpu] = (int)v[6];
	memcpy(w->next_comm[cpu], next_comm, 16);
	return 0;
}

/*
 * Each event format of system @s through tep_parse_event() into @tep;
 * the refused ones counted, the first named in @first (libtracefs's
 * tracefs_local_events() takes a format that does not parse as a success).
 */
static int parse_system(struct tep_handle *tep, const char *s, char *first,
			size_t n, int *parsed)
{
	char **ev = tracefs_system_events(NULL, s), *rel, *buf;
	int j, len, bad = 0;

	for (j = 0; ev && ev[j]; j++) {
		if (asprintf(&rel, "events/%s/%s/format", s, ev[j]) < 0)
			continue;
		buf = tracefs_instance_file_read(NULL, rel, &len);
		if (!buf || tep_parse_event(tep, buf, len, s)) {
			if (!*first)
				snprintf(first, n, "%s:%s", s, ev[j]);
			bad++;
		} else {
			(*parsed)++;
		}
		free(buf);
		free(rel);
	}
	tracefs_list_free(ev);
	return bad;
}

int main(int argc, char **argv)
{
	const char *dir = argc > 1 ? argv[1] : "/sys/kernel/tracing/kmark";
	struct tracefs_instance *inst;
	struct tep_handle *tep;
	struct walk w = { 0 };
	char detail[256], **sys, *path;
	int i, found = 0;

	if (argc > 2 || (argc > 1 && argv[1][0] == '-')) {
		fprintf(stderr, "usage: kmark-tracefs [DIR]\n");
		return 2;
	}
	result(!tracefs_set_tracing_dir((char *)dir), "tracefs_set_tracing_dir", dir);
	sys = tracefs_event_systems(NULL);
	for (i = 0; sys && sys[i]; i++)
		found |= !strcmp(sys[i], "sched");
	result(found, "tracefs_event_systems lists sched", NULL);
	tracefs_list_free(sys);

	/* every format, the ftrace system's too, each through libtraceevent */
	{
		struct tep_handle *t2 = tep_alloc();
		char first[128] = "";
		int bad = 0, parsed = 0;

		sys = tracefs_event_systems(NULL);
		for (i = 0; t2 && sys && sys[i]; i++)
			if (strcmp(sys[i], "ftrace"))
				bad += parse_system(t2, sys[i], first,
						    sizeof(first), &parsed);
		if (t2)
			bad += parse_system(t2, "ftrace", first, sizeof(first),
					    &parsed);
		snprintf(detail, sizeof(detail), "%d parsed, %d refused%s%s",
			 parsed, bad, *first ? ", the first " : "", first);
		result(t2 && sys && parsed > 0 && !bad,
		       "libtraceevent parses every event's format", detail);
		tracefs_list_free(sys);
		tep_free(t2);
	}
	tep = tracefs_local_events(NULL);
	result(tep != NULL, "tracefs_local_events loads the events", NULL);
	if (!tep)
		return 1;
	w.ev = tep_find_event_by_name(tep, "sched", "sched_switch");
	for (i = 0; w.ev && i < 7; i++) {
		w.f[i] = tep_find_field(w.ev, names[i]);
		if (!w.f[i])
			break;
	}
	snprintf(detail, sizeof(detail), "%d of 7 fields, header_page %s", i,
		 tep_get_header_page_size(tep) > 0 ? "read" : "not read");
	result(w.ev && i == 7 && tep_get_header_page_size(tep) > 0,
	       "sched:sched_switch and its fields", detail);
	if (!w.ev || i < 7)
		return 1;

	/* record some switches of this program's own */
	tracefs_trace_off(NULL);
	tracefs_instance_file_clear(NULL, "trace");
	result(!tracefs_event_enable(NULL, "sched", "sched_switch"),
	       "tracefs_event_enable sched/sched_switch", NULL);
	result(!tracefs_trace_on(NULL), "tracefs_trace_on", NULL);
	for (i = 0; i < 20; i++)
		usleep(2000);
	tracefs_trace_off(NULL);
	tracefs_event_disable(NULL, "sched", "sched_switch");

	w.self = getpid();
	result(!tracefs_iterate_raw_events(tep, NULL, NULL, 0, one, &w),
	       "tracefs_iterate_raw_events", NULL);
	snprintf(detail, sizeof(detail),
		 "%ld switches, %ld chained, %ld broken%s%s, %ld unreadable",
		 w.switches, w.chained, w.broken, w.broken ? " first " : "",
		 w.first_break, w.bad_read);
	result(w.switches > 0 && w.chained > 0 && !w.broken && !w.bad_read,
	       "every sched_switch's prev_comm, prev_pid and prev_prio are the next_* of the switch before it on its CPU",
	       detail);
	snprintf(detail, sizeof(detail), "%ld switches name it, %ld states out of range",
		 w.own, w.bad_state);
	result(w.own >= 20 && !w.bad_state,
	       "this program's own sleeps are its switches, and every prev_state is a state", detail);
	tracefs_instance_file_clear(NULL, "trace");

	/*
	 * (tracefs_instance_exists() looks in the system's default directory,
	 * not in the one set: the instance's own directory is looked at)
	 */
	errno = 0;
	inst = tracefs_instance_create("kmtracefs");
	path = inst ? tracefs_instance_get_dir(inst) : NULL;
	snprintf(detail, sizeof(detail), "%s", path ? path : strerror(errno));
	result(path && is_dir(path) && !strncmp(path, dir, strlen(dir)),
	       "tracefs_instance_create kmtracefs", detail);
	if (inst) {
		result(!tracefs_instance_destroy(inst) && path && !is_dir(path),
		       "tracefs_instance_destroy kmtracefs", NULL);
		tracefs_instance_free(inst);
	}
	free(path);
	tep_free(tep);
	return failed;
}

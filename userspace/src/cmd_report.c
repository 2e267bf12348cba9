// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "datfile.h"
#include "kmark.h"
#include "report_core.h"
#include "strlist.h"

const char *const usage_report =
	"usage: kmark report [--top N] FILE\n"
	"\n"
	"Summarise a trace recorded with 'kmark record' (text, or a trace.dat\n"
	"recognised by its magic bytes), or a copy of the trace file ('#'\n"
	"header lines are skipped; FILE '-' is stdin, text only):\n"
	"per task: switches in/out and time on CPU from sched_switch,\n"
	"wakeups from sched_wakeup, events; per CPU: switches, events, lost\n"
	"events. Time on CPU only counts complete intervals, from a task's\n"
	"switch-in to its switch-out on the same CPU. Lines with a number out\n"
	"of range (CPU above 8191, or a pid, timestamp or count too large) are\n"
	"skipped with a warning; NUL bytes are read as '?'.\n"
	"\n"
	"Options:\n"
	"  -n, --top N     show only the N tasks with most time on CPU\n"
	"  -h, --help      show this help\n";

struct dat_feed {
	const struct dat_file *df;
	struct report *r;
	struct ef_buf text;
};

/* a trace.dat record as the parsed line of a text trace */
static int feed_dat(const struct dat_rec *rec, void *arg)
{
	struct dat_feed *f = arg;
	struct tl_line tl;
	char ctx[6];
	unsigned long long fl = 0, pc = 0;
	const struct ef_event *ev = rec->ev;

	memset(&tl, 0, sizeof(tl));
	if (!ev && rec->lost) {
		tl.kind = TL_LOST;
		tl.lost_cpu = rec->cpu;
		tl.lost = rec->lost == ~0ULL ? 0 : rec->lost;
		report_feed(f->r, &tl);
		return 0;
	}
	tl.kind = TL_EVENT;
	dat_task(f->df, rec, tl.ev.comm, sizeof(tl.ev.comm), &tl.ev.pid);
	tl.ev.cpu = rec->cpu;
	if (ev && ev->f_flags >= 0)
		ef_get_int(&ev->fields[ev->f_flags], rec->data, rec->len, &fl);
	if (ev && ev->f_pc >= 0)
		ef_get_int(&ev->fields[ev->f_pc], rec->data, rec->len, &pc);
	ef_ctx_chars((unsigned int)fl, (unsigned int)pc, ctx);
	strlcpy_n(tl.ev.flags, sizeof(tl.ev.flags), ctx, strlen(ctx));
	/* the text trace's microseconds, so that both report alike */
	tl.ev.ts_ns = (rec->ts + 500) / 1000 * 1000;
	eb_reset(&f->text);
	if (ev) {
		strlcpy_n(tl.ev.name, sizeof(tl.ev.name), ev->name,
			  strlen(ev->name));
		ef_render(ev, rec->data, rec->len, f->df->long_size, &f->text);
	} else {
		snprintf(tl.ev.name, sizeof(tl.ev.name), "unknown-%u", rec->id);
	}
	tl.ev.fields = f->text.s;
	tl.ev.fields_len = f->text.len;
	report_feed(f->r, &tl);
	return 0;
}

static void report_dat(struct report *r, const char *path)
{
	struct dat_feed f = { .r = r };
	struct dat_file df;
	char err[512];

	if (dat_open(path, &df, err, sizeof(err)))
		die("%s", err);
	f.df = &df;
	if (dat_each(&df, feed_dat, &f, err, sizeof(err)) < 0)
		warning("%s: %s; the report stops there", path, err);
	eb_free(&f.text);
	dat_close(&df);
}

int cmd_report(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "top", required_argument, NULL, 'n' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct report r;
	unsigned long top = 0;
	char *line = NULL;
	size_t cap = 0;
	ssize_t n;
	bool nul = false;
	char magic[DAT_MAGIC_LEN];
	FILE *f;
	int opt;

	while ((opt = getopt_long(argc, argv, "n:h", opts, NULL)) != -1) {
		switch (opt) {
		case 'n':
			if (!parse_ulong(optarg, &top) || !top)
				usage_error("report", "invalid --top '%s'",
					    optarg);
			break;
		case 'h':
			print_usage(find_cmd("report"), stdout);
			return KM_EXIT_OK;
		default:
			usage_error("report", "invalid option");
		}
	}
	if (optind >= argc)
		usage_error("report", "no trace file given");
	if (argc - optind > 1)
		usage_error("report", "too many arguments");

	if (!strcmp(argv[optind], "-"))
		f = stdin;
	else
		f = fopen(argv[optind], "r");
	if (!f)
		die("cannot open %s: %s", argv[optind], strerror(errno));

	report_init(&r);
	if (f != stdin && fread(magic, 1, sizeof(magic), f) == sizeof(magic) &&
	    dat_is_dat(magic, sizeof(magic))) {
		fclose(f);
		report_dat(&r, argv[optind]);
		f = NULL;
	} else if (f != stdin) {
		rewind(f);
	}
	while (f && (n = getline(&line, &cap, f)) >= 0) {
		/* a NUL would cut the line short: read it as '?' */
		for (; n > 0; n--) {
			if (!line[n - 1]) {
				line[n - 1] = '?';
				nul = true;
			}
		}
		report_feed_line(&r, line);
	}
	if (f && ferror(f))
		die("cannot read %s: %s", argv[optind], strerror(errno));
	free(line);
	if (f && f != stdin)
		fclose(f);

	if (nul)
		warning("NUL byte(s) in %s, read as '?'", argv[optind]);
	if (r.out_of_range)
		warning("skipped %llu line(s) with a number out of range (CPU above %d, or a pid, timestamp or count too large)",
			r.out_of_range, TL_MAX_CPUS - 1);
	report_sort(&r);
	report_print(&r, stdout, argv[optind], top);
	report_free(&r);
	return KM_EXIT_OK;
}

// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "datfile.h"
#include "fallback.h"
#include "kmark.h"
#include "tparse.h"

const char *const usage_record =
	"usage: kmark record [-B NAME] -o FILE [-F text|dat] [-t SECONDS] [-k] [--no-fallback] EVENT...\n"
	"\n"
	"Enable EVENTs (like 'kmark enable', kprobe fallback included), clear\n"
	"the trace buffer, set tracing_on to 1, and record for SECONDS, or\n"
	"until Ctrl-C. Then disable the EVENTs again (kprobe definitions and\n"
	"tracing_on are left as they are) and print a summary to stderr.\n"
	"With --keep, the buffer is not cleared and tracing_on not touched:\n"
	"what the buffer holds is recorded too (events traced from boot with\n"
	"kmark_event=, or while tracing_on was 1 before).\n"
	"\n"
	"Two formats (-F; default: dat when FILE ends in \".dat\", else text):\n"
	"  text  the trace file's header, then the trace_pipe lines (the\n"
	"        kernel's text; Perfetto opens it). NUL bytes are written as '?'.\n"
	"  dat   a trace.dat (trace-cmd's format, version 6) made of the raw\n"
	"        pages of per_cpu/cpuN/trace_pipe_raw and the format files of\n"
	"        events/: open it with 'trace-cmd report', KernelShark, or\n"
	"        'kmark report'. Events sched_* are in system \"sched\", kprobe\n"
	"        events in their group, other markers in system \"kmark\".\n"
	"The text format reads trace_pipe (woken in batches: read_delay_ms);\n"
	"dat reads each CPU's pages as they fill and drains them at the end.\n"
	"A write error on FILE stops the recording (exit 1). Analyse FILE with\n"
	"'kmark report' (either format).\n"
	"With -B NAME, everything happens in instance NAME: its set_event,\n"
	"trace, tracing_on, trace_pipe and per_cpu/ (kprobe fallbacks are\n"
	"defined in the top kprobe_events; a trace.dat takes the formats from\n"
	"the top events/, which all instances share).\n"
	"\n"
	"Options:\n"
	"  -o, --output FILE      file to write (required)\n"
	"  -F, --format FORMAT    text or dat (default: by FILE's suffix)\n"
	"  -t, --time SECONDS     record for SECONDS (default: until Ctrl-C)\n"
	"  -k, --keep             keep the buffer's events and tracing_on\n"
	"  -n, --no-fallback      never define kprobe events\n"
	KM_HELP_INSTANCE
	"  -h, --help             show this help\n";

/*
 * The text file starts like the kernel's trace file, so that tools that
 * look for "# tracer" in the first bytes (Perfetto, catapult's systrace)
 * take it for an ftrace text trace.
 */
static const char text_header[] =
	"# tracer: kmark\n"
	"#\n"
	"#                                _-----=> irqs-off/BH-disabled\n"
	"#                               / _----=> need-resched\n"
	"#                              | / _---=> hardirq/softirq\n"
	"#                              || / _--=> preempt-depth\n"
	"#                              ||| / _-=> migrate-disable\n"
	"#                              |||| /     delay\n"
	"#           TASK-PID     CPU#  |||||  TIMESTAMP  FUNCTION\n"
	"#              | |         |   |||||     |         |\n";

struct rec_state {
	FILE *out;
	unsigned long long events, lost;
	int werr;
	bool started;
};

static int record_line(char *line, void *arg)
{
	struct rec_state *r = arg;
	struct tl_line tl;

	switch (tl_parse(line, &tl)) {
	case TL_EVENT:
		r->events++;
		break;
	case TL_LOST:
		r->lost = tl_sat_add(r->lost, tl.lost);
		break;
	default:
		break;
	}
	if (fprintf(r->out, "%s\n", line) < 0) {
		r->werr = errno;
		return 1;
	}
	return 0;
}

/* the page layout, before anything is enabled; exit code on failure */
static int dat_header(struct ef_header *h)
{
	char *hp = ctl_read("events/header_page");

	if (!hp) {
		info("cannot read %s/events/header_page: %s (this kernel's kmark cannot give a trace.dat; record text with -F text)",
		     ctl_top_dir(), strerror(errno));
		return KM_EXIT_ERROR;
	}
	if (ef_parse_header_page(hp, h)) {
		info("%s/events/header_page: no usable commit and data fields",
		     ctl_top_dir());
		free(hp);
		return KM_EXIT_ERROR;
	}
	free(hp);
	return KM_EXIT_OK;
}

static bool has_suffix(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);

	return n >= m && !strcmp(s + n - m, suffix);
}

int cmd_record(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "format", required_argument, NULL, 'F' },
		{ "time", required_argument, NULL, 't' },
		{ "keep", no_argument, NULL, 'k' },
		{ "no-fallback", no_argument, NULL, 'n' },
		{ "help", no_argument, NULL, 'h' },
		KM_OPT_INSTANCE,
		{ NULL, 0, NULL, 0 },
	};
	struct enable_opts eo = { 0 };
	struct rec_state r = { 0 };
	const char *file = NULL, *format = NULL;
	char (*enabled)[FB_NAME_LEN];
	int opt, i, nenabled = 0, fd, err, ret = KM_EXIT_OK, dat_fd = -1;
	struct rawcap rc = { 0 };
	struct dat_info di;
	struct ef_header hdr;
	double seconds = 0;
	bool dat, keep = false;
	char *path;

	while ((opt = getopt_long(argc, argv, "B:o:F:t:knh", opts, NULL)) != -1) {
		switch (opt) {
		case 'o':
			file = optarg;
			break;
		case 'F':
			if (strcmp(optarg, "text") && strcmp(optarg, "dat"))
				usage_error("record",
					    "invalid format '%s' (text or dat)",
					    optarg);
			format = optarg;
			break;
		case 't':
			if (!parse_seconds(optarg, &seconds))
				usage_error("record", "invalid time '%s'",
					    optarg);
			break;
		case 'k':
			keep = true;
			break;
		case 'n':
			eo.no_fallback = true;
			break;
		case 'B':
			set_instance("record", optarg);
			break;
		case 'h':
			print_usage(find_cmd("record"), stdout);
			return KM_EXIT_OK;
		default:
			usage_error("record", "invalid option");
		}
	}
	if (!file)
		usage_error("record", "no output file given (-o FILE)");
	if (optind >= argc)
		usage_error("record", "no event given");

	ctl_dir();	/* -B NAME: exit 5 when there is no such instance */
	dat = format ? !strcmp(format, "dat") : has_suffix(file, ".dat");
	if (dat) {
		ret = dat_header(&hdr);
		if (ret)
			return ret;
		dat_fd = open(file, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC,
			      0644);
		if (dat_fd < 0)
			die("cannot create %s: %s", file, strerror(errno));
	} else {
		r.out = fopen(file, "w");
		if (!r.out)
			die("cannot create %s: %s", file, strerror(errno));
		if (fputs(text_header, r.out) == EOF)
			r.werr = errno;
	}

	enabled = xmalloc((size_t)(argc - optind) * sizeof(*enabled));
	for (i = optind; i < argc && !ret; i++) {
		ret = enable_event(argv[i], &eo, enabled[nenabled]);
		if (!ret)
			nenabled++;
	}
	events_cleanup();

	if (!ret && !keep) {
		err = ctl_clear("trace");
		if (err) {
			info("cannot clear the trace buffer: %s",
			     ctl_strerror(err));
			ret = KM_EXIT_ERROR;
		}
	}
	if (!ret && !keep) {
		err = ctl_write("tracing_on", O_TRUNC, "1\n");
		if (err) {
			info("cannot turn tracing on: %s", ctl_strerror(err));
			ret = KM_EXIT_ERROR;
		}
	}
	if (!ret && dat) {
		ret = rawcap_open(&rc, file, hdr.page_size);
		if (!ret) {
			install_stop_handlers();
			r.started = true;
			ret = rawcap_run(&rc, seconds);
		}
	} else if (!ret) {
		path = ctl_path("trace_pipe");
		fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
		if (fd < 0) {
			info("cannot open %s: %s", path, strerror(errno));
			ret = KM_EXIT_ERROR;
		} else {
			install_stop_handlers();
			r.started = true;
			err = read_lines(fd, seconds, record_line, &r);
			close(fd);
			if (err) {
				info("cannot read trace_pipe: %s",
				     strerror(-err));
				ret = KM_EXIT_ERROR;
			}
		}
		free(path);
	}

	for (i = 0; i < nenabled; i++)
		if (disable_event(enabled[i]) && !ret)
			ret = KM_EXIT_ERROR;
	events_cleanup();
	free(enabled);

	if (dat) {
		/* what the disabled events left in the buffer */
		if (r.started && !ret)
			ret = rawcap_drain(&rc);
		if (r.started && !ret) {
			char msg[512];

			if (dat_write(ctl_dir(), ctl_top_dir(), dat_fd, rc.out,
				      rc.ncpus, &di, msg, sizeof(msg))) {
				info("cannot write %s: %s", file, msg);
				ret = KM_EXIT_ERROR;
			} else {
				r.events = di.events;
				r.lost = di.lost;
			}
		}
		rawcap_close(&rc);
		if (close(dat_fd) && !ret) {
			info("cannot write %s: %s", file, strerror(errno));
			ret = KM_EXIT_ERROR;
		}
		if (r.started && !ret)
			info("recorded %llu events, %llu lost, to %s (trace.dat, %u CPUs, %llu pages)",
			     r.events, r.lost, file, di.ncpus, di.pages);
		return ret;
	}

	if (fclose(r.out) && !r.werr)
		r.werr = errno;
	if (r.werr) {
		info("cannot write %s: %s", file, strerror(r.werr));
		ret = KM_EXIT_ERROR;
	}
	if (r.started)
		info("recorded %llu events, %llu lost, to %s", r.events,
		     r.lost, file);
	return ret;
}

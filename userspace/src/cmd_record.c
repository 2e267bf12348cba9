// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fallback.h"
#include "kmark.h"
#include "tparse.h"

const char *const usage_record =
	"usage: kmark record -o FILE [-t SECONDS] [--no-fallback] EVENT...\n"
	"\n"
	"Enable EVENTs (like 'kmark enable', kprobe fallback included), clear\n"
	"the trace buffer, set tracing_on to 1, and copy trace_pipe lines to\n"
	"FILE for SECONDS, or until Ctrl-C. Then disable the EVENTs again\n"
	"(kprobe definitions and tracing_on are left as they are) and print a\n"
	"summary to stderr. Analyse FILE with 'kmark report'. NUL bytes are\n"
	"written as '?'; a write error on FILE stops the recording (exit 1).\n"
	"\n"
	"Options:\n"
	"  -o, --output FILE      file to write (required)\n"
	"  -t, --time SECONDS     record for SECONDS (default: until Ctrl-C)\n"
	"  -n, --no-fallback      never define kprobe events\n"
	"  -h, --help             show this help\n";

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

int cmd_record(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "time", required_argument, NULL, 't' },
		{ "no-fallback", no_argument, NULL, 'n' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct enable_opts eo = { 0 };
	struct rec_state r = { 0 };
	const char *file = NULL;
	char (*enabled)[FB_NAME_LEN];
	int opt, i, nenabled = 0, fd, err, ret = KM_EXIT_OK;
	double seconds = 0;
	char *path;

	while ((opt = getopt_long(argc, argv, "o:t:nh", opts, NULL)) != -1) {
		switch (opt) {
		case 'o':
			file = optarg;
			break;
		case 't':
			if (!parse_seconds(optarg, &seconds))
				usage_error("record", "invalid time '%s'",
					    optarg);
			break;
		case 'n':
			eo.no_fallback = true;
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

	r.out = fopen(file, "w");
	if (!r.out)
		die("cannot create %s: %s", file, strerror(errno));

	enabled = xmalloc((size_t)(argc - optind) * sizeof(*enabled));
	for (i = optind; i < argc && !ret; i++) {
		ret = enable_event(argv[i], &eo, enabled[nenabled]);
		if (!ret)
			nenabled++;
	}
	events_cleanup();

	if (!ret) {
		err = ctl_clear("trace");
		if (err) {
			info("cannot clear the trace buffer: %s",
			     ctl_strerror(err));
			ret = KM_EXIT_ERROR;
		}
	}
	if (!ret) {
		err = ctl_write("tracing_on", O_TRUNC, "1\n");
		if (err) {
			info("cannot turn tracing on: %s", ctl_strerror(err));
			ret = KM_EXIT_ERROR;
		}
	}
	if (!ret) {
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
	free(enabled);

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

// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kmark.h"
#include "tparse.h"

const char *const usage_stream =
	"usage: kmark stream [-B NAME] [-p PID] [-c COMM] [-n COUNT] [-t SECONDS] [--pretty]\n"
	"\n"
	"Print events from trace_pipe as they arrive (consuming them). Lines\n"
	"are filtered on the task column and, for sched_switch, also on the\n"
	"prev_/next_ pid and comm. Lost-event records are printed and counted;\n"
	"at the end 'kmark: N events, M lost' goes to stderr when events were\n"
	"lost or the stream was interrupted. Ctrl-C ends the stream cleanly.\n"
	"Events arrive in batches: at most read_delay_ms (default 50 ms) after\n"
	"they happen, sooner when a CPU's buffer is buffer_percent full (both\n"
	"are files in the control directory), so that an idle system's stream\n"
	"is not the reader's own wakeups.\n"
	"NUL bytes in the input are printed as '?'. When the output cannot be\n"
	"written, the stream stops with an error (exit status 1).\n"
	"\n"
	"Options:\n"
	"  -p, --pid PID           only events of task PID\n"
	"  -c, --comm COMM         only events of tasks named COMM (exact)\n"
	"  -n, --count COUNT       stop after COUNT printed events\n"
	"  -t, --time SECONDS      stop after SECONDS (may be fractional)\n"
	"  -P, --pretty            sched_switch as\n"
	"                          '[  12.345678] CPU1: bash (123) switching to sh (45)'\n"
	"  -B, --instance NAME     read instance NAME's trace_pipe (see\n"
	"                          'kmark --help')\n"
	"  -h, --help              show this help\n";

struct stream_state {
	struct tl_filter filter;
	bool pretty;
	unsigned long count;		/* 0: unlimited */
	unsigned long printed;
	unsigned long long lost;
	bool werr;			/* writing stdout failed */
	bool shown;			/* the last event was printed */
};

static int stream_line(char *line, void *arg)
{
	struct stream_state *s = arg;
	struct tl_line tl;
	char pretty[512];
	bool ok = true;

	switch (tl_parse(line, &tl)) {
	case TL_HEADER:
	case TL_BLANK:
		return 0;
	case TL_LOST:
		s->lost = tl_sat_add(s->lost, tl.lost);
		ok = put_line(line);
		break;
	case TL_FRAME:
		/* a stack's frames go with the event line above them */
		if (s->shown)
			ok = put_line(line);
		break;
	case TL_INVALID:
		/* unknown lines only make sense unfiltered */
		if (!s->filter.use_pid && !s->filter.comm)
			ok = put_line(line);
		break;
	case TL_EVENT:
		s->shown = false;
		if (!tl_filter_match(&tl.ev, &s->filter))
			return 0;
		s->shown = true;
		if (s->pretty &&
		    !tl_pretty_switch(&tl.ev, pretty, sizeof(pretty)))
			ok = put_line(pretty);
		else
			ok = put_line(line);
		s->printed++;
		break;
	}
	/* stop consuming trace_pipe as soon as the output is lost */
	if (!ok || !flush_stdout()) {
		s->werr = true;
		return 1;
	}
	return s->count && s->printed >= s->count;
}

int cmd_stream(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "pid", required_argument, NULL, 'p' },
		{ "comm", required_argument, NULL, 'c' },
		{ "count", required_argument, NULL, 'n' },
		{ "time", required_argument, NULL, 't' },
		{ "pretty", no_argument, NULL, 'P' },
		{ "help", no_argument, NULL, 'h' },
		KM_OPT_INSTANCE,
		{ NULL, 0, NULL, 0 },
	};
	struct stream_state s = { 0 };
	double seconds = 0;
	unsigned long v;
	char *path;
	int opt, fd, err;

	while ((opt = getopt_long(argc, argv, "B:p:c:n:t:Ph", opts,
				  NULL)) != -1) {
		switch (opt) {
		case 'p':
			if (!parse_ulong(optarg, &v) || v > 0x7fffffff)
				usage_error("stream", "invalid pid '%s'", optarg);
			s.filter.use_pid = true;
			s.filter.pid = (int)v;
			break;
		case 'c':
			s.filter.comm = optarg;
			break;
		case 'n':
			if (!parse_ulong(optarg, &s.count) || !s.count)
				usage_error("stream", "invalid count '%s'",
					    optarg);
			break;
		case 't':
			if (!parse_seconds(optarg, &seconds))
				usage_error("stream", "invalid time '%s'",
					    optarg);
			break;
		case 'P':
			s.pretty = true;
			break;
		case 'B':
			set_instance("stream", optarg);
			break;
		case 'h':
			print_usage(find_cmd("stream"), stdout);
			return KM_EXIT_OK;
		default:
			usage_error("stream", "invalid option");
		}
	}
	if (optind < argc)
		usage_error("stream", "unexpected argument '%s'", argv[optind]);

	path = ctl_path("trace_pipe");
	fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		die("cannot open %s: %s", path, strerror(errno));
	free(path);

	install_stop_handlers();
	err = read_lines(fd, seconds, stream_line, &s);
	close(fd);
	if (s.werr)
		die_output();
	if (err)
		die("cannot read trace_pipe: %s", strerror(-err));
	if (s.lost || kmark_stop)
		info("%lu events, %llu lost", s.printed, s.lost);
	return KM_EXIT_OK;
}

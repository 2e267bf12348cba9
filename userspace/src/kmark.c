// SPDX-License-Identifier: GPL-2.0
/*
 * kmark - control the kmark kernel tracer through its debugfs files.
 */
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kmark.h"
#include "strlist.h"

static int cmd_help(int argc, char **argv);

static const char *const usage_help =
	"usage: kmark help [COMMAND]\n"
	"\n"
	"Print the list of commands, or the usage of COMMAND.\n";

static const struct cmd commands[] = {
	{ "list", cmd_list, "list markers and kprobe events", &usage_list },
	{ "enable", cmd_enable, "enable events (kprobe fallback)", &usage_enable },
	{ "disable", cmd_disable, "disable events", &usage_disable },
	{ "probe", cmd_probe, "define a kprobe event", &usage_probe },
	{ "stream", cmd_stream, "print events from trace_pipe", &usage_stream },
	{ "record", cmd_record, "record events to a file", &usage_record },
	{ "report", cmd_report, "summarise a recorded trace", &usage_report },
	{ "stats", cmd_stats, "show ring buffer statistics", &usage_stats },
	{ "reset", cmd_reset, "disable everything, clear the buffer", &usage_reset },
	{ "instance", cmd_instance, "create, remove, list instances (-B)", &usage_instance },
	{ "hist", cmd_hist, "count in the kernel: a hist trigger's table", &usage_hist },
	{ "dump", cmd_dump, "the previous boot's trace (boot-mapped instance)", &usage_dump },
	{ "help", cmd_help, "show help for a command", &usage_help },
};

#define NCOMMANDS ARRAY_SIZE(commands)

static const char *const exit_codes =
	"\n"
	"Exit status:\n"
	"  0  success\n"
	"  1  error (I/O error, e.g. writing the output; the kernel rejected a write)\n"
	"  2  usage error (bad option or argument)\n"
	"  3  control directory not found (debugfs/kmark unavailable)\n"
	"  4  no such event, and no kprobe fallback possible\n"
	"  5  no such instance (-B NAME, 'kmark instance remove'), or the\n"
	"     kernel has no instances\n";

static void print_main_usage(FILE *out)
{
	size_t i;

	fputs("usage: kmark [-d DIR] [-B NAME] COMMAND [ARGS...]\n"
	      "\n"
	      "Control the kmark kernel tracer (static markers and kprobe events).\n"
	      "\n"
	      "Global options:\n"
	      "  -d, --dir DIR   kmark control directory (default: $KMARK_DIR,\n"
	      "                  else <tracefs mount>/kmark if there,\n"
	      "                  else <debugfs mount>/kmark)\n"
	      "  -B, --instance NAME\n"
	      "                  work in instance NAME (trace-cmd's -B): the\n"
	      "                  per-instance files (set_event, tracing_on,\n"
	      "                  trace, trace_pipe, per_cpu/, events/,\n"
	      "                  buffer_size_kb, trace_clock, error_log) are\n"
	      "                  those of DIR/instances/NAME/; available_markers,\n"
	      "                  kprobe_events and saved_comms stay DIR's,\n"
	      "                  shared by all instances.\n"
	      "                  Also accepted after the command name (list,\n"
	      "                  enable, disable, stream, record, stats, reset).\n"
	      "                  Create instances with 'kmark instance new NAME'.\n"
	      "  -h, --help      show this help\n"
	      "  -V, --version   show the version\n"
	      "\n"
	      "Commands:\n", out);
	for (i = 0; i < NCOMMANDS; i++)
		fprintf(out, "  %-9s %s\n", commands[i].name,
			commands[i].summary);
	fputs("\nRun 'kmark help COMMAND' or 'kmark COMMAND --help' for details.\n",
	      out);
	fputs(exit_codes, out);
}

const struct cmd *find_cmd(const char *name)
{
	size_t i;

	for (i = 0; i < NCOMMANDS; i++)
		if (!strcmp(commands[i].name, name))
			return &commands[i];
	return NULL;
}

void print_usage(const struct cmd *c, FILE *out)
{
	fputs(*c->usage, out);
	fputs(exit_codes, out);
}

void usage_error(const char *cmd, const char *fmt, ...)
{
	va_list ap;

	flush_stdout();
	fprintf(stderr, "kmark %s: ", cmd);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\nTry 'kmark help %s'.\n", cmd);
	exit(KM_EXIT_USAGE);
}

static int cmd_help(int argc, char **argv)
{
	const struct cmd *c;

	if (argc > 1 && (!strcmp(argv[1], "-h") ||
			 !strcmp(argv[1], "--help"))) {
		print_usage(find_cmd("help"), stdout);
		return KM_EXIT_OK;
	}
	if (argc < 2) {
		print_main_usage(stdout);
		return KM_EXIT_OK;
	}
	if (argc > 2)
		usage_error("help", "too many arguments");
	c = find_cmd(argv[1]);
	if (!c)
		usage_error("help", "unknown command '%s'", argv[1]);
	print_usage(c, stdout);
	return KM_EXIT_OK;
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "dir", required_argument, NULL, 'd' },
		{ "instance", required_argument, NULL, 'B' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};
	const struct cmd *c;
	int opt;

	/* "+": stop at the command name, its options are its own */
	while ((opt = getopt_long(argc, argv, "+d:B:hV", opts, NULL)) != -1) {
		switch (opt) {
		case 'd':
			set_ctl_dir(optarg);
			break;
		case 'B':
			set_instance(NULL, optarg);
			break;
		case 'h':
			print_main_usage(stdout);
			return finish_output(KM_EXIT_OK);
		case 'V':
			printf("kmark %s\n", KMARK_VERSION);
			return finish_output(KM_EXIT_OK);
		default:
			fputs("Try 'kmark --help'.\n", stderr);
			return KM_EXIT_USAGE;
		}
	}
	if (optind >= argc) {
		print_main_usage(stderr);
		return KM_EXIT_USAGE;
	}
	c = find_cmd(argv[optind]);
	if (!c) {
		fprintf(stderr, "kmark: unknown command '%s'\n"
			"Try 'kmark --help'.\n", argv[optind]);
		return KM_EXIT_USAGE;
	}
	argc -= optind;
	argv += optind;
	optind = 0;	/* full getopt re-initialisation for the command */
	/* catches write errors on stdout of every command (and its --help) */
	return finish_output(c->fn(argc, argv));
}

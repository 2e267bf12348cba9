// SPDX-License-Identifier: GPL-2.0
/*
 * kmark dump: the previous boot's trace that a boot-mapped instance
 * (kmark_instance=NAME@LABEL with reserve_mem=) kept, as text or as a
 * trace.dat made with the previous boot's formats (instances/NAME/last_boot/).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "datfile.h"
#include "kmark.h"
#include "recorder.h"
#include "strlist.h"

const char *const usage_dump =
	"usage: kmark dump [-o FILE] [-F text|dat] [INSTANCE]\n"
	"\n"
	"Print or save the previous boot's trace, which a boot-mapped instance\n"
	"keeps across a warm reboot or a crash (reserve_mem=SIZE:ALIGN:LABEL\n"
	"kmark_instance=NAME@LABEL on the kernel command line). INSTANCE is\n"
	"that instance (or -B NAME); without it, the one instance that has a\n"
	"last_boot_info.\n"
	"\n"
	"  text  what the previous boot was (last_boot_info, as '#' lines),\n"
	"        then the instance's trace file; nothing is consumed\n"
	"  dat   a trace.dat (trace-cmd's format) of the raw pages of\n"
	"        per_cpu/cpuN/trace_pipe_raw, which reading consumes, and the\n"
	"        previous boot's formats and task names (last_boot/): open it\n"
	"        with 'trace-cmd report', KernelShark or 'kmark report'\n"
	"\n"
	"Exit status 1 when the instance holds no previous trace (its\n"
	"last_boot_info's first line, printed, says why).\n"
	"\n"
	"Options:\n"
	"  -o, --output FILE      write FILE (default: text to standard output)\n"
	"  -F, --format FORMAT    text or dat (default: dat when FILE ends in\n"
	"                         \".dat\", else text)\n"
	KM_HELP_INSTANCE
	"  -h, --help             show this help\n";

#define PREV_LINE	"previous boot: its trace is in this instance"

/* "A/B", malloc'd */
static char *path2(const char *a, const char *b)
{
	char *p = xmalloc(strlen(a) + strlen(b) + 2);

	sprintf(p, "%s/%s", a, b);
	return p;
}

/* the one instance with a last_boot_info (malloc'd), or exit 5 */
static char *find_boot_mapped(void)
{
	char *dir = path2(ctl_top_dir(), "instances"), *found = NULL;
	struct dirent *d;
	DIR *dp = opendir(dir);

	if (!dp)
		die_code(KM_EXIT_NOINST, "no boot-mapped instance: cannot read %s: %s",
			 dir, strerror(errno));
	while ((d = readdir(dp))) {
		char *info;
		struct stat st;

		if (d->d_name[0] == '.')
			continue;
		info = xmalloc(strlen(dir) + strlen(d->d_name) + 20);
		sprintf(info, "%s/%s/last_boot_info", dir, d->d_name);
		if (!stat(info, &st)) {
			if (found)
				die_code(KM_EXIT_USAGE,
					 "two boot-mapped instances (%s, %s): name one",
					 found, d->d_name);
			found = xstrdup(d->d_name);
		}
		free(info);
	}
	closedir(dp);
	if (!found)
		die_code(KM_EXIT_NOINST,
			 "no boot-mapped instance (kmark_instance=NAME@LABEL on the kernel command line)");
	free(dir);
	return found;
}

static bool has_suffix(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);

	return n >= m && !strcmp(s + n - m, suffix);
}

/* '#' lines of last_boot_info, then the trace file */
static int dump_text(FILE *out, const char *text)
{
	const char *p = text;
	char *trace, *path;
	size_t len = 0;

	while (*p) {
		size_t n = strcspn(p, "\n");

		fprintf(out, "# %.*s\n", (int)n, p);
		p += n + (p[n] == '\n');
	}
	path = ctl_path("trace");
	trace = read_file(path, &len);
	free(path);
	if (!trace) {
		info("cannot read %s/trace: %s", ctl_dir(), strerror(errno));
		return KM_EXIT_ERROR;
	}
	fwrite(trace, 1, len, out);
	free(trace);
	return KM_EXIT_OK;
}

/*
 * The previous boot's pages as a trace.dat: kmark record's readers drain
 * the instance's trace_pipe_raw (nothing records into it), then
 * dat_write() with the formats of last_boot/.
 */
static int dump_dat(const char *file)
{
	char *lb = path2(ctl_dir(), "last_boot"), *hp_path, *hp, *per_cpu;
	struct dat_write_args a = { 0 };
	struct dat_cpu *cpus = NULL;
	struct recorder r;
	struct dat_info di;
	struct ef_header h;
	unsigned int cpu;
	int out, ret;
	char msg[512];

	hp_path = path2(lb, "events/header_page");
	hp = read_file(hp_path, NULL);
	if (!hp || ef_parse_header_page(hp, &h)) {
		info("cannot use %s: %s", hp_path,
		     hp ? "no usable commit and data fields" : strerror(errno));
		free(hp);
		free(hp_path);
		free(lb);
		return KM_EXIT_ERROR;
	}
	free(hp);
	free(hp_path);
	per_cpu = ctl_path("per_cpu");
	ret = rec_open(&r, per_cpu, file, &h, 0, false);
	free(per_cpu);
	if (ret) {
		free(lb);
		return ret;
	}
	ret = rec_start(&r);
	if (rec_stop(&r) && !ret)
		ret = KM_EXIT_ERROR;
	if (ret)
		goto out;
	cpus = xmalloc(r.ncpus * sizeof(*cpus));
	for (cpu = 0; cpu < r.ncpus; cpu++)
		rec_dat_cpu(&r.cpu[cpu], &cpus[cpu]);
	out = open(file, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (out < 0) {
		info("cannot create %s: %s", file, strerror(errno));
		ret = KM_EXIT_ERROR;
		goto out;
	}
	/* formats and task names (last_boot/saved_comms) of that boot */
	a.dir = lb;
	a.top = lb;
	a.out = out;
	a.cpu = cpus;
	a.ncpus = r.ncpus;
	a.count = true;
	if (dat_write(&a, &di, msg, sizeof(msg))) {
		info("cannot write %s: %s", file, msg);
		ret = KM_EXIT_ERROR;
	} else {
		info("wrote the previous boot's %llu events, %llu lost, to %s (trace.dat, %u CPUs, %llu pages)",
		     di.events, di.lost, file, di.ncpus, di.pages);
	}
	dat_info_free(&di);
	if (close(out) && !ret) {
		info("cannot write %s: %s", file, strerror(errno));
		ret = KM_EXIT_ERROR;
	}
out:
	rec_close(&r, -1);
	free(cpus);
	free(lb);
	return ret;
}

int cmd_dump(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "format", required_argument, NULL, 'F' },
		{ "help", no_argument, NULL, 'h' },
		KM_OPT_INSTANCE,
		{ NULL, 0, NULL, 0 },
	};
	const char *file = NULL, *format = NULL;
	char *info_text;
	bool dat;
	int opt, ret;
	FILE *out = stdout;

	while ((opt = getopt_long(argc, argv, "o:F:hB:", opts, NULL)) != -1) {
		switch (opt) {
		case 'o':
			file = optarg;
			break;
		case 'F':
			if (strcmp(optarg, "text") && strcmp(optarg, "dat"))
				usage_error("dump", "invalid format '%s' (text or dat)",
					    optarg);
			format = optarg;
			break;
		case 'B':
			set_instance("dump", optarg);
			break;
		case 'h':
			print_usage(find_cmd("dump"), stdout);
			return KM_EXIT_OK;
		default:
			usage_error("dump", "unknown option");
		}
	}
	if (optind < argc - 1)
		usage_error("dump", "one instance at most");
	if (optind < argc)
		set_instance("dump", argv[optind]);
	else if (!instance_name())
		set_instance("dump", find_boot_mapped());
	dat = format ? !strcmp(format, "dat") : file && has_suffix(file, ".dat");
	if (dat && !file)
		usage_error("dump", "-F dat needs -o FILE");

	info_text = ctl_read("last_boot_info");
	if (!info_text)
		die_code(KM_EXIT_NOINST,
			 "instance '%s' is not boot-mapped (no last_boot_info): %s",
			 instance_name(), strerror(errno));
	if (strncmp(info_text, PREV_LINE, strlen(PREV_LINE))) {
		info("%.*s", (int)strcspn(info_text, "\n"), info_text);
		free(info_text);
		return KM_EXIT_ERROR;
	}
	if (dat) {
		ret = dump_dat(file);
	} else {
		if (file) {
			out = fopen(file, "w");
			if (!out)
				die("cannot create %s: %s", file, strerror(errno));
		}
		ret = dump_text(out, info_text);
		if (file && fclose(out) && !ret) {
			info("cannot write %s: %s", file, strerror(errno));
			ret = KM_EXIT_ERROR;
		}
	}
	free(info_text);
	return ret;
}

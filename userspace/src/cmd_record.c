// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "datfile.h"
#include "fallback.h"
#include "kmark.h"
#include "rbpage.h"
#include "recorder.h"
#include "tparse.h"

const char *const usage_record =
	"usage: kmark record [-B NAME] -o FILE [-F text|dat] [-t SECONDS] [-k]\n"
	"                    [-b KB] [-C CLOCK] [-m KB] [-q] [-S] [--no-fallback] EVENT...\n"
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
	"  dat   a trace.dat (trace-cmd's format, version 7) of the raw pages of\n"
	"        per_cpu/cpuN/trace_pipe_raw and the format files of events/\n"
	"        (each event in its system: sched, syscalls, kmark, kprobes, a\n"
	"        module's name): open it with 'trace-cmd report', KernelShark,\n"
	"        or 'kmark report'.\n"
	"dat: a thread per CPU moves that CPU's pages into a file of its own\n"
	"(read() into a 1 MiB buffer, a write() when it is full and before\n"
	"each sleep; no look at the events), woken as the kernel's\n"
	"buffer_percent says; the largest file becomes FILE, the others are\n"
	"copied into it. The tasks' names are the kernel's saved_cmdlines when\n"
	"saved_comms says it is complete; else the records are read once for\n"
	"them. The CPU files are FILE.cpuN.XXXXXX, or\n"
	"$TMPDIR/kmark-record.cpuN.XXXXXX (default /tmp) when FILE is a FIFO\n"
	"or a device.\n"
	"Events lost in the kernel show in the trace.dat as ftrace's do (the\n"
	"page after the loss is marked), and the summary says, for each CPU,\n"
	"how many events were recorded and how many were lost and why (from\n"
	"per_cpu/cpuN/stats; another reader of the same buffer would take\n"
	"events that it counts as read). On a terminal, a progress line shows\n"
	"each CPU's events kept so far (in FILE, or in the buffer until the\n"
	"next wake-up), the bytes in FILE, and the events lost so far.\n"
	"text: reads trace_pipe (woken in batches: read_delay_ms).\n"
	"A write error on FILE stops the recording (exit 1). Analyse FILE with\n"
	"'kmark report' (either format).\n"
	"With -B NAME, everything happens in instance NAME: its set_event,\n"
	"trace, tracing_on, trace_pipe, per_cpu/, events/, buffer_size_kb and\n"
	"trace_clock (kprobe fallbacks are defined in the top kprobe_events).\n"
	"\n"
	"Options:\n"
	"  -o, --output FILE      file to write (required)\n"
	"  -F, --format FORMAT    text or dat (default: by FILE's suffix)\n"
	"  -t, --time SECONDS     record for SECONDS (default: until Ctrl-C)\n"
	"  -k, --keep             keep the buffer's events and tracing_on\n"
	"  -b, --buffer-size KB   each CPU's buffer (buffer_size_kb) while\n"
	"                         recording; the old size is set back after\n"
	"  -C, --clock CLOCK      the trace clock (trace_clock: local, global,\n"
	"                         counter, uptime, mono, ...) while recording;\n"
	"                         the old one is set back after. Changing it\n"
	"                         clears the buffer\n"
	"  -m, --max-size KB      dat: keep at most KB of pages per CPU, the\n"
	"                         newest: older pages are overwritten (and\n"
	"                         counted as lost, the first page kept marked)\n"
	"  -q, --quiet            no progress line\n"
	"  -S, --splice           dat: splice() the full pages into the files\n"
	"                         (no copy out of the kernel; slower into the\n"
	"                         page cache than read() and write())\n"
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
		     ctl_dir(), strerror(errno));
		return KM_EXIT_ERROR;
	}
	if (ef_parse_header_page(hp, h)) {
		info("%s/events/header_page: no usable commit and data fields",
		     ctl_dir());
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

/* --- -b and -C: a setting for the session, set back after ------------- */

struct setting {
	const char *file;	/* buffer_size_kb, trace_clock */
	char *old;		/* its value before (to write back) */
};

/* the value of a setting file: its first line, or trace_clock's [one] */
static char *setting_value(const char *file)
{
	char *v = ctl_read(file), *b, *e;

	if (!v)
		return NULL;
	v[strcspn(v, "\n")] = '\0';
	b = strchr(v, '[');
	e = b ? strchr(b, ']') : NULL;
	if (e) {
		*e = '\0';
		memmove(v, b + 1, strlen(b + 1) + 1);
	}
	return v;
}

static int setting_write(const char *file, const char *value)
{
	char *buf = xmalloc(strlen(value) + 2);
	int err;

	sprintf(buf, "%s\n", value);
	err = ctl_write(file, O_TRUNC, buf);
	free(buf);
	if (err) {
		info("cannot write '%s' to %s: %s", value, file,
		     ctl_strerror(err));
		print_error_log(file);
		return KM_EXIT_ERROR;
	}
	return KM_EXIT_OK;
}

static int setting_set(struct setting *s, const char *file, const char *value)
{
	s->file = file;
	s->old = setting_value(file);
	if (!s->old) {
		info("cannot read %s/%s: %s", ctl_dir_of(file), file,
		     strerror(errno));
		return KM_EXIT_ERROR;
	}
	if (!strcmp(s->old, value))
		return KM_EXIT_OK;
	return setting_write(file, value);
}

static int setting_restore(struct setting *s)
{
	int ret = KM_EXIT_OK;

	if (s->old && strcmp(s->old, "X"))	/* X: the CPUs' sizes differ */
		ret = setting_write(s->file, s->old);
	free(s->old);
	s->old = NULL;
	return ret;
}

/* --- the dat recording ------------------------------------------------- */

struct dat_session {
	const char *file;
	int fifo_fd;		/* FILE is no regular file: written in order */
	unsigned long long max_bytes;
	bool quiet;
	struct ef_header hdr;
	struct recorder rec;
	struct cpu_counts *start, *end;
	char **stats;		/* the stats texts at the end (CPUSTAT) */
	double t0;
	bool progress_shown;
};

/* per_cpu/cpuN/stats of every CPU: counters, and the texts if @texts */
static void read_counts(const struct dat_session *d, struct cpu_counts *c,
			char **texts)
{
	unsigned int cpu;
	char path[64];

	for (cpu = 0; cpu < d->rec.ncpus; cpu++) {
		char *t;

		snprintf(path, sizeof(path), "per_cpu/cpu%u/stats", cpu);
		t = ctl_read(path);
		cpu_counts_parse(t ? t : "", &c[cpu]);
		if (texts) {
			free(texts[cpu]);
			texts[cpu] = t;
		} else {
			free(t);
		}
	}
}

static void progress(struct recorder *r, void *arg)
{
	struct dat_session *d = arg;
	unsigned long long *ev = xmalloc(r->ncpus * sizeof(*ev));
	unsigned long long *by = xmalloc(r->ncpus * sizeof(*by)), lost = 0;
	struct cpu_counts *now = xmalloc(r->ncpus * sizeof(*now));
	struct ef_buf b = { 0 };
	unsigned int cpu;

	read_counts(d, now, NULL);
	for (cpu = 0; cpu < r->ncpus; cpu++) {
		struct cpu_summary s;
		unsigned long long w;

		rec_summarize(&d->start[cpu], &now[cpu], -1, 0, 0, 1, &s);
		/*
		 * The events kept so far: written and not lost, in the file
		 * or still in the buffer (below buffer_percent, pages wait
		 * there for the next wake-up or the end).
		 */
		w = counter_delta(d->start[cpu].written, now[cpu].written);
		ev[cpu] = w > s.lost ? w - s.lost : 0;
		by[cpu] = rec_bytes(&r->cpu[cpu]);
		lost += s.lost;
	}
	eb_reset(&b);
	rec_progress_line(mono_now() - d->t0, r->ncpus, ev, by, lost, &b);
	fprintf(stderr, "\r%s\033[K", b.s);
	fflush(stderr);
	d->progress_shown = true;
	eb_free(&b);
	free(ev);
	free(by);
	free(now);
}

/*
 * Check FILE before anything is enabled: a directory is refused, a FIFO
 * or a device is opened now (written in order at the end), a regular
 * file is made at the end from the largest CPU file.
 */
static int dat_prepare(struct dat_session *d)
{
	struct stat st;

	d->fifo_fd = -1;
	if (stat(d->file, &st)) {
		if (errno == ENOENT)
			return KM_EXIT_OK;
		die("cannot use %s: %s", d->file, strerror(errno));
	}
	if (S_ISDIR(st.st_mode))
		die("cannot create %s: %s", d->file, strerror(EISDIR));
	if (S_ISREG(st.st_mode))
		return KM_EXIT_OK;
	d->fifo_fd = open(d->file, O_WRONLY | O_CLOEXEC);
	if (d->fifo_fd < 0)
		die("cannot open %s: %s", d->file, strerror(errno));
	return KM_EXIT_OK;
}

/* count the events of a CPU's pages (with -m, when the ring went round) */
static long long count_kept(const struct dat_session *d, const struct dat_cpu *c)
{
	unsigned char *page = xmalloc(d->hdr.page_size);
	long long n = 0;
	unsigned int i;

	for (i = 0; i < c->nseg; i++) {
		unsigned long long off = c->seg[i].off;
		unsigned long long end = off + c->seg[i].len;

		for (; off + d->hdr.page_size <= end; off += d->hdr.page_size) {
			struct rb_page pg;
			struct rb_rec r;

			if (pread(c->fd, page, d->hdr.page_size, (off_t)off) !=
			    (ssize_t)d->hdr.page_size) {
				free(page);
				return -1;
			}
			if (!rb_page_init(&pg, page, &d->hdr))
				continue;
			while (rb_page_next(&pg, &r))
				n++;
		}
	}
	free(page);
	return n;
}

/*
 * After the threads ended: the trace.dat, and the summary. @started: the
 * threads ran (else only the temporary files go).
 */
static int dat_finish(struct dat_session *d)
{
	struct recorder *r = &d->rec;
	struct dat_cpu *cpus = xmalloc(r->ncpus * sizeof(*cpus));
	struct cpu_summary *sum = xmalloc(r->ncpus * sizeof(*sum));
	unsigned long long *size = xmalloc(r->ncpus * sizeof(*size));
	unsigned long long events = 0, lost = 0, pages = 0;
	struct dat_write_args a = { 0 };
	struct dat_info di;
	bool in_place, count = false;
	unsigned int cpu, first;
	int ret = KM_EXIT_OK, out = -1, keep = -1;
	char msg[512];

	read_counts(d, d->end, d->stats);
	for (cpu = 0; cpu < r->ncpus; cpu++) {
		struct rec_cpu *c = &r->cpu[cpu];
		long long kept = -1;

		rec_dat_cpu(c, &cpus[cpu]);
		size[cpu] = rot_kept(&c->rot);
		/* -m overwrote pages: only a count tells the events kept */
		if (rot_dropped(&c->rot))
			kept = count_kept(d, &cpus[cpu]);
		rec_summarize(&d->start[cpu], &d->end[cpu], kept, size[cpu],
			      rot_dropped(&c->rot), d->hdr.page_size, &sum[cpu]);
		cpus[cpu].lost = sum[cpu].rotated;
		/*
		 * Counters that did not move while pages came, or went back
		 * (the buffer was cleared meanwhile): count the pages.
		 */
		if (kept < 0 && size[cpu] &&
		    (sum[cpu].unknown || !sum[cpu].events ||
		     d->end[cpu].read < d->start[cpu].read))
			count = true;
	}

	in_place = d->fifo_fd < 0 && !d->max_bytes;
	first = dat_largest(r->ncpus, size);
	if (in_place) {
		out = r->cpu[first].out;
		keep = (int)first;
	} else if (d->fifo_fd >= 0) {
		out = d->fifo_fd;
	} else {
		out = open(d->file, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC,
			   0644);
		if (out < 0) {
			info("cannot create %s: %s", d->file, strerror(errno));
			ret = KM_EXIT_ERROR;
			goto out;
		}
	}
	a.dir = ctl_dir();
	a.top = ctl_top_dir();
	a.out = out;
	a.cpu = cpus;
	a.ncpus = r->ncpus;
	a.first = first;
	a.in_place = in_place;
	a.count = count;
	a.cpustats = d->stats;
	if (dat_write(&a, &di, msg, sizeof(msg))) {
		info("cannot write %s: %s", d->file, msg);
		ret = KM_EXIT_ERROR;
		keep = -1;
	} else if (in_place && rename(r->cpu[first].path, d->file)) {
		info("cannot rename %s to %s: %s", r->cpu[first].path, d->file,
		     strerror(errno));
		ret = KM_EXIT_ERROR;
		keep = -1;
	}
	if (!in_place && d->fifo_fd < 0 && close(out) && !ret) {
		info("cannot write %s: %s", d->file, strerror(errno));
		ret = KM_EXIT_ERROR;
	}
	if (ret) {
		dat_info_free(&di);
		goto out;
	}
	for (cpu = 0; cpu < r->ncpus; cpu++) {
		struct ef_buf b = { 0 };

		if (di.counted && sum[cpu].events != di.cpu_events[cpu] &&
		    !sum[cpu].counted) {
			/* the pages say, the counters did not */
			rec_summarize(&d->start[cpu], &d->end[cpu],
				      (long long)di.cpu_events[cpu], size[cpu],
				      0, d->hdr.page_size, &sum[cpu]);
		}
		events += sum[cpu].events;
		lost += sum[cpu].lost;
		pages += sum[cpu].pages;
		if (!sum[cpu].events && !sum[cpu].lost && !sum[cpu].bytes)
			continue;
		eb_reset(&b);
		rec_summary_line(cpu, &sum[cpu], &b);
		info("%s", b.s);
		eb_free(&b);
	}
	info("recorded %llu events, %llu lost, to %s (trace.dat v7, %u CPUs, %llu pages)",
	     events, lost, d->file, r->ncpus, pages);
	dat_info_free(&di);
out:
	rec_close(r, keep);
	free(cpus);
	free(sum);
	free(size);
	return ret;
}

static void dat_free(struct dat_session *d)
{
	unsigned int cpu;

	for (cpu = 0; d->stats && cpu < d->rec.ncpus; cpu++)
		free(d->stats[cpu]);
	free(d->stats);
	free(d->start);
	free(d->end);
	if (d->fifo_fd >= 0)
		close(d->fifo_fd);
}

int cmd_record(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "format", required_argument, NULL, 'F' },
		{ "time", required_argument, NULL, 't' },
		{ "keep", no_argument, NULL, 'k' },
		{ "buffer-size", required_argument, NULL, 'b' },
		{ "clock", required_argument, NULL, 'C' },
		{ "max-size", required_argument, NULL, 'm' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "splice", no_argument, NULL, 'S' },
		{ "no-fallback", no_argument, NULL, 'n' },
		{ "help", no_argument, NULL, 'h' },
		KM_OPT_INSTANCE,
		{ NULL, 0, NULL, 0 },
	};
	struct enable_opts eo = { 0 };
	struct rec_state r = { 0 };
	struct dat_session d = { 0 };
	struct setting bsize = { 0 }, clock = { 0 };
	const char *file = NULL, *format = NULL, *kb = NULL, *clk = NULL;
	char (*enabled)[FB_NAME_LEN] = NULL;
	int opt, i, nenabled = 0, fd, err, ret = KM_EXIT_OK;
	unsigned long max_kb = 0, v;
	double seconds = 0;
	bool dat, keep = false, opened = false, use_splice = false;
	char *path;

	while ((opt = getopt_long(argc, argv, "B:o:F:t:kb:C:m:qSnh", opts,
				  NULL)) != -1) {
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
		case 'b':
			if (!parse_ulong(optarg, &v) || !v)
				usage_error("record", "invalid buffer size '%s' (KiB per CPU)",
					    optarg);
			kb = optarg;
			break;
		case 'C':
			if (!*optarg || strpbrk(optarg, " \t\n[]"))
				usage_error("record", "invalid clock '%s'",
					    optarg);
			clk = optarg;
			break;
		case 'm':
			if (!parse_ulong(optarg, &max_kb) || !max_kb ||
			    max_kb > (~0UL >> 10))
				usage_error("record", "invalid size '%s' (KiB per CPU)",
					    optarg);
			break;
		case 'q':
			d.quiet = true;
			break;
		case 'S':
			use_splice = true;
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
	if (max_kb && !dat)
		usage_error("record", "-m is for the dat format");
	if (use_splice && !dat)
		usage_error("record", "-S is for the dat format");
	if (dat) {
		ret = dat_header(&d.hdr);
		if (ret)
			return ret;
		d.file = file;
		d.max_bytes = (unsigned long long)max_kb << 10;
		dat_prepare(&d);
	} else {
		r.out = fopen(file, "w");
		if (!r.out)
			die("cannot create %s: %s", file, strerror(errno));
		if (fputs(text_header, r.out) == EOF)
			r.werr = errno;
	}

	/* the session's settings first: both clear the buffer */
	if (kb)
		ret = setting_set(&bsize, "buffer_size_kb", kb);
	if (!ret && clk)
		ret = setting_set(&clock, "trace_clock", clk);
	if (!ret && dat) {
		char *per_cpu = ctl_path("per_cpu"), *base = NULL;
		const char *tmp = getenv("TMPDIR");

		/* the CPU files: next to FILE, or for a FIFO in $TMPDIR */
		if (d.fifo_fd >= 0) {
			if (!tmp || !*tmp)
				tmp = "/tmp";
			base = xmalloc(strlen(tmp) + 16);
			sprintf(base, "%s/kmark-record", tmp);
		}
		ret = rec_open(&d.rec, per_cpu, base ? base : file,
			       &d.hdr, d.max_bytes, use_splice);
		free(per_cpu);
		free(base);
		opened = true;
	}

	if (!ret) {
		enabled = xmalloc((size_t)(argc - optind) * sizeof(*enabled));
		for (i = optind; i < argc && !ret; i++) {
			ret = enable_event(argv[i], &eo, enabled[nenabled]);
			if (!ret)
				nenabled++;
		}
		events_cleanup();
	}

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
		unsigned int n = d.rec.ncpus;

		d.start = xmalloc(n * sizeof(*d.start));
		d.end = xmalloc(n * sizeof(*d.end));
		d.stats = xmalloc(n * sizeof(*d.stats));
		memset(d.stats, 0, n * sizeof(*d.stats));
		read_counts(&d, d.start, NULL);
		install_stop_handlers();
		d.t0 = mono_now();
		ret = rec_start(&d.rec);
		r.started = true;
		if (!ret)
			ret = rec_wait(&d.rec, seconds > 0 ? d.t0 + seconds : 0,
				       !d.quiet && isatty(2) ? 1.0 : 0,
				       progress, &d);
		if (d.progress_shown)
			fputc('\n', stderr);
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
		/* what the disabled events left in the buffer: the threads */
		if (r.started && rec_stop(&d.rec) && !ret)
			ret = KM_EXIT_ERROR;
		if (r.started && !ret)
			ret = dat_finish(&d);
		else if (opened)
			rec_close(&d.rec, -1);
	}
	if (setting_restore(&clock) && !ret)
		ret = KM_EXIT_ERROR;
	if (setting_restore(&bsize) && !ret)
		ret = KM_EXIT_ERROR;
	if (dat) {
		dat_free(&d);
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

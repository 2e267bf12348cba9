// SPDX-License-Identifier: GPL-2.0
/*
 * kmark-fuzz: a grammar-aware fuzzer for kmark's control directory.
 *
 * It walks the control directory (/sys/kernel/debug/kmark, or the tracefs
 * copy), finds every writable file of the top directory and of the
 * instances, and writes to them what each file's grammar allows (picked by
 * the file's name: set_event, set_event_pid, kprobe_events, filter, enable,
 * trigger, tracing_on, buffer_size_kb, ...) and mutations of it (deep
 * nesting, long runs of '!', huge and negative numbers, odd bytes, names at
 * and past each limit, writes of 4095 and 4096 bytes, globs, '>' and '>>',
 * several commands per write). It interleaves instances made and removed
 * (instances/new and remove, or mkdir and rmdir where they work), modules
 * loaded and unloaded (finit_module, delete_module), kprobes defined and
 * deleted, readers of trace, trace_pipe and trace_pipe_raw pinned to each
 * CPU, renames of itself (prctl PR_SET_NAME) and forks.
 *
 * After every step it checks the kernel log (/dev/kmsg from where it was
 * when the run began) and the state the files show: a write that failed
 * changed nothing, a write that succeeded changed only what it should (a
 * filter write no other event's filter, a set_event write no other
 * instance's, a pid list reads back what was written), every event's id
 * and format can be read, the ids differ and the names are ftrace's kind,
 * set_event agrees with the enable files and with what gets recorded
 * (events a trigger holds in soft mode aside, as ftrace lists them too),
 * a task's line shows its current name.
 *
 * The same seed and steps do the same actions on the same kernel from the
 * same state (readers live a number of steps, files and events are taken
 * in name order); what the kernel does on its own meanwhile (a trigger
 * that fires, a kthread's marker) can still make a later step differ.
 * The seed is printed first; a finding prints
 * "FUZZ-FINDING seed=N step=M: [check] what" and the last 200 actions, and
 * the exit status is 1. A kernel crash cannot be reported from here: the
 * run writes "kmark-fuzz: seed=N step=M" lines to the kernel log for the
 * host to find (qemu-tests/fuzzlog.py).
 *
 * The program is two processes: a supervisor that reports when the worker
 * dies (a kernel oops kills the task that hit it) or stops making progress,
 * and the worker. The last actions are kept in memory both share.
 */
#define _GNU_SOURCE
#define _FILE_OFFSET_BITS 64	/* readdir(), stat() of any inode on i386 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define RING		200	/* actions kept for a finding's report */
#define ACT_LEN		240	/* characters of one action's description */
#define MAX_READERS	4
#define MAX_FIELDS	32
#define PAGE		4096

/* --- families: what can be left out (-x) -------------------------------- */

enum fam {
	/* checks */
	C_KMSG, C_FAILED, C_EFFECT, C_EVENTS, C_SETEVENT, C_RECORDED, C_COMM,
	C_ALIVE,
	/* actions */
	A_WRITE, A_INSTANCE, A_MODULE, A_KPROBE, A_READER, A_RENAME, A_FORK,
	/* mutations */
	M_NEST, M_BANG, M_LONG, M_NUMBER, M_BYTE, M_LIMIT, M_GLOB, M_MULTI,
	M_APPEND, M_SPLIT,
	NR_FAM
};
#define NR_CHECKS	(C_ALIVE + 1)

static const struct {
	const char *name, *help;
} fams[NR_FAM] = {
	[C_KMSG] = { "kmsg", "check: the kernel log stays clean" },
	[C_FAILED] = { "failed-write", "check: a write that failed changed nothing" },
	[C_EFFECT] = { "write-effect", "check: a write changed only what it should, and reads back" },
	[C_EVENTS] = { "events", "check: every event's id and format read, the ids differ" },
	[C_SETEVENT] = { "set-event", "check: set_event agrees with the enable files and the write" },
	[C_RECORDED] = { "recorded", "check: what set_event lists is what is recorded (sys_sync)" },
	[C_COMM] = { "comm", "check: a task's line shows its current name" },
	[C_ALIVE] = { "alive", "check: the fuzzer and the control directory live on" },
	[A_WRITE] = { "write", "action: grammar writes to the writable files" },
	[A_INSTANCE] = { "instance", "action: instances made and removed" },
	[A_MODULE] = { "module", "action: modules loaded, fired, unloaded" },
	[A_KPROBE] = { "kprobe", "action: kprobes defined and deleted, names at the limits" },
	[A_READER] = { "reader", "action: readers of trace, trace_pipe, trace_pipe_raw" },
	[A_RENAME] = { "rename", "action: renames of itself, each marked" },
	[A_FORK] = { "fork", "action: children that rename, mark and exit" },
	[M_NEST] = { "nest", "mutation: deep parentheses" },
	[M_BANG] = { "bang", "mutation: long runs of '!' in filters" },
	[M_LONG] = { "long", "mutation: long runs, many terms" },
	[M_NUMBER] = { "number", "mutation: huge and negative numbers" },
	[M_BYTE] = { "byte", "mutation: NUL, high bytes, newlines mid-command" },
	[M_LIMIT] = { "limit", "mutation: names and writes at and past each limit" },
	[M_GLOB] = { "glob", "mutation: globs" },
	[M_MULTI] = { "multi", "mutation: several commands per write" },
	[M_APPEND] = { "append", "mutation: '>>' (O_APPEND) as well as '>' (O_TRUNC)" },
	[M_SPLIT] = { "split", "mutation: one command in several write()s" },
};

static bool off[NR_FAM];

/* --- options and shared state ------------------------------------------- */

static const char *root = "/sys/kernel/debug/kmark";
static const char *moddir;
static unsigned long long seed;
static long max_steps = -1;
static double max_time = -1;
static int verbose, keep_going, summary, use_kmsg = 1;
static long checkpoint = 50;
static int hang_secs = 180;

/* What the supervisor and the worker share (MAP_SHARED). */
struct shared {
	long step;
	double t0;			/* CLOCK_MONOTONIC of the run's start */
	double beat;			/* CLOCK_MONOTONIC of the last progress */
	unsigned long nact;		/* actions logged so far */
	char act[RING][ACT_LEN];
	long checks[NR_CHECKS];
	long findings[NR_CHECKS];
	long skips[NR_CHECKS];
	char skip_why[NR_CHECKS][96];
	long actions[NR_FAM];
	int done;			/* the worker finished its steps */
	int reported;			/* the worker printed a finding */
};
static struct shared *sh;

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* --- random numbers: xoshiro256**, seeded with splitmix64 ---------------- */

static uint64_t rs[4];

static uint64_t splitmix(uint64_t *x)
{
	uint64_t z = (*x += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static uint64_t rotl(uint64_t x, int k)
{
	return (x << k) | (x >> (64 - k));
}

static uint64_t rnd(void)
{
	uint64_t r = rotl(rs[1] * 5, 7) * 9, t = rs[1] << 17;

	rs[2] ^= rs[0];
	rs[3] ^= rs[1];
	rs[1] ^= rs[2];
	rs[0] ^= rs[3];
	rs[2] ^= t;
	rs[3] = rotl(rs[3], 45);
	return r;
}

static void rnd_seed(uint64_t s)
{
	int i;

	for (i = 0; i < 4; i++)
		rs[i] = splitmix(&s);
}

/* 0 .. n-1 */
static unsigned int rn(unsigned int n)
{
	return n ? rnd() % n : 0;
}

/* true with @pct percent, never when @fam is left out */
static bool chance(unsigned int pct)
{
	return rn(100) < pct;
}

static bool mut(enum fam f, unsigned int pct)
{
	return !off[f] && chance(pct);
}

#define PICK(a) ((a)[rn(sizeof(a) / sizeof((a)[0]))])

/* --- a growable byte buffer --------------------------------------------- */

struct xb {
	char *p;
	size_t n, cap;
};

static void xb_grow(struct xb *b, size_t more)
{
	if (b->n + more + 1 <= b->cap)
		return;
	b->cap = (b->n + more + 1) * 2;
	b->p = realloc(b->p, b->cap);
	if (!b->p) {
		perror("realloc");
		exit(2);
	}
}

static void xb_put(struct xb *b, const void *s, size_t n)
{
	xb_grow(b, n);
	memcpy(b->p + b->n, s, n);
	b->n += n;
	b->p[b->n] = '\0';
}

static void xb_puts(struct xb *b, const char *s)
{
	xb_put(b, s, strlen(s));
}

static void xb_rep(struct xb *b, const char *s, size_t times)
{
	while (times--)
		xb_puts(b, s);
}

static void __attribute__((format(printf, 2, 3)))
xb_printf(struct xb *b, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	xb_grow(b, n);
	va_start(ap, fmt);
	vsnprintf(b->p + b->n, n + 1, fmt, ap);
	va_end(ap);
	b->n += n;
}

static void xb_reset(struct xb *b)
{
	b->n = 0;
	xb_grow(b, 0);
	b->p[0] = '\0';
}

/*
 * @n bytes of @p, printable: \n, \0, \xNN; a run of 6 or more of one byte
 * as {'c'xN}. At most @size - 1 characters.
 */
static void esc(const char *p, size_t n, char *out, size_t size)
{
	size_t i = 0, o = 0;

	while (i < n && o + 16 < size) {
		unsigned char c = p[i];
		size_t run = 1;

		while (i + run < n && (unsigned char)p[i + run] == c)
			run++;
		if (run >= 6) {
			if (c >= 0x20 && c < 0x7f && c != '\'')
				o += snprintf(out + o, size - o, "{'%c'x%zu}", c, run);
			else
				o += snprintf(out + o, size - o, "{\\x%02xx%zu}", c, run);
			i += run;
			continue;
		}
		if (c == '\n')
			o += snprintf(out + o, size - o, "\\n");
		else if (c == '\\')
			o += snprintf(out + o, size - o, "\\\\");
		else if (c >= 0x20 && c < 0x7f)
			out[o++] = c;
		else
			o += snprintf(out + o, size - o, "\\x%02x", c);
		i++;
	}
	if (i < n && o + 4 < size)
		o += snprintf(out + o, size - o, "...");
	out[o < size ? o : size - 1] = '\0';
}

/* --- the action log ------------------------------------------------------ */

static char *act_cur;

static void __attribute__((format(printf, 1, 2))) act(const char *fmt, ...)
{
	va_list ap;

	act_cur = sh->act[sh->nact % RING];
	va_start(ap, fmt);
	vsnprintf(act_cur, ACT_LEN, fmt, ap);
	va_end(ap);
	sh->nact++;
	if (verbose) {
		printf("step %ld: %s\n", sh->step, act_cur);
		fflush(stdout);
	}
}

/* Append the outcome to the current action. */
static void __attribute__((format(printf, 1, 2))) act_res(const char *fmt, ...)
{
	size_t len = strlen(act_cur);
	va_list ap;

	if (len + 4 >= ACT_LEN)
		return;
	memcpy(act_cur + len, " = ", 3);
	va_start(ap, fmt);
	vsnprintf(act_cur + len + 3, ACT_LEN - len - 3, fmt, ap);
	va_end(ap);
	if (verbose) {
		printf("  %s\n", act_cur + len + 1);
		fflush(stdout);
	}
}

static void print_actions(void)
{
	unsigned long i, first = sh->nact > RING ? sh->nact - RING : 0;

	printf("# the last %lu actions (oldest first):\n", sh->nact - first);
	for (i = first; i < sh->nact; i++)
		printf("#   %s\n", sh->act[i % RING]);
}

static void cleanup(void);
static void kmsg_note(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static bool cleaning;

static void __attribute__((format(printf, 2, 3)))
finding(enum fam f, const char *fmt, ...)
{
	va_list ap;

	sh->findings[f]++;
	if (keep_going && sh->findings[f] > 3)
		return;		/* each check family reports a few */
	printf("FUZZ-FINDING seed=%llu step=%ld: [%s] ", seed, sh->step,
	       fams[f].name);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n# found after %.1f s of the run\n", now() - sh->t0);
	print_actions();
	printf("# replay: kmark-fuzz --seed %llu --steps %ld -v", seed, sh->step);
	for (int i = 0; i < NR_FAM; i++)
		if (off[i])
			printf(" -x %s", fams[i].name);
	printf("\n");
	fflush(stdout);
	sh->reported = 1;
	kmsg_note("seed=%llu finding step=%ld\n", seed, sh->step);
	if (keep_going)
		return;
	/* After kernel trouble the kernel may not answer: leave it be. */
	if (f != C_KMSG && f != C_ALIVE && !cleaning)
		cleanup();
	exit(1);
}

static void check_ok(enum fam f)
{
	sh->checks[f]++;
}

static void check_skip(enum fam f, const char *why)
{
	sh->skips[f]++;
	if (!sh->skip_why[f][0])
		snprintf(sh->skip_why[f], sizeof(sh->skip_why[f]), "%s", why);
}

/* --- files --------------------------------------------------------------- */

static char *path_of(const char *rel)
{
	static char p[4][2 * PATH_MAX + 64];
	static int i;

	i = (i + 1) % 4;
	snprintf(p[i], sizeof(p[i]), "%s/%s", root, rel);
	return p[i];
}

/* Read @rel (or an absolute path) into @b: its length, or -errno. */
static ssize_t read_file(const char *rel, struct xb *b, size_t max)
{
	const char *path = rel[0] == '/' ? rel : path_of(rel);
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	ssize_t r;

	xb_reset(b);
	if (fd < 0)
		return -errno;
	for (;;) {
		xb_grow(b, 65536);
		r = read(fd, b->p + b->n, 65536);
		if (r <= 0)
			break;
		b->n += r;
		b->p[b->n] = '\0';
		if (b->n >= max)
			break;
	}
	if (r < 0 && !(errno == EAGAIN && b->n)) {
		r = -errno;
		close(fd);
		return r;
	}
	close(fd);
	return b->n;
}

static bool exists(const char *rel)
{
	struct stat st;

	return !stat(path_of(rel), &st);
}

/* Write @n bytes of @p to @path with @flags in @parts write()s. */
struct wres {
	int open_err;		/* errno of open(), or 0 */
	int nwrites, nok;	/* write()s made, and succeeded */
	int err;		/* errno of the first failed write() */
	ssize_t done;		/* bytes the write()s took */
};

static struct wres write_raw(const char *path, int flags, const char *p,
			     size_t n, int parts)
{
	struct wres w = { 0 };
	size_t off = 0;
	int fd, i;

	fd = open(path, O_WRONLY | O_CLOEXEC | flags);
	if (fd < 0) {
		w.open_err = errno;
		return w;
	}
	for (i = 0; i < parts; i++) {
		size_t len = i == parts - 1 ? n - off : (n - off) / (parts - i);
		ssize_t r;

		if (!len && i != parts - 1)
			continue;
		r = write(fd, p + off, len);
		w.nwrites++;
		if (r < 0) {
			if (!w.err)
				w.err = errno;
		} else {
			w.nok++;
			w.done += r;
		}
		off += len;
	}
	close(fd);
	return w;
}

static bool w_failed(const struct wres *w)
{
	return w->open_err || !w->nok;
}

static const char *w_text(const struct wres *w)
{
	static char t[96];

	if (w->open_err)
		snprintf(t, sizeof(t), "open: %s", strerror(w->open_err));
	else if (w->err && w->nok)
		snprintf(t, sizeof(t), "%d of %d writes ok, then %s", w->nok,
			 w->nwrites, strerror(w->err));
	else if (w->err)
		snprintf(t, sizeof(t), "%s", strerror(w->err));
	else
		snprintf(t, sizeof(t), "%zd", w->done);
	return t;
}

/* --- the control directory as found ------------------------------------- */

enum grammar {
	G_SET_EVENT, G_PID, G_KPROBE, G_FILTER, G_ENABLE, G_TRIGGER, G_BOOL,
	G_NUM, G_TRACE, G_MARKER, G_ERRLOG, G_INST_NEW, G_INST_RM, G_CLOCK,
	G_CPUMASK, G_SYNTH, G_SNAPSHOT, G_GENERIC, G_NR
};

static const struct {
	const char *name;
	enum grammar g;
} grammars[] = {
	{ "set_event", G_SET_EVENT },
	{ "set_event_pid", G_PID },
	{ "set_event_notrace_pid", G_PID },
	{ "set_ftrace_pid", G_PID },
	{ "set_ftrace_notrace_pid", G_PID },
	{ "kprobe_events", G_KPROBE },
	{ "dynamic_events", G_KPROBE },
	{ "filter", G_FILTER },
	{ "enable", G_ENABLE },
	{ "trigger", G_TRIGGER },
	{ "tracing_on", G_BOOL },
	{ "buffer_size_kb", G_NUM },
	{ "buffer_percent", G_NUM },
	{ "read_delay_ms", G_NUM },
	{ "saved_cmdlines_size", G_NUM },
	{ "buffer_subbuf_size_kb", G_NUM },
	{ "trace", G_TRACE },
	{ "trace_marker", G_MARKER },
	{ "trace_marker_raw", G_MARKER },
	{ "error_log", G_ERRLOG },
	{ "trace_clock", G_CLOCK },
	{ "tracing_cpumask", G_CPUMASK },
	{ "synthetic_events", G_SYNTH },
	{ "snapshot", G_SNAPSHOT },
};

static const char *const gnames[G_NR] = {
	"set_event", "pid", "kprobe", "filter", "enable", "trigger", "bool",
	"number", "trace", "marker", "error_log", "instance-new",
	"instance-remove", "clock", "cpumask", "synthetic", "snapshot",
	"generic",
};

struct event {
	char *rel;			/* under events/: "sys_sync", "kprobes/x" */
	int nf;
	char *field[MAX_FIELDS];
	bool str[MAX_FIELDS];
};

struct cfile {
	char *rel;			/* under the root */
	enum grammar g;
	int inst;			/* index in insts[] */
	int ev;				/* event of events/REL/FILE, or -1 */
	bool leaf;			/* events/.../FILE of one event */
};

struct inst {
	char *name;			/* "" for the top one */
	char *prefix;			/* "" or "instances/NAME/" */
};

#define CHECKER	"fzchk"		/* the fuzzer's own instance for its checks */

static struct cfile *files;
static int nfiles;
static struct event *events;
static int nevents;
static struct inst *insts;
static int ninsts;
static char **readers_rel;	/* trace, trace_pipe, trace_pipe_raw files */
static int nreaders_rel;
static bool dirty = true;	/* the tree may have changed: walk again */
static bool mkdir_works = true;	/* instances by mkdir (tracefs, ftrace's) */
static int ncpus = 1;

static enum grammar grammar_of(const char *rel, const char *base)
{
	size_t i;

	if (strstr(rel, "/options/") || !strncmp(rel, "options/", 8))
		return G_BOOL;
	if (!strcmp(rel, "instances/new"))
		return G_INST_NEW;
	if (!strcmp(rel, "instances/remove"))
		return G_INST_RM;
	for (i = 0; i < sizeof(grammars) / sizeof(grammars[0]); i++)
		if (!strcmp(base, grammars[i].name))
			return grammars[i].g;
	return G_GENERIC;
}

static void free_tree(void)
{
	int i, j;

	for (i = 0; i < nfiles; i++)
		free(files[i].rel);
	for (i = 0; i < nevents; i++) {
		free(events[i].rel);
		for (j = 0; j < events[i].nf; j++)
			free(events[i].field[j]);
	}
	for (i = 0; i < ninsts; i++) {
		free(insts[i].name);
		free(insts[i].prefix);
	}
	for (i = 0; i < nreaders_rel; i++)
		free(readers_rel[i]);
	free(files);
	free(events);
	free(insts);
	free(readers_rel);
	files = NULL;
	events = NULL;
	insts = NULL;
	readers_rel = NULL;
	nfiles = nevents = ninsts = nreaders_rel = 0;
}

static int inst_of(const char *rel, bool *checker)
{
	char name[256];
	const char *p, *slash;
	int i;

	*checker = false;
	if (strncmp(rel, "instances/", 10))
		return 0;
	p = rel + 10;
	slash = strchr(p, '/');
	if (!slash || slash - p >= (long)sizeof(name))
		return -1;
	memcpy(name, p, slash - p);
	name[slash - p] = '\0';
	if (!strcmp(name, CHECKER))
		*checker = true;
	for (i = 1; i < ninsts; i++)
		if (!strcmp(insts[i].name, name))
			return i;
	insts = realloc(insts, (ninsts + 1) * sizeof(*insts));
	insts[ninsts].name = strdup(name);
	insts[ninsts].prefix = malloc(strlen(name) + 12);
	sprintf(insts[ninsts].prefix, "instances/%s/", name);
	return ninsts++;
}

/* The events/ part of @rel: "events/sched_switch/filter" -> "sched_switch". */
static bool event_rel(const char *rel, char *out, size_t size)
{
	const char *e = strstr(rel, "events/");
	const char *last = strrchr(rel, '/');

	if (!e || (e != rel && e[-1] != '/'))
		return false;
	e += 7;
	if (!last || last < e || (size_t)(last - e) >= size)
		return false;
	memcpy(out, e, last - e);
	out[last - e] = '\0';
	return true;
}

static int event_index(const char *erel)
{
	int i;

	for (i = 0; i < nevents; i++)
		if (!strcmp(events[i].rel, erel))
			return i;
	return -1;
}

/* Fields of an event from its format file ("field:TYPE NAME;"). */
static void read_fields(struct event *ev, const char *fmt_rel)
{
	static struct xb b;
	char *line, *save = NULL;

	if (read_file(fmt_rel, &b, 1 << 16) <= 0)
		return;
	for (line = strtok_r(b.p, "\n", &save); line && ev->nf < MAX_FIELDS;
	     line = strtok_r(NULL, "\n", &save)) {
		char *f = strstr(line, "field:"), *semi, *name, *br;

		if (!f || !(semi = strchr(f, ';')))
			continue;
		*semi = '\0';
		name = strrchr(f, ' ');
		if (!name)
			continue;
		name++;
		br = strchr(name, '[');
		if (br)
			*br = '\0';
		if (!*name)
			continue;
		ev->str[ev->nf] = strstr(f, "__data_loc") ||
				  (strstr(f, "char") && br);
		ev->field[ev->nf++] = strdup(name);
	}
}

static void walk(const char *rel, int depth)
{
	char sub[PATH_MAX];
	struct dirent *de;
	DIR *d;

	if (depth > 6)
		return;
	d = opendir(rel[0] ? path_of(rel) : root);
	if (!d)
		return;
	while ((de = readdir(d))) {
		struct stat st;
		bool checker;
		int inst;

		if (de->d_name[0] == '.')
			continue;
		snprintf(sub, sizeof(sub), "%s%s%s", rel, rel[0] ? "/" : "",
			 de->d_name);
		if (lstat(path_of(sub), &st))
			continue;
		if (S_ISDIR(st.st_mode)) {
			walk(sub, depth + 1);
			continue;
		}
		if (!S_ISREG(st.st_mode))
			continue;
		inst = inst_of(sub, &checker);
		if (inst < 0 || checker)
			continue;
		/* An event: the top directory's events/REL/ with a format. */
		if (!inst && !strcmp(de->d_name, "format")) {
			char erel[PATH_MAX];

			if (event_rel(sub, erel, sizeof(erel)) &&
			    event_index(erel) < 0) {
				events = realloc(events, (nevents + 1) * sizeof(*events));
				memset(&events[nevents], 0, sizeof(*events));
				events[nevents].rel = strdup(erel);
				read_fields(&events[nevents], sub);
				nevents++;
			}
		}
		if (!strcmp(de->d_name, "trace") ||
		    !strcmp(de->d_name, "trace_pipe") ||
		    !strcmp(de->d_name, "trace_pipe_raw")) {
			readers_rel = realloc(readers_rel,
					      (nreaders_rel + 1) * sizeof(char *));
			readers_rel[nreaders_rel++] = strdup(sub);
		}
		if (!(st.st_mode & 0222))
			continue;
		files = realloc(files, (nfiles + 1) * sizeof(*files));
		files[nfiles].rel = strdup(sub);
		files[nfiles].g = grammar_of(sub, de->d_name);
		files[nfiles].inst = inst;
		files[nfiles].ev = -1;
		files[nfiles].leaf = false;
		nfiles++;
	}
	closedir(d);
}

static int cmp_rel(const void *a, const void *b)
{
	return strcmp(((const struct cfile *)a)->rel,
		      ((const struct cfile *)b)->rel);
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int cmp_event(const void *a, const void *b)
{
	return strcmp(((const struct event *)a)->rel, ((const struct event *)b)->rel);
}

static int cmp_inst(const void *a, const void *b)
{
	return strcmp(((const struct inst *)a)->name, ((const struct inst *)b)->name);
}

static void discover(void)
{
	int i;

	free_tree();
	insts = calloc(1, sizeof(*insts));
	insts[0].name = strdup("");
	insts[0].prefix = strdup("");
	ninsts = 1;
	walk("", 0);
	/* readdir's order is the file system's: sort for the same choices */
	qsort(files, nfiles, sizeof(*files), cmp_rel);
	qsort(readers_rel, nreaders_rel, sizeof(char *), cmp_str);
	qsort(events, nevents, sizeof(*events), cmp_event);
	qsort(insts + 1, ninsts - 1, sizeof(*insts), cmp_inst);
	for (i = 0; i < nfiles; i++) {
		bool checker;

		files[i].inst = inst_of(files[i].rel, &checker);
	}
	for (i = 0; i < nfiles; i++) {
		char erel[PATH_MAX];
		struct cfile *f = &files[i];

		if ((f->g == G_FILTER || f->g == G_ENABLE || f->g == G_TRIGGER) &&
		    event_rel(f->rel, erel, sizeof(erel))) {
			f->ev = event_index(erel);
			f->leaf = f->ev >= 0;
		}
	}
	dirty = false;
}

/* --- kernel log ---------------------------------------------------------- */

static int kmsg_fd = -1;

static const char *const trouble[] = {
	"BUG:", "WARNING:", "Oops", "general protection", "KASAN", "KFENCE",
	"suspicious RCU", "stack guard", "stack-protector",
	"Kernel panic", "UBSAN:", "Call Trace:", "soft lockup",
	"hard LOCKUP", "detected stall", "blocked for more than",
	"inconsistent lock state", "Kernel stack is corrupted",
};

static bool is_trouble(const char *msg)
{
	size_t i;
	const char *p;

	if (!strncmp(msg, "kmark-fuzz:", 11))
		return false;
	for (i = 0; i < sizeof(trouble) / sizeof(trouble[0]); i++)
		if (strstr(msg, trouble[i]))
			return true;
	/* lockdep: "possible recursive locking", "possible circular ..." */
	p = strstr(msg, "possible ");
	return p && strstr(p, "locking");
}

static void kmsg_open(void)
{
	if (!use_kmsg)
		return;
	kmsg_fd = open("/dev/kmsg", O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (kmsg_fd >= 0)
		lseek(kmsg_fd, 0, SEEK_END);
}

/*
 * New records of the kernel log: the text of the first troubling one and
 * the lines after it (at most @size), or "" when clean. kmemleak's
 * periodic "N new suspected memory leaks" only sets @leak: whose they are
 * is in its report (kmemleak_kmark()).
 */
static bool kmsg_scan(char *out, size_t size, bool *leak)
{
	char rec[8192];
	bool found = false;
	size_t o = 0;
	int after = 0;

	out[0] = '\0';
	*leak = false;
	if (kmsg_fd < 0)
		return false;
	for (;;) {
		ssize_t r = read(kmsg_fd, rec, sizeof(rec) - 1);
		char *msg, *nl;

		if (r < 0 && errno == EPIPE)
			continue;	/* overwritten: go on with the next */
		if (r <= 0)
			break;
		rec[r] = '\0';
		msg = strchr(rec, ';');
		msg = msg ? msg + 1 : rec;
		nl = strchr(msg, '\n');
		if (nl)
			*nl = '\0';
		if (strstr(msg, "suspected memory leak"))
			*leak = true;
		if (!found && is_trouble(msg)) {
			found = true;
			after = 40;
		}
		if (found && after-- > 0 && o + strlen(msg) + 4 < size)
			o += snprintf(out + o, size - o, "\n#   | %s", msg);
	}
	return found;
}

static void kmsg_note(const char *fmt, ...)
{
	char b[256];
	va_list ap;
	int fd, n;

	if (!use_kmsg)
		return;
	fd = open("/dev/kmsg", O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return;
	n = snprintf(b, sizeof(b), "<4>kmark-fuzz: ");
	va_start(ap, fmt);
	n += vsnprintf(b + n, sizeof(b) - n, fmt, ap);
	va_end(ap);
	if (write(fd, b, n) < 0) {
		/* the log is the host's view only: nothing to do */
	}
	close(fd);
}

/* --- the world beyond the directory: modules, symbols, children ---------- */

struct module {
	const char *name;
	char *path;
	const char *params[6];
	const char *fire;		/* a file whose write fires its markers */
	/*
	 * A function only we call, for MOD:SYM. Not kmark_mark_fire: the
	 * last function of its module's text, which ends at a page, and
	 * 6.12's optprobe check (can_optimize) decodes past it and oopses,
	 * for ftrace's kprobe_events too ("p kmark_mark:kmark_mark_fire").
	 */
	const char *probe_sym;
	bool loaded_at_start;
};

static struct module mods[] = {
	{ "kmark_test", NULL,
	  { "", "probe=sched_switch", "probe=sys_sync", "probe=kmark_mod_fire",
	    "probe=no_such_marker", "switch_check=1" },
	  "/sys/kernel/debug/kmark_test/call", "kmark_test_fn", false },
	{ "kmark_mark", NULL, { "", "", "", "", "", "" },
	  "/sys/module/kmark_mark/parameters/fire", NULL, false },
	{ "kmark_sample", NULL,
	  { "", "period_ms=0", "period_ms=10", "probe=1", "period_ms=1 probe=1",
	    "period_ms=4294967295" },
	  "/sys/module/kmark_sample/parameters/work", "kmark_sample_work", false },
};
#define NR_MODS (int)(sizeof(mods) / sizeof(mods[0]))

static bool mod_loaded(const struct module *m)
{
	char p[128];
	struct stat st;

	snprintf(p, sizeof(p), "/sys/module/%s", m->name);
	return !stat(p, &st);
}

static void find_modules(const char *dir, int depth)
{
	char p[PATH_MAX];
	struct dirent *de;
	DIR *d = opendir(dir);
	int i;

	if (!d || depth > 5) {
		if (d)
			closedir(d);
		return;
	}
	while ((de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		snprintf(p, sizeof(p), "%s/%s", dir, de->d_name);
		if (de->d_type == DT_DIR) {
			find_modules(p, depth + 1);
			continue;
		}
		for (i = 0; i < NR_MODS; i++) {
			size_t n = strlen(mods[i].name);

			if (!strncmp(de->d_name, mods[i].name, n) &&
			    !strcmp(de->d_name + n, ".ko") && !mods[i].path)
				mods[i].path = strdup(p);
		}
	}
	closedir(d);
}

/* Functions: only this program calls the safe ones (sync(2)). */
static const char *const safe_syms_all[] = {
	"ksys_sync", "__x64_sys_sync", "__ia32_sys_sync", "__do_sys_sync",
	"__se_sys_sync", "sync_inodes_one_sb", "sync_fs_one_sb",
};
static const char *safe_syms[8];
static int nsafe;
static unsigned long long ksys_sync_addr;
/*
 * Probe-able functions that other tasks run: defined and deleted at once,
 * never enabled (under multi-threaded TCG a CPU may run a stale int3 of a
 * probe just disarmed; qemu-tests/stress.d/20-storm.sh).
 */
static const char *const hot_syms[] = {
	"vfs_read", "do_sys_openat2", "__switch_to", "finish_task_switch",
	"kmark_pid_in", "schedule", "vfs_read+4", "do_sys_openat2+1",
};
/* Refused for one reason or another. */
static const char *const bad_syms[] = {
	"notify_die", "do_int3", "exc_int3", "context_switch",
	"bad_symbol_xyz", "kmark_record_probe", "ring_buffer_lock_reserve",
	"0x1", "0", "+4", "ksys_sync+1", "ksys_sync%retur",
	"ksys_sync%returnx", "ksys_sync%return+0", "nomod:ksys_sync",
	"a:b:c", "bad-mod:f", ":ksys_sync", "ksys_sync:", "kmark_test:no_such_fn",
};

static void find_symbols(void)
{
	FILE *f = fopen("/proc/kallsyms", "re");
	char line[512];
	size_t i;

	if (!f)
		return;
	while (fgets(line, sizeof(line), f) && nsafe < 7) {
		unsigned long long a;
		char t, name[256];

		if (sscanf(line, "%llx %c %255s", &a, &t, name) != 3 ||
		    strchr(line, '['))
			continue;
		for (i = 0; i < sizeof(safe_syms_all) / sizeof(safe_syms_all[0]); i++) {
			int j, dup = 0;

			if (strcmp(name, safe_syms_all[i]) || (t != 't' && t != 'T'))
				continue;
			for (j = 0; j < nsafe; j++)
				dup |= !strcmp(safe_syms[j], name);
			if (!dup)
				safe_syms[nsafe++] = safe_syms_all[i];
			if (!strcmp(name, "ksys_sync"))
				ksys_sync_addr = a;
		}
	}
	fclose(f);
	/* kallsyms' order is the kernel's: sort for the same choices */
	qsort(safe_syms, nsafe, sizeof(char *), cmp_str);
	if (!nsafe)
		safe_syms[nsafe++] = "ksys_sync";
}

/*
 * Readers live a number of steps, not of milliseconds: whether a file is
 * open (instances/remove is EBUSY then) depends only on the seed.
 */
struct reader {
	pid_t pid;
	long until;		/* the step at whose end it is ended */
};
static struct reader readers[MAX_READERS];
static int nreaders;

static void pin(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	sched_setaffinity(0, sizeof(set), &set);
}

/* End reader @i (it may have ended by itself) and wait for it. */
static void end_reader(int i)
{
	pid_t pid = readers[i].pid;
	int st;

	kill(pid, SIGKILL);
	while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
		;
	readers[i] = readers[--nreaders];
	if (WIFSIGNALED(st) && WTERMSIG(st) != SIGKILL)
		finding(C_ALIVE, "reader %d was killed by signal %d", (int)pid,
			WTERMSIG(st));
}

/* The readers whose time is up (@all: every one). */
static void reap_readers(bool all)
{
	int i;

	for (i = nreaders - 1; i >= 0; i--)
		if (all || readers[i].until <= sh->step)
			end_reader(i);
}

/* --- snapshots: what files show, before and after -------------------------- */

/*
 * What a write may change: each file it may change on success is its own;
 * the others are watched (on failure nothing may change; on success, for
 * the grammars whose reach is known, only its own files).
 */
struct snap {
	int n;
	char *name[1024];
	char *val[1024];
	bool own[1024];
	bool isolated;		/* a success must leave the others alone */
};

static void snap_free(struct snap *s)
{
	int i;

	for (i = 0; i < s->n; i++) {
		free(s->name[i]);
		free(s->val[i]);
	}
	s->n = 0;
}

/* Mark the items just added (from @from on) as the write's own. */
static void snap_own(struct snap *s, int from)
{
	while (from < s->n)
		s->own[from++] = true;
}

static void snap_file(struct snap *s, const char *rel)
{
	static struct xb b;
	struct stat st;
	ssize_t r;

	if (s->n >= 1024)
		return;
	if (!stat(path_of(rel), &st) && !(st.st_mode & 0444))
		return;		/* write-only */
	r = read_file(rel, &b, 1 << 20);
	s->name[s->n] = strdup(rel);
	s->own[s->n] = false;
	if (r < 0) {
		s->val[s->n] = malloc(64);
		snprintf(s->val[s->n], 64, "<%s>", strerror(-r));
	} else {
		s->val[s->n] = strdup(b.p);
	}
	s->n++;
}

/* The names under @rel, @depth levels deep, as one value. */
static void list_dir(struct xb *b, const char *rel, int depth)
{
	char *names[4096];
	int n = 0, i;
	struct dirent *de;
	DIR *d = opendir(path_of(rel));

	if (!d)
		return;
	while ((de = readdir(d)) && n < 4096)
		if (de->d_name[0] != '.')
			names[n++] = strdup(de->d_name);
	closedir(d);
	qsort(names, n, sizeof(char *), cmp_str);
	for (i = 0; i < n; i++) {
		char sub[PATH_MAX];
		struct stat st;

		snprintf(sub, sizeof(sub), "%s/%s", rel, names[i]);
		xb_printf(b, "%s\n", sub);
		if (depth > 1 && !stat(path_of(sub), &st) && S_ISDIR(st.st_mode))
			list_dir(b, sub, depth - 1);
		free(names[i]);
	}
}

static void snap_dir(struct snap *s, const char *rel, int depth)
{
	struct xb b = { 0 };

	if (s->n >= 1024)
		return;
	xb_reset(&b);
	list_dir(&b, rel, depth);
	s->name[s->n] = malloc(strlen(rel) + 8);
	sprintf(s->name[s->n], "%s/ (ls)", rel);
	s->own[s->n] = false;
	s->val[s->n++] = b.p;
}

/*
 * A pid list (set_event_pid, set_event_notrace_pid) as it stands for the
 * tasks alive: a listed task is dropped when it is freed (as ftrace's
 * sched_process_free), at any time after it exited, also during another
 * write. Into @out (@size bytes).
 */
static void pids_alive(const char *val, char *out, size_t size)
{
	const char *p = val;
	size_t n = 0;

	out[0] = '\0';
	while (*p) {
		const char *e = strchr(p, '\n');
		size_t len = e ? (size_t)(e - p) : strlen(p);
		char proc[64];

		snprintf(proc, sizeof(proc), "/proc/%.*s", (int)len, p);
		if ((len == 0 || !strspn(p, "0123456789") ||
		     !access(proc, F_OK)) && n + len + 2 < size) {
			memcpy(out + n, p, len);
			n += len;
			out[n++] = '\n';
			out[n] = '\0';
		}
		p += len + (e != NULL);
	}
}

static bool is_pid_list(const char *name)
{
	size_t n = strlen(name);

	return (n >= 13 && !strcmp(name + n - 13, "set_event_pid")) ||
	       (n >= 21 && !strcmp(name + n - 21, "set_event_notrace_pid"));
}

/* The first item that differs, or -1; @others: only items not the write's. */
/*
 * An enable file in soft mode ("0*", "1*") is the target of an
 * enable_event or disable_event trigger, which flips it whenever its own
 * event fires, during any write (seed 523045: sched_process_free's
 * disable_event:kmark:kmark_bench turned kmark_bench's 1* into 0* while
 * a set_event write failed). Only the digit may change so; the soft mode
 * itself may not.
 */
static bool soft_toggle(const char *name, const char *x, const char *y)
{
	size_t n = strlen(name);

	return n >= 7 && !strcmp(name + n - 7, "/enable") &&
	       (x[0] == '0' || x[0] == '1') && x[1] == '*' &&
	       (y[0] == '0' || y[0] == '1') && y[1] == '*' &&
	       !strcmp(x + 2, y + 2);
}

static int snap_diff(const struct snap *a, const struct snap *b, bool others)
{
	static char x[1 << 16], y[1 << 16];
	int i;

	for (i = 0; i < a->n && i < b->n; i++) {
		if (others && a->own[i])
			continue;
		if (strcmp(a->name[i], b->name[i]))
			return i;
		if (!strcmp(a->val[i], b->val[i]) ||
		    soft_toggle(a->name[i], a->val[i], b->val[i]))
			continue;
		if (is_pid_list(a->name[i])) {
			pids_alive(a->val[i], x, sizeof(x));
			pids_alive(b->val[i], y, sizeof(y));
			if (!strcmp(x, y))
				continue;
		}
		return i;
	}
	return a->n == b->n ? -1 : i;
}

static void report_diff(enum fam f, const char *what, const struct snap *a,
			const struct snap *b, int i)
{
	char x[512], y[512];

	if (i >= a->n || i >= b->n) {
		finding(f, "%s: the files changed in number", what);
		return;
	}
	esc(a->val[i], strlen(a->val[i]), x, sizeof(x));
	esc(b->val[i], strlen(b->val[i]), y, sizeof(y));
	finding(f, "%s: %s was '%s', is '%s'", what, a->name[i], x, y);
}

/* --- generators ----------------------------------------------------------- */

static const char *const odd[] = {
	"\0", "\xff", "\x80", "\n", "\r", "\t", "\xa0", "\x7f", "\x01", "\x1b",
	"\xc3\xa9", " ",
};

static void put_odd(struct xb *b)
{
	const char *o = PICK(odd);

	xb_put(b, o, o[0] ? strlen(o) : 1);
}

static const char *const huge_numbers[] = {
	"4294967295", "4294967296", "18446744073709551615",
	"18446744073709551616", "-9223372036854775808", "9223372036854775807",
	"99999999999999999999999999", "0xffffffffffffffff", "0x7fffffff",
	"-1", "-0", "+1", "-2147483648", "2147483648", "2147483647",
	"1e9", "1.5", "0x", "0b1", "08", "00000000000000000000001",
};

static void put_number(struct xb *b, long lo, long hi)
{
	if (mut(M_NUMBER, 20)) {
		xb_puts(b, PICK(huge_numbers));
		return;
	}
	switch (rn(8)) {
	case 0:
		xb_printf(b, "%ld", lo);
		break;
	case 1:
		xb_printf(b, "%ld", hi);
		break;
	case 2:
		xb_printf(b, "0x%lx", lo + (long)rn(hi - lo + 1));
		break;
	default:
		xb_printf(b, "%ld", lo + (long)rn(hi - lo + 1));
	}
}

/* A name of exactly @len characters, from a small alphabet. */
static void put_name(struct xb *b, size_t len, char c)
{
	size_t i;

	for (i = 0; i < len; i++)
		xb_put(b, i == len - 1 && chance(50) ? "b" : &c, 1);
}

/* Lengths around the limits: 31/32 (instances, arguments), 63/64 (names). */
static size_t limit_len(void)
{
	static const size_t l[] = { 1, 7, 15, 16, 31, 32, 33, 54, 55, 56, 62,
				    63, 64, 65, 127, 128, 255, 256 };

	return PICK(l);
}

/* set_event: names, module:name, group/name, globs, !name */
static void gen_set_event(struct xb *b)
{
	static const char *const globs[] = {
		"*", "sched_*", "*:*", "kprobes/*", "kmark_mark:*",
		"kmark_sample:*", "kmark_test:*", "vmlinux:*", "sched_[sw]*",
		"sys_syn?", "*sync", "[", "sched_[", "*:sched_*", "fz*/*",
		"sched:*", "*/*", "[!s]*", "\\*",
	};
	static const char *const bogus[] = {
		"bogus_marker", "nomod:foo", "a:b:c", "kprobes/", "/", ":",
		"kmark_mark:no_such", "sched_switch:", ":sched_switch", "!",
		"!!sys_sync", "sys_sync/", "kmark_sample:kmark_sample_step",
		"kmark_mark:kmark_mod_fire", "kmark_mark:sys_sync",
	};
	static const char *const seps[] = { " ", ",", "\n", "\t", ",,", "  ", " ,\n" };
	int n = 1 + (mut(M_MULTI, 30) ? rn(mut(M_LONG, 10) ? 60 : 6) : 0), i;

	if (chance(8))
		return;		/* empty: everything off */
	for (i = 0; i < n; i++) {
		if (i)
			xb_puts(b, PICK(seps));
		if (chance(20))
			xb_puts(b, "!");
		if (nevents && chance(60)) {
			const char *e = events[rn(nevents)].rel;
			const char *slash = strchr(e, '/');

			if (slash && chance(30))	/* SYSTEM:EVENT */
				xb_printf(b, "%.*s:%s", (int)(slash - e), e, slash + 1);
			else
				xb_puts(b, e);
		} else if (mut(M_GLOB, 50)) {
			xb_puts(b, PICK(globs));
		} else if (mut(M_LIMIT, 30)) {
			put_name(b, limit_len(), 'x');
		} else {
			xb_puts(b, PICK(bogus));
		}
		if (mut(M_BYTE, 3))
			put_odd(b);
	}
	if (chance(70))
		xb_puts(b, "\n");
}

static pid_t last_child;

static void gen_pid(struct xb *b)
{
	static const char *const junk[] = { "abc", "12abc", "0x10", "+5", "-1",
					    "2147483647", "2147483648", "1 2",
					    "99999999999999999999" };
	static const char *const seps[] = { " ", "\n", "\t", ",", "  " };
	int n = 1 + (mut(M_MULTI, 30) ? rn(6) : 0), i;

	if (mut(M_LIMIT, 3))
		n = PICK(((int[]){ 1023, 1024, 1025, 2000 }));
	/*
	 * Often empty (everyone), often with this task: lists without it
	 * keep the marks of the comm check out.
	 */
	if (chance(30))
		return;
	if (chance(50) && n < 100) {
		xb_printf(b, "%d ", (int)getpid());
		n--;
	}
	for (i = 0; i < n; i++) {
		if (i)
			xb_puts(b, n > 100 ? " " : PICK(seps));
		if (n > 100) {
			xb_printf(b, "%d", 100000 + i);
			continue;
		}
		switch (rn(8)) {
		case 0:
		case 1:
			xb_printf(b, "%d", (int)getpid());
			break;
		case 2:
			xb_printf(b, "%d", last_child ? (int)last_child : 1);
			break;
		case 3:
			xb_puts(b, PICK(((const char *[]){ "0", "1", "2" })));
			break;
		case 4:
			if (mut(M_NUMBER, 60)) {
				xb_puts(b, PICK(junk));
				break;
			}
			/* fall through */
		default:
			xb_printf(b, "%u", 2 + rn(32768));
		}
	}
	if (mut(M_BYTE, 3))
		put_odd(b);
	if (chance(70))
		xb_puts(b, "\n");
}

/* kprobe_events ---------------------------------------------------------- */

struct kp {
	char name[160];			/* GRP/EVENT */
};
static struct kp kps[256];
static int nkps;

/* The probes kprobe_events lists ("p:GRP/EVENT SYM ..."). */
static void read_kprobes(void)
{
	static struct xb b;
	char *line, *save = NULL;

	nkps = 0;
	if (read_file("kprobe_events", &b, 1 << 20) <= 0)
		return;
	for (line = strtok_r(b.p, "\n", &save); line && nkps < 256;
	     line = strtok_r(NULL, "\n", &save)) {
		char *c = strchr(line, ':'), *sp;

		if (line[0] == '#' || !c)
			continue;
		sp = strchr(c, ' ');
		if (sp)
			*sp = '\0';
		snprintf(kps[nkps++].name, sizeof(kps[0].name), "%s", c + 1);
	}
}

static void put_group(struct xb *b)
{
	switch (rn(10)) {
	case 0:
	case 1:
	case 2:
	case 3:
		xb_puts(b, "kprobes");
		break;
	case 4:
	case 5:
		xb_puts(b, "fz");
		break;
	case 6:
		xb_puts(b, "fz2");
		break;
	case 7:
		if (mut(M_LIMIT, 80)) {
			put_name(b, PICK(((size_t[]){ 31, 62, 63, 64 })), 'g');
			break;
		}
		/* fall through */
	default:
		xb_puts(b, PICK(((const char *[]){ "bad-grp", "1abc", "g.x", "_g",
						    "G" })));
	}
}

/*
 * An event name: short ones, and at the limits: GROUP/EVENT of 62, 63,
 * 64 ... characters in all, made of 'a's (and a 'b' at the end), so that
 * two names often share their first 63 characters.
 */
static void put_event_name(struct xb *b, size_t glen)
{
	if (mut(M_LIMIT, 50)) {
		long total = PICK(((long[]){ 62, 63, 64, 64, 65, 66, 70, 127 }));
		long len = total - (long)glen - 1;

		if (len < 1)
			len = 1 + rn(8);
		if (len > 63)
			len = chance(70) ? 63 : 64;
		put_name(b, len, 'a');
		return;
	}
	switch (rn(8)) {
	case 0:
		xb_puts(b, PICK(((const char *[]){ "bad-name", "1x", "x.y", "",
						    "x/y" })));
		break;
	case 1:
		xb_puts(b, PICK(((const char *[]){ "sys_sync", "sched_switch" })));
		break;
	default:
		xb_printf(b, "e%u", rn(8));
	}
}

static void put_fetch(struct xb *b, int depth)
{
	static const char *const regs[] = {
		"ax", "bx", "cx", "dx", "si", "di", "bp", "sp", "ip", "r8",
		"r15", "eax", "flags", "bogus", "",
	};

	if (depth > 0) {
		xb_printf(b, "%s(", PICK(((const char *[]){ "+0", "+8", "-8",
							    "+1024", "+0x10", "x",
							    "" })));
		put_fetch(b, depth - 1);
		if (!mut(M_BYTE, 5))
			xb_puts(b, ")");
		return;
	}
	switch (rn(10)) {
	case 0:
		xb_printf(b, "$arg%u", PICK(((unsigned int[]){ 1, 2, 3, 0, 64, 65 })));
		break;
	case 1:
		xb_puts(b, "$retval");
		break;
	case 2:
		xb_puts(b, "$comm");
		break;
	case 3:
		xb_printf(b, "$stack%s", PICK(((const char *[]){ "", "0", "1",
								 "100", "99999",
								 "x" })));
		break;
	case 4:
		xb_printf(b, "%%%s", PICK(regs));
		break;
	case 5:
		xb_puts(b, PICK(((const char *[]){ "@jiffies", "@ksys_sync",
						    "@ksys_sync+8", "@ksys_sync-8",
						    "@0x0", "@nosuchsym", "@" })));
		break;
	case 6:
		if (ksys_sync_addr) {
			xb_printf(b, "@0x%llx", ksys_sync_addr);
			break;
		}
		/* fall through */
	case 7:
		xb_puts(b, PICK(((const char *[]){ "$bogus", "$", "arg1", "+0",
						    "12", "\"str\"" })));
		break;
	default:
		xb_puts(b, "$arg1");
	}
}

static void put_kprobe_args(struct xb *b)
{
	static const char *const types[] = {
		"u8", "u16", "u32", "u64", "s8", "s16", "s32", "s64", "x8",
		"x16", "x32", "x64", "string", "ustring", "symbol", "u128",
		"str", "", "string[4]",
	};
	int n = rn(4), i;

	if (mut(M_LIMIT, 5))
		n = PICK(((int[]){ 13, 14, 15 }));
	for (i = 0; i < n; i++) {
		xb_puts(b, " ");
		if (chance(50)) {
			if (mut(M_LIMIT, 15))
				put_name(b, PICK(((size_t[]){ 31, 32, 33, 64 })), 'n');
			else if (chance(15))
				xb_puts(b, PICK(((const char *[]){
					"common_pid", "__probe_ip", "1bad",
					"bad-name", "a", "" })));
			else
				xb_printf(b, "a%d", i);
			xb_puts(b, "=");
		}
		if (mut(M_LIMIT, 5)) {	/* an expression of 62..64 characters */
			size_t len = PICK(((size_t[]){ 62, 63, 64 }));

			xb_puts(b, "+");
			xb_rep(b, "0", len - 8);
			xb_puts(b, "($arg1)");
			continue;
		}
		put_fetch(b, mut(M_NEST, 20) ? rn(7) : 0);
		if (chance(50))
			xb_printf(b, ":%s", PICK(types));
	}
}

static const char *probe_point(bool any_module)
{
	static char p[128];
	int i;

	if (chance(15))
		return PICK(bad_syms);
	if (any_module && chance(30)) {
		i = rn(NR_MODS);
		snprintf(p, sizeof(p), "%s:%s", mods[i].name,
			 mods[i].probe_sym ?: "no_such_fn");
		return p;
	}
	if (ksys_sync_addr && chance(10)) {
		snprintf(p, sizeof(p), "0x%llx", ksys_sync_addr);
		return p;
	}
	snprintf(p, sizeof(p), "%s%s", safe_syms[rn(nsafe)],
		 chance(10) ? "+0" : "");
	return p;
}

/* One definition: p[:[GRP/]EVENT] POINT ARGS, r[N]... */
static void gen_kprobe_def(struct xb *b, const char *point)
{
	size_t at;

	if (chance(65)) {
		xb_puts(b, "p");
	} else {
		xb_puts(b, "r");
		if (chance(20))
			xb_puts(b, PICK(((const char *[]){ "1", "4096", "4097", "0",
							    "-1", "x", "99999999999" })));
	}
	if (chance(5))
		xb_puts(b, PICK(((const char *[]){ "5", "x", "%" })));
	switch (rn(10)) {
	case 0:
	case 1:
		break;		/* the default name */
	case 2:
	case 3:
	case 4:
	case 5:
		xb_puts(b, ":");
		put_event_name(b, 7);
		break;
	case 6:
		xb_puts(b, ":");
		put_group(b);
		xb_puts(b, "/");
		break;
	case 7:
		xb_puts(b, ":");
		break;
	default:
		xb_puts(b, ":");
		at = b->n;
		put_group(b);
		{
			size_t glen = b->n - at;

			xb_puts(b, "/");
			put_event_name(b, glen);
		}
	}
	xb_printf(b, " %s", point);
	if (b->p[0] == 'r' && chance(10))
		xb_puts(b, "%return");
	put_kprobe_args(b);
}

static void gen_kprobe(struct xb *b)
{
	int n = 1 + (mut(M_MULTI, 30) ? rn(mut(M_LONG, 10) ? 40 : 4) : 0), i;

	if (chance(5))
		return;		/* empty: with '>' deletes every probe */
	for (i = 0; i < n; i++) {
		struct xb one = { 0 };

		xb_reset(&one);
		if (i)
			xb_puts(b, chance(90) ? "\n" : PICK(((const char *[]){
				";", "\n\n", " # c\n", "\r\n" })));
		if (nkps && chance(30)) {
			const char *nm = kps[rn(nkps)].name;

			if (!strncmp(nm, "kprobes/", 8) && chance(50))
				nm += 8;
			xb_printf(b, "-:%s", nm);
		} else if (chance(5)) {
			xb_puts(b, PICK(((const char *[]){ "-", "-:", "-:kprobes/",
							    "-:no_such", "x ksys_sync",
							    "# comment", "p", "p:", "r:x" })));
		} else {
			gen_kprobe_def(&one, probe_point(true));
			xb_put(b, one.p, one.n);
		}
		free(one.p);
		if (mut(M_BYTE, 3))
			put_odd(b);
	}
	if (chance(70))
		xb_puts(b, "\n");
}

/*
 * dynamic_events' synthetic commands: s:[synthetic/]NAME FIELDS, its
 * deletions (-:, !s:), and a kprobe line with it (a write kmark refuses).
 */
static void gen_dyn_synth(struct xb *b)
{
	xb_puts(b, PICK(((const char *[]){
		"s:fz_d u64 a; char b[16]", "s:synthetic/fz_d u32 v",
		"s:fz_e pid_t pid; u64 lat", "-:synthetic/fz_d", "-:fz_e",
		"!s:fz_d u64 a", "s:junk/fz_d u64 a", "s:fz_d", "s:",
		"-:synthetic/", "s:fz_d u64 a\np:fz_k ksys_sync",
		"p:fz_k ksys_sync\n-:fz_e", "s:fz-d u64 a", "s:fz_d chr a" })));
	if (mut(M_BYTE, 5))
		put_odd(b);
	if (chance(70))
		xb_puts(b, "\n");
}

/* filters ------------------------------------------------------------------ */

static const char *const common_fields[] = {
	"common_pid", "common_flags", "common_preempt_count", "common_type",
	"common_comm_id", "comm", "common_comm", "cpu", "common_cpu",
};

static void put_filter_value(struct xb *b, bool str)
{
	if (str) {
		switch (rn(8)) {
		case 0:
			xb_puts(b, "'fz*'");
			break;
		case 1:
			xb_puts(b, "kmark-fuzz");
			break;
		case 2:
			if (mut(M_BYTE, 50)) {
				xb_puts(b, "\"unterminated");
				break;
			}
			/* fall through */
		case 3:
			if (mut(M_LIMIT, 60)) {
				xb_puts(b, "\"");
				put_name(b, PICK(((size_t[]){ 254, 255, 256, 300 })), 's');
				xb_puts(b, "\"");
				break;
			}
			/* fall through */
		default:
			xb_printf(b, "\"%s\"", PICK(((const char *[]){
				"sh", "km*", "[a-z]*", "*", "", "fz?", "kmark-fuzz",
				"\\\"" })));
		}
		return;
	}
	if (chance(10)) {
		xb_puts(b, "\"1\"");
		return;
	}
	put_number(b, -1, 4096);
}

static void put_pred(struct xb *b, const struct event *ev)
{
	static const char *const nops[] = { "==", "!=", "<", "<=", ">", ">=", "&" };
	static const char *const sops[] = { "==", "!=", "~" };
	static const char *const bad_ops[] = { "=", "=~", "<>", "!~", "&&&", "",
					       "===", "=>" };
	bool str = false;

	if (ev && ev->nf && chance(60)) {
		int i = rn(ev->nf);

		xb_puts(b, ev->field[i]);
		str = ev->str[i];
	} else if (chance(90)) {
		const char *f = PICK(common_fields);

		xb_puts(b, f);
		str = strstr(f, "comm") && !strstr(f, "comm_id");
	} else if (mut(M_LIMIT, 50)) {
		put_name(b, limit_len(), 'f');
	} else {
		xb_puts(b, PICK(((const char *[]){ "nosuch", "1x", "", "$x" })));
	}
	if (chance(6)) {	/* FIELD.function: a function's name or address */
		xb_puts(b, ".function");
		xb_puts(b, chance(85) ? PICK(((const char *[]){ " == ", " != ", "==" })) :
					PICK(nops));
		if (mut(M_LIMIT, 20))
			put_name(b, limit_len(), 'k');
		else
			xb_puts(b, PICK(((const char *[]){
				"kfree", "do_exit", "kmem_cache_free", "nosuch_fn",
				"0x0", "0xffffffff", "12", "0x", "\"kfree\"", "kfree)" })));
		return;
	}
	if (chance(50))
		xb_puts(b, " ");
	if (chance(5))
		xb_puts(b, PICK(bad_ops));
	else
		xb_puts(b, str ? PICK(sops) : PICK(nops));
	if (chance(50))
		xb_puts(b, " ");
	put_filter_value(b, chance(5) ? !str : str);
}

static void put_expr(struct xb *b, const struct event *ev, int depth)
{
	int n = 1 + (depth < 3 ? rn(3) : 0), i;

	for (i = 0; i < n; i++) {
		if (i)
			xb_puts(b, PICK(((const char *[]){ " && ", " || ", "&&", "||",
							    " & ", " | " })));
		if (chance(12)) {
			xb_puts(b, "!");
			if (chance(50))
				xb_puts(b, "!");
		}
		if (depth < 4 && chance(15)) {
			xb_puts(b, "(");
			put_expr(b, ev, depth + 1);
			xb_puts(b, chance(97) ? ")" : "");
		} else {
			put_pred(b, ev);
		}
	}
}

static void gen_filter(struct xb *b, const struct event *ev)
{
	size_t n;

	if (chance(10)) {
		xb_puts(b, PICK(((const char *[]){ "0", "", "0\n", " 0 " })));
		return;
	}
	if (mut(M_BANG, 5)) {		/* a long run of '!' */
		n = PICK(((size_t[]){ 1, 2, 31, 32, 63, 64, 65, 100, 120, 128,
				      200, 300, 1000, 4000 }));
		if (chance(30))
			n = 1 + rn(4080);
		xb_rep(b, "!", n);
		put_pred(b, ev);
	} else if (mut(M_NEST, 4)) {	/* deep parentheses */
		n = PICK(((size_t[]){ 31, 32, 33, 64, 500, 2000 }));
		xb_rep(b, "(", n);
		put_pred(b, ev);
		xb_rep(b, ")", n - (chance(10) ? 1 : 0));
	} else if (mut(M_LONG, 4)) {	/* many terms */
		int i, terms = PICK(((int[]){ 31, 32, 33, 64 }));

		for (i = 0; i < terms; i++) {
			if (i)
				xb_puts(b, " && ");
			put_pred(b, ev);
		}
	} else {
		put_expr(b, ev, 0);
	}
	if (chance(60))
		xb_puts(b, "\n");
}

/* A hist variable's expression: operands and + - * /, at and past 3 operators. */
static void put_hexpr(struct xb *b, const struct event *ev)
{
	int n = 1 + rn(chance(80) ? 4 : 8), i;

	if (chance(5))
		xb_puts(b, "-(");
	for (i = 0; i < n; i++) {
		if (i)
			xb_puts(b, chance(95) ? PICK(((const char *[]){ "+", "-", "*", "/" })) :
						PICK(((const char *[]){ "//", "+-", "**", "" })));
		if (ev && ev->nf && chance(40))
			xb_puts(b, ev->field[rn(ev->nf)]);
		else
			xb_puts(b, PICK(((const char *[]){
				"0", "1", "16", "0x10", "18446744073709551615", "$fzv",
				"common_timestamp.usecs", "common_pid", "-(1)", "(2)", "",
				"common_cpu.sym-offset" })));
	}
	if (chance(5))
		xb_puts(b, ")");
}

/*
 * A hist action: onmax(), onchange() or onmatch() with save(), trace() of
 * the fuzzer's synthetic events (fz_s, fz_e, fz_d), the short form, or
 * snapshot() (one an instance), and some mistakes.
 */
static void put_haction(struct xb *b, const struct event *ev)
{
	const char *f = ev->field[rn(ev->nf)];

	xb_puts(b, PICK(((const char *[]){
		":onmax($fzv).", ":onchange($fzv).", ":onmax(fzv).",
		":onchange($nosuch).", ":onmatch(sched.sched_wakeup).",
		":onmax($fzv)", ":onchange($fzv" })));
	switch (rn(6)) {
	case 0:
		xb_printf(b, "save(%s%s)", f, chance(50) ? ",common_pid" : "");
		break;
	case 1:
		xb_puts(b, chance(90) ? "snapshot()" : "snapshot(");
		break;
	case 2:
		xb_printf(b, "trace(%s,$fzv%s)",
			  PICK(((const char *[]){ "fz_s", "fz_e", "fz_d", "nosynth" })),
			  chance(50) ? ",common_pid" : "");
		break;
	case 3:
		xb_printf(b, "fz_e(%s,$fzv)", chance(50) ? "common_pid" : f);
		break;
	case 4:
		xb_printf(b, "trace(fz_e,%s,$fzw)", f);
		break;
	default:
		xb_puts(b, PICK(((const char *[]){ "bogus()", "save()", "trace()", "" })));
		break;
	}
}

static void gen_trigger(struct xb *b, const struct event *ev)
{
	static const char *const cmds[] = {
		"traceon", "traceoff", "snapshot", "stacktrace", "hist:keys=common_pid",
		"hist:keys=common_pid:vals=hitcount:sort=hitcount:size=2048",
		"enable_event:sched:sched_switch", "disable_event:kmark:sys_sync:2",
		"bogus", "traceon:", "traceon:-1",
	};

	if (chance(15))
		xb_puts(b, "!");
	if (ev && ev->nf && chance(15)) {	/* a histogram over its own fields */
		xb_printf(b, "hist:keys=%s%s:vals=hitcount%s%s",
			  ev->field[rn(ev->nf)], PICK(((const char *[]){
				"", ".hex", ".sym", ".execname", ".log2", ".bogus" })),
			  chance(50) ? ":sort=hitcount.descending" : "",
			  chance(20) ? ":size=4096" : "");
		if (chance(40)) {	/* variables: ftrace's expressions */
			xb_puts(b, ":fzv=");
			put_hexpr(b, ev);
			if (chance(30)) {
				xb_puts(b, ",fzw=");
				put_hexpr(b, ev);
			}
			if (chance(40))	/* an action on it */
				put_haction(b, ev);
		}
	} else if (nevents && chance(25)) {	/* enable_event:SYSTEM:EVENT */
		const char *e = events[rn(nevents)].rel, *slash = strchr(e, '/');

		xb_printf(b, "%s_event:%.*s:%s", chance(50) ? "enable" : "disable",
			  slash ? (int)(slash - e) : 0, e, slash ? slash + 1 : e);
	} else {
		xb_puts(b, PICK(cmds));
	}
	if (chance(30))
		xb_printf(b, ":%u", rn(10));
	if (chance(30)) {
		xb_puts(b, " if ");
		put_expr(b, ev, 2);
	}
	if (chance(60))
		xb_puts(b, "\n");
}

static void gen_num(struct xb *b, const char *rel)
{
	const char *base = strrchr(rel, '/');

	base = base ? base + 1 : rel;
	if (!strcmp(base, "buffer_size_kb")) {
		/*
		 * Not between 4096 and the limit: a large buffer that fits
		 * in memory only slows the run, one that does not is refused.
		 */
		if (mut(M_LIMIT, 15))
			xb_puts(b, PICK(((const char *[]){ "1048576", "1048577", "0" })));
		else
			put_number(b, 1, chance(50) ? 64 : 4096);
	} else if (!strcmp(base, "buffer_percent")) {
		put_number(b, 0, 101);
	} else if (!strcmp(base, "read_delay_ms")) {
		put_number(b, 0, chance(90) ? 200 : 100000);
	} else {
		put_number(b, 0, 4096);
	}
	if (mut(M_BYTE, 5))
		put_odd(b);
	if (chance(70))
		xb_puts(b, "\n");
}

static void gen_bool(struct xb *b)
{
	if (chance(80))
		xb_puts(b, chance(50) ? "1" : "0");
	else if (mut(M_NUMBER, 50))
		xb_puts(b, PICK(huge_numbers));
	else
		xb_puts(b, PICK(((const char *[]){ "2", "on", "off", "true", "",
						    " 1 ", "1\n2", "01" })));
	if (chance(70))
		xb_puts(b, "\n");
}

static void gen_marker(struct xb *b)
{
	size_t n;

	if (mut(M_LIMIT, 15)) {
		n = PICK(((size_t[]){ 3966, 3967, 3968, 3969, 4095, 4096, 4097,
				      8192 }));
		xb_puts(b, "fz-long ");
		while (b->n < n)
			xb_puts(b, "0123456789");
		b->n = n;
		b->p[n] = '\0';
		return;
	}
	switch (rn(5)) {
	case 0:
		xb_printf(b, "B|%d|fz work\n", (int)getpid());
		break;
	case 1:
		xb_printf(b, "E|%d\n", (int)getpid());
		break;
	case 2:
		break;		/* empty */
	default:
		xb_printf(b, "fz mark %u", rn(1000));
		if (mut(M_BYTE, 20))
			put_odd(b);
		xb_puts(b, " end\n");
	}
}

static void gen_instance_name(struct xb *b)
{
	if (mut(M_LIMIT, 15)) {
		put_name(b, PICK(((size_t[]){ 30, 31, 32, 33, 64, 255, 256 })), 'i');
		return;
	}
	if (chance(12)) {
		xb_puts(b, PICK(((const char *[]){ "", "new", "remove", ".", "..",
						    "a/b", "a b", "x\xff", "-",
						    "fz.1", "_" })));
		return;
	}
	xb_printf(b, "fz%u", rn(9));
}

static void gen_generic(struct xb *b, const char *rel)
{
	const char *base = strrchr(rel, '/');

	base = base ? base + 1 : rel;
	switch (rn(6)) {
	case 0:
		put_number(b, 0, 100);
		break;
	case 1:
		xb_puts(b, "");
		break;
	case 2:
		put_name(b, limit_len(), 'z');
		break;
	default:
		if (!strcmp(base, "trace_clock"))
			xb_puts(b, PICK(((const char *[]){ "local", "global",
							    "counter", "uptime",
							    "perf", "mono", "mono_raw",
							    "boot", "x86-tsc",
							    "[local]", "bogus" })));
		else if (!strcmp(base, "tracing_cpumask"))
			xb_puts(b, PICK(((const char *[]){ "1", "2", "3", "0", "f",
							    "ffffffff", "1,0", "g" })));
		else if (!strcmp(base, "bench"))	/* MODE N, N small */
			xb_printf(b, "%s %s", PICK(((const char *[]){
				"plain", "marker", "ringbuf", "tracepoint", "bogus" })),
				PICK(((const char *[]){ "0", "1", "10", "100", "1000",
							"100000001", "-1", "x" })));
		else if (!strcmp(base, "synthetic_events"))
			xb_puts(b, PICK(((const char *[]){
				"fz_s u64 a; char b[16]", "!fz_s", "fz_s",
				"bad name u64", "a u64 b; u64 b" })));
		else
			xb_puts(b, PICK(((const char *[]){ "0", "1", "2", "x" })));
	}
	if (mut(M_BYTE, 5))
		put_odd(b);
	if (chance(60))
		xb_puts(b, "\n");
}

/* Mutations any text may get, on top of its grammar's. */
static void mutate(struct xb *b)
{
	if (mut(M_BYTE, 4) && b->n) {	/* an odd byte somewhere */
		struct xb o = { 0 };
		size_t at = rn(b->n + 1);

		xb_reset(&o);
		put_odd(&o);
		xb_grow(b, o.n);
		memmove(b->p + at + o.n, b->p + at, b->n - at + 1);
		memcpy(b->p + at, o.p, o.n);
		b->n += o.n;
		free(o.p);
	}
	if (mut(M_LONG, 2) && b->n) {	/* a slice repeated */
		size_t at = rn(b->n), len = 1 + rn(b->n - at < 8 ? b->n - at : 8);
		size_t times = 2 + rn(600);
		char *slice = strndup(b->p + at, len);

		while (times-- && b->n < 5000)
			xb_put(b, slice, len);
		free(slice);
	}
	if (mut(M_LIMIT, 3)) {		/* exactly 4095, 4096 or 4097 bytes */
		size_t n = PICK(((size_t[]){ 4095, 4096, 4097 }));

		while (b->n < n)
			xb_puts(b, " ");
		b->n = n;
		b->p[n] = '\0';
	}
	if (mut(M_LONG, 2))		/* leading blanks */
		while (b->n < 2000)
			xb_puts(b, chance(50) ? " " : "\n");
}

/* --- checks ----------------------------------------------------------------- */

static int my_pid;

/*
 * Does kmemleak's report hold an object with kmark in its backtrace? Its
 * first such object into @out. (Other objects are other tests' or the
 * boot's; qemu-tests/stress.d/20-storm.sh judges them alike.)
 */
static bool kmemleak_kmark(char *out, size_t size)
{
	static struct xb b;
	char *obj, *next;

	if (read_file("/sys/kernel/debug/kmemleak", &b, 4 << 20) <= 0)
		return false;
	for (obj = strstr(b.p, "unreferenced object"); obj; obj = next) {
		next = strstr(obj + 1, "unreferenced object");
		if (next)
			next[-1] = '\0';
		if (strstr(obj, "kmark")) {
			esc(obj, strlen(obj), out, size);
			return true;
		}
	}
	return false;
}

static void check_kmsg(void)
{
	char out[8192];
	bool leak;

	if (off[C_KMSG])
		return;
	if (kmsg_fd < 0) {
		check_skip(C_KMSG, "no /dev/kmsg");
		return;
	}
	if (kmsg_scan(out, sizeof(out), &leak))
		finding(C_KMSG, "the kernel log:%s", out);
	if (leak && kmemleak_kmark(out, sizeof(out)))
		finding(C_KMSG, "kmemleak suspects objects allocated by kmark:%s", out);
	check_ok(C_KMSG);
}

static void check_alive(void)
{
	static struct xb b;
	struct stat st;
	ssize_t r;

	if (off[C_ALIVE])
		return;
	if (stat(root, &st))
		finding(C_ALIVE, "%s is gone: %s", root, strerror(errno));
	r = read_file("tracing_on", &b, 64);
	if (r < 0)
		finding(C_ALIVE, "tracing_on cannot be read: %s", strerror(-r));
	check_ok(C_ALIVE);
}

/*
 * Does set_event's text list the event at @erel ("a" or "sys/ev")? As
 * "a", "MODULE:a", "sys/ev" or "sys:ev" (whole lines: an event's name may
 * hold a ':' of its own).
 */
static bool listed(const char *list, const char *erel)
{
	char *copy = strdup(list), *line, *save = NULL, alt[PATH_MAX];
	const char *slash = strchr(erel, '/');
	size_t n = strlen(erel);
	bool yes = false;

	snprintf(alt, sizeof(alt), "%.*s:%s", slash ? (int)(slash - erel) : 0,
		 erel, slash ? slash + 1 : "");
	for (line = strtok_r(copy, "\n", &save); line && !yes;
	     line = strtok_r(NULL, "\n", &save)) {
		size_t l = strlen(line);

		yes = !strcmp(line, erel) || (slash && !strcmp(line, alt)) ||
		      (!slash && l > n + 1 && line[l - n - 1] == ':' &&
		       !strcmp(line + l - n, erel));
	}
	free(copy);
	return yes;
}

/* A kprobe event, of any group: its record holds the probed address. */
static bool is_kprobe(const struct event *ev)
{
	int i;

	for (i = 0; i < ev->nf; i++)
		if (!strcmp(ev->field[i], "__probe_ip") ||
		    !strcmp(ev->field[i], "__probe_func"))
			return true;
	return false;
}

/* A line of set_event's text names @erel itself: "NAME" or "SYSTEM:NAME". */
static bool listed_exactly(const char *list, const char *erel)
{
	char *copy = strdup(list), *line, *save = NULL, alt[PATH_MAX];
	const char *slash = strchr(erel, '/');
	bool yes = false;

	snprintf(alt, sizeof(alt), "%.*s:%s", slash ? (int)(slash - erel) : 0,
		 erel, slash ? slash + 1 : "");
	for (line = strtok_r(copy, "\n", &save); line && !yes;
	     line = strtok_r(NULL, "\n", &save))
		yes = !strcmp(line, erel) || (slash && !strcmp(line, alt));
	free(copy);
	return yes;
}

/* Each events/.../enable of instance @i agrees with its set_event. */
static void check_enable(int i)
{
	static struct xb list, val;
	int k, seen = 0;
	char rel[PATH_MAX];

	if (off[C_SETEVENT])
		return;
	snprintf(rel, sizeof(rel), "%sset_event", insts[i].prefix);
	if (read_file(rel, &list, 1 << 20) < 0)
		return;
	for (k = 0; k < nfiles; k++) {
		const struct cfile *f = &files[k];

		if (f->g != G_ENABLE || !f->leaf || f->inst != i)
			continue;
		if (read_file(f->rel, &val, 64) <= 0 ||
		    (val.p[0] != '0' && val.p[0] != '1') ||
		    (val.n > 1 && val.p[1] == '*'))
			continue;	/* soft mode or a system's mix */
		seen++;
		if ((val.p[0] == '1') != listed(list.p, events[f->ev].rel)) {
			char l[512];

			esc(list.p, list.n, l, sizeof(l));
			finding(C_SETEVENT, "%s reads %c but %sset_event %s it: '%s'",
				f->rel, val.p[0], insts[i].prefix,
				val.p[0] == '1' ? "does not list" : "lists", l);
		}
	}
	if (seen)
		check_ok(C_SETEVENT);
	else
		check_skip(C_SETEVENT, "no events/*/enable file in the instance");
}

/* Every event's id and format read, and no two ids are the same. */
static void check_events(void)
{
	static struct xb b;
	int i, j, *ids;

	if (off[C_EVENTS])
		return;
	ids = calloc(nevents + 1, sizeof(int));
	for (i = 0; i < nevents; i++) {
		char rel[PATH_MAX];
		const char *c;
		ssize_t r;

		/*
		 * SYSTEM/EVENT: names ftrace would take (is_good_name(), and
		 * sanitize_event_name() for default names): no ':', which
		 * set_event's SYSTEM:EVENT splits at, nor '.', '-', blanks.
		 */
		for (c = events[i].rel; *c; c++)
			if (strchr(":.- \t\n", *c) || (unsigned char)*c < 0x20) {
				finding(C_EVENTS, "events/%s/: an event named with '%c'",
					events[i].rel, *c);
				break;
			}

		snprintf(rel, sizeof(rel), "events/%s/format", events[i].rel);
		r = read_file(rel, &b, 1 << 16);
		if (r < 0 && r != -ENOENT)
			finding(C_EVENTS, "%s cannot be read: %s", rel, strerror(-r));
		snprintf(rel, sizeof(rel), "events/%s/id", events[i].rel);
		r = read_file(rel, &b, 64);
		ids[i] = -1;
		if (r == -ENOENT)
			continue;	/* no id file */
		if (r < 0)
			finding(C_EVENTS, "%s cannot be read: %s", rel, strerror(-r));
		ids[i] = atoi(b.p);
		for (j = 0; j < i; j++)
			if (ids[j] == ids[i] && ids[i] >= 0)
				finding(C_EVENTS, "events/%s/id and events/%s/id both say %d",
					events[j].rel, events[i].rel, ids[i]);
	}
	free(ids);
	check_ok(C_EVENTS);
}

/*
 * Is every event that set_event's text @list names in instance @i in soft
 * mode (its enable file says "0*" or "1*": a trigger holds it)? ftrace
 * lists those in set_event after "> set_event" too.
 */
static bool all_soft(int i, const char *list)
{
	static struct xb v;
	char *copy = strdup(list), *line, *save = NULL, rel[PATH_MAX];
	bool soft = true;

	for (line = strtok_r(copy, "\n", &save); line && soft;
	     line = strtok_r(NULL, "\n", &save)) {
		char *c = strchr(line, ':');

		if (c)
			*c = '/';
		snprintf(rel, sizeof(rel), "%sevents/%s/enable", insts[i].prefix, line);
		soft = read_file(rel, &v, 64) > 0 && strchr(v.p, '*');
	}
	free(copy);
	return soft;
}

/* Does any trigger file of instance @i hold a trigger? */
static bool has_triggers(int i)
{
	static struct xb v;
	int k;

	for (k = 0; k < nfiles; k++) {
		char *line, *save = NULL;

		if (files[k].g != G_TRIGGER || files[k].inst != i ||
		    read_file(files[k].rel, &v, 1 << 16) <= 0)
			continue;
		for (line = strtok_r(v.p, "\n", &save); line;
		     line = strtok_r(NULL, "\n", &save))
			if (line[0] != '#')
				return true;
	}
	return false;
}

/*
 * Is this task's event recorded, given the pid lists of the instance at
 * @prefix ("" the top)? Each instance has lists of its own.
 */
static int pid_allows_in(const char *prefix, pid_t pid)
{
	static struct xb b;
	char me[32], rel[PATH_MAX];
	bool in;

	snprintf(me, sizeof(me), "%d", (int)pid);
	/* set_event_pid: when it lists pids, only theirs */
	snprintf(rel, sizeof(rel), "%sset_event_pid", prefix);
	if (read_file(rel, &b, 1 << 20) > 0) {
		in = false;
		for (char *l = strtok(b.p, "\n"); l; l = strtok(NULL, "\n"))
			in |= !strcmp(l, me);
		if (!in)
			return 0;
	}
	snprintf(rel, sizeof(rel), "%sset_event_notrace_pid", prefix);
	if (read_file(rel, &b, 1 << 20) > 0) {
		for (char *l = strtok(b.p, "\n"); l; l = strtok(NULL, "\n"))
			if (!strcmp(l, me))
				return 0;
	}
	return 1;
}

/* pid_allows_in() of the top instance's lists. */
static int pid_allows(pid_t pid)
{
	return pid_allows_in("", pid);
}

/* A line of trace text: its task (comm) and pid; false if not one. */
static bool line_task(const char *line, char *comm, size_t size, int *pid)
{
	const char *br = strstr(line, " [");
	const char *s = line, *dash;

	if (!br)
		return false;
	while (*s == ' ')
		s++;
	for (dash = br; dash > s && *dash != '-'; dash--)
		;
	if (dash <= s || (size_t)(dash - s) >= size)
		return false;
	memcpy(comm, s, dash - s);
	comm[dash - s] = '\0';
	*pid = atoi(dash + 1);
	return true;
}

static int chk_marker_fd = -1;	/* the checker instance's trace_marker */
static bool checker_ok;
static unsigned long mark_seq;

/* Drain the checker's trace_pipe; the marks must show their task's name. */
static void check_marks(unsigned long first, unsigned long last, pid_t pid)
{
	static struct xb b;
	char rel[128], comm[64];
	unsigned long got = 0;
	bool lost = false;
	int fd, p;
	char *line, *save = NULL;

	snprintf(rel, sizeof(rel), "instances/%s/trace_pipe", CHECKER);
	fd = open(path_of(rel), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0) {
		check_skip(C_COMM, "no checker instance trace_pipe");
		return;
	}
	xb_reset(&b);
	for (;;) {
		ssize_t r;

		xb_grow(&b, 65536);
		r = read(fd, b.p + b.n, 65536);
		if (r <= 0)
			break;
		b.n += r;
		b.p[b.n] = '\0';
		if (b.n > (8 << 20))
			break;
	}
	close(fd);
	for (line = strtok_r(b.p, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		const char *m = strstr(line, ": tracing_mark_write: fzc ");
		unsigned long seq;
		char want[64];

		if (strstr(line, "LOST"))
			lost = true;
		if (!m || sscanf(m + 26, "%lu %63s", &seq, want) != 2)
			continue;
		if (seq < first || seq > last)
			continue;
		got++;
		if (!line_task(line, comm, sizeof(comm), &p))
			continue;
		/*
		 * The last mark, read right after it was written, shows its
		 * name (a new name never becomes "<...>"); an earlier one of
		 * the burst may have lost its name to a newer since (the
		 * table's slots are reused under pressure), never to
		 * another task's name.
		 */
		if (p != pid || (strcmp(comm, want) &&
				 (seq == last || strcmp(comm, "<...>")))) {
			char l[400];

			esc(line, strlen(line), l, sizeof(l));
			finding(C_COMM, "the %s mark written by %s-%d after its rename "
				"shows %s-%d: '%s'%s", seq == last ? "last" : "an earlier",
				want, (int)pid, comm, p, l, !strcmp(comm, "<...>") ?
				" (the table of task names is full?)" : "");
		}
	}
	if (!got && last >= first) {
		int allows = pid_allows(pid);

		if (allows == 1 && !lost)
			finding(C_COMM, "%lu marks written to %s's trace_marker by pid %d "
				"are not in its trace_pipe", last - first + 1,
				CHECKER, (int)pid);
		check_skip(C_COMM, "marks filtered out by the pid lists");
		return;
	}
	check_ok(C_COMM);
}

/* Write one mark "fzc SEQ NAME" into the checker instance. */
static void mark(const char *name)
{
	char t[96];
	int n = snprintf(t, sizeof(t), "fzc %lu %s\n", ++mark_seq, name);

	if (chk_marker_fd >= 0 && write(chk_marker_fd, t, n) < 0) {
		/* EBADF when tracing is off: the check sees no line */
	}
}

/* A name for a rename: a new one each time, 15 characters at most. */
static unsigned long name_counter;

static void new_name(char *out, size_t size)
{
	snprintf(out, size, "fzn%lx.%c", name_counter++, 'a' + rn(26));
}

/* What set_event lists is what gets recorded: sys_sync, into instance i. */
/*
 * The events a CPU's stats count as lost: overwritten (overrun), lost to
 * a writer that caught up with the commit (commit overrun: a tiny buffer
 * under a flood) and dropped.
 */
static unsigned long long lost_of(const char *stats)
{
	static const char *const what[] = {
		"\noverrun: ", "\ncommit overrun: ", "\ndropped events: ",
	};
	unsigned long long n = 0;
	unsigned int k;

	for (k = 0; k < 3; k++) {
		const char *p = strstr(stats, what[k]);

		if (!p && !strncmp(stats, what[k] + 1, strlen(what[k]) - 1))
			p = stats - 1;	/* the first line */
		if (p)
			n += strtoull(p + strlen(what[k]), NULL, 10);
	}
	return n;
}

static void check_recorded(void)
{
	static struct xb b, list;
	char rel[PATH_MAX];
	int i = rn(ninsts), fd, allows, want, got = 0, ev, k;
	const char *erel;
	bool exact;
	unsigned long long before = 0, after = 0;
	char *line, *save = NULL;

	if (off[C_RECORDED])
		return;
	/* events/sys_sync/, or events/SYSTEM/sys_sync/ in ftrace's layout */
	for (ev = 0; ev < nevents; ev++) {
		const char *slash = strrchr(events[ev].rel, '/');

		if (!strcmp(slash ? slash + 1 : events[ev].rel, "sys_sync") &&
		    !is_kprobe(&events[ev]))
			break;
	}
	if (ev == nevents) {
		check_skip(C_RECORDED, "no sys_sync event");
		return;
	}
	erel = events[ev].rel;
	/*
	 * traceon/traceoff/enable_event triggers change it as events come:
	 * the first instance from the one drawn that has none.
	 */
	for (k = 0; k < ninsts && has_triggers((i + k) % ninsts); k++)
		;
	if (k == ninsts) {
		check_skip(C_RECORDED, "triggers are set in every instance");
		return;
	}
	i = (i + k) % ninsts;
	reap_readers(true);	/* they would take the lines */
	act("check recorded: sys_sync into %s", insts[i].name[0] ? insts[i].name : "the top");
	snprintf(rel, sizeof(rel), "%stracing_on", insts[i].prefix);
	if (read_file(rel, &b, 64) <= 0)
		return;
	want = atoi(b.p) != 0;
	snprintf(rel, sizeof(rel), "%sset_event", insts[i].prefix);
	if (read_file(rel, &list, 1 << 20) < 0)
		return;
	/*
	 * The event on a line of its own (NAME, or SYSTEM:NAME), or nothing
	 * of that name: a module's token (kmark_mark:sys_sync) or a kprobe
	 * called sys_sync leave it open what is recorded.
	 */
	exact = listed_exactly(list.p, erel);
	if (!exact && strstr(list.p, "sys_sync")) {
		check_skip(C_RECORDED, "sys_sync named only with a module or group");
		return;
	}
	if (!exact)
		want = 0;
	snprintf(rel, sizeof(rel), "%sevents/%s/enable", insts[i].prefix, erel);
	if (read_file(rel, &b, 64) > 0 && strchr(b.p, '*')) {
		check_skip(C_RECORDED, "sys_sync is in soft mode (a trigger)");
		return;
	}
	/* (the lists of that instance: seed 605938 read the top's) */
	allows = pid_allows_in(insts[i].prefix, my_pid);
	if (!allows)
		want = 0;
	snprintf(rel, sizeof(rel), "%sevents/%s/filter", insts[i].prefix, erel);
	if (want && read_file(rel, &b, 256) > 0 && strncmp(b.p, "none", 4)) {
		check_skip(C_RECORDED, "sys_sync has a filter");
		return;
	}
	for (int c = 0; c < ncpus; c++) {
		snprintf(rel, sizeof(rel), "%sper_cpu/cpu%d/stats", insts[i].prefix, c);
		if (read_file(rel, &b, 4096) > 0)
			before += lost_of(b.p);
	}
	/* "> trace" clears it at open: then only this sync() can be there */
	snprintf(rel, sizeof(rel), "%strace", insts[i].prefix);
	fd = open(path_of(rel), O_WRONLY | O_TRUNC | O_CLOEXEC);
	if (fd < 0) {
		act_res("> %s: %s", rel, strerror(errno));
		return;
	}
	close(fd);
	sync();
	if (read_file(rel, &b, 64 << 20) < 0)
		return;
	for (line = strtok_r(b.p, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		char comm[64];
		int p;

		if (strstr(line, ": sys_sync:") &&
		    line_task(line, comm, sizeof(comm), &p) && p == my_pid)
			got++;
	}
	for (int c = 0; c < ncpus; c++) {
		snprintf(rel, sizeof(rel), "%sper_cpu/cpu%d/stats", insts[i].prefix, c);
		if (read_file(rel, &b, 4096) > 0)
			after += lost_of(b.p);
	}
	act_res("%s, %d line(s)", want ? "wanted" : "not wanted", got);
	if (want && !got && after == before) {
		char l[300];

		esc(list.p, list.n, l, sizeof(l));
		finding(C_RECORDED, "%sset_event lists sys_sync ('%s'), tracing_on "
			"is 1, the pid lists allow pid %d, but its sync() is not in "
			"%strace (and the CPUs' stats count %llu events lost, "
			"as before it)", insts[i].prefix, l, my_pid,
			insts[i].prefix, after);
	}
	if (!want && got && allows) {
		char l[300];

		esc(list.p, list.n, l, sizeof(l));
		finding(C_RECORDED, "%strace has pid %d's sys_sync but %sset_event "
			"does not list it (or tracing_on is 0): '%s'",
			insts[i].prefix, my_pid, insts[i].prefix, l);
	}
	check_ok(C_RECORDED);
}

/* --- the affected files of a write, and what a success must show ---------- */

static bool same_base(const char *a, const char *b)
{
	const char *x = strrchr(a, '/'), *y = strrchr(b, '/');

	return !strcmp(x ? x + 1 : a, y ? y + 1 : b);
}

/* Every instance's set_event (the caller marks its own). */
static void snap_set_events(struct snap *s, int own_inst)
{
	char rel[PATH_MAX];
	int i, at;

	for (i = 0; i < ninsts; i++) {
		snprintf(rel, sizeof(rel), "%sset_event", insts[i].prefix);
		at = s->n;
		snap_file(s, rel);
		if (i == own_inst)
			snap_own(s, at);
	}
}

static void snap_affected(struct snap *s, const struct cfile *f)
{
	char dir[PATH_MAX];
	int k, at;

	s->isolated = false;
	switch (f->g) {
	case G_SET_EVENT:
	case G_ENABLE:
		/* one instance's events: the others' set_event stay */
		snap_set_events(s, f->inst);
		for (k = 0; k < nfiles; k++) {
			at = s->n;
			if (files[k].g == G_ENABLE && files[k].inst == f->inst)
				snap_file(s, files[k].rel);
			snap_own(s, at);
		}
		s->isolated = true;
		break;
	case G_PID:
		/* set_event_pid and set_event_notrace_pid are two lists */
		for (k = 0; k < nfiles; k++) {
			if (files[k].g != G_PID)
				continue;
			at = s->n;
			snap_file(s, files[k].rel);
			if (&files[k] == f)
				snap_own(s, at);
		}
		s->isolated = true;
		break;
	case G_KPROBE:
		/* deletes only disabled probes: no set_event changes */
		at = s->n;
		snap_file(s, f->rel);
		snap_dir(s, "events", 2);
		snap_own(s, at);
		snap_set_events(s, -1);
		s->isolated = true;
		break;
	case G_FILTER:
		/* this instance's filters, and this event's in every instance */
		snprintf(dir, sizeof(dir), "%s", f->rel);
		*strrchr(dir, '/') = '\0';
		for (k = 0; k < nfiles; k++) {
			const struct cfile *o = &files[k];

			if (o->g != G_FILTER ||
			    (o->inst != f->inst && (f->ev < 0 || o->ev != f->ev)))
				continue;
			at = s->n;
			snap_file(s, o->rel);
			/* a system's filter reaches its events */
			if (!strncmp(o->rel, dir, strlen(dir)) &&
			    o->rel[strlen(dir)] == '/')
				snap_own(s, at);
		}
		s->isolated = true;
		break;
	case G_INST_NEW:
	case G_INST_RM:
		at = s->n;
		snap_dir(s, "instances", 1);
		snap_own(s, at);
		break;
	case G_TRACE:
	case G_MARKER:
	case G_ERRLOG:
	case G_SNAPSHOT:
		break;		/* what they change is the buffer */
	case G_BOOL:
	case G_NUM:
	case G_CLOCK:
	case G_CPUMASK:
		/* one instance's setting: the same file of the others stays */
		for (k = 0; k < nfiles; k++) {
			const struct cfile *o = &files[k];

			if (o != f && (o->g != f->g || !same_base(o->rel, f->rel) ||
				       o->inst == f->inst))
				continue;
			at = s->n;
			snap_file(s, o->rel);
			if (o == f)
				snap_own(s, at);
		}
		s->isolated = true;
		break;
	default:
		at = s->n;
		snap_file(s, f->rel);
		snap_own(s, at);
	}
}

/* The kernel's isspace(): also 0xa0 (lib/ctype.c). */
static bool k_isspace(unsigned char c)
{
	return c == ' ' || (c >= '\t' && c <= '\r') || c == 0xa0;
}

/* What a filter file reads after @text was written: strim(), or "none". */
static void filter_expect(const char *text, char *out, size_t size)
{
	size_t n = strlen(text);	/* up to a NUL, as the kernel reads it */

	while (n && k_isspace(text[n - 1]))
		n--;
	while (n && k_isspace(*text)) {
		text++;
		n--;
	}
	if (!n || (n == 1 && text[0] == '0'))
		snprintf(out, size, "none");
	else
		snprintf(out, size, "%.*s", (int)n, text);
}

static void effect_filter(const struct cfile *f, const struct xb *text,
			  const struct snap *a, const struct snap *b)
{
	char want[PAGE + 8], x[300], y[300];
	static struct xb got;

	(void)a;
	(void)b;
	if (!f->leaf)
		return;
	filter_expect(text->p, want, sizeof(want));
	if (read_file(f->rel, &got, PAGE + 8) < 0)
		return;
	if (got.n && got.p[got.n - 1] == '\n')
		got.p[--got.n] = '\0';
	if (strcmp(got.p, want)) {
		esc(want, strlen(want), x, sizeof(x));
		esc(got.p, got.n, y, sizeof(y));
		finding(C_EFFECT, "%s took '%s' but reads '%s'", f->rel, x, y);
	}
	check_ok(C_EFFECT);
}

/*
 * "> set_event" with nothing (everything off) lists nothing; with one
 * event's name only that event, and with "!NAME" nothing: but for the
 * events a trigger holds in soft mode, which ftrace lists too.
 */
static void effect_set_event(const struct cfile *f, const struct xb *text)
{
	static struct xb got;
	char rel[PATH_MAX], tok[PATH_MAX], l[400], *line, *save = NULL;
	const char *p = text->p, *name;
	size_t n = strlen(p);
	bool neg;
	int e;

	while (n && k_isspace(p[n - 1]))
		n--;
	while (n && k_isspace(*p)) {
		p++;
		n--;
	}
	if (n >= sizeof(tok) || memchr(p, ' ', n) || memchr(p, ',', n) ||
	    memchr(p, '\n', n) || memchr(p, '\t', n))
		return;		/* several tokens */
	snprintf(tok, sizeof(tok), "%.*s", (int)n, p);
	neg = tok[0] == '!';
	name = tok + neg;
	e = event_index(name);
	if (*name && e < 0)
		return;		/* a glob, or MODULE:NAME */
	snprintf(rel, sizeof(rel), "%sset_event", insts[f->inst].prefix);
	if (read_file(rel, &got, 1 << 20) < 0)
		return;
	esc(got.p, got.n, l, sizeof(l));
	if (*name && !neg && !listed(got.p, name))
		finding(C_SETEVENT, "'> %s' with '%s' succeeded, yet it lists '%s'",
			rel, tok, l);
	/* anything else still listed is held in soft mode by a trigger */
	for (line = strtok_r(got.p, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		if (*name && !neg && listed(line, name))
			continue;
		if (!all_soft(f->inst, line))
			finding(C_SETEVENT, "'> %s' with '%s' left '%s' in it (not in "
				"soft mode): '%s'", rel, tok, line, l);
	}
	check_ok(C_SETEVENT);
}

/* Parse a pid list as the kernel does; false if any token is not a pid. */
static bool parse_pids(const char *p, size_t n, long *out, int *count)
{
	size_t i = 0;

	*count = 0;
	while (i < n) {
		char tok[32];
		size_t s;
		long v;
		char *end;

		while (i < n && k_isspace(p[i]))
			i++;
		if (i >= n || !p[i])
			break;
		s = i;
		while (i < n && p[i] && !k_isspace(p[i]))
			i++;
		if (i - s >= sizeof(tok) || *count >= 2048)
			return false;
		memcpy(tok, p + s, i - s);
		tok[i - s] = '\0';
		errno = 0;
		v = strtol(tok, &end, 10);
		if (errno || *end || v < 0 || v > INT_MAX || tok[0] == '+' ||
		    (tok[0] == '-'))
			return false;
		out[(*count)++] = v;
	}
	return i >= n || !p[i];
}

static int cmp_long(const void *a, const void *b)
{
	long x = *(const long *)a, y = *(const long *)b;

	return (x > y) - (x < y);
}

static void effect_pid(const struct cfile *f, const struct xb *text, bool trunc,
		       const struct snap *a)
{
	static long want[4096];
	static struct xb got, exp;
	int n = 0, i, j;

	if (!parse_pids(text->p, strlen(text->p), want, &n) || strlen(text->p) != text->n)
		return;
	if (!trunc) {
		for (i = 0; i < a->n; i++) {
			if (strcmp(a->name[i], f->rel))
				continue;
			for (char *l = a->val[i]; *l && n < 4096; l = strchr(l, '\n') + 1) {
				want[n++] = atol(l);
				if (!strchr(l, '\n'))
					break;
			}
		}
	}
	qsort(want, n, sizeof(long), cmp_long);
	xb_reset(&exp);
	for (i = 0; i < n; i = j) {
		for (j = i; j < n && want[j] == want[i]; j++)
			;
		xb_printf(&exp, "%ld\n", want[i]);
	}
	if (read_file(f->rel, &got, 1 << 20) < 0)
		return;
	if (strcmp(got.p, exp.p)) {
		char x[300], y[300];

		esc(exp.p, exp.n, x, sizeof(x));
		esc(got.p, got.n, y, sizeof(y));
		finding(C_EFFECT, "%s should list '%s' after the write, lists '%s'",
			f->rel, x, y);
	}
	check_ok(C_EFFECT);
}

/* --- actions ----------------------------------------------------------------- */

/*
 * A file to write: a grammar first (by weight, among those found), then
 * one of its files: the hundreds of filter files must not crowd out the
 * few that hold the most state.
 */
static const unsigned int gweight[G_NR] = {
	[G_SET_EVENT] = 14, [G_PID] = 6, [G_KPROBE] = 12, [G_FILTER] = 24,
	[G_ENABLE] = 10, [G_TRIGGER] = 8, [G_BOOL] = 6, [G_NUM] = 8,
	[G_TRACE] = 3, [G_MARKER] = 5, [G_ERRLOG] = 2, [G_INST_NEW] = 3,
	[G_INST_RM] = 3, [G_CLOCK] = 2, [G_CPUMASK] = 2, [G_SYNTH] = 3,
	[G_SNAPSHOT] = 2, [G_GENERIC] = 3,
};

static const struct cfile *pick_file(void)
{
	unsigned int count[G_NR] = { 0 }, total = 0, r;
	int g, k;

	for (k = 0; k < nfiles; k++)
		count[files[k].g]++;
	for (g = 0; g < G_NR; g++)
		if (count[g])
			total += gweight[g];
	if (!total)
		return NULL;
	r = rn(total);
	for (g = 0; g < G_NR; g++) {
		if (!count[g])
			continue;
		if (r < gweight[g])
			break;
		r -= gweight[g];
	}
	r = rn(count[g]);
	for (k = 0; k < nfiles; k++)
		if (files[k].g == (enum grammar)g && !r--)
			return &files[k];
	return NULL;
}

/* A write from a file's grammar, checked. */
static void do_write(void)
{
	struct xb b = { 0 };
	struct snap before = { 0 }, after = { 0 };
	const struct cfile *f;
	const struct event *ev;
	bool trunc, quiet;
	int parts = 1, flags, i;
	struct wres w;
	char d[160];

	f = pick_file();
	if (!f)
		return;
	ev = f->ev >= 0 ? &events[f->ev] : NULL;
	if (!ev && f->g == G_FILTER && nevents)
		ev = &events[rn(nevents)];	/* a system's filter */
	xb_reset(&b);
	switch (f->g) {
	case G_SET_EVENT:
		gen_set_event(&b);
		break;
	case G_PID:
		gen_pid(&b);
		break;
	case G_KPROBE:
		read_kprobes();
		if (!strcmp(f->rel, "dynamic_events") && chance(30))
			gen_dyn_synth(&b);
		else
			gen_kprobe(&b);
		break;
	case G_FILTER:
		gen_filter(&b, ev);
		break;
	case G_ENABLE:
		gen_bool(&b);
		break;
	case G_TRIGGER:
		gen_trigger(&b, ev);
		break;
	case G_BOOL:
		gen_bool(&b);
		break;
	case G_NUM:
		gen_num(&b, f->rel);
		break;
	case G_TRACE:
	case G_ERRLOG:
		if (chance(80))
			xb_puts(&b, chance(50) ? "" : "\n");
		else
			gen_generic(&b, f->rel);
		break;
	case G_MARKER:
		gen_marker(&b);
		break;
	case G_INST_NEW:
	case G_INST_RM:
		gen_instance_name(&b);
		if (chance(70))
			xb_puts(&b, "\n");
		break;
	default:
		gen_generic(&b, f->rel);
	}
	if (f->g != G_MARKER)
		mutate(&b);
	trunc = off[M_APPEND] || chance(60);
	flags = trunc ? O_TRUNC : O_APPEND;
	if ((f->g == G_SET_EVENT || f->g == G_KPROBE || f->g == G_PID) &&
	    mut(M_SPLIT, 10))
		parts = 2 + rn(3);
	/* pid files change when listed tasks fork and exit: no readers */
	quiet = f->g == G_PID;
	if (quiet)
		reap_readers(true);
	esc(b.p, b.n, d, sizeof(d));
	act("write[%s]%s %s '%s' (%zu bytes%s)", gnames[f->g],
	    trunc ? " >" : " >>", f->rel, d, b.n, parts > 1 ? ", split" : "");
	snap_affected(&before, f);
	w = write_raw(path_of(f->rel), flags, b.p, b.n, parts);
	act_res("%s", w_text(&w));
	sh->actions[A_WRITE]++;
	snap_affected(&after, f);
	if (f->g == G_KPROBE || f->g == G_INST_NEW || f->g == G_INST_RM)
		dirty = true;
	if (!w_failed(&w) && !off[C_EFFECT] && before.isolated) {
		/* what the write may not reach stayed as it was */
		i = snap_diff(&before, &after, true);
		if (i >= 0) {
			char what[256];

			snprintf(what, sizeof(what), "a write to %s (%s) changed what "
				 "is not its own", f->rel, w_text(&w));
			report_diff(C_EFFECT, what, &before, &after, i);
		}
		check_ok(C_EFFECT);
	}
	if (w_failed(&w)) {
		if (!off[C_FAILED] && before.n) {
			i = snap_diff(&before, &after, false);
			if (i >= 0) {
				char what[256];

				snprintf(what, sizeof(what), "a write to %s that failed (%s) "
					 "changed something", f->rel, w_text(&w));
				report_diff(C_FAILED, what, &before, &after, i);
			}
			check_ok(C_FAILED);
		}
	} else if (!off[C_EFFECT] && parts == 1 && !w.err) {
		switch (f->g) {
		case G_FILTER:
			effect_filter(f, &b, &before, &after);
			break;
		case G_PID:
			effect_pid(f, &b, trunc, &before);
			break;
		case G_SET_EVENT:
			if (trunc)
				effect_set_event(f, &b);
			break;
		case G_BOOL:
			if (strstr(f->rel, "tracing_on")) {
				static struct xb got;
				const char *q = b.p;
				unsigned long v;

				while (k_isspace(*q))	/* strim(), as the kernel */
					q++;
				v = strtoul(q, NULL, 10);

				/* a traceoff/traceon trigger may fire before we read */
				if (has_triggers(f->inst)) {
					check_skip(C_EFFECT, "tracing_on with triggers set");
					break;
				}
				if (read_file(f->rel, &got, 64) > 0 &&
				    atoi(got.p) != (v != 0)) {
					esc(b.p, b.n, d, sizeof(d));
					finding(C_EFFECT, "%s took '%s' but reads %s",
						f->rel, d, got.p);
				}
				check_ok(C_EFFECT);
			}
			break;
		case G_INST_NEW:
		case G_INST_RM: {
			char name[PATH_MAX], rel[PATH_MAX + 16];
			const char *s = b.p;
			size_t n = strlen(s);

			while (n && k_isspace(s[n - 1]))
				n--;
			while (n && k_isspace(*s)) {
				s++;
				n--;
			}
			snprintf(name, sizeof(name), "%.*s", (int)n, s);
			snprintf(rel, sizeof(rel), "instances/%s", name);
			if (!name[0] || exists(rel) != (f->g == G_INST_NEW))
				finding(C_EFFECT, "%s took '%s', yet instances/%s %s",
					f->rel, name, name, f->g == G_INST_NEW ?
					"is not there" : "is still there");
			check_ok(C_EFFECT);
			break;
		}
		default:
			break;
		}
	}
	if (f->g == G_SET_EVENT || f->g == G_ENABLE)
		check_enable(f->inst);
	if (f->g == G_KPROBE) {
		discover();
		check_events();
	}
	snap_free(&before);
	snap_free(&after);
	free(b.p);
}

/* Instances: new/remove by name, or mkdir/rmdir where that works. */
static void do_instance(void)
{
	struct xb name = { 0 };
	char rel[PATH_MAX];
	struct snap a = { 0 }, b = { 0 };
	bool make = chance(50), failed;
	int i, err = 0;

	if (!exists("instances"))
		return;
	xb_reset(&name);
	gen_instance_name(&name);
	if (!strcmp(name.p, CHECKER))
		xb_puts(&name, "x");
	snap_dir(&a, "instances", 1);
	if (mkdir_works && chance(50) && !memchr(name.p, '/', name.n) &&
	    name.n == strlen(name.p) && name.n < 256 && name.n) {
		snprintf(rel, sizeof(rel), "instances/%s", name.p);
		act("%s %s", make ? "mkdir" : "rmdir", rel);
		i = make ? mkdir(path_of(rel), 0755) : rmdir(path_of(rel));
		err = i ? errno : 0;
		act_res("%s", err ? strerror(err) : "0");
		if (make && (err == EPERM || err == EOPNOTSUPP || err == ENOSYS))
			mkdir_works = false;	/* debugfs, or kmark's own way */
		failed = err != 0;
	} else {
		struct wres w;
		char d[96];

		snprintf(rel, sizeof(rel), "instances/%s", make ? "new" : "remove");
		esc(name.p, name.n, d, sizeof(d));
		act("write > %s '%s'", rel, d);
		w = write_raw(path_of(rel), O_TRUNC, name.p, name.n, 1);
		act_res("%s", w_text(&w));
		failed = w_failed(&w);
	}
	sh->actions[A_INSTANCE]++;
	snap_dir(&b, "instances", 1);
	if (failed && !off[C_FAILED]) {
		i = snap_diff(&a, &b, false);
		if (i >= 0)
			report_diff(C_FAILED, "an instance command that failed changed "
				    "instances/", &a, &b, i);
		check_ok(C_FAILED);
	}
	dirty = true;
	snap_free(&a);
	snap_free(&b);
	free(name.p);
}

static void do_module(void)
{
	struct module *m = &mods[rn(NR_MODS)];
	int r, what = rn(10);

	if (!m->path)
		return;
	sh->actions[A_MODULE]++;
	if (what < 4) {
		const char *params = m->params[rn(6)];
		int fd = open(m->path, O_RDONLY | O_CLOEXEC);

		act("insmod %s %s", m->name, params);
		if (fd < 0) {
			act_res("open: %s", strerror(errno));
			return;
		}
		r = syscall(__NR_finit_module, fd, params, 0);
		act_res("%s", r ? strerror(errno) : "0");
		close(fd);
	} else if (what < 7) {
		act("rmmod %s", m->name);
		r = syscall(__NR_delete_module, m->name, O_NONBLOCK);
		act_res("%s", r ? strerror(errno) : "0");
	} else {
		char n[16];
		int fd;

		snprintf(n, sizeof(n), "%u\n", rn(chance(10) ? 2000 : 20));
		act("fire %s with %.*s", m->fire, (int)strlen(n) - 1, n);
		fd = open(m->fire, O_WRONLY | O_CLOEXEC);
		if (fd < 0) {
			act_res("%s", strerror(errno));
			return;
		}
		r = write(fd, n, strlen(n));
		act_res("%s", r < 0 ? strerror(errno) : "ok");
		close(fd);
		return;
	}
	dirty = true;
	discover();
	check_events();
	for (int i = 0; i < ninsts; i++)
		check_enable(i);
}

/* kprobes: at the limits, on hot functions (defined and deleted), deleted. */
static void do_kprobe(void)
{
	struct xb b = { 0 };
	struct wres w;
	char d[200];
	int what = rn(10);

	xb_reset(&b);
	sh->actions[A_KPROBE]++;
	read_kprobes();
	if (what < 4 && !off[M_LIMIT]) {
		/* two events whose GROUP/EVENT agree in their first 63 chars */
		const char *g = chance(70) ? "kprobes" : "fz";
		long len = 63 - (long)strlen(g) - 1 + (long)rn(2);

		xb_printf(&b, "p:%s/", g);
		xb_rep(&b, "a", len);
		xb_printf(&b, " %s\n", safe_syms[rn(nsafe)]);
		if (chance(60)) {
			xb_printf(&b, "p:%s/", g);
			xb_rep(&b, "a", len);
			xb_printf(&b, "%s %s\n", chance(50) ? "b" : "ab",
				  safe_syms[rn(nsafe)]);
		}
		esc(b.p, b.n, d, sizeof(d));
		act("kprobe limit-names >> kprobe_events '%s'", d);
		w = write_raw(path_of("kprobe_events"), O_APPEND, b.p, b.n, 1);
		act_res("%s", w_text(&w));
	} else if (what < 7) {
		/* a hot function: defined, then deleted at once, never enabled */
		const char *sym = PICK(hot_syms);
		char name[32];

		snprintf(name, sizeof(name), "fzhot%u", rn(4));
		xb_printf(&b, "%s:kprobes/%s %s", chance(70) ? "p" : "r", name, sym);
		put_kprobe_args(&b);
		esc(b.p, b.n, d, sizeof(d));
		act("kprobe hot >> kprobe_events '%s'", d);
		w = write_raw(path_of("kprobe_events"), O_APPEND, b.p, b.n, 1);
		act_res("%s", w_text(&w));
		if (!w_failed(&w)) {
			xb_reset(&b);
			xb_printf(&b, "-:%s\n", name);
			act("kprobe hot >> kprobe_events '-:%s'", name);
			w = write_raw(path_of("kprobe_events"), O_APPEND, b.p, b.n, 1);
			act_res("%s", w_text(&w));
			read_kprobes();
			for (int i = 0; i < nkps; i++)
				if (!strcmp(kps[i].name + 8, name) &&
				    !strncmp(kps[i].name, "kprobes/", 8) &&
				    !off[C_EFFECT])
					finding(C_EFFECT, "kprobes/%s, defined and deleted at "
						"once (never enabled), is still in "
						"kprobe_events (%s)", name, w_text(&w));
		}
	} else if (nkps) {
		const char *nm = kps[rn(nkps)].name;

		xb_printf(&b, "-:%s\n", nm);
		act("kprobe delete >> kprobe_events '-:%s'", nm);
		w = write_raw(path_of("kprobe_events"), O_APPEND, b.p, b.n, 1);
		act_res("%s", w_text(&w));
	} else {
		/* a probe on a module function, maybe before the module loads */
		int m = rn(NR_MODS);

		xb_printf(&b, "p:fz/m%d %s:%s $arg1\n", m, mods[m].name,
			  mods[m].probe_sym ?: "no_such_fn");
		esc(b.p, b.n, d, sizeof(d));
		act("kprobe module >> kprobe_events '%s'", d);
		w = write_raw(path_of("kprobe_events"), O_APPEND, b.p, b.n, 1);
		act_res("%s", w_text(&w));
	}
	dirty = true;
	discover();
	check_events();
	free(b.p);
}

/*
 * A reader of trace, trace_pipe or trace_pipe_raw, pinned to a CPU: it
 * opens the file (the parent waits for that), reads it without blocking
 * now and then, and is ended after its number of steps.
 */
static void do_reader(void)
{
	unsigned int cpu, life, nreads, size, pause_us;
	const char *rel;
	int pfd[2], i, oldest;
	char c = 0;
	pid_t p;

	if (!nreaders_rel)
		return;
	rel = readers_rel[rn(nreaders_rel)];
	cpu = rn(ncpus);
	life = 1 + rn(chance(20) ? 60 : 10);
	nreads = 1 + rn(8);
	size = PICK(((unsigned int[]){ 1, 100, 4096, 65536 }));
	pause_us = 1000 * rn(20);
	if (nreaders >= MAX_READERS) {	/* the one due first makes room */
		for (oldest = 0, i = 1; i < nreaders; i++)
			if (readers[i].until < readers[oldest].until)
				oldest = i;
		end_reader(oldest);
	}
	act("reader on cpu%u: %s, %u reads of %u bytes, for %u steps", cpu, rel,
	    nreads, size, life);
	sh->actions[A_READER]++;
	fflush(stdout);
	if (pipe(pfd)) {
		act_res("pipe: %s", strerror(errno));
		return;
	}
	p = fork();
	if (p < 0) {
		act_res("fork: %s", strerror(errno));
		close(pfd[0]);
		close(pfd[1]);
		return;
	}
	if (!p) {
		char *buf = malloc(size);
		int fd;

		close(pfd[0]);
		prctl(PR_SET_PDEATHSIG, SIGKILL);	/* not left open */
		pin(cpu);
		prctl(PR_SET_NAME, "fzreader");
		fd = open(path_of(rel), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
		c = fd < 0 ? 'x' : 'o';
		if (write(pfd[1], &c, 1) != 1)
			_exit(1);
		close(pfd[1]);
		for (i = 0; fd >= 0 && i < (int)nreads; i++) {
			if (read(fd, buf, size) < 0 && errno != EAGAIN)
				break;
			usleep(pause_us);
		}
		for (;;)	/* open until the parent ends it */
			pause();
	}
	close(pfd[1]);
	while (read(pfd[0], &c, 1) < 0 && errno == EINTR)
		;
	close(pfd[0]);
	act_res("%s", c == 'o' ? "open" : "could not open");
	readers[nreaders].pid = p;
	readers[nreaders++].until = sh->step + life;
	last_child = p;
}

/* Renames of itself, each followed by a mark; then every mark's name. */
static void do_rename(void)
{
	unsigned long first = mark_seq + 1;
	int n = 1 + rn(chance(10) ? 200 : 40), i;
	char name[16];

	sh->actions[A_RENAME]++;
	act("rename x%d, a mark each", n);
	for (i = 0; i < n; i++) {
		if (chance(3) && !off[M_BYTE]) {	/* an odd name, not checked */
			prctl(PR_SET_NAME, PICK(((const char *[]){
				"a b", "x\xff", "", "-", "<...>", "fz\n" })));
			continue;
		}
		new_name(name, sizeof(name));
		prctl(PR_SET_NAME, name);
		mark(name);
	}
	act_res("marks %lu..%lu", first, mark_seq);
	if (!off[C_COMM] && checker_ok && mark_seq >= first)
		check_marks(first, mark_seq, my_pid);
}

/*
 * A child: renames itself, marks, exits. It looks at the pid lists itself
 * (with options/event-fork they hold it only while it lives) and says by
 * its exit status (3) when they keep its mark out.
 */
static void do_fork(void)
{
	unsigned long first;
	char name[16];
	int st;
	pid_t p;

	sh->actions[A_FORK]++;
	new_name(name, sizeof(name));
	first = ++mark_seq;	/* the child's mark */
	act("fork: a child named %s marks and exits", name);
	fflush(stdout);
	p = fork();
	if (p < 0) {
		act_res("fork: %s", strerror(errno));
		return;
	}
	if (!p) {
		char t[96];
		int n;

		prctl(PR_SET_NAME, name);
		if (!pid_allows(getpid()))
			_exit(3);
		n = snprintf(t, sizeof(t), "fzc %lu %s\n", first, name);
		if (chk_marker_fd >= 0 && write(chk_marker_fd, t, n) < 0) {
			/* the parent's check sees no line */
		}
		_exit(0);
	}
	last_child = p;
	while (waitpid(p, &st, 0) < 0 && errno == EINTR)
		;
	act_res("pid %d, %s", (int)p, WIFEXITED(st) && WEXITSTATUS(st) == 3 ?
		"filtered out by the pid lists" : "marked");
	if (WIFSIGNALED(st))
		finding(C_ALIVE, "child %d was killed by signal %d", (int)p,
			WTERMSIG(st));
	if (WIFEXITED(st) && WEXITSTATUS(st) == 3) {
		check_skip(C_COMM, "marks filtered out by the pid lists");
		return;
	}
	if (!off[C_COMM] && checker_ok)
		check_marks(first, first, p);
}

/* --- setup and cleanup ---------------------------------------------------- */

struct saved {
	const char *rel;
	char val[64];
};
static struct saved saved[] = {
	{ "tracing_on", "" }, { "buffer_size_kb", "" }, { "read_delay_ms", "" },
	{ "buffer_percent", "" }, { "options/event-fork", "" },
};
#define NR_SAVED (int)(sizeof(saved) / sizeof(saved[0]))

static void setup(void)
{
	static struct xb b;
	char rel[128];
	int i;

	for (i = 0; i < NR_SAVED; i++)
		if (read_file(saved[i].rel, &b, 63) > 0)
			snprintf(saved[i].val, sizeof(saved[i].val), "%s", b.p);
	for (i = 0; i < NR_MODS; i++)
		mods[i].loaded_at_start = mod_loaded(&mods[i]);
	/* The checker instance: its trace_marker and trace_pipe only. */
	snprintf(rel, sizeof(rel), "instances/%s", CHECKER);
	if (!exists(rel)) {
		struct wres w = write_raw(path_of("instances/new"), O_TRUNC,
					  CHECKER "\n", strlen(CHECKER) + 1, 1);

		if (w_failed(&w) && mkdir(path_of(rel), 0755))
			fprintf(stderr, "kmark-fuzz: no instance %s (%s): no comm checks\n",
				CHECKER, w_text(&w));
	}
	snprintf(rel, sizeof(rel), "instances/%s/trace_marker", CHECKER);
	chk_marker_fd = open(path_of(rel), O_WRONLY | O_CLOEXEC);
	checker_ok = chk_marker_fd >= 0;
	if (!checker_ok)
		check_skip(C_COMM, "no checker instance");
}

static void write_str(const char *rel, const char *s)
{
	struct wres w = write_raw(path_of(rel), O_TRUNC, s, strlen(s), 1);

	(void)w;
}

/* Leave the directory as a test after this one expects it. */
static void cleanup(void)
{
	int i, k;

	cleaning = true;
	reap_readers(true);
	if (chk_marker_fd >= 0)
		close(chk_marker_fd);
	chk_marker_fd = -1;
	discover();
	for (i = 0; i < ninsts; i++) {
		char rel[PATH_MAX];

		snprintf(rel, sizeof(rel), "%sset_event", insts[i].prefix);
		write_str(rel, "\n");
	}
	for (k = 0; k < nfiles; k++)
		if (files[k].g == G_FILTER || files[k].g == G_TRIGGER)
			write_str(files[k].rel, files[k].g == G_FILTER ? "0\n" : "\n");
	write_str("kprobe_events", "\n");
	write_str("set_event_pid", "\n");
	write_str("set_event_notrace_pid", "\n");
	for (i = 1; i < ninsts; i++) {
		if (mkdir_works)
			rmdir(path_of(insts[i].prefix));
		write_str("instances/remove", insts[i].name);
	}
	write_str("instances/remove", CHECKER);
	for (i = 0; i < NR_SAVED; i++)
		if (saved[i].val[0])
			write_str(saved[i].rel, saved[i].val);
	write_str("trace", "");
	write_str("error_log", "");
	for (i = 0; i < NR_MODS; i++) {
		if (!mods[i].path || mods[i].loaded_at_start == mod_loaded(&mods[i]))
			continue;
		if (mods[i].loaded_at_start) {
			int fd = open(mods[i].path, O_RDONLY | O_CLOEXEC);

			if (fd >= 0) {
				if (syscall(__NR_finit_module, fd, "", 0)) {
					/* as it was, if it can be */
				}
				close(fd);
			}
		} else {
			syscall(__NR_delete_module, mods[i].name, O_NONBLOCK);
		}
	}
	cleaning = false;
}

/* --- the worker and the supervisor ------------------------------------------ */

static const struct {
	enum fam f;
	unsigned int weight;
} weights[] = {
	{ A_WRITE, 60 }, { A_INSTANCE, 5 }, { A_MODULE, 4 }, { A_KPROBE, 7 },
	{ A_READER, 7 }, { A_RENAME, 12 }, { A_FORK, 3 },
};

static void one_step(void)
{
	unsigned int total = 0, r, i;

	for (i = 0; i < sizeof(weights) / sizeof(weights[0]); i++)
		if (!off[weights[i].f])
			total += weights[i].weight;
	if (!total)
		return;
	if (dirty)
		discover();
	r = rn(total);
	for (i = 0; i < sizeof(weights) / sizeof(weights[0]); i++) {
		if (off[weights[i].f])
			continue;
		if (r < weights[i].weight)
			break;
		r -= weights[i].weight;
	}
	switch (weights[i].f) {
	case A_WRITE:
		do_write();
		break;
	case A_INSTANCE:
		do_instance();
		break;
	case A_MODULE:
		do_module();
		break;
	case A_KPROBE:
		do_kprobe();
		break;
	case A_READER:
		do_reader();
		break;
	case A_RENAME:
		do_rename();
		break;
	case A_FORK:
		do_fork();
		break;
	default:
		break;
	}
}

static int worker(void)
{
	double t0 = sh->t0;

	my_pid = getpid();
	rnd_seed(seed);
	kmsg_open();
	setup();
	discover();
	check_events();
	for (sh->step = 1; max_steps < 0 || sh->step <= max_steps; sh->step++) {
		if (max_time >= 0 && now() - t0 >= max_time)
			break;
		sh->beat = now();
		if (checkpoint > 0 && (sh->step - 1) % checkpoint == 0)
			kmsg_note("seed=%llu step=%ld\n", seed, sh->step);
		one_step();
		reap_readers(false);
		check_kmsg();
		check_alive();
		if (sh->step % 64 == 0) {
			if (dirty)
				discover();
			check_events();
		}
		/*
		 * Early too: a short run on a slow kernel (i386-lockdep's
		 * 10 s made 96 steps once) must check it at least once.
		 */
		if (sh->step % 97 == 0 || sh->step == 13)
			check_recorded();
	}
	sh->step--;
	sh->beat = now();
	reap_readers(true);
	check_kmsg();
	cleanup();
	check_kmsg();
	sh->done = 1;
	kmsg_note("seed=%llu done after %ld steps\n", seed, sh->step);
	return 0;
}

static void print_summary(double secs)
{
	int f;

	printf("kmark-fuzz summary: seed=%llu steps=%ld seconds=%.0f\n", seed,
	       sh->step, secs);
	for (f = 0; f < NR_CHECKS; f++)
		printf("kmark-fuzz check %s: %s checks=%ld findings=%ld skips=%ld%s%s\n",
		       fams[f].name, off[f] ? "off" : sh->findings[f] ? "FAIL" :
		       sh->checks[f] ? "ok" : "none", sh->checks[f], sh->findings[f],
		       sh->skips[f], sh->skip_why[f][0] ? " why=" : "",
		       sh->skip_why[f]);
	for (f = NR_CHECKS; f <= A_FORK; f++)
		printf("kmark-fuzz action %s: %ld\n", fams[f].name, sh->actions[f]);
}

/* The worker died or hangs: say so, with what the kernel log says. */
static int supervise(pid_t w)
{
	int kfd = -1, st;
	bool leak;
	double t0 = now();

	if (use_kmsg) {
		kfd = open("/dev/kmsg", O_RDONLY | O_NONBLOCK | O_CLOEXEC);
		if (kfd >= 0)
			lseek(kfd, 0, SEEK_END);
	}
	for (;;) {
		pid_t r = waitpid(w, &st, WNOHANG);
		char log[8192];

		if (r == w)
			break;
		if (r < 0 && errno != EINTR)
			break;
		usleep(200000);
		if (sh->beat && now() - sh->beat > hang_secs) {
			char p[64];
			FILE *f;

			printf("FUZZ-FINDING seed=%llu step=%ld: [alive] no progress for "
			       "%d s; the worker's kernel stack:\n", seed, sh->step,
			       hang_secs);
			snprintf(p, sizeof(p), "/proc/%d/stack", (int)w);
			f = fopen(p, "re");
			while (f && fgets(log, sizeof(log), f))
				printf("#   | %s", log);
			if (f)
				fclose(f);
			kmsg_fd = kfd;
			if (kmsg_scan(log, sizeof(log), &leak))
				printf("# the kernel log:%s\n", log);
			print_actions();
			sh->findings[C_ALIVE]++;
			if (summary)
				print_summary(now() - t0);
			kill(w, SIGKILL);
			return 1;
		}
	}
	if (WIFSIGNALED(st)) {
		char log[8192] = "";

		kmsg_fd = kfd;
		kmsg_scan(log, sizeof(log), &leak);
		printf("FUZZ-FINDING seed=%llu step=%ld: [alive] the fuzzer was killed "
		       "by signal %d (a kernel oops kills the task)%s%s\n"
		       "# found after %.1f s of the run\n", seed, sh->step,
		       WTERMSIG(st), log[0] ? "; the kernel log:" : "", log,
		       now() - sh->t0);
		print_actions();
		sh->findings[C_ALIVE]++;
		if (log[0])
			sh->findings[C_KMSG]++;
		kmsg_note("seed=%llu finding step=%ld\n", seed, sh->step);
	}
	if (summary)
		print_summary(now() - t0);
	if (WIFSIGNALED(st))
		return 1;
	return WIFEXITED(st) ? WEXITSTATUS(st) : 1;
}

static void usage(FILE *f)
{
	int i;

	fprintf(f,
		"usage: kmark-fuzz [OPTIONS]\n"
		"A grammar-aware fuzzer for kmark's control directory: random but\n"
		"reproducible writes, instances, modules, kprobes, readers, renames,\n"
		"checked after every step. Prints the seed first; a finding prints\n"
		"FUZZ-FINDING seed=N step=M: [CHECK] what, the last %d actions, and\n"
		"exits 1.\n\n"
		"  -d, --dir DIR        the control directory (default %s)\n"
		"  -T, --tracefs        the tracefs copy: /sys/kernel/tracing/kmark\n"
		"  -s, --seed N         the seed (default: from the clock)\n"
		"  -n, --steps N        stop after N steps (default 1000 without --time)\n"
		"  -t, --time SECONDS   stop after SECONDS\n"
		"  -r, --replay         redo a run: the same --seed and --steps, every\n"
		"                       action printed (-v)\n"
		"  -v, --verbose        print every action as it is done\n"
		"  -x, --exclude LIST   leave out families (comma-separated, below)\n"
		"  -k, --keep-going     report findings and go on (a few per check)\n"
		"  -S, --summary        print a summary line per check and action\n"
		"  -m, --modules DIR    where kmark_test.ko & co are (default\n"
		"                       /lib/modules/$(uname -r))\n"
		"  -c, --checkpoint N   a 'kmark-fuzz: seed= step=' kernel log line\n"
		"                       every N steps (default 50; 0: none)\n"
		"      --hang SECONDS   a step longer than this is a finding (default 180)\n"
		"      --no-kmsg        neither read nor write /dev/kmsg\n"
		"  -h, --help           this text\n\nFamilies:\n", RING, root);
	for (i = 0; i < NR_FAM; i++)
		fprintf(f, "  %-14s %s\n", fams[i].name, fams[i].help);
}

static void exclude(const char *list)
{
	char *copy = strdup(list), *tok, *save = NULL;
	int i;

	for (tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		for (i = 0; i < NR_FAM; i++)
			if (!strcmp(tok, fams[i].name))
				break;
		if (i == NR_FAM) {
			fprintf(stderr, "kmark-fuzz: no family '%s' (see --help)\n", tok);
			exit(2);
		}
		off[i] = true;
	}
	free(copy);
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "dir", required_argument, NULL, 'd' },
		{ "tracefs", no_argument, NULL, 'T' },
		{ "seed", required_argument, NULL, 's' },
		{ "steps", required_argument, NULL, 'n' },
		{ "time", required_argument, NULL, 't' },
		{ "replay", no_argument, NULL, 'r' },
		{ "verbose", no_argument, NULL, 'v' },
		{ "exclude", required_argument, NULL, 'x' },
		{ "keep-going", no_argument, NULL, 'k' },
		{ "summary", no_argument, NULL, 'S' },
		{ "modules", required_argument, NULL, 'm' },
		{ "checkpoint", required_argument, NULL, 'c' },
		{ "hang", required_argument, NULL, 'H' },
		{ "no-kmsg", no_argument, NULL, 'K' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	bool have_seed = false, replay = false;
	char mdir[PATH_MAX];
	struct utsname u;
	pid_t w;
	int c;

	while ((c = getopt_long(argc, argv, "d:Ts:n:t:rvx:kSm:c:h", opts, NULL)) != -1) {
		char *end;

		switch (c) {
		case 'd':
			root = optarg;
			break;
		case 'T':
			root = "/sys/kernel/tracing/kmark";
			break;
		case 's':
			seed = strtoull(optarg, &end, 0);
			if (*end) {
				fprintf(stderr, "kmark-fuzz: bad seed '%s'\n", optarg);
				return 2;
			}
			have_seed = true;
			break;
		case 'n':
			max_steps = strtol(optarg, &end, 0);
			if (*end || max_steps < 0) {
				fprintf(stderr, "kmark-fuzz: bad steps '%s'\n", optarg);
				return 2;
			}
			break;
		case 't':
			max_time = strtod(optarg, &end);
			if (*end || max_time < 0) {
				fprintf(stderr, "kmark-fuzz: bad time '%s'\n", optarg);
				return 2;
			}
			break;
		case 'r':
			replay = true;
			verbose = 1;
			break;
		case 'v':
			verbose = 1;
			break;
		case 'x':
			exclude(optarg);
			break;
		case 'k':
			keep_going = 1;
			break;
		case 'S':
			summary = 1;
			break;
		case 'm':
			moddir = optarg;
			break;
		case 'c':
			checkpoint = strtol(optarg, NULL, 0);
			break;
		case 'H':
			hang_secs = atoi(optarg);
			break;
		case 'K':
			use_kmsg = 0;
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			usage(stderr);
			return 2;
		}
	}
	if (optind < argc) {
		usage(stderr);
		return 2;
	}
	if (replay && (!have_seed || max_steps < 0)) {
		fprintf(stderr, "kmark-fuzz: --replay needs --seed and --steps\n");
		return 2;
	}
	if (!have_seed) {
		struct timespec ts;

		clock_gettime(CLOCK_REALTIME, &ts);
		seed = ((unsigned long long)ts.tv_sec * 1000003ULL) ^ ts.tv_nsec ^
		       ((unsigned long long)getpid() << 20);
		seed %= 1000000000000ULL;
	}
	if (max_steps < 0 && max_time < 0)
		max_steps = 1000;
	setvbuf(stdout, NULL, _IOLBF, 0);
	printf("kmark-fuzz: seed=%llu\n", seed);
	fflush(stdout);

	if (!moddir) {
		uname(&u);
		snprintf(mdir, sizeof(mdir), "/lib/modules/%s", u.release);
		moddir = mdir;
	}
	find_modules(moddir, 0);
	find_symbols();
	ncpus = sysconf(_SC_NPROCESSORS_ONLN);
	if (ncpus < 1)
		ncpus = 1;
	if (access(root, F_OK)) {
		fprintf(stderr, "kmark-fuzz: %s: %s\n", root, strerror(errno));
		return 2;
	}
	sh = mmap(NULL, sizeof(*sh), PROT_READ | PROT_WRITE,
		  MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (sh == MAP_FAILED) {
		perror("mmap");
		return 2;
	}
	memset(sh, 0, sizeof(*sh));
	sh->t0 = now();
	{
		char opts[512];
		int n = snprintf(opts, sizeof(opts), "-d %s", root), i;

		for (i = 0; i < NR_FAM; i++)
			if (off[i] && n < (int)sizeof(opts))
				n += snprintf(opts + n, sizeof(opts) - n, " -x %s",
					      fams[i].name);
		kmsg_note("seed=%llu start opts=%s\n", seed, opts);
	}
	fflush(stdout);
	w = fork();
	if (w < 0) {
		perror("fork");
		return 2;
	}
	if (!w) {
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		exit(worker());
	}
	return supervise(w);
}

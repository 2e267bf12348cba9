// SPDX-License-Identifier: GPL-2.0
/*
 * End-to-end tests: run the kmark binary against a fake control
 * directory made of plain files and check what it wrote.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "strlist.h"
#include "test.h"
#include "util_read.h"

static char root[64];		/* /tmp/kmark-test.XXXXXX */
static char dir[128];		/* root/kmark */
static char *out, *err;

static void put(const char *name, const char *content)
{
	char path[256];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	if (!f) {
		perror(path);
		abort();
	}
	fputs(content, f);
	fclose(f);
}

static char *get(const char *name)
{
	char path[256];
	static char *last;

	free(last);
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	last = slurp(path);
	return last;
}

static void mkdir_in(const char *name);

static void put_fixture(const char *name, const char *fixture_name)
{
	char *buf = fixture(fixture_name);

	put(name, buf);
	free(buf);
}

/* run kmark with args (NULL-terminated); with_dir adds "-d DIR" */
static int vrun(bool with_dir, const char *first, va_list ap)
{
	const char *argv[32];
	char opath[128], epath[128];
	int n = 0, status;
	const char *a;
	pid_t pid;

	argv[n++] = kmark_bin;
	if (with_dir) {
		argv[n++] = "-d";
		argv[n++] = dir;
	}
	for (a = first; a && n < 31; a = va_arg(ap, const char *))
		argv[n++] = a;
	argv[n] = NULL;
	snprintf(opath, sizeof(opath), "%s/stdout", root);
	snprintf(epath, sizeof(epath), "%s/stderr", root);

	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		int o = open(opath, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		int e = open(epath, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		int i = open("/dev/null", O_RDONLY);

		dup2(i, 0);
		dup2(o, 1);
		dup2(e, 2);
		execv(kmark_bin, (char *const *)argv);
		_exit(127);
	}
	waitpid(pid, &status, 0);
	free(out);
	free(err);
	out = slurp(opath);
	err = slurp(epath);
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128;
}

static int run(const char *first, ...)
{
	va_list ap;
	int rc;

	va_start(ap, first);
	rc = vrun(true, first, ap);
	va_end(ap);
	return rc;
}

static int run_nodir(const char *first, ...)
{
	va_list ap;
	int rc;

	va_start(ap, first);
	rc = vrun(false, first, ap);
	va_end(ap);
	return rc;
}

static int count_lines(const char *s)
{
	int n = 0;

	for (; s && *s; s++)
		n += *s == '\n';
	return n;
}

static void setup(void)
{
	char path[256], kallsyms[256];
	char *stats = fixture("stats_cpu0");

	strcpy(root, "/tmp/kmark-test.XXXXXX");
	if (!mkdtemp(root)) {
		perror("mkdtemp");
		abort();
	}
	snprintf(dir, sizeof(dir), "%s/kmark", root);
	mkdir(dir, 0755);
	snprintf(path, sizeof(path), "%s/kprobes", root);
	mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/kprobes/blacklist", root);
	{
		char *bl = fixture("blacklist");
		FILE *f = fopen(path, "w");

		fputs(bl, f);
		fclose(f);
		free(bl);
	}
	put_fixture("available_markers", "available_markers");
	put_fixture("error_log", "error_log");
	put_fixture("trace_pipe", "trace_basic.txt");
	put("set_event", "sched:sched_switch\n");
	put("kprobe_events", "");
	put("trace", "old trace\n");
	put("tracing_on", "0\n");
	put("buffer_size_kb", "1408\n");
	snprintf(path, sizeof(path), "%s/per_cpu", dir);
	mkdir(path, 0755);
	for (int cpu = 0; cpu <= 10; cpu += 5) {
		snprintf(path, sizeof(path), "%s/per_cpu/cpu%d", dir, cpu);
		mkdir(path, 0755);
		snprintf(path, sizeof(path), "per_cpu/cpu%d/stats", cpu);
		put(path, stats);
	}
	free(stats);
	snprintf(kallsyms, sizeof(kallsyms), "%s/kallsyms", fixtures);
	setenv("KMARK_KALLSYMS", kallsyms, 1);
	unsetenv("KMARK_DIR");
	unsetenv("KMARK_KPROBE_BLACKLIST");
}

static void test_help(void)
{
	char *help;

	check_ll(run_nodir("help", "enable", NULL), 0, "e2e: help enable exits 0");
	check(out && !strncmp(out, "usage: kmark enable", 19),
	      "e2e: help enable prints the usage");
	help = out ? strdup(out) : NULL;
	run_nodir("enable", "--help", NULL);
	check_str(out, help ? help : "", "e2e: 'enable --help' == 'help enable'");
	free(help);
	check_has(out, "  2  usage error", "e2e: --help documents exit codes");
	check_ll(run_nodir("bogus", NULL), 2, "e2e: unknown command exits 2");
	check_ll(run("enable", NULL), 2, "e2e: enable without names exits 2");
	check_has(err, "Try 'kmark help enable'", "e2e: usage error hint");
	check_ll(run("stream", "-n", "zero", NULL), 2,
		 "e2e: invalid --count exits 2");
	check_ll(run("list", "--bogus", NULL), 2, "e2e: invalid option exits 2");
	check_ll(run("hist", NULL), 2, "e2e: hist without an event exits 2");
	check_has(err, "Try 'kmark help hist'", "e2e: hist's usage hint");
	check_ll(run("hist", "-t", "1", "sys_sync", "--", "true", NULL), 2,
		 "e2e: hist with -t and a command exits 2");
	check_ll(run("hist", "--latency", "sched:sched_wakeup.pid", NULL), 2,
		 "e2e: hist --latency with one event exits 2");
	check_ll(run("hist", "sys_sync", "--", NULL), 2,
		 "e2e: hist with nothing after -- exits 2");
	check_ll(run("hist", "-S", "0", "sys_sync", NULL), 2,
		 "e2e: hist -S 0 exits 2");
	check_ll(run_nodir("-d", "/nonexistent/kmark", "list", NULL), 3,
		 "e2e: missing control directory exits 3");
	check_has(err, "/nonexistent/kmark", "e2e: missing directory named");
	check_ll(count_lines(err), 1, "e2e: missing directory is one line");
	setenv("KMARK_DIR", dir, 1);
	check_ll(run_nodir("list", NULL), 0, "e2e: KMARK_DIR is honoured");
	unsetenv("KMARK_DIR");
}

static void test_list(void)
{
	check_ll(run("list", NULL), 0, "e2e: list exits 0");
	check_has(out, "EVENT               MODULE  TYPE       STATE     FIELDS\n",
		  "e2e: list header with the MODULE column");
	check_has(out, "sched:sched_switch  -       marker     enabled   prev_comm=%s",
		  "e2e: list shows enabled marker as SYS:NAME with fields");
	check_has(out, "syscalls:sys_sync   -       marker     disabled  -\n",
		  "e2e: list shows zero-field marker disabled");
	check_has(out, "kprobes:myopen      -       kprobe     disabled  dfd=s32 fname=ustring\n",
		  "e2e: list shows kprobe event with its fields' types");
	check_ll(count_lines(out), 5, "e2e: list prints header + 4 events");
	run("list", "my*", NULL);
	check_ll(count_lines(out), 2, "e2e: list GLOB filters (name)");
	run("list", "sched", NULL);
	check_ll(count_lines(out), 3, "e2e: list SYS: a system's events");
	run("list", "*:sys_*", NULL);
	check_has(out, "\nsyscalls:sys_sync ", "e2e: list SYS:NAME glob");
	check_ll(count_lines(out), 2, "e2e: ... that event only");
	/* the event's enable file says which of its lines are a kept token */
	mkdir_in("events");
	mkdir_in("events/sched");
	mkdir_in("events/sched/sched_switch");
	put("events/sched/sched_switch/enable", "0\n");
	run("list", "sched_switch", NULL);
	check_has(out, "sched:sched_switch  -       marker     disabled ",
		  "e2e: list: a set_event line whose enable file says 0 is no enabled event");
	put("events/sched/sched_switch/enable", "1\n");
	run("list", "sched_switch", NULL);
	check_has(out, "sched:sched_switch  -       marker     enabled ",
		  "e2e: list: ... and with 1, it is");
	check_ll(run("list", "nomatch*", NULL), 4,
		 "e2e: list GLOB matching nothing exits 4");
}

static void unlink_in(const char *name)
{
	char path[256];

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	unlink(path);
}

static void test_enable_disable(void)
{
	char path[512];

	check_ll(run("enable", "sys_sync", "kprobes:myopen", NULL), 0,
		 "e2e: enable markers exits 0");
	check_str(get("set_event"), "sched:sched_switch\nsys_sync\nkprobes:myopen\n",
		  "e2e: enable appends names as given (no truncation)");
	check_str(get("kprobe_events"), "",
		  "e2e: enabling markers defines no kprobe");

	check_ll(run("enable", "do_sys_openat2", NULL), 0,
		 "e2e: kprobe fallback exits 0");
	check_str(get("kprobe_events"), "p:kprobes/do_sys_openat2 do_sys_openat2\n",
		  "e2e: fallback defines the kprobe event");
	check_str(get("set_event"),
		  "sched:sched_switch\nsys_sync\nkprobes:myopen\nkprobes:do_sys_openat2\n",
		  "e2e: fallback enables the new event as kprobes:NAME");
	check_str(err,
		  "kmark: 'do_sys_openat2' is not a marker; defined kprobe event 'kprobes:do_sys_openat2' on do_sys_openat2 and enabled it\n",
		  "e2e: fallback says what it chose");

	check_ll(run("enable", "sched_clock_tick", NULL), 0,
		 "e2e: clone fallback exits 0");
	check_has(get("kprobe_events"),
		  "p:kprobes/sched_clock_tick sched_clock_tick.part.0\n",
		  "e2e: clone fallback probes the clone symbol");
	check_has(err, "compiler clone", "e2e: clone fallback says so");

	put("kprobe_events", "");
	check_ll(run("enable", "--no-fallback", "do_sys_openat2", NULL), 4,
		 "e2e: --no-fallback refuses a function (exit 4)");
	check_str(get("kprobe_events"), "", "e2e: --no-fallback defines nothing");

	/* a kernel without kprobe events (KPROBES=n): no kprobe_events */
	unlink_in("kprobe_events");
	check_ll(run("enable", "do_sys_openat2", NULL), 4,
		 "e2e: no kprobe_events: a function is refused (exit 4)");
	check_has(err, "no marker 'do_sys_openat2', and this kernel has no kprobe events",
		  "e2e: ... and kmark says the kernel has no kprobe events");
	check_ll(run("probe", "p:x foo", NULL), 1,
		 "e2e: no kprobe_events: kmark probe exits 1");
	check_has(err, "this kernel has no kprobe events",
		  "e2e: ... and says why");
	check_ll(run("reset", NULL), 0,
		 "e2e: no kprobe_events: reset still exits 0");
	check_ll(run("enable", "sys_sync", NULL), 0,
		 "e2e: no kprobe_events: a marker is enabled all the same");
	/* and no kallsyms either (KALLSYMS=n): MODULE:NAME still goes in */
	snprintf(path, sizeof(path), "%s/no-such-kallsyms", dir);
	setenv("KMARK_KALLSYMS", path, 1);
	check_ll(run("enable", "nosuchmod:nosuch", NULL), 0,
		 "e2e: no kallsyms: MODULE:NAME is written to set_event (exit 0)");
	check_str(err, "kmark: module nosuchmod is not loaded; 'nosuchmod:nosuch' waits for it in set_event and takes effect when it loads\n",
		  "e2e: ... and nothing complains of the missing kallsyms");
	snprintf(path, sizeof(path), "%s/kallsyms", fixtures);
	setenv("KMARK_KALLSYMS", path, 1);
	put("kprobe_events", "");

	check_ll(run("enable", "do_int3", NULL), 4,
		 "e2e: blacklisted function exits 4");
	check_has(err, "on the kprobe blacklist",
		  "e2e: blacklist found next to the control dir");
	check_ll(count_lines(err), 1, "e2e: refusal is one line");

	check_ll(run("enable", "context_switch", NULL), 4,
		 "e2e: inlined function exits 4");
	check_has(err, "inlined", "e2e: not-found message mentions inlining");
	check_has(err, "did you mean sched_switch?",
		  "e2e: not-found message suggests markers");

	put("set_event", "");
	check_ll(run("disable", "sys_sync", "kprobes:myopen", NULL), 0,
		 "e2e: disable exits 0");
	check_str(get("set_event"), "!sys_sync\n!kprobes:myopen\n",
		  "e2e: disable appends !NAME");
}

static void test_probe(void)
{
	char path[256];

	put("kprobe_events", "p:kprobes/old foo\n");
	check_ll(run("probe", "p:myopen do_sys_openat2 dfd=%di", NULL), 0,
		 "e2e: probe exits 0");
	check_str(get("kprobe_events"),
		  "p:kprobes/old foo\np:myopen do_sys_openat2 dfd=%di\n",
		  "e2e: probe appends the definition");

	snprintf(path, sizeof(path), "%s/kprobe_events", dir);
	unlink(path);
	if (symlink("/dev/full", path))
		perror("symlink");
	check_ll(run("probe", "p:bad foo", NULL), 1,
		 "e2e: rejected probe exits 1");
	check_has(err, "No space left on device",
		  "e2e: rejected probe prints the errno text");
	check_has(err,
		  "[   12.345678] kmark: error: Unknown marker or event\n"
		  "  Command: foo_bar\n"
		  "           ^\n",
		  "e2e: rejected probe prints the last error_log entry");
	check(err && !strstr(err, "[   10.000000]"),
	      "e2e: older error_log entries are not printed");
	unlink(path);
	put("kprobe_events", "p:kprobes/old foo\n");
}

static const char mod_markers[] =
	"sched:sched_switch prev_comm=%s prev_pid=%d\n"
	"kmark_sample:kmark_sample_step step=%d of=%d comm=%s [kmark_sample]\n"
	"kmark_sample:kmark_sample_done  [kmark_sample]\n";

static void test_modules_list(void)
{
	put("set_event", "kmark_sample:kmark_sample_step\nmydrv:mydrv_*\n");
	check_ll(run("list", NULL), 0, "e2e: modules: list exits 0");
	check_str(out,
		  "EVENT                           MODULE        TYPE       STATE     FIELDS\n"
		  "sched:sched_switch              -             marker     disabled  prev_comm=%s prev_pid=%d\n"
		  "kmark_sample:kmark_sample_step  kmark_sample  marker     enabled   step=%d of=%d comm=%s\n"
		  "kmark_sample:kmark_sample_done  kmark_sample  marker     disabled  -\n"
		  "mydrv:mydrv_*                   mydrv         marker     pending   (waits for module mydrv)\n",
		  "e2e: modules: list has the MODULE column and the waiting token");
	run("list", "kmark_sample:*", NULL);
	check_ll(count_lines(out), 3, "e2e: modules: list 'MODULE:*'");
	run("list", "sched:", NULL);
	check_ll(count_lines(out), 2, "e2e: modules: list 'SYS:'");
	run("list", "*:*_done", NULL);
	check_has(out, "\nkmark_sample:kmark_sample_done  ", "e2e: modules: list '*:NAME'");
	run("list", "mydrv:*", NULL);
	check_has(out, "pending", "e2e: modules: list 'MODULE:*' of a waiting token");
	run("list", "-e", NULL);
	check_ll(count_lines(out), 3, "e2e: modules: list -e: enabled and pending");
	check_ll(run("list", "other:*", NULL), 4,
		 "e2e: modules: list of a module with nothing exits 4");
}

static void test_modules_enable(void)
{
	put("set_event", "");
	put("kprobe_events", "");
	check_ll(run("enable", "kmark_sample:*", "kmark_sample:kmark_sample_done",
		     NULL), 0, "e2e: modules: enable 'MODULE:*', MODULE:NAME");
	check_str(get("set_event"), "kmark_sample:*\nkmark_sample:kmark_sample_done\n",
		  "e2e: modules: written as given");
	check_str(err, "", "e2e: modules: nothing said");

	check_ll(run("enable", "mydrv:mydrv_irq", NULL), 0,
		 "e2e: modules: enable MODULE:NAME of a module not loaded exits 0");
	check_has(get("set_event"), "\nmydrv:mydrv_irq\n",
		  "e2e: modules: it is written to set_event");
	check_has(err, "module mydrv is not loaded; 'mydrv:mydrv_irq' waits for it",
		  "e2e: modules: it says it waits for the module");
	run("enable", "-q", "--no-fallback", "mydrv:*", NULL);
	check_str(err, "", "e2e: modules: -q says nothing about waiting");

	check_ll(run("enable", "kmark_sample:kmark_sample_work", NULL), 0,
		 "e2e: modules: MOD:SYM kprobe fallback exits 0");
	check_str(get("kprobe_events"),
		  "p:kprobes/kmark_sample_work kmark_sample:kmark_sample_work\n",
		  "e2e: modules: the probe is defined on MOD:SYM");
	check_has(get("set_event"), "\nkprobes:kmark_sample_work\n",
		  "e2e: modules: and enabled");
	check_has(err, "defined kprobe event 'kprobes:kmark_sample_work' on kmark_sample:kmark_sample_work",
		  "e2e: modules: it says so");

	put("kprobe_events", "");
	check_ll(run("enable", "other_fn", NULL), 0,
		 "e2e: modules: plain name of a module function exits 0");
	check_str(get("kprobe_events"), "p:kprobes/other_fn otherdrv:other_fn\n",
		  "e2e: modules: probed as MOD:SYM (re-armed on reload)");

	check_ll(run("enable", "otherdrv:nosuch", NULL), 4,
		 "e2e: modules: unknown name of a loaded module exits 4");
	check_has(err, "module otherdrv has no function 'nosuch'",
		  "e2e: modules: the refusal names the module");
	check_ll(run("enable", "kmark_sample:zz*", NULL), 4,
		 "e2e: modules: glob of a loaded module matching nothing exits 4");
}

static void test_modules_disable(void)
{
	char *am = xmalloc(sizeof(mod_markers) + 64);

	sprintf(am, "%skprobes:kmark_sample_work [kprobe]\n", mod_markers);
	put("available_markers", am);
	free(am);
	put("set_event", "");
	check_ll(run("disable", "kmark_sample:kmark_sample_step", "mydrv:*",
		     "kmark_sample:kmark_sample_work", NULL), 0,
		 "e2e: modules: disable exits 0");
	check_str(get("set_event"),
		  "!kmark_sample:kmark_sample_step\n!mydrv:*\n!kprobes:kmark_sample_work\n",
		  "e2e: modules: disable MODULE:NAME, globs, MOD:SYM's kprobe event");
	check_str(err, "", "e2e: modules: disable says nothing");

	/* the kernel keeps a token when its module is loaded */
	put("set_event", "kmark_sample:kmark_sample_step\n");
	check_ll(run("disable", "kmark_sample:kmark_sample_step", NULL), 0,
		 "e2e: modules: disable of a kept token exits 0");
	check_has(err, "warning: 'kmark_sample:kmark_sample_step' still waits in set_event",
		  "e2e: modules: disable warns about the token left");
}

static void test_modules(void)
{
	char ks[256], fix[256];
	char *saved_kp = xstrdup(get("kprobe_events"));

	snprintf(ks, sizeof(ks), "%s/kallsyms", root);
	{
		FILE *f = fopen(ks, "w");

		fputs("ffffffff81234560 T do_sys_openat2\n"
		      "ffffffffc0001000 t kmark_sample_work\t[kmark_sample]\n"
		      "ffffffffc0002000 t other_fn\t[otherdrv]\n", f);
		fclose(f);
	}
	setenv("KMARK_KALLSYMS", ks, 1);
	put("available_markers", mod_markers);

	test_modules_list();
	test_modules_enable();
	test_modules_disable();

	snprintf(fix, sizeof(fix), "%s/kallsyms", fixtures);
	setenv("KMARK_KALLSYMS", fix, 1);
	put_fixture("available_markers", "available_markers");
	put("kprobe_events", saved_kp);
	free(saved_kp);
}

static void test_stream(void)
{
	check_ll(run("stream", "--pretty", NULL), 0, "e2e: stream exits 0");
	check(out && !strncmp(out,
		"[   4.512345] CPU1: sh (72) switching to swapper/1 (0)\n", 55),
	      "e2e: stream --pretty renders sched_switch");
	check_has(out, "4.600000: sys_sync: \n",
		  "e2e: stream --pretty prints other events as-is");
	check(out && !strstr(out, "# tracer"), "e2e: stream skips headers");
	check_str(err, "kmark: 6 events, 42 lost\n",
		  "e2e: stream summary with lost events");

	run("stream", "-p", "80", NULL);
	check_ll(count_lines(out), 3,
		 "e2e: stream -p 80: 2 switch events + lost record");
	check_str(err, "kmark: 2 events, 42 lost\n", "e2e: stream -p summary");

	run("stream", "-c", "ping pong", NULL);
	check_str(err, "kmark: 2 events, 42 lost\n",
		  "e2e: stream -c with a space in the comm");

	check_ll(run("stream", "-n", "1", NULL), 0, "e2e: stream -n exits 0");
	check_ll(count_lines(out), 1, "e2e: stream -n 1 prints one event");
	check_str(err, "", "e2e: no summary without loss or interruption");
}

static void test_record_reset_stats(void)
{
	char path[256], *rec, *fix, *body;

	put("set_event", "");
	put("tracing_on", "0\n");
	snprintf(path, sizeof(path), "%s/rec.txt", root);
	check_ll(run("record", "-o", path, "sys_sync", "sched_switch", NULL), 0,
		 "e2e: record exits 0");
	rec = slurp(path);
	fix = fixture("trace_basic.txt");
	check(rec && !strncmp(rec, "# tracer: kmark\n", 16),
	      "e2e: record starts FILE with the trace file's header");
	/* then trace_pipe, as it is */
	body = rec && strlen(rec) >= strlen(fix) ?
	       rec + strlen(rec) - strlen(fix) : rec;
	check_str(body, fix, "e2e: record copies trace_pipe to FILE");
	free(rec);
	free(fix);
	check_str(get("set_event"),
		  "sys_sync\nsched_switch\n!sys_sync\n!sched_switch\n",
		  "e2e: record enables then disables its events");
	check_str(get("trace"), "\n", "e2e: record clears the buffer");
	check_str(get("tracing_on"), "1\n", "e2e: record turns tracing on");
	check_has(err, "recorded 6 events, 42 lost",
		  "e2e: record summary on stderr");

	check_ll(run("report", path, NULL), 0, "e2e: report exits 0");
	check_has(out, "     80  ping pong      0.000100        1        1        1        1\n",
		  "e2e: report of the recording");

	check_ll(run("stats", NULL), 0, "e2e: stats exits 0");
	check_has(out, " CPU  ENTRIES  OVERRUN  COMMIT-OVERRUN",
		  "e2e: stats table header");
	check(out && strstr(out, "\n   0 ") && strstr(out, "\n   5 ") &&
	      strstr(out, "\n  10 ") &&
	      strstr(out, "\n   5 ") < strstr(out, "\n  10 "),
	      "e2e: stats rows for all CPUs in numeric order");
	check_has(out, "4.512345", "e2e: stats shows oldest event ts");
	check_has(out, "tracing_on: 1\n", "e2e: stats shows tracing_on");
	check_has(out, "buffer_size_kb: 1408", "e2e: stats shows buffer size");

	put("set_event", "sched:sched_switch\n");
	put("tracing_on", "0\n");
	put("trace", "old\n");
	check_ll(run("reset", NULL), 0, "e2e: reset exits 0");
	check_str(get("set_event"), "\n", "e2e: reset truncates set_event");
	check_str(get("kprobe_events"), "\n", "e2e: reset truncates kprobe_events");
	check_str(get("trace"), "\n", "e2e: reset clears the buffer");
	check_str(get("tracing_on"), "1\n", "e2e: reset sets tracing_on to 1");
}

/*
 * -B NAME and "kmark instance". The fake directory is plain files: the
 * kernel's side (instances/NAME/ appearing after "echo NAME > new",
 * errno values of refused writes) is simulated by the test, as the
 * check names say.
 */
static void mkdir_in(const char *name)
{
	char path[256];

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	mkdir(path, 0755);
}

static void link_in(const char *name, const char *target)
{
	char path[256];

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	unlink(path);
	if (symlink(target, path))
		perror("symlink");
}

/* what the kernel makes for instance NAME (simulated) */
static void make_instance(const char *name)
{
	char p[128];

	snprintf(p, sizeof(p), "instances/%s", name);
	mkdir_in(p);
	snprintf(p, sizeof(p), "instances/%s/set_event", name);
	put(p, "");
	snprintf(p, sizeof(p), "instances/%s/trace", name);
	put(p, "s1 old trace\n");
	snprintf(p, sizeof(p), "instances/%s/tracing_on", name);
	put(p, "0\n");
	snprintf(p, sizeof(p), "instances/%s/buffer_size_kb", name);
	put(p, "64\n");
	snprintf(p, sizeof(p), "instances/%s/error_log", name);
	put(p, "");
	snprintf(p, sizeof(p), "instances/%s/trace_pipe", name);
	put(p, "            sync-90      [003] .....     7.000001: sys_sync: \n");
	snprintf(p, sizeof(p), "instances/%s/per_cpu", name);
	mkdir_in(p);
	snprintf(p, sizeof(p), "instances/%s/per_cpu/cpu3", name);
	mkdir_in(p);
	snprintf(p, sizeof(p), "instances/%s/per_cpu/cpu3/stats", name);
	put(p, "entries: 77\noverrun: 0\n");
}

static void test_instance_cmd(void)
{
	put("set_event", "sched_switch\n");
	/* a kernel without instances: no instances/ */
	check_ll(run_nodir("-d", dir, "-B", "s1", "list", NULL), 5,
		 "e2e: -B on a kernel without instances/ exits 5");
	check_has(err, "has no instances", "e2e: ... and says so");
	check_ll(run("instance", "list", NULL), 5,
		 "e2e: instance list without instances/ exits 5");

	mkdir_in("instances");
	put("instances/new", "");
	put("instances/remove", "");
	check_ll(run_nodir("-d", dir, "-B", "s1", "enable", "sys_sync", NULL), 5,
		 "e2e: -B of a missing instance exits 5");
	check_has(err, "no instance 's1'", "e2e: ... names the instance");
	check_has(err, "create it with 'kmark instance new s1'",
		  "e2e: ... and how to create it");
	check_ll(count_lines(err), 1, "e2e: ... in one line");
	check_str(get("set_event"), "sched_switch\n",
		  "e2e: ... and writes nothing to the top set_event");
	check_ll(run("enable", "-B", "s1", "sys_sync", NULL), 5,
		 "e2e: -B after the command name: the same check");
	check_ll(run_nodir("-d", dir, "-B", "../kmark", "list", NULL), 2,
		 "e2e: -B with a '/' in the name is a usage error");
	check_ll(run_nodir("-d", dir, "--instance", "new", "list", NULL), 2,
		 "e2e: --instance new (reserved) is a usage error");
	check_ll(run_nodir("-d", dir, "-B", "a", "list", "-B", "b", NULL), 2,
		 "e2e: two different instances are a usage error");

	check_ll(run("instance", "new", "s1", NULL), 0,
		 "e2e: instance new s1 exits 0");
	check_str(get("instances/new"), "s1\n",
		  "e2e: instance new s1 writes 's1' to instances/new");
	check_ll(run("instance", "list", NULL), 0,
		 "e2e: instance list exits 0 (none yet: the test has not simulated the kernel's directory)");
	check_str(out, "", "e2e: instance list prints nothing without instance directories");
	/* simulate the kernel: instances/s1/ and instances/a.b/ appear */
	make_instance("s1");
	make_instance("a.b");
	put("instances/s1/set_event", "sys_sync\nsched_wakeup\n");
	check_ll(run("instance", "list", NULL), 0,
		 "e2e: instance list exits 0 (directories made by the test)");
	check_str(out, "a.b\ns1\n",
		  "e2e: instance list: the directories, sorted, not new/remove");
	run("instance", "list", "-l", NULL);
	check_str(out,
		  "INSTANCE  SET_EVENT  TRACING_ON\n"
		  "a.b               0  0\n"
		  "s1                2  0\n",
		  "e2e: instance list -l: set_event lines and tracing_on");
	put("instances/s1/set_event", "");

	check_ll(run("-B", "s1", "instance", "list", NULL), 2,
		 "e2e: -B with instance is a usage error");
	check_ll(run("instance", NULL), 2, "e2e: instance without subcommand exits 2");
	check_ll(run("instance", "bogus", NULL), 2,
		 "e2e: instance with an unknown subcommand exits 2");
	check_ll(run("instance", "new", NULL), 2,
		 "e2e: instance new without a name exits 2");

	/* refusals (the kernel's errno simulated): the top error_log */
	link_in("instances/new", "/dev/full");
	check_ll(run("instance", "new", "s9", NULL), 1,
		 "e2e: instance new refused (ENOSPC, simulated with /dev/full) exits 1");
	check_has(err, "cannot create instance 's9': No space left on device",
		  "e2e: ... says which and why");
	check_has(err, "  Command: foo_bar\n",
		  "e2e: ... and prints the top error_log's last entry");
	link_in("instances/remove", "/nonexistent/remove");
	check_ll(run("instance", "remove", "nosuch", NULL), 5,
		 "e2e: instance remove failing with ENOENT (simulated: a dangling symlink) exits 5");
	unlink_in("instances/new");
	unlink_in("instances/remove");
	put("instances/new", "");
	put("instances/remove", "");
	check_ll(run("instance", "remove", "a.b", NULL), 0,
		 "e2e: instance remove a.b exits 0");
	check_str(get("instances/remove"), "a.b\n",
		  "e2e: instance remove writes the name to instances/remove");

	/* the tracefs copy: no new/remove files, mkdir and rmdir */
	unlink_in("instances/new");
	unlink_in("instances/remove");
	{
		char path[256];
		struct stat st;

		snprintf(path, sizeof(path), "%s/instances/t2", dir);
		check_ll(run("instance", "new", "t2", NULL), 0,
			 "e2e: instance new t2 without instances/new exits 0");
		check(!stat(path, &st) && S_ISDIR(st.st_mode),
		      "e2e: ... and made instances/t2 with mkdir (tracefs)");
		check_ll(run("instance", "new", "t2", NULL), 1,
			 "e2e: instance new of an existing one (EEXIST) exits 1");
		check_has(err, "cannot create instance 't2': File exists",
			  "e2e: ... and says why");
		check_ll(run("instance", "remove", "t2", NULL), 0,
			 "e2e: instance remove t2 exits 0");
		check(stat(path, &st) && errno == ENOENT,
		      "e2e: ... and removed instances/t2 with rmdir");
		check_ll(run("instance", "remove", "t2", NULL), 5,
			 "e2e: instance remove of a missing one (ENOENT) exits 5");
	}
	put("instances/new", "");
	put("instances/remove", "");
}

static void test_instance_b(void)
{
	put("set_event", "sched_switch\n");
	put("kprobe_events", "");
	put("trace", "top trace\n");
	put("tracing_on", "0\n");

	check_ll(run("-B", "s1", "enable", "sys_sync", NULL), 0,
		 "e2e: -B s1 enable exits 0");
	check_ll(run("enable", "--instance", "s1", "sched_wakeup", NULL), 0,
		 "e2e: enable --instance s1 (after the command) exits 0");
	check_str(get("instances/s1/set_event"), "sys_sync\nsched_wakeup\n",
		  "e2e: -B s1 enable writes the instance's set_event");
	check_str(get("set_event"), "sched_switch\n",
		  "e2e: ... not the top's");
	check_ll(run("-B", "s1", "enable", "do_sys_openat2", NULL), 0,
		 "e2e: -B s1 enable with kprobe fallback exits 0");
	check_str(get("kprobe_events"), "p:kprobes/do_sys_openat2 do_sys_openat2\n",
		  "e2e: ... defines the kprobe in the top kprobe_events");
	check_str(get("instances/s1/set_event"),
		  "sys_sync\nsched_wakeup\nkprobes:do_sys_openat2\n",
		  "e2e: ... and enables it in the instance");
	check_str(get("set_event"), "sched_switch\n",
		  "e2e: ... and not at the top");

	put("instances/s1/set_event", "syscalls:sys_sync\n");
	check_ll(run("-B", "s1", "list", NULL), 0, "e2e: -B s1 list exits 0");
	check_has(out, "sched:sched_switch  -       marker     disabled",
		  "e2e: -B s1 list: STATE from the instance (sched_switch on at the top only)");
	check_has(out, "syscalls:sys_sync   -       marker     enabled   -\n",
		  "e2e: -B s1 list: sys_sync enabled in the instance");
	check_has(out, "kprobes:myopen", "e2e: -B s1 list: events from the top available_markers");
	run("-B", "s1", "list", "-e", NULL);
	check_ll(count_lines(out), 2, "e2e: -B s1 list -e: the instance's one event");

	check_ll(run("-B", "s1", "disable", "sys_sync", NULL), 0,
		 "e2e: -B s1 disable exits 0");
	check_str(get("instances/s1/set_event"), "syscalls:sys_sync\n!sys_sync\n",
		  "e2e: -B s1 disable writes the instance's set_event");
	check_str(get("set_event"), "sched_switch\n", "e2e: ... not the top's");

	/* failed writes: the error_log of the directory written to */
	put("instances/s1/error_log",
	    "[   20.000000] kmark: error: Unknown marker or event\n"
	    "  Command: in_s1\n"
	    "           ^\n");
	link_in("instances/s1/set_event", "/dev/full");
	check_ll(run("-B", "s1", "enable", "sys_sync", NULL), 1,
		 "e2e: -B s1: a refused set_event write exits 1");
	check_has(err, "  Command: in_s1\n",
		  "e2e: ... and prints the instance's error_log entry");
	check(err && !strstr(err, "foo_bar"), "e2e: ... not the top's");
	unlink_in("instances/s1/set_event");
	put("instances/s1/set_event", "");
	link_in("kprobe_events", "/dev/full");
	check_ll(run("-B", "s1", "enable", "do_sys_openat2", NULL), 1,
		 "e2e: -B s1: a refused kprobe_events write exits 1");
	check_has(err, "  Command: foo_bar\n",
		  "e2e: ... and prints the top error_log entry (kprobes log there)");
	unlink_in("kprobe_events");
	put("kprobe_events", "p:kprobes/do_sys_openat2 do_sys_openat2\n");
	put("instances/s1/set_event", "");

	check_ll(run("-B", "s1", "stream", NULL), 0, "e2e: -B s1 stream exits 0");
	check_str(out, "            sync-90      [003] .....     7.000001: sys_sync: \n",
		  "e2e: -B s1 stream reads the instance's trace_pipe");

	check_ll(run("-B", "s1", "stats", NULL), 0, "e2e: -B s1 stats exits 0");
	check(out && strstr(out, "\n   3 ") && !strstr(out, "\n   0 ") &&
	      strstr(out, "77"),
	      "e2e: -B s1 stats: the instance's per_cpu (CPU 3 only)");
	check_has(out, "tracing_on: 0\nbuffer_size_kb: 64 (per CPU)\n",
		  "e2e: -B s1 stats: the instance's tracing_on and buffer_size_kb");

	{
		char path[256], *rec;

		snprintf(path, sizeof(path), "%s/s1.txt", root);
		check_ll(run("-B", "s1", "record", "-o", path, "sys_sync", NULL), 0,
			 "e2e: -B s1 record exits 0");
		rec = slurp(path);
		check_has(rec, "7.000001: sys_sync: \n",
			  "e2e: -B s1 record copies the instance's trace_pipe");
		free(rec);
	}
	check_str(get("instances/s1/set_event"), "sys_sync\n!sys_sync\n",
		  "e2e: -B s1 record enables and disables in the instance");
	check_str(get("instances/s1/trace"), "\n",
		  "e2e: -B s1 record clears the instance's buffer");
	check_str(get("instances/s1/tracing_on"), "1\n",
		  "e2e: -B s1 record turns the instance's tracing on");
	check_str(get("trace"), "top trace\n", "e2e: ... the top's buffer untouched");
	check_str(get("tracing_on"), "0\n", "e2e: ... the top's tracing_on untouched");
	check_str(get("set_event"), "sched_switch\n", "e2e: ... the top's set_event untouched");

	put("instances/s1/set_event", "sys_sync\n");
	put("instances/s1/trace", "old\n");
	put("instances/s1/tracing_on", "0\n");
	check_ll(run("-B", "s1", "reset", NULL), 0, "e2e: -B s1 reset exits 0");
	check_str(get("instances/s1/set_event"), "\n",
		  "e2e: -B s1 reset truncates the instance's set_event");
	check_str(get("instances/s1/trace"), "\n",
		  "e2e: -B s1 reset clears the instance's buffer");
	check_str(get("instances/s1/tracing_on"), "1\n",
		  "e2e: -B s1 reset sets the instance's tracing_on");
	check_str(get("kprobe_events"), "p:kprobes/do_sys_openat2 do_sys_openat2\n",
		  "e2e: -B s1 reset keeps the kprobe definitions (shared)");
	check_str(get("set_event"), "sched_switch\n",
		  "e2e: -B s1 reset leaves the top's set_event");
	check_str(get("trace"), "top trace\n", "e2e: -B s1 reset leaves the top's buffer");

	check_ll(run("-B", "s1", "probe", "p:x foo", NULL), 0,
		 "e2e: -B s1 probe exits 0");
	check_has(get("kprobe_events"), "\np:x foo\n",
		  "e2e: -B s1 probe defines in the top kprobe_events");
}

static void test_instances(void)
{
	check_ll(run_nodir("--help", NULL), 0, "e2e: --help exits 0");
	check_has(out, "-B, --instance NAME", "e2e: --help documents -B");
	check_has(out, "  instance  ", "e2e: --help lists the instance command");
	check_has(out, "  5  no such instance", "e2e: --help documents exit 5");
	test_instance_cmd();
	test_instance_b();
}

static void cleanup(void)
{
	char cmd[160];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	if (system(cmd))
		fprintf(stderr, "cannot remove %s\n", root);
	get("trace");		/* frees the static buffer */
	free(out);
	free(err);
}

void test_e2e(void)
{
	setup();
	test_help();
	test_list();
	test_enable_disable();
	test_probe();
	test_modules();
	test_stream();
	test_record_reset_stats();
	test_instances();
	cleanup();
}

// SPDX-License-Identifier: GPL-2.0
/*
 * The binary format: print fmt evaluation, ring-buffer pages, and
 * "kmark record -o FILE.dat" on a fake control directory made of real
 * captures (fixtures/raw-ARCH: events/, cpuN.raw read from trace_pipe_raw,
 * and trace.txt, the kernel's text of the same records; raw-ARCH-ids also
 * saved_comms, their records name their task by common_comm_id). The trace.dat is
 * then read back by kmark itself and checked with trace-cmd, KernelShark's
 * libkshark and traceshark by tests/datcheck.py, whose lines become checks
 * here.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "datfile.h"
#include "evfmt.h"
#include "proc.h"
#include "rbpage.h"
#include "strlist.h"
#include "test.h"
#include "util_read.h"

/* --- print fmt ---------------------------------------------------------------- */

static const char switch_fmt[] =
	"name: sched_switch\n"
	"ID: 27\n"
	"format:\n"
	"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
	"\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"
	"\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n"
	"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n"
	"\tfield:char common_comm[16];\toffset:8;\tsize:16;\tsigned:0;\n"
	"\n"
	"\tfield:char prev_comm[16];\toffset:24;\tsize:16;\tsigned:0;\n"
	"\tfield:int prev_pid;\toffset:40;\tsize:4;\tsigned:1;\n"
	"\tfield:long prev_state;\toffset:48;\tsize:8;\tsigned:1;\n"
	"\n"
	"print fmt: \"prev_comm=%s prev_pid=%d prev_state=%s%s\", "
	"REC->prev_comm, REC->prev_pid, "
	"(REC->prev_state & ((((0x00000000 | 0x00000001 | 0x00000002 | "
	"0x00000004 | 0x00000008 | 0x00000010 | 0x00000020 | 0x00000040) + 1) "
	"<< 1) - 1)) ? __print_flags(REC->prev_state & ((((0x00000000 | "
	"0x00000001 | 0x00000002 | 0x00000004 | 0x00000008 | 0x00000010 | "
	"0x00000020 | 0x00000040) + 1) << 1) - 1), \"|\", { 0x00000001, \"S\" }, "
	"{ 0x00000002, \"D\" }, { 0x00000004, \"T\" }, { 0x00000008, \"t\" }, "
	"{ 0x00000010, \"X\" }, { 0x00000020, \"Z\" }, { 0x00000040, \"P\" }, "
	"{ 0x00000080, \"I\" }) : \"R\", REC->prev_state & (((0x00000000 | "
	"0x00000001 | 0x00000002 | 0x00000004 | 0x00000008 | 0x00000010 | "
	"0x00000020 | 0x00000040) + 1) << 1) ? \"+\" : \"\"\n";

static void put_le(unsigned char *p, unsigned long long v, int n)
{
	while (n--) {
		*p++ = (unsigned char)v;
		v >>= 8;
	}
}

static void render_state(const struct ef_event *ev, long long state,
			 const char *exp)
{
	unsigned char rec[56] = { 0 };
	struct ef_buf b = { 0 };
	char name[64];

	memcpy(rec + 24, "bash", 5);
	put_le(rec + 40, 42, 4);
	put_le(rec + 48, (unsigned long long)state, 8);
	ef_render(ev, rec, sizeof(rec), 8, &b);
	snprintf(name, sizeof(name), "dat: ftrace's prev_state expression, %#llx",
		 (unsigned long long)state);
	check_str(b.s, exp, "%s", name);
	eb_free(&b);
}

/* a one-field event "e" with print fmt fmt; the value at offset 24 */
static void expr(const char *fmt, const char *type, unsigned int size,
		 bool sgn, unsigned long long v, const char *exp)
{
	char text[1024];
	unsigned char rec[40] = { 0 };
	struct ef_event ev;
	struct ef_buf b = { 0 };

	snprintf(text, sizeof(text),
		 "name: e\nID: 1\nformat:\n"
		 "\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n\n"
		 "\tfield:%s v;\toffset:24;\tsize:%u;\tsigned:%d;\n\n"
		 "print fmt: %s\n", type, size, sgn, fmt);
	put_le(rec + 24, v, (int)size);
	if (ef_parse_format(text, &ev)) {
		check(false, "dat: format of %s parses", fmt);
		return;
	}
	ef_render(&ev, rec, sizeof(rec), 4, &b);
	check_str(b.s, exp, "dat: print fmt %s (v=%#llx)", fmt, v);
	eb_free(&b);
	ef_event_free(&ev);
}

static void test_print_fmt(void)
{
	struct ef_event ev;
	struct ef_header h;

	check_ll(ef_parse_format(switch_fmt, &ev), 0,
		 "dat: ftrace's sched_switch format parses");
	check(ev.fmt_ok, "dat: its print fmt is understood");
	check_ll(ev.nfields, 8, "dat: 8 fields");
	check(ev.fields[4].common && !ev.fields[5].common &&
	      ev.fields[5].string && ev.fields[7].is_signed,
	      "dat: common fields, char array, signed long");
	render_state(&ev, 0, "prev_comm=bash prev_pid=42 prev_state=R");
	render_state(&ev, 1, "prev_comm=bash prev_pid=42 prev_state=S");
	render_state(&ev, 0x82, "prev_comm=bash prev_pid=42 prev_state=D|I");
	render_state(&ev, 0x100, "prev_comm=bash prev_pid=42 prev_state=R+");
	render_state(&ev, 0x101, "prev_comm=bash prev_pid=42 prev_state=S+");
	ef_event_free(&ev);

	expr("\"v=%d\", REC->v", "int", 4, true, 0xffffffff, "v=-1");
	/* adjacent literals, as ftrace's kernel_stack has them */
	expr("\"v=\" \"%d\"  \"!\", REC->v", "int", 4, true, 5, "v=5!");
	expr("\"v=%u\", REC->v", "int", 4, true, 0xffffffff, "v=4294967295");
	expr("\"v=%lx\", REC->v", "unsigned long", 4, false, 0xdeadbeef,
	     "v=deadbeef");
	expr("\"v=%03d|%-4d|%+d\", REC->v, REC->v, REC->v", "int", 4, true, 7,
	     "v=007|7   |+7");
	expr("\"v=%d\", (REC->v + 2) * 3 - 1 << 1", "int", 4, true, 1, "v=16");
	expr("\"v=%d\", REC->v > 3 && REC->v != 5 || !REC->v", "int", 4, true,
	     4, "v=1");
	expr("\"v=%d\", REC->v > 3 && REC->v != 5 || !REC->v", "int", 4, true,
	     5, "v=0");
	expr("\"v=%d\", (int)(unsigned char)REC->v", "int", 4, true, 0x1ff,
	     "v=255");
	expr("\"v=%s\", __print_symbolic(REC->v, { 1, \"one\" }, { 2, \"two\" })",
	     "int", 4, true, 2, "v=two");
	expr("\"v=%s\", __print_symbolic(REC->v, { 1, \"one\" })", "int", 4, true,
	     9, "v=0x9");
	expr("\"v=%s\", __print_flags(REC->v, \",\", { 1, \"A\" }, { 4, \"C\" })",
	     "int", 4, true, 0x15, "v=A,C,0x10");
	expr("\"100%% v=%c\", REC->v", "char", 1, true, 'x', "100% v=x");
	expr("\"v=%s\", REC->v ? \"yes\" : \"no\"", "int", 4, true, 0, "v=no");
	/* not understood: field=value */
	expr("\"v=%d\", some_helper(REC->v)", "int", 4, true, 3, "v=3");
	expr("\"v=%d\", REC->nosuchfield", "int", 4, true, 3, "v=3");

	check_ll(ef_parse_header_page(
			 "\tfield: u64 timestamp;\toffset:0;\tsize:8;\tsigned:0;\n"
			 "\tfield: local_t commit;\toffset:8;\tsize:4;\tsigned:1;\n"
			 "\tfield: int overwrite;\toffset:8;\tsize:1;\tsigned:1;\n"
			 "\tfield: char data;\toffset:12;\tsize:4084;\tsigned:0;\n",
			 &h), 0, "dat: i386 header_page parses");
	check(h.commit_size == 4 && h.data_offset == 12 && h.page_size == 4096,
	      "dat: i386 page: 4-byte commit, data at 12, 4096 bytes");
	check_ll(ef_parse_header_page("\tfield: char data;\toffset:12;\tsize:4084;\n",
				      &h), -1,
		 "dat: a header_page without commit is refused");
}

/* --- ring-buffer pages -------------------------------------------------------- */

static void test_pages(void)
{
	static unsigned char page[4096];
	struct ef_header h = { 4096, 8, 16 };
	unsigned char *d = page + 16;
	struct rb_page pg;
	struct rb_rec r;
	size_t n = 0;

	memset(page, 0, sizeof(page));
	put_le(page, 1000, 8);			/* page timestamp */
	put_le(d + n, 2 | 5 << 5, 4);		/* 8-byte data, delta 5 */
	put_le(d + n + 4, 0x1111, 4);
	put_le(d + n + 8, 0x2222, 4);
	n += 12;
	put_le(d + n, 30 | 7 << 5, 4);		/* time extend: 2 << 27 | 7 */
	put_le(d + n + 4, 2, 4);
	n += 8;
	put_le(d + n, 29 | 1 << 5, 4);		/* padding of 8 bytes */
	put_le(d + n + 4, 8, 4);
	n += 12;
	put_le(d + n, 0, 4);			/* type_len 0: length word */
	put_le(d + n + 4, 4 + 200, 4);
	n += 8 + 200;
	put_le(page + 8, n | 1ULL << 31 | 1ULL << 30, 8);	/* lost, stored */
	put_le(d + n, 77, 8);

	check(rb_page_init(&pg, page, &h), "dat: crafted page accepted");
	check_ll((long long)pg.lost, 77, "dat: lost events stored after data");
	check(rb_page_next(&pg, &r) && r.ts == 1005 && r.len == 8 &&
	      ef_read_uint(r.data, 4) == 0x1111, "dat: small record");
	check(rb_page_next(&pg, &r) && r.ts == 1005 + (2ULL << 27 | 7) &&
	      r.len == 200, "dat: time extend, padding, long record");
	check(!rb_page_next(&pg, &r) && !pg.corrupt, "dat: end of page");

	put_le(d + 12 + 8 + 12 + 4, 4 + 4000, 4);	/* runs past commit */
	rb_page_init(&pg, page, &h);
	while (rb_page_next(&pg, &r))
		;
	check(pg.corrupt, "dat: a record past the commit is caught");
	put_le(page + 8, 5000, 8);
	check(!rb_page_init(&pg, page, &h),
	      "dat: a commit beyond the page is refused");
}

/* --- record, read back, tools ------------------------------------------------- */

static char *read_all(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *buf;
	long n;

	if (!f)
		return NULL;
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	rewind(f);
	buf = xmalloc((size_t)n + 1);
	if (fread(buf, 1, (size_t)n, f) != (size_t)n)
		n = 0;
	buf[n] = '\0';
	fclose(f);
	if (len)
		*len = (size_t)n;
	return buf;
}

static void copy_file(const char *from, const char *to)
{
	size_t len;
	char *buf = read_all(from, &len);
	FILE *f = fopen(to, "wb");

	if (!buf || !f || fwrite(buf, 1, len, f) != len) {
		fprintf(stderr, "cannot copy %s to %s\n", from, to);
		abort();
	}
	fclose(f);
	free(buf);
}

/* "recorded N events, 0 lost": N the event lines of fixtures/raw-ARCH */
static void recorded_msg(const char *arch, char *buf, size_t size)
{
	char path[512], *txt, *p;
	int n = 0;

	snprintf(path, sizeof(path), "%s/raw-%s/trace.txt", fixtures, arch);
	txt = read_all(path, NULL);
	for (p = txt; p && *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : "")
		n += *p != '#' && *p != '\n';
	free(txt);
	snprintf(buf, size, "recorded %d events, 0 lost", n);
}

/* fixtures/raw-ARCH as a control directory: events/ and trace_pipe_raw */
static void make_ctl(struct scratch *s, const char *arch)
{
	char from[512], to[512], cmd[1200];
	char *txt, *p, *body;
	int cpu;

	scratch_setup(s);
	snprintf(cmd, sizeof(cmd), "cp -r '%s/raw-%s/events' '%s/'", fixtures,
		 arch, s->dir);
	if (system(cmd))
		abort();
	for (cpu = 0; cpu < 2; cpu++) {
		snprintf(to, sizeof(to), "%s/per_cpu/cpu%d", s->dir, cpu);
		mkdir(to, 0755);
		snprintf(from, sizeof(from), "%s/raw-%s/cpu%d.raw", fixtures,
			 arch, cpu);
		snprintf(to, sizeof(to), "%s/per_cpu/cpu%d/trace_pipe_raw",
			 s->dir, cpu);
		copy_file(from, to);
	}
	/* the table of task names, which common_comm_id points into */
	snprintf(from, sizeof(from), "%s/raw-%s/saved_comms", fixtures, arch);
	if (access(from, F_OK) == 0) {
		snprintf(to, sizeof(to), "%s/saved_comms", s->dir);
		copy_file(from, to);
	}
	/* trace_pipe: the same records as text (no header) */
	snprintf(from, sizeof(from), "%s/raw-%s/trace.txt", fixtures, arch);
	txt = read_all(from, NULL);
	body = txt;
	while ((p = body) && *p == '#')
		body = strchr(p, '\n') ? strchr(p, '\n') + 1 : p + strlen(p);
	scratch_put(s, "trace_pipe", body, strlen(body));
	free(txt);
}

/* fixtures/raw-ARCH's pages as trace_pipe_raw again */
static void make_ctl_pages(struct scratch *s, const char *arch)
{
	char from[512], to[512];
	int cpu;

	for (cpu = 0; cpu < 2; cpu++) {
		snprintf(from, sizeof(from), "%s/raw-%s/cpu%d.raw", fixtures,
			 arch, cpu);
		snprintf(to, sizeof(to), "%s/per_cpu/cpu%d/trace_pipe_raw",
			 s->dir, cpu);
		copy_file(from, to);
	}
}

struct lines {
	struct strlist l;
	struct ef_buf b;
	const struct dat_file *df;
};

static int collect(const struct dat_rec *r, void *arg)
{
	struct lines *ls = arg;

	eb_reset(&ls->b);
	dat_line(ls->df, r, &ls->b);
	sl_push(&ls->l, ls->b.s);
	return 0;
}

/* a symbol (%pS) in the kernel's text is an address in ours */
static bool same_but_symbols(const char *exp, const char *got)
{
	const char *e = strchr(exp, '('), *g = strchr(got, '(');

	return e && g && e - exp == g - got && !strncmp(exp, got, (size_t)(e - exp));
}

static void test_read_back(const char *arch, const char *dat,
			   const char *txt_path)
{
	char err[256], *txt = read_all(txt_path, NULL), *line, *save = NULL;
	struct lines ls = { 0 };
	struct dat_file df;
	size_t i = 0, exact = 0, sym = 0, bad = 0;

	if (!check(!dat_open(dat, &df, err, sizeof(err)),
		   "dat %s: kmark opens its trace.dat", arch)) {
		printf("#   %s\n", err);
		free(txt);
		return;
	}
	check(df.ncpus == 2 &&
	      df.long_size == (strncmp(arch, "i386", 4) ? 8 : 4) &&
	      !strcmp(df.clock, "local"),
	      "dat %s: 2 CPUs, the target's long size, clock local", arch);
	ls.df = &df;
	check_ll(dat_each(&df, collect, &ls, err, sizeof(err)), 0,
		 "dat %s: every page reads", arch);
	for (line = strtok_r(txt, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		if (line[0] == '#')
			continue;
		if (i < ls.l.n && !strcmp(line, ls.l.v[i]))
			exact++;
		else if (i < ls.l.n && same_but_symbols(line, ls.l.v[i]))
			sym++;
		else if (!bad++)
			printf("#   text: '%s'\n#   dat:  '%s'\n", line,
			       i < ls.l.n ? ls.l.v[i] : "(none)");
		i++;
	}
	check(!bad && i == ls.l.n && exact > sym,
	      "dat %s: kmark renders every record as the kernel's text (%zu exact, %zu with symbols as addresses)",
	      arch, exact, sym);
	sl_free(&ls.l);
	eb_free(&ls.b);
	dat_close(&df);
	free(txt);
}

/* run tests/datcheck.py; each of its lines becomes a check */
/*
 * Run @cmd, a viewer check (tests/datcheck.py), and make each of its
 * "ok - " / "not ok - " lines a check of ours when @checks (else print it as
 * a diagnostic). "ok - NAME  # SKIP WHY" is a failure here: on these
 * fixtures every viewer check applies. Returns whether the command passed
 * as a whole: at least one line, none failed or skipped, exit status 0;
 * @n: its lines.
 */
static bool tap_lines(const char *cmd, bool checks, int *n)
{
	char line[4096];
	int bad = 0, rc;
	FILE *p = popen(cmd, "r");

	*n = 0;
	if (!p)
		return false;
	while (fgets(line, sizeof(line), p)) {
		bool ok = !strncmp(line, "ok - ", 5), skip;

		line[strcspn(line, "\n")] = '\0';
		if (!ok && strncmp(line, "not ok - ", 9)) {
			printf("%s%s\n", line[0] == '#' ? "" : "# ", line);
			continue;
		}
		skip = ok && strstr(line, "  # SKIP ");
		(*n)++;
		bad += !ok || skip;
		if (checks)
			check(ok && !skip, "dat: %s%s", line + (ok ? 5 : 9),
			      skip ? " (skipped: every check applies here)" : "");
		else
			printf("# %s\n", line);
	}
	rc = pclose(p);
	return *n > 0 && !bad && rc != -1 && WIFEXITED(rc) &&
	       WEXITSTATUS(rc) == 0;
}

static void run_datcheck(const char *args)
{
	char cmd[2048];
	bool ok;
	int n;

	snprintf(cmd, sizeof(cmd), "python3 '%s/../datcheck.py' %s 2>&1",
		 fixtures, args);
	ok = tap_lines(cmd, true, &n);
	check(ok, "dat: datcheck.py ran %d checks, none failed or skipped, exit status 0",
	      n);
}

/* tap_lines()'s verdict on canned viewer checks. */
static void test_tap_verdict(void)
{
	int n;

	check(tap_lines("printf 'ok - a\\nok - b\\n'", false, &n) && n == 2,
	      "dat: a viewer check whose lines pass and that exits 0 passes");
	check(!tap_lines("printf 'ok - a\\n'; exit 3", false, &n),
	      "dat: a viewer check that exits 3 after its ok lines fails");
	check(!tap_lines("printf 'ok - a\\nok - b  # SKIP why\\n'", false, &n),
	      "dat: a viewer check with a skip fails");
	check(!tap_lines("printf 'ok - a\\nnot ok - b  # why\\n'", false, &n),
	      "dat: a viewer check with a failure fails");
	check(!tap_lines("echo nothing", false, &n),
	      "dat: a viewer check without a result fails");
}

/*
 * qemu-tests/dat_check.py, the host side of the guest test: a console log
 * with a KMARK-DAT block (base64 of a gzip'ed tar) made from this
 * recording, kernel messages around it and inside it.
 */
static void test_dat_check(const char *arch, const char *root,
			   const char *dat, const char *fix, const char *err)
{
	char cmd[2048], line[4096], blk[300], log[300];
	int ok = 0, bad = 0, rc;
	bool summary = false;
	FILE *p;

	snprintf(blk, sizeof(blk), "%s/blk", root);
	snprintf(log, sizeof(log), "%s/console.log", root);
	mkdir(blk, 0755);
	snprintf(cmd, sizeof(cmd), "%s/trace.dat", blk);
	copy_file(dat, cmd);
	snprintf(cmd, sizeof(cmd), "%s/trace.txt", blk);
	copy_file(fix, cmd);
	snprintf(cmd, sizeof(cmd), "%s/record.err", blk);
	p = fopen(cmd, "w");
	if (p) {
		fputs(err ? err : "", p);
		fclose(p);
	}
	snprintf(cmd, sizeof(cmd),
		 "{ echo '[    1.000000] booting'; echo 'KMARK-DAT-BEGIN same'; "
		 "(cd '%s' && tar -czf - *) | base64 | "
		 "awk 'NR == 3 { print \"[    2.000000] random: crng init done\r\" } "
		 "{ print $0 \"\\r\" }'; echo 'KMARK-DAT-END same'; } > '%s'",
		 blk, log);
	if (system(cmd)) {
		check(false, "dat %s: build a console log", arch);
		return;
	}
	snprintf(cmd, sizeof(cmd),
		 "python3 '%s/../../../qemu-tests/dat_check.py' '%s' '%s' --no-traceshark 2>&1",
		 fixtures, arch, log);
	p = popen(cmd, "r");
	if (!p)
		return;
	while (fgets(line, sizeof(line), p)) {
		char pre[64], end[64];

		line[strcspn(line, "\n")] = '\0';
		snprintf(pre, sizeof(pre), "[%s] ", arch);
		snprintf(end, sizeof(end), "%s dat: ", arch);
		if (!strncmp(line, pre, strlen(pre))) {
			const char *l = line + strlen(pre);

			ok += !strncmp(l, "ok ", 3);
			/* a skip too: every check applies to this log */
			bad += !strncmp(l, "not ok ", 7) || !strncmp(l, "skip ", 5);
			if (strncmp(l, "ok ", 3))
				printf("# %s\n", line);
		}
		if (!strncmp(line, end, strlen(end)))
			summary = true;
	}
	rc = pclose(p);
	check(ok > 30 && !bad && summary && rc == 0,
	      "dat %s: qemu-tests/dat_check.py on a console log made from it: %d ok, %d not ok",
	      arch, ok, bad);
}

static void test_arch(const char *arch)
{
	char dat[300], txt[300], rep[300], args[1200], fix[512];
	struct proc_result r;
	struct scratch s;
	char *a, *b, *sa, *sb, *rec_err, msg[64];

	make_ctl(&s, arch);
	scratch_put(&s, "set_event", "", 0);
	snprintf(dat, sizeof(dat), "%s/%s.dat", s.root, arch);
	snprintf(fix, sizeof(fix), "%s/raw-%s/trace.txt", fixtures, arch);
	{
		const char *const argv[] = { "-d", s.dir, "record", "-o", dat,
					     "sched_switch", "sys_sync", NULL };

		proc_run(&r, s.root, NULL, NULL, argv);
	}
	check_ll(r.rc, 0, "dat %s: record -o FILE.dat exits 0", arch);
	recorded_msg(arch, msg, sizeof(msg));
	check_has(r.err, msg, "dat %s: record counts the events of the pages",
		  arch);
	rec_err = r.err;
	r.err = NULL;
	proc_result_free(&r);
	a = slurp(scratch_path(&s, "set_event"));
	check_str(a, "sched_switch\nsys_sync\n!sched_switch\n!sys_sync\n",
		  "dat %s: record enables then disables its events", arch);
	free(a);

	test_read_back(arch, dat, fix);

	/* -S: the pages through splice(): the same file */
	{
		char sdat[300];
		size_t la = 0, lb = 0;
		const char *const argv[] = { "-d", s.dir, "record", "-S", "-o",
					     sdat, "sched_switch", "sys_sync",
					     NULL };

		snprintf(sdat, sizeof(sdat), "%s/%s-splice.dat", s.root, arch);
		make_ctl_pages(&s, arch);
		proc_run(&r, s.root, NULL, NULL, argv);
		check_ll(r.rc, 0, "dat %s: record -S (splice) exits 0", arch);
		proc_result_free(&r);
		a = read_all(dat, &la);
		b = read_all(sdat, &lb);
		check(a && b && la == lb && !memcmp(a, b, la),
		      "dat %s: record -S writes the same trace.dat, byte for byte",
		      arch);
		free(a);
		free(b);
	}

	/*
	 * Into a FIFO: the pages cannot be copied in the kernel there
	 * (copy_file_range() fails), so they go through read and write:
	 * the same bytes.
	 */
	{
		char cmd[1500], fifo[300], piped[300];
		size_t la = 0, lb = 0;

		snprintf(fifo, sizeof(fifo), "%s/fifo", s.root);
		snprintf(piped, sizeof(piped), "%s/piped.dat", s.root);
		snprintf(cmd, sizeof(cmd),
			 "mkfifo '%s' && { cat '%s' > '%s' & "
			 "'%s' -d '%s' record -F dat -o '%s' sched_switch sys_sync "
			 "2>/dev/null; r=$?; wait; exit $r; }",
			 fifo, fifo, piped, kmark_bin, s.dir, fifo);
		check_ll(system(cmd), 0, "dat %s: record -o FIFO exits 0", arch);
		a = read_all(dat, &la);
		b = read_all(piped, &lb);
		check(a && b && la == lb && la > 4096 && !memcmp(a, b, la),
		      "dat %s: the trace.dat written into a FIFO is the file's, byte for byte",
		      arch);
		free(a);
		free(b);
	}

	/* kmark report: the same for the trace.dat and the text */
	{
		const char *const av1[] = { "report", dat, NULL };
		const char *const av2[] = { "report", fix, NULL };

		snprintf(rep, sizeof(rep), "%s/rep", s.root);
		proc_run(&r, s.root, NULL, NULL, av1);
		a = r.out;
		r.out = NULL;
		check_ll(r.rc, 0, "dat %s: report FILE.dat exits 0", arch);
		proc_result_free(&r);
		proc_run(&r, s.root, NULL, NULL, av2);
		b = r.out;
		r.out = NULL;
		sa = a ? strchr(a, '\n') : NULL;
		sb = b ? strchr(b, '\n') : NULL;
		check(sa && sb && !strcmp(sa, sb),
		      "dat %s: report of FILE.dat == report of the kernel's text (but the title)",
		      arch);
		proc_result_free(&r);
		free(a);
		free(b);
	}

	/*
	 * trace-cmd's own files of the same records, version 6 and 7
	 * (uncompressed): kmark report reads them as its own.
	 */
	{
		static const char *const ver[] = { "6", "7" };
		char conv[300], cmd[1200];
		size_t k;

		for (k = 0; k < 2; k++) {
			const char *const av[] = { "report", conv, NULL };
			const char *const av0[] = { "report", dat, NULL };

			snprintf(conv, sizeof(conv), "%s/conv%s.dat", s.root, ver[k]);
			snprintf(cmd, sizeof(cmd),
				 "trace-cmd convert --file-version %s --compression none -i '%s' -o '%s' > /dev/null 2>&1",
				 ver[k], dat, conv);
			if (!check(!system(cmd), "dat %s: trace-cmd convert --file-version %s",
				   arch, ver[k]))
				continue;
			proc_run(&r, s.root, NULL, NULL, av);
			a = r.out;
			r.out = NULL;
			proc_result_free(&r);
			proc_run(&r, s.root, NULL, NULL, av0);
			b = r.out;
			r.out = NULL;
			proc_result_free(&r);
			sa = a ? strchr(a, '\n') : NULL;
			sb = b ? strchr(b, '\n') : NULL;
			check(sa && sb && !strcmp(sa, sb),
			      "dat %s: kmark report of trace-cmd's version %s file == of kmark's",
			      arch, ver[k]);
			free(a);
			free(b);
		}
	}

	/* the tools users open it in */
	snprintf(args, sizeof(args), "--label '%s' --traceshark '%s' '%s'", arch,
		 dat, fix);
	run_datcheck(args);
	test_dat_check(arch, s.root, dat, fix, rec_err);
	free(rec_err);

	/* Perfetto: the kernel's text, and the tool's text recording */
	snprintf(args, sizeof(args), "--text --label '%s trace.txt' '%s'", arch,
		 fix);
	run_datcheck(args);
	snprintf(txt, sizeof(txt), "%s/%s.txt", s.root, arch);
	{
		const char *const argv[] = { "-d", s.dir, "record", "-o", txt,
					     "sched_switch", NULL };

		proc_run(&r, s.root, NULL, NULL, argv);
		check_ll(r.rc, 0, "dat %s: record -o FILE.txt exits 0", arch);
		proc_result_free(&r);
	}
	snprintf(args, sizeof(args), "--text --label '%s record -o x.txt' '%s'",
		 arch, txt);
	run_datcheck(args);
	scratch_cleanup(&s);
}

static void test_errors(void)
{
	struct proc_result r;
	struct scratch s;
	char dat[300], path[300], msg[64];
	char *buf;
	size_t len;
	FILE *f;

	scratch_setup(&s);	/* no events/: no binary format */
	snprintf(dat, sizeof(dat), "%s/x.dat", s.root);
	{
		const char *const argv[] = { "-d", s.dir, "record", "-o", dat,
					     "sched_switch", NULL };

		proc_run(&r, s.root, NULL, NULL, argv);
	}
	check_ll(r.rc, 1, "dat: record -o x.dat without events/header_page exits 1");
	check_has(r.err, "events/header_page", "dat: ... and says why");
	proc_result_free(&r);
	{
		const char *const argv[] = { "-d", s.dir, "record", "-F", "xml",
					     "-o", dat, "sched_switch", NULL };

		proc_run(&r, s.root, NULL, NULL, argv);
	}
	check_ll(r.rc, 2, "dat: record -F xml is a usage error");
	proc_result_free(&r);
	scratch_cleanup(&s);

	/* --keep: the buffer and tracing_on are left alone */
	make_ctl(&s, "x86_64");
	scratch_put(&s, "trace", "old\n", 4);
	scratch_put(&s, "tracing_on", "0\n", 2);
	snprintf(dat, sizeof(dat), "%s/keep.dat", s.root);
	{
		const char *const argv[] = { "-d", s.dir, "record", "--keep",
					     "-o", dat, "sched_switch", NULL };

		proc_run(&r, s.root, NULL, NULL, argv);
	}
	check_ll(r.rc, 0, "dat: record --keep exits 0");
	recorded_msg("x86_64", msg, sizeof(msg));
	check_has(r.err, msg, "dat: record --keep records");
	proc_result_free(&r);
	buf = slurp(scratch_path(&s, "trace"));
	check_str(buf, "old\n", "dat: record --keep does not clear the buffer");
	free(buf);
	buf = slurp(scratch_path(&s, "tracing_on"));
	check_str(buf, "0\n", "dat: record --keep leaves tracing_on");
	free(buf);
	scratch_cleanup(&s);

	/* a truncated trace.dat */
	make_ctl(&s, "x86_64");
	snprintf(dat, sizeof(dat), "%s/x.dat", s.root);
	{
		const char *const argv[] = { "-d", s.dir, "record", "-o", dat,
					     "sched_switch", NULL };

		proc_run(&r, s.root, NULL, NULL, argv);
		proc_result_free(&r);
	}
	buf = read_all(dat, &len);
	snprintf(path, sizeof(path), "%s/cut.dat", s.root);
	f = fopen(path, "wb");
	if (buf && f)
		fwrite(buf, 1, len - 4096, f);
	if (f)
		fclose(f);
	free(buf);
	{
		const char *const argv[] = { "report", path, NULL };

		proc_run(&r, s.root, NULL, NULL, argv);
	}
	check_ll(r.rc, 1, "dat: report of a truncated trace.dat exits 1");
	check_has(r.err, "beyond the end of the file",
		  "dat: ... and says the data is missing");
	proc_result_free(&r);
	scratch_cleanup(&s);
}

/*
 * -B s1 record -o x.dat: the formats from the instance's events/ (a copy
 * of the top's: the kernel gives every instance its events/), saved_comms
 * from the top, the pages from the instance's per_cpu/ (moved there by
 * the test: the top has none).
 */
static void test_instance(void)
{
	char dat[300], from[300], to[300], msg[64], *buf;
	struct proc_result r;
	struct scratch s;

	make_ctl(&s, "x86_64");
	snprintf(to, sizeof(to), "%s/instances", s.dir);
	mkdir(to, 0755);
	snprintf(to, sizeof(to), "%s/instances/s1", s.dir);
	mkdir(to, 0755);
	snprintf(from, sizeof(from), "%s/per_cpu", s.dir);
	snprintf(to, sizeof(to), "%s/instances/s1/per_cpu", s.dir);
	if (rename(from, to))
		abort();
	snprintf(from, sizeof(from), "%s/events", s.dir);
	snprintf(to, sizeof(to), "%s/instances/s1/events", s.dir);
	if (rename(from, to))
		abort();
	scratch_put(&s, "instances/s1/set_event", "", 0);
	scratch_put(&s, "instances/s1/trace", "old\n", 4);
	scratch_put(&s, "instances/s1/tracing_on", "0\n", 2);
	scratch_put(&s, "set_event", "", 0);
	scratch_put(&s, "trace", "top\n", 4);
	snprintf(dat, sizeof(dat), "%s/s1.dat", s.root);
	{
		const char *const argv[] = { "-d", s.dir, "-B", "s1", "record",
					     "-o", dat, "sched_switch", NULL };

		proc_run(&r, s.root, NULL, NULL, argv);
	}
	check_ll(r.rc, 0, "dat: -B s1 record -o x.dat exits 0");
	recorded_msg("x86_64", msg, sizeof(msg));
	check_has(r.err, msg,
		  "dat: -B s1 record: the instance's per_cpu pages and formats");
	proc_result_free(&r);
	buf = slurp(scratch_path(&s, "instances/s1/set_event"));
	check_str(buf, "sched_switch\n!sched_switch\n",
		  "dat: -B s1 record enables and disables in the instance");
	free(buf);
	buf = slurp(scratch_path(&s, "set_event"));
	check_str(buf, "", "dat: -B s1 record leaves the top's set_event");
	free(buf);
	buf = slurp(scratch_path(&s, "trace"));
	check_str(buf, "top\n", "dat: -B s1 record leaves the top's buffer");
	free(buf);
	snprintf(from, sizeof(from), "%s/raw-x86_64/trace.txt", fixtures);
	test_read_back("x86_64 -B s1", dat, from);
	scratch_cleanup(&s);
}

static mode_t umask_get(void)
{
	mode_t m = umask(022);

	umask(m);
	return m;
}

/* --- -m, the counters, -b and -C: kmark record on synthetic pages ------------ */

/*
 * Page i of n (x86_64: 8-byte commit, data at 16): i + 1 sys_sync records
 * (id 32, 12 bytes, a 16-byte event with its header) of pid 100 + i, 1 us
 * apart, the page's time stamp 1 ms after the page before.
 */
static void sync_page(unsigned char *page, unsigned int i)
{
	unsigned long long ts = 1000000000ULL + i * 1000000ULL, commit = 0;
	unsigned int k;

	memset(page, 0, 4096);
	memcpy(page, &ts, 8);
	for (k = 0; k <= i; k++) {
		unsigned char *e = page + 16 + commit;
		unsigned int hdr = 3 | (k ? 1000 : 0) << 5, pid = 100 + i;
		unsigned short type = 32;

		memcpy(e, &hdr, 4);
		memcpy(e + 4, &type, 2);
		memcpy(e + 8, &pid, 4);
		commit += 16;
	}
	memcpy(page + 8, &commit, 8);
}

/*
 * A file at @path that reads @first once, then @second: a FIFO whose
 * writer, once the first reader has opened it, puts a regular file with
 * @second in its place (before it writes @first: any later open finds
 * the regular file, whenever it comes).
 */
static pid_t fifo_feeder(const char *path, const char *first,
			 const char *second)
{
	char next[512];
	FILE *f;
	pid_t pid;

	snprintf(next, sizeof(next), "%s.next", path);
	f = fopen(next, "w");
	if (!f || fputs(second, f) == EOF || fclose(f))
		abort();
	unlink(path);
	if (mkfifo(path, 0644))
		abort();
	pid = fork();
	if (!pid) {
		int fd = open(path, O_WRONLY);

		if (fd < 0 || rename(next, path) ||
		    write(fd, first, strlen(first)) < 0)
			_exit(1);
		close(fd);
		_exit(0);
	}
	return pid;
}

struct lost_seen {
	unsigned long long lost, events, first_lost_at;
	int pid[12];
	bool order_ok;
	unsigned long long last_ts;
};

static int see(const struct dat_rec *r, void *arg)
{
	struct lost_seen *ls = arg;

	if (r->cpu != 0)
		return 0;
	if (!r->ev && r->lost) {
		ls->lost += r->lost;
		ls->first_lost_at = ls->events;
		return 0;
	}
	if (r->ts < ls->last_ts)
		ls->order_ok = false;
	ls->last_ts = r->ts;
	if (r->len >= 12) {
		int pid;

		memcpy(&pid, r->data + 4, 4);
		if (pid >= 100 && pid < 112)
			ls->pid[pid - 100]++;
	}
	ls->events++;
	return 0;
}

static void test_rotation(void)
{
	static unsigned char pages[10][4096];
	char dat[300], path[300], msg[512], cmd[1000];
	struct lost_seen ls = { .order_ok = true };
	struct proc_result r;
	struct dat_file df;
	struct scratch s;
	pid_t feeder;
	bool timed_out;
	unsigned int i;
	char *buf;

	make_ctl(&s, "x86_64-ids");
	for (i = 0; i < 10; i++)
		sync_page(pages[i], i);
	scratch_put(&s, "per_cpu/cpu0/trace_pipe_raw", (char *)pages,
		    sizeof(pages));
	scratch_put(&s, "per_cpu/cpu1/trace_pipe_raw", "", 0);
	scratch_put(&s, "per_cpu/cpu1/stats", "read events: 0\nwritten: 0\n", 26);
	scratch_put(&s, "set_event", "", 0);
	/* the kernel's counters: 55 events read, 3 overwritten before */
	snprintf(path, sizeof(path), "%s/per_cpu/cpu0/stats", s.dir);
	feeder = fifo_feeder(path,
			     "read events: 0\noverrun: 0\ncommit overrun: 0\ndropped events: 0\nwritten: 0\n",
			     "read events: 55\noverrun: 3\ncommit overrun: 0\ndropped events: 0\nwritten: 58\n");
	snprintf(dat, sizeof(dat), "%s/rot.dat", s.root);
	{
		const char *const argv[] = { "-d", s.dir, "record", "-m", "16",
					     "-o", dat, "sys_sync", NULL };

		proc_run(&r, s.root, NULL, NULL, argv);
	}
	check_ll(wait_child(feeder, 5, &timed_out), 0,
		 "rotation: record read each CPU's counters at its start (and its end)");
	check_ll(r.rc, 0, "rotation: record -m 16 (4 pages per CPU) exits 0");
	check_has(r.err,
		  "kmark: CPU 0: 34 events, 16 KiB (4 pages); lost 24: 3 overwritten in the buffer before kmark read them (it was full: a larger -b helps); 21 recorded, then overwritten in the file by newer pages (-m)\n",
		  "rotation: the summary: the 4 newest pages kept, 21 events of the 6 older ones lost to -m, 3 lost in the kernel");
	check_has(r.err, "recorded 34 events, 24 lost, to ",
		  "rotation: the totals");
	check(r.err && !strstr(r.err, "CPU 1:"),
	      "rotation: a CPU with nothing is not in the summary");
	proc_result_free(&r);

	if (!check(!dat_open(dat, &df, msg, sizeof(msg)),
		   "rotation: kmark opens the trace.dat")) {
		printf("#   %s\n", msg);
	} else {
		check_ll(dat_each(&df, see, &ls, msg, sizeof(msg)), 0,
			 "rotation: every page reads");
		check(ls.events == 34 && ls.pid[6] == 7 && ls.pid[7] == 8 &&
		      ls.pid[8] == 9 && ls.pid[9] == 10 && !ls.pid[5] &&
		      ls.order_ok,
		      "rotation: the events of pages 6 to 9, oldest first");
		check(ls.lost == 21 && ls.first_lost_at == 0,
		      "rotation: the first page kept says 21 events were lost before it");
		dat_close(&df);
	}
	snprintf(cmd, sizeof(cmd),
		 "trace-cmd report -i '%s' 2>&1 | grep -c 'sys_sync'; "
		 "trace-cmd report -i '%s' 2>&1 | grep -c 'CPU:0 \\[21 EVENTS DROPPED\\]'",
		 dat, dat);
	{
		FILE *p = popen(cmd, "r");
		char line[64] = "", line2[64] = "";

		if (p) {
			if (!fgets(line, sizeof(line), p) ||
			    !fgets(line2, sizeof(line2), p))
				line[0] = '\0';
			pclose(p);
		}
		check(atoi(line) == 34 && atoi(line2) == 1,
		      "rotation: trace-cmd report: 34 events and 'CPU:0 [21 EVENTS DROPPED]' (got %d, %d)",
		      atoi(line), atoi(line2));
	}
	snprintf(cmd, sizeof(cmd), "ls '%s' | grep -c '\\.cpu[0-9]'", s.root);
	buf = NULL;
	{
		FILE *p = popen(cmd, "r");
		char line[32] = "";

		if (p) {
			if (!fgets(line, sizeof(line), p))
				line[0] = '\0';
			pclose(p);
		}
		check_ll(atoi(line), 0, "rotation: no CPU file left beside FILE");
	}
	free(buf);

	/* a FILE that cannot be written: exit 1, no CPU file left behind */
	{
		const char *const argv[] = { "-d", s.dir, "record", "-F", "dat",
					     "-o", "/dev/full", "sys_sync", NULL };

		setenv("TMPDIR", s.root, 1);
		make_ctl_pages(&s, "x86_64-ids");
		scratch_put(&s, "set_event", "", 0);
		proc_run(&r, s.root, NULL, NULL, argv);
		unsetenv("TMPDIR");
		check_ll(r.rc, 1, "record -o /dev/full exits 1");
		check_has(r.err, "cannot write /dev/full: No space left on device",
			  "record -o /dev/full: says why");
		proc_result_free(&r);
		buf = slurp(scratch_path(&s, "set_event"));
		check_str(buf, "sys_sync\n!sys_sync\n",
			  "record -o /dev/full: its events disabled again");
		free(buf);
		snprintf(cmd, sizeof(cmd), "ls '%s' | grep -c '^kmark-record\\.cpu'",
			 s.root);
		{
			FILE *p = popen(cmd, "r");
			char line[32] = "";

			if (p) {
				if (!fgets(line, sizeof(line), p))
					line[0] = '\0';
				pclose(p);
			}
			check(line[0] == '0',
			      "record -o /dev/full: its CPU files were in $TMPDIR, and are gone");
		}
		make_ctl_pages(&s, "x86_64-ids");
		scratch_put(&s, "per_cpu/cpu0/trace_pipe_raw", (char *)pages,
			    sizeof(pages));
		scratch_put(&s, "per_cpu/cpu1/trace_pipe_raw", "", 0);
	}

	/* -b and -C: set for the recording, set back after */
	scratch_put(&s, "per_cpu/cpu0/stats", "read events: 0\nwritten: 0\n", 26);
	scratch_put(&s, "buffer_size_kb", "1408\n", 5);
	scratch_put(&s, "trace_clock", "[local] global counter\n", 23);
	snprintf(dat, sizeof(dat), "%s/clk.dat", s.root);
	{
		const char *const argv[] = { "-d", s.dir, "record", "-b", "64",
					     "-C", "global", "-o", dat,
					     "sys_sync", NULL };

		proc_run(&r, s.root, NULL, NULL, argv);
	}
	check_ll(r.rc, 0, "record -b 64 -C global exits 0");
	check_has(r.err, "recorded 55 events, 0 lost",
		  "record -b -C: the events counted in the pages (the counters did not move)");
	proc_result_free(&r);
	if (!dat_open(dat, &df, msg, sizeof(msg))) {
		check_str(df.clock, "global",
			  "record -C global: the trace.dat says the clock it was recorded with");
		dat_close(&df);
	} else {
		check(false, "record -C global: the trace.dat opens (%s)", msg);
	}
	buf = slurp(scratch_path(&s, "trace_clock"));
	check_str(buf, "local\n", "record -C: the clock set back");
	free(buf);
	buf = slurp(scratch_path(&s, "buffer_size_kb"));
	check_str(buf, "1408\n", "record -b: the size set back");
	free(buf);
	{
		struct stat st;

		check(!stat(dat, &st) && (st.st_mode & 0777) == (0666 & ~umask_get()),
		      "record: FILE's mode is open()'s 0666 less the umask (%o)",
		      (unsigned int)(st.st_mode & 0777));
	}
	{
		const char *const argv[] = { "-d", s.dir, "record", "-m", "16",
					     "-F", "text", "-o", dat, "sys_sync",
					     NULL };

		proc_run(&r, s.root, NULL, NULL, argv);
		check_ll(r.rc, 2, "record -m with the text format: usage error");
		proc_result_free(&r);
	}
	scratch_cleanup(&s);
}

/*
 * record -o x.dat's task names: saved_cmdlines alone when saved_comms
 * says it is complete (the pages are not read again), the records' names
 * first when it does not say so. The counters move (a FIFO per CPU), so
 * nothing else asks for the records to be counted.
 */
static void test_cmdlines_source(void)
{
	static const char *const cmdlines = "1 init\n4242 kmark-only\n";
	int complete;

	for (complete = 1; complete >= 0; complete--) {
		char dat[300], path[300], msg[512];
		const char *what = complete ? "complete" : "not complete";
		pid_t feeder[2];
		struct proc_result r;
		struct dat_file df;
		struct scratch s;
		bool timed_out;
		char *comms;
		size_t len;
		int cpu;

		make_ctl(&s, "x86_64-ids");
		snprintf(path, sizeof(path), "%s/saved_comms", s.dir);
		comms = read_all(path, &len);
		if (!comms)
			abort();
		if (complete) {
			comms = realloc(comms, len + 64);
			if (!comms)
				abort();
			strcpy(comms + len, "# saved_cmdlines: complete\n");
		}
		scratch_put(&s, "saved_comms", comms, strlen(comms));
		free(comms);
		scratch_put(&s, "saved_cmdlines", cmdlines, strlen(cmdlines));
		for (cpu = 0; cpu < 2; cpu++) {
			snprintf(path, sizeof(path), "%s/per_cpu/cpu%d/stats",
				 s.dir, cpu);
			feeder[cpu] = fifo_feeder(path,
				"read events: 0\noverrun: 0\ncommit overrun: 0\ndropped events: 0\nwritten: 0\n",
				"read events: 1000\noverrun: 0\ncommit overrun: 0\ndropped events: 0\nwritten: 1000\n");
		}
		snprintf(dat, sizeof(dat), "%s/names.dat", s.root);
		{
			const char *const argv[] = { "-d", s.dir, "record", "-o",
						     dat, "sys_sync", NULL };

			proc_run(&r, s.root, NULL, NULL, argv);
		}
		for (cpu = 0; cpu < 2; cpu++)
			wait_child(feeder[cpu], 5, &timed_out);
		check_ll(r.rc, 0, "names (%s): record -o x.dat exits 0", what);
		proc_result_free(&r);
		if (!check(!dat_open(dat, &df, msg, sizeof(msg)),
			   "names (%s): kmark opens the trace.dat", what)) {
			printf("#   %s\n", msg);
			scratch_cleanup(&s);
			continue;
		}
		if (complete)
			check(df.ncmdlines == 2 && df.cmdlines[0].pid == 1 &&
			      !strcmp(df.cmdlines[0].comm, "init") &&
			      df.cmdlines[1].pid == 4242 &&
			      !strcmp(df.cmdlines[1].comm, "kmark-only"),
			      "names (complete): the cmdlines are saved_cmdlines' two lines, the pages not read for names (%zu lines)",
			      df.ncmdlines);
		else
			check(df.ncmdlines > 2,
			      "names (not complete): the records' tasks too (%zu lines)",
			      df.ncmdlines);
		dat_close(&df);
		scratch_cleanup(&s);
	}
}

void test_dat(void)
{
	test_tap_verdict();
	test_print_fmt();
	test_pages();
	test_arch("x86_64");
	test_arch("i386");
	test_arch("x86_64-ids");
	test_arch("i386-ids");
	test_errors();
	test_instance();
	test_rotation();
	test_cmdlines_source();
}

// SPDX-License-Identifier: GPL-2.0
/*
 * trace.dat version 6, as trace-cmd-output writes it (all numbers in the
 * file's endianness, which is the host's here: the tool runs on the
 * traced machine):
 *
 *   "\027\010\104tracing" "6\0" endian(1) long_size(1) page_size(4)
 *   "header_page\0" size(8) text   "header_event\0" size(8) text
 *   ftrace event formats: count(4) = 0
 *   systems: count(4), each: "name\0" count(4), each: size(8) format
 *   kallsyms: size(4) = 0   printk formats: size(4) = 0
 *   saved cmdlines: size(8) "pid comm\n"...
 *   cpus(4) "options  \0" {id(2) size(4) data}... id 0 (2); the one
 *   option is TRACECLOCK, "[local]\0"
 *   "flyrecord\0" {offset(8) size(8)} per CPU, then the trace clock
 *   size(8) "[local]" (present because of option TRACECLOCK), then each
 *   CPU's pages at a page-aligned offset.
 */
#define _GNU_SOURCE		/* copy_file_range() */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "datfile.h"
#include "kmark.h"
#include "rbpage.h"
#include "strlist.h"

#define OPT_DONE	0
#define OPT_TRACECLOCK	4
#define OPT_CPUCOUNT	8

__attribute__((format(printf, 3, 4)))
static int fail(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
	return -1;
}

static bool host_big_endian(void)
{
	const unsigned short one = 1;

	return *(const unsigned char *)&one == 0;
}

/* --- event formats of a control directory -------------------------------- */

struct fmt_file {
	char *system;
	char *text;
	size_t len;
	struct ef_event ev;
	bool parsed;
	/* FOO_pid / FOO_comm field pairs (indices) */
	int pairs[8][2];
	int npairs;
};

struct fmt_set {
	struct fmt_file *v;
	size_t n;
};

static int cmp_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* sorted names of the entries of path (no "." entries); NULL on error */
static char **list_dir(const char *path, size_t *n)
{
	DIR *d = opendir(path);
	struct dirent *de;
	char **v = NULL;
	size_t cnt = 0;

	*n = 0;
	if (!d)
		return NULL;
	while ((de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		v = xrealloc(v, (cnt + 1) * sizeof(*v));
		v[cnt++] = xstrdup(de->d_name);
	}
	closedir(d);
	qsort(v, cnt, sizeof(*v), cmp_names);
	*n = cnt;
	return v ? v : xmalloc(1);
}

static void free_list(char **v, size_t n)
{
	while (n)
		free(v[--n]);
	free(v);
}

static void find_pairs(struct fmt_file *f)
{
	const struct ef_event *ev = &f->ev;
	size_t i;

	for (i = 0; i < ev->nfields && f->npairs < 8; i++) {
		const struct ef_field *pf = &ev->fields[i];
		size_t len = strlen(pf->name);
		char comm[128];
		int c;

		if (pf->common || pf->string || len < 3 ||
		    strcmp(pf->name + len - 3, "pid") || len + 2 > 100)
			continue;
		if (len > 3 && pf->name[len - 4] != '_')
			continue;
		snprintf(comm, sizeof(comm), "%.*scomm", (int)(len - 3),
			 pf->name);
		c = ef_field_index(ev, comm);
		if (c < 0 || !ev->fields[c].string)
			continue;
		f->pairs[f->npairs][0] = (int)i;
		f->pairs[f->npairs][1] = c;
		f->npairs++;
	}
}

static void add_format(struct fmt_set *fs, const char *system,
		       const char *path)
{
	size_t len;
	char *text = read_file(path, &len);
	struct fmt_file *f;

	if (!text)
		return;
	fs->v = xrealloc(fs->v, (fs->n + 1) * sizeof(*fs->v));
	f = &fs->v[fs->n++];
	memset(f, 0, sizeof(*f));
	f->system = xstrdup(system);
	f->text = text;
	f->len = len;
	f->parsed = !ef_parse_format(text, &f->ev);
	if (f->parsed)
		find_pairs(f);
}

static char *join3(const char *a, const char *b, const char *c)
{
	size_t n = strlen(a) + strlen(b) + (c ? strlen(c) + 1 : 0) + 2;
	char *p = xmalloc(n);

	if (c)
		snprintf(p, n, "%s/%s/%s", a, b, c);
	else
		snprintf(p, n, "%s/%s", a, b);
	return p;
}

/* every events/SYS/NAME/format, with system SYS (its directory's name) */
static int load_formats(const char *events, struct fmt_set *fs, char *err,
			size_t errlen)
{
	size_t n, m, i, j;
	char **systems = list_dir(events, &n);

	if (!systems)
		return fail(err, errlen, "cannot read %s: %s", events,
			    strerror(errno));
	for (i = 0; i < n; i++) {
		char *sub = join3(events, systems[i], NULL), *fmt;
		char **names;
		struct stat st;

		if (stat(sub, &st) || !S_ISDIR(st.st_mode)) {
			free(sub);	/* enable, header_page, header_event */
			continue;
		}
		names = list_dir(sub, &m);
		for (j = 0; names && j < m; j++) {
			fmt = join3(sub, names[j], "format");
			if (!stat(fmt, &st) && S_ISREG(st.st_mode))
				add_format(fs, systems[i], fmt);
			free(fmt);
		}
		if (names)
			free_list(names, m);
		free(sub);
	}
	free_list(systems, n);
	return 0;
}

static void free_formats(struct fmt_set *fs)
{
	size_t i;

	for (i = 0; i < fs->n; i++) {
		free(fs->v[i].system);
		free(fs->v[i].text);
		ef_event_free(&fs->v[i].ev);
	}
	free(fs->v);
	memset(fs, 0, sizeof(*fs));
}

static const struct fmt_file *format_by_id(const struct fmt_set *fs,
					   unsigned int id)
{
	size_t i;

	for (i = 0; i < fs->n; i++)
		if (fs->v[i].parsed && fs->v[i].ev.id == id)
			return &fs->v[i];
	return NULL;
}

/* --- saved cmdlines ------------------------------------------------------ */

struct task {
	int pid;
	int prio;		/* 2: from common_comm, 1: FOO_comm field */
	unsigned long long ts;	/* of the record that gave comm */
	char comm[17];
};

struct task_map {
	struct task *v;
	size_t n, alloc;
	size_t *hash;		/* index + 1, open addressing */
	size_t hsize;
	size_t last;		/* index + 1 of the task noted last */
};

/* one line per task in saved cmdlines */
static void clean_comm(char *s)
{
	for (; *s; s++)
		if (*s == '\n')
			*s = '?';
}

static size_t pid_hash(int pid, size_t size)
{
	return ((size_t)(unsigned int)pid * 2654435761U) & (size - 1);
}

static void tm_rehash(struct task_map *tm)
{
	size_t i;

	free(tm->hash);
	tm->hsize = tm->hsize ? tm->hsize * 2 : 256;
	tm->hash = xmalloc(tm->hsize * sizeof(*tm->hash));
	memset(tm->hash, 0, tm->hsize * sizeof(*tm->hash));
	for (i = 0; i < tm->n; i++) {
		size_t h = pid_hash(tm->v[i].pid, tm->hsize);

		while (tm->hash[h])
			h = (h + 1) & (tm->hsize - 1);
		tm->hash[h] = i + 1;
	}
}

/*
 * One name per task: the latest one (a task that exec'ed changes it), from
 * common_comm when the task had a record, else from a FOO_comm field.
 */
static void tm_note(struct task_map *tm, int pid, const char *comm,
		    size_t len, int prio, unsigned long long ts)
{
	struct task *t;
	size_t h;

	if (pid <= 0 || !len)
		return;
	/* Records come in runs of one task: the last one first. */
	if (tm->last && tm->v[tm->last - 1].pid == pid) {
		t = &tm->v[tm->last - 1];
		goto found;
	}
	if ((tm->n + 1) * 2 > tm->hsize)
		tm_rehash(tm);
	for (h = pid_hash(pid, tm->hsize); tm->hash[h];
	     h = (h + 1) & (tm->hsize - 1)) {
		t = &tm->v[tm->hash[h] - 1];
		if (t->pid != pid)
			continue;
		tm->last = tm->hash[h];
		goto found;
	}
	if (tm->n == tm->alloc) {
		tm->alloc = tm->alloc ? tm->alloc * 2 : 64;
		tm->v = xrealloc(tm->v, tm->alloc * sizeof(*tm->v));
	}
	t = &tm->v[tm->n];
	t->pid = pid;
	t->prio = prio;
	t->ts = ts;
	strlcpy_n(t->comm, sizeof(t->comm), comm, len);
	clean_comm(t->comm);
	tm->hash[h] = ++tm->n;
	tm->last = tm->n;
	return;
found:
	if (prio < t->prio || (prio == t->prio && ts < t->ts))
		return;
	t->prio = prio;
	t->ts = ts;
	/* the same name again (the common case): nothing to copy */
	if (len < sizeof(t->comm) && !strncmp(t->comm, comm, len) &&
	    !t->comm[len])
		return;
	strlcpy_n(t->comm, sizeof(t->comm), comm, len);
	clean_comm(t->comm);
}

static int cmp_tasks(const void *a, const void *b)
{
	const struct task *x = a, *y = b;

	return (x->pid > y->pid) - (x->pid < y->pid);
}

/*
 * The control directory's saved_comms ("ID NAME" lines, then "# ..."
 * comments): the names that records with a common_comm_id hold. An id is
 * (era << 12) | slot: large, sparse numbers, several of them for one name.
 * Missing (a kmark whose records hold common_comm itself): no names.
 */
struct comm_id {
	unsigned int id;
	char name[17];
};

struct comm_ids {
	struct comm_id *v;	/* sorted by id */
	size_t n;
	/* saved_cmdlines names every pid that recorded (its own line) */
	bool cmdlines_complete;
};

static int cmp_comm_ids(const void *a, const void *b)
{
	const struct comm_id *x = a, *y = b;

	return (x->id > y->id) - (x->id < y->id);
}

static void load_comm_ids(const char *dir, struct comm_ids *ci)
{
	char *path = join3(dir, "saved_comms", NULL);
	size_t len = 0, alloc = 0;
	char *text = read_file(path, &len), *line, *next;

	memset(ci, 0, sizeof(*ci));
	free(path);
	for (line = text; line && *line; line = next) {
		unsigned long id;
		char *sp, *e;

		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		else
			next = line + strlen(line);
		if (!strcmp(line, "# saved_cmdlines: complete"))
			ci->cmdlines_complete = true;
		sp = strchr(line, ' ');
		if (*line == '#' || !sp)
			continue;
		*sp = '\0';
		errno = 0;
		id = strtoul(line, &e, 10);
		if (*e || errno || !id || id > 0xffffffffUL)
			continue;
		if (ci->n == alloc) {
			alloc = alloc ? alloc * 2 : 256;
			ci->v = xrealloc(ci->v, alloc * sizeof(*ci->v));
		}
		ci->v[ci->n].id = (unsigned int)id;
		strlcpy_n(ci->v[ci->n].name, sizeof(ci->v[ci->n].name), sp + 1,
			  strlen(sp + 1));
		ci->n++;
	}
	free(text);
	if (ci->n)
		qsort(ci->v, ci->n, sizeof(*ci->v), cmp_comm_ids);
}

/* the name of id, or NULL */
static const char *comm_id_name(const struct comm_ids *ci,
				unsigned long long id)
{
	struct comm_id key, *f;

	if (!ci->n || id > 0xffffffffULL)
		return NULL;
	key.id = (unsigned int)id;
	f = bsearch(&key, ci->v, ci->n, sizeof(*ci->v), cmp_comm_ids);
	return f && f->name[0] ? f->name : NULL;
}

static void note_record(struct task_map *tm, const struct fmt_set *fs,
			const struct comm_ids *ci, const struct rb_rec *r)
{
	const struct fmt_file *f;
	const struct ef_event *ev;
	unsigned long long pid, id;
	const char *comm;
	size_t clen;
	int i;

	if (r->len < 2)
		return;
	f = format_by_id(fs, (unsigned int)ef_read_uint(r->data, 2));
	if (!f)
		return;
	ev = &f->ev;
	if (ev->f_pid >= 0 && ev->f_comm >= 0 &&
	    ef_get_int(&ev->fields[ev->f_pid], r->data, r->len, &pid) &&
	    ef_get_str(&ev->fields[ev->f_comm], r->data, r->len, &comm, &clen))
		tm_note(tm, (int)pid, comm, clen, 2, r->ts);
	else if (ev->f_pid >= 0 && ev->f_comm_id >= 0 &&
		 ef_get_int(&ev->fields[ev->f_pid], r->data, r->len, &pid) &&
		 ef_get_int(&ev->fields[ev->f_comm_id], r->data, r->len, &id) &&
		 (comm = comm_id_name(ci, id)))
		tm_note(tm, (int)pid, comm, strlen(comm), 2, r->ts);
	for (i = 0; i < f->npairs; i++)
		if (ef_get_int(&ev->fields[f->pairs[i][0]], r->data, r->len,
			       &pid) &&
		    ef_get_str(&ev->fields[f->pairs[i][1]], r->data, r->len,
			       &comm, &clen))
			tm_note(tm, (int)pid, comm, clen, 1, r->ts);
}

/* --- writing ----------------------------------------------------------------- */

/* the metadata, built in memory: numbers in the host's byte order */
static void b_put(struct ef_buf *b, const void *p, size_t n)
{
	eb_putn(b, p, n);
}

static void b_u16(struct ef_buf *b, unsigned int v)
{
	unsigned short s = (unsigned short)v;

	b_put(b, &s, 2);
}

static void b_u32(struct ef_buf *b, unsigned int v)
{
	b_put(b, &v, 4);
}

static void b_u64(struct ef_buf *b, unsigned long long v)
{
	b_put(b, &v, 8);
}

static void b_str0(struct ef_buf *b, const char *s)
{
	b_put(b, s, strlen(s) + 1);
}

static void b_set_u64(struct ef_buf *b, size_t at, unsigned long long v)
{
	memcpy(b->s + at, &v, 8);
}

/* version 7 section ids (trace-cmd's TRACECMD_OPTION_*), option ids */
enum {
	DAT_OPT_DONE = 0,
	DAT_OPT_CPUSTAT = 2,
	DAT_OPT_BUFFER = 3,
	DAT_OPT_TRACECLOCK = 4,
	DAT_OPT_CPUCOUNT = 8,
	DAT_OPT_STRINGS = 15,
	DAT_OPT_HEADER_INFO = 16,
	DAT_OPT_FTRACE_EVENTS = 17,
	DAT_OPT_EVENT_FORMATS = 18,
	DAT_OPT_KALLSYMS = 19,
	DAT_OPT_PRINTK = 20,
	DAT_OPT_CMDLINES = 21,
};

/* the section descriptions, one strings section: their offsets in it */
static const char dat_strings[] =
	"buffer flyrecord \0headers\0ftrace events\0events\0kallsyms\0"
	"printk\0command lines\0options\0strings";

static unsigned int dat_string(const char *s)
{
	const char *p = dat_strings;

	while (strcmp(p, s))
		p += strlen(p) + 1;
	return (unsigned int)(p - dat_strings);
}

/*
 * A section header (id, flags 0, description, size); returns where its
 * size is, for dat_end_section().
 */
static size_t dat_section(struct ef_buf *b, unsigned int id, const char *desc)
{
	size_t at;

	b_u16(b, id);
	b_u16(b, 0);
	b_u32(b, dat_string(desc));
	at = b->len;
	b_u64(b, 0);
	return at;
}

static void dat_end_section(struct ef_buf *b, size_t at)
{
	b_set_u64(b, at, b->len - at - 8);
}

/*
 * "[local] global counter": the one in brackets; a file of one clock
 * without brackets: that one; no file: local.
 */
static void current_clock(const char *text, char *buf, size_t size)
{
	const char *b = text ? strchr(text, '[') : NULL;
	const char *e = b ? strchr(b, ']') : NULL;
	size_t n;

	if (e && e > b + 1) {
		strlcpy_n(buf, size, b + 1, (size_t)(e - b - 1));
		return;
	}
	n = text ? strcspn(text, " \t\n") : 0;
	if (!n || b)
		strlcpy_n(buf, size, "local", 5);
	else
		strlcpy_n(buf, size, text, n);
}

/* write all of buf at off of fd (pwrite), or where fd is when off < 0 */
static int put_at(int fd, const void *buf, size_t n, long long off)
{
	const char *p = buf;

	while (n) {
		ssize_t r = off < 0 ? write(fd, p, n) : pwrite(fd, p, n, off);

		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return r < 0 ? -errno : -EIO;
		p += r;
		n -= (size_t)r;
		if (off >= 0)
			off += r;
	}
	return 0;
}

/*
 * Copy len bytes of in from in_off to out at out_off (out_off < 0: where
 * out is): in the kernel where it can (copy_file_range(), one copy; none
 * on file systems that share extents), else through a buffer (a FIFO).
 */
static int copy_range(int in, unsigned long long in_off, int out,
		      long long out_off, unsigned long long len)
{
	static char buf[65536];

	while (len) {
		loff_t i = (loff_t)in_off, o = out_off;
		ssize_t r = copy_file_range(in, &i, out, out_off < 0 ? NULL : &o,
					    (size_t)len, 0);

		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;	/* not here (EXDEV, EINVAL, ENOSYS...) */
		in_off += (unsigned long long)r;
		len -= (unsigned long long)r;
		if (out_off >= 0)
			out_off += r;
	}
	while (len) {
		size_t want = len > sizeof(buf) ? sizeof(buf) : (size_t)len;
		ssize_t r = pread(in, buf, want, (off_t)in_off);
		int e;

		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return r < 0 ? -errno : -EIO;
		e = put_at(out, buf, (size_t)r, out_off);
		if (e)
			return e;
		in_off += (unsigned long long)r;
		len -= (unsigned long long)r;
		if (out_off >= 0)
			out_off += r;
	}
	return 0;
}

/* zeros up to @to when out is written in order */
static int pad_to(int out, unsigned long long *pos, unsigned long long to)
{
	static const char zero[4096];

	while (*pos < to) {
		unsigned long long n = to - *pos;
		int e = put_at(out, zero, n > sizeof(zero) ? sizeof(zero) :
				(size_t)n, -1);

		if (e)
			return e;
		*pos += n > sizeof(zero) ? sizeof(zero) : n;
	}
	return 0;
}

/*
 * CPU c's pages to out at off (or in order, off < 0): its pieces oldest
 * first; the first page marked with the events lost before it (-m).
 */
static int copy_cpu(const struct dat_cpu *c, const struct ef_header *h,
		    int out, long long off)
{
	unsigned int i;
	int e;

	for (i = 0; i < c->nseg; i++) {
		unsigned long long from = c->seg[i].off, len = c->seg[i].len;

		if (!len)
			continue;
		if (!i && c->lost && len >= h->page_size) {
			unsigned char *page = xmalloc(h->page_size);
			ssize_t r = pread(c->fd, page, h->page_size, (off_t)from);

			if (r != (ssize_t)h->page_size) {
				free(page);
				return r < 0 ? -errno : -EIO;
			}
			rb_page_mark_lost(page, h, c->lost);
			e = put_at(out, page, h->page_size, off);
			free(page);
			if (e)
				return e;
			from += h->page_size;
			len -= h->page_size;
			if (off >= 0)
				off += h->page_size;
		}
		if (c->fd == out && off == (long long)from) {
			off += (long long)len;	/* already in place */
			continue;
		}
		e = copy_range(c->fd, from, out, off, len);
		if (e)
			return e;
		if (off >= 0)
			off += (long long)len;
	}
	return 0;
}

/* read the pages of every CPU: cmdlines (when tm) and counts */
static int scan_pages(const struct ef_header *h, const struct fmt_set *fs,
		      const struct comm_ids *ci, const struct dat_cpu *src,
		      unsigned int ncpus, struct task_map *tm,
		      struct dat_info *info)
{
	unsigned char *page = xmalloc(h->page_size);
	unsigned int cpu, i;
	int ret = 0;

	for (cpu = 0; cpu < ncpus && !ret; cpu++) {
		for (i = 0; i < src[cpu].nseg && !ret; i++) {
			unsigned long long off, end;

			off = src[cpu].seg[i].off;
			end = off + src[cpu].seg[i].len;
			for (; off + h->page_size <= end; off += h->page_size) {
				struct rb_page pg;
				struct rb_rec r;
				ssize_t n = pread(src[cpu].fd, page, h->page_size,
						  (off_t)off);

				if (n != (ssize_t)h->page_size) {
					ret = n < 0 ? -errno : -EIO;
					break;
				}
				if (!rb_page_init(&pg, page, h)) {
					info->bad_pages++;
					continue;
				}
				if (pg.lost == ~0ULL)
					info->lost_unknown++;
				else
					info->lost += pg.lost;
				while (rb_page_next(&pg, &r)) {
					info->events++;
					info->cpu_events[cpu]++;
					if (tm)
						note_record(tm, fs, ci, &r);
				}
				if (pg.corrupt)
					info->bad_pages++;
			}
		}
	}
	free(page);
	return ret;
}

static int cmp_systems(const void *a, const void *b)
{
	const struct fmt_file *x = a, *y = b;
	int c = strcmp(x->system, y->system);

	return c ? c : strcmp(x->ev.name ? x->ev.name : "",
			      y->ev.name ? y->ev.name : "");
}

/* the event formats section's body: systems, each with its formats */
static void put_formats(struct ef_buf *b, const struct fmt_set *fs)
{
	size_t i, j, k, nsys = 0;

	for (i = 0; i < fs->n; i++)
		if (!i || strcmp(fs->v[i].system, fs->v[i - 1].system))
			nsys++;
	b_u32(b, (unsigned int)nsys);
	for (i = 0; i < fs->n; i = j) {
		for (j = i; j < fs->n && !strcmp(fs->v[j].system,
						fs->v[i].system); j++)
			;
		b_str0(b, fs->v[i].system);
		b_u32(b, (unsigned int)(j - i));
		for (k = i; k < j; k++) {
			b_u64(b, fs->v[k].len);
			b_put(b, fs->v[k].text, fs->v[k].len);
		}
	}
}

/* the cmdlines: saved_cmdlines' "pid comm" lines, or those of the scan */
static char *task_lines(struct task_map *tm, size_t *len)
{
	struct ef_buf b = { 0 };
	size_t i;

	eb_reset(&b);
	qsort(tm->v, tm->n, sizeof(*tm->v), cmp_tasks);
	for (i = 0; i < tm->n; i++)
		eb_printf(&b, "%d %s\n", tm->v[i].pid, tm->v[i].comm);
	*len = b.len;
	return b.s;
}

/*
 * The records' tasks, then the lines of saved_cmdlines (@cmd, freed; may
 * be NULL) whose pid no record named. A new string, its length in @len.
 */
static char *merge_cmdlines(struct task_map *tm, char *cmd, size_t *len)
{
	char *out = task_lines(tm, len), *line, *save = NULL;
	struct ef_buf b = { 0 };

	if (!cmd)
		return out;
	eb_reset(&b);
	eb_printf(&b, "%s", out ? out : "");
	free(out);
	for (line = strtok_r(cmd, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		struct task key = { .pid = atoi(line) };

		/* task_lines() sorted tm->v by pid */
		if (key.pid > 0 && !bsearch(&key, tm->v, tm->n, sizeof(*tm->v),
					    cmp_tasks))
			eb_printf(&b, "%s\n", line);
	}
	free(cmd);
	*len = b.len;
	return b.s;
}

/* the number of "pid comm" lines */
static unsigned int count_lines(const char *s, size_t len)
{
	unsigned int n = 0;
	size_t i;

	for (i = 0; i < len; i++)
		n += s[i] == '\n';
	return n;
}

int dat_write(const struct dat_write_args *a, struct dat_info *info,
	      char *err, size_t errlen)
{
	char *hp_path = join3(a->dir, "events", "header_page");
	char *he_path = join3(a->dir, "events", "header_event");
	char *events = join3(a->dir, "events", NULL);
	char *cl_path = join3(a->top, "saved_cmdlines", NULL);
	char *tc_path = join3(a->dir, "trace_clock", NULL);
	size_t hp_len = 0, he_len = 0, cmd_len = 0, at, i;
	char *hp = read_file(hp_path, &hp_len);
	int e = errno, ret = -1;
	char *he = hp ? read_file(he_path, &he_len) : NULL;
	char *cmd = read_file(cl_path, &cmd_len);
	char *tc = read_file(tc_path, NULL), clock[64];
	unsigned long long *size = NULL, *off = NULL, data_end, fly;
	unsigned long long opt_at[6], options, pos;
	struct fmt_set fs = { 0 };
	struct task_map tm = { 0 };
	struct ef_buf head = { 0 }, meta = { 0 };
	struct comm_ids ci;
	struct ef_header h;
	unsigned int cpu, first;

	memset(info, 0, sizeof(*info));
	info->ncpus = a->ncpus;
	info->cpu_events = xmalloc((a->ncpus + 1) * sizeof(*info->cpu_events));
	memset(info->cpu_events, 0, (a->ncpus + 1) * sizeof(*info->cpu_events));
	if (!hp) {
		fail(err, errlen, "cannot read %s: %s", hp_path, strerror(e));
		goto out;
	}
	if (!he) {
		fail(err, errlen, "cannot read %s: %s", he_path,
		     strerror(errno));
		goto out;
	}
	if (ef_parse_header_page(hp, &h)) {
		fail(err, errlen, "%s: no usable commit and data fields",
		     hp_path);
		goto out;
	}
	if (load_formats(events, &fs, err, errlen))
		goto out;
	qsort(fs.v, fs.n, sizeof(*fs.v), cmp_systems);
	info->nformats = (unsigned int)fs.n;
	current_clock(tc, clock, sizeof(clock));

	/*
	 * The names of the tasks. When saved_comms says saved_cmdlines is
	 * complete (the kernel notes each pid's name as its records get it,
	 * every pid below its limit a line of its own), its lines are the
	 * names, as trace-cmd takes ftrace's, and the pages are not read
	 * again (unless @a->count asks for their records to be counted).
	 * Else saved_cmdlines may have lost the pid of a record (pids over
	 * the kernel's limit share 1024 lines), so the records give them:
	 * common_comm_id and saved_comms, or comm fields, and
	 * saved_cmdlines only the other pids.
	 */
	load_comm_ids(a->top, &ci);
	if (a->count || !ci.cmdlines_complete || !cmd) {
		e = scan_pages(&h, &fs, &ci, a->cpu, a->ncpus, &tm, info);
		if (e) {
			free(ci.v);
			fail(err, errlen, "cannot read the recorded pages: %s",
			     strerror(-e));
			goto out;
		}
		info->counted = true;
		cmd = merge_cmdlines(&tm, cmd, &cmd_len);
	}
	free(ci.v);
	info->ncmdlines = count_lines(cmd, cmd_len);

	/* where the pages go */
	size = xmalloc((a->ncpus + 1) * sizeof(*size));
	off = xmalloc((a->ncpus + 1) * sizeof(*off));
	for (cpu = 0; cpu < a->ncpus; cpu++) {
		size[cpu] = 0;
		for (i = 0; i < a->cpu[cpu].nseg; i++)
			size[cpu] += a->cpu[cpu].seg[i].len;
		info->pages += size[cpu] / h.page_size;
	}
	first = a->first < a->ncpus ? a->first : 0;
	dat_plan(a->ncpus, size, h.page_size, first, h.page_size, off,
		 &data_end);

	/*
	 * The first page: the initial header, then the flyrecord section
	 * (its header; its data, the pages, from the next page on).
	 */
	eb_reset(&head);
	b_put(&head, DAT_MAGIC, DAT_MAGIC_LEN);
	b_str0(&head, "7");
	b_put(&head, (char []){ (char)host_big_endian(), (char)h.commit_size }, 2);
	b_u32(&head, h.page_size);
	b_str0(&head, "none");
	b_str0(&head, "");
	at = head.len;
	b_u64(&head, 0);		/* the options' offset, below */
	fly = head.len;
	b_u16(&head, DAT_OPT_BUFFER);
	b_u16(&head, 0);
	b_u32(&head, dat_string("buffer flyrecord "));
	b_u64(&head, data_end - fly - 16);
	if (head.len > h.page_size) {
		fail(err, errlen, "page size %u too small", h.page_size);
		goto out;
	}

	/* the metadata after the pages, each section at its offset */
	eb_reset(&meta);
#define META_POS	(data_end + meta.len)
	opt_at[0] = META_POS;
	i = dat_section(&meta, DAT_OPT_HEADER_INFO, "headers");
	b_str0(&meta, "header_page");
	b_u64(&meta, hp_len);
	b_put(&meta, hp, hp_len);
	b_str0(&meta, "header_event");
	b_u64(&meta, he_len);
	b_put(&meta, he, he_len);
	dat_end_section(&meta, i);
	opt_at[1] = META_POS;
	i = dat_section(&meta, DAT_OPT_FTRACE_EVENTS, "ftrace events");
	b_u32(&meta, 0);
	dat_end_section(&meta, i);
	opt_at[2] = META_POS;
	i = dat_section(&meta, DAT_OPT_EVENT_FORMATS, "events");
	put_formats(&meta, &fs);
	dat_end_section(&meta, i);
	opt_at[3] = META_POS;
	i = dat_section(&meta, DAT_OPT_KALLSYMS, "kallsyms");
	b_u32(&meta, 0);
	dat_end_section(&meta, i);
	opt_at[4] = META_POS;
	i = dat_section(&meta, DAT_OPT_PRINTK, "printk");
	b_u32(&meta, 0);
	dat_end_section(&meta, i);
	opt_at[5] = META_POS;
	i = dat_section(&meta, DAT_OPT_CMDLINES, "command lines");
	b_u64(&meta, cmd_len);
	b_put(&meta, cmd, cmd_len);
	dat_end_section(&meta, i);

	options = META_POS;
	i = dat_section(&meta, DAT_OPT_DONE, "options");
	{
		static const unsigned int ids[6] = {
			DAT_OPT_HEADER_INFO, DAT_OPT_FTRACE_EVENTS,
			DAT_OPT_EVENT_FORMATS, DAT_OPT_KALLSYMS,
			DAT_OPT_PRINTK, DAT_OPT_CMDLINES,
		};
		char bracket[80];
		size_t k, bo;

		for (k = 0; k < 6; k++) {
			b_u16(&meta, ids[k]);
			b_u32(&meta, 8);
			b_u64(&meta, opt_at[k]);
		}
		b_u16(&meta, DAT_OPT_CPUCOUNT);
		b_u32(&meta, 4);
		b_u32(&meta, a->ncpus);
		snprintf(bracket, sizeof(bracket), "[%s]", clock);
		b_u16(&meta, DAT_OPT_TRACECLOCK);
		b_u32(&meta, (unsigned int)strlen(bracket) + 1);
		b_str0(&meta, bracket);
		for (cpu = 0; a->cpustats && cpu < a->ncpus; cpu++) {
			char *st = a->cpustats[cpu] ? a->cpustats[cpu] : "";
			struct ef_buf t = { 0 };

			eb_reset(&t);
			eb_printf(&t, "CPU: %u\n%s", cpu, st);
			b_u16(&meta, DAT_OPT_CPUSTAT);
			b_u32(&meta, (unsigned int)t.len + 1);
			b_put(&meta, t.s, t.len + 1);
			eb_free(&t);
		}
		/* the buffer: where the pages of each CPU are */
		b_u16(&meta, DAT_OPT_BUFFER);
		bo = meta.len;
		b_u32(&meta, 0);
		b_u64(&meta, fly);
		b_str0(&meta, "");		/* the top instance */
		b_str0(&meta, clock);
		b_u32(&meta, h.page_size);
		b_u32(&meta, a->ncpus);
		for (cpu = 0; cpu < a->ncpus; cpu++) {
			b_u32(&meta, cpu);
			b_u64(&meta, off[cpu]);
			b_u64(&meta, size[cpu]);
		}
		{
			unsigned int v = (unsigned int)(meta.len - bo - 4);

			memcpy(meta.s + bo, &v, 4);
		}
		b_u16(&meta, DAT_OPT_DONE);
		b_u32(&meta, 8);
		b_u64(&meta, 0);		/* no more options */
	}
	dat_end_section(&meta, i);
	i = dat_section(&meta, DAT_OPT_STRINGS, "strings");
	b_put(&meta, dat_strings, sizeof(dat_strings));
	dat_end_section(&meta, i);
#undef META_POS
	memcpy(head.s + at, &options, 8);

	/* The pages, the metadata; then the first page (in place). */
	if (a->in_place) {
		for (cpu = 0; cpu < a->ncpus; cpu++) {
			e = copy_cpu(&a->cpu[cpu], &h, a->out,
				     (long long)off[cpu]);
			if (e)
				break;
		}
		if (!e)
			e = put_at(a->out, meta.s, meta.len, (long long)data_end);
		if (!e && ftruncate(a->out, (off_t)(data_end + meta.len)))
			e = -errno;
		if (!e)
			e = put_at(a->out, head.s, head.len, 0);
	} else {
		/* CPU first, then the others in CPU order (dat_plan()) */
		pos = head.len;
		e = put_at(a->out, head.s, head.len, -1);
		for (i = 0; !e && i < a->ncpus; i++) {
			cpu = !i ? first : i - 1 + (i - 1 >= first);
			e = pad_to(a->out, &pos, off[cpu]);
			if (!e)
				e = copy_cpu(&a->cpu[cpu], &h, a->out, -1);
			pos += size[cpu];
		}
		if (!e)
			e = put_at(a->out, meta.s, meta.len, -1);
	}
	if (e) {
		fail(err, errlen, "%s", strerror(-e));
		goto out;
	}
	ret = 0;
out:
	free(hp_path);
	free(he_path);
	free(events);
	free(cl_path);
	free(tc_path);
	free(hp);
	free(he);
	free(cmd);
	free(tc);
	free(size);
	free(off);
	free_formats(&fs);
	free(tm.v);
	free(tm.hash);
	eb_free(&head);
	eb_free(&meta);
	return ret;
}

void dat_info_free(struct dat_info *info)
{
	free(info->cpu_events);
	info->cpu_events = NULL;
}

/* --- reading ------------------------------------------------------------------ */

bool dat_is_dat(const void *buf, size_t len)
{
	return len >= DAT_MAGIC_LEN && !memcmp(buf, DAT_MAGIC, DAT_MAGIC_LEN);
}

struct rd {
	const unsigned char *p, *end;
	bool err;
};

static const unsigned char *rd_take(struct rd *r, unsigned long long n)
{
	const unsigned char *p = r->p;

	if (r->err || n > (unsigned long long)(r->end - r->p)) {
		r->err = true;
		return NULL;
	}
	r->p += n;
	return p;
}

static unsigned long long rd_uint(struct rd *r, unsigned int size)
{
	const unsigned char *p = rd_take(r, size);

	return p ? ef_read_uint(p, size) : 0;
}

/* a NUL-terminated string in the file */
static const char *rd_cstr(struct rd *r)
{
	const unsigned char *nul;

	if (r->err)
		return NULL;
	nul = memchr(r->p, '\0', (size_t)(r->end - r->p));
	if (!nul) {
		r->err = true;
		return NULL;
	}
	return (const char *)rd_take(r, (size_t)(nul - r->p) + 1);
}

static char *dup_n(const unsigned char *p, size_t n)
{
	char *s = xmalloc(n + 1);

	memcpy(s, p, n);
	s[n] = '\0';
	return s;
}

static int add_event(struct dat_file *df, const char *system,
		     const unsigned char *text, size_t len)
{
	char *t = dup_n(text, len);
	struct ef_event ev;
	int ret = ef_parse_format(t, &ev);

	free(t);
	if (ret) {
		ef_event_free(&ev);
		return 0;	/* unusable: its records show as unknown */
	}
	ev.system = xstrdup(system);
	df->events = xrealloc(df->events,
			      (df->nevents + 1) * sizeof(*df->events));
	df->events[df->nevents++] = ev;
	return 0;
}

static void parse_cmdlines(struct dat_file *df, const unsigned char *p,
			   size_t len)
{
	char *text = dup_n(p, len), *line = text, *nl, *e;

	for (; line && *line; line = nl) {
		long pid;

		nl = strchr(line, '\n');
		if (nl)
			*nl++ = '\0';
		pid = strtol(line, &e, 10);
		if (e == line || *e != ' ' || pid <= 0 || pid > 0x7fffffff)
			continue;
		df->cmdlines = xrealloc(df->cmdlines, (df->ncmdlines + 1) *
					sizeof(*df->cmdlines));
		df->cmdlines[df->ncmdlines].pid = (int)pid;
		strlcpy_n(df->cmdlines[df->ncmdlines].comm,
			  sizeof(df->cmdlines[0].comm), e + 1, strlen(e + 1));
		df->ncmdlines++;
	}
	free(text);
}

/* the headers: header_page (the page's layout) and header_event */
static int parse_headers(struct dat_file *df, struct rd *r, char *err,
			 size_t errlen)
{
	const unsigned char *p;
	unsigned long long n;
	const char *s;
	char *hp;

	s = rd_cstr(r);
	if (!s || strcmp(s, "header_page"))
		return fail(err, errlen, "no header_page section");
	n = rd_uint(r, 8);
	p = rd_take(r, n);
	if (!p)
		return fail(err, errlen, "truncated header_page");
	hp = dup_n(p, (size_t)n);
	if (ef_parse_header_page(hp, &df->hdr)) {
		free(hp);
		return fail(err, errlen, "unusable header_page");
	}
	free(hp);
	s = rd_cstr(r);
	if (!s || strcmp(s, "header_event"))
		return fail(err, errlen, "no header_event section");
	rd_take(r, rd_uint(r, 8));
	return 0;
}

/* ftrace's events (kept with system "ftrace"), then the systems' */
static void parse_ftrace_events(struct dat_file *df, struct rd *r)
{
	unsigned long long n, k, nev = rd_uint(r, 4);
	const unsigned char *p;

	for (k = 0; k < nev && !r->err; k++) {
		n = rd_uint(r, 8);
		p = rd_take(r, n);
		if (p)
			add_event(df, "ftrace", p, (size_t)n);
	}
}

static void parse_systems(struct dat_file *df, struct rd *r)
{
	unsigned long long n, i, k, nev, nsys = rd_uint(r, 4);
	const unsigned char *p;
	const char *system;

	for (i = 0; i < nsys && !r->err; i++) {
		system = rd_cstr(r);
		nev = rd_uint(r, 4);
		for (k = 0; k < nev && !r->err; k++) {
			n = rd_uint(r, 8);
			p = rd_take(r, n);
			if (p && system)
				add_event(df, system, p, (size_t)n);
		}
	}
}

static int check_cpus(struct dat_file *df, char *err, size_t errlen)
{
	unsigned int cpu;

	for (cpu = 0; cpu < df->ncpus; cpu++)
		if (df->cpu[cpu].offset > df->size ||
		    df->cpu[cpu].size > df->size - df->cpu[cpu].offset)
			return fail(err, errlen,
				    "the data of CPU %u lies beyond the end of the file",
				    cpu);
	return 0;
}

/* version 6: one stream, in order */
static int parse_v6(struct dat_file *df, struct rd *r, char *err,
		    size_t errlen)
{
	const unsigned char *p;
	unsigned long long n;
	const char *s;
	unsigned int cpu;
	bool clock = false;

	rd_uint(r, 4);			/* page size: header_page has it */
	if (parse_headers(df, r, err, errlen))
		return -1;
	parse_ftrace_events(df, r);
	parse_systems(df, r);
	rd_take(r, rd_uint(r, 4));		/* kallsyms */
	rd_take(r, rd_uint(r, 4));		/* printk formats */
	n = rd_uint(r, 8);
	p = rd_take(r, n);
	if (p)
		parse_cmdlines(df, p, (size_t)n);
	df->ncpus = (unsigned int)rd_uint(r, 4);
	if (r->err)
		return fail(err, errlen, "truncated file header");
	if (df->ncpus > 8192)
		return fail(err, errlen, "implausible CPU count %u",
			    df->ncpus);
	s = (const char *)rd_take(r, 10);
	if (s && !memcmp(s, "options  ", 10)) {
		for (;;) {
			unsigned int id = (unsigned int)rd_uint(r, 2);

			if (r->err || id == OPT_DONE)
				break;
			rd_take(r, rd_uint(r, 4));
			if (id == OPT_TRACECLOCK)
				clock = true;
		}
		s = (const char *)rd_take(r, 10);
	}
	if (!s || memcmp(s, "flyrecord", 10))
		return fail(err, errlen,
			    "no flyrecord section (latency traces are not supported)");
	df->cpu = xmalloc((df->ncpus + 1) * sizeof(*df->cpu));
	for (cpu = 0; cpu < df->ncpus; cpu++) {
		df->cpu[cpu].offset = rd_uint(r, 8);
		df->cpu[cpu].size = rd_uint(r, 8);
	}
	if (clock) {
		/* size(8) "[clock]" after the CPU table */
		n = rd_uint(r, 8);
		p = rd_take(r, n);
		if (p && n > 2 && n < sizeof(df->clock) + 2 &&
		    p[0] == '[' && p[n - 1] == ']')
			strlcpy_n(df->clock, sizeof(df->clock),
				  (const char *)p + 1, (size_t)n - 2);
	}
	if (r->err)
		return fail(err, errlen, "truncated file header");
	return check_cpus(df, err, errlen);
}

/* a version 7 section at off: its body, or NULL (r->err) */
static bool v7_section(struct dat_file *df, unsigned long long off,
		       unsigned int want, struct rd *r)
{
	unsigned long long size;
	unsigned int id, flags;

	r->p = df->map;
	r->end = df->map + df->size;
	r->err = off > df->size;
	if (r->err)
		return false;
	rd_take(r, off);
	id = (unsigned int)rd_uint(r, 2);
	flags = (unsigned int)rd_uint(r, 2);
	rd_uint(r, 4);			/* description */
	size = rd_uint(r, 8);
	if (r->err || id != want || (flags & 1) ||
	    size > (unsigned long long)(r->end - r->p)) {
		r->err = true;
		return false;
	}
	r->end = r->p + size;
	return true;
}

/* the BUFFER option of the top instance ("" name): where the pages are */
static int v7_buffer(struct dat_file *df, const unsigned char *p, size_t n,
		     char *err, size_t errlen)
{
	struct rd r = { p, p + n, false };
	const char *name, *clock;
	unsigned int cpus, i;

	rd_uint(&r, 8);			/* the flyrecord section */
	name = rd_cstr(&r);
	clock = rd_cstr(&r);
	if (r.err || !name || *name)
		return 0;		/* another instance's: not read */
	if (clock && *clock)
		strlcpy_n(df->clock, sizeof(df->clock), clock, strlen(clock));
	rd_uint(&r, 4);			/* page size */
	cpus = (unsigned int)rd_uint(&r, 4);
	if (r.err || cpus > 8192)
		return fail(err, errlen, "unusable buffer option");
	for (i = 0; i < cpus && !r.err; i++) {
		unsigned int cpu = (unsigned int)rd_uint(&r, 4);
		unsigned long long off = rd_uint(&r, 8), size = rd_uint(&r, 8);

		if (r.err || cpu >= 8192)
			return fail(err, errlen, "unusable buffer option");
		if (cpu >= df->ncpus) {
			df->cpu = xrealloc(df->cpu, (cpu + 1) * sizeof(*df->cpu));
			memset(df->cpu + df->ncpus, 0,
			       (cpu + 1 - df->ncpus) * sizeof(*df->cpu));
			df->ncpus = cpu + 1;
		}
		df->cpu[cpu].offset = off;
		df->cpu[cpu].size = size;
	}
	return r.err ? fail(err, errlen, "truncated buffer option") : 0;
}

/*
 * Version 7: sections anywhere, found through the options, whose first
 * section's offset is in the initial header; the last option (DONE) holds
 * the offset of the next options section (0: none).
 */
static int parse_v7(struct dat_file *df, struct rd *r, char *err,
		    size_t errlen)
{
	unsigned long long next, sec[22] = { 0 }, n, seen = 0;
	unsigned int cpucount = 0;
	const unsigned char *p;
	const char *s;
	struct rd o;

	rd_uint(r, 4);			/* page size: header_page has it */
	s = rd_cstr(r);
	if (!s || strcmp(s, "none"))
		return fail(err, errlen,
			    "compressed trace.dat (%s) is not supported",
			    s ? s : "?");
	rd_cstr(r);			/* compression version */
	next = rd_uint(r, 8);
	if (r->err)
		return fail(err, errlen, "truncated file header");
	while (next) {
		if (next + 16 > df->size)
			return fail(err, errlen,
				    "the options (at %llu) lie beyond the end of the file (%zu bytes): truncated?",
				    next, df->size);
		if (++seen > 64 || !v7_section(df, next, OPT_DONE, &o))
			return fail(err, errlen, "unusable options section");
		next = 0;
		for (;;) {
			unsigned int id = (unsigned int)rd_uint(&o, 2);
			unsigned long long size = rd_uint(&o, 4);

			p = rd_take(&o, size);
			if (o.err)
				return fail(err, errlen, "truncated options");
			if (id == OPT_DONE) {
				next = size >= 8 ? ef_read_uint(p, 8) : 0;
				break;
			}
			if (id >= 16 && id <= 21 && size >= 8)
				sec[id] = ef_read_uint(p, 8);
			else if (id == OPT_CPUCOUNT && size >= 4)
				cpucount = (unsigned int)ef_read_uint(p, 4);
			else if (id == 3 &&
				 v7_buffer(df, p, (size_t)size, err, errlen))
				return -1;
		}
	}
	if (!sec[16] || !v7_section(df, sec[16], 16, &o) ||
	    parse_headers(df, &o, err, errlen))
		return err[0] ? -1 : fail(err, errlen, "no headers section");
	if (sec[17] && v7_section(df, sec[17], 17, &o))
		parse_ftrace_events(df, &o);
	if (sec[18] && v7_section(df, sec[18], 18, &o))
		parse_systems(df, &o);
	if (sec[21] && v7_section(df, sec[21], 21, &o)) {
		n = rd_uint(&o, 8);
		p = rd_take(&o, n);
		if (p)
			parse_cmdlines(df, p, (size_t)n);
	}
	if (!df->cpu)
		return fail(err, errlen,
			    "no buffer of flyrecord data (latency traces are not supported)");
	if (cpucount > df->ncpus && cpucount <= 8192) {
		df->cpu = xrealloc(df->cpu, cpucount * sizeof(*df->cpu));
		memset(df->cpu + df->ncpus, 0,
		       (cpucount - df->ncpus) * sizeof(*df->cpu));
		df->ncpus = cpucount;
	}
	return check_cpus(df, err, errlen);
}

static int parse_dat(struct dat_file *df, char *err, size_t errlen)
{
	struct rd r = { df->map, df->map + df->size, false };
	const char *s;

	err[0] = '\0';
	if (!dat_is_dat(df->map, df->size))
		return fail(err, errlen, "not a trace.dat file");
	rd_take(&r, DAT_MAGIC_LEN);
	s = rd_cstr(&r);
	if (!s || (strcmp(s, "6") && strcmp(s, "7")))
		return fail(err, errlen,
			    "trace.dat version %s is not supported (only 6 and 7)",
			    s ? s : "?");
	strlcpy_n(df->version, sizeof(df->version), s, strlen(s));
	if (rd_uint(&r, 1) != host_big_endian())
		return fail(err, errlen,
			    "the file's byte order is not this machine's");
	df->long_size = (unsigned int)rd_uint(&r, 1);
	strcpy(df->clock, "local");	/* trace-cmd's default */
	return strcmp(s, "6") ? parse_v7(df, &r, err, errlen) :
				parse_v6(df, &r, err, errlen);
}

int dat_open(const char *path, struct dat_file *df, char *err, size_t errlen)
{
	struct stat st;
	void *map;
	int fd;

	memset(df, 0, sizeof(*df));
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return fail(err, errlen, "cannot open %s: %s", path,
			    strerror(errno));
	if (fstat(fd, &st) || !S_ISREG(st.st_mode) || !st.st_size) {
		close(fd);
		return fail(err, errlen, "%s: not a regular, non-empty file",
			    path);
	}
	map = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	if (map == MAP_FAILED)
		return fail(err, errlen, "cannot map %s: %s", path,
			    strerror(errno));
	df->map = map;
	df->size = (size_t)st.st_size;
	if (parse_dat(df, err, errlen)) {
		dat_close(df);
		return -1;
	}
	return 0;
}

void dat_close(struct dat_file *df)
{
	size_t i;

	if (df->map)
		munmap((void *)df->map, df->size);
	for (i = 0; i < df->nevents; i++)
		ef_event_free(&df->events[i]);
	free(df->events);
	free(df->cmdlines);
	free(df->cpu);
	memset(df, 0, sizeof(*df));
}

static const struct ef_event *event_by_id(const struct dat_file *df,
					  unsigned int id)
{
	size_t i;

	for (i = 0; i < df->nevents; i++)
		if (df->events[i].id == id)
			return &df->events[i];
	return NULL;
}

/* per-CPU cursor */
struct cur {
	unsigned long long off, end;	/* next page, end of data */
	struct rb_page pg;
	bool in_page, have;
	struct dat_rec rec;
	bool lost_pending;
	unsigned long long lost;
};

/* load the next record of a CPU into c->rec; false when none */
static int advance(const struct dat_file *df, struct cur *c, int cpu,
		   char *err, size_t errlen)
{
	struct rb_rec r;

	c->have = false;
	for (;;) {
		if (c->in_page && rb_page_next(&c->pg, &r)) {
			memset(&c->rec, 0, sizeof(c->rec));
			c->rec.cpu = cpu;
			c->rec.ts = r.ts;
			c->rec.data = r.data;
			c->rec.len = r.len;
			c->rec.id = r.len >= 2 ?
				(unsigned int)ef_read_uint(r.data, 2) : 0;
			c->rec.ev = event_by_id(df, c->rec.id);
			c->have = true;
			return 0;
		}
		if (c->in_page && c->pg.corrupt)
			return fail(err, errlen,
				    "corrupt page at offset %llu (CPU %d)",
				    c->off - df->hdr.page_size, cpu);
		c->in_page = false;
		if (c->off + df->hdr.page_size > c->end)
			return 0;
		if (!rb_page_init(&c->pg, df->map + c->off, &df->hdr))
			return fail(err, errlen,
				    "corrupt page header at offset %llu (CPU %d)",
				    c->off, cpu);
		c->off += df->hdr.page_size;
		c->in_page = true;
		if (c->pg.lost) {
			c->lost_pending = true;
			c->lost = c->pg.lost;
		}
	}
}

int dat_each(const struct dat_file *df,
	     int (*cb)(const struct dat_rec *r, void *arg), void *arg,
	     char *err, size_t errlen)
{
	struct cur *c = xmalloc((df->ncpus + 1) * sizeof(*c));
	unsigned int cpu;
	int ret = 0;

	memset(c, 0, (df->ncpus + 1) * sizeof(*c));
	for (cpu = 0; cpu < df->ncpus && !ret; cpu++) {
		c[cpu].off = df->cpu[cpu].offset;
		c[cpu].end = df->cpu[cpu].offset + df->cpu[cpu].size;
		ret = advance(df, &c[cpu], (int)cpu, err, errlen);
	}
	while (!ret) {
		int best = -1;

		for (cpu = 0; cpu < df->ncpus; cpu++)
			if (c[cpu].have &&
			    (best < 0 || c[cpu].rec.ts < c[best].rec.ts))
				best = (int)cpu;
		if (best < 0)
			break;
		if (c[best].lost_pending) {
			struct dat_rec lost = {
				.cpu = best, .ts = c[best].rec.ts,
				.lost = c[best].lost,
			};

			c[best].lost_pending = false;
			ret = cb(&lost, arg);
			if (ret)
				break;
		}
		ret = cb(&c[best].rec, arg);
		if (!ret)
			ret = advance(df, &c[best], best, err, errlen);
	}
	free(c);
	return ret;
}

void dat_task(const struct dat_file *df, const struct dat_rec *r,
	      char *comm, size_t size, int *pid)
{
	const struct ef_event *ev = r->ev;
	unsigned long long v = 0;
	const char *s;
	size_t i, sl;

	*pid = -1;
	strlcpy_n(comm, size, "<...>", 5);
	if (!ev || ev->f_pid < 0 ||
	    !ef_get_int(&ev->fields[ev->f_pid], r->data, r->len, &v))
		return;
	*pid = (int)v;
	if (!*pid) {
		strlcpy_n(comm, size, "<idle>", 6);
		return;
	}
	if (ev->f_comm >= 0 &&
	    ef_get_str(&ev->fields[ev->f_comm], r->data, r->len, &s, &sl) &&
	    sl) {
		strlcpy_n(comm, size, s, sl);
		return;
	}
	for (i = 0; i < df->ncmdlines; i++)
		if (df->cmdlines[i].pid == *pid) {
			strlcpy_n(comm, size, df->cmdlines[i].comm,
				  strlen(df->cmdlines[i].comm));
			return;
		}
}

void dat_line(const struct dat_file *df, const struct dat_rec *r,
	      struct ef_buf *out)
{
	const struct ef_event *ev = r->ev;
	unsigned long long fl = 0, pc = 0, us = (r->ts + 500) / 1000;
	char comm[64], ctx[6];
	int pid;

	if (!ev && r->lost) {
		if (r->lost == ~0ULL)
			eb_printf(out, "CPU:%d [LOST EVENTS]", r->cpu);
		else
			eb_printf(out, "CPU:%d [LOST %llu EVENTS]", r->cpu,
				  r->lost);
		return;
	}
	dat_task(df, r, comm, sizeof(comm), &pid);
	if (ev && ev->f_flags >= 0)
		ef_get_int(&ev->fields[ev->f_flags], r->data, r->len, &fl);
	if (ev && ev->f_pc >= 0)
		ef_get_int(&ev->fields[ev->f_pc], r->data, r->len, &pc);
	ef_ctx_chars((unsigned int)fl, (unsigned int)pc, ctx);
	eb_printf(out, "%16s-%-7d [%03d] %s %5llu.%06llu: %s: ", comm, pid,
		  r->cpu, ctx, us / 1000000, us % 1000000,
		  ev ? ev->name : "?");
	if (ev)
		ef_render(ev, r->data, r->len, df->long_size, out);
	else
		eb_printf(out, "<unknown event %u>", r->id);
}

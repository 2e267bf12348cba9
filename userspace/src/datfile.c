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
#define TRACE_CLOCK	"local"

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

struct wr {
	int fd;
	unsigned long long pos;
	int err;
};

static void w_put(struct wr *w, const void *buf, size_t n)
{
	const char *p = buf;

	while (n && !w->err) {
		ssize_t r = write(w->fd, p, n);

		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0) {
			w->err = r < 0 ? errno : EIO;
			return;
		}
		p += r;
		n -= (size_t)r;
		w->pos += (unsigned long long)r;
	}
}

static void w_u8(struct wr *w, unsigned int v)
{
	unsigned char c = (unsigned char)v;

	w_put(w, &c, 1);
}

static void w_u16(struct wr *w, unsigned int v)
{
	unsigned short s = (unsigned short)v;

	w_put(w, &s, 2);
}

static void w_u32(struct wr *w, unsigned int v)
{
	w_put(w, &v, 4);
}

static void w_u64(struct wr *w, unsigned long long v)
{
	w_put(w, &v, 8);
}

static void w_str0(struct wr *w, const char *s)
{
	w_put(w, s, strlen(s) + 1);
}

static void w_pad(struct wr *w, unsigned long long to)
{
	static const char zero[4096];

	while (w->pos < to && !w->err) {
		unsigned long long n = to - w->pos;

		w_put(w, zero, n > sizeof(zero) ? sizeof(zero) : (size_t)n);
	}
}

/* copy size bytes of fd from offset 0 */
static int w_copy(struct wr *w, int fd, unsigned long long size)
{
	static char buf[65536];
	unsigned long long off = 0;

	/* In the kernel where it can (one copy, not two); else below. */
	while (off < size && !w->err) {
		loff_t in = (loff_t)off;
		ssize_t r = copy_file_range(fd, &in, w->fd, NULL,
					    (size_t)(size - off), 0);

		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;	/* not here (EXDEV, ENOSYS...): read and write */
		off += (unsigned long long)r;
		w->pos += (unsigned long long)r;
	}
	while (off < size && !w->err) {
		size_t want = size - off > sizeof(buf) ? sizeof(buf) :
			      (size_t)(size - off);
		ssize_t r = pread(fd, buf, want, (off_t)off);

		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return r < 0 ? -errno : -EIO;
		w_put(w, buf, (size_t)r);
		off += (unsigned long long)r;
	}
	return 0;
}

/* read the pages of every CPU: cmdlines and counts */
static int scan_pages(const struct ef_header *h, const struct fmt_set *fs,
		      const struct comm_ids *ci, const struct dat_src *src,
		      unsigned int ncpus, struct task_map *tm,
		      struct dat_info *info)
{
	unsigned char *page = xmalloc(h->page_size);
	unsigned int cpu;
	int ret = 0;

	for (cpu = 0; cpu < ncpus && !ret; cpu++) {
		unsigned long long off;

		for (off = 0; off + h->page_size <= src[cpu].size;
		     off += h->page_size) {
			struct rb_page pg;
			struct rb_rec r;
			ssize_t n = pread(src[cpu].fd, page, h->page_size,
					  (off_t)off);

			if (n != (ssize_t)h->page_size) {
				ret = n < 0 ? -errno : -EIO;
				break;
			}
			info->pages++;
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
				note_record(tm, fs, ci, &r);
			}
			if (pg.corrupt)
				info->bad_pages++;
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

int dat_write(const char *dir, const char *top, int out,
	      const struct dat_src *src, unsigned int ncpus,
	      struct dat_info *info, char *err, size_t errlen)
{
	char *hp_path = join3(dir, "events", "header_page");
	char *he_path = join3(dir, "events", "header_event");
	char *events = join3(dir, "events", NULL);
	size_t hp_len = 0, he_len = 0, i, j, nsys = 0;
	char *hp = read_file(hp_path, &hp_len);
	int e = errno, ret = -1;
	char *he = hp ? read_file(he_path, &he_len) : NULL;
	struct fmt_set fs = { 0 };
	struct task_map tm = { 0 };
	struct comm_ids ci;
	struct ef_buf cmd = { 0 };
	struct ef_header h;
	struct wr w = { .fd = out };
	unsigned long long off, clock_len = strlen("[" TRACE_CLOCK "]");
	unsigned int cpu;

	memset(info, 0, sizeof(*info));
	info->ncpus = ncpus;
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

	load_comm_ids(top, &ci);
	e = scan_pages(&h, &fs, &ci, src, ncpus, &tm, info);
	free(ci.v);
	if (e) {
		fail(err, errlen, "cannot read the recorded pages: %s",
		     strerror(-e));
		goto out;
	}
	qsort(tm.v, tm.n, sizeof(*tm.v), cmp_tasks);
	eb_reset(&cmd);
	for (i = 0; i < tm.n; i++)
		eb_printf(&cmd, "%d %s\n", tm.v[i].pid, tm.v[i].comm);
	info->ncmdlines = (unsigned int)tm.n;

	/* initial format */
	w_put(&w, DAT_MAGIC, DAT_MAGIC_LEN);
	w_str0(&w, "6");
	w_u8(&w, host_big_endian());
	w_u8(&w, h.commit_size);	/* the target's long */
	w_u32(&w, h.page_size);
	/* headers */
	w_str0(&w, "header_page");
	w_u64(&w, hp_len);
	w_put(&w, hp, hp_len);
	w_str0(&w, "header_event");
	w_u64(&w, he_len);
	w_put(&w, he, he_len);
	/* ftrace's own events: none */
	w_u32(&w, 0);
	/* event systems */
	for (i = 0; i < fs.n; i++)
		if (!i || strcmp(fs.v[i].system, fs.v[i - 1].system))
			nsys++;
	w_u32(&w, (unsigned int)nsys);
	for (i = 0; i < fs.n; i = j) {
		for (j = i; j < fs.n && !strcmp(fs.v[j].system,
						fs.v[i].system); j++)
			;
		w_str0(&w, fs.v[i].system);
		w_u32(&w, (unsigned int)(j - i));
		for (size_t k = i; k < j; k++) {
			w_u64(&w, fs.v[k].len);
			w_put(&w, fs.v[k].text, fs.v[k].len);
		}
	}
	w_u32(&w, 0);			/* kallsyms */
	w_u32(&w, 0);			/* printk formats */
	w_u64(&w, cmd.len);
	w_put(&w, cmd.s, cmd.len);
	w_u32(&w, ncpus);
	w_put(&w, "options  ", 10);
	/* as trace-cmd record: the trace_clock file's text ("[local] ..."),
	 * and the clock again after the CPU table */
	w_u16(&w, OPT_TRACECLOCK);
	w_u32(&w, (unsigned int)clock_len + 1);
	w_put(&w, "[" TRACE_CLOCK "]", (size_t)clock_len + 1);
	w_u16(&w, OPT_DONE);
	w_put(&w, "flyrecord", 10);
	off = w.pos + 16ULL * ncpus + 8 + clock_len;
	for (cpu = 0; cpu < ncpus; cpu++) {
		off = (off + h.page_size - 1) / h.page_size * h.page_size;
		w_u64(&w, off);
		w_u64(&w, src[cpu].size);
		off += src[cpu].size;
	}
	w_u64(&w, clock_len);
	w_put(&w, "[" TRACE_CLOCK "]", (size_t)clock_len);
	for (cpu = 0; cpu < ncpus && !w.err; cpu++) {
		w_pad(&w, (w.pos + h.page_size - 1) / h.page_size *
			  h.page_size);
		e = w_copy(&w, src[cpu].fd, src[cpu].size);
		if (e) {
			fail(err, errlen, "cannot read the pages of CPU %u: %s",
			     cpu, strerror(-e));
			goto out;
		}
	}
	if (w.err) {
		fail(err, errlen, "%s", strerror(w.err));
		goto out;
	}
	ret = 0;
out:
	free(hp_path);
	free(he_path);
	free(events);
	free(hp);
	free(he);
	free_formats(&fs);
	free(tm.v);
	free(tm.hash);
	eb_free(&cmd);
	return ret;
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

static int parse_dat(struct dat_file *df, char *err, size_t errlen)
{
	struct rd r = { df->map, df->map + df->size, false };
	const unsigned char *p;
	unsigned long long n, i, k, nsys, nev;
	const char *s, *system;
	char *hp = NULL;
	unsigned int cpu;
	bool clock = false;

	if (!dat_is_dat(df->map, df->size))
		return fail(err, errlen, "not a trace.dat file");
	rd_take(&r, DAT_MAGIC_LEN);
	s = rd_cstr(&r);
	if (!s || strcmp(s, "6"))
		return fail(err, errlen,
			    "trace.dat version %s is not supported (only 6, as 'kmark record' writes it)",
			    s ? s : "?");
	strlcpy_n(df->version, sizeof(df->version), s, strlen(s));
	if (rd_uint(&r, 1) != host_big_endian())
		return fail(err, errlen,
			    "the file's byte order is not this machine's");
	df->long_size = (unsigned int)rd_uint(&r, 1);
	rd_uint(&r, 4);			/* page size: header_page has it */

	s = rd_cstr(&r);
	if (!s || strcmp(s, "header_page"))
		return fail(err, errlen, "no header_page section");
	n = rd_uint(&r, 8);
	p = rd_take(&r, n);
	if (!p)
		return fail(err, errlen, "truncated header_page");
	hp = dup_n(p, (size_t)n);
	if (ef_parse_header_page(hp, &df->hdr)) {
		free(hp);
		return fail(err, errlen, "unusable header_page");
	}
	free(hp);
	s = rd_cstr(&r);
	if (!s || strcmp(s, "header_event"))
		return fail(err, errlen, "no header_event section");
	rd_take(&r, rd_uint(&r, 8));

	/* ftrace events (kept with system "ftrace") */
	nev = rd_uint(&r, 4);
	for (k = 0; k < nev && !r.err; k++) {
		n = rd_uint(&r, 8);
		p = rd_take(&r, n);
		if (p)
			add_event(df, "ftrace", p, (size_t)n);
	}
	nsys = rd_uint(&r, 4);
	for (i = 0; i < nsys && !r.err; i++) {
		system = rd_cstr(&r);
		nev = rd_uint(&r, 4);
		for (k = 0; k < nev && !r.err; k++) {
			n = rd_uint(&r, 8);
			p = rd_take(&r, n);
			if (p)
				add_event(df, system, p, (size_t)n);
		}
	}
	rd_take(&r, rd_uint(&r, 4));		/* kallsyms */
	rd_take(&r, rd_uint(&r, 4));		/* printk formats */
	n = rd_uint(&r, 8);
	p = rd_take(&r, n);
	if (p)
		parse_cmdlines(df, p, (size_t)n);
	df->ncpus = (unsigned int)rd_uint(&r, 4);
	if (r.err)
		return fail(err, errlen, "truncated file header");
	if (df->ncpus > 8192)
		return fail(err, errlen, "implausible CPU count %u",
			    df->ncpus);
	s = (const char *)rd_take(&r, 10);
	strcpy(df->clock, "local");	/* trace-cmd's default */
	if (s && !memcmp(s, "options  ", 10)) {
		for (;;) {
			unsigned int id = (unsigned int)rd_uint(&r, 2);

			if (r.err || id == OPT_DONE)
				break;
			rd_take(&r, rd_uint(&r, 4));
			if (id == OPT_TRACECLOCK)
				clock = true;
		}
		s = (const char *)rd_take(&r, 10);
	}
	if (!s || memcmp(s, "flyrecord", 10))
		return fail(err, errlen,
			    "no flyrecord section (latency traces are not supported)");
	df->cpu = xmalloc((df->ncpus + 1) * sizeof(*df->cpu));
	for (cpu = 0; cpu < df->ncpus; cpu++) {
		df->cpu[cpu].offset = rd_uint(&r, 8);
		df->cpu[cpu].size = rd_uint(&r, 8);
	}
	if (clock) {
		/* size(8) "[clock]" after the CPU table */
		n = rd_uint(&r, 8);
		p = rd_take(&r, n);
		if (p && n > 2 && n < sizeof(df->clock) + 2 &&
		    p[0] == '[' && p[n - 1] == ']')
			strlcpy_n(df->clock, sizeof(df->clock),
				  (const char *)p + 1, (size_t)n - 2);
	}
	if (r.err)
		return fail(err, errlen, "truncated file header");
	for (cpu = 0; cpu < df->ncpus; cpu++)
		if (df->cpu[cpu].offset > df->size ||
		    df->cpu[cpu].size > df->size - df->cpu[cpu].offset)
			return fail(err, errlen,
				    "the data of CPU %u lies beyond the end of the file",
				    cpu);
	return 0;
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

// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ctlfmt.h"
#include "kmark.h"
#include "strlist.h"

static const char *opt_dir;
static char *resolved_dir;
static const char *opt_instance;	/* -B NAME */
static char *instance_dir;		/* <top>/instances/NAME, checked */

static int stdout_errno;	/* first error writing stdout; 0: none */

static void stdout_failed(int err)
{
	if (!stdout_errno)
		stdout_errno = err ? err : EIO;
}

bool flush_stdout(void)
{
	int r;

	/*
	 * glibc drops the buffered data after a failed fflush(): the next
	 * one succeeds with only the error flag left, so keep the errno of
	 * the first failure.
	 */
	errno = 0;
	r = fflush(stdout);
	if (!r && !ferror(stdout))
		return true;
	stdout_failed(r ? errno : 0);
	return false;
}

bool put_line(const char *s)
{
	errno = 0;
	if (puts(s) != EOF)
		return true;
	stdout_failed(errno);
	return false;
}

static void print_output_error(void)
{
	fprintf(stderr, "kmark: writing output: %s\n",
		strerror(stdout_errno ? stdout_errno : EIO));
}

int finish_output(int ret)
{
	if (flush_stdout() && !stdout_errno)
		return ret;
	print_output_error();
	return ret ? ret : KM_EXIT_ERROR;
}

void die_output(void)
{
	flush_stdout();
	print_output_error();
	exit(KM_EXIT_ERROR);
}

static void vreport(const char *prefix, const char *fmt, va_list ap)
{
	flush_stdout();
	fprintf(stderr, "kmark: %s", prefix);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
}

void die(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vreport("", fmt, ap);
	va_end(ap);
	exit(KM_EXIT_ERROR);
}

void die_code(int code, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vreport("", fmt, ap);
	va_end(ap);
	exit(code);
}

void warning(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vreport("warning: ", fmt, ap);
	va_end(ap);
}

void info(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vreport("", fmt, ap);
	va_end(ap);
}

void set_ctl_dir(const char *dir)
{
	opt_dir = dir;
}

void set_instance(const char *cmd, const char *name)
{
	const char *why = instance_name_err(name);

	if (why) {
		flush_stdout();
		fprintf(stderr, "kmark: invalid instance name '%s': %s\n", name,
			why);
		if (cmd)
			fprintf(stderr, "Try 'kmark help %s'.\n", cmd);
		else
			fputs("Try 'kmark --help'.\n", stderr);
		exit(KM_EXIT_USAGE);
	}
	if (opt_instance && strcmp(opt_instance, name)) {
		flush_stdout();
		fprintf(stderr, "kmark: two instances given ('%s' and '%s')\n",
			opt_instance, name);
		if (cmd)
			fprintf(stderr, "Try 'kmark help %s'.\n", cmd);
		exit(KM_EXIT_USAGE);
	}
	opt_instance = name;
}

const char *instance_name(void)
{
	return opt_instance;
}

/* undo the octal escapes of /proc/mounts ("\040" for a space) */
static void unescape(char *s)
{
	char *d = s;

	while (*s) {
		if (s[0] == '\\' && s[1] >= '0' && s[1] <= '3' &&
		    s[2] >= '0' && s[2] <= '7' && s[3] >= '0' && s[3] <= '7') {
			*d++ = (char)((s[1] - '0') * 64 + (s[2] - '0') * 8 +
				      (s[3] - '0'));
			s += 4;
		} else {
			*d++ = *s++;
		}
	}
	*d = '\0';
}

char *mount_point(const char *fstype)
{
	FILE *f = fopen("/proc/mounts", "r");
	char line[4096], dev[1024], mnt[1024], type[64];
	char *res = NULL;

	if (!f)
		return NULL;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%1023s %1023s %63s", dev, mnt, type) != 3)
			continue;
		if (!strcmp(type, fstype)) {
			unescape(mnt);
			res = xstrdup(mnt);
			break;
		}
	}
	fclose(f);
	return res;
}

static char *join(const char *a, const char *b)
{
	char *p = xmalloc(strlen(a) + strlen(b) + 2);

	sprintf(p, "%s/%s", a, b);
	return p;
}

/*
 * MNT/kmark (malloc'd) if it is a directory, or if it cannot be looked at
 * (not root: the caller reports why); NULL if it is not there. Frees MNT.
 */
static char *kmark_under(char *mnt)
{
	struct stat st;
	char *dir;

	if (!mnt)
		return NULL;
	dir = join(mnt, "kmark");
	free(mnt);
	if (stat(dir, &st) ? errno != ENOENT && errno != ENOTDIR :
			     S_ISDIR(st.st_mode))
		return dir;
	free(dir);
	return NULL;
}

/*
 * The control directory: -d DIR or KMARK_DIR; else kmark in a mounted
 * tracefs (first, as trace-cmd: lockdown=integrity allows it), else in a
 * mounted debugfs; else, as root, tracefs then debugfs mounted at their
 * usual places (a kernel without debugfs has kmark in tracefs alone).
 */
const char *ctl_top_dir(void)
{
	static const char *const fs[][2] = {
		{ "tracefs", "/sys/kernel/tracing" },
		{ "debugfs", "/sys/kernel/debug" },
	};
	const char *dir = opt_dir;
	struct stat st;
	size_t i;

	if (resolved_dir)
		return resolved_dir;
	if (!dir)
		dir = getenv("KMARK_DIR");
	if (dir && *dir)
		resolved_dir = xstrdup(dir);
	for (i = 0; !resolved_dir && i < ARRAY_SIZE(fs); i++)
		resolved_dir = kmark_under(mount_point(fs[i][0]));
	for (i = 0; !resolved_dir && !geteuid() && i < ARRAY_SIZE(fs); i++) {
		char *mnt = mount_point(fs[i][0]);

		if (mnt) {	/* mounted elsewhere: it has no kmark */
			free(mnt);
			continue;
		}
		if (!mount(fs[i][0], fs[i][1], fs[i][0], 0, NULL))
			resolved_dir = kmark_under(xstrdup(fs[i][1]));
	}
	if (!resolved_dir)
		die_code(KM_EXIT_NODIR, "%s",
			 geteuid() ?
			 "no kmark control directory in a mounted tracefs or debugfs, and we are not root to mount them (mount -t tracefs nodev /sys/kernel/tracing)" :
			 "no kmark control directory: neither /sys/kernel/tracing/kmark nor /sys/kernel/debug/kmark (is kmark enabled in this kernel?)");
	if (stat(resolved_dir, &st))
		die_code(KM_EXIT_NODIR,
			 "cannot use control directory %s: %s (is kmark enabled in this kernel?)",
			 resolved_dir, strerror(errno));
	if (!S_ISDIR(st.st_mode))
		die_code(KM_EXIT_NODIR, "control directory %s is not a directory",
			 resolved_dir);
	return resolved_dir;
}

const char *ctl_dir(void)
{
	const char *top;
	struct stat st;
	char *idir;

	if (!opt_instance)
		return ctl_top_dir();
	if (instance_dir)
		return instance_dir;
	top = ctl_top_dir();
	idir = join(top, "instances");
	if (stat(idir, &st) || !S_ISDIR(st.st_mode))
		die_code(KM_EXIT_NOINST,
			 "no instance '%s': this kernel's kmark has no instances (no %s)",
			 opt_instance, idir);
	free(idir);
	idir = xmalloc(strlen(top) + strlen(opt_instance) + 12);
	sprintf(idir, "%s/instances/%s", top, opt_instance);
	if (stat(idir, &st) || !S_ISDIR(st.st_mode))
		die_code(KM_EXIT_NOINST,
			 "no instance '%s' (no directory %s); create it with 'kmark instance new %s'",
			 opt_instance, idir, opt_instance);
	instance_dir = idir;
	return instance_dir;
}

const char *ctl_dir_of(const char *name)
{
	return ctl_top_only(name) ? ctl_top_dir() : ctl_dir();
}

char *ctl_path(const char *name)
{
	return join(ctl_dir_of(name), name);
}

char *read_file(const char *path, size_t *lenp)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	size_t len = 0, alloc = 4096;
	char *buf;
	ssize_t n;

	if (fd < 0)
		return NULL;
	buf = xmalloc(alloc);
	for (;;) {
		if (alloc - len < 2048) {
			alloc *= 2;
			buf = xrealloc(buf, alloc);
		}
		n = read(fd, buf + len, alloc - len - 1);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			int e = errno;

			free(buf);
			close(fd);
			errno = e;
			return NULL;
		}
		if (n == 0)
			break;
		len += (size_t)n;
	}
	close(fd);
	buf[len] = '\0';
	if (lenp)
		*lenp = len;
	return buf;
}

char *ctl_read(const char *name)
{
	char *path = ctl_path(name), *buf;
	int e;

	buf = read_file(path, NULL);
	e = errno;
	free(path);
	errno = e;
	return buf;
}

char *ctl_read_or_die(const char *name)
{
	char *buf = ctl_read(name);

	if (!buf)
		die("cannot read %s/%s: %s", ctl_dir_of(name), name,
		    strerror(errno));
	return buf;
}

int ctl_write(const char *name, int flags, const char *buf)
{
	char *path = ctl_path(name);
	size_t len = strlen(buf), off = 0;
	int fd, ret = 0;

	fd = open(path, O_WRONLY | O_CLOEXEC | flags);
	free(path);
	if (fd < 0)
		return -errno;
	while (off < len || (!len && !off)) {
		ssize_t n = write(fd, buf + off, len - off);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			ret = -errno;
			break;
		}
		if (!len)
			break;
		if (n == 0) {
			/* no progress: retrying would spin for ever */
			ret = KM_EWRITE0;
			break;
		}
		off += (size_t)n;
	}
	if (close(fd) && !ret)
		ret = -errno;
	return ret;
}

const char *ctl_strerror(int err)
{
	if (err == KM_EWRITE0)
		return "I/O error: write() accepted no data (returned 0)";
	return strerror(-err);
}

int ctl_clear(const char *name)
{
	return ctl_write(name, O_TRUNC, "\n");
}

bool ctl_exists(const char *name)
{
	char *path = ctl_path(name);
	bool ret = !access(path, F_OK);

	free(path);
	return ret;
}

void print_error_log(const char *written)
{
	char *path = join(ctl_dir_of(written), "error_log");
	char *log = read_file(path, NULL);
	const char *start;
	size_t len;

	free(path);
	if (!log)
		return;
	if (errlog_last_entry(log, &start, &len)) {
		fwrite(start, 1, len, stderr);
		if (len && start[len - 1] != '\n')
			fputc('\n', stderr);
	}
	free(log);
}

bool parse_ulong(const char *s, unsigned long *out)
{
	char *e;

	if (!*s || *s == '-')
		return false;
	errno = 0;
	*out = strtoul(s, &e, 10);
	return !*e && !errno;
}

bool parse_seconds(const char *s, double *out)
{
	char *e;

	errno = 0;
	*out = strtod(s, &e);
	return *s && !*e && !errno && isfinite(*out) && *out > 0;
}

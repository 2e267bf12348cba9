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

const char *ctl_dir(void)
{
	const char *dir = opt_dir;
	struct stat st;
	char *mnt;

	if (resolved_dir)
		return resolved_dir;
	if (!dir)
		dir = getenv("KMARK_DIR");
	if (dir && *dir) {
		resolved_dir = xstrdup(dir);
	} else if ((mnt = mount_point("tracefs")) &&
		   (resolved_dir = join(mnt, "kmark")) &&
		   !stat(resolved_dir, &st) && S_ISDIR(st.st_mode)) {
		/* tracefs first, as trace-cmd: lockdown=integrity allows it. */
		free(mnt);
	} else {
		free(mnt);
		free(resolved_dir);
		resolved_dir = NULL;
		mnt = mount_point("debugfs");
		if (!mnt) {
			if (geteuid() != 0)
				die_code(KM_EXIT_NODIR,
					 "debugfs is not mounted and we are not root (mount -t debugfs none /sys/kernel/debug)");
			if (mount("debugfs", "/sys/kernel/debug", "debugfs", 0,
				  NULL))
				die_code(KM_EXIT_NODIR,
					 "cannot mount debugfs on /sys/kernel/debug: %s",
					 strerror(errno));
			mnt = xstrdup("/sys/kernel/debug");
		}
		resolved_dir = join(mnt, "kmark");
		free(mnt);
	}
	if (stat(resolved_dir, &st))
		die_code(KM_EXIT_NODIR,
			 "cannot use control directory %s: %s (is kmark enabled in this kernel?)",
			 resolved_dir, strerror(errno));
	if (!S_ISDIR(st.st_mode))
		die_code(KM_EXIT_NODIR, "control directory %s is not a directory",
			 resolved_dir);
	return resolved_dir;
}

char *ctl_path(const char *name)
{
	return join(ctl_dir(), name);
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
		die("cannot read %s/%s: %s", ctl_dir(), name, strerror(errno));
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

void print_error_log(void)
{
	char *log = ctl_read("error_log");
	const char *start;
	size_t len;

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

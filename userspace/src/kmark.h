/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KMARK_H
#define KMARK_H

#include <stdbool.h>
#include <stddef.h>
#include <signal.h>
#include <stdio.h>

#define KMARK_VERSION	"0.1"

/* exit codes (documented in "kmark --help" and kmark(1)) */
#define KM_EXIT_OK		0
#define KM_EXIT_ERROR		1	/* I/O or kernel error */
#define KM_EXIT_USAGE		2	/* bad command line */
#define KM_EXIT_NODIR		3	/* control directory not found */
#define KM_EXIT_NOEVENT		4	/* no such event, fallback refused */
#define KM_EXIT_NOINST		5	/* no such instance (-B NAME) */

struct cmd {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *summary;
	const char *const *usage;	/* full usage text, with options */
};

/*
 * -B, --instance NAME after the command name, in the options of every
 * command that uses per-instance files (as "kmark -B NAME COMMAND")
 */
#define KM_OPT_INSTANCE	{ "instance", required_argument, NULL, 'B' }
#define KM_HELP_INSTANCE \
	"  -B, --instance NAME    work in instance NAME (see 'kmark --help')\n"

/* subcommands */
int cmd_list(int argc, char **argv);
int cmd_enable(int argc, char **argv);
int cmd_disable(int argc, char **argv);
int cmd_probe(int argc, char **argv);
int cmd_stream(int argc, char **argv);
int cmd_record(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_stats(int argc, char **argv);
int cmd_reset(int argc, char **argv);
int cmd_instance(int argc, char **argv);
int cmd_dump(int argc, char **argv);
int cmd_hist(int argc, char **argv);

extern const char *const usage_list, *const usage_enable,
	*const usage_disable, *const usage_probe, *const usage_stream,
	*const usage_record, *const usage_report, *const usage_stats,
	*const usage_reset, *const usage_instance, *const usage_dump,
	*const usage_hist;

/* kmark.c */
const struct cmd *find_cmd(const char *name);
void print_usage(const struct cmd *c, FILE *out);
/* "kmark CMD: msg" + hint, exit 2 */
__attribute__((noreturn, format(printf, 2, 3)))
void usage_error(const char *cmd, const char *fmt, ...);

/* util.c */
__attribute__((noreturn, format(printf, 1, 2)))
void die(const char *fmt, ...);
__attribute__((noreturn, format(printf, 2, 3)))
void die_code(int code, const char *fmt, ...);
__attribute__((format(printf, 1, 2)))
void warning(const char *fmt, ...);
__attribute__((format(printf, 1, 2)))
void info(const char *fmt, ...);

/*
 * Standard output. Every write error is caught: flush_stdout() and
 * put_line() return false on error and remember the first errno;
 * finish_output() (called by main() after the command) reports
 * "kmark: writing output: ERROR" and turns an exit code 0 into 1.
 */
bool flush_stdout(void);
bool put_line(const char *s);		/* puts(s); false on error */
int finish_output(int ret);
__attribute__((noreturn))
void die_output(void);			/* report the error, exit 1 */

void set_ctl_dir(const char *dir);
/*
 * -B NAME: per-instance files are read and written under
 * <top>/instances/NAME/ (the top-only ones stay at the top, see
 * ctl_top_only()). A bad name is a usage error (exit 2); cmd names the
 * command for the hint (NULL: global option).
 */
void set_instance(const char *cmd, const char *name);
const char *instance_name(void);	/* NULL: the top instance */
/* Where the first file system of @fstype is mounted (malloc'd), or NULL. */
char *mount_point(const char *fstype);
/* resolve kmark's top control directory (exit 3 when impossible) */
const char *ctl_top_dir(void);
/*
 * the directory of the per-instance files: the top one, or with -B
 * <top>/instances/NAME (exit 5 when it does not exist)
 */
const char *ctl_dir(void);
/* the directory that holds control file @name: ctl_top_dir or ctl_dir */
const char *ctl_dir_of(const char *name);
/* malloc'ed "<ctl_dir_of(name)>/<name>" */
char *ctl_path(const char *name);
/* whole file, NUL-terminated; NULL with errno set on error */
char *read_file(const char *path, size_t *len);
char *ctl_read(const char *name);	/* NULL + errno */
char *ctl_read_or_die(const char *name);
/*
 * open(O_WRONLY|flags) and write all of buf (restarting after short
 * writes); 0, -errno, or KM_EWRITE0 when write() accepted no byte
 * (returned 0), which would otherwise loop for ever.
 */
int ctl_write(const char *name, int flags, const char *buf);
int ctl_clear(const char *name);	/* like "echo > name" */
bool ctl_exists(const char *name);	/* the file is in the control dir */
#define KM_EWRITE0	(-0x10000)	/* not an errno value */
/* message for a ctl_write()/ctl_clear() result: strerror() or KM_EWRITE0 */
const char *ctl_strerror(int err);
/*
 * print the last error_log entry to stderr, if any: of the directory that
 * holds @written, the file whose write failed (kprobe_events and
 * instances/ log at the top, set_event in its instance)
 */
void print_error_log(const char *written);

/* "123" -> 123; false on garbage */
bool parse_ulong(const char *s, unsigned long *out);
bool parse_seconds(const char *s, double *out);

/* events.c: shared by enable, disable and record */
struct enable_opts {
	bool no_fallback;
	bool quiet;
};
/*
 * Enable one name (marker, glob or kprobe fallback). On success the name
 * written to set_event is copied to enabled (size FB_NAME_LEN) if non-NULL.
 * Returns an exit code.
 */
int enable_event(const char *name, const struct enable_opts *o,
		 char *enabled);
int disable_event(const char *name);
void events_cleanup(void);

/* pipe.c: trace_pipe reader shared by stream and record */
extern volatile sig_atomic_t kmark_stop;
void install_stop_handlers(void);
/*
 * Read lines from fd until EOF, a signal, seconds elapse (seconds <= 0:
 * no limit) or cb returns non-zero. Returns 0, or -errno on read error.
 */
int read_lines(int fd, double seconds, int (*cb)(char *line, void *arg),
	       void *arg);
struct pollfd;
double mono_now(void);		/* CLOCK_MONOTONIC in seconds */
/*
 * ppoll() until deadline (a mono_now() time; 0: none), with the stop
 * signals unblocked during the wait once install_stop_handlers() ran.
 * Returns what ppoll() returns; 0 also when the deadline has passed.
 */
int stop_poll(struct pollfd *pfd, unsigned int n, double deadline);

#endif

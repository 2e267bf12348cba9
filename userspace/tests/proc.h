/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Running the kmark binary from the host tests with redirected standard
 * streams and a safety timeout (a hung child is killed, never waited for
 * forever), plus a scratch control directory made of plain files.
 */
#ifndef KMARK_TEST_PROC_H
#define KMARK_TEST_PROC_H

#include <stdbool.h>
#include <sys/types.h>

/* generous: only ever reached when the tool hangs */
#define PROC_TIMEOUT_S	10

struct proc {
	pid_t pid;
	char out_path[256];	/* captured stdout ("" when redirected) */
	char err_path[256];	/* captured stderr */
};

struct proc_result {
	int rc;			/* exit code; 128+N when killed by signal N */
	bool timed_out;		/* killed by us after the timeout */
	char *out, *err;	/* captured output (malloc'ed, may be NULL) */
};

/*
 * Start kmark with argv (NULL-terminated, without argv[0]).
 * in_file: stdin (NULL: /dev/null); out_file: stdout (NULL: captured).
 * scratch: a directory for the captured output files.
 */
void proc_start(struct proc *p, const char *scratch, const char *in_file,
		const char *out_file, const char *const *argv);
/* wait at most timeout_s seconds, then SIGKILL; fills r */
void proc_wait(struct proc *p, int timeout_s, struct proc_result *r);
/* proc_start + proc_wait(PROC_TIMEOUT_S) */
void proc_run(struct proc_result *r, const char *scratch, const char *in_file,
	      const char *out_file, const char *const *argv);
void proc_result_free(struct proc_result *r);
/*
 * Wait (up to timeout_s) until pid is asleep with a handler for signal sig
 * installed, as seen in /proc/PID/status. False when that never happens.
 */
bool proc_wait_sleeping(pid_t pid, int sig, int timeout_s);

/* waitpid() with a timeout; SIGKILL on timeout. Returns rc as above. */
int wait_child(pid_t pid, int timeout_s, bool *timed_out);

/*
 * Scratch control directory: root/kmark with available_markers (from
 * the fixture), set_event, kprobe_events, trace, tracing_on,
 * buffer_size_kb, error_log and per_cpu/cpu0/stats. root is "" on failure.
 */
struct scratch {
	char root[64];
	char dir[128];
};
void scratch_setup(struct scratch *s);
void scratch_put(const struct scratch *s, const char *name,
		 const char *content, size_t len);
/* "<dir>/<name>" in a static buffer */
const char *scratch_path(const struct scratch *s, const char *name);
void scratch_cleanup(struct scratch *s);

#endif

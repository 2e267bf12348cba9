// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "proc.h"
#include "test.h"
#include "util_read.h"

static void sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

int wait_child(pid_t pid, int timeout_s, bool *timed_out)
{
	long waited = 0;
	int status;
	pid_t r;

	*timed_out = false;
	for (;;) {
		r = waitpid(pid, &status, WNOHANG);
		if (r == pid)
			break;
		if (r < 0 && errno != EINTR)
			return -1;
		if (waited >= timeout_s * 1000L) {
			*timed_out = true;
			kill(pid, SIGKILL);
			while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
				;
			break;
		}
		sleep_ms(10);
		waited += 10;
	}
	if (WIFEXITED(status))
		return WEXITSTATUS(status);
	return 128 + WTERMSIG(status);
}

void proc_start(struct proc *p, const char *scratch, const char *in_file,
		const char *out_file, const char *const *argv)
{
	const char *av[40];
	int n = 0;

	av[n++] = kmark_bin;
	while (*argv && n < 39)
		av[n++] = *argv++;
	av[n] = NULL;
	if (out_file)
		p->out_path[0] = '\0';
	else
		snprintf(p->out_path, sizeof(p->out_path), "%s/proc-stdout",
			 scratch);
	snprintf(p->err_path, sizeof(p->err_path), "%s/proc-stderr", scratch);

	fflush(stdout);
	fflush(stderr);
	p->pid = fork();
	if (p->pid == 0) {
		int i = open(in_file ? in_file : "/dev/null", O_RDONLY);
		int o = open(out_file ? out_file : p->out_path,
			     O_WRONLY | O_CREAT | O_TRUNC, 0644);
		int e = open(p->err_path, O_WRONLY | O_CREAT | O_TRUNC, 0644);

		if (i < 0 || o < 0 || e < 0)
			_exit(126);
		dup2(i, 0);
		dup2(o, 1);
		dup2(e, 2);
		execv(kmark_bin, (char *const *)av);
		_exit(127);
	}
}

void proc_wait(struct proc *p, int timeout_s, struct proc_result *r)
{
	memset(r, 0, sizeof(*r));
	r->rc = wait_child(p->pid, timeout_s, &r->timed_out);
	r->out = p->out_path[0] ? slurp(p->out_path) : NULL;
	r->err = slurp(p->err_path);
	if (r->timed_out)
		printf("# child killed after %d s (hung)\n", timeout_s);
}

void proc_run(struct proc_result *r, const char *scratch, const char *in_file,
	      const char *out_file, const char *const *argv)
{
	struct proc p;

	proc_start(&p, scratch, in_file, out_file, argv);
	proc_wait(&p, PROC_TIMEOUT_S, r);
}

void proc_result_free(struct proc_result *r)
{
	free(r->out);
	free(r->err);
	memset(r, 0, sizeof(*r));
}

bool proc_wait_sleeping(pid_t pid, int sig, int timeout_s)
{
	char path[64], line[256];
	long waited;

	snprintf(path, sizeof(path), "/proc/%d/status", (int)pid);
	for (waited = 0; waited < timeout_s * 1000L; waited += 10) {
		FILE *f = fopen(path, "r");
		bool asleep = false, caught = false;

		if (!f)
			return false;
		while (fgets(line, sizeof(line), f)) {
			unsigned long long mask;

			if (!strncmp(line, "State:\tS", 8))
				asleep = true;
			if (sscanf(line, "SigCgt: %llx", &mask) == 1)
				caught = mask & (1ULL << (sig - 1));
		}
		fclose(f);
		if (asleep && caught)
			return true;
		sleep_ms(10);
	}
	return false;
}

const char *scratch_path(const struct scratch *s, const char *name)
{
	static char path[512];

	snprintf(path, sizeof(path), "%s/%s", s->dir, name);
	return path;
}

void scratch_put(const struct scratch *s, const char *name,
		 const char *content, size_t len)
{
	FILE *f = fopen(scratch_path(s, name), "w");

	if (!f) {
		perror(scratch_path(s, name));
		abort();
	}
	if (len && fwrite(content, 1, len, f) != len)
		abort();
	if (fclose(f))
		abort();
}

static void put_str(const struct scratch *s, const char *name,
		    const char *content)
{
	scratch_put(s, name, content, strlen(content));
}

void scratch_setup(struct scratch *s)
{
	char *buf;

	strcpy(s->root, "/tmp/kmark-test.XXXXXX");
	if (!mkdtemp(s->root)) {
		perror("mkdtemp");
		abort();
	}
	snprintf(s->dir, sizeof(s->dir), "%s/kmark", s->root);
	mkdir(s->dir, 0755);
	buf = fixture("available_markers");
	put_str(s, "available_markers", buf);
	free(buf);
	put_str(s, "set_event", "sched_switch\n");
	put_str(s, "kprobe_events", "");
	put_str(s, "trace", "");
	put_str(s, "tracing_on", "1\n");
	put_str(s, "buffer_size_kb", "1408\n");
	put_str(s, "error_log", "");
	mkdir(scratch_path(s, "per_cpu"), 0755);
	mkdir(scratch_path(s, "per_cpu/cpu0"), 0755);
	buf = fixture("stats_cpu0");
	put_str(s, "per_cpu/cpu0/stats", buf);
	free(buf);
	buf = fixture("trace_basic.txt");
	put_str(s, "trace_pipe", buf);
	free(buf);
}

void scratch_cleanup(struct scratch *s)
{
	char cmd[160];

	if (!s->root[0])
		return;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", s->root);
	if (system(cmd))
		fprintf(stderr, "cannot remove %s\n", s->root);
	s->root[0] = '\0';
}

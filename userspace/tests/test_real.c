// SPDX-License-Identifier: GPL-2.0
/*
 * The parser on real kernel output: fixtures/real-ARCH.trace is trace_pipe
 * as a guest printed it (scripts/capture-fixtures.sh), real-ARCH.counts the
 * kernel's own counts for that run. Every line must parse, the events must
 * number what the kernel says was read, the LOST lines what it says was
 * lost, and odd comms ("ping pong", "[pong]-x") must come out whole.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test.h"
#include "tparse.h"

static void test_one(const char *arch)
{
	char name[64], *buf, *counts, *line, *save = NULL;
	unsigned long long lost = 0, want_read = 0, want_lost = 0, want_written = 0;
	long long events = 0, bad = 0, switches = 0, odd = 0, kprobes = 0;
	struct tl_line tl;
	struct tl_switch sw;

	snprintf(name, sizeof(name), "real-%s.counts", arch);
	counts = fixture(name);
	if (sscanf(counts, "written=%llu read=%llu lost=%llu", &want_written,
		   &want_read, &want_lost) != 3)
		check(0, "real %s: counts file parses", arch);
	snprintf(name, sizeof(name), "real-%s.trace", arch);
	buf = fixture(name);
	for (line = strtok_r(buf, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		switch (tl_parse(line, &tl)) {
		case TL_EVENT:
			events++;
			if (!strcmp(tl.ev.name, "sched_switch")) {
				switches++;
				if (tl_parse_switch(&tl.ev, &sw))
					bad++;
				else if (!strcmp(tl.ev.comm, "[pong]-x") &&
					 !strcmp(sw.prev_comm, "[pong]-x") &&
					 sw.prev_pid == tl.ev.pid)
					odd++;
			}
			if (!strcmp(tl.ev.name, "myopen") ||
			    !strcmp(tl.ev.name, "myopenret"))
				kprobes++;
			break;
		case TL_LOST:
			lost += tl.lost;
			break;
		case TL_BLANK:
			break;
		default:
			bad++;
			fprintf(stderr, "# unparsed: %s\n", line);
		}
	}
	check_ll(bad, 0, "real %s: every line of real trace_pipe output parses", arch);
	check_ll(events, (long long)want_read,
		 "real %s: events parsed = events the kernel says were read", arch);
	check_ll((long long)lost, (long long)want_lost,
		 "real %s: LOST lines add up to the kernel's overrun + dropped", arch);
	check_ll((long long)(want_read + want_lost), (long long)want_written,
		 "real %s: the kernel's written = read + lost", arch);
	check(switches > 0, "real %s: has sched_switch lines (%lld)", arch, switches);
	check(odd > 0, "real %s: comm '[pong]-x' parsed whole, same pid as the task column", arch);
	check(kprobes > 0, "real %s: has kprobe lines (%lld)", arch, kprobes);
	free(buf);
	free(counts);
}

void test_real(void)
{
	test_one("x86_64");
	test_one("i386");
}

// SPDX-License-Identifier: GPL-2.0
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ctlfmt.h"
#include "test.h"

static void test_markers(void)
{
	char *buf = fixture("available_markers");
	struct marker_list ml;
	const struct marker *m;

	check_ll((long long)markers_parse(buf, &ml), 4,
		 "markers: 4 entries in fixture");
	m = markers_find(&ml, "sched_switch");
	check(m && m->type == MK_MARKER, "markers: sched_switch is a marker");
	check_ll(m ? (long long)m->nfields : -1, 7,
		 "markers: sched_switch has 7 fields");
	check_str(m ? m->fields[3].name : NULL, "prev_state",
		  "markers: 4th field name");
	check_str(m ? m->fields[4].name : NULL, "next_comm",
		  "markers: field after ' ==> '");
	m = markers_find(&ml, "sched_wakeup");
	check_str(m ? m->fields[3].conv : NULL, "%03d",
		  "markers: conversion with width");
	m = markers_find(&ml, "sys_sync");
	check(m && m->nfields == 0 && !strcmp(m->format, ""),
	      "markers: zero-argument marker has empty format");
	m = markers_find(&ml, "myopen");
	check(m && !strcmp(m->name, "kprobes/myopen"),
	      "markers: kprobe event found by short name");
	check(m && m->type == MK_KPROBE, "markers: [kprobe] tag sets type");
	check(m && m->nfields == 2 && !strcmp(m->fields[1].name, "fname"),
	      "markers: kprobe fields after the tag");
	check(m && !strcmp(m->format, "dfd=%d fname=%s"),
	      "markers: tag removed from the kprobe format");
	markers_free(&ml);
	free(buf);

	markers_parse("kprobes/r [kretprobe] ret=%lx\n", &ml);
	check(ml.n == 1 && ml.v[0].type == MK_KRETPROBE,
	      "markers: [kretprobe] tag sets type");
	markers_free(&ml);
}

static void test_set_event(void)
{
	struct strlist sl = { 0 };

	set_event_parse("sched_switch\nmyopen\n\n", &sl);
	check_ll((long long)sl.n, 2, "set_event: two names, blank skipped");
	check(set_event_has(&sl, "kprobes/myopen"),
	      "set_event: 'myopen' enables kprobes/myopen");
	check(set_event_has(&sl, "sched_switch"),
	      "set_event: sched_switch enabled");
	check(!set_event_has(&sl, "sched_wakeup"),
	      "set_event: sched_wakeup not enabled");
	sl_free(&sl);
	set_event_parse("kprobes/myopen\n", &sl);
	check(set_event_has(&sl, "kprobes/myopen"),
	      "set_event: full kprobes/ name");
	check(!set_event_has(&sl, "myopen_other"),
	      "set_event: no prefix matching");
	sl_free(&sl);
}

static void test_syms(void)
{
	char *buf = fixture("kallsyms");
	struct strlist sl = { 0 };

	kallsyms_parse(buf, &sl);
	check_ll((long long)sl.n, 10, "kallsyms: 10 text symbols in fixture");
	check(sl_contains(&sl, "do_sys_openat2"), "kallsyms: T symbol kept");
	check(sl_contains(&sl, "sched_clock_tick.part.0"),
	      "kallsyms: t clone symbol kept");
	check(sl_contains(&sl, "mymod_open"),
	      "kallsyms: module symbol without [module] suffix");
	check(!sl_contains(&sl, "jiffies_data"), "kallsyms: D symbol dropped");
	free(buf);
	sl_free(&sl);

	buf = fixture("blacklist");
	blacklist_parse(buf, &sl);
	check_ll((long long)sl.n, 2, "blacklist: 2 entries");
	check_str(sl.n ? sl.v[0] : NULL, "do_int3", "blacklist: symbol column");
	free(buf);
	sl_free(&sl);
}

static void test_errlog(void)
{
	char *buf = fixture("error_log");
	const char *start;
	size_t len;
	char out[256];

	check(errlog_last_entry(buf, &start, &len),
	      "error_log: has a last entry");
	snprintf(out, sizeof(out), "%.*s", (int)len, start);
	check_str(out,
		  "[   12.345678] kmark: error: Unknown marker or event\n"
		  "  Command: foo_bar\n"
		  "           ^\n",
		  "error_log: last entry is the whole 3-line entry");
	check(!errlog_last_entry("", &start, &len),
	      "error_log: empty log has no entry");
	free(buf);
}

static void test_stats(void)
{
	char *buf = fixture("stats_cpu0");
	struct kv kv[16];
	size_t n = stats_parse(buf, kv, 16);

	check_ll((long long)n, 9, "stats: 9 keys");
	check_str(kv_get(kv, n, "oldest event ts"), "4.512345",
		  "stats: key with spaces, value trimmed");
	check_str(kv_get(kv, n, "entries"), "120", "stats: entries");
	check(kv_get(kv, n, "nonexistent") == NULL, "stats: missing key");
	free(buf);
}

void test_ctlfmt(void)
{
	test_markers();
	test_set_event();
	test_syms();
	test_errlog();
	test_stats();
}

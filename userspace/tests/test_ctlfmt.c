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
	char *id;

	check_ll((long long)markers_parse(buf, &ml), 4,
		 "markers: 4 entries in fixture");
	m = markers_find(&ml, "sched_switch");
	check(m && m->type == MK_MARKER, "markers: sched_switch is a marker");
	check_str(m ? m->system : NULL, "sched",
		  "markers: 'SYS:NAME': the system");
	check_str(m ? m->name : NULL, "sched_switch",
		  "markers: 'SYS:NAME': the name");
	id = m ? marker_id(m) : NULL;
	check_str(id, "sched:sched_switch", "markers: the id is SYS:NAME");
	free(id);
	check_ll(m ? (long long)m->nfields : -1, 7,
		 "markers: sched_switch has 7 fields");
	check_str(m ? m->fields[3].name : NULL, "prev_state",
		  "markers: 4th field name");
	check_str(m ? m->fields[4].name : NULL, "next_comm",
		  "markers: field after ' ==> '");
	m = markers_find(&ml, "sched:sched_wakeup");
	check_str(m ? m->fields[3].conv : NULL, "%03d",
		  "markers: conversion with width (found as SYS:NAME)");
	m = markers_find(&ml, "sys_sync");
	check(m && m->nfields == 0 && !strcmp(m->format, "") &&
	      !strcmp(m->system, "syscalls"),
	      "markers: zero-argument marker has empty format, its system");
	m = markers_find(&ml, "myopen");
	check(m && !strcmp(m->name, "myopen") && !strcmp(m->system, "kprobes"),
	      "markers: kprobe event in its group's system");
	check(m && m->type == MK_KPROBE, "markers: [kprobe] tag sets type");
	check(m && m->nfields == 2 && !strcmp(m->fields[1].name, "fname") &&
	      !strcmp(m->fields[1].conv, "ustring") &&
	      !strcmp(m->fields[0].conv, "s32"),
	      "markers: kprobe fields after the tag, 'name=type'");
	check(m && !strcmp(m->format, "dfd=s32 fname=ustring"),
	      "markers: tag removed from the kprobe format");
	check(!markers_find(&ml, "kmark:myopen"),
	      "markers: a name in another system is not found");
	markers_free(&ml);
	free(buf);

	markers_parse("grp:r [kretprobe] ret=u64\n", &ml);
	check(ml.n == 1 && ml.v[0].type == MK_KRETPROBE &&
	      !strcmp(ml.v[0].system, "grp"),
	      "markers: [kretprobe] tag sets type, any group");
	markers_free(&ml);
}

/* available_markers of a kernel with a module's markers loaded */
static const char module_markers[] =
	"sched:sched_switch prev_comm=%s prev_pid=%d\n"
	"kmark_sample:kmark_sample_step step=%d of=%d comm=%s [kmark_sample]\n"
	"kmark_sample:kmark_sample_done  [kmark_sample]\n"
	"kprobes:myopen [kprobe] dfd=s32 fname=string\n";

static void test_module_markers(void)
{
	struct marker_list ml;
	struct strlist ids = { 0 };
	const struct marker *m;

	check_ll((long long)markers_parse(module_markers, &ml), 4,
		 "modules: 4 entries");
	m = markers_find(&ml, "kmark_sample_step");
	check_str(m ? m->module : NULL, "kmark_sample",
		  "modules: '[module]' suffix sets the module");
	check_str(m ? m->format : NULL, "step=%d of=%d comm=%s",
		  "modules: suffix removed from the format");
	check_ll(m ? (long long)m->nfields : -1, 3,
		 "modules: fields of a module's marker");
	m = markers_find(&ml, "kmark_sample_done");
	check(m && m->module && !strcmp(m->module, "kmark_sample") &&
	      !strcmp(m->format, "") && !m->nfields,
	      "modules: zero-argument marker: 'NAME  [module]'");
	m = markers_find(&ml, "sched_switch");
	check(m && !m->module, "modules: kernel marker has no module");
	m = markers_find(&ml, "myopen");
	check(m && !m->module && m->type == MK_KPROBE,
	      "modules: kprobe event has no module");
	markers_names(&ml, &ids);
	check(ids.n == 4 && !strcmp(ids.v[0], "sched:sched_switch") &&
	      !strcmp(ids.v[1], "kmark_sample:kmark_sample_step") &&
	      !strcmp(ids.v[3], "kprobes:myopen"),
	      "modules: ids are SYS:NAME");
	sl_free(&ids);
	markers_free(&ml);

	markers_parse("kmark:arr vals=[%d %d] tag=[x]\n"
		      "kmark:odd state=%d [%s]\n"
		      "my-drv:drv_ev x=%d [my-drv]\n"
		      "kprobes:kp [kprobe] a=s32 [b]\n"
		      "kprobe:kprobe  [kprobe]\n", &ml);
	check(ml.n == 5 && !ml.v[0].module &&
	      !strcmp(ml.v[0].format, "vals=[%d %d] tag=[x]"),
	      "modules: brackets inside a format are the format's");
	check(ml.n == 5 && !ml.v[1].module &&
	      !strcmp(ml.v[1].format, "state=%d [%s]"),
	      "modules: '[%%s]' at the end is not a module");
	check(ml.n == 5 && ml.v[2].module &&
	      !strcmp(ml.v[2].module, "my-drv") &&
	      !strcmp(ml.v[2].format, "x=%d"),
	      "modules: module name with '-'");
	check(ml.n == 5 && !ml.v[3].module && ml.v[3].type == MK_KPROBE &&
	      !strcmp(ml.v[3].format, "a=s32 [b]"),
	      "modules: kprobe lines keep a trailing '[b]'");
	check(ml.n == 5 && ml.v[4].type == MK_KPROBE && !ml.v[4].module,
	      "modules: a kprobe event without fields: the tag alone");
	markers_free(&ml);

	markers_parse("kprobe:x  [kprobe-mod]\n", &ml);
	check(ml.n == 1 && ml.v[0].type == MK_MARKER && ml.v[0].module &&
	      !strcmp(ml.v[0].module, "kprobe-mod"),
	      "modules: a marker of module 'kprobe-mod' is no kprobe event");
	markers_free(&ml);
}

static void test_tokens(void)
{
	char sys[KM_MODNAME_LEN];

	check(event_token_matches("kmark_sample:*", "kmark_sample",
				  "kmark_sample_step"),
	      "token: 'SYS:*' matches the system's event");
	check(!event_token_matches("kmark_sample:*", "sched", "sched_switch"),
	      "token: 'SYS:*' does not match another system's");
	check(event_token_matches("kmark_sample_step", "kmark_sample",
				  "kmark_sample_step"),
	      "token: a plain name matches in any system");
	check(event_token_matches("sched", "sched", "sched_switch"),
	      "token: a plain word names a system's events too");
	check(!event_token_matches("sched", "kmark", "sched_x"),
	      "token: ... but is no prefix");
	check(event_token_matches("sched:", "sched", "sched_wakeup"),
	      "token: 'SYS:' is the whole system");
	check(event_token_matches(":myopen", "kprobes", "myopen"),
	      "token: ':NAME' in any system");
	check(event_token_matches("kprobes/myopen", "kprobes", "myopen"),
	      "token: the older 'SYS/NAME'");
	check(event_token_matches("*:sched_*", "sched", "sched_switch"),
	      "token: globs in both parts");
	check(!event_token_matches("other:kmark_sample_step", "kmark_sample",
				   "kmark_sample_step"),
	      "token: another system's name does not match");
	check(event_token_matches("sched_*", "sched", "sched_switch") &&
	      !event_token_matches("sched_*", "sched", "other"),
	      "token: a plain glob on names (and systems)");
	check(event_token_matches_id("kmark_*:*_done",
				     "kmark_sample:kmark_sample_done"),
	      "token: matched against an id");
	check_str(event_split("mydrv:irq", sys), "irq", "split: the name");
	check_str(sys, "mydrv", "split: the system");
	check_str(event_split("grp/ev", sys), "ev", "split: 'SYS/NAME'");
	check_str(event_split(":x", sys), "x", "split: empty system");
	check_str(sys, "", "split: ... is empty");
}

static void test_set_event(void)
{
	struct strlist sl = { 0 }, tok = { 0 };
	struct marker_list ml;
	bool on[4];

	markers_parse(module_markers, &ml);
	set_event_parse("sched:sched_switch\nkprobes:myopen\n\n", &sl);
	check_ll((long long)sl.n, 2, "set_event: two lines, blank skipped");
	set_event_split(&ml, &sl, on, &tok);
	check(on[3], "set_event: 'kprobes:myopen' is kprobes:myopen enabled");
	check(on[0], "set_event: sched:sched_switch enabled");
	check(!on[1] && !on[2] && !tok.n,
	      "set_event: the others not enabled, no token");
	sl_free(&sl);

	set_event_parse("sched:sched_switch\nkmark_sample:kmark_sample_done\n"
			"kprobes:myopen\nkmark_sample:kmark_sample_stp\n"
			"mydrv:*\nmydrv:mydrv_irq\n", &sl);
	set_event_split(&ml, &sl, on, &tok);
	check(on[0] && !on[1] && on[2] && on[3],
	      "set_event: a module's marker enabled as SYS:NAME");
	check(tok.n == 3 && !strcmp(tok.v[0], "kmark_sample:kmark_sample_stp") &&
	      !strcmp(tok.v[1], "mydrv:*") && !strcmp(tok.v[2], "mydrv:mydrv_irq"),
	      "set_event: tokens, in order");
	sl_free(&sl);
	sl_free(&tok);

	set_event_parse("kmark_sample:kmark_sample_step\n"
			"kmark_sample:kmark_sample_step\n", &sl);
	set_event_split(&ml, &sl, on, &tok);
	check(on[1] && tok.n == 1,
	      "set_event: enabled marker and its token, the same line twice");
	sl_free(&sl);
	sl_free(&tok);

	set_event_parse("kmark_sample_step\nmyopen\n", &sl);
	set_event_split(&ml, &sl, on, &tok);
	check(!on[1] && !on[3] && tok.n == 2,
	      "set_event: lines are SYS:NAME; a bare name is no event's");
	sl_free(&sl);
	sl_free(&tok);
	markers_free(&ml);
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
	check(sl_contains(&sl, "mymod:mymod_open"),
	      "kallsyms: module symbol as MODULE:SYM");
	check(!sl_contains(&sl, "jiffies_data"), "kallsyms: D symbol dropped");
	free(buf);
	sl_free(&sl);

	buf = fixture("blacklist");
	blacklist_parse(buf, &sl);
	check_ll((long long)sl.n, 2, "blacklist: 2 entries");
	check_str(sl.n ? sl.v[0] : NULL, "do_int3", "blacklist: symbol column");
	free(buf);
	sl_free(&sl);

	kallsyms_parse("ffffffffc0001000 t kmark_sample_work\t[kmark_sample]\n"
		       "ffffffffc0001100 t helper.isra.0\t[kmark_sample]\n"
		       "ffffffffc0001200 d data\t[kmark_sample]\n"
		       "ffffffffc0001300 t odd\t[unterminated\n", &sl);
	check(sl.n == 3 && !strcmp(sl.v[0], "kmark_sample:kmark_sample_work") &&
	      !strcmp(sl.v[1], "kmark_sample:helper.isra.0") &&
	      !strcmp(sl.v[2], "odd"),
	      "kallsyms: module ids, data skipped, bad suffix ignored");
	sl_free(&sl);
	blacklist_parse("0xffffffffc0001000-0xffffffffc0001010\tmod_bad [mymod]\n",
			&sl);
	check_str(sl.n ? sl.v[0] : NULL, "mymod:mod_bad",
		  "blacklist: module symbol as MODULE:SYM");
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

static void test_instance_paths(void)
{
	static const char *const top[] = {
		"available_markers", "README", "kprobe_events",
		"dynamic_events", "kprobe_profile", "saved_comms",
		"saved_cmdlines", "instances", "instances/new",
		"instances/remove", "instances/s1/set_event",
	};
	static const char *const inst[] = {
		"tracing_on", "set_event", "trace", "trace_pipe",
		"buffer_size_kb", "buffer_total_size_kb", "error_log",
		"read_delay_ms", "buffer_percent", "trace_marker",
		"trace_clock", "tracing_cpumask", "available_events",
		"set_event_pid", "set_event_notrace_pid", "options",
		"options/event-fork", "per_cpu", "per_cpu/cpu0/stats",
		"per_cpu/cpu1/trace_pipe_raw", "events", "events/enable",
		"events/header_page", "events/sched/sched_switch/format",
		"events/sched/sched_switch/filter", "events/kprobes/enable",
		/* not fooled by prefixes */
		"kprobe_events_x", "instancesx", "saved_comms2",
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(top); i++)
		check(ctl_top_only(top[i]), "instances: %s is the top's (-B leaves it)",
		      top[i]);
	for (i = 0; i < ARRAY_SIZE(inst); i++)
		check(!ctl_top_only(inst[i]),
		      "instances: %s is per instance (-B maps it)", inst[i]);

	check(!instance_name_err("s1") && !instance_name_err("a.b-c_D9") &&
	      !instance_name_err("012345678901234567890123456789012345678901234567890123456789012"),
	      "instances: valid names (63 characters at most)");
	check_has(instance_name_err("0123456789012345678901234567890123456789012345678901234567890123"),
		  "too long", "instances: 64 characters are too many");
	check_has(instance_name_err("../x"), "letters, digits",
		  "instances: '/' refused (no path outside instances/)");
	check_has(instance_name_err("a b"), "letters, digits",
		  "instances: a space refused");
	check_has(instance_name_err(""), "needs a name", "instances: empty name");
	check(instance_name_err("new") && instance_name_err("remove") &&
	      instance_name_err(".") && instance_name_err(".."),
	      "instances: new, remove, . and .. are reserved");
	check(instance_dirent("s1") && !instance_dirent("new") && !instance_dirent("remove") &&
	      !instance_dirent(".."),
	      "instances: a listing skips new, remove, . and ..");
}

void test_ctlfmt(void)
{
	test_markers();
	test_module_markers();
	test_tokens();
	test_set_event();
	test_syms();
	test_errlog();
	test_stats();
	test_instance_paths();
}

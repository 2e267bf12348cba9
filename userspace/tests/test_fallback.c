// SPDX-License-Identifier: GPL-2.0
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ctlfmt.h"
#include "fallback.h"
#include "test.h"

static struct strlist markers, ksyms, blacklist;

static void setup(void)
{
	char *buf;
	struct marker_list ml;

	buf = fixture("available_markers");
	markers_parse(buf, &ml);
	markers_names(&ml, &markers);
	markers_free(&ml);
	free(buf);
	buf = fixture("kallsyms");
	kallsyms_parse(buf, &ksyms);
	free(buf);
	/* a marker name that is also a function: the marker must win */
	sl_push(&ksyms, "sched_switch");
	buf = fixture("blacklist");
	blacklist_parse(buf, &blacklist);
	free(buf);
}

static void decide(const char *name, bool nofb, struct fb_decision *d)
{
	fb_decide(&markers, &ksyms, &blacklist, name, nofb, d);
}

void test_fallback(void)
{
	struct fb_decision d;
	struct strlist bl2 = { 0 }, many = { 0 };

	setup();

	decide("sched_switch", false, &d);
	check_str(fb_kind_name(d.kind), "MARKER",
		  "fallback: marker chosen before a same-named function");
	check_str(d.event, "sched_switch", "fallback: marker event name");

	decide("myopen", false, &d);
	check_str(fb_kind_name(d.kind), "MARKER",
		  "fallback: defined kprobe event addressed by short name");
	decide("kprobes/myopen", false, &d);
	check_str(fb_kind_name(d.kind), "MARKER",
		  "fallback: defined kprobe event addressed by full name");

	decide("do_sys_openat2", false, &d);
	check_str(fb_kind_name(d.kind), "KPROBE",
		  "fallback: function in kallsyms gets a kprobe");
	check_str(d.symbol, "do_sys_openat2", "fallback: kprobe symbol");
	check_str(d.event, "do_sys_openat2", "fallback: kprobe event name");

	decide("mymod_open", false, &d);
	check_str(fb_kind_name(d.kind), "KPROBE",
		  "fallback: module function gets a kprobe");

	decide("sched_clock_tick", false, &d);
	check_str(fb_kind_name(d.kind), "KPROBE_CLONE",
		  "fallback: unique .part.0 clone resolved");
	check_str(d.symbol, "sched_clock_tick.part.0",
		  "fallback: clone symbol chosen");
	check_str(d.event, "sched_clock_tick",
		  "fallback: clone event keeps the user's name");

	decide("sched_clock_tick.part.0", false, &d);
	check_str(fb_kind_name(d.kind), "KPROBE",
		  "fallback: explicit clone name is an exact symbol");
	check_str(d.event, "sched_clock_tick_part_0",
		  "fallback: event name sanitised ('.' -> '_')");

	decide("twin", false, &d);
	check_str(fb_kind_name(d.kind), "REFUSE_AMBIGUOUS",
		  "fallback: two clones are ambiguous");
	check_ll(d.ncandidates, 2, "fallback: two clone candidates");

	decide("dup_sym", false, &d);
	check_str(fb_kind_name(d.kind), "REFUSE_AMBIGUOUS",
		  "fallback: duplicate symbol is ambiguous");

	decide("do_int3", false, &d);
	check_str(fb_kind_name(d.kind), "REFUSE_BLACKLIST",
		  "fallback: blacklisted function refused");
	check_str(d.symbol, "do_int3", "fallback: blacklisted symbol named");

	sl_push(&bl2, "sched_clock_tick.part.0");
	fb_decide(&markers, &ksyms, &bl2, "sched_clock_tick", false, &d);
	check_str(fb_kind_name(d.kind), "REFUSE_BLACKLIST",
		  "fallback: blacklisted clone refused");
	sl_free(&bl2);

	decide("context_switch", false, &d);
	check_str(fb_kind_name(d.kind), "REFUSE_NOT_FOUND",
		  "fallback: inlined function (not in kallsyms) refused");
	check_ll(d.nsuggest, 1, "fallback: one near marker for context_switch");
	check_str(d.suggest[0], "sched_switch",
		  "fallback: context_switch suggests sched_switch");

	decide("sched_swich", false, &d);
	check_str(fb_kind_name(d.kind), "REFUSE_NOT_FOUND",
		  "fallback: typo is not found");
	check_str(d.suggest[0], "sched_switch",
		  "fallback: nearest suggestion first");
	check_ll(d.nsuggest, 1,
		 "fallback: far markers (sched_wakeup: 6 edits) not suggested");

	decide("jiffies_data", false, &d);
	check_str(fb_kind_name(d.kind), "REFUSE_NOT_FOUND",
		  "fallback: data symbol is not probe-able");

	decide("do_sys_openat2", true, &d);
	check_str(fb_kind_name(d.kind), "REFUSE_NO_FALLBACK",
		  "fallback: --no-fallback refuses the function");
	decide("sched_switch", true, &d);
	check_str(fb_kind_name(d.kind), "MARKER",
		  "fallback: --no-fallback still enables markers");

	decide("foo-bar", false, &d);
	check_str(fb_kind_name(d.kind), "REFUSE_BAD_NAME",
		  "fallback: invalid event name refused");

	decide("sched_*", false, &d);
	check_str(fb_kind_name(d.kind), "GLOB", "fallback: matching glob");
	decide("zz*", false, &d);
	check_str(fb_kind_name(d.kind), "REFUSE_GLOB",
		  "fallback: glob matching nothing refused");

	sl_push(&many, "ev_a");
	sl_push(&many, "ev_b");
	sl_push(&many, "ev_c");
	sl_push(&many, "ev_d");
	sl_push(&many, "evx_aa");
	fb_decide(&many, &ksyms, &blacklist, "ev_", false, &d);
	check_ll(d.nsuggest, 3, "fallback: at most 3 suggestions");
	check_str(d.suggest[2], "ev_c",
		  "fallback: equal distances sorted by name");
	sl_free(&many);

	check_ll(fb_clone_base_len("foo.isra.0"), 3, "clone: .isra.0");
	check_ll(fb_clone_base_len("foo.constprop.0.isra.0"), 3,
		 "clone: chained suffixes");
	check_ll(fb_clone_base_len("foo.cold"), 0, "clone: .cold rejected");
	check_ll(fb_clone_base_len("foo.part.x"), 0,
		 "clone: non-numeric suffix rejected");
	check_ll(levenshtein("kitten", "sitting"), 3, "levenshtein: classic");
	check_ll(levenshtein("", "abc"), 3, "levenshtein: empty string");

	sl_free(&markers);
	sl_free(&ksyms);
	sl_free(&blacklist);
}

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

/* a kernel with modules kmark_sample (markers), otherdrv and nomarkers */
static const char mod_markers[] =
	"sched:sched_switch prev_comm=%s prev_pid=%d\n"
	"kmark_sample:kmark_sample_step step=%d of=%d comm=%s [kmark_sample]\n"
	"kmark_sample:kmark_sample_done  [kmark_sample]\n"
	"kprobes:myopen [kprobe] dfd=s32\n";
static const char mod_kallsyms[] =
	"ffffffff81234560 T do_sys_openat2\n"
	"ffffffff81234600 t shared_fn\n"
	"ffffffffc0001000 t kmark_sample_work\t[kmark_sample]\n"
	"ffffffffc0001200 t helper.isra.0\t[kmark_sample]\n"
	"ffffffffc0002000 t shared_fn\t[otherdrv]\n"
	"ffffffffc0002200 t twin.isra.0\t[otherdrv]\n"
	"ffffffffc0002300 t twin.part.0\t[otherdrv]\n"
	"ffffffffc0002400 t dup\t[otherdrv]\n"
	"ffffffffc0002500 t dup\t[otherdrv]\n"
	"ffffffffc0002600 t mod_bad\t[otherdrv]\n"
	"ffffffffc0003000 t nomark_fn\t[nomarkers]\n";
static const char mod_blacklist[] =
	"0xffffffffc0002600-0xffffffffc0002610\tmod_bad [otherdrv]\n";

static struct strlist mmarkers, mksyms, mblacklist;

static void mdecide(const char *name, bool nofb, struct fb_decision *d)
{
	fb_decide(&mmarkers, &mksyms, &mblacklist, name, nofb, d);
}

/* decide NAME, check the kind, and (if not NULL) event and symbol */
static void expect(const char *name, bool nofb, const char *kind,
		   const char *event, const char *symbol, const char *what)
{
	struct fb_decision d;

	mdecide(name, nofb, &d);
	check_str(fb_kind_name(d.kind), kind, "fallback: %s: %s", what, name);
	if (event)
		check_str(d.event, event, "fallback: %s: event", what);
	if (symbol)
		check_str(d.symbol, symbol, "fallback: %s: symbol", what);
}

static void test_fallback_modules(void)
{
	struct marker_list ml;
	struct fb_decision d;

	markers_parse(mod_markers, &ml);
	markers_names(&ml, &mmarkers);
	markers_free(&ml);
	kallsyms_parse(mod_kallsyms, &mksyms);
	blacklist_parse(mod_blacklist, &mblacklist);

	expect("kmark_sample:kmark_sample_step", false, "MARKER",
	       "kmark_sample:kmark_sample_step", NULL,
	       "module marker by MODULE:NAME");
	expect("kmark_sample_step", false, "MARKER", "kmark_sample_step", NULL,
	       "module marker by its plain name");
	expect("sched:sched_switch", false, "MARKER", "sched:sched_switch",
	       NULL, "kernel marker as SYS:NAME");
	expect("sched:", false, "MARKER", "sched:", NULL,
	       "a whole system as SYS:");
	expect("sched", false, "MARKER", "sched", NULL,
	       "a plain word that is a system's name");
	expect(":kmark_sample_done", false, "MARKER", NULL, NULL,
	       ":NAME, in any system");
	expect("kmark_sample/kmark_sample_done", false, "MARKER", NULL, NULL,
	       "the older SYS/NAME");
	expect("kmark_sample:*", false, "GLOB", NULL, NULL,
	       "module glob matching");
	expect("*:kmark_sample_d*", false, "GLOB", NULL, NULL,
	       "glob in the module part");
	expect("kmark_sample:zz*", false, "REFUSE_GLOB", NULL, NULL,
	       "glob of a loaded module matching nothing");
	expect("kmark*:zz*", false, "REFUSE_GLOB", NULL, NULL,
	       "module glob matching nothing does not wait");
	expect("sched:kmark_sample_*", false, "REFUSE_GLOB", NULL, NULL,
	       "a module's markers are not in another system");

	expect("mydrv:mydrv_irq", false, "PENDING", "mydrv:mydrv_irq", NULL,
	       "module not loaded: waits");
	mdecide("mydrv:mydrv_irq", false, &d);
	check_str(d.module, "mydrv", "fallback: pending: the module named");
	expect("mydrv:*", false, "PENDING", "mydrv:*", NULL,
	       "glob of a module not loaded: waits");
	expect("mydrv:mydrv_irq", true, "PENDING", NULL, NULL,
	       "--no-fallback: still waits");
	expect("nomarkers:foo", false, "REFUSE_NOT_FOUND", NULL, NULL,
	       "loaded module (kallsyms) without it: no wait");
	expect("nomarkers:*", false, "REFUSE_GLOB", NULL, NULL,
	       "glob of a loaded module without markers");
	expect("mydrv:", false, "REFUSE_BAD_NAME", NULL, NULL,
	       "empty name");
	expect(":foo", false, "REFUSE_BAD_NAME", NULL, NULL,
	       "empty system, no such event");
	expect("my@drv:foo", false, "REFUSE_BAD_NAME", NULL, NULL,
	       "bad module name does not wait");

	expect("kmark_sample:kmark_sample_work", false, "KPROBE",
	       "kprobes:kmark_sample_work", "kmark_sample:kmark_sample_work",
	       "MOD:SYM kprobe");
	expect("kmark_sample:kmark_sample_work", true, "REFUSE_NO_FALLBACK",
	       NULL, NULL, "MOD:SYM with --no-fallback");
	expect("kmark_sample_work", false, "KPROBE", "kprobes:kmark_sample_work",
	       "kmark_sample:kmark_sample_work",
	       "plain name only in a module: probe MOD:SYM");
	expect("kmark_sample:helper", false, "KPROBE_CLONE", "kprobes:helper",
	       "kmark_sample:helper.isra.0", "MOD:SYM unique clone");
	expect("otherdrv:shared_fn", false, "KPROBE", "kprobes:shared_fn",
	       "otherdrv:shared_fn", "MOD:SYM picks the module's copy");

	expect("otherdrv:dup", false, "REFUSE_AMBIGUOUS", NULL, "dup",
	       "ambiguous MOD:SYM (duplicate)");
	expect("otherdrv:twin", false, "REFUSE_AMBIGUOUS", NULL, "",
	       "ambiguous MOD:SYM (two clones)");
	mdecide("shared_fn", false, &d);
	check_str(fb_kind_name(d.kind), "REFUSE_AMBIGUOUS",
		  "fallback: plain name in vmlinux and a module is ambiguous");
	check_str(d.candidates[1], "otherdrv:shared_fn",
		  "fallback: ambiguous: candidates are MODULE:SYM");
	expect("otherdrv:mod_bad", false, "REFUSE_BLACKLIST", NULL,
	       "otherdrv:mod_bad", "blacklisted module function");

	expect("kmark_sample:do_sys_openat2", false, "REFUSE_NOT_FOUND", NULL,
	       NULL, "wrong module: a kernel function");
	expect("otherdrv:kmark_sample_step", false, "REFUSE_NOT_FOUND", NULL,
	       NULL, "wrong module: another module's marker");
	mdecide("kmark_sample:kmark_sample_stp", false, &d);
	check_str(d.suggest[0], "kmark_sample_step",
		  "fallback: module typo suggests the marker (its name is unique)");
	mdecide("kmark_sample_stpe", false, &d);
	check_str(d.suggest[0], "kmark_sample_step",
		  "fallback: plain typo suggests the module's marker");
	sl_push(&mmarkers, "other:kmark_sample_step");
	mdecide("kmark_sample_stpe", false, &d);
	check_str(d.suggest[0], "kmark_sample:kmark_sample_step",
		  "fallback: a name in two systems is suggested as SYS:NAME");
	check_str(d.suggest[1], "other:kmark_sample_step",
		  "fallback: ... both of them");

	sl_push(&mmarkers, "kprobes:kmark_sample_work");
	expect("kmark_sample:kmark_sample_work", false, "MARKER",
	       "kprobes:kmark_sample_work", NULL,
	       "MOD:SYM whose kprobe event is defined");

	sl_free(&mmarkers);
	sl_free(&mksyms);
	sl_free(&mblacklist);
}

void test_fallback(void)
{
	struct fb_decision d;
	struct strlist bl2 = { 0 }, many = { 0 };

	setup();

	decide("sched_switch", false, &d);
	check_str(fb_kind_name(d.kind), "MARKER",
		  "fallback: marker chosen before a same-named function");
	check_str(d.event, "sched_switch",
		  "fallback: a marker is written as it was named");

	decide("myopen", false, &d);
	check_str(fb_kind_name(d.kind), "MARKER",
		  "fallback: defined kprobe event addressed by its name");
	decide("kprobes:myopen", false, &d);
	check_str(fb_kind_name(d.kind), "MARKER",
		  "fallback: defined kprobe event addressed as SYS:NAME");
	decide("syscalls:sched_switch", false, &d);
	check(fb_is_refusal(d.kind),
	      "fallback: an event's name in another system is not it");

	decide("do_sys_openat2", false, &d);
	check_str(fb_kind_name(d.kind), "KPROBE",
		  "fallback: function in kallsyms gets a kprobe");
	check_str(d.symbol, "do_sys_openat2", "fallback: kprobe symbol");
	check_str(d.event, "kprobes:do_sys_openat2",
		  "fallback: kprobe event kprobes:NAME");

	decide("mymod_open", false, &d);
	check_str(fb_kind_name(d.kind), "KPROBE",
		  "fallback: module function gets a kprobe");
	check_str(d.symbol, "mymod:mymod_open",
		  "fallback: module function probed as MOD:SYM");

	decide("sched_clock_tick", false, &d);
	check_str(fb_kind_name(d.kind), "KPROBE_CLONE",
		  "fallback: unique .part.0 clone resolved");
	check_str(d.symbol, "sched_clock_tick.part.0",
		  "fallback: clone symbol chosen");
	check_str(d.event, "kprobes:sched_clock_tick",
		  "fallback: clone event keeps the user's name");

	decide("sched_clock_tick.part.0", false, &d);
	check_str(fb_kind_name(d.kind), "KPROBE",
		  "fallback: explicit clone name is an exact symbol");
	check_str(d.event, "kprobes:sched_clock_tick_part_0",
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

	sl_push(&many, "s:ev_a");
	sl_push(&many, "s:ev_b");
	sl_push(&many, "s:ev_c");
	sl_push(&many, "s:ev_d");
	sl_push(&many, "s:evx_aa");
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
	test_fallback_modules();

	sl_free(&markers);
	sl_free(&ksyms);
	sl_free(&blacklist);
}

// SPDX-License-Identifier: GPL-2.0
/*
 * Enabling and disabling events, with the kprobe fallback of
 * "kmark enable" (decision in fallback.c).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ctlfmt.h"
#include "fallback.h"
#include "kmark.h"

static bool have_markers, have_syms, have_blacklist;
static struct strlist markers, ksyms, blacklist;

static void load_markers(void)
{
	struct marker_list ml;
	char *buf;

	if (have_markers)
		return;
	buf = ctl_read_or_die("available_markers");
	markers_parse(buf, &ml);
	markers_names(&ml, &markers);
	markers_free(&ml);
	free(buf);
	have_markers = true;
}

static char *blacklist_path(void)
{
	const char *env = getenv("KMARK_KPROBE_BLACKLIST");
	char *d, *s, *p;
	size_t l;

	if (env && *env)
		return xstrdup(env);
	/* <debugfs>/kmark -> <debugfs>/kprobes/blacklist */
	d = xstrdup(ctl_top_dir());
	l = strlen(d);
	while (l > 1 && d[l - 1] == '/')
		d[--l] = '\0';
	s = strrchr(d, '/');
	if (s)
		*s = '\0';
	else
		strcpy(d, ".");
	p = xmalloc(strlen(d) + sizeof("/kprobes/blacklist"));
	sprintf(p, "%s/kprobes/blacklist", d);
	free(d);
	/* <tracefs>/kmark: the blacklist is in debugfs only. */
	if (access(p, R_OK) && (d = mount_point("debugfs"))) {
		free(p);
		p = xmalloc(strlen(d) + sizeof("/kprobes/blacklist"));
		sprintf(p, "%s/kprobes/blacklist", d);
		free(d);
	}
	return p;
}

static void load_syms(void)
{
	const char *kpath = getenv("KMARK_KALLSYMS");
	char *buf;

	if (have_syms)
		return;
	if (!kpath || !*kpath)
		kpath = "/proc/kallsyms";
	buf = read_file(kpath, NULL);
	/* a kernel without kallsyms (KALLSYMS=n): no functions, no modules */
	if (!buf && errno != ENOENT)
		die("cannot read %s: %s", kpath, strerror(errno));
	if (buf)
		kallsyms_parse(buf, &ksyms);
	free(buf);
	have_syms = true;
}

static void load_blacklist(void)
{
	char *buf, *bpath;

	if (have_blacklist)
		return;
	bpath = blacklist_path();
	buf = read_file(bpath, NULL);
	if (buf) {
		blacklist_parse(buf, &blacklist);
		free(buf);
	} else {
		warning("cannot read kprobe blacklist %s: %s; assuming it is empty",
			bpath, strerror(errno));
	}
	free(bpath);
	have_blacklist = true;
}

void events_cleanup(void)
{
	sl_free(&markers);
	sl_free(&ksyms);
	sl_free(&blacklist);
	have_markers = have_syms = have_blacklist = false;
}

static int write_failed(const char *file, const char *what, int err)
{
	info("cannot write '%s' to %s: %s", what, file, ctl_strerror(err));
	print_error_log(file);
	return KM_EXIT_ERROR;
}

static int write_line(const char *file, const char *what)
{
	char *buf = xmalloc(strlen(what) + 2);
	int err;

	sprintf(buf, "%s\n", what);
	err = ctl_write(file, O_APPEND, buf);
	free(buf);
	return err ? write_failed(file, what, err) : KM_EXIT_OK;
}

/* "no function 'x' in kallsyms", or in a module's (or vmlinux's) part */
static void not_found(char *why, size_t size, const char *name,
		      const struct fb_decision *d)
{
	const char *colon = strchr(name, ':');
	const char *sym = colon ? colon + 1 : name;
	char where[KM_MODNAME_LEN + 16];

	snprintf(where, sizeof(where), "module %s", d->module);
	if (d->module[0])
		snprintf(why, size,
			 "no marker '%s', and %s has no function '%s' in kallsyms (it does not exist, or the compiler inlined it)",
			 name, where, sym);
	else
		snprintf(why, size,
			 "no marker '%s', and no function '%s' in kallsyms (it does not exist, or the compiler inlined it: static inline functions such as context_switch have no symbol)",
			 name, sym);
}

static void ambiguous(char *why, size_t size, const char *name,
		      const struct fb_decision *d)
{
	const char *more = d->ncandidates > 2 ? ", ..." : "";

	if (!d->symbol[0])
		snprintf(why, size,
			 "no marker '%s', and %u compiler clones of it are in kallsyms (%s, %s%s); pick one with 'kmark probe'",
			 name, d->ncandidates, d->candidates[0],
			 d->candidates[1], more);
	else if (strchr(d->candidates[0], ':') ||
		 strchr(d->candidates[1], ':'))
		snprintf(why, size,
			 "no marker '%s', and kallsyms has %u functions named %s (%s, %s%s); name one as MODULE:%s, or use 'kmark probe' with an address",
			 name, d->ncandidates, d->symbol, d->candidates[0],
			 d->candidates[1], more, d->symbol);
	else
		snprintf(why, size,
			 "no marker '%s', and kallsyms has %u functions named %s (a kprobe on it would be ambiguous; use 'kmark probe' with an address)",
			 name, d->ncandidates, d->symbol);
}

static void refusal(const char *name, const struct fb_decision *d)
{
	char why[768], hint[3 * FB_NAME_LEN + 32] = "";
	unsigned int i;

	switch (d->kind) {
	case FB_REFUSE_NO_FALLBACK:
		snprintf(why, sizeof(why),
			 "no marker '%s' (kprobe fallback disabled by --no-fallback)",
			 name);
		break;
	case FB_REFUSE_GLOB:
		snprintf(why, sizeof(why), "no marker or event matches '%s'",
			 name);
		break;
	case FB_REFUSE_BLACKLIST:
		snprintf(why, sizeof(why),
			 "no marker '%s', and function %s is on the kprobe blacklist",
			 name, d->symbol);
		break;
	case FB_REFUSE_AMBIGUOUS:
		ambiguous(why, sizeof(why), name, d);
		break;
	case FB_REFUSE_BAD_NAME:
		snprintf(why, sizeof(why),
			 "no marker '%s', and it is not a valid function name",
			 name);
		break;
	case FB_REFUSE_NO_KPROBES:
		snprintf(why, sizeof(why),
			 "no marker '%s', and this kernel has no kprobe events to fall back on (no kprobe_events: CONFIG_KPROBES or CONFIG_KMARK_KPROBES is off)",
			 name);
		break;
	default:
		not_found(why, sizeof(why), name, d);
		break;
	}
	for (i = 0; i < d->nsuggest; i++) {
		strcat(hint, i ? ", " : "; did you mean ");
		strcat(hint, d->suggest[i]);
	}
	if (d->nsuggest)
		strcat(hint, "?");
	info("%s%s", why, hint);
}

/*
 * fb_decide() with what it needs: available_markers always; kallsyms
 * (which also tells which modules are loaded) and the blacklist only for
 * a name that is not an event. A glob that matches no event stays
 * refused, whatever kallsyms says.
 */
static void decide(const char *name, bool no_fallback, struct fb_decision *d)
{
	load_markers();
	fb_decide(&markers, &ksyms, &blacklist, name, true, d);
	if (d->kind == FB_MARKER || d->kind == FB_GLOB ||
	    d->kind == FB_REFUSE_GLOB)
		return;
	if (no_fallback && d->kind != FB_PENDING)
		return;
	/* no kprobe_events: CONFIG_KPROBES or CONFIG_KMARK_KPROBES is off */
	if (d->kind == FB_REFUSE_NO_FALLBACK && !ctl_exists("kprobe_events")) {
		d->kind = FB_REFUSE_NO_KPROBES;
		return;
	}
	load_syms();
	if (!no_fallback)
		load_blacklist();
	fb_decide(&markers, &ksyms, &blacklist, name, no_fallback, d);
}

static int define_kprobe(const char *name, const struct enable_opts *o,
			 const struct fb_decision *d)
{
	const char *ev = strchr(d->event, ':') + 1;	/* "kprobes:NAME" */
	char def[2 * FB_NAME_LEN + 16];
	int ret;

	snprintf(def, sizeof(def), "p:kprobes/%s %s", ev, d->symbol);
	ret = write_line("kprobe_events", def);
	if (ret)
		return ret;
	ret = write_line("set_event", d->event);
	if (ret)
		return ret;
	/* later names may refer to the new event */
	sl_push(&markers, d->event);
	if (o->quiet)
		return KM_EXIT_OK;
	if (d->kind == FB_KPROBE)
		info("'%s' is not a marker; defined kprobe event '%s' on %s and enabled it",
		     name, d->event, d->symbol);
	else
		info("'%s' is not a marker; defined kprobe event '%s' on %s (compiler clone of %s) and enabled it",
		     name, d->event, d->symbol, name);
	return KM_EXIT_OK;
}

int enable_event(const char *name, const struct enable_opts *o, char *enabled)
{
	struct fb_decision d;
	int ret;

	decide(name, o->no_fallback, &d);
	switch (d.kind) {
	case FB_MARKER:
	case FB_GLOB:
		ret = write_line("set_event", d.event);
		break;
	case FB_PENDING:
		ret = write_line("set_event", d.event);
		if (!ret && !o->quiet)
			info("module %s is not loaded; '%s' waits for it in set_event and takes effect when it loads",
			     d.module, name);
		break;
	case FB_KPROBE:
	case FB_KPROBE_CLONE:
		ret = define_kprobe(name, o, &d);
		break;
	default:
		refusal(name, &d);
		return KM_EXIT_NOEVENT;
	}
	if (!ret && enabled)
		strlcpy_n(enabled, FB_NAME_LEN, d.event, strlen(d.event));
	return ret;
}

/*
 * After "!MODULE:NAME" (globs too), a set_event line that is still
 * "MODULE:NAME" is no enabled event but the token that waits for MODULE:
 * the kernel keeps it when MODULE is loaded, and it enables the marker
 * again at the next load. Say so.
 */
static void warn_kept_token(const char *tok)
{
	struct strlist lines = { 0 };
	char *buf;

	if (!strchr(tok, ':'))
		return;
	buf = ctl_read("set_event");
	if (!buf)
		return;
	set_event_parse(buf, &lines);
	free(buf);
	if (sl_contains(&lines, tok))
		warning("'%s' still waits in set_event and applies again when its module loads ('echo > set_event' drops it)",
			tok);
	sl_free(&lines);
}

/*
 * "!NAME" for what enable_event() would have enabled: a kprobe event
 * defined for "MODULE:SYM" is "kprobes:SYM"; anything else goes as it
 * is, for the kernel to judge.
 */
int disable_event(const char *name)
{
	struct fb_decision d;
	const char *what;
	char *buf;
	int ret;

	load_markers();
	fb_decide(&markers, &ksyms, &blacklist, name, true, &d);
	what = d.kind == FB_MARKER ? d.event : name;
	buf = xmalloc(strlen(what) + 2);
	sprintf(buf, "!%s", what);
	ret = write_line("set_event", buf);
	free(buf);
	if (!ret)
		warn_kept_token(what);
	return ret;
}

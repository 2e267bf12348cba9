// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for kmark: the format parser, the record -> render round trip
 * (checked against the kernel's own snprintf on the same format and
 * arguments), set_event parsing and the probe API.
 */
#include <kunit/test.h>
#include <linux/kernel.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "kmark_internal.h"
#ifdef CONFIG_KMARK_KPROBES
#include "kmark_kprobe.h"
#endif

/* --- format parsing ------------------------------------------------------ */

struct kmark_fmt_case {
	const char *fmt;
	const char *err;	/* NULL: must parse */
	unsigned int err_pos;
	unsigned int nr;
	const char *names;	/* space-separated field names */
	const char *types;	/* one letter per field: i l L s */
};

static const struct kmark_fmt_case kmark_fmt_cases[] = {
	{ "", NULL, 0, 0, "", "" },
	{ "no fields at all", NULL, 0, 0, "", "" },
	{ "a=%d", NULL, 0, 1, "a", "i" },
	{ "prev_comm=%s prev_pid=%d prev_prio=%d prev_state=%s ==> next_comm=%s next_pid=%d next_prio=%d",
	  NULL, 0, 7,
	  "prev_comm prev_pid prev_prio prev_state next_comm next_pid next_prio",
	  "siissii" },
	{ "x=%lu y=%llx z=%zu w=%td c=%c h=%hd hh=%hhu", NULL, 0, 7,
	  "x y z w c h hh", "lLlliii" },
	{ "%d %s", NULL, 0, 2, "arg0 arg1", "is" },
	{ "pct=100%% v=%-5d|", NULL, 0, 1, "v", "i" },
	{ "ip=%pS p=%p px=%px", NULL, 0, 3, "ip p px", "lll" },
	{ "w=%08x pr=%.3s", NULL, 0, 2, "w pr", "is" },
	{ "bad=%*d", "'*' width or precision is not supported", 4 },
	{ "bad=%.*s", "'*' width or precision is not supported", 4 },
	{ "f=%f", "Unsupported conversion", 3 },
	{ "end=%", "Incomplete conversion at the end of the format", 4 },
	{ "m=%pM", "Unsupported %p extension (use %p, %px, %pS, %ps or %pB)", 2 },
	{ "w=%ls", "Wide strings are not supported", 2 },
	{ "n=%n", "Unsupported conversion", 3 },
	{ "%d%d%d%d%d%d%d%d%d%d%d%d%d%d%d%d%d", "Too many fields (at most 16)", 32 },
};

static char kmark_type_letter(u8 t)
{
	return t == KMARK_ARG_INT ? 'i' : t == KMARK_ARG_LONG ? 'l' :
	       t == KMARK_ARG_LLONG ? 'L' : 's';
}

static void kmark_test_parse_format(struct kunit *test)
{
	unsigned int i, j;

	for (i = 0; i < ARRAY_SIZE(kmark_fmt_cases); i++) {
		const struct kmark_fmt_case *c = &kmark_fmt_cases[i];
		const char *err = NULL;
		unsigned int pos = 0;
		struct kmark_layout *l = kmark_parse_format(c->fmt, &err, &pos);
		char names[256] = "", types[32] = "";

		if (c->err) {
			KUNIT_EXPECT_TRUE_MSG(test, IS_ERR(l), "format \"%s\" parsed", c->fmt);
			if (!IS_ERR(l)) {
				kmark_free_layout(l);
				continue;
			}
			KUNIT_EXPECT_STREQ_MSG(test, err, c->err, "format \"%s\"", c->fmt);
			KUNIT_EXPECT_EQ_MSG(test, pos, c->err_pos, "format \"%s\"", c->fmt);
			continue;
		}
		KUNIT_ASSERT_FALSE_MSG(test, IS_ERR(l), "format \"%s\": %s at %u",
				       c->fmt, IS_ERR(l) ? err : "", pos);
		KUNIT_EXPECT_EQ_MSG(test, l->nr_fields, c->nr, "format \"%s\"", c->fmt);
		for (j = 0; j < l->nr_fields; j++) {
			if (j)
				strlcat(names, " ", sizeof(names));
			strlcat(names, l->fields[j].name, sizeof(names));
			types[j] = kmark_type_letter(l->fields[j].type);
		}
		KUNIT_EXPECT_STREQ_MSG(test, names, c->names, "format \"%s\"", c->fmt);
		if (c->types[0] || l->nr_fields)
			KUNIT_EXPECT_STREQ_MSG(test, types, c->types, "format \"%s\"", c->fmt);
		kmark_free_layout(l);
	}
}

/* --- record -> render round trip ------------------------------------------ */

static struct kunit *kmark_cur_test;

/* Record the arguments as the recorder does, render them, compare. */
static __printf(1, 2) void kmark_check_round_trip(const char *fmt, ...)
{
	struct kunit *test = kmark_cur_test;
	const char *err = NULL;
	unsigned int pos = 0;
	struct kmark_layout *l;
	struct kmark_argv argv;
	char *want, *got;
	u8 *rec;
	size_t len;
	struct seq_buf s;
	va_list args;

	want = kunit_kzalloc(test, 512, GFP_KERNEL);
	got = kunit_kzalloc(test, 512, GFP_KERNEL);
	rec = kunit_kzalloc(test, 1024, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, want);
	KUNIT_ASSERT_NOT_NULL(test, got);
	KUNIT_ASSERT_NOT_NULL(test, rec);

	va_start(args, fmt);
	vsnprintf(want, 512, fmt, args);
	va_end(args);

	l = kmark_parse_format(fmt, &err, &pos);
	KUNIT_ASSERT_FALSE_MSG(test, IS_ERR(l), "format \"%s\": %s", fmt, err);
	va_start(args, fmt);
	len = kmark_collect_args(l, &args, &argv);
	va_end(args);
	KUNIT_ASSERT_LE(test, len, (size_t)1024);
	kmark_write_args(l, &argv, rec);
	seq_buf_init(&s, got, 512);
	kmark_print_fields(&s, l, rec, rec + len);
	seq_buf_str(&s);
	KUNIT_EXPECT_STREQ_MSG(test, got, want, "format \"%s\"", fmt);

	/* A record cut short must not be read past its end. */
	if (len > 1) {
		seq_buf_init(&s, got, 512);
		kmark_print_fields(&s, l, rec, rec + len - 1);
		seq_buf_str(&s);
		KUNIT_EXPECT_NOT_NULL_MSG(test, strstr(got, "<short record>"),
					  "format \"%s\" cut: %s", fmt, got);
	}
	kmark_free_layout(l);
}

static void kmark_test_round_trip(struct kunit *test)
{
	kmark_cur_test = test;
	kmark_check_round_trip("i=%d neg=%d", 42, -7);
	kmark_check_round_trip("u=%u x=%x X=%X o=%o", 4000000000U, 0xbeef, 0xBEEF, 8);
	kmark_check_round_trip("c=%c", 'k');
	kmark_check_round_trip("h=%hd hu=%hu hh=%hhd", -2, 65535, 300);
	kmark_check_round_trip("l=%ld lu=%lu lx=%lx", -5L, ULONG_MAX, 0xabcUL);
	kmark_check_round_trip("ll=%lld llu=%llu llx=%llx", -1LL,
			       18446744073709551615ULL, 0x123456789abcULL);
	kmark_check_round_trip("z=%zu t=%td", (size_t)12345, (ptrdiff_t)-3);
	kmark_check_round_trip("s=%s empty=%s", "hello world", "");
	kmark_check_round_trip("null=%s", (char *)NULL);
	kmark_check_round_trip("w=[%-6s] r=[%6s] p=[%.2s]", "ab", "cd", "efgh");
	kmark_check_round_trip("w=%08x a=%-4d| b=%+d", 0x1f, 3, 9);
	kmark_check_round_trip("sym=%ps", kmark_check_round_trip);
	kmark_check_round_trip("ptr=%px", (void *)0x1234);
	kmark_check_round_trip("pct=100%% d=%d", 1);
	kmark_check_round_trip("mixed=%s:%d:%llu:%s", "a b", 1, 2ULL, "[x]");
	kmark_check_round_trip("no args");
}

/* --- set_event parsing ------------------------------------------------------- */

static const char * const kmark_ev_names[] = {
	"sched_process_exit", "sched_process_fork", "sched_switch",
	"sched_wakeup", "sys_sync", "kprobes/myopen",
};

struct kmark_ev_case {
	const char *cmd;
	const char *before;	/* one '0'/'1' per event */
	const char *after;	/* expected, when no error */
	const char *err;
	unsigned int err_pos;
};

static const struct kmark_ev_case kmark_ev_cases[] = {
	{ "sched_switch", "000000", "001000" },
	{ "sched_switch\n", "000000", "001000" },
	{ "sched_*", "000010", "111110" },
	{ "*", "000000", "111111" },
	{ "!sched_switch", "111111", "110111" },
	{ "!*", "111111", "000000" },
	{ "", "101010", "101010" },
	{ "sched_switch sched_wakeup", "000000", "001100" },
	{ "sched_switch,sys_sync", "000000", "001010" },
	{ "myopen", "000000", "000001" },
	{ "kprobes/myopen", "000000", "000001" },
	{ "kprobes/*", "000000", "000001" },
	{ "sched_[sw]*", "000000", "001100" },
	{ "sched_?akeup", "000000", "000100" },
	{ "* !sys_sync", "000000", "111101" },
	{ "nosuch", "000000", NULL, "Unknown marker or event", 0 },
	{ "sched_switch nosuch", "000000", NULL, "Unknown marker or event", 13 },
	{ "  !nosuch", "000000", NULL, "Unknown marker or event", 2 },
	{ "foo*", "000000", NULL, "No marker or event matches the glob", 0 },
	{ "sched_[sw", "000000", NULL, "Bad glob: unmatched '[' or ']'", 0 },
	{ "sys_sync !", "000000", NULL, "'!' must be followed by a marker name", 9 },
	{ "sched_switc", "000000", NULL, "Unknown marker or event", 0 },
};

static void kmark_test_set_event_parse(struct kunit *test)
{
	unsigned int i, j, n = ARRAY_SIZE(kmark_ev_names);

	for (i = 0; i < ARRAY_SIZE(kmark_ev_cases); i++) {
		const struct kmark_ev_case *c = &kmark_ev_cases[i];
		bool state[ARRAY_SIZE(kmark_ev_names)];
		char got[ARRAY_SIZE(kmark_ev_names) + 1];
		const char *err = NULL;
		unsigned int pos = 0;
		int ret;

		for (j = 0; j < n; j++)
			state[j] = c->before[j] == '1';
		ret = kmark_set_event_parse(c->cmd, kmark_ev_names, n, state,
					    &err, &pos);
		for (j = 0; j < n; j++)
			got[j] = state[j] ? '1' : '0';
		got[n] = '\0';
		if (c->err) {
			KUNIT_EXPECT_EQ_MSG(test, ret, -EINVAL, "cmd \"%s\"", c->cmd);
			KUNIT_EXPECT_STREQ_MSG(test, err ?: "(none)", c->err, "cmd \"%s\"", c->cmd);
			KUNIT_EXPECT_EQ_MSG(test, pos, c->err_pos, "cmd \"%s\"", c->cmd);
		} else {
			KUNIT_EXPECT_EQ_MSG(test, ret, 0, "cmd \"%s\": %s", c->cmd, err ?: "");
			KUNIT_EXPECT_STREQ_MSG(test, got, c->after, "cmd \"%s\"", c->cmd);
		}
	}
}

/* --- the probe API ----------------------------------------------------------- */

#define KMARK_KUNIT_FMT "a=%d s=%s"

static noinline void kmark_kunit_fire(int a, const char *s)
{
	kmark(kmark_kunit_marker, KMARK_KUNIT_FMT, a, s);
}

struct kmark_probe_seen {
	int calls;
	int a;
	char s[16];
};

static void kmark_kunit_probe(void *data, struct kmark_marker *m, va_list *args)
{
	struct kmark_probe_seen *seen = data;

	seen->calls++;
	seen->a = va_arg(*args, int);
	strscpy(seen->s, va_arg(*args, const char *), sizeof(seen->s));
}

static void kmark_test_probe_api(struct kunit *test)
{
	struct kmark_probe_seen one = {}, two = {};
	const char *name = "kmark_kunit_marker";

	KUNIT_EXPECT_EQ(test, kmark_probe_register("kmark_no_such_marker", NULL,
						   kmark_kunit_probe, &one), -ENOENT);
	KUNIT_EXPECT_EQ(test, kmark_probe_register(name, "a=%u s=%s",
						   kmark_kunit_probe, &one), -EINVAL);

	kmark_kunit_fire(1, "off");
	KUNIT_EXPECT_EQ(test, one.calls, 0);

	KUNIT_ASSERT_EQ(test, kmark_probe_register(name, KMARK_KUNIT_FMT,
						   kmark_kunit_probe, &one), 0);
	KUNIT_EXPECT_EQ(test, kmark_probe_register(name, KMARK_KUNIT_FMT,
						   kmark_kunit_probe, &one), -EEXIST);
	kmark_kunit_fire(7, "seven");
	KUNIT_EXPECT_EQ(test, one.calls, 1);
	KUNIT_EXPECT_EQ(test, one.a, 7);
	KUNIT_EXPECT_STREQ(test, one.s, "seven");

	/* A second probe (format NULL: any) sees the same arguments. */
	KUNIT_ASSERT_EQ(test, kmark_probe_register(name, NULL,
						   kmark_kunit_probe, &two), 0);
	kmark_kunit_fire(8, "eight");
	KUNIT_EXPECT_EQ(test, one.calls, 2);
	KUNIT_EXPECT_EQ(test, two.calls, 1);
	KUNIT_EXPECT_EQ(test, two.a, 8);
	KUNIT_EXPECT_STREQ(test, two.s, "eight");

	KUNIT_EXPECT_EQ(test, kmark_probe_unregister(name, kmark_kunit_probe, &one), 0);
	kmark_kunit_fire(9, "nine");
	KUNIT_EXPECT_EQ(test, one.calls, 2);
	KUNIT_EXPECT_EQ(test, two.calls, 2);

	KUNIT_EXPECT_EQ(test, kmark_probe_unregister(name, kmark_kunit_probe, &two), 0);
	KUNIT_EXPECT_EQ(test, kmark_probe_unregister(name, kmark_kunit_probe, &two), -ENOENT);
	kmark_kunit_fire(10, "ten");
	KUNIT_EXPECT_EQ(test, two.calls, 2);
}


#ifdef CONFIG_KMARK_KPROBES
/* --- kprobe_events parsing ------------------------------------------------------ */

struct kmark_kp_case {
	const char *cmd;
	int err;		/* -1: must parse */
	unsigned int pos;	/* caret, when err >= 0 */
	const char *name;	/* when it parses */
	const char *format;
	const char *symbol;
};

static const struct kmark_kp_case kmark_kp_cases[] = {
	{ "p:myopen do_sys_openat2 dfd=$arg1:s32 fname=$arg2:ustring", -1, 0,
	  "kprobes/myopen", "(%pS) dfd=%lld fname=\"%s\"", "do_sys_openat2" },
	{ "p do_sys_open", -1, 0, "kprobes/p_do_sys_open_0", "(%pS)", "do_sys_open" },
	{ "r:grp/rv vfs_read $retval", -1, 0, "grp/rv", "(%pS <- %ps) arg1=0x%llx", "vfs_read" },
	{ "p vfs_read%return ret=$retval:s64", -1, 0, "kprobes/r_vfs_read_0",
	  "(%pS <- %ps) ret=%lld", "vfs_read" },
	{ "r16:ret16 vfs_read", -1, 0, "kprobes/ret16", "(%pS <- %ps)", "vfs_read" },
	{ "p:cs finish_task_switch", -1, 0, "kprobes/cs", "(%pS)", "finish_task_switch.isra.0" },
	{ "p __switch_to", -1, 0, "kprobes/p___switch_to_0", "(%pS)", "__switch_to" },
	{ "p:a vfs_read+4 c=$comm x=%ax u=@jiffies:u64 s=$stack0 st=$stack d=+8(-4(%sp)):x8 y=$arg1:symbol",
	  -1, 0, "kprobes/a",
	  "(%pS) c=\"%s\" x=0x%llx u=%llu s=0x%llx st=0x%llx d=0x%llx y=%pS", "vfs_read" },
	{ "x do_sys_open", KMARK_KPE_BAD_CMD, 0 },
	{ "p:my-open do_sys_open", KMARK_KPE_BAD_EVENT_NAME, 2 },
	{ "p:g-x/e do_sys_open", KMARK_KPE_BAD_GROUP_NAME, 2 },
	{ "p:myp", KMARK_KPE_NO_PROBE_POINT, 5 },
	{ "r0 vfs_read", KMARK_KPE_BAD_MAXACT, 1 },
	{ "p no_such_function_xyz", KMARK_KPE_BAD_SYMBOL, 2 },
	{ "p context_switch", KMARK_KPE_BAD_SYMBOL, 2 },
	{ "p mod:sym", KMARK_KPE_NO_MODULES, 2 },
	{ "p notify_die", KMARK_KPE_BLACKLISTED, 2 },
	{ "p exc_int3", KMARK_KPE_BLACKLISTED, 2 },
	{ "r __switch_to", KMARK_KPE_KRETPROBE_BLACKLISTED, 2 },
	{ "r vfs_read+4", KMARK_KPE_BAD_RETPROBE_OFFSET, 11 },
	{ "p vfs_read+zz", KMARK_KPE_BAD_OFFSET, 11 },
	{ "p vfs_read%ret", KMARK_KPE_BAD_RETURN_SUFFIX, 10 },
	{ "p vfs_read $arg0", KMARK_KPE_BAD_ARG_NUM, 11 },
	{ "p vfs_read $retval", KMARK_KPE_RETVAL_ON_PROBE, 11 },
	{ "p vfs_read $foo", KMARK_KPE_BAD_VAR, 11 },
	{ "p vfs_read %zz", KMARK_KPE_BAD_REG, 11 },
	{ "p vfs_read @no_such_sym_xyz", KMARK_KPE_BAD_MEM_ADDR, 12 },
	{ "p vfs_read +8(%ax", KMARK_KPE_BAD_DEREF, 11 },
	{ "p vfs_read +z(%ax)", KMARK_KPE_BAD_DEREF_OFFS, 11 },
	{ "p vfs_read x=$arg1:u7", KMARK_KPE_BAD_TYPE, 19 },
	{ "p vfs_read x=$arg1:str", KMARK_KPE_BAD_TYPE, 19 },
	{ "p vfs_read 1x=$arg1", KMARK_KPE_BAD_ARG_NAME, 11 },
	{ "p vfs_read a=$arg1 a=$arg2", KMARK_KPE_DUP_ARG_NAME, 19 },
	{ "p vfs_read c=$comm:u32", KMARK_KPE_BAD_COMM_TYPE, 19 },
	{ "p vfs_read +0($comm)", KMARK_KPE_COMM_DEREF, 14 },
	{ "p vfs_read +0(+0(+0(+0(+0($arg1)))))", KMARK_KPE_DEREF_TOO_DEEP, 23 },
	{ "p vfs_read foo", KMARK_KPE_BAD_FETCH_ARG, 11 },
	{ "p vfs_read $arg1 $arg1 $arg1 $arg1 $arg1 $arg1 $arg1 $arg1 $arg1 $arg1 $arg1 $arg1 $arg1 $arg1 $arg1",
	  KMARK_KPE_TOO_MANY_ARGS, 95 },
};

static void kmark_test_kprobe_parse(struct kunit *test)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(kmark_kp_cases); i++) {
		const struct kmark_kp_case *c = &kmark_kp_cases[i];
		struct kmark_kprobe *tk = NULL;
		unsigned int pos = 0;
		int err = -1, ret;

		ret = kmark_kprobe_parse(c->cmd, &tk, &err, &pos);
		if (c->err >= 0) {
			KUNIT_EXPECT_EQ_MSG(test, ret, -EINVAL, "\"%s\"", c->cmd);
			KUNIT_EXPECT_STREQ_MSG(test, kmark_kprobe_err_text(err),
					       kmark_kprobe_err_text(c->err), "\"%s\"", c->cmd);
			KUNIT_EXPECT_EQ_MSG(test, pos, c->pos, "\"%s\"", c->cmd);
			KUNIT_EXPECT_NULL(test, tk);
			continue;
		}
		KUNIT_EXPECT_EQ_MSG(test, ret, 0, "\"%s\": %s at %u", c->cmd,
				    ret ? kmark_kprobe_err_text(err) : "", pos);
		if (ret)
			continue;
		KUNIT_EXPECT_STREQ_MSG(test, tk->marker.name, c->name, "\"%s\"", c->cmd);
		KUNIT_EXPECT_STREQ_MSG(test, tk->marker.format, c->format, "\"%s\"", c->cmd);
		KUNIT_EXPECT_STREQ_MSG(test, tk->symbol, c->symbol, "\"%s\"", c->cmd);
		kmark_kprobe_free(tk);
	}
}
#endif

static struct kunit_case kmark_test_cases[] = {
	KUNIT_CASE(kmark_test_parse_format),
	KUNIT_CASE(kmark_test_round_trip),
	KUNIT_CASE(kmark_test_set_event_parse),
	KUNIT_CASE(kmark_test_probe_api),
#ifdef CONFIG_KMARK_KPROBES
	KUNIT_CASE(kmark_test_kprobe_parse),
#endif
	{}
};

static struct kunit_suite kmark_test_suite = {
	.name = "kmark",
	.test_cases = kmark_test_cases,
};
kunit_test_suite(kmark_test_suite);

MODULE_DESCRIPTION("KUnit tests for kmark");
MODULE_LICENSE("GPL");

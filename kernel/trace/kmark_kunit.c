// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for kmark: the format parser, the site's argument table and
 * the layout bound to it, the record -> render round trip (checked against
 * the kernel's own snprintf on the same format and arguments), the format
 * file, set_event parsing and its all-or-nothing apply, the probe API and
 * the kprobe_events parser.
 */
#include <kunit/static_stub.h>
#include <kunit/test.h>
#include <linux/delay.h>
#include <linux/kernel.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/stringify.h>

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
	const char *types;	/* one letter per field: i l L p s */
};

static const struct kmark_fmt_case kmark_fmt_cases[] = {
	{ "", NULL, 0, 0, "", "" },
	{ "no fields at all", NULL, 0, 0, "", "" },
	{ "a=%d", NULL, 0, 1, "a", "i" },
	{
	  "prev_comm=%s prev_pid=%d prev_prio=%d prev_state=%s ==> next_comm=%s next_pid=%d next_prio=%d",
	  NULL, 0, 7,
	  "prev_comm prev_pid prev_prio prev_state next_comm next_pid next_prio",
	  "siissii" },
	{ "x=%lu y=%llx z=%zu w=%td c=%c h=%hd hh=%hhu", NULL, 0, 7,
	  "x y z w c h hh", "lLlliii" },
	{ "%d %s", NULL, 0, 2, "arg0 arg1", "is" },
	{ "pct=100%% v=%-5d|", NULL, 0, 1, "v", "i" },
	{ "ip=%pS p=%p px=%px", NULL, 0, 3, "ip p px", "ppp" },
	{ "w=%08x pr=%.3s", NULL, 0, 2, "w pr", "is" },
	{ "bad=%*d", "'*' width or precision is not supported", 4 },
	{ "bad=%.*s", "'*' width or precision is not supported", 4 },
	{ "f=%f", "Unsupported conversion", 3 },
	{ "end=%", "Incomplete conversion at the end of the format", 4 },
	{ "m=%pM", "Unsupported %p extension (use %p, %px, %pS, %ps or %pB)", 2 },
	{ "st=%pT", "Unsupported %p extension (use %p, %px, %pS, %ps or %pB)", 3 },
	{ "w=%ls", "Wide strings are not supported", 2 },
	{ "n=%n", "Unsupported conversion", 3 },
	{ "%d%d%d%d%d%d%d%d%d%d%d%d%d%d%d%d%d", "Too many fields (at most 16)", 32 },
	/* "{NAME}LABEL=%": named otherwise than its label */
	{ "{parent_comm}comm=%s {parent_pid}pid=%d child_pid=%d", NULL, 0, 3,
	  "parent_comm parent_pid child_pid", "sii" },
	/* "{NAME}%": a field without a label (raw_syscalls' "NR %ld") */
	{ "NR {id}%ld = {ret}%ld", NULL, 0, 2, "id ret", "ll" },
	/* braces that do not name the next field are text */
	{ "{x} a=%d {1a}b=%d {c}=%d {d}e=%%d", NULL, 0, 3, "a b arg2", "iii" },
	{ "{_under_score9}v=%lu", NULL, 0, 1, "_under_score9", "l" },
	{ "{a0123456789a0123456789a0123456789a0123456789a0123456789a0123456789}v=%d",
	  "Field name too long", 0 },
};

/* The text of a named field is its label, braces gone. */
static void kmark_test_parse_named(struct kunit *test)
{
	const char *fmt = "{parent_comm}comm=%s {parent_pid}pid=%d {x}!";
	const char *err = NULL;
	unsigned int pos = 0;
	struct kmark_layout *l = kmark_parse_format(fmt, &err, &pos);

	KUNIT_ASSERT_FALSE_MSG(test, IS_ERR(l), "%s at %u", err, pos);
	KUNIT_ASSERT_EQ(test, l->nr_fields, 2);
	KUNIT_EXPECT_STREQ(test, l->fields[0].prefix, "comm=");
	KUNIT_EXPECT_STREQ(test, l->fields[1].prefix, " pid=");
	KUNIT_EXPECT_STREQ(test, l->suffix, " {x}!");
	kmark_free_layout(l);

	l = kmark_parse_format("NR {id}%ld = {ret}%ld", &err, &pos);
	KUNIT_ASSERT_FALSE_MSG(test, IS_ERR(l), "%s at %u", err, pos);
	KUNIT_ASSERT_EQ(test, l->nr_fields, 2);
	KUNIT_EXPECT_STREQ(test, l->fields[0].prefix, "NR ");
	KUNIT_EXPECT_STREQ(test, l->fields[1].prefix, " = ");
	kmark_free_layout(l);
}

static char kmark_type_letter(const struct kmark_field *f)
{
	if (f->kind == KMARK_FIELD_STR)
		return 's';
	if (f->kind == KMARK_FIELD_PTR)
		return 'p';
	return f->conv_arg == KMARK_CONV_INT ? 'i' :
	       f->conv_arg == KMARK_CONV_LONG ? 'l' : 'L';
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
			types[j] = kmark_type_letter(&l->fields[j]);
		}
		KUNIT_EXPECT_STREQ_MSG(test, names, c->names, "format \"%s\"", c->fmt);
		if (c->types[0] || l->nr_fields)
			KUNIT_EXPECT_STREQ_MSG(test, types, c->types, "format \"%s\"", c->fmt);
		kmark_free_layout(l);
	}
}

/* --- the site's argument table and the layout bound to it ---------------- */

/* The last firing of a test marker, as the recorder would have stored it. */
struct kmark_capture {
	int calls;
	unsigned int len;
	u8 rec[1024];
	const struct kmark_marker *m;
};

static void kmark_capture_probe(void *data, struct kmark_marker *m,
				const void *args)
{
	struct kmark_capture *c = data;
	struct kmark_strs strs;
	size_t size = kmark_record_size(m->layout, args, &strs);

	c->calls++;
	c->m = m;
	c->len = 0;
	if (size > sizeof(c->rec))
		return;
	memset(c->rec, 0xa5, sizeof(c->rec));	/* garbage must not show */
	memset(c->rec, 0, KMARK_HDR_SIZE);
	kmark_record_fill((struct kmark_entry *)c->rec, m->layout, args, &strs);
	c->len = size;
}

/*
 * Fire a one-off marker named after the line with a probe attached,
 * render its record, and compare with what snprintf makes of the same
 * format and arguments.
 */
#define KMARK_ROUND_TRIP(fmt, ...)					\
do {									\
	const char *name = __stringify(CONCATENATE(kmark_kunit_rt_, __LINE__)); \
	struct kmark_capture *c = kunit_kzalloc(test, sizeof(*c), GFP_KERNEL); \
	char *want = kunit_kzalloc(test, 512, GFP_KERNEL);		\
	char *got = kunit_kzalloc(test, 512, GFP_KERNEL);		\
	struct seq_buf s;						\
									\
	KUNIT_ASSERT_NOT_NULL(test, c);					\
	KUNIT_ASSERT_NOT_NULL(test, want);				\
	KUNIT_ASSERT_NOT_NULL(test, got);				\
	snprintf(want, 512, fmt, ##__VA_ARGS__);			\
	KUNIT_ASSERT_EQ_MSG(test, kmark_probe_register(name, fmt,	\
			    kmark_capture_probe, c), 0, "%s", name);	\
	kmark(CONCATENATE(kmark_kunit_rt_, __LINE__), fmt, ##__VA_ARGS__); \
	KUNIT_EXPECT_EQ(test, kmark_probe_unregister(name,		\
			kmark_capture_probe, c), 0);			\
	KUNIT_ASSERT_EQ_MSG(test, c->calls, 1, "format \"%s\"", fmt);	\
	KUNIT_ASSERT_NE_MSG(test, c->len, 0U, "format \"%s\"", fmt);	\
	seq_buf_init(&s, got, 512);					\
	kmark_print_fields(&s, c->m->layout, c->rec, c->len);		\
	seq_buf_str(&s);						\
	KUNIT_EXPECT_STREQ_MSG(test, got, want, "format \"%s\"", fmt);	\
	/* A record cut short must not be read past its end. */	\
	if (c->m->layout->nr_fields) {					\
		seq_buf_init(&s, got, 512);				\
		kmark_print_fields(&s, c->m->layout, c->rec, c->len - 1); \
		seq_buf_str(&s);					\
		KUNIT_EXPECT_TRUE_MSG(test, strstr(got, "<short record>") || \
				      strstr(got, "<bad string>"),	\
				      "format \"%s\" cut: %s", fmt, got); \
	}								\
} while (0)

/*
 * kmark's %px conversion, on a constant rather than an address: the format
 * is named here, apart from the call, as lib/test_printf.c's test of %px
 * would be if it were held to checkpatch's rule for printed addresses.
 */
#define KMARK_TEST_FMT_PX	"ptr=%px"

static void kmark_test_round_trip(struct kunit *test)
{
	unsigned char uc = 250;
	short sh = -2;
	signed char hh = -100;	/* clang's -Wformat wants a char for %hhd */
	bool yes = true;
	char comm[TASK_COMM_LEN] = "kworker/0:1";
	char *null = NULL;

	KMARK_ROUND_TRIP("i=%d neg=%d", 42, -7);
	KMARK_ROUND_TRIP("u=%u x=%x X=%X o=%o", 4000000000U, 0xbeef, 0xBEEF, 8);
	KMARK_ROUND_TRIP("c=%c", 'k');
	KMARK_ROUND_TRIP("h=%hd hu=%hu hh=%hhd", sh, (unsigned short)65535, hh);
	KMARK_ROUND_TRIP("uc=%u b=%d", uc, yes);
	KMARK_ROUND_TRIP("l=%ld lu=%lu lx=%lx", -5L, ULONG_MAX, 0xabcUL);
	KMARK_ROUND_TRIP("ll=%lld llu=%llu llx=%llx", -1LL,
			 18446744073709551615ULL, 0x123456789abcULL);
	KMARK_ROUND_TRIP("z=%zu t=%td", (size_t)12345, (ptrdiff_t)-3);
	KMARK_ROUND_TRIP("s=%s empty=%s", "hello world", "");
	/* Hidden, so that W=1's -Wformat-truncation does not flag snprintf's NULL. */
	OPTIMIZER_HIDE_VAR(null);
	KMARK_ROUND_TRIP("null=%s", null);
	KMARK_ROUND_TRIP("arr=%s", comm);
	KMARK_ROUND_TRIP("w=[%-6s] r=[%6s] p=[%.2s]", "ab", "cd", "efgh");
	KMARK_ROUND_TRIP("w=%08x a=%-4d| b=%+d", 0x1f, 3, 9);
	KMARK_ROUND_TRIP("sym=%ps", kmark_test_round_trip);
	KMARK_ROUND_TRIP(KMARK_TEST_FMT_PX, (void *)0x1234);
	KMARK_ROUND_TRIP("pct=100%% d=%d", 1);
	KMARK_ROUND_TRIP("mixed=%s:%d:%llu:%s", "a b", 1, 2ULL, "[x]");
	KMARK_ROUND_TRIP("s1=%s n=%d s2=%s l=%ld", "one", 2, "three", 4L);
	KMARK_ROUND_TRIP("no args");
}

/* kmark_task_state(): ftrace's sched_switch encoding, printed as ftrace does. */
static void kmark_test_task_state(struct kunit *test)
{
	static const struct { unsigned long v; const char *want; } cases[] = {
		{ 0, "R" }, { 1, "S" }, { 2, "D" }, { 4, "T" }, { 8, "t" },
		{ 0x10, "X" }, { 0x20, "Z" }, { 0x40, "P" }, { 0x80, "I" },
		{ TASK_REPORT_MAX, "R+" }, { 0x81, "S|I" },
	};
	struct kmark_capture *c = kunit_kzalloc(test, sizeof(*c), GFP_KERNEL);
	char got[32];
	struct seq_buf s;
	unsigned int i;

	KUNIT_ASSERT_NOT_NULL(test, c);
	KUNIT_ASSERT_EQ(test, kmark_probe_register("kmark_kunit_state", NULL,
						   kmark_capture_probe, c), 0);
	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		kmark(kmark_kunit_state, "st=%p", kmark_task_state(cases[i].v));
		seq_buf_init(&s, got, sizeof(got));
		kmark_print_fields(&s, c->m->layout, c->rec, c->len);
		seq_buf_str(&s);
		KUNIT_EXPECT_STREQ_MSG(test, got + 3, cases[i].want, "0x%lx",
				       cases[i].v);
	}
	kmark_probe_unregister("kmark_kunit_state", kmark_capture_probe, c);
	KUNIT_EXPECT_STREQ(test, c->m->layout->fields[0].type, "long");
	KUNIT_EXPECT_EQ(test, c->m->layout->fields[0].size, sizeof(long));
}

/* kmark_comm(): the comm inline, ftrace's char[16] field. */
static void kmark_test_comm_inline(struct kunit *test)
{
	struct kmark_capture *c = kunit_kzalloc(test, sizeof(*c), GFP_KERNEL);
	const struct kmark_field *f;
	char got[64], want[64];
	struct seq_buf s;

	KUNIT_ASSERT_NOT_NULL(test, c);
	KUNIT_ASSERT_EQ(test, kmark_probe_register("kmark_kunit_comm", NULL,
						   kmark_capture_probe, c), 0);
	kmark(kmark_kunit_comm, "c=%s n=%d", kmark_comm(current), 5);
	kmark_probe_unregister("kmark_kunit_comm", kmark_capture_probe, c);
	KUNIT_ASSERT_EQ(test, c->calls, 1);
	f = &c->m->layout->fields[0];
	KUNIT_EXPECT_EQ(test, f->kind, KMARK_FIELD_CHARS);
	KUNIT_EXPECT_EQ(test, f->offset, 12);
	KUNIT_EXPECT_EQ(test, f->size, 16);
	KUNIT_EXPECT_STREQ(test, f->type, "char");
	KUNIT_EXPECT_EQ(test, c->m->layout->fields[1].offset, 28);
	KUNIT_EXPECT_EQ(test, c->m->layout->nr_str, 0U);
	KUNIT_EXPECT_EQ(test, c->len, 32U);
	seq_buf_init(&s, got, sizeof(got));
	kmark_print_fields(&s, c->m->layout, c->rec, c->len);
	seq_buf_str(&s);
	snprintf(want, sizeof(want), "c=%s n=5", current->comm);
	KUNIT_EXPECT_STREQ(test, got, want);
}

/*
 * The layout of a marker follows the packing rule of the site (packed, in
 * argument order, a string's slot a pointer wide) after the 12-byte common
 * header: offsets computed here by that rule, not taken from the code.
 */
static void kmark_test_layout(struct kunit *test)
{
	struct kmark_capture *c = kunit_kzalloc(test, sizeof(*c), GFP_KERNEL);
	const char *name = "kmark_kunit_layout";
	const struct kmark_layout *l;
	const struct kmark_entry *e;
	unsigned int p = sizeof(void *), o;

	KUNIT_ASSERT_NOT_NULL(test, c);
	KUNIT_ASSERT_EQ(test, kmark_probe_register(name, NULL,
						   kmark_capture_probe, c), 0);
	kmark(kmark_kunit_layout, "a=%d s=%s l=%ld c=%c t=%s u=%llu",
	      -1, "xy", 7L, 'q', "", 9ULL);
	kmark_probe_unregister(name, kmark_capture_probe, c);
	KUNIT_ASSERT_EQ(test, c->calls, 1);
	l = c->m->layout;
	KUNIT_ASSERT_EQ(test, l->nr_fields, 6U);
	KUNIT_EXPECT_EQ(test, (unsigned int)KMARK_HDR_SIZE, 12U);
	o = 12;
	KUNIT_EXPECT_EQ(test, l->fields[0].offset, o);
	KUNIT_EXPECT_EQ(test, l->fields[0].size, 4);
	KUNIT_EXPECT_STREQ(test, l->fields[0].type, "int");
	o += 4;
	KUNIT_EXPECT_EQ(test, l->fields[1].offset, o);
	KUNIT_EXPECT_EQ(test, l->fields[1].size, 4);
	KUNIT_EXPECT_STREQ(test, l->fields[1].type, "__data_loc char[]");
	o += p;
	KUNIT_EXPECT_EQ(test, l->fields[2].offset, o);
	KUNIT_EXPECT_EQ(test, l->fields[2].size, sizeof(long));
	KUNIT_EXPECT_STREQ(test, l->fields[2].type, "long");
	o += sizeof(long);
	KUNIT_EXPECT_EQ(test, l->fields[3].offset, o);
	KUNIT_EXPECT_STREQ(test, l->fields[3].type, "unsigned int");
	o += 4;
	KUNIT_EXPECT_EQ(test, l->fields[4].offset, o);
	o += p;
	KUNIT_EXPECT_EQ(test, l->fields[5].offset, o);
	KUNIT_EXPECT_EQ(test, l->fields[5].size, 8);
	KUNIT_EXPECT_STREQ(test, l->fields[5].type, "unsigned long long");
	o += 8;
	KUNIT_EXPECT_EQ(test, l->size, o);
	KUNIT_EXPECT_EQ(test, l->nr_str, 2U);
	/* The strings follow the fixed part: "xy\0" then "\0". */
	KUNIT_EXPECT_EQ(test, c->len, o + 3 + 1);
	e = (const struct kmark_entry *)c->rec;
	KUNIT_EXPECT_EQ(test, get_unaligned((u32 *)(c->rec + 16)), (3U << 16) | o);
	KUNIT_EXPECT_EQ(test, get_unaligned((u32 *)(c->rec + 16 + p + sizeof(long) + 4)),
			(1U << 16) | (o + 3));
	KUNIT_EXPECT_STREQ(test, (const char *)c->rec + o, "xy");
	/* No pointer bits are left in a string's slot. */
	if (p == 8)
		KUNIT_EXPECT_EQ(test, get_unaligned((u32 *)(c->rec + 20)), 0U);
	KUNIT_EXPECT_EQ(test, (s32)kmark_field_value(&l->fields[0], e), -1);
	KUNIT_EXPECT_EQ(test, kmark_field_value(&l->fields[5], e), 9ULL);
}

/* A site whose table contradicts its format stays off (boot's check). */
static void kmark_test_bind_refuses(struct kunit *test)
{
	static const struct kmark_arg int_for_str[] = {
		{ 0, sizeof(int), KMARK_ARG_SIGNED },
	};
	static const struct kmark_arg long_for_int[] = {
		{ 0, 8, KMARK_ARG_SIGNED },
	};
	static const struct kmark_arg ptr_for_int[] = {
		{ 0, sizeof(int), KMARK_ARG_PTR },
	};
	static const struct kmark_arg two[] = {
		{ 0, sizeof(int), KMARK_ARG_SIGNED },
		{ sizeof(int), sizeof(int), KMARK_ARG_SIGNED },
	};
	static const struct kmark_arg state[] = {
		{ 0, sizeof(long), KMARK_ARG_STATE },
	};
	static const struct kmark_arg comm_bad[] = {
		{ 0, TASK_COMM_LEN, KMARK_ARG_COMM },
		{ TASK_COMM_LEN, 4, KMARK_ARG_BAD },
	};
	static const struct kmark_arg str_state[] = {
		{ 0, sizeof(long), KMARK_ARG_CHARP },
		{ sizeof(long), sizeof(long), KMARK_ARG_STATE },
	};
	static const struct kmark_arg str_ptr[] = {
		{ 0, sizeof(long), KMARK_ARG_CHARP },
		{ sizeof(long), sizeof(long), KMARK_ARG_PTR },
	};
	struct kmark_site site = { .name = "t" };
	const char *err;
	unsigned int pos;
	struct kmark_layout *l;

#define KMARK_BIND(fmt, tbl, n, size) ({				\
	l = kmark_parse_format(fmt, &err, &pos);			\
	KUNIT_ASSERT_FALSE(test, IS_ERR(l));				\
	site.format = fmt;						\
	site.args = tbl;						\
	site.nr_args = n;						\
	site.args_size = size;						\
	err = kmark_layout_bind(l, &site);				\
	kmark_free_layout(l);						\
	err; })

	KUNIT_EXPECT_NOT_NULL(test, KMARK_BIND("s=%s", int_for_str, 1, 4));
	KUNIT_EXPECT_NOT_NULL(test, KMARK_BIND("i=%d", long_for_int, 1, 8));
	KUNIT_EXPECT_NOT_NULL(test, KMARK_BIND("i=%d", ptr_for_int, 1, 4));
	KUNIT_EXPECT_NOT_NULL(test, KMARK_BIND("i=%d", two, 2, 8));
	KUNIT_EXPECT_NOT_NULL(test, KMARK_BIND("i=%d j=%d", two, 2, 4));
	KUNIT_EXPECT_NULL(test, KMARK_BIND("i=%d j=%u", two, 2, 8));
	KUNIT_EXPECT_NOT_NULL(test, KMARK_BIND("i=%d j=%d", NULL, 2, 8));
	/* kmark_task_state() is for a plain %p only. */
	KUNIT_EXPECT_NULL(test, KMARK_BIND("st=%p", state, 1, sizeof(long)));
	KUNIT_EXPECT_NOT_NULL(test, KMARK_BIND("st=%pS", state, 1, sizeof(long)));
	KUNIT_EXPECT_NOT_NULL(test, KMARK_BIND("st=%ld", state, 1, sizeof(long)));
	KUNIT_EXPECT_NOT_NULL(test, KMARK_BIND("st=%s", state, 1, sizeof(long)));
#undef KMARK_BIND

	/*
	 * A first site that does not fit changes nothing: the next site is
	 * the first one still (kmark_comm() once stayed behind in the
	 * layout and a later string was refused).
	 */
	l = kmark_parse_format("c=%s p=%p", &err, &pos);
	KUNIT_ASSERT_FALSE(test, IS_ERR(l));
	site.format = "c=%s p=%p";
	site.nr_args = 2;
	site.args = comm_bad;
	site.args_size = TASK_COMM_LEN + 4;
	KUNIT_EXPECT_NOT_NULL(test, kmark_layout_bind(l, &site));
	KUNIT_EXPECT_EQ(test, l->size, 0U);
	KUNIT_EXPECT_EQ(test, l->fields[0].kind, KMARK_FIELD_STR);
	site.args = str_state;
	site.args_size = 2 * sizeof(long);
	KUNIT_EXPECT_NULL(test, kmark_layout_bind(l, &site));
	KUNIT_EXPECT_EQ(test, l->fields[0].kind, KMARK_FIELD_STR);
	KUNIT_EXPECT_EQ(test, l->fields[1].conv_arg, KMARK_CONV_TASK_STATE);
	KUNIT_EXPECT_STREQ(test, l->fields[1].type, "long");
	/* Later sites pass what the first one passed, state for state. */
	site.args = str_ptr;
	KUNIT_EXPECT_NOT_NULL(test, kmark_layout_bind(l, &site));
	site.args = str_state;
	KUNIT_EXPECT_NULL(test, kmark_layout_bind(l, &site));
	kmark_free_layout(l);

	l = kmark_parse_format("c=%s p=%p", &err, &pos);
	KUNIT_ASSERT_FALSE(test, IS_ERR(l));
	site.args = str_ptr;
	KUNIT_EXPECT_NULL(test, kmark_layout_bind(l, &site));
	KUNIT_EXPECT_EQ(test, l->fields[1].conv_arg, KMARK_CONV_PTR);
	site.args = str_state;
	KUNIT_EXPECT_NOT_NULL(test, kmark_layout_bind(l, &site));
	kmark_free_layout(l);
}

/* The format file of kmark_kunit_layout, field lines in offset order. */
static void kmark_test_format_file(struct kunit *test)
{
	struct kmark_marker *m;
	char *buf = kunit_kzalloc(test, PAGE_SIZE, GFP_KERNEL);
	char *want = kunit_kzalloc(test, PAGE_SIZE, GFP_KERNEL);
	unsigned int p = sizeof(void *), sl = sizeof(long);
	struct seq_buf s;

	KUNIT_ASSERT_NOT_NULL(test, buf);
	KUNIT_ASSERT_NOT_NULL(test, want);
	mutex_lock(&kmark_mutex);
	m = kmark_find_marker("kmark", "kmark_kunit_layout");
	mutex_unlock(&kmark_mutex);
	KUNIT_ASSERT_NOT_NULL(test, m);
	seq_buf_init(&s, buf, PAGE_SIZE);
	kmark_print_format(&s, m);
	seq_buf_str(&s);
	snprintf(want, PAGE_SIZE,
		 "name: kmark_kunit_layout\nID: %u\nformat:\n"
		 "\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
		 "\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"
		 "\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n"
		 "\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n"
		 "\tfield:unsigned int common_comm_id;\toffset:8;\tsize:4;\tsigned:0;\n"
		 "\n"
		 "\tfield:int a;\toffset:12;\tsize:4;\tsigned:1;\n"
		 "\tfield:__data_loc char[] s;\toffset:16;\tsize:4;\tsigned:0;\n"
		 "\tfield:long l;\toffset:%u;\tsize:%u;\tsigned:1;\n"
		 "\tfield:unsigned int c;\toffset:%u;\tsize:4;\tsigned:0;\n"
		 "\tfield:__data_loc char[] t;\toffset:%u;\tsize:4;\tsigned:0;\n"
		 "\tfield:unsigned long long u;\toffset:%u;\tsize:8;\tsigned:0;\n"
		 "\n"
		 "print fmt: \"a=%%d s=%%s l=%%ld c=%%c t=%%s u=%%llu\", REC->a, __get_str(s), REC->l, REC->c, __get_str(t), REC->u\n",
		 m->id, 16 + p, sl, 16 + p + sl,
		 20 + p + sl, 20 + 2 * p + sl);
	KUNIT_EXPECT_STREQ(test, buf, want);
}

/* --- one record as text, with the loss notes before it ----------------------- */

/*
 * A record whose line does not fit: the loss notes before it stay, the line
 * becomes a note (it was once wiped with them); with text before it in the
 * buffer, nothing is written and the caller keeps the record for later.
 */
static void kmark_test_print_record(struct kunit *test)
{
	const char *err;
	unsigned int pos;
	struct kmark_marker *m = kunit_kzalloc(test, sizeof(*m), GFP_KERNEL);
	struct kmark_entry *e;
	char *buf = kunit_kzalloc(test, PAGE_SIZE, GFP_KERNEL);
	u8 rec[64] = {};
	struct seq_buf s;
	int ret;

	KUNIT_ASSERT_NOT_NULL(test, m);
	KUNIT_ASSERT_NOT_NULL(test, buf);
	m->system = "kmark";
	m->name = "kmark_kunit_long";
	m->format = "a=%-3000s b=%-3000s";
	m->layout = kmark_parse_format(m->format, &err, &pos);
	KUNIT_ASSERT_FALSE(test, IS_ERR(m->layout));
	m->layout->fields[0].offset = KMARK_HDR_SIZE;
	m->layout->fields[0].size = 4;
	m->layout->fields[1].offset = KMARK_HDR_SIZE + 4;
	m->layout->fields[1].size = 4;
	m->layout->size = KMARK_HDR_SIZE + 8;
	kmark_layout_finish(m->layout);
	mutex_lock(&kmark_mutex);
	ret = kmark_dynamic_alloc_id(m);
	mutex_unlock(&kmark_mutex);
	KUNIT_ASSERT_EQ(test, ret, 0);

	e = (struct kmark_entry *)rec;
	e->type = m->id;
	e->pid = 1;
	kmark_put_str(e, &m->layout->fields[0], rec + 20, "x", 1);
	kmark_put_str(e, &m->layout->fields[1], rec + 22, "y", 1);

	seq_buf_init(&s, buf, PAGE_SIZE);
	KUNIT_EXPECT_TRUE(test, kmark_print_record(&s, 1, 1000, e, 24, 5, 3, NULL));
	seq_buf_str(&s);
	KUNIT_EXPECT_STREQ(test, buf, "CPU:1 [LOST 5 EVENTS]\nCPU:1 [LOST 3 EVENTS]\n"
			   "CPU:1 [EVENT TOO LONG TO PRINT]\n");

	seq_buf_init(&s, buf, PAGE_SIZE);
	seq_buf_puts(&s, "earlier line\n");
	KUNIT_EXPECT_FALSE(test, kmark_print_record(&s, 1, 1000, e, 24, 5, 3, NULL));
	seq_buf_str(&s);
	KUNIT_EXPECT_STREQ(test, buf, "earlier line\n");

	mutex_lock(&kmark_mutex);
	kmark_dynamic_free_id(m);
	mutex_unlock(&kmark_mutex);
	synchronize_rcu();
	kmark_free_layout(m->layout);
}

/*
 * kmark_event_data() is ring_buffer_event_data() without the call: the
 * same data for records of every size (the length in type_len, or in
 * array[0] past 112 bytes) and after a time extend (events 200 ms apart).
 */
static void kmark_test_event_data(struct kunit *test)
{
	static const unsigned int sizes[] = { 1, 4, 12, 100, 112, 113, 116,
					      200, 1000, 3000 };
	struct ring_buffer_event *event;
	struct trace_buffer *buf;
	unsigned int i, pass;

	buf = ring_buffer_alloc(16 * PAGE_SIZE, RB_FL_OVERWRITE);
	KUNIT_ASSERT_NOT_NULL(test, buf);
	for (pass = 0; pass < 2; pass++) {
		for (i = 0; i < ARRAY_SIZE(sizes); i++) {
			/* Then a time extend before a short and a long one. */
			if (pass && sizes[i] != 12 && sizes[i] != 200)
				continue;
			if (pass)
				msleep(200);
			event = ring_buffer_lock_reserve(buf, sizes[i]);
			KUNIT_ASSERT_NOT_NULL(test, event);
			KUNIT_EXPECT_PTR_EQ_MSG(test, kmark_event_data(event),
						ring_buffer_event_data(event),
						"size %u pass %u", sizes[i], pass);
			ring_buffer_unlock_commit(buf);
		}
	}
	ring_buffer_free(buf);
}

/* --- task names: the table behind comm_id ----------------------------------- */

/*
 * A table of the test's own (the kernel's is shared with the running
 * system): one id per name, the name back from its id, bytes after the NUL
 * ignored, a slot being written passed over; ids that name nothing
 * refused.
 */
static struct kmark_comm_table *kmark_comm_table_kunit_alloc(struct kunit *test)
{
	struct kmark_comm_table *t = kunit_kzalloc(test, sizeof(*t), GFP_KERNEL);

	if (t)
		kmark_comm_table_init(t, 0x5eed);
	return t;
}

static void kmark_test_comm_table(struct kunit *test)
{
	struct kmark_comm_table *t = kmark_comm_table_kunit_alloc(test);
	char name[TASK_COMM_LEN], got[TASK_COMM_LEN];
	u32 a, b;

	KUNIT_ASSERT_NOT_NULL(test, t);
	a = kmark_comm_table_id(t, "kworker/0:1");
	b = kmark_comm_table_id(t, "kmping");
	KUNIT_EXPECT_NE(test, a, 0U);
	KUNIT_EXPECT_NE(test, b, 0U);
	KUNIT_EXPECT_NE(test, a, b);
	KUNIT_EXPECT_EQ(test, kmark_comm_table_id(t, "kworker/0:1"), a);
	KUNIT_EXPECT_TRUE(test, kmark_comm_table_name(t, a, got));
	KUNIT_EXPECT_STREQ(test, got, "kworker/0:1");
	/* A comm is padded with zeros, but a copy torn by a rename may not be. */
	memset(name, 'x', sizeof(name));
	memcpy(name, "kmping", 7);
	KUNIT_EXPECT_EQ(test, kmark_comm_table_id(t, name), b);
	/* 15 characters and no NUL: cut as the kernel cuts a comm. */
	memset(name, 'y', sizeof(name));
	a = kmark_comm_table_id(t, name);
	KUNIT_EXPECT_TRUE(test, kmark_comm_table_name(t, a, got));
	KUNIT_EXPECT_STREQ(test, got, "yyyyyyyyyyyyyyy");
	/* ids that name nothing: none, a generation not given, a slot not used */
	KUNIT_EXPECT_FALSE(test, kmark_comm_table_name(t, 0, got));
	KUNIT_EXPECT_FALSE(test, kmark_comm_table_name(t, 7, got));
	KUNIT_EXPECT_FALSE(test, kmark_comm_table_name(t, a + (5 << KMARK_COMM_SLOT_BITS),
						       got));
	KUNIT_EXPECT_FALSE(test, kmark_comm_table_name(NULL, a, got));

	/* A slot another context is writing is passed over, not waited for. */
	kmark_comm_table_init(t, 0x5eed);
	a = kmark_comm_table_id(t, "busy");
	kmark_comm_table_init(t, 0x5eed);
	t->slots[a & (KMARK_COMM_IDS - 1)].tag =
		KMARK_COMM_TAG(KMARK_COMM_BUSY, 1, 1);
	b = kmark_comm_table_id(t, "busy");
	KUNIT_EXPECT_NE(test, b, 0U);
	KUNIT_EXPECT_NE(test, b, a);
	KUNIT_EXPECT_FALSE(test, kmark_comm_table_name(t, a, got));
}

/* The recorder's id for current: its name, whatever the CPU's hint says. */
/* A name with control bytes is printed on one line, escaped (NOTES.md). */
static void kmark_test_escape_name(struct kunit *test)
{
	char out[KMARK_ESC_LEN(TASK_COMM_LEN)];

	KUNIT_EXPECT_STREQ(test, kmark_escape_name(out, "zzfinal\n", 16),
			   "zzfinal\\012");
	KUNIT_EXPECT_STREQ(test, kmark_escape_name(out, "a\tb\\c\x7f\x1b", 16),
			   "a\\011b\\134c\\177\\033");
	/* Spaces and bytes past ASCII stay as they are (ftrace's names). */
	KUNIT_EXPECT_STREQ(test, kmark_escape_name(out, "kworker/0:1 H\xc3\xa9", 16),
			   "kworker/0:1 H\xc3\xa9");
	/* At most n bytes, without a NUL among them. */
	KUNIT_EXPECT_STREQ(test, kmark_escape_name(out, "abcdef", 3), "abc");
	/* The longest: 15 control bytes, 4 bytes each. */
	KUNIT_EXPECT_EQ(test, strlen(kmark_escape_name(out,
			"\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n", 15)), 60);
}

static void kmark_test_comm_current(struct kunit *test)
{
	struct kmark_comm_hint *h;
	char got[TASK_COMM_LEN];
	u32 id, other;

	if (!READ_ONCE(kmark_comms))
		kunit_skip(test, "no buffer allocated yet, no table");
	if ((u32)current->pid - 1 >= KMARK_PID_NAMES - 1)
		kunit_skip(test, "current's pid has no line of its own in saved_cmdlines");
	preempt_disable();
	id = kmark_comm_of_current();
	KUNIT_EXPECT_NE(test, id, 0U);
	KUNIT_EXPECT_EQ(test, kmark_saved_cmdline_id(current->pid), id);
	other = kmark_comm_table_id(kmark_comms, "kmark-other");
	/*
	 * saved_cmdlines' line is the guess: one naming another name
	 * (current renamed on another CPU, then back) is checked, not
	 * trusted, and the line gets current's name back.
	 */
	kmark_saved_cmdline(current->pid, other);
	KUNIT_EXPECT_EQ(test, kmark_comm_of_current(), id);
	KUNIT_EXPECT_EQ(test, kmark_saved_cmdline_id(current->pid), id);
	/* A guess of another generation of the slot: not trusted either. */
	kmark_saved_cmdline(current->pid, id + (1 << KMARK_COMM_SLOT_BITS));
	KUNIT_EXPECT_EQ(test, kmark_comm_of_current(), id);
	KUNIT_EXPECT_EQ(test, kmark_saved_cmdline_id(current->pid), id);
	/* No line yet: a lookup, which makes it. */
	kmark_saved_cmdline(current->pid, 0);
	KUNIT_EXPECT_EQ(test, kmark_comm_of_current(), id);
	KUNIT_EXPECT_EQ(test, kmark_saved_cmdline_id(current->pid), id);
	/* The CPU's hint is not what a pid with a line goes by. */
	h = this_cpu_ptr(&kmark_comm_hint[kmark_comm_hint_idx()]);
	h->id = other;
	h->pid = current->pid;
	KUNIT_EXPECT_EQ(test, kmark_comm_of_current(), id);
	preempt_enable();
	KUNIT_EXPECT_TRUE(test, kmark_comm_name(id, got));
	KUNIT_EXPECT_STREQ(test, got, current->comm);
}

/* --- set_event parsing ------------------------------------------------------- */

static const char * const kmark_ev_systems[] = {
	"sched", "sched", "sched", "sched", "syscalls", "kprobes",
};

static const char * const kmark_ev_names[] = {
	"sched_process_exit", "sched_process_fork", "sched_switch",
	"sched_wakeup", "sys_sync", "myopen",
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
	{ "kprobes:myopen", "000000", "000001" },
	{ "kprobes/*", "000000", "000001" },
	{ "kprobes:", "000000", "000001" },
	{ "sched_[sw]*", "000000", "001100" },
	{ "sched_?akeup", "000000", "000100" },
	{ "* !sys_sync", "000000", "111101" },
	/* ftrace's: a plain word names a system too; "SYS:", ":NAME" */
	{ "sched", "000000", "111100" },
	{ "sched:", "000000", "111100" },
	{ "sched:*", "000000", "111100" },
	{ ":sys_sync", "000000", "000010" },
	{ "*:sched_w*", "000000", "000100" },
	{ "syscalls:sys_sync !sched:sched_*", "111110", "000010" },
	{ "nosuch", "000000", NULL, KMARK_ERR_UNKNOWN_PLAIN, 0 },
	{ "sched_switch nosuch", "000000", NULL, KMARK_ERR_UNKNOWN_PLAIN, 13 },
	{ "  !nosuch", "000000", NULL, KMARK_ERR_UNKNOWN_PLAIN, 2 },
	{ "foo*", "000000", NULL, "No event matches the glob", 0 },
	{ "sched_[sw", "000000", NULL, "Bad glob: unmatched '[' or ']'", 0 },
	{ "sys_sync !", "000000", NULL, "'!' must be followed by an event name", 9 },
	{ "sched_switc", "000000", NULL, KMARK_ERR_UNKNOWN_PLAIN, 0 },
	{ "mydrv:sched_switch", "000000", NULL, "Unknown event (see available_events)", 0 },
	{ "sched:sys_sync", "000000", NULL, "Unknown event (see available_events)", 0 },
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
		ret = kmark_set_event_parse(c->cmd, kmark_ev_systems,
					    kmark_ev_names, n, state, NULL,
					    NULL, &err, &pos);
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

/* --- set_event is all or nothing ---------------------------------------------- */

static noinline void kmark_kunit_fire_abc(void)
{
	kmark(kmark_kunit_a, "");
	kmark(kmark_kunit_b, "");
	kmark(kmark_kunit_c, "");
}

static const char *kmark_kunit_fail_name;

/*
 * kmark_event_enable() whose enabling fails for one marker; the others
 * only change state (nothing is attached: the test ends with all off).
 */
static int kmark_kunit_event_enable(struct kmark_event_file *file,
				    bool enable, bool soft)
{
	if (enable && !strcmp(file->m->name, kmark_kunit_fail_name))
		return -ENOMEM;
	assign_bit(KMARK_EF_ENABLED_BIT, &file->flags, enable);
	return 0;
}

/* A set_event write to the top instance: '>' when @truncate. */
static int kmark_kunit_set_event(const char *cmd, bool truncate,
				 const char **err)
{
	unsigned int pos;

	return kmark_set_event_apply(kmark_top_inst, cmd, truncate, err, &pos);
}

static bool kmark_kunit_recording_m(struct kmark_marker *m)
{
	bool on;

	mutex_lock(&kmark_mutex);
	on = m && kmark_event_recording(m, kmark_top_inst);
	mutex_unlock(&kmark_mutex);
	return on;
}

static bool kmark_kunit_recording(const char *name)
{
	struct kmark_marker *m;

	mutex_lock(&kmark_mutex);
	m = kmark_find_marker("kmark", name);
	mutex_unlock(&kmark_mutex);
	return kmark_kunit_recording_m(m);
}

static void kmark_test_set_event_rollback(struct kunit *test)
{
	const char *err;

	kmark_kunit_fire_abc();
	kunit_activate_static_stub(test, kmark_event_enable,
				   kmark_kunit_event_enable);
	/* a on before; the write adds b and c; c fails. */
	kmark_kunit_fail_name = "";
	KUNIT_ASSERT_EQ(test, kmark_kunit_set_event("kmark_kunit_a", false, &err), 0);
	kmark_kunit_fail_name = "kmark_kunit_c";
	KUNIT_EXPECT_EQ(test, kmark_kunit_set_event("kmark_kunit_b kmark_kunit_c", false, &err),
			-ENOMEM);
	KUNIT_EXPECT_STREQ(test, err, "Out of memory");
	KUNIT_EXPECT_TRUE_MSG(test, kmark_kunit_recording("kmark_kunit_a"),
			      "an event the write did not turn on was turned off");
	KUNIT_EXPECT_FALSE_MSG(test, kmark_kunit_recording("kmark_kunit_b"),
			       "what the failed write turned on stayed on");
	KUNIT_EXPECT_FALSE(test, kmark_kunit_recording("kmark_kunit_c"));

	/* '>' that would turn a off and b on; b fails: a stays on. */
	kmark_kunit_fail_name = "kmark_kunit_b";
	KUNIT_EXPECT_EQ(test, kmark_kunit_set_event("kmark_kunit_b kmark_kunit_c", true, &err),
			-ENOMEM);
	KUNIT_EXPECT_TRUE(test, kmark_kunit_recording("kmark_kunit_a"));
	KUNIT_EXPECT_FALSE(test, kmark_kunit_recording("kmark_kunit_b"));
	KUNIT_EXPECT_FALSE(test, kmark_kunit_recording("kmark_kunit_c"));

	KUNIT_EXPECT_EQ(test, kmark_kunit_set_event("!kmark_kunit_a", false, &err), 0);
	KUNIT_EXPECT_FALSE(test, kmark_kunit_recording("kmark_kunit_a"));
	kunit_deactivate_static_stub(test, kmark_event_enable);
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

static void kmark_kunit_probe(void *data, struct kmark_marker *m,
			      const void *args)
{
	struct kmark_probe_seen *seen = data;

	seen->calls++;
	seen->a = kmark_arg_value(m, args, 0);
	strscpy(seen->s, kmark_arg_str(m, args, 1), sizeof(seen->s));
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

#if BITS_PER_LONG == 64
#define KMARK_KUNIT_XLONG	"0x%llx"
#else
#define KMARK_KUNIT_XLONG	"0x%x"
#endif

struct kmark_kp_case {
	const char *cmd;
	int err;		/* -1: must parse */
	unsigned int pos;	/* caret, when err >= 0 */
	const char *name;	/* when it parses */
	const char *format;
	const char *symbol;
};

static const struct kmark_kp_case kmark_kp_cases[] = {
	{ "p:myopen do_sys_openat2 dfd=$arg1:s32 fname=+0($arg2):ustring", -1, 0,
	  "kprobes/myopen", "(%pS) dfd=%d fname=\"%s\"", "do_sys_openat2" },
	{ "p do_sys_open", -1, 0, "kprobes/p_do_sys_open_0", "(%pS)", "do_sys_open" },
	{ "r:grp/rv vfs_read $retval", -1, 0, "grp/rv",
	  "(%pS <- %ps) arg1=" KMARK_KUNIT_XLONG, "vfs_read" },
	{ "p vfs_read%return ret=$retval:s64", -1, 0, "kprobes/r_vfs_read_0",
	  "(%pS <- %ps) ret=%lld", "vfs_read" },
	{ "r:ra vfs_read fd=$arg1:u32 ret=$retval:s32", -1, 0, "kprobes/ra",
	  "(%pS <- %ps) fd=%u ret=%d", "vfs_read" },
	{ "r16:ret16 vfs_read", -1, 0, "kprobes/ret16", "(%pS <- %ps)", "vfs_read" },
	{ "p:cs finish_task_switch", -1, 0, "kprobes/cs", "(%pS)", "finish_task_switch.isra.0" },
	{ "p __switch_to", -1, 0, "kprobes/p___switch_to_0", "(%pS)", "__switch_to" },
	{
	  "p:a vfs_read+4 c=$comm x=%ax u=@jiffies:u64 s=$stack0 st=$stack d=+8(-4(%sp)):x8 b=+0(%ax):s16",
	  -1, 0, "kprobes/a",
	  "(%pS) c=\"%s\" x=" KMARK_KUNIT_XLONG " u=%llu s=" KMARK_KUNIT_XLONG
	  " st=" KMARK_KUNIT_XLONG " d=0x%x b=%d", "vfs_read" },
	{ "p vfs_read y=$arg1:symbol", -1, 0, "kprobes/p_vfs_read_0", "(%pS) y=%pS",
	  "vfs_read" },
	/* ftrace 6.12's: bitfields, user-space dereferences, %pd and %pD. */
	{ "p:bf vfs_read a=$arg1:b4@4/32 b=@jiffies:b1@63/64", -1, 0, "kprobes/bf",
	  "(%pS) a=%u b=%llu", "vfs_read" },
	{ "p:u do_sys_openat2 p=+u0($arg2):string q=+u8(%sp):u32 r=-u8(%sp)",
	  -1, 0, "kprobes/u", "(%pS) p=\"%s\" q=%u r=" KMARK_KUNIT_XLONG,
	  "do_sys_openat2" },
	{ "p:d dput n=$arg1:%pd $arg1:%pd", -1, 0, "kprobes/d",
	  "(%pS) n=\"%s\" arg2=\"%s\"", "dput" },
	{ "p:f vfs_read $arg1:%pD", -1, 0, "kprobes/f", "(%pS) arg1=\"%s\"",
	  "vfs_read" },
	{ "p vfs_read x=$arg1:b0@4/32", KMARK_KPE_BAD_BITFIELD, 19 },
	{ "p vfs_read x=$arg1:b8@28/32", KMARK_KPE_BAD_BITFIELD, 19 },
	{ "p vfs_read x=$arg1:b8@0/24", KMARK_KPE_BAD_BITFIELD, 19 },
	{ "p vfs_read x=$arg1:b8@0", KMARK_KPE_BAD_BITFIELD, 19 },
	{ "p vfs_read +u(%ax)", KMARK_KPE_BAD_DEREF_OFFS, 11 },
	{ "p vfs_read x=$arg9:%pq", KMARK_KPE_BAD_TYPE, 19 },
	{ "p vfs_read x=%zz:%pd", KMARK_KPE_BAD_REG, 11 },
	{ "p vfs_read+4 $arg1", KMARK_KPE_NOFENTRY_ARGS, 13 },
	{ "p vfs_read+4 x=+0($arg2)", KMARK_KPE_NOFENTRY_ARGS, 18 },
	{ "x do_sys_open", KMARK_KPE_BAD_CMD, 0 },
	{ "p:my-open do_sys_open", KMARK_KPE_BAD_EVENT_NAME, 2 },
	{ "p:g-x/e do_sys_open", KMARK_KPE_BAD_GROUP_NAME, 2 },
	{ "p:myp", KMARK_KPE_NO_PROBE_POINT, 5 },
	{ "r0 vfs_read", KMARK_KPE_BAD_MAXACT, 1 },
	{ "p no_such_function_xyz", KMARK_KPE_BAD_SYMBOL, 2 },
	{ "p context_switch", KMARK_KPE_BAD_SYMBOL, 2 },
	{ "p m@d:sym", KMARK_KPE_BAD_MODULE_NAME, 2 },
	{ "p:mp kmark_no_such_module:some_fn n=$arg1:s32", -1, 0, "kprobes/mp",
	  "(%pS) n=%d", "some_fn" },
	{ "p no_such_mod:fn+8", -1, 0, "kprobes/p_no_such_mod_fn_8", "(%pS)", "fn" },
	{ "p notify_die", KMARK_KPE_BLACKLISTED, 2 },
	{ "p exc_int3", KMARK_KPE_BLACKLISTED, 2 },
	{ "r __switch_to", KMARK_KPE_KRETPROBE_BLACKLISTED, 2 },
	{ "r vfs_read+4", KMARK_KPE_BAD_RETPROBE_OFFSET, 2 },
	{ "p vfs_read+zz", KMARK_KPE_BAD_OFFSET, 2 },
	{ "p vfs_read%ret", KMARK_KPE_BAD_RETURN_SUFFIX, 10 },
	{ "p vfs_read $arg0", KMARK_KPE_BAD_ARG_NUM, 11 },
	{ "p vfs_read $retval", KMARK_KPE_RETVAL_ON_PROBE, 11 },
	{ "p vfs_read $foo", KMARK_KPE_BAD_VAR, 11 },
	{ "p vfs_read %zz", KMARK_KPE_BAD_REG, 11 },
	{ "p vfs_read @no_such_sym_xyz", KMARK_KPE_BAD_MEM_ADDR, 12 },
	{ "p vfs_read +8(%ax", KMARK_KPE_DEREF_OPEN_BRACE, 17 },
	{ "p vfs_read +8(%ax)x", KMARK_KPE_BAD_DEREF, 18 },
	{ "p vfs_read +z(%ax)", KMARK_KPE_BAD_DEREF_OFFS, 11 },
	{ "p vfs_read x=$arg1:u7", KMARK_KPE_BAD_TYPE, 19 },
	{ "p vfs_read x=$arg1:str", KMARK_KPE_BAD_TYPE, 19 },
	{ "p vfs_read 1x=$arg1", KMARK_KPE_BAD_ARG_NAME, 11 },
	{ "p vfs_read a=$arg1 a=$arg2", KMARK_KPE_DUP_ARG_NAME, 19 },
	{ "p vfs_read common_pid=$arg1", KMARK_KPE_RESERVED_ARG_NAME, 11 },
	{ "p vfs_read x=$arg1 __probe_ip=$arg2", KMARK_KPE_RESERVED_ARG_NAME, 19 },
	{ "p vfs_read common_comm_id=$arg1", KMARK_KPE_RESERVED_ARG_NAME, 11 },
	{ "p vfs_read c=$comm:u32", KMARK_KPE_BAD_COMM_TYPE, 19 },
	{ "p vfs_read +0($comm)", KMARK_KPE_COMM_DEREF, 14 },
	{ "p vfs_read +0(+0(+0(+0(+0($arg1)))))", KMARK_KPE_DEREF_TOO_DEEP, 23 },
	{ "p vfs_read foo", KMARK_KPE_BAD_FETCH_ARG, 11 },
	{
	  "p vfs_read $arg1 $arg1 $arg1 $arg1 $arg1 $arg1 $arg1 $arg1 $arg1 $arg1 $arg1 $arg1 $arg1 $arg1 $arg1",
	  KMARK_KPE_TOO_MANY_ARGS, 95 },
};

static void kmark_test_kprobe_parse(struct kunit *test)
{
	char full[2 * KMARK_NAME_MAX];
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
		snprintf(full, sizeof(full), "%s/%s", tk->marker.system,
			 tk->marker.name);
		KUNIT_EXPECT_STREQ_MSG(test, full, c->name, "\"%s\"", c->cmd);
		KUNIT_EXPECT_STREQ_MSG(test, tk->marker.format, c->format, "\"%s\"", c->cmd);
		KUNIT_EXPECT_STREQ_MSG(test, tk->symbol, c->symbol, "\"%s\"", c->cmd);
		kmark_kprobe_free(tk);
	}
}
#endif

/* --- a hit where RCU does not watch ------------------------------------------ */

static bool kmark_kunit_rcu_not_watching(void)
{
	return false;
}

/*
 * A hit where RCU does not watch the CPU (idle, early entry) runs no probe,
 * as __DO_TRACE runs none, and a recorded marker counts it as written and
 * dropped, so the loss shows. rcu_is_watching() is made to say no.
 */
static void kmark_test_rcu_not_watching(struct kunit *test)
{
	struct kmark_probe_seen seen = {};
	const char *name = "kmark_kunit_marker", *err;
	unsigned long w0, d0, w1, d1;
	int cpu;

	KUNIT_ASSERT_EQ(test, kmark_kunit_set_event(name, false, &err), 0);
	KUNIT_ASSERT_EQ(test, kmark_probe_register(name, NULL, kmark_kunit_probe,
						   &seen), 0);
	migrate_disable();
	cpu = smp_processor_id();
	w0 = kmark_written(kmark_top_inst, cpu);
	d0 = kmark_dropped(kmark_top_inst, cpu);
	kunit_activate_static_stub(test, kmark_rcu_watching_kunit,
				   kmark_kunit_rcu_not_watching);
	kmark_kunit_fire(1, "unwatched");
	kunit_deactivate_static_stub(test, kmark_rcu_watching_kunit);
	w1 = kmark_written(kmark_top_inst, cpu);
	d1 = kmark_dropped(kmark_top_inst, cpu);
	migrate_enable();
	KUNIT_EXPECT_EQ_MSG(test, seen.calls, 0, "a probe ran where RCU does not watch");
	KUNIT_EXPECT_EQ(test, w1 - w0, 1UL);
	KUNIT_EXPECT_EQ(test, d1 - d0, 1UL);

	migrate_disable();
	cpu = smp_processor_id();
	w0 = kmark_written(kmark_top_inst, cpu);
	d0 = kmark_dropped(kmark_top_inst, cpu);
	kmark_kunit_fire(2, "watched");
	w1 = kmark_written(kmark_top_inst, cpu);
	d1 = kmark_dropped(kmark_top_inst, cpu);
	migrate_enable();
	KUNIT_EXPECT_EQ(test, seen.calls, 1);
	KUNIT_EXPECT_EQ(test, w1 - w0, 1UL);
	KUNIT_EXPECT_EQ(test, d1 - d0, 0UL);
	kmark_probe_unregister(name, kmark_kunit_probe, &seen);
	KUNIT_EXPECT_EQ(test, kmark_kunit_set_event("!kmark_kunit_marker", false, &err), 0);
}

/* --- filters ----------------------------------------------------------------- */

#define KMARK_TEST_NR_FILTERS	20

/* One hit of kmark_kunit_layout, each filter run on it both ways. */
struct kmark_filter_run {
	struct kmark_filter *f[KMARK_TEST_NR_FILTERS];
	unsigned int nr;
	int calls;
	bool on_args[KMARK_TEST_NR_FILTERS];
	bool on_rec[KMARK_TEST_NR_FILTERS];
};

static void kmark_filter_run_probe(void *data, struct kmark_marker *m,
				   const void *args)
{
	struct kmark_filter_run *r = data;
	u8 rec[256] __aligned(8) = {};
	struct kmark_entry *e = (struct kmark_entry *)rec;
	struct kmark_strs strs;
	size_t size = kmark_record_size(m->layout, args, &strs);
	unsigned int i;

	if (size > sizeof(rec))
		return;
	e->type = m->id;
	e->pid = current->pid;
	e->comm_id = kmark_comm_of_current();
	kmark_record_fill(e, m->layout, args, &strs);
	for (i = 0; i < r->nr; i++) {
		r->on_args[i] = kmark_filter_match(r->f[i], e,
						   (const u8 *)args - KMARK_HDR_SIZE,
						   0);
		r->on_rec[i] = kmark_filter_match(r->f[i], e, rec, size);
	}
	r->calls++;
}

/*
 * ftrace's grammar on a marker's fields (a=-1 s="xy" l=7 c='q' t="" u=9)
 * and the common fields: the same answer from the site's argument block
 * (markers, before anything is reserved) and from the finished record
 * (kprobe events).
 */
static void kmark_test_filter_match(struct kunit *test)
{
	static const struct {
		const char *filter;
		bool want;
	} cases[] = {
		{ "a == -1", true },
		{ "a < 0", true },
		{ "a > 0", false },
		{ "u >= 9 && l == 7", true },
		{ "u > 9 || l != 7", false },
		{ "!(u > 9)", true },
		{ "c & 1", true },
		{ "c & 2", false },
		{ "s == xy", true },
		{ "s == \"xy\"", true },
		{ "s ~ \"x*\"", true },
		{ "s ~ '?y'", true },
		{ "s != xy", false },
		{ "t == \"\"", true },
		{ "cpu >= 0", true },
		{ "(a == -1 && (s ~ \"y*\" || u == 9)) && !(c & 2)", true },
		{ "a == -1 && s ~ \"y*\" || u == 8", false },
	};
	struct kmark_filter_run *r = kunit_kzalloc(test, sizeof(*r), GFP_KERNEL);
	const char *name = "kmark_kunit_layout", *err;
	char pidf[32], commf[48];
	struct kmark_marker *m;
	unsigned int i, pos;

	KUNIT_ASSERT_NOT_NULL(test, r);
	BUILD_BUG_ON(ARRAY_SIZE(cases) + 2 > KMARK_TEST_NR_FILTERS);
	snprintf(pidf, sizeof(pidf), "common_pid == %d", current->pid);
	snprintf(commf, sizeof(commf), "comm == \"%s\"", current->comm);
	mutex_lock(&kmark_mutex);
	m = kmark_find_marker("kmark", name);
	mutex_unlock(&kmark_mutex);
	KUNIT_ASSERT_NOT_NULL(test, m);
	for (i = 0; i < ARRAY_SIZE(cases) + 2; i++) {
		const char *text;

		if (i < ARRAY_SIZE(cases))
			text = cases[i].filter;
		else if (i == ARRAY_SIZE(cases))
			text = pidf;
		else
			text = commf;

		r->f[i] = kmark_filter_compile(m->layout, text, &err, &pos);
		KUNIT_ASSERT_FALSE_MSG(test, IS_ERR(r->f[i]), "\"%s\": %s at %u",
				       text, IS_ERR(r->f[i]) ? err : "", pos);
		r->nr++;
	}
	KUNIT_ASSERT_EQ(test, kmark_probe_register(name, NULL,
						   kmark_filter_run_probe, r), 0);
	kmark(kmark_kunit_layout, "a=%d s=%s l=%ld c=%c t=%s u=%llu",
	      -1, "xy", 7L, 'q', "", 9ULL);
	kmark_probe_unregister(name, kmark_filter_run_probe, r);
	KUNIT_ASSERT_EQ(test, r->calls, 1);
	for (i = 0; i < r->nr; i++) {
		bool want = true;

		if (i < ARRAY_SIZE(cases))
			want = cases[i].want;

		KUNIT_EXPECT_EQ_MSG(test, r->on_args[i], want, "args: \"%s\"",
				    kmark_filter_text(r->f[i]));
		KUNIT_EXPECT_EQ_MSG(test, r->on_rec[i], want, "record: \"%s\"",
				    kmark_filter_text(r->f[i]));
		kmark_filter_free(r->f[i]);
	}
}

/* Each refusal with ftrace's message and the caret where ftrace puts it. */
static void kmark_test_filter_errors(struct kunit *test)
{
	static const struct {
		const char *filter, *msg;
		unsigned int pos;
	} cases[] = {
		{ "nosuch == 1", "Field not found", 0 },
		{ "a ~ 1", "Illegal operation for field type", 2 },
		{ "s < 3", "Illegal operation for field type", 2 },
		{ "a == x1", "Illegal integer value", 5 },
		{ "(a == 1", "Too many '('", 0 },
		{ "a == 1)", "Too few '('", 6 },
		{ "s == \"abc", "Missing matching quote", 5 },
		{ "a == 1 b", "Meaningless filter expression", 7 },
		{ "a =! 1", "Invalid operator", 2 },
		{ "a ==", "Invalid value (did you forget quotes)?", 4 },
		{ "&& a == 1", "Meaningless filter expression", 0 },
		{ "a == 1 &&", "Meaningless filter expression", 9 },
	};
	struct kmark_filter *f;
	struct kmark_marker *m;
	unsigned int i, pos;
	const char *err;
	char *many;

	mutex_lock(&kmark_mutex);
	m = kmark_find_marker("kmark", "kmark_kunit_layout");
	mutex_unlock(&kmark_mutex);
	KUNIT_ASSERT_NOT_NULL(test, m);
	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		err = NULL;
		pos = ~0U;
		f = kmark_filter_compile(m->layout, cases[i].filter, &err, &pos);
		KUNIT_EXPECT_EQ_MSG(test, PTR_ERR_OR_ZERO(f), -EINVAL, "\"%s\"",
				    cases[i].filter);
		if (!IS_ERR(f)) {
			kmark_filter_free(f);
			continue;
		}
		KUNIT_EXPECT_STREQ_MSG(test, err, cases[i].msg, "\"%s\"",
				       cases[i].filter);
		KUNIT_EXPECT_EQ_MSG(test, pos, cases[i].pos, "\"%s\"",
				    cases[i].filter);
	}
	/* 33 terms: one too many. */
	many = kunit_kzalloc(test, 33 * 12, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, many);
	for (i = 0; i < 33; i++)
		strcat(many, i ? " || a == 1" : "a == 1");
	f = kmark_filter_compile(m->layout, many, &err, &pos);
	KUNIT_EXPECT_EQ(test, PTR_ERR_OR_ZERO(f), -EINVAL);
	if (IS_ERR(f))
		KUNIT_EXPECT_STREQ(test, err, "Too many terms in predicate expression");
	else
		kmark_filter_free(f);
}

/* --- a module's sites: joining, refusing, leaving, coming back ----------- */

#ifdef CONFIG_MODULES
static const struct kmark_arg kmark_kunit_int_arg[] = {
	{ .offset = 0, .size = sizeof(int), .class = KMARK_ARG_SIGNED },
};

/*
 * A module of the test's own: its sites are plain structs (not in any
 * __kmark_sites section), its "data" is the array that holds them, so
 * within_module() knows them as the module's.
 */
static struct kmark_site kmark_kunit_msites[] = {
	/* two sites of one new marker, a zero-argument one */
	{ .system = "kmark_kunit_mod", .name = "kmark_kunit_m_two", .format = "x=%d",
	  .args = kmark_kunit_int_arg, .nr_args = 1, .args_size = sizeof(int) },
	{ .system = "kmark_kunit_mod", .name = "kmark_kunit_m_two", .format = "x=%d",
	  .args = kmark_kunit_int_arg, .nr_args = 1, .args_size = sizeof(int) },
	{ .system = "kmark_kunit_mod", .name = "kmark_kunit_m_zero", .format = "" },
	/* a second site of the same name disagreeing: stays off */
	{ .system = "kmark_kunit_mod", .name = "kmark_kunit_m_two", .format = "y=%d",
	  .args = kmark_kunit_int_arg, .nr_args = 1, .args_size = sizeof(int) },
	/* a kernel marker's name with another format: stays off */
	{ .system = "syscalls", .name = "sys_sync", .format = "bad=%d",
	  .args = kmark_kunit_int_arg, .nr_args = 1, .args_size = sizeof(int) },
	/* a bad format: no marker at all */
	{ .system = "kmark_kunit_mod", .name = "kmark_kunit_m_bad", .format = "f=%f",
	  .args = kmark_kunit_int_arg, .nr_args = 1, .args_size = sizeof(int) },
};

static struct module *kmark_kunit_module(struct kunit *test)
{
	struct module *mod = kunit_kzalloc(test, sizeof(*mod), GFP_KERNEL);
	static struct kmark_site *ptrs[ARRAY_SIZE(kmark_kunit_msites)];
	unsigned int i;

	KUNIT_ASSERT_NOT_NULL(test, mod);
	strscpy(mod->name, "kmark_kunit_mod");
	for (i = 0; i < ARRAY_SIZE(ptrs); i++) {
		kmark_kunit_msites[i].key = STATIC_KEY_FALSE_INIT;
		kmark_kunit_msites[i].marker = NULL;
		ptrs[i] = &kmark_kunit_msites[i];
	}
	mod->kmark_sites = ptrs;
	mod->num_kmark_sites = ARRAY_SIZE(ptrs);
	mod->mem[MOD_DATA].base = kmark_kunit_msites;
	mod->mem[MOD_DATA].size = sizeof(kmark_kunit_msites);
	return mod;
}

/* The live marker @name of system @sys (NULL: the only one so named). */
static struct kmark_marker *kmark_kunit_find2(const char *sys, const char *name)
{
	struct kmark_marker *m;

	mutex_lock(&kmark_mutex);
	m = kmark_find_marker(sys, name);
	mutex_unlock(&kmark_mutex);
	return IS_ERR(m) ? NULL : m;
}

#define kmark_kunit_find(name)	kmark_kunit_find2(NULL, name)

static void kmark_test_module_sites(struct kunit *test)
{
	struct kmark_site *s = kmark_kunit_msites;
	struct module *mod = kmark_kunit_module(test);
	struct kmark_marker *two, *zero, *sync = kmark_kunit_find2("syscalls", "sys_sync");
	unsigned int sync_sites;
	const char *err;
	u16 id;

	KUNIT_ASSERT_NOT_NULL(test, sync);
	sync_sites = sync->nr_sites;
	/* Named before the module comes: the token waits for it. */
	KUNIT_ASSERT_EQ(test,
			kmark_kunit_set_event("kmark_kunit_mod:kmark_kunit_m_two", false, &err),
			0);
	KUNIT_EXPECT_NULL(test, kmark_kunit_find("kmark_kunit_m_two"));

	kmark_module_coming(mod);
	two = kmark_kunit_find("kmark_kunit_m_two");
	zero = kmark_kunit_find("kmark_kunit_m_zero");
	KUNIT_ASSERT_NOT_NULL(test, two);
	KUNIT_ASSERT_NOT_NULL(test, zero);
	KUNIT_EXPECT_STREQ(test, two->module, "kmark_kunit_mod");
	KUNIT_EXPECT_EQ(test, two->nr_sites, 2);
	KUNIT_EXPECT_PTR_EQ(test, s[0].marker, two);
	KUNIT_EXPECT_PTR_EQ(test, s[1].marker, two);
	KUNIT_EXPECT_EQ(test, zero->nr_sites, 1);
	KUNIT_EXPECT_EQ(test, zero->layout->nr_fields, 0);
	KUNIT_EXPECT_NULL_MSG(test, s[3].marker, "a disagreeing site joined");
	KUNIT_EXPECT_FALSE(test, static_key_enabled(&s[3].key));
	KUNIT_EXPECT_NULL_MSG(test, s[4].marker,
			      "a site with another format joined sys_sync");
	KUNIT_EXPECT_EQ(test, sync->nr_sites, sync_sites);
	KUNIT_EXPECT_PTR_EQ(test, sync, kmark_kunit_find2("syscalls", "sys_sync"));
	KUNIT_EXPECT_NULL(test, kmark_kunit_find("kmark_kunit_m_bad"));
	/* The waiting token took effect: recording, both sites armed. */
	KUNIT_EXPECT_TRUE(test, kmark_kunit_recording_m(two));
	KUNIT_EXPECT_TRUE(test, static_key_enabled(&s[0].key));
	KUNIT_EXPECT_TRUE(test, static_key_enabled(&s[1].key));
	KUNIT_EXPECT_FALSE(test, kmark_kunit_recording_m(zero));
	id = two->id;

	kmark_module_going(mod);
	KUNIT_EXPECT_NULL(test, kmark_kunit_find("kmark_kunit_m_two"));
	KUNIT_EXPECT_NULL(test, kmark_kunit_find("kmark_kunit_m_zero"));
	KUNIT_EXPECT_FALSE(test, static_key_enabled(&s[0].key));
	KUNIT_EXPECT_FALSE(test, static_key_enabled(&s[1].key));
	KUNIT_EXPECT_EQ_MSG(test, kmark_gone_count("kmark_kunit_mod"), 2U,
			    "the markers are not kept for their records");
	rcu_read_lock();
	KUNIT_EXPECT_PTR_EQ(test, kmark_marker_by_id(id), two);
	rcu_read_unlock();
	KUNIT_EXPECT_EQ(test, sync->nr_sites, sync_sites);

	/* Back again: the same marker, and the token enables it again. */
	mod = kmark_kunit_module(test);
	kmark_module_coming(mod);
	KUNIT_EXPECT_PTR_EQ(test, kmark_kunit_find("kmark_kunit_m_two"), two);
	KUNIT_EXPECT_EQ(test, two->id, id);
	KUNIT_EXPECT_EQ(test, two->nr_sites, 2);
	KUNIT_EXPECT_TRUE(test, kmark_kunit_recording_m(two));
	KUNIT_EXPECT_EQ(test,
			kmark_kunit_set_event("!kmark_kunit_mod:kmark_kunit_m_two", false, &err),
			0);
	KUNIT_EXPECT_FALSE(test, kmark_kunit_recording_m(two));
	KUNIT_EXPECT_FALSE(test, static_key_enabled(&s[0].key));
	kmark_module_going(mod);
	KUNIT_EXPECT_NULL(test, kmark_kunit_find("kmark_kunit_m_two"));

	/* '!' while it was loaded dropped the waiting token too. */
	mod = kmark_kunit_module(test);
	kmark_module_coming(mod);
	KUNIT_EXPECT_FALSE_MSG(test, kmark_kunit_recording_m(two),
			       "'!module:name' left its token waiting");
	kmark_module_going(mod);

	/* A glob that names a waiting token drops it too. */
	KUNIT_EXPECT_EQ(test,
			kmark_kunit_set_event("kmark_kunit_mod:kmark_kunit_m_zero", false, &err),
			0);
	KUNIT_EXPECT_EQ(test, kmark_kunit_set_event("!kmark_kunit_mod:*", false, &err), 0);
	mod = kmark_kunit_module(test);
	kmark_module_coming(mod);
	KUNIT_EXPECT_FALSE_MSG(test, kmark_kunit_recording_m(zero),
			       "'!module:*' left a token of the module waiting");
	kmark_module_going(mod);
}
#endif /* CONFIG_MODULES */


/* --- the review of e834a96: each item's failing-first test ---------------- */

/*
 * Item 1: a run of '!' is a toggle, not a recursion (ftrace's
 * predicate_parse() is iterative): 4000 of them before a predicate parse
 * within a page of text and a bounded stack, the parity decides; parens
 * nested past the limit are refused.
 */
static void kmark_test_filter_deep(struct kunit *test)
{
	struct kmark_marker *m;
	struct kmark_filter *f;
	unsigned int pos, i;
	const char *err;
	char *text;

	mutex_lock(&kmark_mutex);
	m = kmark_find_marker("kmark", "kmark_kunit_layout");
	mutex_unlock(&kmark_mutex);
	KUNIT_ASSERT_NOT_NULL(test, m);
	text = kunit_kzalloc(test, PAGE_SIZE, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, text);
	memset(text, '!', 4000);
	strscpy(text + 4000, "nosuch == 1", PAGE_SIZE - 4000);
	f = kmark_filter_compile(m->layout, text, &err, &pos);
	KUNIT_EXPECT_EQ(test, PTR_ERR_OR_ZERO(f), -EINVAL);
	if (IS_ERR(f)) {
		KUNIT_EXPECT_STREQ(test, err, "Field not found");
		KUNIT_EXPECT_EQ(test, pos, 4000U);
	}
	strscpy(text + 4000, "a == 1", PAGE_SIZE - 4000);
	f = kmark_filter_compile(m->layout, text, &err, &pos);
	KUNIT_ASSERT_FALSE_MSG(test, IS_ERR(f), "%s at %u", IS_ERR(f) ? err : "", pos);
	kmark_filter_free(f);
	/* "!(" 2000 times: the parens' depth limit. */
	for (i = 0; i < 2000; i++)
		memcpy(text + 2 * i, "!(", 2);
	strscpy(text + 4000, "a == 1", PAGE_SIZE - 4000);
	f = kmark_filter_compile(m->layout, text, &err, &pos);
	KUNIT_EXPECT_EQ(test, PTR_ERR_OR_ZERO(f), -EINVAL);
	if (!IS_ERR(f))
		kmark_filter_free(f);
}

/*
 * Item 6: a pid list's lookup costs the same whatever was added and
 * removed before (one bit of a bitmap, as ftrace's pid_list): after 4096
 * add/remove cycles of consecutive pids, the pids listed and not listed
 * are still told apart, each by one lookup.
 */
static void kmark_test_pid_lookup_cost(struct kunit *test)
{
	unsigned int wrong = kmark_pid_kunit_churn_errors(4096);

	KUNIT_EXPECT_EQ_MSG(test, wrong, 0U,
			    "%u wrong answers after add/remove churn", wrong);
}

/*
 * Item 9: buffer_percent counts pages as ftrace's full_hit() does: 100 %
 * is reachable (the reader page counts), and the arithmetic does not wrap
 * in 32 bits (64 MiB per CPU at 50 %, half full).
 */
static void kmark_test_batch_full(struct kunit *test)
{
	/* 256 pages, 255 written: all a writer can fill. */
	KUNIT_EXPECT_TRUE(test, kmark_full_hit(255, 256, 100));
	KUNIT_EXPECT_FALSE(test, kmark_full_hit(100, 256, 100));
	KUNIT_EXPECT_TRUE(test, kmark_full_hit(127, 256, 50));
	KUNIT_EXPECT_FALSE(test, kmark_full_hit(100, 256, 50));
	/* 64 MiB of 4 KiB pages, half of them written. */
	KUNIT_EXPECT_TRUE(test, kmark_full_hit(8192, 16384, 50));
	KUNIT_EXPECT_FALSE(test, kmark_full_hit(4096, 16384, 50));
	KUNIT_EXPECT_TRUE(test, kmark_full_hit(0, 16384, 0));
}

/*
 * Item 4: the table of task names cannot be exhausted: 5000 distinct
 * names in a table of 4096 slots all get an id, and every id ever given
 * renders its own name or nothing, never another name.
 */
static void kmark_test_comm_exhaust(struct kunit *test)
{
	struct kmark_comm_table *t = kmark_comm_table_kunit_alloc(test);
	char name[TASK_COMM_LEN], got[TASK_COMM_LEN];
	unsigned int i, zero = 0, wrong = 0;
	u32 *ids;

	KUNIT_ASSERT_NOT_NULL(test, t);
	ids = kunit_kcalloc(test, 5000, sizeof(*ids), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, ids);
	for (i = 0; i < 5000; i++) {
		snprintf(name, sizeof(name), "n%u", i);
		ids[i] = kmark_comm_table_id(t, name);
		zero += !ids[i];
	}
	KUNIT_EXPECT_EQ_MSG(test, zero, 0U, "%u new names got no id", zero);
	for (i = 0; i < 5000; i++) {
		snprintf(name, sizeof(name), "n%u", i);
		if (ids[i] && kmark_comm_table_name(t, ids[i], got) &&
		    strcmp(got, name))
			wrong++;
	}
	KUNIT_EXPECT_EQ_MSG(test, wrong, 0U, "%u ids render another name", wrong);
	/* The last names given are all still there. */
	for (i = 4900; i < 5000; i++) {
		snprintf(name, sizeof(name), "n%u", i);
		KUNIT_EXPECT_TRUE(test, kmark_comm_table_name(t, ids[i], got));
	}
}

/*
 * The last 1000 of 6000 new names all keep their slots, whatever the table
 * held before (other tasks' names, a few hundred to a few thousand): with
 * eras that ended only at a full window, the era could change anywhere in
 * those 1000 and the names before the change were taken over at once
 * (99-comm-table-full.sh failed so, depending on the names earlier tests
 * left).
 */
static void kmark_test_comm_recent(struct kunit *test)
{
	char name[TASK_COMM_LEN], got[TASK_COMM_LEN];
	unsigned int pre, i, gone;
	struct kmark_comm_table *t;
	u32 *ids;

	ids = kunit_kcalloc(test, 6000, sizeof(*ids), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, ids);
	for (pre = 0; pre <= 3500; pre += 500) {
		t = kmark_comm_table_kunit_alloc(test);
		KUNIT_ASSERT_NOT_NULL(test, t);
		for (i = 0; i < pre; i++) {
			snprintf(name, sizeof(name), "other%u", i);
			kmark_comm_table_id(t, name);
		}
		for (i = 0; i < 6000; i++) {
			snprintf(name, sizeof(name), "kmn%u", i);
			ids[i] = kmark_comm_table_id(t, name);
		}
		for (i = 5000, gone = 0; i < 6000; i++)
			gone += !kmark_comm_table_name(t, ids[i], got);
		KUNIT_EXPECT_EQ_MSG(test, gone, 0U,
				    "%u of the last 1000 names taken over (%u names before)",
				    gone, pre);
		kunit_kfree(test, t);
	}
}

/*
 * An id names its record's task, or nothing, however long the table is
 * used after it. 5000 new names take the first name's slot; then the eras
 * wrap (2^KMARK_COMM_ERA_BITS - 1 eras later, some 16 million new names
 * with 15 bits of era), and new names are given in the era the first name
 * was given in, until its slot has one of them. With ids of eras (the
 * slot's first to last era), the first name's id then rendered that name.
 */
static void kmark_test_comm_generation(struct kunit *test)
{
	struct kmark_comm_table *t = kmark_comm_table_kunit_alloc(test);
	unsigned long before[TASK_COMM_LEN / sizeof(unsigned long)];
	char name[TASK_COMM_LEN], got[TASK_COMM_LEN];
	struct kmark_comm_slot *slot;
	unsigned int i;
	u32 old, tag;

	KUNIT_ASSERT_NOT_NULL(test, t);
	old = kmark_comm_table_id(t, "kmold");
	KUNIT_ASSERT_NE(test, old, 0U);
	for (i = 0; i < 5000; i++) {
		snprintf(name, sizeof(name), "kmw%u", i);
		kmark_comm_table_id(t, name);
	}
	KUNIT_ASSERT_FALSE(test, kmark_comm_table_name(t, old, got));
	slot = &t->slots[old & (KMARK_COMM_IDS - 1)];
	for (i = 0; i < 20000; i++) {
		memcpy(before, slot->name, sizeof(before));
		WRITE_ONCE(t->era, 1);	/* the first name's era, again */
		snprintf(name, sizeof(name), "kmx%u", i);
		kmark_comm_table_id(t, name);
		if (READ_ONCE(t->era) == 1 &&
		    memcmp(before, slot->name, sizeof(before)))
			break;
	}
	KUNIT_ASSERT_LT_MSG(test, i, 20000U,
			    "the first name's slot was not given again in its era");
	if (kmark_comm_table_name(t, old, got))
		KUNIT_FAIL(test, "the first name's id renders \"%s\"", got);
	/* A slot's generations wrap to 1, never to 0 (no id). */
	tag = KMARK_COMM_TAG(KMARK_COMM_READY, KMARK_COMM_GEN_MASK,
			     KMARK_COMM_ERA_MASK);
	KUNIT_EXPECT_EQ(test, kmark_comm_next_gen(tag), 1U);
	tag = KMARK_COMM_TAG(KMARK_COMM_FREE, 0, 0);
	KUNIT_EXPECT_EQ(test, kmark_comm_next_gen(tag), 1U);
}

#ifdef CONFIG_MODULES
/* Two modules of the test's own, each with one site named "kmark_kunit_m". */
static struct kmark_site kmark_kunit_ab_sites[3][1] = {
	{ { .system = "kmark_kunit_a", .name = "kmark_kunit_m", .format = "x=%d",
	    .args = kmark_kunit_int_arg, .nr_args = 1, .args_size = sizeof(int) } },
	{ { .system = "kmark_kunit_b", .name = "kmark_kunit_m", .format = "x=%d",
	    .args = kmark_kunit_int_arg, .nr_args = 1, .args_size = sizeof(int) } },
	/* B firing A's marker (kmark_system()): refused, A's goes with A */
	{ { .system = "kmark_kunit_a", .name = "kmark_kunit_m", .format = "x=%d",
	    .args = kmark_kunit_int_arg, .nr_args = 1, .args_size = sizeof(int) } },
};

static struct kmark_site kmark_kunit_fmt_sites[2][1] = {
	{ { .system = "kmark_kunit_f", .name = "kmark_kunit_f", .format = "x=%d",
	    .args = kmark_kunit_int_arg, .nr_args = 1, .args_size = sizeof(int) } },
	{ { .system = "kmark_kunit_f", .name = "kmark_kunit_f", .format = "y=%d",
	    .args = kmark_kunit_int_arg, .nr_args = 1, .args_size = sizeof(int) } },
};

static struct module *kmark_kunit_mod1(struct kunit *test, const char *name,
					struct kmark_site *site)
{
	struct module *mod = kunit_kzalloc(test, sizeof(*mod), GFP_KERNEL);
	struct kmark_site **ptrs = kunit_kzalloc(test, sizeof(*ptrs), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, mod);
	KUNIT_ASSERT_NOT_NULL(test, ptrs);
	strscpy(mod->name, name);
	site->key = (struct static_key_false)STATIC_KEY_FALSE_INIT;
	site->marker = NULL;
	ptrs[0] = site;
	mod->kmark_sites = ptrs;
	mod->num_kmark_sites = 1;
	mod->mem[MOD_DATA].base = site;
	mod->mem[MOD_DATA].size = sizeof(*site);
	return mod;
}

/*
 * Items 2 and 8: a marker name two modules share. A probe taken on A's
 * marker is found again when A is gone and B brought its own; the files
 * find B's, not the gone one; once both modules are gone, nothing of
 * either is left live.
 */
static void kmark_test_module_shared_name(struct kunit *test)
{
	struct kmark_probe_seen seen = {};
	struct module *a, *b;
	struct kmark_marker *ma, *mb;

	a = kmark_kunit_mod1(test, "kmark_kunit_a", &kmark_kunit_ab_sites[0][0]);
	b = kmark_kunit_mod1(test, "kmark_kunit_b", &kmark_kunit_ab_sites[1][0]);
	kmark_module_coming(a);
	ma = kmark_kunit_find("kmark_kunit_m");
	KUNIT_ASSERT_NOT_NULL(test, ma);
	KUNIT_ASSERT_EQ(test, kmark_probe_register("kmark_kunit_m", NULL,
						   kmark_kunit_probe, &seen), 0);
	kmark_module_going(a);
	kmark_module_coming(b);
	mb = kmark_kunit_find("kmark_kunit_m");
	KUNIT_ASSERT_NOT_NULL(test, mb);
	KUNIT_EXPECT_PTR_NE(test, mb, ma);
	mutex_lock(&kmark_mutex);
	KUNIT_EXPECT_PTR_EQ_MSG(test, kmark_find_file(kmark_top_inst, NULL,
						      "kmark_kunit_m")->m, mb,
				"the files find the gone marker");
	mutex_unlock(&kmark_mutex);
	KUNIT_EXPECT_EQ_MSG(test, kmark_probe_unregister("kmark_kunit_m",
							 kmark_kunit_probe, &seen), 0,
			    "the probe on the gone marker was not found");
	kmark_module_going(b);
	KUNIT_EXPECT_NULL(test, kmark_kunit_find("kmark_kunit_m"));

	/* Item 8: both loaded, then both gone. */
	a = kmark_kunit_mod1(test, "kmark_kunit_a", &kmark_kunit_ab_sites[0][0]);
	b = kmark_kunit_mod1(test, "kmark_kunit_b", &kmark_kunit_ab_sites[1][0]);
	kmark_module_coming(a);
	kmark_module_coming(b);
	kmark_module_going(a);
	kmark_module_going(b);
	KUNIT_EXPECT_NULL_MSG(test, kmark_kunit_find("kmark_kunit_m"),
			      "a marker two modules shared outlived both");

	/* B's site naming A's system does not join A's marker. */
	a = kmark_kunit_mod1(test, "kmark_kunit_a", &kmark_kunit_ab_sites[0][0]);
	b = kmark_kunit_mod1(test, "kmark_kunit_b", &kmark_kunit_ab_sites[2][0]);
	kmark_module_coming(a);
	kmark_module_coming(b);
	KUNIT_EXPECT_NULL(test, kmark_kunit_ab_sites[2][0].marker);
	kmark_module_going(a);
	kmark_module_going(b);
	KUNIT_EXPECT_NULL(test, kmark_kunit_find("kmark_kunit_m"));
}

/*
 * Item N2: a module whose marker changed its format, loaded and unloaded
 * again and again, keeps one marker per format for its records, no more.
 */
static void kmark_test_module_gone_formats(struct kunit *test)
{
	struct module *mod;
	int i;

	mod = kmark_kunit_mod1(test, "kmark_kunit_f", &kmark_kunit_fmt_sites[0][0]);
	kmark_module_coming(mod);
	kmark_module_going(mod);
	for (i = 0; i < 3; i++) {
		mod = kmark_kunit_mod1(test, "kmark_kunit_f",
				       &kmark_kunit_fmt_sites[1][0]);
		kmark_module_coming(mod);
		kmark_module_going(mod);
	}
	KUNIT_EXPECT_LE(test, kmark_gone_count("kmark_kunit_f"), 2U);
}
#endif /* CONFIG_MODULES */

static struct kunit_case kmark_test_cases[] = {
	KUNIT_CASE(kmark_test_parse_format),
	KUNIT_CASE(kmark_test_parse_named),
	KUNIT_CASE(kmark_test_round_trip),
	KUNIT_CASE(kmark_test_task_state),
	KUNIT_CASE(kmark_test_comm_inline),
	KUNIT_CASE(kmark_test_layout),
	KUNIT_CASE(kmark_test_bind_refuses),
	KUNIT_CASE(kmark_test_format_file),
	KUNIT_CASE(kmark_test_print_record),
	KUNIT_CASE(kmark_test_event_data),
	KUNIT_CASE(kmark_test_comm_table),
	KUNIT_CASE(kmark_test_comm_current),
	KUNIT_CASE(kmark_test_escape_name),
	KUNIT_CASE(kmark_test_set_event_parse),
	KUNIT_CASE(kmark_test_set_event_rollback),
	KUNIT_CASE(kmark_test_probe_api),
	KUNIT_CASE(kmark_test_rcu_not_watching),
	KUNIT_CASE(kmark_test_filter_match),
	KUNIT_CASE(kmark_test_filter_errors),
	KUNIT_CASE(kmark_test_pid_lookup_cost),
	KUNIT_CASE(kmark_test_batch_full),
	KUNIT_CASE(kmark_test_comm_exhaust),
	KUNIT_CASE(kmark_test_comm_recent),
	KUNIT_CASE(kmark_test_comm_generation),
#ifdef CONFIG_MODULES
	KUNIT_CASE(kmark_test_module_sites),
	KUNIT_CASE(kmark_test_module_shared_name),
	KUNIT_CASE(kmark_test_module_gone_formats),
#endif
#ifdef CONFIG_KMARK_KPROBES
	KUNIT_CASE(kmark_test_kprobe_parse),
#endif
	KUNIT_CASE(kmark_test_filter_deep),
	{}
};

static struct kunit_suite kmark_test_suite = {
	.name = "kmark",
	.test_cases = kmark_test_cases,
};
kunit_test_suite(kmark_test_suite);

MODULE_DESCRIPTION("KUnit tests for kmark");
MODULE_LICENSE("GPL");

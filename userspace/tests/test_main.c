// SPDX-License-Identifier: GPL-2.0
/*
 * Host test runner: test_kmark KMARK_BINARY FIXTURE_DIR
 * Prints TAP lines and ends with "N passed, N failed".
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "strlist.h"
#include "test.h"
#include "util_read.h"

const char *fixtures;
const char *kmark_bin;
static int passed, failed;

static bool vreport(bool cond, const char *fmt, va_list ap)
{
	printf("%sok %d - ", cond ? "" : "not ", passed + failed + 1);
	vprintf(fmt, ap);
	putchar('\n');
	if (cond)
		passed++;
	else
		failed++;
	return cond;
}

bool check(bool cond, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vreport(cond, fmt, ap);
	va_end(ap);
	return cond;
}

bool check_str(const char *got, const char *exp, const char *fmt, ...)
{
	bool ok = got && !strcmp(got, exp);
	va_list ap;

	va_start(ap, fmt);
	vreport(ok, fmt, ap);
	va_end(ap);
	if (!ok)
		printf("#   got:      '%s'\n#   expected: '%s'\n",
		       got ? got : "(null)", exp);
	return ok;
}

bool check_ll(long long got, long long exp, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vreport(got == exp, fmt, ap);
	va_end(ap);
	if (got != exp)
		printf("#   got: %lld expected: %lld\n", got, exp);
	return got == exp;
}

bool check_has(const char *got, const char *needle, const char *fmt, ...)
{
	bool ok = got && strstr(got, needle);
	va_list ap;

	va_start(ap, fmt);
	vreport(ok, fmt, ap);
	va_end(ap);
	if (!ok)
		printf("#   '%s'\n#   does not contain '%s'\n",
		       got ? got : "(null)", needle);
	return ok;
}

char *fixture(const char *name)
{
	char path[4096];
	char *buf;

	snprintf(path, sizeof(path), "%s/%s", fixtures, name);
	buf = slurp(path);
	if (!buf) {
		fprintf(stderr, "cannot read fixture %s\n", path);
		abort();
	}
	return buf;
}

int main(int argc, char **argv)
{
	if (argc != 3) {
		fprintf(stderr, "usage: %s KMARK_BINARY FIXTURE_DIR\n", argv[0]);
		return 2;
	}
	kmark_bin = argv[1];
	fixtures = argv[2];
	printf("TAP version 13\n");
	test_tparse();
	test_ctlfmt();
	test_fallback();
	test_report();
	test_e2e();
	test_real();
	test_output();
	test_pipe();
	test_bounds();
	test_ctlwrite();
	test_dat();
	test_recplan();
	printf("1..%d\n", passed + failed);
	printf("%d passed, %d failed\n", passed, failed);
	return failed ? 1 : 0;
}

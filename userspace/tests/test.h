/* SPDX-License-Identifier: GPL-2.0 */
/* Minimal TAP-style test helpers for the kmark host tests. */
#ifndef KMARK_TEST_H
#define KMARK_TEST_H

#include <stdbool.h>

extern const char *fixtures;	/* directory of the fixture files */
extern const char *kmark_bin;	/* the kmark binary under test */

/* one check = one "ok N - name" / "not ok N - name" line */
__attribute__((format(printf, 2, 3)))
bool check(bool cond, const char *fmt, ...);
__attribute__((format(printf, 3, 4)))
bool check_str(const char *got, const char *exp, const char *fmt, ...);
__attribute__((format(printf, 3, 4)))
bool check_ll(long long got, long long exp, const char *fmt, ...);
/* got contains needle */
__attribute__((format(printf, 3, 4)))
bool check_has(const char *got, const char *needle, const char *fmt, ...);

/* malloc'ed contents of fixtures/name (aborts when missing) */
char *fixture(const char *name);

void test_tparse(void);
void test_report(void);
void test_fallback(void);
void test_ctlfmt(void);
void test_e2e(void);
void test_real(void);
void test_output(void);
void test_pipe(void);
void test_bounds(void);
void test_ctlwrite(void);
void test_dat(void);
void test_recplan(void);

#endif

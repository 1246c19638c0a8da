/* test_stats: order statistics by hand, and the exact Mann–Whitney p-value
 * against an independent count — every way of giving the ranks to the two
 * groups enumerated, the share at least as extreme as the one observed. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <stdlib.h>

#include "base/stats.h"

static void test_describe(void **state)
{
	static const double five[] = { 5, 1, 4, 2, 3 }, with_nan[] = { 2, NAN, 1 };
	double ten[10];
	struct td_stats s;

	(void)state;
	td_stats_describe(five, 5, &s);
	assert_int_equal(s.n, 5);
	assert_true(s.min == 1 && s.max == 5 && s.median == 3 && s.mean == 3);
	assert_true(fabs(s.stddev - sqrt(2.5)) < 1e-12);
	assert_int_equal(s.trimmed, 1);	  /* 20 % of 5, each end */
	assert_true(s.trimmed_mean == 3); /* (2 + 3 + 4) / 3 */
	/* five values cannot give 95 %: [min, max] covers the median with 1 - 2 / 32 */
	assert_true(s.ci_low == 1 && s.ci_high == 5 && fabs(s.ci_level - (1 - 2.0 / 32)) < 1e-12);
	for (int i = 0; i < 10; i++)
		ten[i] = 10 - i;
	td_stats_describe(ten, 10, &s);
	assert_true(s.median == 5.5);
	/* [X(2), X(9)]: 1 - 2 P(Bin(10, 1/2) <= 1) = 1 - 2 * 11 / 1024; X(3) would give 0.89 */
	assert_true(s.ci_low == 2 && s.ci_high == 9 && fabs(s.ci_level - (1 - 22.0 / 1024)) < 1e-12);
	td_stats_describe(with_nan, 3, &s);
	assert_int_equal(s.n, 2);
	assert_true(s.median == 1.5);
}

/* Two-sided p of U by enumeration: every subset of m of the m + n ranks as
 * the first group; the share whose U is at least as far from m n / 2. */
static double brute_p(const double *a, int m, const double *b, int n)
{
	double all[32], u = 0;
	int N = m + n, extreme = 0, total = 0;

	for (int i = 0; i < m; i++)
		all[i] = a[i];
	for (int j = 0; j < n; j++)
		all[m + j] = b[j];
	for (int i = 0; i < m; i++)
		for (int j = 0; j < n; j++)
			u += a[i] > b[j];
	for (uint32_t mask = 0; mask < (1u << N); mask++) {
		if (__builtin_popcount(mask) != m)
			continue;
		double v = 0;
		for (int i = 0; i < N; i++)
			for (int j = 0; j < N; j++)
				v += (mask >> i & 1) && !(mask >> j & 1) && all[i] > all[j];
		total++;
		extreme += fabs(v - m * n / 2.0) >= fabs(u - m * n / 2.0) - 1e-9;
	}
	return (double)extreme / total;
}

static void test_mann_whitney_exact(void **state)
{
	static const double a[] = { 1.1, 2.7, 3.2, 8.5 }, b[] = { 4.4, 5.0, 6.3, 7.1, 9.9 };
	static const double c[] = { 3, 8, 1, 12, 9, 14, 5 }, d[] = { 2, 10, 4, 6, 13, 7, 11 };
	static const double lo[] = { 1, 2, 3, 4, 5 }, hi[] = { 6, 7, 8, 9, 10 };
	double u, p;

	(void)state;
	assert_int_equal(td_mann_whitney(a, 4, b, 5, &u, &p), 0);
	assert_true(u == 4); /* 8.5 beats 4.4, 5.0, 6.3 and 7.1 */
	assert_true(fabs(p - brute_p(a, 4, b, 5)) < 1e-12);
	assert_int_equal(td_mann_whitney(c, 7, d, 7, &u, &p), 0);
	assert_true(fabs(p - brute_p(c, 7, d, 7)) < 1e-12);
	/* complete separation of 5 and 5: 2 of the 252 arrangements are as extreme */
	assert_int_equal(td_mann_whitney(lo, 5, hi, 5, &u, &p), 0);
	assert_true(u == 0 && fabs(p - 2.0 / 252) < 1e-12);
	assert_int_equal(td_mann_whitney(hi, 5, lo, 5, &u, &p), 0);
	assert_true(u == 25 && fabs(p - 2.0 / 252) < 1e-12);
	assert_int_equal(td_mann_whitney(lo, 0, hi, 5, &u, &p), -1);
}

/* With ties the normal approximation with the tie correction: identical
 * groups are not different at all, and swapping the groups changes nothing. */
static void test_mann_whitney_ties(void **state)
{
	static const double a[] = { 1, 2, 2, 3, 3 }, b[] = { 2, 3, 3, 4, 4 };
	double u1, p1, u2, p2;

	(void)state;
	assert_int_equal(td_mann_whitney(a, 5, a, 5, &u1, &p1), 0);
	assert_true(u1 == 12.5 && p1 == 1.0);
	assert_int_equal(td_mann_whitney(a, 5, b, 5, &u1, &p1), 0);
	assert_int_equal(td_mann_whitney(b, 5, a, 5, &u2, &p2), 0);
	assert_true(u1 + u2 == 25 && fabs(p1 - p2) < 1e-12 && p1 > 0.01 && p1 < 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_describe),
		cmocka_unit_test(test_mann_whitney_exact),
		cmocka_unit_test(test_mann_whitney_ties),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

/* test_kernel_types: when a session takes this boot's kernel types file
 * (collect/kernel_types.h): its switches' extra cost over the session, at
 * the machine's rate, within what the start saves — worked by hand from the
 * measured figures the header names (10 ms saved, 100 ns a switch) — never
 * for an open-ended session or an unknown rate; the machine's rate between
 * two readings (since boot when they are too close); and a reading of
 * /proc/stat's ctxt against ours around it. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <time.h>

#include "collect/kernel_types.h"

static void test_pays(void **state)
{
	(void)state;
	/* 20 s at 1,000 switches a second: 20,000 x 100 ns = 2 ms of 10 */
	assert_true(td_kernel_types_pays(20, 1000));
	/* 20 s at 20,000: 400,000 x 100 ns = 40 ms */
	assert_false(td_kernel_types_pays(20, 20000));
	/* 10 s at 10,000: exactly the 10 ms saved (even: taken) */
	assert_true(td_kernel_types_pays(10, 10000));
	/* 10 s at 10,001: 10.001 ms */
	assert_false(td_kernel_types_pays(10, 10001));
	/* 1 s at 99,000: 9.9 ms */
	assert_true(td_kernel_types_pays(1, 99000));
	/* a quiet machine: any bounded session */
	assert_true(td_kernel_types_pays(3600, 0));
	/* open-ended, or the rate unknown: never */
	assert_false(td_kernel_types_pays(0, 1000));
	assert_false(td_kernel_types_pays(-1, 1000));
	assert_false(td_kernel_types_pays(20, -1));
}

static void test_switch_rate(void **state)
{
	struct td_switch_reading a = { 1000000, 100.0 }, b = { 1001000, 100.1 }, c = { 1000010, 100.004 };

	(void)state;
	/* 1,000 switches in 0.1 s: 10,000 a second */
	assert_true(td_switch_rate(&a, &b) > 9999.999 && td_switch_rate(&a, &b) < 10000.001);
	/* 4 ms apart, under the 5 ms window: c's mean since boot, 1,000,010 / 100.004 = 9,999.70 */
	assert_true(td_switch_rate(&a, &c) > 9999.699 && td_switch_rate(&a, &c) < 9999.701);
	/* no first reading: since boot, 1,001,000 / 100.1 = 10,000 */
	assert_true(td_switch_rate(NULL, &b) > 9999.999 && td_switch_rate(NULL, &b) < 10000.001);
	/* a count gone back (never: another boot's reading): since boot */
	struct td_switch_reading d = { 10, 100.2 };
	assert_true(td_switch_rate(&a, &d) > 0.0997 && td_switch_rate(&a, &d) < 0.0999);
}

/* td_switch_read against /proc/stat read around it: its count between ours */
static unsigned long long ctxt_now(void)
{
	unsigned long long v = 0;
	char line[256];
	FILE *f = fopen("/proc/stat", "r");

	assert_non_null(f);
	while (fgets(line, sizeof(line), f) && sscanf(line, "ctxt %llu", &v) != 1)
		;
	fclose(f);
	return v;
}

static void test_switch_read(void **state)
{
	struct td_switch_reading r;
	struct timespec t0, t1;
	unsigned long long c0, c1;

	(void)state;
	clock_gettime(CLOCK_BOOTTIME, &t0);
	c0 = ctxt_now();
	assert_int_equal(td_switch_read(&r), 0);
	c1 = ctxt_now();
	clock_gettime(CLOCK_BOOTTIME, &t1);
	assert_true(c0 > 0 && c0 <= r.ctxt && r.ctxt <= c1);
	assert_true(r.at >= (double)t0.tv_sec + t0.tv_nsec / 1e9 && r.at <= (double)t1.tv_sec + t1.tv_nsec / 1e9);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pays),
		cmocka_unit_test(test_switch_rate),
		cmocka_unit_test(test_switch_read),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

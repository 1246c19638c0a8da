/* Unit tests for interval: deltas between cumulative readings (a reset
 * counter counts from zero). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <string.h>

#include "collect/interval.h"

static void test_delta(void **state)
{
	struct td_reading a, b;
	struct td_count d[2];

	(void)state;
	memset(&a, 0, sizeof(a));
	memset(&b, 0, sizeof(b));
	a.enabled = 1000, a.running = 500, a.value[0] = 10, a.value[1] = 20;
	b.enabled = 3000, b.running = 1500, b.value[0] = 110, b.value[1] = 25;
	td_reading_delta(&a, &b, 2, d);
	assert_int_equal(d[0].value, 100);
	assert_int_equal(d[1].value, 5);
	assert_int_equal(d[0].enabled, 2000);
	assert_int_equal(d[1].running, 1000);
	td_reading_delta(NULL, &b, 2, d); /* first reading: everything since open */
	assert_int_equal(d[0].value, 110);
	assert_int_equal(d[0].enabled, 3000);
	td_reading_delta(&b, &a, 2, d); /* a reset counter counts from zero */
	assert_int_equal(d[0].value, 10);
	assert_int_equal(d[0].enabled, 1000);
}

int main(void)
{
	const struct CMUnitTest tests[] = { cmocka_unit_test(test_delta) };
	return cmocka_run_group_tests(tests, NULL, NULL);
}

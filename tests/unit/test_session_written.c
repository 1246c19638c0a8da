/* test_session_written: a row of a group of intervals committed together
 * is the reading since the group began less what the group's earlier rows
 * of that target and counter group wrote (session_written.c). Worked by
 * hand: readings growing, standing still (no second row), targets and
 * groups kept apart, a reset (the group committed or failed); and 3,000
 * entries against a plain model (the map grown, its probes). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "session/session_written.h"

static void test_rows_by_hand(void **state)
{
	struct td_written w = { 0 };
	struct td_count d[2];
	bool again;

	(void)state;
	/* the group's first interval: the row is the reading */
	struct td_count c1[2] = { { 10, 100, 100 }, { 5, 100, 50 } };
	assert_int_equal(td_written_row(&w, 7, 3, c1, 2, d, &again), 0);
	assert_false(again);
	assert_int_equal(d[0].value, 10);
	assert_int_equal(d[1].running, 50);
	/* the second: 25 - 10, 200 - 100; the second member counted nothing more */
	struct td_count c2[2] = { { 25, 200, 200 }, { 5, 200, 50 } };
	assert_int_equal(td_written_row(&w, 7, 3, c2, 2, d, &again), 0);
	assert_false(again);
	assert_int_equal(d[0].value, 15);
	assert_int_equal(d[0].enabled, 100);
	assert_int_equal(d[0].running, 100);
	assert_int_equal(d[1].value, 0);
	assert_int_equal(d[1].enabled, 100);
	assert_int_equal(d[1].running, 0);
	/* the same reading again: a row of zeros, said to be one */
	assert_int_equal(td_written_row(&w, 7, 3, c2, 2, d, &again), 0);
	assert_true(again);
	assert_int_equal(d[0].value + d[0].enabled + d[0].running + d[1].value + d[1].enabled + d[1].running, 0);
	/* another target, and another group of the same target: their own first rows */
	struct td_count c3[2] = { { 1, 2, 3 }, { 4, 5, 6 } };
	assert_int_equal(td_written_row(&w, 8, 3, c3, 2, d, &again), 0);
	assert_false(again);
	assert_int_equal(d[1].value, 4);
	assert_int_equal(td_written_row(&w, 7, 9, c3, 1, d, &again), 0);
	assert_int_equal(d[0].running, 3);
	/* the first target unchanged by them: 40 - 25 */
	struct td_count c4[2] = { { 40, 300, 300 }, { 9, 300, 80 } };
	assert_int_equal(td_written_row(&w, 7, 3, c4, 2, d, &again), 0);
	assert_int_equal(d[0].value, 15);
	assert_int_equal(d[1].value, 4);
	assert_int_equal(d[1].running, 30);
	/* committed: the next group's first row is its reading again */
	td_written_reset(&w);
	assert_int_equal(td_written_row(&w, 7, 3, c1, 2, d, &again), 0);
	assert_false(again);
	assert_int_equal(d[0].value, 10);
	td_written_free(&w);
}

#define TARGETS 1000
#define GROUPS 3

static void test_many_against_model(void **state)
{
	struct td_written w = { 0 };
	static uint64_t model[TARGETS][GROUPS]; /* what the rows of each wrote so far */
	struct td_count c, d;
	bool again;

	(void)state;
	srand(7);
	for (int round = 0; round < 5; round++)
		for (int t = 0; t < TARGETS; t++)
			for (int g = 0; g < GROUPS; g++) {
				uint64_t grow = (uint64_t)(rand() % 3); /* 0: no row */
				c = (struct td_count){ model[t][g] + grow, model[t][g] + grow, model[t][g] + grow };
				/* targets' ids as the store's rowids, events' as another table's */
				assert_int_equal(td_written_row(&w, 1 + t, 1000 + 17 * g, &c, 1, &d, &again), 0);
				if (round == 0) {
					assert_false(again);
					assert_int_equal(d.value, c.value);
				} else {
					assert_int_equal(again, grow == 0);
					assert_int_equal(d.value, grow);
					assert_int_equal(d.enabled, grow);
				}
				model[t][g] = c.value;
			}
	assert_int_equal(w.n, TARGETS * GROUPS);
	td_written_free(&w);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rows_by_hand),
		cmocka_unit_test(test_many_against_model),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

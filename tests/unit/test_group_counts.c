/* test_group_counts: scaled counts per perf group and alias — scaling by
 * enabled/running, "not counted" versus "never enabled", rows of one alias
 * averaged, sums with not-counted sticky and the least coverage, one
 * target's sums over time extrapolated over multiplexed-out intervals, dense group
 * numbers, and the evaluation reading each formula from one group. */
#ifdef NDEBUG
#error "the tests check invariants with assert(): build them without NDEBUG"
#endif
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include "model/catalog.h"
#include "eval/evaluator.h"
#include "eval/group_counts.h"
#include "model/model.h"

static void test_scale(void **state)
{
	(void)state;
	assert_true(td_scale(100, 1000, 1000) == 100.0);
	assert_true(td_scale(100, 1000, 250) == 400.0);
	assert_true(td_scale(100, 1000, 2000) == 100.0); /* running > enabled: raw */
	assert_true(isnan(td_scale(0, 1000, 0)));	 /* enabled, never scheduled: not counted, not 0 */
	assert_true(td_scale(0, 0, 0) == 0.0);		 /* never enabled (a thread that did not run): 0 */
	assert_true(td_coverage(1000, 250) == 0.25);
	assert_true(td_coverage(1000, 1000) == 1.0);
	assert_true(isnan(td_coverage(0, 0)));
}

static void test_rows(void **state)
{
	struct td_group_counts c;

	(void)state;
	assert_int_equal(td_group_counts_init(&c, 3, 2), 0);
	for (int i = 0; i < 6; i++)
		assert_true(isnan(c.val[i]) && isnan(c.cov[i]));
	td_group_counts_add_row(&c, 0, 0, 100, 1000, 250); /* counted a quarter of the time: 400 */
	td_group_counts_add_row(&c, 0, 1, 0, 1000, 0);	   /* enabled, never running: not counted */
	td_group_counts_add_row(&c, 0, 2, 0, 0, 0);	   /* never enabled (did not run): 0 */
	td_group_counts_add_row(&c, 1, 0, 30, 100, 100);   /* group 1 */
	td_group_counts_add_row(&c, 1, 0, 50, 100, 50);	   /* the same alias again: mean of 30 and 100 */
	assert_true(c.val[0] == 400 && c.cov[0] == 0.25);
	assert_true(isnan(c.val[1]) && isnan(c.cov[1]));
	assert_true(c.val[2] == 0 && isnan(c.cov[2]));
	assert_true(c.val[3] == 65 && c.cov[3] == 0.5); /* least coverage of the two rows */
	assert_true(isnan(c.val[4]) && isnan(c.val[5]));
	td_group_counts_clear(&c);
	assert_true(isnan(c.val[0]) && c.rows[3] == 0);
	td_group_counts_free(&c);
}

static void test_sums(void **state)
{
	struct td_group_counts sum, a, b;

	(void)state;
	assert_int_equal(td_group_counts_init(&sum, 2, 1), 0);
	assert_int_equal(td_group_counts_init(&a, 2, 1), 0);
	assert_int_equal(td_group_counts_init(&b, 2, 1), 0);
	td_group_counts_zero(&sum);
	td_group_counts_add_row(&a, 0, 0, 10, 10, 10);
	td_group_counts_add_row(&a, 0, 1, 5, 10, 5);
	td_group_counts_add_row(&b, 0, 0, 20, 10, 8); /* 25 */
	td_group_counts_add(&sum, &a);
	td_group_counts_add(&sum, &b); /* b never counted alias 1 */
	assert_true(sum.val[0] == 35 && sum.cov[0] == 0.8);
	assert_true(isnan(sum.val[1])); /* no honest total */
	assert_true(sum.cov[1] == 0.5);
	td_group_counts_free(&sum);
	td_group_counts_free(&a);
	td_group_counts_free(&b);
}

/* One target's intervals summed over time (add_time): an interval in which an
 * alias's group never ran (enabled, running 0: multiplexed out) is a gap the
 * counted intervals are extrapolated over, as scaling does inside an
 * interval; an interval with no row of it counted nothing (a session writes
 * no row of a group that did not move: session_written.c, the BPF mode's
 * quiet threads). Alias 0 counts at 30 per 1000 ns of running time: over
 * intervals of 1000 ns (not run), 3000 ns (run 1000 ns: 30, scaled 90) and
 * 2000 ns (run 2000: 60), 6000 ns enabled, so 180 = 150 * 6000 / 5000; alias
 * 2, 7 in the first interval and no row after, totals 7; alias 1 has no
 * value (enabled, never running); an alias with no row in any interval has
 * none either. td_group_counts_any tells a part with rows from one with
 * none. */
static void test_time_sums(void **state)
{
	struct td_group_counts sum, iv;

	(void)state;
	assert_int_equal(td_group_counts_init(&sum, 5, 1), 0);
	assert_int_equal(td_group_counts_init(&iv, 5, 1), 0);
	td_group_counts_zero(&sum);
	assert_false(td_group_counts_any(&iv)); /* cleared: no row */
	td_group_counts_add_row(&iv, 0, 0, 0, 1000, 0);
	td_group_counts_add_row(&iv, 0, 1, 0, 1000, 0);
	td_group_counts_add_row(&iv, 0, 2, 7, 1000, 1000);
	td_group_counts_add_row(&iv, 0, 3, 0, 0, 0);
	assert_true(td_group_counts_any(&iv));
	td_group_counts_add_time(&sum, &iv);
	td_group_counts_clear(&iv);
	td_group_counts_add_row(&iv, 0, 0, 30, 3000, 1000);
	td_group_counts_add_row(&iv, 0, 1, 0, 3000, 0);
	td_group_counts_add_row(&iv, 0, 3, 4, 3000, 3000);
	td_group_counts_add_time(&sum, &iv);
	td_group_counts_clear(&iv);
	td_group_counts_add_row(&iv, 0, 0, 60, 2000, 2000);
	td_group_counts_add_row(&iv, 0, 3, 2, 2000, 2000);
	td_group_counts_add_time(&sum, &iv);
	td_group_counts_clear(&iv);
	td_group_counts_add_time(&sum, &iv); /* an interval with no row at all */
	td_group_counts_extrapolate(&sum);
	assert_true(fabs(sum.val[0] - 180) < 1e-9);
	assert_true(fabs(sum.cov[0] - 1.0 / 3) < 1e-12); /* the least: 1/3 (3000 ns), below 5000 / 6000 */
	assert_true(isnan(sum.val[1]));
	assert_true(sum.val[2] == 7); /* 7 and two intervals that moved nothing of it */
	assert_true(sum.val[3] == 6);
	assert_true(isnan(sum.val[4])); /* no row in any interval: not counted, never 0 */
	td_group_counts_free(&sum);
	td_group_counts_free(&iv);
}

static void test_dense(void **state)
{
	int g[] = { 7, 3, 7, 12, 3, 0 }, none[1] = { 0 };

	(void)state;
	assert_int_equal(td_group_numbers_dense(g, 6), 4);
	assert_int_equal(g[0], 2);
	assert_int_equal(g[1], 1);
	assert_int_equal(g[2], 2);
	assert_int_equal(g[3], 3);
	assert_int_equal(g[4], 1);
	assert_int_equal(g[5], 0);
	assert_int_equal(td_group_numbers_dense(none, 0), 1); /* no event: one (empty) group */
}

/* X = A / B read from the group that counted both longest: group 1's 30 / 10. */
/* The evaluator (eval/evaluator.h) over group counts: each formula from
 * one group's window, and the session facts every caller gets the same way:
 * SMT_on when known (else the file's default), NUM_CPUS, DURATION (<= 0: NA). */
static void test_eval(void **state)
{
	char dir[] = "/tmp/td-gc-XXXXXX", path[64];
	struct td_catalog *cat;
	struct td_model *m;
	struct td_evaluator *ev;
	struct td_evaluation out;
	struct td_group_counts c;
	td_err err;
	FILE *f;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/t.td", dir);
	assert_non_null(f = fopen(path, "w"));
	fputs("pmu x\nparam SMT_on 0\nevent A a\nevent B b\ninfo X Metric = A / B\n"
	      "info Rate Metric = A / DURATION\ninfo Cpus Metric = NUM_CPUS\ninfo Smt Metric = SMT_on + 1\n",
	      f);
	assert_int_equal(fclose(f), 0);
	assert_int_equal(td_catalog_load(path, &cat, &err), 0);
	assert_int_equal(td_model_compile(cat, &m, &err), 0);
	assert_int_equal(td_group_counts_init(&c, 2, 2), 0);
	td_group_counts_add_row(&c, 0, 0, 10, 100, 20); /* group 0: A 50, B 10 at 20 % */
	td_group_counts_add_row(&c, 0, 1, 2, 100, 20);
	td_group_counts_add_row(&c, 1, 0, 15, 100, 50); /* group 1: A 30, B 10 at 50 % */
	td_group_counts_add_row(&c, 1, 1, 5, 100, 50);

	assert_non_null(ev = td_evaluator_new(m, 1, 8));
	assert_int_equal(td_evaluation_init(&out, m), 0);
	assert_int_equal(td_evaluate(ev, &c, 2.0, &out), 0);
	assert_float_equal(out.info[0], 3.0, 1e-15); /* group 1's window: 30 / 10 */
	assert_float_equal(out.info_conf[0], 0.5, 1e-15);
	assert_false(out.info_spans[0]);
	assert_float_equal(out.info[1], 15.0, 1e-15); /* A of the longest window (30) over 2 s */
	assert_float_equal(out.info[2], 8.0, 0);
	assert_float_equal(out.info[3], 2.0, 0); /* SMT on overrides the default 0 */
	assert_int_equal(td_evaluate(ev, &c, 0, &out), 0);
	assert_true(isnan(out.info[1])); /* no wall time: no rate, never a division by 0 */
	td_evaluator_free(ev);

	assert_non_null(ev = td_evaluator_new(m, -1, 0)); /* facts unknown */
	assert_int_equal(td_evaluate(ev, &c, 1.0, &out), 0);
	assert_true(isnan(out.info[2]));
	assert_float_equal(out.info[3], 1.0, 0); /* the file's default */
	td_evaluator_free(ev);

	td_evaluation_free(&out);
	td_group_counts_free(&c);
	td_model_free(m);
	td_catalog_free(cat);
	unlink(path);
	rmdir(dir);
}

/* Invariants are asserted, in the library the tests link (NDEBUG is never
 * defined for them): a count for a group the counts do not have aborts
 * instead of vanishing. Run in a child, which must die of SIGABRT. */
static void test_asserts_on(void **state)
{
	struct td_group_counts c;
	int status;
	pid_t pid;

	(void)state;
	assert_int_equal(td_group_counts_init(&c, 2, 1), 0);
	fflush(NULL);
	if ((pid = fork()) == 0) {
		fclose(stderr); /* the assertion's message is expected */
		td_group_counts_add_row(&c, 1, 0, 1, 1, 1);
		_exit(0);
	}
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFSIGNALED(status) && WTERMSIG(status) == SIGABRT);
	td_group_counts_free(&c);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_scale),	  cmocka_unit_test(test_rows), cmocka_unit_test(test_sums),
		cmocka_unit_test(test_time_sums),

		cmocka_unit_test(test_dense),	  cmocka_unit_test(test_eval), cmocka_unit_test(test_asserts_on),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

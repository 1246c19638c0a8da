/* test_switch_cost: how the switch cost's measure (collect/switch_cost)
 * uses the caller's idle figures, never its timing: the run time a run over
 * each phase alone, from cumulative figures a fake idle hands out (phase r
 * is given a mean of 100 x the square of a permutation of 1..rounds, so
 * that the median is known without the code under test, and differs from
 * the mean), is out->idle; an idle that cannot
 * start is never read nor stopped, and leaves out->idle 0; phases whose
 * runs did not move give nothing. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "collect/switch_cost.h"

struct fake {
	int starts, reads, stops;
	bool start_fails, runs_still;
	int rounds; /* the measure's (out->rounds), known once it returns: 7 given here, checked after */
	uint64_t ns, runs;
};

static int attach(void *ctx, const pid_t pids[2], void **probe, td_err *err)
{
	(void)ctx, (void)pids, (void)err;
	*probe = NULL;
	return 0;
}

static void detach(void *ctx, void *probe)
{
	(void)ctx, (void)probe;
}

/* Reads come in pairs around a phase alone: the second of pair r adds
 * 10 runs of 100 x k^2 ns each, k = (3 r) mod rounds + 1. */
static int idle(void *ctx, enum td_switch_idle what, uint64_t *ns, uint64_t *runs)
{
	struct fake *f = ctx;

	if (what == TD_SWITCH_IDLE_START) {
		f->starts++;
		return f->start_fails ? -1 : 0;
	}
	if (what == TD_SWITCH_IDLE_STOP) {
		f->stops++;
		return 0;
	}
	if (f->reads % 2 == 1 && !f->runs_still) {
		uint64_t k = (uint64_t)((3 * (f->reads / 2)) % f->rounds + 1);
		f->runs += 10;
		f->ns += 10u * 100u * k * k;
	}
	f->reads++;
	*ns = f->ns;
	*runs = f->runs;
	return 0;
}

/* The measure ran every round (a busy host may end it early: then skipped). */
static bool whole(const struct td_switch_cost *sc)
{
	return !strstr(sc->why, "did not answer") && !strstr(sc->why, "too busy") && !strstr(sc->why, "could not");
}

static void test_idle_median(void **state)
{
	struct fake f = { .rounds = 7 };
	struct td_switch_cost sc;

	(void)state;
	assert_int_equal(td_switch_cost_measure(attach, detach, idle, &f, &sc), 0);
	if (!whole(&sc))
		skip();
	assert_int_equal(sc.rounds, f.rounds); /* the permutation assumed 7 */
	assert_int_equal(f.starts, 1);
	assert_int_equal(f.stops, 1);
	assert_int_equal(f.reads, 2 * sc.rounds);
	/* k = 1, 4, 7, 3, 6, 2, 5: 100 x {1, 16, 49, 9, 36, 4, 25}, the median 1600 (the mean 2000) */
	assert_true(sc.idle == 1600.0);
	assert_false(sc.idle_unknown);
}

static void test_idle_cannot_start(void **state)
{
	struct fake f = { .rounds = 7, .start_fails = true };
	struct td_switch_cost sc;

	(void)state;
	assert_int_equal(td_switch_cost_measure(attach, detach, idle, &f, &sc), 0);
	assert_int_equal(f.starts, 1);
	assert_int_equal(f.reads, 0);
	assert_int_equal(f.stops, 0);
	assert_true(sc.idle == 0.0);
	assert_true(sc.idle_unknown);
}

static void test_idle_runs_still(void **state)
{
	struct fake f = { .rounds = 7, .runs_still = true };
	struct td_switch_cost sc;

	(void)state;
	assert_int_equal(td_switch_cost_measure(attach, detach, idle, &f, &sc), 0);
	if (!whole(&sc))
		skip();
	assert_int_equal(f.stops, 1);
	assert_true(sc.idle == 0.0);
	assert_true(sc.idle_unknown);
}

static void test_no_idle(void **state)
{
	struct td_switch_cost sc;

	(void)state;
	assert_int_equal(td_switch_cost_measure(attach, detach, NULL, NULL, &sc), 0);
	assert_true(sc.idle == 0.0);
	assert_false(sc.idle_unknown);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_idle_median),
		cmocka_unit_test(test_idle_cannot_start),
		cmocka_unit_test(test_idle_runs_still),
		cmocka_unit_test(test_no_idle),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

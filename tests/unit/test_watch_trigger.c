/* test_watch_trigger: watch mode's decision (src/topdownd/watch_trigger.c)
 * over histories written here: a level-1 node that steps down is a change
 * with the medians and the exact p-value worked out by hand; a steady or a
 * small step is none, and so is a burst that lasts one window only; "not counted" (NaN) is left out; the limits per
 * workload and per hour hold a change back; a move while the workload's CPU
 * time turned into wait for a CPU (its neighbours') is held back, as is one
 * while its CPU time fell and it kept waiting (starved), one while it asked
 * for more CPU (a phase change) is not. A node over its threshold for `hold`
 * intervals after one under it is a change, not for fewer, nor when it was
 * over all along. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "topdownd/watch_trigger.h"

#define S 1000000000ull

static const struct td_watch_params P = {
	.baseline = 10, .window = 5, .p_value = 0.01, .min_shift = 5, .workload_every_ns = 600 * S, .per_hour = 2
};

/* Baseline value k of node 0: 0.80 .. 0.89, distinct (no ties: the exact test). */
static double base0(int k)
{
	return 0.80 + 0.01 * (k % 10);
}

/* Feed node 0 = f(k), node 1 = 0.5 steady-ish, for intervals from..to-1 (one a second). */
static enum td_watch_verdict feed(struct td_watch_series *s, struct td_watch_limits *l, int from, int to,
				  double (*f)(int), struct td_watch_trigger *t, int *at)
{
	enum td_watch_verdict v = TD_WATCH_NONE;

	for (int k = from; k < to && v == TD_WATCH_NONE; k++) {
		double x[2] = { f(k), 0.5 + 0.001 * (k % 7) };
		v = td_watch_add(s, l, &P, x, (uint64_t)k * S + S, t);
		*at = k;
	}
	return v;
}

/* after the step at interval 10: 0.30 .. 0.34 */
static double step(int k)
{
	return k < 10 ? base0(k) : 0.30 + 0.01 * (k % 5);
}

static void test_step_is_a_change(void **state)
{
	struct td_watch_series s;
	struct td_watch_limits l;
	struct td_watch_trigger t;
	int at = -1;

	(void)state;
	assert_int_equal(td_watch_series_init(&s, &P, 2), 0);
	assert_int_equal(td_watch_limits_init(&l, &P), 0);
	/* found when both windows (5 each) hold only values after the step: interval 19 */
	assert_int_equal(feed(&s, &l, 0, 40, step, &t, &at), TD_WATCH_CHANGE);
	assert_int_equal(at, 19);
	assert_int_equal(t.node, 0);
	/* medians by hand: 0.80..0.89 -> (0.84 + 0.85) / 2; 0.30..0.34 -> 0.32 */
	assert_true(fabs(t.before - 0.845) < 1e-12);
	assert_true(fabs(t.after - 0.32) < 1e-12);
	/* every value of both windows below every baseline value: U = 0, exact two-sided p = 2 / C(15, 5) */
	assert_true(fabs(t.p - 2.0 / 3003.0) < 1e-12);
	assert_int_equal(t.n_before, 10);
	assert_int_equal(t.n_after, 5);
	td_watch_series_free(&s);
	td_watch_limits_free(&l);
}

static double steady(int k)
{
	return base0(k * 7);
}

/* 1 point down: significant, but under min_shift */
static double small(int k)
{
	return k < 10 ? 0.80 + 0.001 * k : 0.78 + 0.001 * (k % 5);
}

static void test_no_change(void **state)
{
	struct td_watch_series s;
	struct td_watch_limits l;
	struct td_watch_trigger t;
	int at;

	(void)state;
	assert_int_equal(td_watch_series_init(&s, &P, 2), 0);
	assert_int_equal(td_watch_limits_init(&l, &P), 0);
	assert_int_equal(feed(&s, &l, 0, 200, steady, &t, &at), TD_WATCH_NONE);
	td_watch_series_free(&s);
	assert_int_equal(td_watch_series_init(&s, &P, 2), 0);
	assert_int_equal(feed(&s, &l, 0, 20, small, &t, &at), TD_WATCH_NONE);
	td_watch_series_free(&s);
	td_watch_limits_free(&l);
}

/* down for one window (intervals 10..14), then back */
static double burst(int k)
{
	return k >= 10 && k < 15 ? 0.30 + 0.01 * (k % 5) : base0(k);
}

/* a burst as long as one window: the first window moved, the next did not */
static void test_burst_is_none(void **state)
{
	struct td_watch_series s;
	struct td_watch_limits l;
	struct td_watch_trigger t;
	int at;

	(void)state;
	assert_int_equal(td_watch_series_init(&s, &P, 2), 0);
	assert_int_equal(td_watch_limits_init(&l, &P), 0);
	assert_int_equal(feed(&s, &l, 0, 19, burst, &t, &at), TD_WATCH_NONE);
	/* interval 19: the baseline 0..9, the windows 10..14 (all below it) and 15..19 (0.85..0.89: back) */
	assert_int_equal(feed(&s, &l, 19, 20, burst, &t, &at), TD_WATCH_NONE);
	td_watch_series_free(&s);
	td_watch_limits_free(&l);
}

static double not_counted_after(int k)
{
	return k < 10 ? base0(k) : (k < 13 ? NAN : 0.30 + 0.01 * (k % 5));
}

/* NaN is left out: a window with 2 counted values is not tested */
static void test_not_counted(void **state)
{
	struct td_watch_series s;
	struct td_watch_limits l;
	struct td_watch_trigger t;
	int at;

	(void)state;
	assert_int_equal(td_watch_series_init(&s, &P, 2), 0);
	assert_int_equal(td_watch_limits_init(&l, &P), 0);
	/* interval 19: the first window 10..14 has 2 values counted: not tested */
	assert_int_equal(feed(&s, &l, 0, 20, not_counted_after, &t, &at), TD_WATCH_NONE);
	/* interval 20: the baseline 1..10 (9 counted), the first window 11..15 (0.33, 0.34, 0.30
	 * counted): all below, exact p = 2 / C(12, 3); the latest 16..20 (5 counted, median 0.32): all
	 * below, p = 2 / C(14, 5); the change's p is the larger */
	assert_int_equal(feed(&s, &l, 20, 21, not_counted_after, &t, &at), TD_WATCH_CHANGE);
	assert_int_equal(t.n_before, 9);
	assert_int_equal(t.n_after, 5);
	assert_true(fabs(t.after - 0.32) < 1e-12);
	assert_true(fabs(t.p - 2.0 / 220.0) < 1e-12);
	td_watch_series_free(&s);
	td_watch_limits_free(&l);
}

static double up_down(int k)
{
	/* down at 10, up again at 40 */
	return k < 10 || k >= 40 ? base0(k) : 0.30 + 0.01 * (k % 5);
}

static void test_limits(void **state)
{
	struct td_watch_series s, s2, s3;
	struct td_watch_limits l;
	struct td_watch_trigger t;
	int at;

	(void)state;
	assert_int_equal(td_watch_series_init(&s, &P, 2), 0);
	assert_int_equal(td_watch_limits_init(&l, &P), 0);
	assert_int_equal(feed(&s, &l, 0, 40, up_down, &t, &at), TD_WATCH_CHANGE);
	assert_int_equal(at, 19);
	/* a new ring from 20; at interval 48 the baseline 29..38, the first window 39..43 (0.34, then four
	 * above the step: U = 49 of 50, 0.34 tied twice; the normal approximation's z = 23.5 / 8.16,
	 * p ~ 0.004) and the latest 44..48 all above: 29 s after the first, within workload_every */
	assert_int_equal(feed(&s, &l, 20, 80, up_down, &t, &at), TD_WATCH_HELD_ONE);
	assert_int_equal(at, 48);
	/* a second workload: the second change of the hour (per_hour 2) is kept, a third one held */
	assert_int_equal(td_watch_series_init(&s2, &P, 2), 0);
	assert_int_equal(feed(&s2, &l, 0, 40, step, &t, &at), TD_WATCH_CHANGE);
	assert_int_equal(td_watch_series_init(&s3, &P, 2), 0);
	assert_int_equal(feed(&s3, &l, 0, 40, step, &t, &at), TD_WATCH_HELD_ALL);
	/* an hour after the first two, the third workload's next change is kept */
	for (int k = 0; k < 20; k++) {
		double x[2] = { step(k), 0.5 };
		enum td_watch_verdict v = td_watch_add(&s3, &l, &P, x, 3700 * S + (uint64_t)k * S, &t);
		assert_int_equal(v, k == 19 ? TD_WATCH_CHANGE : TD_WATCH_NONE);
	}
	td_watch_series_free(&s);
	td_watch_series_free(&s2);
	td_watch_series_free(&s3);
	td_watch_limits_free(&l);
}

/* The step of node 0 with the workload's CPU over each interval (run, wait: f's shares), one a second. */
static enum td_watch_verdict feed_cpu(struct td_watch_series *s, struct td_watch_limits *l,
				      const struct td_watch_params *pr, int to, double (*run)(int), double (*wait)(int),
				      struct td_watch_trigger *t, int *at)
{
	enum td_watch_verdict v = TD_WATCH_NONE;

	for (int k = 0; k < to && v == TD_WATCH_NONE; k++) {
		double x[2] = { step(k), 0.5 + 0.001 * (k % 7) };
		struct td_watch_cpu c = { run(k), wait(k) };
		v = td_watch_add_cpu(s, l, pr, x, &c, (uint64_t)k * S + S, t);
		*at = k;
	}
	return v;
}

/* One case of the hold-back: a group's series fed from the start to the
 * step's end (feed_cpu); its verdict, found at 19 (the step at 10, two
 * windows of 5 past it). */
static enum td_watch_verdict verdict_at_19(const struct td_watch_params *pr, struct td_watch_limits *l,
					   double (*run)(int), double (*wait)(int), struct td_watch_trigger *t)
{
	struct td_watch_series s;
	enum td_watch_verdict v;
	int at = -1;

	assert_int_equal(td_watch_series_init(&s, pr, 2), 0);
	v = feed_cpu(&s, l, pr, 40, run, wait, t, &at);
	assert_int_equal(at, 19);
	td_watch_series_free(&s);
	return v;
}

/* a compute workload whose neighbours came at 10: CPU time 0.900..0.909 -> 0.500..0.504, wait 0.100..0.109 ->
 * 0.500..0.504 */
static double run_taken(int k)
{
	return k < 10 ? 0.900 + 0.001 * (k % 10) : 0.500 + 0.001 * (k % 5);
}

static double wait_taken(int k)
{
	return k < 10 ? 0.100 + 0.001 * (k % 10) : 0.500 + 0.001 * (k % 5);
}

/* a sleeping loop turned compute loop at 10 on a saturated host: CPU time 0.010..0.019 -> 0.610..0.614; wait
 * 0.400..0.409 -> 0.350..0.354 (it went down a little, significantly) or 0.050..0.059 -> 0.330..0.334 (up) */
static double run_phase(int k)
{
	return k < 10 ? 0.010 + 0.001 * (k % 10) : 0.610 + 0.001 * (k % 5);
}

static double wait_down(int k)
{
	return k < 10 ? 0.400 + 0.001 * (k % 10) : 0.350 + 0.001 * (k % 5);
}

static double wait_up(int k)
{
	return k < 10 ? 0.050 + 0.001 * (k % 10) : 0.330 + 0.001 * (k % 5);
}

static double wait_little(int k)
{
	return k < 10 ? 0.100 + 0.001 * (k % 10) : 0.150 + 0.001 * (k % 5);
}

static double wait_lags(int k)
{
	return k < 10 ? 0.100 + 0.001 * (k % 10) : (k < 15 ? 0.105 + 0.001 * (k % 5) : 0.500 + 0.001 * (k % 5));
}

static double run_freed(int k)
{
	return k < 10 ? 0.500 + 0.001 * (k % 10) : 1.200 + 0.001 * (k % 5);
}

static double wait_pinned(int k)
{
	return k < 15 ? 1.0 : 0.500 + 0.001 * (k % 5);
}

static double wait_saturated(int k)
{
	return 0.950 + 0.001 * (k % 10);
}

static double run_same(int k)
{
	return 0.500 + 0.001 * (k % 10);
}

static double run_hair(int k)
{
	return k < 10 ? 0.500 + 0.001 * (k % 10) : 0.503 + 0.001 * (k % 5);
}

/* the CPU time up a little as the wait rose (wait_taken): 0.900..0.909 -> 0.910..0.914 (medians 0.9045 -> 0.912,
 * every window value above the baseline's), or up more: 1.020..1.024 (1.022) */
static double run_drift(int k)
{
	return k < 10 ? 0.900 + 0.001 * (k % 10) : 0.910 + 0.001 * (k % 5);
}

static double run_more(int k)
{
	return k < 10 ? 0.900 + 0.001 * (k % 10) : 1.020 + 0.001 * (k % 5);
}

static double wait_late(int k)
{
	return k < 15 ? 0.100 + 0.001 * (k % 10) : 0.500 + 0.001 * (k % 5);
}

/* the wait up in the first window (0.500..0.504, every value above the baseline's 0.100..0.109: p = 2 /
 * C(15, 5)) and back in part in the latest (0.1005, 0.1025, 0.505, 0.506, 0.507: U = 1 + 3 + 30 = 34 of
 * 50, p = 0.31 by the exact distribution), both windows together U = 84 of 100, p = 0.0089 (the exact
 * distribution of U for 10 and 10, bench_watch_steady.sh's neighbours
 * leaving within the latest window) */
static double wait_back(int k)
{
	static const double w[10] = { 0.500, 0.501, 0.502, 0.503, 0.504, 0.1005, 0.1025, 0.505, 0.506, 0.507 };

	return k < 10 ? 0.100 + 0.001 * k : w[(k - 10) % 10];
}

/* the wait up a little less plainly in each window: 0.1005, 0.500..0.503 (U = 41 of 50, p = 0.055), then
 * 0.1015, 0.505..0.508 (U = 42, p = 0.040); together U = 83 of 100, p = 0.0115 (exact): between p_value
 * (0.01) and CPU_P (0.05), as the wait capped at 1.0 was in bench_watch_steady.sh (p = 0.013 to 0.061) */
static double wait_weak(int k)
{
	static const double w[10] = { 0.1005, 0.500, 0.501, 0.502, 0.503, 0.1015, 0.505, 0.506, 0.507, 0.508 };

	return k < 10 ? 0.100 + 0.001 * k : w[(k - 10) % 10];
}

/* the CPU time up a hair in the first window (0.510..0.514 against 0.500..0.509: p = 2 / C(15, 5)), as it
 * was in the latest (0.505..0.509) */
static double run_nudge(int k)
{
	return k < 10 ? 0.500 + 0.001 * (k % 10) : k < 15 ? 0.510 + 0.001 * (k % 5) : 0.505 + 0.001 * (k % 5);
}

/* the wait down significantly in the first window (0.050..0.054 against 0.100..0.109), up in the latest */
static double wait_dip(int k)
{
	return k < 10 ? 0.100 + 0.001 * (k % 10) : k < 15 ? 0.050 + 0.001 * (k % 5) : 0.500 + 0.001 * (k % 5);
}

/* a compute workload its neighbours starve from 10: CPU time 0.500..0.509 -> 0.120..0.124; some task of it
 * waiting 0.850..0.859 of the time before and 0.851..0.859 (odd thousandths) after, or a workload asking for
 * less: waiting 0.300..0.309, then 0.301..0.309; or one asking for more: 0.850..0.859, then 0.960..0.964 */
static double run_starved(int k)
{
	return k < 10 ? 0.500 + 0.001 * (k % 10) : 0.120 + 0.001 * (k % 5);
}

static double wait_high(int k)
{
	return k < 10 ? 0.850 + 0.001 * (k % 10) : 0.851 + 0.002 * (k % 5);
}

static double wait_more(int k)
{
	return k < 10 ? 0.850 + 0.001 * (k % 10) : 0.960 + 0.001 * (k % 5);
}

/* starved deeper for a window (0.100..0.109 -> 0.010..0.014 at 10), then given CPU (0.500..0.504 at 15) */
static double run_straddle(int k)
{
	return k < 10 ? 0.100 + 0.001 * (k % 10) : k < 15 ? 0.010 + 0.001 * (k % 5) : 0.500 + 0.001 * (k % 5);
}

/* the wait up in two steps: 0.100..0.109, 0.500..0.504 at 10, 0.800..0.804 at 15 */
static double wait_steps(int k)
{
	return k < 10 ? 0.100 + 0.001 * (k % 10) : k < 15 ? 0.500 + 0.001 * (k % 5) : 0.800 + 0.001 * (k % 5);
}

static double wait_low(int k)
{
	return k < 10 ? 0.300 + 0.001 * (k % 10) : 0.301 + 0.002 * (k % 5);
}

static void test_neighbours_held(void **state)
{
	struct td_watch_params p2 = P, p5 = P;
	struct td_watch_limits l;
	struct td_watch_trigger t;

	(void)state;
	p2.ncpus = 2;
	p5.ncpus = 5;
	p2.per_hour = p5.per_hour = 10;
	assert_int_equal(td_watch_limits_init(&l, &p2), 0);
	/* at 19 node 0 moved (test_step_is_a_change); the wait's medians 0.1045 -> 0.502 (+0.3975), every
	 * value of both windows above the baseline's (p = 2 / C(15, 5) < 0.01); the CPU time's 0.9045 ->
	 * 0.502 (-0.4025): the other way, and 0.4025 <= 2 x 2 x 0.3975: the neighbours' */
	assert_int_equal(verdict_at_19(&p2, &l, run_taken, wait_taken, &t), TD_WATCH_HELD_CPU);
	assert_int_equal(t.node, 0);
	assert_string_equal(t.why, "its CPU time and wait traded places");
	assert_true(fabs(t.after - 0.32) < 1e-12);
	/* the medians said with it: the baseline's (0.900..0.909, 0.100..0.109) and the latest window's (15..19) */
	assert_true(fabs(t.run[1].before - 0.9045) < 1e-12 && fabs(t.run[1].after - 0.502) < 1e-12);
	assert_true(fabs(t.wait[1].before - 0.1045) < 1e-12 && fabs(t.wait[1].after - 0.502) < 1e-12);
	/* the wait up by 0.0475 only (0.1045 -> 0.152, every window value above the baseline's): 0.4025 of CPU
	 * time is more than 2 x 2 x 0.0475 = 0.19 on 2 CPUs (the workload's), within 2 x 5 x 0.0475 = 0.475
	 * on 5 (the neighbours') */
	assert_int_equal(verdict_at_19(&p2, &l, run_taken, wait_little, &t), TD_WATCH_CHANGE);
	assert_int_equal(verdict_at_19(&p5, &l, run_taken, wait_little, &t), TD_WATCH_HELD_CPU);
	/* the wait's first window (10..14) 0.105..0.109 against the baseline's 0.100..0.109: the median up
	 * (0.107 against 0.1045) but not significantly (U = 37.5 of 50: z = 12.5 / 8.16, p ~ 0.13); the
	 * latest all above: the wait may lag the node by an interval or two, the latest is enough */
	assert_int_equal(verdict_at_19(&p2, &l, run_taken, wait_lags, &t), TD_WATCH_HELD_CPU);
	/* the wait at 1.0 (all of the time) through the baseline and the first window, the CPU time up from
	 * 10 (0.5045 -> 1.202), then the wait down in the latest (0.502; p = 2 / C(15, 5)): 0.6975 of CPU
	 * time within 2 x 2 x 0.498; the first window's wait did not move (all tied), not the other way */
	assert_int_equal(verdict_at_19(&p2, &l, run_freed, wait_pinned, &t), TD_WATCH_HELD_CPU);
	/* the CPU time as it was, up by a hair (0.500..0.509 -> 0.503..0.507: medians 0.5045 -> 0.505, U = 27.5
	 * of 50, p ~ 0.8), the wait up as in the first case: "not at all", held back */
	assert_int_equal(verdict_at_19(&p2, &l, run_hair, wait_taken, &t), TD_WATCH_HELD_CPU);
	/* the wait at 0.95 (saturated) or more all along (0.950..0.959), the CPU time up from 10 (0.5045 ->
	 * 1.202, p = 2 / C(15, 5)): what the neighbours left it, held back; the same with the CPU time as it
	 * was (0.500..0.509 all along: U = 12.5 or 37.5 of 50, p ~ 0.13): the workload's */
	assert_int_equal(verdict_at_19(&p2, &l, run_freed, wait_saturated, &t), TD_WATCH_HELD_CPU);
	assert_string_equal(t.why, "saturated, its CPU time moved");
	assert_int_equal(verdict_at_19(&p2, &l, run_same, wait_saturated, &t), TD_WATCH_CHANGE);
	/* the CPU time up with the wait, significantly (p = 2 / C(15, 5) in each window), but by 0.0075 against the
	 * wait's 0.3975: below 0.3975 / (2 x 2) = 0.0994, a drift, not the workload asking for more: held back;
	 * up by 0.1175 (above 0.0994): the workload's, a change */
	assert_int_equal(verdict_at_19(&p2, &l, run_drift, wait_taken, &t), TD_WATCH_HELD_CPU);
	assert_int_equal(verdict_at_19(&p2, &l, run_more, wait_taken, &t), TD_WATCH_CHANGE);
	assert_string_equal(t.why, "the CPU time moved with the wait");
	/* ... but not when the first window's median went the other way (0.100..0.104: 0.102 below 0.1045),
	 * down as the CPU time: both down is the workload asking for less */
	assert_int_equal(verdict_at_19(&p2, &l, run_taken, wait_late, &t), TD_WATCH_CHANGE);
	assert_string_equal(t.why, "the first window's wait went the other way");
	/* its medians said: the first window's wait 0.100..0.104 (0.102), the latest's as wait_taken's */
	assert_true(fabs(t.wait[0].before - 0.1045) < 1e-12 && fabs(t.wait[0].after - 0.102) < 1e-12);
	/* ... while with the CPU time as it was (run_same: p ~ 0.13 in each window) the first window's wait a
	 * little down (0.102 against 0.1045: U = 12.5 of 50, p ~ 0.13) is noise, the neighbours' arrival
	 * straddled by it (bench_watch_steady.sh: CPU time 0.98 -> 0.98, wait 0.52 -> 0.52 -> 1.00): held back;
	 * but not when the first window's wait fell significantly (0.1045 -> 0.052, p = 2 / C(15, 5)) */
	assert_int_equal(verdict_at_19(&p2, &l, run_same, wait_late, &t), TD_WATCH_HELD_CPU);
	assert_int_equal(verdict_at_19(&p2, &l, run_same, wait_dip, &t), TD_WATCH_CHANGE);
	/* the first window's CPU time up significantly but by a hair (0.5045 -> 0.512: below 0.3975 / 4, a drift
	 * the wait's way, not the trade's) with the wait a little down (0.102, p ~ 0.13): noise, held back
	 * (bench_watch_steady.sh: CPU time 0.972 -> 0.996 -> 0.979, wait 0.513 -> 0.506 -> 1.00) */
	assert_int_equal(verdict_at_19(&p2, &l, run_nudge, wait_late, &t), TD_WATCH_HELD_CPU);
	/* the CPU time as it was (run_same) while the wait rose in the first window and fell back in part in
	 * the latest (wait_back: p = 0.31 alone, 0.0089 with the first): the two windows the node moved in
	 * read together, held back */
	assert_int_equal(verdict_at_19(&p2, &l, run_same, wait_back, &t), TD_WATCH_HELD_CPU);
	assert_string_equal(t.why, "its CPU time and wait traded places");
	/* ... and a wait that moved at p = 0.040 in the latest, 0.0115 in both: not at p_value, at CPU_P */
	assert_int_equal(verdict_at_19(&p2, &l, run_same, wait_weak, &t), TD_WATCH_HELD_CPU);
	assert_true(t.wait[1].p > 0.01 && t.wait[1].p < 0.05);
	/* starved: the wait did not move (each window value between two baseline values or tied with one:
	 * U = 1.5 + 3.5 + 5.5 + 7.5 + 9.5 = 27.5 of 50, p ~ 0.8) and is not saturated (below 0.95), but the
	 * CPU time fell (0.5045 -> 0.122, every value of both windows below the baseline's: p = 2 / C(15, 5))
	 * while some task of it waited 0.855 of the time (the latest window's median, above 0.75): held back */
	assert_int_equal(verdict_at_19(&p2, &l, run_starved, wait_high, &t), TD_WATCH_HELD_CPU);
	assert_string_equal(t.why, "starved");
	assert_true(fabs(t.run[1].before - 0.5045) < 1e-12 && fabs(t.run[1].after - 0.122) < 1e-12);
	assert_true(fabs(t.wait[1].before - 0.8545) < 1e-12 && fabs(t.wait[1].after - 0.855) < 1e-12);
	/* the same fall with the wait at 0.305 (0.3045 before): it asked for less, a change */
	assert_int_equal(verdict_at_19(&p2, &l, run_starved, wait_low, &t), TD_WATCH_CHANGE);
	/* the CPU time up (0.5045 -> 1.202, p = 2 / C(15, 5)) after a baseline waiting 0.8545 (starved before), the
	 * wait as it was (p ~ 0.8): its neighbours gave the CPU back, held back; the same with the wait up
	 * (0.8545 -> 0.962, every window value above the baseline's: p = 2 / C(15, 5)): it asks for more, a
	 * change; and with the baseline's wait at 0.3045 (not starved, the wait as it was): a change */
	assert_int_equal(verdict_at_19(&p2, &l, run_freed, wait_high, &t), TD_WATCH_HELD_CPU);
	assert_int_equal(verdict_at_19(&p2, &l, run_freed, wait_more, &t), TD_WATCH_CHANGE);
	assert_int_equal(verdict_at_19(&p2, &l, run_freed, wait_low, &t), TD_WATCH_CHANGE);
	/* the first window straddles the neighbours' going: the CPU time down in it (0.1045 -> 0.012, p = 2 /
	 * C(15, 5)) with the wait at 0.855 (starved there), up in the latest (0.502, p = 2 / C(15, 5)) after
	 * the baseline's 0.8545, the wait as it was: each window starved, held back */
	assert_int_equal(verdict_at_19(&p2, &l, run_straddle, wait_high, &t), TD_WATCH_HELD_CPU);
	/* starved in the latest window (the CPU time 0.9045 -> 0.502 down, the wait 0.802) but not in the first
	 * (the CPU time down as much, the wait 0.502, below 0.75): the first rule still holds it back (the wait
	 * up by 0.6975 in the latest, p = 2 / C(15, 5), and up in the first; 0.4025 within 2 x 2 x 0.6975) */
	assert_int_equal(verdict_at_19(&p2, &l, run_taken, wait_steps, &t), TD_WATCH_HELD_CPU);
	td_watch_limits_free(&l);
}

static void test_phase_not_held(void **state)
{
	struct td_watch_params p2 = P;
	struct td_watch_limits l;
	struct td_watch_trigger t;

	(void)state;
	p2.ncpus = 2;
	p2.workload_every_ns = 0;
	assert_int_equal(td_watch_limits_init(&l, &p2), 0);
	/* CPU time and wait both up (0.0145 -> 0.612, 0.0545 -> 0.332): the workload asks for more */
	assert_int_equal(verdict_at_19(&p2, &l, run_phase, wait_up, &t), TD_WATCH_CHANGE);
	/* the wait down by 0.0525 (0.4045 -> 0.352, p = 2 / C(15, 5)) but the CPU time up by 0.5975 >
	 * 2 x 2 x 0.0525 = 0.21: more than neighbours leaving can give */
	assert_int_equal(verdict_at_19(&p2, &l, run_phase, wait_down, &t), TD_WATCH_CHANGE);
	td_watch_limits_free(&l);
}

/* The threshold rule (pr.hold): node 0 under its threshold (> 0.5, as an
 * events file would say; the flags are written here from the values) at
 * 0.40 .. 0.49, then from interval `from` on at f's values; node 1 has no
 * threshold. The moved rule is kept out (min_shift 100 points). */
static const struct td_watch_params PT = { .baseline = 10,
					   .window = 5,
					   .p_value = 0.01,
					   .min_shift = 100,
					   .workload_every_ns = 600 * S,
					   .per_hour = 2,
					   .hold = 3 };

static double under(int k)
{
	return 0.40 + 0.01 * (k % 10);
}

/* Interval k of node 0 at value x0 (node 1 at 0.5, no threshold) to the series */
static enum td_watch_verdict add_flagged(struct td_watch_series *s, struct td_watch_limits *l, int k, double x0,
					 struct td_watch_trigger *t)
{
	double x[2] = { x0, 0.5 };
	unsigned char fl[2] = { isnan(x0) ? TD_WATCH_NA : x0 > 0.5 ? TD_WATCH_OVER : TD_WATCH_UNDER, TD_WATCH_NA };

	return td_watch_add_flags(s, l, &PT, x, fl, NULL, (uint64_t)k * S + S, t);
}

static enum td_watch_verdict feed_flags(struct td_watch_series *s, struct td_watch_limits *l, int from, int to,
					double (*f)(int), struct td_watch_trigger *t, int *at)
{
	enum td_watch_verdict v = TD_WATCH_NONE;

	for (int k = 0; k < to && v == TD_WATCH_NONE; k++) {
		v = add_flagged(s, l, k, k < from ? under(k) : f(k), t);
		*at = k;
	}
	return v;
}

static double over(int k)
{
	return 0.55 + 0.01 * (k % 5);
}

/* over for two intervals, then under again */
static double blip(int k)
{
	return k < 22 ? over(k) : under(k);
}

/* over, but not counted in the second interval of the run */
static double gap(int k)
{
	return k == 21 ? NAN : over(k);
}

static void test_threshold_held(void **state)
{
	struct td_watch_series s;
	struct td_watch_limits l;
	struct td_watch_trigger t;
	int at = -1;

	(void)state;
	assert_int_equal(td_watch_series_init(&s, &PT, 2), 0);
	assert_int_equal(td_watch_limits_init(&l, &PT), 0);
	/* over from interval 20: held 3 intervals at 22 (20, 21, 22 over; 19 under) */
	assert_int_equal(feed_flags(&s, &l, 20, 60, over, &t, &at), TD_WATCH_CHANGE);
	assert_int_equal(at, 22);
	assert_int_equal(t.kind, TD_WATCH_THRESHOLD);
	assert_int_equal(t.node, 0);
	/* the ring at 22 holds 3 .. 22: the baseline 3 .. 12 (0.43 .. 0.49, 0.40 .. 0.42: median 0.445),
	 * the held 20 .. 22 (0.55, 0.56, 0.57: median 0.56) */
	assert_true(fabs(t.before - 0.445) < 1e-12);
	assert_true(fabs(t.after - 0.56) < 1e-12);
	assert_int_equal(t.n_before, 10);
	assert_int_equal(t.n_after, 3);
	/* every held value above every baseline value: U = 0, exact two-sided p = 2 / C(13, 3) */
	assert_true(fabs(t.p - 2.0 / 286.0) < 1e-12);
	td_watch_series_free(&s);
	td_watch_limits_free(&l);
}

static void test_threshold_not_held(void **state)
{
	struct td_watch_series s;
	struct td_watch_limits l;
	struct td_watch_trigger t;
	int at = -1;

	(void)state;
	/* two intervals over, then under: not held */
	assert_int_equal(td_watch_series_init(&s, &PT, 2), 0);
	assert_int_equal(td_watch_limits_init(&l, &PT), 0);
	assert_int_equal(feed_flags(&s, &l, 20, 60, blip, &t, &at), TD_WATCH_NONE);
	td_watch_series_free(&s);
	/* an interval not counted within the run: the run starts again after it (no crossing
	 * from "not counted" to over: 22, 23, 24 over follow 21, not an interval under) */
	assert_int_equal(td_watch_series_init(&s, &PT, 2), 0);
	assert_int_equal(feed_flags(&s, &l, 20, 60, gap, &t, &at), TD_WATCH_NONE);
	td_watch_series_free(&s);
	/* over from the first interval: never crossed */
	assert_int_equal(td_watch_series_init(&s, &PT, 2), 0);
	assert_int_equal(feed_flags(&s, &l, 0, 60, over, &t, &at), TD_WATCH_NONE);
	td_watch_series_free(&s);
	/* the same history as test_threshold_held without flags (td_watch_add): no threshold known */
	assert_int_equal(td_watch_series_init(&s, &PT, 2), 0);
	for (int k = 0; k < 60; k++) {
		double x[2] = { k < 20 ? under(k) : over(k), 0.5 };
		assert_int_equal(td_watch_add(&s, &l, &PT, x, (uint64_t)k * S + S, &t), TD_WATCH_NONE);
	}
	td_watch_series_free(&s);
	td_watch_limits_free(&l);
}

/* A threshold held is a change for the rate limits like any other: within
 * workload_every of the last, held back. */
static void test_threshold_limited(void **state)
{
	struct td_watch_series s;
	struct td_watch_limits l;
	struct td_watch_trigger t;
	int at = -1;

	(void)state;
	assert_int_equal(td_watch_series_init(&s, &PT, 2), 0);
	assert_int_equal(td_watch_limits_init(&l, &PT), 0);
	assert_int_equal(feed_flags(&s, &l, 20, 60, over, &t, &at), TD_WATCH_CHANGE);
	/* under again for a full ring, then over: 600 s have not passed */
	for (int k = 23; k < 50; k++)
		assert_int_equal(add_flagged(&s, &l, k, k < 45 ? under(k) : over(k), &t),
				 k == 47 ? TD_WATCH_HELD_ONE : TD_WATCH_NONE);
	td_watch_series_free(&s);
	td_watch_limits_free(&l);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_step_is_a_change),
		cmocka_unit_test(test_no_change),
		cmocka_unit_test(test_burst_is_none),
		cmocka_unit_test(test_not_counted),
		cmocka_unit_test(test_limits),
		cmocka_unit_test(test_neighbours_held),
		cmocka_unit_test(test_phase_not_held),
		cmocka_unit_test(test_threshold_held),
		cmocka_unit_test(test_threshold_not_held),
		cmocka_unit_test(test_threshold_limited),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

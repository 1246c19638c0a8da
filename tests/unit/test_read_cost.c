/* read_cost: the estimate by hand; which events a read can add to; a
 * software-only group is not measured and says why; a hardware group is
 * either measured (a finite cost >= 0 per affected event) or refused with
 * one line — on either path the measuring thread is gone and this thread's
 * CPU affinity is what it was. test_read_cost_pmu (-DTD_TEST_PMU) checks the
 * measured value where the PMU counts kernel mode, and skips elsewhere. */
#include <dirent.h>
#include <math.h>
#include <sched.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "collect/read_cost.h"

static int threads_now(void)
{
	DIR *d = opendir("/proc/self/task");
	struct dirent *e;
	int n = 0;

	assert_non_null(d);
	while ((e = readdir(d)))
		n += e->d_name[0] != '.';
	closedir(d);
	return n;
}

static struct perf_event_attr attr(uint32_t type, uint64_t config, bool user_only)
{
	struct perf_event_attr a;

	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	a.type = type;
	a.config = config;
	a.exclude_kernel = user_only;
	a.exclude_hv = 1;
	return a;
}

static void test_estimate(void **state)
{
	(void)state;
	/* 1000 in a 10 ms quiet window: 500 of the 5 ms burst's 2500 are background; 2000 over 500 reads */
	assert_true(fabs(td_read_cost_estimate(1000, 10000000, 2500, 5000000, 500) - 4.0) < 1e-12);
	/* no background */
	assert_true(fabs(td_read_cost_estimate(0, 10000000, 300, 1000000, 100) - 3.0) < 1e-12);
	/* a burst below its background is no negative cost */
	assert_true(td_read_cost_estimate(1000, 1000000, 10, 1000000, 10) == 0);
	assert_true(isnan(td_read_cost_estimate(1, 1, 1, 1, 0)));
}

static void test_affects(void **state)
{
	struct td_perf_group_spec s = { 0 };
	struct perf_event_attr a;

	(void)state;
	a = attr(PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK, false);
	td_perf_group_spec_add(&s, "task-clock", &a);
	a = attr(PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS, true);
	td_perf_group_spec_add(&s, "instructions:u", &a);
	a = attr(PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES, false);
	td_perf_group_spec_add(&s, "cycles", &a);
	a = attr(8, 0x3c, false); /* a core PMU's dynamic type (cpu_core, say) */
	td_perf_group_spec_add(&s, "raw", &a);
	a = attr(PERF_TYPE_TRACEPOINT, 1, false);
	td_perf_group_spec_add(&s, "tracepoint", &a);
	assert_false(td_read_cost_affects(&s, 0));
	assert_false(td_read_cost_affects(&s, 1));
	assert_true(td_read_cost_affects(&s, 2));
	assert_true(td_read_cost_affects(&s, 3));
	assert_false(td_read_cost_affects(&s, 4));
}

static void test_software_only(void **state)
{
	struct td_perf_group_spec s = { 0 };
	struct perf_event_attr a = attr(PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CONTEXT_SWITCHES, false);
	struct td_read_cost rc;

	(void)state;
	td_perf_group_spec_add(&s, "context-switches", &a);
	assert_int_equal(td_read_cost_measure(&s, &rc), 0);
	assert_false(rc.measured);
	assert_non_null(strstr(rc.why, "no hardware event counting kernel mode"));
	assert_true(isnan(rc.per_read[0]));
}

static void test_hardware(void **state)
{
	struct td_perf_group_spec s = { 0 };
	struct perf_event_attr a = attr(PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS, false), sw;
	struct td_read_cost rc;
	cpu_set_t before, after;
	int threads = threads_now();

	(void)state;
	td_perf_group_spec_add(&s, "instructions", &a);
	sw = attr(PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK, false);
	td_perf_group_spec_add(&s, "task-clock", &sw);
	assert_int_equal(sched_getaffinity(0, sizeof(before), &before), 0);
	assert_int_equal(td_read_cost_measure(&s, &rc), 0);
	assert_int_equal(sched_getaffinity(0, sizeof(after), &after), 0);
	assert_true(CPU_EQUAL(&before, &after));
	assert_int_equal(threads_now(), threads);
	assert_true(isnan(rc.per_read[1])); /* task-clock: not affected */
	if (rc.measured) {
		assert_true(isfinite(rc.per_read[0]) && rc.per_read[0] >= 0);
	} else {
		/* this host's answer, in one line: the kernel refused, or the PMU was busy */
		printf("# not measured here: %s\n", rc.why);
		assert_true(strstr(rc.why, "cannot count instructions in kernel mode on a thread of ours") ||
			    strstr(rc.why, "the measuring group was multiplexed") ||
			    strstr(rc.why, "reading the measuring group failed"));
		assert_null(strchr(rc.why, '\n'));
	}
#ifdef TD_TEST_PMU
	/* an interrupt, its entry and exit, and a PMU read: hundreds to some hundred thousand instructions */
	assert_true(rc.measured);
	printf("# a read adds %.0f instructions to a running target\n", rc.per_read[0]);
	assert_true(rc.per_read[0] >= 50 && rc.per_read[0] <= 1e6);
#endif
}

/* Built twice: test_read_cost, and test_read_cost_pmu (-DTD_TEST_PMU), which needs kernel-mode instructions. */
int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_estimate),
		cmocka_unit_test(test_affects),
		cmocka_unit_test(test_software_only),
		cmocka_unit_test(test_hardware),
	};
#ifdef TD_TEST_PMU
	struct td_perf_group_spec s = { 0 };
	struct perf_event_attr a = attr(PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS, false);
	struct td_read_cost rc;
	cpu_set_t set;

	td_perf_group_spec_add(&s, "instructions", &a);
	if (sched_getaffinity(0, sizeof(set), &set) == 0 && CPU_COUNT(&set) < 2) {
		printf("1..0 # SKIP one CPU: a target never runs while it is read, nothing to measure\n");
		return 0;
	}
	if (td_read_cost_measure(&s, &rc) == 0 && !rc.measured) {
		printf("1..0 # SKIP kernel-mode instructions cannot be counted here: %s\n", rc.why);
		return 0;
	}
#endif
	return cmocka_run_group_tests(tests, NULL, NULL);
}

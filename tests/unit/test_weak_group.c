/* Unit tests for td_perf_group_split (perf_group.h): a group the kernel
 * refuses as not schedulable is divided into the fewest groups of
 * consecutive members that each open. The kernel's side is a fake open
 * function written from Linux 6.12.117, not from our planner:
 * - a member added to a group is checked with the group so far
 *   (x86_pmu_event_init -> validate_group, arch/x86/events/core.c:2465 and
 *   :2394): every event of the group must get a counter of its own at once
 *   in an empty PMU (x86_schedule_events, core.c:983), else EINVAL; a leader
 *   is checked alone (validate_event);
 * - the counters each event may take are its constraint's idxmsk: Skylake's
 *   table intel_skl_event_constraints (arch/x86/events/intel/core.c:234-250):
 *   INST_RETIRED.ANY (0xc0) fixed counter 0, CPU_CLK_UNHALTED (0x3c) fixed
 *   1, REF (0x0300) fixed 2, each also any general-purpose counter
 *   (intel_pmu_check_event_constraints, core.c:6348-6358: a fixed
 *   constraint is extended to cntr_mask); MEM_*_RETIRED (0xd0-0xd2),
 *   MEM_TRANS_RETIRED (0xcd), FRONTEND_RETIRED (0xc6) counters 0-3 only;
 *   every other event any general-purpose counter. With SMT off Skylake
 *   has 8 general-purpose counters, with SMT on 4.
 * The minimum is checked against a search of every division into
 * consecutive runs, each run judged by the same fake. A spec in parts is
 * then opened, read and enabled on this thread with software events (the
 * real kernel). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "collect/interval.h"
#include "collect/perf_group.h"

#define FIXED(n) (1ull << (32 + (n)))
#define BAD_EVENT 0xff /* an event this fake PMU does not have: refused as a leader too */

struct fake_pmu {
	int gp;	   /* general-purpose counters */
	int opens; /* perf_event_open calls made */
};

/* The counters an event may take (its constraint's idxmsk). */
static uint64_t counters_of(const struct fake_pmu *pmu, uint64_t config)
{
	uint64_t gp = (1ull << pmu->gp) - 1;

	switch (config) {
	case 0x00c0:
		return FIXED(0) | gp;
	case 0x003c:
		return FIXED(1) | gp;
	case 0x0300:
		return FIXED(2) | gp;
	}
	switch (config & 0xff) {
	case 0xd0:
	case 0xd1:
	case 0xd2:
	case 0xcd:
	case 0xc6:
		return 0xf & gp;
	case BAD_EVENT:
		return 0;
	}
	return gp;
}

/* Can events[0..n) each have a counter of its own? (augmenting paths) */
static bool place(const uint64_t *mask, int n, int e, int *owner, bool *seen)
{
	for (int c = 0; c < 64; c++) {
		if (!(mask[e] & (1ull << c)) || seen[c])
			continue;
		seen[c] = true;
		if (owner[c] < 0 || place(mask, n, owner[c], owner, seen)) {
			owner[c] = e;
			return true;
		}
	}
	return false;
}

static bool schedulable(const struct fake_pmu *pmu, const struct td_perf_group_spec *s, int first, int n)
{
	uint64_t mask[TD_GROUP_MAX];
	int owner[64];

	for (int c = 0; c < 64; c++)
		owner[c] = -1;
	for (int i = 0; i < n; i++)
		mask[i] = counters_of(pmu, s->attrs[first + i].config);
	for (int i = 0; i < n; i++) {
		bool seen[64] = { false };
		if (!place(mask, n, i, owner, seen))
			return false;
	}
	return true;
}

/* td_group_try_fn: members opened one by one, each checked with the group so far. */
static int fake_try(void *ctx, const struct td_perf_group_spec *s, int first, int n, int *failed)
{
	struct fake_pmu *pmu = ctx;

	for (int k = 1; k <= n; k++) {
		pmu->opens++;
		if (!schedulable(pmu, s, first, k)) {
			*failed = k - 1;
			return k == 1 ? -ENOENT : -EINVAL;
		}
	}
	return 0;
}

static void add(struct td_perf_group_spec *s, uint64_t config)
{
	struct perf_event_attr a = { .type = PERF_TYPE_RAW, .config = config };
	char name[32];

	snprintf(name, sizeof(name), "r%04llx", (unsigned long long)config);
	assert_int_equal(td_perf_group_spec_add(s, name, &a), 0);
}

/* The fewest consecutive runs of s each schedulable alone, by trying every division. */
static int fewest_parts(const struct fake_pmu *pmu, const struct td_perf_group_spec *s)
{
	int best[TD_GROUP_MAX + 1]; /* best[i]: fewest runs covering members [0, i) */

	best[0] = 0;
	for (int i = 1; i <= s->n; i++) {
		best[i] = TD_GROUP_MAX + 1;
		for (int j = 0; j < i; j++)
			if (best[j] + 1 < best[i] && schedulable(pmu, s, j, i - j))
				best[i] = best[j] + 1;
	}
	return best[s->n];
}

/* Every part is a consecutive run numbered in order that the fake opens. */
static void assert_parts_open(const struct fake_pmu *pmu, const struct td_perf_group_spec *s, int parts)
{
	int first = 0;

	assert_int_equal(s->sub[0], 0);
	for (int i = 1; i <= s->n; i++) {
		if (i < s->n && s->sub[i] == s->sub[i - 1])
			continue;
		assert_true(schedulable(pmu, s, first, i - first));
		if (i < s->n)
			assert_int_equal(s->sub[i], s->sub[i - 1] + 1);
		first = i;
	}
	assert_int_equal(s->sub[s->n - 1] + 1, parts);
	assert_int_equal(td_perf_group_parts(s), parts);
}

/* Five MEM_LOAD_RETIRED events (counters 0-3 only) and two others, SMT off:
 * the kernel refuses the fifth (5 events for 4 counters); 2 groups, 4 + 3. */
static void test_bottom_four(void **state)
{
	struct fake_pmu pmu = { .gp = 8 };
	struct td_perf_group_spec s = { 0 };
	int failed = -1, rc;

	(void)state;
	for (int i = 0; i < 5; i++)
		add(&s, 0x01d1 + 0x100 * (uint64_t)i);
	add(&s, 0x01c4);
	add(&s, 0x00c5);
	rc = fake_try(&pmu, &s, 0, s.n, &failed);
	assert_int_equal(rc, -EINVAL);
	assert_int_equal(failed, 4);
	assert_true(td_perf_group_unschedulable(-rc, failed));
	assert_int_equal(td_perf_group_split(&s, fake_try, &pmu, &failed), 2);
	assert_parts_open(&pmu, &s, 2);
	assert_memory_equal(s.sub, ((uint8_t[]){ 0, 0, 0, 0, 1, 1, 1 }), 7);
	assert_int_equal(fewest_parts(&pmu, &s), 2);
}

/* Twelve general-purpose events with SMT on (4 counters): 3 groups of 4;
 * SMT off (8): 2 groups, as even as they open: 6 + 6. */
static void test_even_parts(void **state)
{
	struct fake_pmu on = { .gp = 4 }, off = { .gp = 8 };
	struct td_perf_group_spec s = { 0 }, t;
	int failed;

	(void)state;
	for (int i = 0; i < 12; i++)
		add(&s, 0x0100 | (uint64_t)(0x10 + i));
	t = s;
	assert_int_equal(td_perf_group_split(&s, fake_try, &on, &failed), 3);
	assert_parts_open(&on, &s, 3);
	assert_memory_equal(s.sub, ((uint8_t[]){ 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2 }), 12);
	assert_int_equal(td_perf_group_split(&t, fake_try, &off, &failed), 2);
	assert_parts_open(&off, &t, 2);
	assert_memory_equal(t.sub, ((uint8_t[]){ 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1 }), 12);
}

/* The fixed counters' events fit beside 4 general-purpose ones (SMT on): a
 * group of INST, CLK, REF and 4 others opens whole (one part); a fifth
 * other has no counter left: refused there (member 7), split in 2. */
static void test_fixed_counters(void **state)
{
	struct fake_pmu pmu = { .gp = 4 };
	struct td_perf_group_spec s = { 0 };
	int failed = -1;

	(void)state;
	add(&s, 0x00c0);
	add(&s, 0x003c);
	add(&s, 0x0300);
	for (int i = 0; i < 4; i++)
		add(&s, 0x0100 | (uint64_t)(0x20 + i));
	assert_int_equal(fake_try(&pmu, &s, 0, s.n, &failed), 0);
	assert_int_equal(td_perf_group_split(&s, fake_try, &pmu, &failed), 1);
	assert_parts_open(&pmu, &s, 1);
	add(&s, 0x0130);
	assert_int_equal(fake_try(&pmu, &s, 0, s.n, &failed), -EINVAL);
	assert_int_equal(failed, 7);
	assert_int_equal(td_perf_group_split(&s, fake_try, &pmu, &failed), 2);
	assert_parts_open(&pmu, &s, 2);
}

/* A member the PMU cannot count even as its own leader: the split fails
 * with its errno and index, and the spec is left as it was. A refusal of
 * the leader is not a scheduling one. */
static void test_uncountable_member(void **state)
{
	struct fake_pmu pmu = { .gp = 4 };
	struct td_perf_group_spec s = { 0 };
	uint8_t before[TD_GROUP_MAX];
	int failed = -1;

	(void)state;
	for (int i = 0; i < 5; i++)
		add(&s, 0x0100 | (uint64_t)(0x40 + i));
	add(&s, BAD_EVENT);
	memcpy(before, s.sub, sizeof(before));
	assert_int_equal(td_perf_group_split(&s, fake_try, &pmu, &failed), -ENOENT);
	assert_int_equal(failed, 5);
	assert_memory_equal(s.sub, before, sizeof(before));
	assert_false(td_perf_group_unschedulable(EINVAL, 0));
	assert_false(td_perf_group_unschedulable(ENOENT, 3));
	assert_true(td_perf_group_unschedulable(ENOSPC, 1));
}

/* Random groups of up to TD_GROUP_MAX events drawn from the constraint
 * classes above, SMT on and off: the split always gives the fewest
 * consecutive runs that open, and the parts the kernel takes. */
static void test_fewest_random(void **state)
{
	static const uint64_t pool[] = { 0x00c0, 0x003c, 0x0300, 0x01d1, 0x02d0, 0x04c6, 0x01cd,
					 0x0124, 0x01c4, 0x00c5, 0x10a3, 0x01a2, 0x020e, 0x01b1 };
	unsigned seed = 30;
	int splits = 0;

	(void)state;
	for (int round = 0; round < 400; round++) {
		struct fake_pmu pmu = { .gp = round % 2 ? 8 : 4 };
		struct td_perf_group_spec s = { 0 };
		int n = 2 + (int)(rand_r(&seed) % (TD_GROUP_MAX - 1)), failed = -1, parts;
		for (int i = 0; i < n; i++)
			add(&s, pool[rand_r(&seed) % (sizeof(pool) / sizeof(pool[0]))]);
		parts = td_perf_group_split(&s, fake_try, &pmu, &failed);
		assert_int_equal(parts, fewest_parts(&pmu, &s));
		assert_parts_open(&pmu, &s, parts);
		splits += parts > 1;
	}
	assert_true(splits > 100); /* the draws do exercise splitting */
}

/* The note's text: the errno, the member refused, the parts' sizes. */
static void test_why(void **state)
{
	struct fake_pmu pmu = { .gp = 8 };
	struct td_perf_group_spec s = { 0 };
	char why[300];
	int failed;

	(void)state;
	for (int i = 0; i < 5; i++)
		add(&s, 0x01d1 + 0x100 * (uint64_t)i);
	add(&s, 0x01c4);
	add(&s, 0x00c5);
	assert_int_equal(td_perf_group_split(&s, fake_try, &pmu, &failed), 2);
	td_perf_group_split_why(&s, EINVAL, 4, why, sizeof(why));
	assert_string_equal(why,
			    "the kernel refused it: Invalid argument (EINVAL at its event 5 of 7, r05d1: its events "
			    "cannot all have counters at once); counted as 2 groups of 4 and 3 events");
}

/* A spec opened in parts on this thread (the real kernel, software
 * events): one leader per part, each part read as a group of its own
 * (its members' enabled and running its own), enabled and disabled
 * together, its deltas per member. */
static void test_parts_open_read(void **state)
{
	struct td_perf_group_spec s = { 0 };
	struct perf_event_attr a = { .type = PERF_TYPE_SOFTWARE };
	struct td_perf_group g;
	struct td_reading r0, r1, r2;
	struct td_count d[3];
	volatile uint64_t x = 0;
	int failed = -1;

	(void)state;
	a.config = PERF_COUNT_SW_TASK_CLOCK;
	assert_int_equal(td_perf_group_spec_add(&s, "task-clock", &a), 0);
	a.config = PERF_COUNT_SW_PAGE_FAULTS;
	assert_int_equal(td_perf_group_spec_add(&s, "page-faults", &a), 0);
	a.config = PERF_COUNT_SW_TASK_CLOCK;
	assert_int_equal(td_perf_group_spec_add(&s, "task-clock-2", &a), 0);
	s.sub[2] = 1;
	assert_int_equal(td_perf_group_parts(&s), 2);
	assert_int_equal(td_perf_group_open(&g, &s, 0, -1, TD_OPEN_DISABLED, &failed), 0);
	assert_int_equal(td_perf_group_fd_count(&g), 3);
	assert_true(g.split);
	assert_int_equal(td_perf_group_read(&g, &r0), 0);
	assert_true(r0.split);
	for (int i = 0; i < 3; i++) /* nothing enabled yet: no part counted */
		assert_true(r0.m_enabled[i] == 0 && r0.value[i] == 0);
	assert_int_equal(td_perf_group_enable(&g, true), 0); /* every part's leader */
	for (int i = 0; i < 20000000; i++)
		x += (uint64_t)i;
	assert_int_equal(td_perf_group_read(&g, &r1), 0);
	assert_int_equal(td_perf_group_enable(&g, false), 0);
	assert_int_equal(td_perf_group_read(&g, &r2), 0);
	/* each part has its own window: members 0 and 1 the first's, member 2 the second's */
	assert_true(r1.m_enabled[0] > 0 && r1.m_enabled[2] > 0);
	assert_true(r1.m_enabled[0] == r1.m_enabled[1] && r1.m_running[0] == r1.m_running[1]);
	assert_true(r1.enabled == r1.m_enabled[0] && r1.running == r1.m_running[0]);
	/* two task clocks of one thread, one in each part: both count */
	assert_true(r1.value[0] > 0 && r1.value[2] > 0);
	/* disabled: nothing more counts in either part */
	assert_int_equal(td_perf_group_read(&g, &r0), 0);
	assert_memory_equal(r0.value, r2.value, sizeof(r0.value));
	/* deltas per member come from its part's window */
	td_reading_delta(NULL, &r1, 3, d);
	assert_true(d[2].enabled == r1.m_enabled[2] && d[2].running == r1.m_running[2]);
	assert_true(d[0].enabled == r1.m_enabled[0] && d[1].running == r1.m_running[1]);
	td_reading_delta(&r1, &r2, 3, d);
	assert_int_equal(d[2].enabled, r2.m_enabled[2] - r1.m_enabled[2]);
	assert_int_equal(d[0].value, r2.value[0] - r1.value[0]);
	td_perf_group_close(&g);
	assert_int_equal(td_perf_group_fd_count(&g), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_bottom_four),	cmocka_unit_test(test_even_parts),
		cmocka_unit_test(test_fixed_counters),	cmocka_unit_test(test_uncountable_member),
		cmocka_unit_test(test_fewest_random),	cmocka_unit_test(test_why),
		cmocka_unit_test(test_parts_open_read),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

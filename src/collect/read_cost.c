/* read_cost: measuring what a group read adds to its target's counts (see
 * read_cost.h). Three rounds of a 10 ms quiet window then 500 reads in a
 * burst; per event the median of the rounds' estimates. */
#include "read_cost.h"

#include <errno.h>
#include <math.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "base/util.h"
#include "spinner.h"

enum {
	ROUNDS = 3,
	BURST_READS = 500,
	QUIET_NS = 10000000
};

bool td_read_cost_affects(const struct td_perf_group_spec *spec, int k)
{
	const struct perf_event_attr *a = &spec->attrs[k];

	return a->type != PERF_TYPE_SOFTWARE && a->type != PERF_TYPE_TRACEPOINT && a->type != PERF_TYPE_BREAKPOINT &&
	       !a->exclude_kernel;
}

double td_read_cost_estimate(double quiet, uint64_t quiet_ns, double burst, uint64_t burst_ns, int reads)
{
	double background = quiet_ns ? quiet * (double)burst_ns / (double)quiet_ns : 0, v;

	if (reads <= 0)
		return NAN;
	v = (burst - background) / reads;
	return v > 0 ? v : 0;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* Two CPUs of this thread's set: the one it runs on, and another. false: one only. */
static bool two_cpus(cpu_set_t *set, int *here, int *there)
{
	*here = sched_getcpu();
	*there = -1;
	for (int c = 0; c < CPU_SETSIZE && *there < 0; c++)
		if (CPU_ISSET(c, set) && c != *here)
			*there = c;
	return *here >= 0 && *there >= 0;
}

/* The rounds on an open group (kernel-mode copies of the affected events). */
static int rounds(const struct td_perf_group *g, int n, double est[][ROUNDS], char *why, size_t len)
{
	for (int r = 0; r < ROUNDS; r++) {
		struct td_reading q0, q1, b1;
		struct timespec quiet = { 0, QUIET_NS };
		uint64_t t0, t1, t2;
		int rc;

		t0 = td_now_ns();
		rc = td_perf_group_read(g, &q0);
		nanosleep(&quiet, NULL);
		rc = rc ? rc : td_perf_group_read(g, &q1);
		t1 = td_now_ns();
		for (int i = 1; i < BURST_READS && rc == 0; i++)
			rc = td_perf_group_read(g, &b1);
		rc = rc ? rc : td_perf_group_read(g, &b1);
		t2 = td_now_ns();
		if (rc) {
			snprintf(why, len, "reading the measuring group failed: %s", strerror(-rc));
			return -1;
		}
		if (b1.running != b1.enabled) {
			snprintf(why, len,
				 "the measuring group was multiplexed (other users of the PMU): not measured");
			return -1;
		}
		for (int k = 0; k < n; k++)
			est[k][r] = td_read_cost_estimate((double)(q1.value[k] - q0.value[k]), t1 - t0,
							  (double)(b1.value[k] - q1.value[k]), t2 - t1, BURST_READS);
	}
	return 0;
}

/* Measured groups of this process: a group's cost does not change while it runs. */
struct cached {
	struct td_perf_group_spec spec;
	struct td_read_cost cost;
};
static struct cached *cache;
static int ncache;

static int measure(const struct td_perf_group_spec *spec, struct td_read_cost *out);

int td_read_cost_measure(const struct td_perf_group_spec *spec, struct td_read_cost *out)
{
	struct cached *c;

	for (int i = 0; i < ncache; i++)
		if (cache[i].spec.n == spec->n &&
		    !memcmp(cache[i].spec.attrs, spec->attrs, (size_t)spec->n * sizeof(spec->attrs[0])) &&
		    !memcmp(cache[i].spec.sub, spec->sub, sizeof(spec->sub))) {
			*out = cache[i].cost;
			return 0;
		}
	if (measure(spec, out))
		return -1;
	if (out->measured && (c = td_array_push(&cache, &ncache, sizeof(*cache)))) {
		c->spec = *spec;
		c->cost = *out;
	}
	return 0;
}

static int measure(const struct td_perf_group_spec *spec, struct td_read_cost *out)
{
	struct td_perf_group_spec kmode = { 0 };
	int map[TD_GROUP_MAX], here, there, failed = 0, rc;
	cpu_set_t set, pinned;
	struct td_spinner s;
	struct td_perf_group g;
	double(*est)[ROUNDS];

	memset(out, 0, sizeof(*out));
	for (int k = 0; k < TD_GROUP_MAX; k++)
		out->per_read[k] = NAN;
	for (int k = 0; k < spec->n; k++)
		if (td_read_cost_affects(spec, k)) {
			struct perf_event_attr a = spec->attrs[k];
			a.exclude_user = 1; /* the spinner's own work is user space: what is left is interrupts */
			a.exclude_kernel = 0;
			map[kmode.n] = k;
			kmode.sub[kmode.n] = spec->sub[k]; /* a spec the kernel refused whole: its parts */
			td_perf_group_spec_add(&kmode, spec->names[k], &a);
		}
	if (kmode.n == 0) {
		snprintf(out->why, sizeof(out->why),
			 "no hardware event counting kernel mode: reads add nothing to "
			 "these counts");
		return 0;
	}
	if (sched_getaffinity(0, sizeof(set), &set) || !two_cpus(&set, &here, &there)) {
		/* a target never runs while it is read: nothing lands in it */
		for (int i = 0; i < kmode.n; i++)
			out->per_read[map[i]] = 0;
		out->measured = true;
		return 0;
	}
	if (!(est = calloc((size_t)kmode.n, sizeof(*est))))
		return -1;
	CPU_ZERO(&pinned);
	CPU_SET(here, &pinned);
	sched_setaffinity(0, sizeof(pinned), &pinned);
	/* the stand-in target runs while it is read (the cost is per read of a running target): at the
	 * sampler's priority, on the other CPU */
	if ((rc = td_spinner_start(&s, there, false)) != 0) {
		snprintf(out->why, sizeof(out->why), "cannot start the measuring thread: %s", strerror(rc));
		sched_setaffinity(0, sizeof(set), &set);
		free(est);
		return 0;
	}
	if ((rc = td_perf_group_open(&g, &kmode, s.tid, -1, 0, &failed)) != 0) {
		snprintf(out->why, sizeof(out->why), "cannot count %s in kernel mode on a thread of ours (%s)",
			 kmode.names[failed], strerror(-rc));
	} else {
		if (rounds(&g, kmode.n, est, out->why, sizeof(out->why)) == 0) {
			for (int i = 0; i < kmode.n; i++) {
				qsort(est[i], ROUNDS, sizeof(double), cmp_double);
				out->per_read[map[i]] = est[i][ROUNDS / 2];
			}
			out->measured = true;
		}
		td_perf_group_close(&g);
	}
	td_spinner_stop(&s);
	sched_setaffinity(0, sizeof(set), &set);
	free(est);
	return 0;
}

/* bench_collector: CPU time the collector spends per interval
 * (td_collector_sample: group reads, deltas, /proc switch counts, the sink
 * call) against a bare loop of group read()s on the same descriptors, with
 * software.td's events on THREADS sleeping threads of this process; prints
 * both per interval and the ratio (goal <= 1.3); then against bare reads of
 * those and of an inherited copy of the group on each thread, as the
 * collector reads for the unlisted remainder (goal <= 2). Never passes or
 * fails.
 * usage: bench_collector [THREADS] [INTERVALS] */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "collect/collector.h"
#include "collect/counting_backend.h" /* td_counting_perf_group: the descriptors the bare loop reads */
#include "machine/encode.h"

#define GOAL_RATIO 1.3
#define GOAL_RATIO_ROOTS 2.0 /* issue 16: the fallback's interval at most 2x the bare reads of its descriptors */
#define MAXT 1024

static const char *const events[] = { "perf::TASK-CLOCK",  "perf::CONTEXT-SWITCHES", "perf::CPU-MIGRATIONS",
				      "perf::PAGE-FAULTS", "perf::MINOR-FAULTS",     "perf::MAJOR-FAULTS" };
static volatile int stop;
static const struct td_perf_group *groups[MAXT];
static pid_t tids[MAXT];
static int ngroups;

static void *sleeper(void *arg)
{
	(void)arg;
	while (!stop)
		usleep(10000);
	return NULL;
}

static double cpu_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* The sink remembers each thread's group (the descriptors the bare loop reads). */
static int on_counts(void *ctx, struct td_thread *t, int spec, const struct td_count *c, int n)
{
	(void)c;
	(void)n;
	if (*(int *)ctx && spec == 0 && ngroups < MAXT && t->tid != TD_TID_UNLISTED) {
		tids[ngroups] = t->tid;
		groups[ngroups++] = td_counting_perf_group(t, 0);
	}
	return 0;
}

int main(int argc, char **argv)
{
	int nthreads = argc > 1 ? atoi(argv[1]) : 64, intervals = argc > 2 ? atoi(argv[2]) : 2000, collect = 1;
	struct td_perf_group_spec spec = { 0 };
	struct td_sink sink = { .ctx = &collect, .counts = on_counts };
	struct td_collector *c;
	pthread_t th[MAXT];
	struct td_reading r;
	double t0, col, bare, bare_roots;
	static struct td_perf_group inherited[MAXT];
	td_err err;

	if (nthreads < 1 || nthreads > MAXT - 1 || intervals < 1) {
		fprintf(stderr, "usage: bench_collector [THREADS 1-%d] [INTERVALS]\n", MAXT - 1);
		return 2;
	}
	for (size_t i = 0; i < sizeof(events) / sizeof(events[0]); i++) {
		struct td_encoding enc;
		if (td_encode(events[i], NULL, false, &enc, &err)) {
			fprintf(stderr, "bench_collector: %s\n", err.msg);
			return 1;
		}
		td_perf_group_spec_add(&spec, events[i], &enc.attr);
	}
	for (int i = 0; i < nthreads; i++)
		pthread_create(&th[i], NULL, sleeper, NULL);
	c = td_collector_new(&spec, 1, false, 2);
	if (!c || td_collector_add_process(c, getpid(), 0, &sink, &err)) {
		fprintf(stderr, "bench_collector: %s\n", c ? err.msg : "out of memory");
		return 1;
	}
	td_collector_sample(c, td_wall_ns(), &sink); /* learns the descriptors */
	td_collector_commit(c);
	collect = 0;
	t0 = cpu_now();
	for (int i = 0; i < intervals; i++) {
		td_collector_sample(c, td_wall_ns(), &sink);
		td_collector_commit(c);
	}
	col = (cpu_now() - t0) / intervals;
	t0 = cpu_now();
	for (int i = 0; i < intervals; i++)
		for (int g = 0; g < ngroups; g++)
			td_perf_group_read(groups[g], &r);
	bare = (cpu_now() - t0) / intervals;
	/* the collector also reads each root's inherited copy of the group (the unlisted
	 * remainder): every thread this process has when it is added is a root; the kernel
	 * sums an inherited group over its children at each read */
	for (int g = 0; g < ngroups; g++) {
		int failed = 0;
		if (td_perf_group_open(&inherited[g], &spec, tids[g], -1, TD_OPEN_INHERIT, &failed))
			inherited[g].n = 0;
	}
	t0 = cpu_now();
	for (int i = 0; i < intervals; i++)
		for (int g = 0; g < ngroups; g++) {
			td_perf_group_read(groups[g], &r);
			if (inherited[g].n)
				td_perf_group_read(&inherited[g], &r);
		}
	bare_roots = (cpu_now() - t0) / intervals;
	printf("collector: %d threads x %zu events, %d intervals\n", ngroups, sizeof(events) / sizeof(events[0]),
	       intervals);
	printf("  td_collector_sample  %9.1f us CPU per interval\n", col * 1e6);
	printf("  bare group read()s   %9.1f us CPU per interval\n", bare * 1e6);
	printf("  ratio %.2f (goal <= %.1f): %s\n", col / bare, GOAL_RATIO,
	       col / bare <= GOAL_RATIO ? "met" : "NOT met");
	printf("  bare read()s, with the roots' inherited groups %9.1f us CPU per interval: ratio %.2f (goal <= %.1f): "
	       "%s\n",
	       bare_roots * 1e6, col / bare_roots, GOAL_RATIO_ROOTS,
	       col / bare_roots <= GOAL_RATIO_ROOTS ? "met" : "NOT met");
	/* what the collector allocates per thread: the thread and its backend's state, one group per spec */
	printf("  memory per tracked thread: %zu bytes (%zu + the per-thread backend's %zu for 1 spec; with %d specs "
	       "%zu)\n",
	       sizeof(struct td_thread) + td_counting_perf_bytes(1), sizeof(struct td_thread),
	       td_counting_perf_bytes(1), TD_MAX_SPECS,
	       sizeof(struct td_thread) + td_counting_perf_bytes(TD_MAX_SPECS));
	stop = 1;
	for (int i = 0; i < nthreads; i++)
		pthread_join(th[i], NULL);
	for (int g = 0; g < ngroups; g++)
		if (inherited[g].n)
			td_perf_group_close(&inherited[g]);
	td_collector_free(c);
	return 0;
}

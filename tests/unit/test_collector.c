/* Unit tests for collector, live on this process: threads born and gone
 * between scans get their groups opened, read every sample, read a last time
 * and closed; a group the machine cannot count is disabled once; descriptors
 * return to where they started. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <dirent.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "collect/collector.h"
#include "collect/counting_backend.h"
#include "machine/encode.h"

#include "free_pid.h"

#define MAXT 16
struct seen {
	int born, gone, count_calls, proc_calls;
	pid_t tids[MAXT];
	uint64_t task_clock[MAXT];
	bool gone_flag[MAXT];
	int64_t next_id;
};

static int slot(struct seen *s, pid_t tid)
{
	pid_t key = tid == TD_TID_UNLISTED ? -1 : tid; /* 0 marks a free slot */

	for (int i = 0; i < MAXT; i++)
		if (s->tids[i] == key || s->tids[i] == 0) {
			s->tids[i] = key;
			return i;
		}
	fail_msg("too many threads");
	return 0;
}

static int on_born(void *ctx, struct td_thread *t)
{
	struct seen *s = ctx;
	s->born++;
	t->store_id = ++s->next_id;
	slot(s, t->tid);
	return 0;
}

static int on_gone(void *ctx, struct td_thread *t)
{
	struct seen *s = ctx;
	s->gone++;
	s->gone_flag[slot(s, t->tid)] = true;
	return 0;
}

static int on_counts(void *ctx, struct td_thread *t, int spec, const struct td_count *c, int n)
{
	struct seen *s = ctx;
	s->count_calls++;
	if (spec == 0) {
		assert_int_equal(n, 2);
		assert_true(c[0].running <= c[0].enabled);
		s->task_clock[slot(s, t->tid)] += c[0].value;
	} else {
		assert_int_equal(spec, TD_SPEC_PROC);
		assert_int_equal(n, 2);
		/* /proc switches: exact, so counted all the time; none after a thread is gone */
		assert_false(t->gone);
		assert_int_equal(c[0].running, c[0].enabled);
		assert_int_equal(c[1].running, c[1].enabled);
		s->proc_calls++;
	}
	return 0;
}

static int count_fds(void)
{
	DIR *d = opendir("/proc/self/fd");
	struct dirent *de;
	int n = 0;

	while ((de = readdir(d)))
		n += de->d_name[0] != '.';
	closedir(d);
	return n;
}

static volatile int stop, go;
static volatile pid_t worker_tid;
static volatile int spun; /* the worker has used its 40 ms of CPU */

static void *spinner(void *arg)
{
	struct timespec a, b;

	(void)arg;
	worker_tid = (pid_t)syscall(SYS_gettid);
	while (!go) /* spin only once the collector has opened this thread's counters */
		usleep(200);
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &a);
	do
		clock_gettime(CLOCK_THREAD_CPUTIME_ID, &b);
	while ((b.tv_sec - a.tv_sec) * 1000000000LL + (b.tv_nsec - a.tv_nsec) < 40000000LL); /* ns: ms would round up */
	spun = 1;
	while (!stop)
		usleep(1000);
	return NULL;
}

static void spec_add(struct td_perf_group_spec *s, const char *ev)
{
	struct td_encoding enc;
	td_err err;
	assert_int_equal(td_encode(ev, NULL, geteuid() == 0, &enc, &err), 0);
	assert_int_equal(td_perf_group_spec_add(s, ev, &enc.attr), 0);
}

static void test_threads_lifecycle(void **state)
{
	struct td_perf_group_spec specs[2];
	struct seen seen = { 0 };
	struct td_sink sink = { &seen, on_born, on_gone, on_counts };
	struct td_collector_stats st;
	struct td_collector *c;
	td_err err;
	pthread_t th;
	int fds0 = count_fds();
	bool no_pmu = access("/sys/bus/event_source/devices/cpu", F_OK) != 0;

	(void)state;
	memset(specs, 0, sizeof(specs));
	spec_add(&specs[0], "perf::TASK-CLOCK");
	spec_add(&specs[0], "perf::PAGE-FAULTS");
	spec_add(&specs[1], "perf::CYCLES");
	c = td_collector_new(specs, 2, false, 2);
	assert_non_null(c);
	assert_int_equal(td_collector_add_process(c, getpid(), 0, &sink, &err), 0);
	assert_int_equal(seen.born, 1); /* this test runs one thread */
	if (no_pmu) {
		assert_non_null(td_collector_disabled(c, 1));
		assert_non_null(strstr(td_collector_disabled(c, 1), "ENOENT"));
	}
	assert_null(td_collector_disabled(c, 0));

	stop = go = spun = 0;
	worker_tid = 0;
	assert_int_equal(pthread_create(&th, NULL, spinner, NULL), 0);
	while (!worker_tid)
		usleep(100);
	assert_int_equal(td_collector_scan(c, td_wall_ns(), &sink), 0);
	assert_int_equal(seen.born, 2);
	td_collector_stats(c, &st);
	assert_int_equal(st.threads_live, 2);
	/* each thread's groups, and the main thread's software group again, inherited (the root) */
	assert_int_equal(st.fds_open, no_pmu ? 6 : 8);
	assert_true(st.unlisted_counted);
	go = 1;
	while (!spun) /* the worker spins 40 ms of CPU: however long that takes on a loaded machine */
		usleep(1000);
	/* a scan reads the /proc switch counts of TD_SWITCH_READS_PER_SCAN threads again, in turn
	 * (both here), and the sample delivers those read since their last delivery (the worker's
	 * first read is its birth's: the scan after it reads it again) */
	assert_int_equal(td_collector_scan(c, td_wall_ns(), &sink), 0);
	assert_int_equal(td_collector_sample(c, td_wall_ns(), &sink), 0);
	td_collector_commit(c);
	assert_int_equal(seen.proc_calls, 2); /* both threads' /proc switches */
	stop = 1;
	pthread_join(th, NULL);
	assert_int_equal(td_collector_scan(c, td_wall_ns(), &sink), 0);
	td_collector_stats(c, &st);
	assert_int_equal(st.threads_live, 1);
	assert_int_equal(st.fds_open, no_pmu ? 4 : 5); /* the worker's descriptors are closed at once */
	assert_int_equal(seen.gone, 0);		       /* ...and its last counts go with the next sample */
	assert_int_equal(td_collector_sample(c, td_wall_ns(), &sink), 0);
	td_collector_commit(c);
	assert_int_equal(seen.gone, 1);
	assert_int_equal(seen.proc_calls, 3); /* the live thread's only: the worker's ended at its last read */
	int w = slot(&seen, worker_tid);
	assert_true(seen.gone_flag[w]);
	/* the worker's 40 ms of CPU reached the sink, as task-clock sees it: on a
	 * heavily loaded VM task-clock was seen well below the thread's CPU clock
	 * now and then (test_perf_group), so only most of it is required */
	assert_true(seen.task_clock[w] >= 20000000ull);
	assert_true(seen.task_clock[w] < 1000000000ull);
	/* the root's inherited group counted the worker too: what the listed threads
	 * hold is not given again to the unlisted pseudo-thread (the worker spun only
	 * once listed: its unlisted part is its first microseconds) */
	assert_true(seen.task_clock[slot(&seen, TD_TID_UNLISTED)] < 10000000ull);
	td_collector_stats(c, &st);
	assert_int_equal(st.threads_seen, 2);
	td_collector_free(c);
	assert_int_equal(count_fds(), fds0);
}

/* --unlisted=off: the root carries its own group only, no inherited copy
 * (perf_event_open: one descriptor an event), and no remainder is delivered,
 * not even a 0 (seen through the sink: no row of the pseudo-thread). */
static void test_unlisted_off(void **state)
{
	struct td_perf_group_spec spec = { 0 };
	struct seen seen = { 0 };
	struct td_sink sink = { &seen, on_born, on_gone, on_counts };
	struct td_collector_stats st;
	struct td_collector *c;
	td_err err;
	int fds0 = count_fds();

	(void)state;
	spec_add(&spec, "perf::TASK-CLOCK");
	spec_add(&spec, "perf::PAGE-FAULTS");
	c = td_collector_new(&spec, 1, false, 2);
	assert_non_null(c);
	td_collector_unlisted_off(c);
	assert_int_equal(td_collector_add_process(c, getpid(), 0, &sink, &err), 0);
	assert_int_equal(seen.born, 1); /* this test runs one thread */
	td_collector_stats(c, &st);
	assert_int_equal(st.fds_open, 2); /* its group of two; with the copy, four (test_threads_lifecycle) */
	assert_false(st.unlisted_counted);
	assert_int_equal(count_fds(), fds0 + 2);
	assert_int_equal(td_collector_sample(c, td_wall_ns(), &sink), 0);
	td_collector_commit(c);
	for (int i = 0; i < MAXT; i++)
		assert_int_not_equal(seen.tids[i], -1); /* slot()'s key of TD_TID_UNLISTED: never delivered */
	td_collector_free(c);
	assert_int_equal(count_fds(), fds0);
}

static void test_no_such_process(void **state)
{
	struct td_perf_group_spec spec = { 0 };
	struct seen seen = { 0 };
	struct td_sink sink = { &seen, on_born, on_gone, on_counts };
	struct td_collector *c;
	td_err err;

	(void)state;
	spec_add(&spec, "perf::TASK-CLOCK");
	c = td_collector_new(&spec, 1, false, 2);
	pid_t gone = free_pid();
	char want[64];
	snprintf(want, sizeof(want), "no process with PID %d", (int)gone);
	assert_int_equal(td_collector_add_process(c, gone, 0, &sink, &err), -1);
	assert_non_null(strstr(err.msg, want));
	td_collector_free(c);
}

/* A sample the sink could not keep (its transaction failed): nothing is
 * committed, the handles made in it are forgotten, and the next sample
 * delivers its counts again with its own — a failed write loses no count.
 * CPU time is spent by this thread in measured spins, so the task-clock
 * deltas are known without timing anything. */
struct kept {
	uint64_t task_clock;
	int64_t store_id;
};

static int keep_counts(void *ctx, struct td_thread *t, int spec, const struct td_count *c, int n)
{
	struct kept *k = ctx;

	(void)n;
	if (spec == 0 && t->tid == (pid_t)syscall(SYS_gettid)) {
		k->task_clock = c[0].value;
		k->store_id = t->store_id;
		if (!t->store_id)
			t->store_id = 7; /* the sink's handle, made in this interval */
	}
	return 0;
}

static void spin_ms(int ms)
{
	struct timespec a, b;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &a);
	do
		clock_gettime(CLOCK_THREAD_CPUTIME_ID, &b);
	while ((b.tv_sec - a.tv_sec) * 1000000000LL + (b.tv_nsec - a.tv_nsec) < ms * 1000000LL);
}

static void test_failed_write_keeps_counts(void **state)
{
	struct td_perf_group_spec spec = { 0 };
	struct kept k = { 0 };
	struct td_sink sink = { .ctx = &k, .counts = keep_counts };
	struct td_collector *c;
	uint64_t first, both;
	td_err err;

	(void)state;
	spec_add(&spec, "perf::TASK-CLOCK");
	assert_non_null(c = td_collector_new(&spec, 1, false, 2));
	assert_int_equal(td_collector_add_process(c, getpid(), 0, &sink, &err), 0);
	assert_int_equal(td_collector_sample(c, td_wall_ns(), &sink), 0);
	td_collector_commit(c); /* baseline */

	spin_ms(20);
	assert_int_equal(td_collector_sample(c, td_wall_ns(), &sink), 0);
	first = k.task_clock;
	assert_true(first >= 15000000ull);
	assert_int_equal(k.store_id, 7); /* made in the first interval, kept by its commit */
	k.store_id = 0;
	td_collector_forget_ids(c, 6); /* the write failed: no commit; ids above 6 were made in it */

	spin_ms(20);
	assert_int_equal(td_collector_sample(c, td_wall_ns(), &sink), 0);
	both = k.task_clock;
	assert_true(both >= first + 15000000ull); /* the failed interval's 20 ms come again, with these */
	assert_int_equal(k.store_id, 0);	  /* its handle was forgotten: made again */
	td_collector_commit(c);

	spin_ms(20);
	assert_int_equal(td_collector_sample(c, td_wall_ns(), &sink), 0);
	td_collector_commit(c);
	assert_true(k.task_clock >= 15000000ull && k.task_clock < both - 10000000ull); /* from the commit on */
	td_collector_free(c);
}

/* ---- /proc switch counts: a bounded number of threads per scan, none per sample ---- */
#define SLEEPERS (2 * TD_SWITCH_READS_PER_SCAN + 3)
struct proc_seen {
	int calls;
	pid_t tids[SLEEPERS + 8];
	int ntids;
};

static int on_proc_counts(void *ctx, struct td_thread *t, int spec, const struct td_count *c, int n)
{
	struct proc_seen *s = ctx;
	int i;

	(void)n;
	if (spec != TD_SPEC_PROC)
		return 0;
	s->calls++;
	/* counted over the time between the thread's two reads: some, and exactly */
	assert_true(c[0].enabled > 0);
	assert_int_equal(c[0].running, c[0].enabled);
	for (i = 0; i < s->ntids && s->tids[i] != t->tid; i++)
		;
	if (i == s->ntids) {
		assert_true(s->ntids < SLEEPERS + 8);
		s->tids[s->ntids++] = t->tid;
	}
	return 0;
}

static void *sleeper(void *arg)
{
	(void)arg;
	while (!stop)
		usleep(2000);
	return NULL;
}

static void test_switch_reads_bounded(void **state)
{
	struct td_perf_group_spec spec;
	struct proc_seen seen = { 0 };
	struct td_sink sink = { .ctx = &seen, .counts = on_proc_counts };
	struct td_collector_stats st;
	struct td_collector *c;
	pthread_t th[SLEEPERS];
	td_err err;
	int threads;

	(void)state;
	memset(&spec, 0, sizeof(spec));
	spec_add(&spec, "perf::TASK-CLOCK");
	spec_add(&spec, "perf::PAGE-FAULTS");
	stop = 0;
	for (int i = 0; i < SLEEPERS; i++)
		assert_int_equal(pthread_create(&th[i], NULL, sleeper, NULL), 0);
	c = td_collector_new(&spec, 1, false, 2);
	assert_non_null(c);
	assert_int_equal(td_collector_add_process(c, getpid(), 0, &sink, &err), 0);
	td_collector_stats(c, &st);
	threads = st.threads_live;
	assert_true(threads >= SLEEPERS + 1); /* the sleepers and this thread */
	/* read at their birth, not again: a sample reads no /proc and delivers none */
	assert_int_equal(td_collector_sample(c, td_wall_ns(), &sink), 0);
	td_collector_commit(c);
	assert_int_equal(seen.calls, 0);
	/* each scan reads TD_SWITCH_READS_PER_SCAN threads again, the next ones in turn */
	for (int k = 1; k <= 3; k++) {
		usleep(1000);
		assert_int_equal(td_collector_scan(c, td_wall_ns(), &sink), 0);
		assert_int_equal(td_collector_sample(c, td_wall_ns(), &sink), 0);
		td_collector_commit(c);
		assert_int_equal(seen.calls, k * TD_SWITCH_READS_PER_SCAN);
		assert_int_equal(seen.ntids,
				 k * TD_SWITCH_READS_PER_SCAN < threads ? k * TD_SWITCH_READS_PER_SCAN : threads);
	}
	/* the final read takes every thread's */
	seen.calls = 0;
	usleep(1000);
	assert_int_equal(td_collector_finish(c, td_wall_ns(), &sink), 0);
	td_collector_commit(c);
	assert_int_equal(seen.calls, threads);
	stop = 1;
	for (int i = 0; i < SLEEPERS; i++)
		pthread_join(th[i], NULL);
	td_collector_free(c);
}

/* A thread born (its baseline: its birth, t = 200) after the read it is first
 * seen in was labelled (t = 150: the interval's end is taken before the
 * tracker's events are read) gets no row for that read, and its baseline
 * stays its birth: its next read (t = 300, 5 and 2 switches since birth)
 * spans 100 ns, birth to read, not 150 from the earlier label. */
static void test_switch_pair_born_after_read(void **state)
{
	struct td_switch_pair p = { .prev_ns = 200, .ns = 200 };
	struct td_count d[2];

	(void)state;
	p.ns = 150, p.have = true; /* the read labelled before the birth */
	assert_false(td_switch_pair_delta(&p, d));
	td_switch_pair_commit(&p);
	assert_int_equal(p.prev_ns, 200);
	p.ns = 300, p.last[0] = 5, p.last[1] = 2;
	assert_true(td_switch_pair_delta(&p, d));
	assert_int_equal(d[0].enabled, 100);
	assert_int_equal(d[1].running, 100);
	assert_int_equal(d[0].value, 5);
	assert_int_equal(d[1].value, 2);
	td_switch_pair_sent(&p); /* the row was delivered */
	td_switch_pair_commit(&p);
	assert_int_equal(p.prev_ns, 300);
	assert_int_equal(p.prev[0], 5);
}

/* A pair sampled several times before a commit (a failed write, a group
 * of intervals committed together): each row runs from the last one
 * delivered; what was not delivered (held back) stays for the next row,
 * across the commit; rows forgotten (their write failed) are delivered
 * again, from the commit. */
static void test_switch_pair_rows_between_commits(void **state)
{
	struct td_switch_pair p = { .prev = { 10, 1 }, .prev_ns = 1000, .have = true };
	struct td_count d[2];

	(void)state;
	p.last[0] = 14, p.last[1] = 2, p.ns = 1100;
	assert_true(td_switch_pair_delta(&p, d));
	assert_int_equal(d[0].value, 4);
	assert_int_equal(d[1].value, 1);
	assert_int_equal(d[0].enabled, 100);
	td_switch_pair_sent(&p);
	/* read again, 100 ns on, no switch: the row would be zeros over 100 ns; held back */
	p.ns = 1200;
	assert_true(td_switch_pair_delta(&p, d));
	assert_int_equal(d[0].value, 0);
	assert_int_equal(d[0].running, 100);
	td_switch_pair_commit(&p); /* what was delivered only: up to 1100 */
	assert_int_equal(p.prev_ns, 1100);
	assert_int_equal(p.prev[0], 14);
	assert_int_equal(p.prev[1], 2);
	/* the held time is in the next row: from 1100, not 1200 */
	p.last[0] = 15, p.ns = 1300;
	assert_true(td_switch_pair_delta(&p, d));
	assert_int_equal(d[0].value, 1);
	assert_int_equal(d[1].value, 0);
	assert_int_equal(d[0].enabled, 200);
	td_switch_pair_sent(&p);
	/* that row's write failed: forgotten, the next row runs from the commit at 1100 again */
	td_switch_pair_forget(&p);
	p.last[1] = 5, p.ns = 1400;
	assert_true(td_switch_pair_delta(&p, d));
	assert_int_equal(d[0].value, 1);
	assert_int_equal(d[1].value, 3);
	assert_int_equal(d[1].enabled, 300);
	td_switch_pair_sent(&p);
	td_switch_pair_commit(&p);
	assert_int_equal(p.prev_ns, 1400);
	assert_int_equal(p.prev[1], 5);
	/* nothing newer than the last row: no row */
	assert_false(td_switch_pair_delta(&p, d));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_failed_write_keeps_counts),
		cmocka_unit_test(test_threads_lifecycle),
		cmocka_unit_test(test_unlisted_off),
		cmocka_unit_test(test_no_such_process),
		cmocka_unit_test(test_switch_reads_bounded),
		cmocka_unit_test(test_switch_pair_born_after_read),
		cmocka_unit_test(test_switch_pair_rows_between_commits),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

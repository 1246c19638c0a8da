/* Unit tests for the collector with the BPF tracker, live on this process:
 * a thread born, renamed and gone between two scans is listed — gone, under
 * the name it gave itself — with the CPU time the kernel accounted to it
 * (compared with what the thread measured of itself), where the /proc
 * tracker does not see it at all; the same with BPF counting, whose
 * object then holds the tracker's programs (one load for both). Skips
 * where BPF does not load. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "collect/collector.h"
#include "machine/encode.h"

struct seen {
	pid_t tid; /* the thread to watch */
	int born, gone;
	char comm[32];
	uint64_t task_clock, switches, runs; /* spec 0 as delivered for it */
};

static int on_born(void *ctx, struct td_thread *t)
{
	struct seen *s = ctx;
	s->born += t->tid == s->tid;
	return 0;
}

static int on_gone(void *ctx, struct td_thread *t)
{
	struct seen *s = ctx;
	if (t->tid == s->tid) {
		s->gone++;
		snprintf(s->comm, sizeof(s->comm), "%s", t->comm);
	}
	return 0;
}

static int on_counts(void *ctx, struct td_thread *t, int spec, const struct td_count *c, int n)
{
	struct seen *s = ctx;
	if (t->tid == s->tid && spec == 0) {
		assert_int_equal(n, 2);
		s->task_clock += c[0].value;
		s->switches += c[1].value;
		s->runs += c[0].running;
	}
	return 0;
}

static uint64_t thread_cpu_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

struct brief {
	pid_t tid;
	uint64_t cpu_ns; /* its CPU time just before it ends, as it measured it */
};

/* 5 ms of CPU, a 1 ms sleep (the scheduler accounts the run when it is
 * switched out), its own CPU time, a new name, and the end. */
static void *brief(void *arg)
{
	struct brief *b = arg;
	struct timespec ms = { 0, 1000000 };
	uint64_t start = thread_cpu_ns();

	b->tid = (pid_t)syscall(SYS_gettid);
	while (thread_cpu_ns() - start < 5000000)
		;
	nanosleep(&ms, NULL);
	b->cpu_ns = thread_cpu_ns();
	pthread_setname_np(pthread_self(), "brief-one");
	return NULL;
}

static void wait_gone(pid_t tid)
{
	char path[64];
	struct timespec ms = { 0, 1000000 };

	snprintf(path, sizeof(path), "/proc/self/task/%d", (int)tid);
	for (int i = 0; i < 5000 && access(path, F_OK) == 0; i++)
		nanosleep(&ms, NULL);
	assert_int_not_equal(access(path, F_OK), 0);
}

static void spec_add(struct td_perf_group_spec *s, const char *ev)
{
	struct td_encoding enc;
	td_err err;
	assert_int_equal(td_encode(ev, NULL, geteuid() == 0, &enc, &err), 0);
	assert_int_equal(td_perf_group_spec_add(s, ev, &enc.attr), 0);
}

/* counting: BPF counting set first (td_collector_plan_tracker), as a session does. */
static struct td_collector *collector_counting(enum td_tracker_mode mode, bool counting, const struct td_sink *sink)
{
	struct td_perf_group_spec spec;
	struct td_collector *c;
	td_err err;

	memset(&spec, 0, sizeof(spec));
	spec_add(&spec, "perf::TASK-CLOCK");
	spec_add(&spec, "perf::CONTEXT-SWITCHES");
	assert_non_null(c = td_collector_new(&spec, 1, false, 2));
	td_collector_plan_tracker(c, mode);
	if (counting && td_collector_set_counting(c, TD_COUNTING_AUTO, 1024, &err))
		fail_msg("%s", err.msg);
	if (td_collector_set_tracker(c, mode, &err))
		fail_msg("%s", err.msg);
	if (td_collector_add_process(c, getpid(), 0, sink, &err))
		fail_msg("%s", err.msg);
	/* a first sample and commit: the roots are read before the thread is born */
	assert_int_equal(td_collector_sample(c, td_wall_ns(), sink), 0);
	td_collector_commit(c);
	return c;
}

static struct td_collector *collector(enum td_tracker_mode mode, const struct td_sink *sink)
{
	return collector_counting(mode, false, sink);
}

static void test_brief_thread_listed(void **state)
{
	struct seen bpf_seen = { 0 }, proc_seen = { 0 };
	struct td_sink bpf_sink = { &bpf_seen, on_born, on_gone, on_counts };
	struct td_sink proc_sink = { &proc_seen, on_born, on_gone, on_counts };
	struct td_collector *bpf = collector(TD_TRACKER_BPF, &bpf_sink);
	struct td_collector *proc = collector(TD_TRACKER_PROC, &proc_sink);
	struct td_collector_stats st;
	struct brief b = { 0 };
	pthread_t th;

	(void)state;
	assert_int_equal(pthread_create(&th, NULL, brief, &b), 0);
	pthread_join(th, NULL);
	wait_gone(b.tid);
	bpf_seen.tid = proc_seen.tid = b.tid;
	for (int i = 0; i < 2; i++) {
		assert_int_equal(td_collector_scan(bpf, td_wall_ns(), &bpf_sink), 0);
		assert_int_equal(td_collector_scan(proc, td_wall_ns(), &proc_sink), 0);
		assert_int_equal(td_collector_sample(bpf, td_wall_ns(), &bpf_sink), 0);
		assert_int_equal(td_collector_sample(proc, td_wall_ns(), &proc_sink), 0);
		td_collector_commit(bpf);
		td_collector_commit(proc);
	}
	/* the /proc rescan never saw it */
	assert_int_equal(proc_seen.born + proc_seen.gone, 0);
	/* BPF: listed, gone, under its own name, with the kernel's count of its CPU time */
	assert_int_equal(bpf_seen.born, 1);
	assert_int_equal(bpf_seen.gone, 1);
	assert_string_equal(bpf_seen.comm, "brief-one");
	assert_true(bpf_seen.task_clock + 500000 >= b.cpu_ns); /* within 0.5 ms below what it measured ... */
	assert_true(bpf_seen.task_clock <= b.cpu_ns + 500000); /* ... or above (its last instructions) */
	assert_true(bpf_seen.switches >= 1);		       /* the sleep */
	assert_true(bpf_seen.runs >= bpf_seen.task_clock);     /* counted all its life */
	td_collector_stats(bpf, &st);
	assert_int_equal(st.threads_short, 1);
	assert_int_equal(st.tracker_lost, 0);
	/* no counting program loaded: the tracker loaded its own */
	assert_null(strstr(td_collector_tracker(bpf), "counting"));
	td_collector_free(bpf);
	td_collector_free(proc);
}

/* BPF counting loaded first with the tracker's programs: the tracker takes
 * them (it says so) and still sees the brief thread, born, renamed, gone. */
static void test_one_object(void **state)
{
	struct seen seen = { 0 };
	struct td_sink sink = { &seen, on_born, on_gone, on_counts };
	struct td_collector *c = collector_counting(TD_TRACKER_BPF, true, &sink);
	struct brief b = { 0 };
	pthread_t th;

	(void)state;
	if (!td_collector_counting_bpf(c)) { /* the tracker loads here, the counting program not */
		td_collector_free(c);
		skip();
	}
	assert_non_null(strstr(td_collector_tracker(c), "; loaded with the counting program)"));
	assert_int_equal(pthread_create(&th, NULL, brief, &b), 0);
	pthread_join(th, NULL);
	wait_gone(b.tid);
	seen.tid = b.tid;
	for (int i = 0; i < 2; i++) {
		assert_int_equal(td_collector_scan(c, td_wall_ns(), &sink), 0);
		assert_int_equal(td_collector_sample(c, td_wall_ns(), &sink), 0);
		td_collector_commit(c);
	}
	assert_int_equal(seen.born, 1);
	assert_int_equal(seen.gone, 1);
	assert_string_equal(seen.comm, "brief-one");
	td_collector_free(c);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_brief_thread_listed),
		cmocka_unit_test(test_one_object),
	};
	td_err why = { "" };

	if (!td_tracker_bpf_probe(&why)) {
		printf("1..0 # SKIP the BPF tracker does not load here: %s\n", why.msg);
		return 0;
	}
	return cmocka_run_group_tests(tests, NULL, NULL);
}

/* test_live_metrics: metric values computed while collecting — scaling per
 * event, per-process aggregates summed before evaluation, and confidence
 * from running/enabled with the rule for formulas spanning groups; what a
 * burst of threads in one interval allocated is given back. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <malloc.h>
#include <math.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "session/live_metrics.h"
#include "store/store.h"

static char dir[64], db[128], td[128];

static const char model_text[] = "pmu perf\n"
				 "title test\n"
				 "event A perf::TASK-CLOCK | a\n"
				 "event B perf::PAGE-FAULTS | b\n"
				 "event C perf::CPU-MIGRATIONS | c\n"
				 "info X Metric = A / B | same group\n"
				 "info Y Metric = A / C | two groups\n"
				 "info R Rate = B / DURATION | per second\n";

static int setup(void **state)
{
	FILE *f;

	(void)state;
	snprintf(dir, sizeof(dir), "/tmp/td-live-XXXXXX");
	if (!mkdtemp(dir))
		return -1;
	snprintf(db, sizeof(db), "%s/t.db", dir);
	snprintf(td, sizeof(td), "%s/t.td", dir);
	if (!(f = fopen(td, "w")))
		return -1;
	fputs(model_text, f);
	return fclose(f);
}

static int teardown(void **state)
{
	char cmd[128];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	return system(cmd);
}

static const struct td_session_info info = { .kind = "run", .command = "t", .interval_ms = 1000 };

#define GOT_MAX 32

struct got {
	char name[GOT_MAX][16];
	int64_t target[GOT_MAX];
	double value[GOT_MAX], conf[GOT_MAX];
	bool spans[GOT_MAX];
	int n;
};

static int collect(const struct td_metric_row *m, void *ctx)
{
	struct got *g = ctx;

	assert_true(g->n < GOT_MAX);
	snprintf(g->name[g->n], sizeof(g->name[0]), "%s", m->name);
	g->target[g->n] = m->target;
	g->value[g->n] = m->value;
	g->conf[g->n] = m->confidence;
	g->spans[g->n] = m->spans;
	g->n++;
	return 0;
}

static bool find(const struct got *g, int64_t target, const char *name, double *v, double *c)
{
	for (int i = 0; i < g->n; i++)
		if (g->target[i] == target && !strcmp(g->name[i], name)) {
			*v = g->value[i];
			*c = g->conf[i];
			return g->spans[i];
		}
	fail_msg("no %s for target %lld", name, (long long)target);
	return false;
}

static struct td_live *open_live_as(struct td_store **s, int64_t *sess, int64_t *iv, int *file, bool each_target)
{
	struct td_live *l;
	td_err err;

	unlink(db);
	assert_int_equal(td_store_open(db, TD_STORE_WRITE, s, &err), 0);
	assert_true((*sess = td_store_session_begin(*s, &info, &err)) > 0);
	assert_non_null(l = td_live_new(*s, *sess, -1, 2, each_target));
	*file = td_live_add_file(l, td, 2, &err);
	assert_int_equal(*file, 0);
	assert_int_equal(td_store_begin(*s), 0);
	*iv = td_store_interval_add(*s, *sess, 0, 1000, 2000);
	return l;
}

/* As with --thread-metrics: every thread's values are stored too. */
static struct td_live *open_live(struct td_store **s, int64_t *sess, int64_t *iv, int *file)
{
	return open_live_as(s, sess, iv, file, true);
}

static void test_spanning_confidence(void **state)
{
	struct td_store *s;
	struct td_live *l;
	int64_t sess, iv, th;
	int file;
	struct got g = { 0 };
	double v, c;

	(void)state;
	l = open_live(&s, &sess, &iv, &file);
	th = td_store_thread_add(s, sess, 10, 10, "t", 1000);
	/* A and B in group 0, counted half the time; C in group 1, 40 % */
	assert_int_equal(td_live_count(l, file, th, 10, 10, "t", 0, 0, &(struct td_count){ 300, 100, 50 }), 0);
	assert_int_equal(td_live_count(l, file, th, 10, 10, "t", 1, 0, &(struct td_count){ 100, 100, 50 }), 0);
	assert_int_equal(td_live_count(l, file, th, 10, 10, "t", 2, 1, &(struct td_count){ 40, 100, 40 }), 0);
	assert_int_equal(td_live_flush(l, iv, 0, 0.5), 0);
	assert_int_equal(td_store_commit(s), 0);
	assert_int_equal(td_live_spanning(l), 1);
	assert_int_equal(td_store_metrics(s, sess, collect, &g), 0);
	assert_false(find(&g, th, "X", &v, &c));
	assert_true(fabs(v - 3.0) < 1e-12);	/* 600 / 200 */
	assert_true(fabs(c - 0.5) < 1e-12);	/* one group: its coverage */
	assert_true(find(&g, th, "Y", &v, &c)); /* stored as spanning */
	assert_true(fabs(v - 6.0) < 1e-12);	/* 600 / 100 */
	assert_true(fabs(c - 0.2) < 1e-12);	/* two groups: 0.5 * 0.4 */
	find(&g, th, "R", &v, &c);
	assert_true(fabs(v - 400.0) < 1e-9); /* 200 faults in 0.5 s */
	td_live_free(l);
	td_store_close(s);
}

/* One process of two threads (main: A 10, B 10 fully counted; worker: A
 * 30, B 72 counted 80 %) flushed, and the stored values read back. */
static void two_threads(struct td_live *l, struct td_store *s, int64_t sess, int64_t iv, int file, int64_t *t1,
			int64_t *t2, struct got *g)
{
	*t1 = td_store_thread_add(s, sess, 10, 10, "main", 1000);
	*t2 = td_store_thread_add(s, sess, 10, 11, "worker", 1000);
	td_live_count(l, file, *t1, 10, 10, "main", 0, 0, &(struct td_count){ 10, 100, 100 });
	td_live_count(l, file, *t1, 10, 10, "main", 1, 0, &(struct td_count){ 10, 100, 100 });
	td_live_count(l, file, *t2, 10, 11, "worker", 0, 0, &(struct td_count){ 30, 100, 80 });
	td_live_count(l, file, *t2, 10, 11, "worker", 1, 0, &(struct td_count){ 72, 100, 80 });
	assert_int_equal(td_live_flush(l, iv, 0, 1.0), 0);
	assert_int_equal(td_store_commit(s), 0);
	assert_int_equal(td_store_metrics(s, sess, collect, g), 0);
}

static void test_process_sums_first(void **state)
{
	struct td_store *s;
	struct td_live *l;
	int64_t sess, iv, t1, t2, proc = 0;
	int file;
	struct got g = { 0 };
	double v, c;

	(void)state;
	l = open_live(&s, &sess, &iv, &file);
	two_threads(l, s, sess, iv, file, &t1, &t2, &g);
	for (int i = 0; i < g.n; i++)
		if (g.target[i] != t1 && g.target[i] != t2)
			proc = g.target[i];
	assert_true(proc > 0);
	find(&g, t2, "X", &v, &c);
	assert_true(fabs(v - 30.0 / 72.0) < 1e-12);
	assert_true(fabs(c - 0.8) < 1e-12);
	/* process: (10 + 37.5) / (10 + 90) — counts summed, then the ratio */
	find(&g, proc, "X", &v, &c);
	assert_true(fabs(v - 47.5 / 100.0) < 1e-12);
	assert_true(fabs(c - 0.8) < 1e-12); /* least coverage over its threads */
	assert_int_equal(td_live_spanning(l), 0);
	td_live_free(l);
	td_store_close(s);
}

/* By default only the process's values are stored each interval (a
 * thread's come from its counts when read): 3 metrics, all of one
 * target that is neither thread, with the same values as above. */
static void test_default_stores_processes_only(void **state)
{
	struct td_store *s;
	struct td_live *l;
	int64_t sess, iv, t1, t2;
	int file;
	struct got g = { 0 };
	double v, c;

	(void)state;
	l = open_live_as(&s, &sess, &iv, &file, false);
	two_threads(l, s, sess, iv, file, &t1, &t2, &g);
	assert_int_equal(g.n, 3);
	for (int i = 0; i < g.n; i++) {
		assert_true(g.target[i] != t1 && g.target[i] != t2);
		assert_true(g.target[i] == g.target[0]);
	}
	find(&g, g.target[0], "X", &v, &c);
	assert_true(fabs(v - 47.5 / 100.0) < 1e-12);
	assert_true(fabs(c - 0.8) < 1e-12);
	td_live_free(l);
	td_store_close(s);
}

/* The planner carries an event into every group that needs it (fixed
 * counters): each formula then reads the copy counted in its own group's
 * time window, never a mix, and is not spanning. */
static void test_event_in_two_groups(void **state)
{
	struct td_store *s;
	struct td_live *l;
	int64_t sess, iv, th;
	int file;
	struct got g = { 0 };
	double v, c;

	(void)state;
	l = open_live(&s, &sess, &iv, &file);
	th = td_store_thread_add(s, sess, 10, 10, "t", 1000);
	/* group 0: A, B counted half the time; group 1: A, C counted 40 % */
	td_live_count(l, file, th, 10, 10, "t", 0, 0, &(struct td_count){ 300, 100, 50 });
	td_live_count(l, file, th, 10, 10, "t", 1, 0, &(struct td_count){ 100, 100, 50 });
	td_live_count(l, file, th, 10, 10, "t", 0, 1, &(struct td_count){ 500, 100, 40 });
	td_live_count(l, file, th, 10, 10, "t", 2, 1, &(struct td_count){ 40, 100, 40 });
	assert_int_equal(td_live_flush(l, iv, 0, 1.0), 0);
	assert_int_equal(td_store_commit(s), 0);
	assert_int_equal(td_store_metrics(s, sess, collect, &g), 0);
	assert_false(find(&g, th, "X", &v, &c));
	assert_true(fabs(v - 600.0 / 200.0) < 1e-12); /* group 0's A and B */
	assert_true(fabs(c - 0.5) < 1e-12);
	assert_false(find(&g, th, "Y", &v, &c));
	assert_true(fabs(v - 1250.0 / 100.0) < 1e-12); /* group 1's A and C, not the mean of the two A */
	assert_true(fabs(c - 0.4) < 1e-12);
	assert_int_equal(td_live_spanning(l), 0);
	td_live_free(l);
	td_store_close(s);
}

/* 1,000 threads whose counts come target by target, not grouped by thread
 * (each alias for all threads, the second pass backwards): each count
 * lands in its own thread's sums, every interval anew. Process X = sum of
 * A / sum of B: (1 + ... + 1000) / 1000; the next interval's two threads
 * only: (10 + 10) / (4 + 4). */
static void test_many_targets_interleaved(void **state)
{
	enum {
		N = 1000
	};
	static int64_t th[N];
	struct td_store *s;
	struct td_live *l;
	int64_t sess, iv, proc = 0;
	int file;
	struct got g = { 0 };
	double v, c;

	(void)state;
	l = open_live_as(&s, &sess, &iv, &file, false);
	for (int i = 0; i < N; i++)
		th[i] = td_store_thread_add(s, sess, 10, 11 + i, "w", 1000);
	for (int i = 0; i < N; i++)
		assert_int_equal(td_live_count(l, file, th[i], 10, 11 + i, "w", 0, 0,
					       &(struct td_count){ (uint64_t)i + 1, 100, 100 }),
				 0);
	for (int i = N - 1; i >= 0; i--)
		assert_int_equal(
			td_live_count(l, file, th[i], 10, 11 + i, "w", 1, 0, &(struct td_count){ 1, 100, 100 }), 0);
	assert_int_equal(td_live_flush(l, iv, 0, 1.0), 0);
	assert_int_equal(td_store_metrics(s, sess, collect, &g), 0);
	assert_int_equal(g.n, 3);
	proc = g.target[0];
	find(&g, proc, "X", &v, &c);
	assert_true(fabs(v - 500500.0 / 1000.0) < 1e-9);
	assert_true(fabs(c - 1.0) < 1e-12);

	int64_t iv2 = td_store_interval_add(s, sess, 1, 2000, 3000);
	for (int k = 0; k < 2; k++) {
		int i = k ? 700 : 3;
		assert_int_equal(td_live_count(l, file, th[i], 10, 11 + i, "w", 0, 0, &(struct td_count){ 10, 50, 50 }),
				 0);
	}
	for (int k = 0; k < 2; k++) {
		int i = k ? 3 : 700;
		assert_int_equal(td_live_count(l, file, th[i], 10, 11 + i, "w", 1, 0, &(struct td_count){ 4, 50, 50 }),
				 0);
	}
	assert_int_equal(td_live_flush(l, iv2, 1, 1.0), 0);
	assert_int_equal(td_store_commit(s), 0);
	memset(&g, 0, sizeof(g));
	assert_int_equal(td_store_metrics(s, sess, collect, &g), 0);
	assert_int_equal(g.n, 6);
	for (int i = 0; i < g.n; i++)
		assert_true(g.target[i] == proc);
	assert_true(!strcmp(g.name[3], "X") || !strcmp(g.name[4], "X") || !strcmp(g.name[5], "X"));
	for (int i = 3; i < 6; i++)
		if (!strcmp(g.name[i], "X"))
			assert_true(fabs(g.value[i] - 20.0 / 8.0) < 1e-12);
	td_live_free(l);
	td_store_close(s);
}

#if defined(__SANITIZE_ADDRESS__)
#define UNDER_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define UNDER_ASAN 1
#endif
#endif
#ifdef UNDER_ASAN
size_t __sanitizer_get_current_allocated_bytes(
	void); /* sanitizer/allocator_interface.h, not installed with every compiler */
#endif

/* The process's anonymous resident memory (heap and stacks), kB. */
static long rss_anon_kb(void)
{
	FILE *f = fopen("/proc/self/status", "r");
	char line[256];
	long kb = -1;

	assert_non_null(f);
	while (kb < 0 && fgets(line, sizeof(line), f))
		sscanf(line, "RssAnon: %ld", &kb);
	fclose(f);
	assert_true(kb >= 0);
	return kb;
}

/* Bytes of the heap in use outside SQLite's own allocations: glibc's count,
 * or the sanitizer's when its allocator replaces glibc's. */
static long long heap_used(void)
{
#ifdef UNDER_ASAN
	long long used = (long long)__sanitizer_get_current_allocated_bytes();
#else
	long long used = (long long)mallinfo2().uordblks;
#endif
	return used - sqlite3_memory_used();
}

/* One interval of threads first..first+n-1 of process 10, each counted A, B, C. */
static void one_interval(struct td_live *l, struct td_store *s, int64_t sess, int file, int seq, int64_t first, int n)
{
	int64_t iv;

	assert_int_equal(td_store_begin(s), 0);
	iv = td_store_interval_add(s, sess, seq, 1000 + seq * 100, 1100 + seq * 100);
	for (int64_t th = first; th < first + n; th++)
		for (int a = 0; a < 3; a++)
			assert_int_equal(td_live_count(l, file, th, 10, (pid_t)th, "t", a, a == 2,
						       &(struct td_count){ 100, 100, 100 }),
					 0);
	assert_int_equal(td_live_flush(l, iv, seq, 0.1), 0);
	assert_int_equal(td_store_commit(s), 0);
}

/* Threads come and go (a new set each interval, as with 1,000 thread births
 * a second): what the session holds follows the threads of the current
 * interval, not every thread ever seen, and a burst of 4,096 threads in one
 * interval (a sampler held up while threads churn) is given back once the
 * intervals are small again. Measured with the allocator's count of bytes in
 * use, SQLite's own taken out (its page cache grows with the database). */
#define BURST 4096
static void test_burst_given_back(void **state)
{
	struct td_store *s;
	struct td_live *l;
	int64_t sess, iv, next = 100;
	int file, seq = 0;
	long long base, burst, after, churned;
	long rss_base, rss_burst, rss_after;
	void *probe[64];

	(void)state;
	/* the premise: the count sees this program's allocations */
	base = heap_used();
	for (int i = 0; i < 64; i++)
		probe[i] = malloc(1024);
	burst = heap_used() - base;
	for (int i = 0; i < 64; i++)
		free(probe[i]);
	if (burst < 32 * 1024) /* not exactly 64 kB: the count moves by chunks and their headers, not requests */
		fail_msg("64 allocations of 1 kB added %lld bytes to the heap's count: the count does not measure this "
			 "program (a sanitizer other than ASan replacing malloc?)",
			 burst);
	l = open_live_as(&s, &sess, &iv, &file, false);
	assert_int_equal(td_store_commit(s), 0);
	for (int i = 0; i < 20; i++, next += 16)
		one_interval(l, s, sess, file, ++seq, next, 16);
	base = heap_used();
	rss_base = rss_anon_kb();
	for (int i = 0; i < 200; i++, next += 16)
		one_interval(l, s, sess, file, ++seq, next, 16);
	churned = heap_used() - base;
	one_interval(l, s, sess, file, ++seq, next, BURST);
	next += BURST;
	burst = heap_used() - base;
	rss_burst = rss_anon_kb();
	for (int i = 0; i < 20; i++, next += 16)
		one_interval(l, s, sess, file, ++seq, next, 16);
	after = heap_used() - base;
	rss_after = rss_anon_kb();
	print_message(
		"heap over the base: %lld bytes after 3,200 threads in 200 intervals, %lld with %d threads in one, "
		"%lld 20 intervals later\n",
		churned, burst, BURST, after);
	/* 3,200 threads born and gone: not even 8 bytes kept for each */
	assert_true(churned < 3200 * 8);
	/* the burst's threads took at least their counts: 3 aliases x 2 groups x (2 doubles + an int) each */
	assert_true(burst >= (long long)BURST * 6 * 20);
	/* and gave back all but 1 % of it */
	assert_true(after < burst / 100);
	print_message("anonymous RSS: %ld kB before the burst, %ld kB with it, %ld kB 20 intervals later\n", rss_base,
		      rss_burst, rss_after);
#if defined(__GLIBC__) && !defined(UNDER_ASAN)
	/* to the system, too: glibc keeps freed pages unless trimmed (ASan's allocator has its own policy) */
	assert_true(rss_burst - rss_base >= 300);
	assert_true(rss_after - rss_base < (rss_burst - rss_base) / 4);
#endif
	td_live_free(l);
	td_store_close(s);
}

/* A burst of twice the usual targets (a sampler held up 400 ms while 1,000
 * threads a second are born: 700 targets where 350 is usual) is given back
 * at the next usual interval, not kept because the usual interval still uses
 * more than a quarter of what the burst grew. */
static void test_double_burst_given_back(void **state)
{
	struct td_store *s;
	struct td_live *l;
	int64_t sess, iv, next = 100;
	int file, seq = 0;
	long long base, burst, after;

	(void)state;
	l = open_live_as(&s, &sess, &iv, &file, false);
	assert_int_equal(td_store_commit(s), 0);
	for (int i = 0; i < 20; i++, next += 350)
		one_interval(l, s, sess, file, ++seq, next, 350);
	base = heap_used();
	one_interval(l, s, sess, file, ++seq, next, 700);
	next += 700;
	burst = heap_used() - base;
	for (int i = 0; i < 5; i++, next += 350)
		one_interval(l, s, sess, file, ++seq, next, 350);
	after = heap_used() - base;
	print_message("heap over 350 threads an interval: %lld bytes with 700 in one, %lld 5 intervals later\n", burst,
		      after);
	assert_true(burst >= 350LL * 6 * 20); /* the 350 more threads' counts at least */
	assert_true(after < burst / 100);
	td_live_free(l);
	td_store_close(s);
}

/* The interval's rows of one metric: (target, value) in row order. */
struct rows_of {
	const char *name;
	int64_t interval;
	int64_t target[8];
	double value[8];
	int n;
};

static int keep_rows_of(const struct td_metric_row *m, void *ctx)
{
	struct rows_of *r = ctx;

	if (m->interval != r->interval || strcmp(m->name, r->name))
		return 0;
	assert_true(r->n < 8);
	r->target[r->n] = m->target;
	r->value[r->n++] = m->value;
	return 0;
}

/* A file that no target counted for in an interval (soft-tree.td's groups in
 * the final read, when only the unlisted remainder's software group came) is
 * evaluated for the targets the other files had, every value n/a, as
 * analysis/session_counts.c hands such an interval's targets over to recompute
 * and reports (eval_same.sh: 10 values recomputed, none stored). In an interval
 * where some target counted for the file, a target it has no counts of is left
 * out there, and here. */
static void test_file_without_counts_handed_targets(void **state)
{
	static const char other_text[] = "pmu perf\n"
					 "title other\n"
					 "event A perf::TASK-CLOCK | a\n"
					 "event B perf::PAGE-FAULTS | b\n"
					 "info Z Metric = A / B | the other file's\n";
	char other[160];
	struct td_store *s;
	struct td_live *l;
	int64_t sess, iv0, iv1, th, rest;
	int file, file2;
	td_err err;
	FILE *f;

	(void)state;
	snprintf(other, sizeof(other), "%s/other.td", dir);
	assert_non_null(f = fopen(other, "w"));
	fputs(other_text, f);
	assert_int_equal(fclose(f), 0);
	l = open_live(&s, &sess, &iv0, &file);
	assert_int_equal(file2 = td_live_add_file(l, other, 1, &err), 1);
	th = td_store_thread_add(s, sess, 10, 11, "worker", 1000);
	rest = td_store_thread_add(s, sess, 10, 0, "(unlisted)", 1000);
	/* interval 0: the worker counts for both files, the remainder for the first only */
	td_live_count(l, file, th, 10, 11, "worker", 0, 0, &(struct td_count){ 30, 100, 100 });
	td_live_count(l, file, th, 10, 11, "worker", 1, 0, &(struct td_count){ 60, 100, 100 });
	td_live_count(l, file2, th, 10, 11, "worker", 0, 0, &(struct td_count){ 30, 100, 100 });
	td_live_count(l, file2, th, 10, 11, "worker", 1, 0, &(struct td_count){ 60, 100, 100 });
	td_live_count(l, file, rest, 10, 0, "(unlisted)", 0, 0, &(struct td_count){ 5, 100, 100 });
	td_live_count(l, file, rest, 10, 0, "(unlisted)", 1, 0, &(struct td_count){ 5, 100, 100 });
	assert_int_equal(td_live_flush(l, iv0, 0, 1.0), 0);
	assert_int_equal(td_store_commit(s), 0);
	/* interval 1: the worker is gone; the remainder counts for the first file only */
	assert_int_equal(td_store_begin(s), 0);
	iv1 = td_store_interval_add(s, sess, 1, 2000, 3000);
	td_live_count(l, file, rest, 10, 0, "(unlisted)", 0, 0, &(struct td_count){ 8, 100, 100 });
	td_live_count(l, file, rest, 10, 0, "(unlisted)", 1, 0, &(struct td_count){ 4, 100, 100 });
	assert_int_equal(td_live_flush(l, iv1, 1, 1.0), 0);
	assert_int_equal(td_store_commit(s), 0);

	struct rows_of z0 = { .name = "Z", .interval = iv0 }, z1 = { .name = "Z", .interval = iv1 };
	struct rows_of x1 = { .name = "X", .interval = iv1 };
	assert_int_equal(td_store_metrics(s, sess, keep_rows_of, &z0), 0);
	assert_int_equal(td_store_metrics(s, sess, keep_rows_of, &z1), 0);
	assert_int_equal(td_store_metrics(s, sess, keep_rows_of, &x1), 0);
	/* interval 0: the worker's 30 / 60 and its process's; the remainder left out */
	assert_int_equal(z0.n, 2);
	assert_int_equal(z0.target[0], th);
	assert_true(fabs(z0.value[0] - 0.5) < 1e-12);
	assert_true(z0.target[1] != th && z0.target[1] != rest);
	assert_true(fabs(z0.value[1] - 0.5) < 1e-12);
	/* interval 1: the first file measured the remainder (8 / 4) */
	assert_int_equal(x1.n, 2);
	assert_true(fabs(x1.value[0] - 2.0) < 1e-12);
	/* the other file: the remainder and its process, n/a (never a number) */
	assert_int_equal(z1.n, 2);
	assert_int_equal(z1.target[0], rest);
	assert_true(isnan(z1.value[0]));
	assert_int_equal(z1.target[1], z0.target[1]); /* the same process */
	assert_true(isnan(z1.value[1]));
	td_live_free(l);
	td_store_close(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_spanning_confidence),
		cmocka_unit_test(test_process_sums_first),
		cmocka_unit_test(test_default_stores_processes_only),
		cmocka_unit_test(test_event_in_two_groups),
		cmocka_unit_test(test_many_targets_interleaved),
		cmocka_unit_test(test_burst_given_back),
		cmocka_unit_test(test_double_burst_given_back),
		cmocka_unit_test(test_file_without_counts_handed_targets),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}

/* Unit tests for store_downsample: which buckets of a session are due
 * (their next bucket over too, from a seq on, at most so many), which can
 * be merged (no count missing — outside BPF counting each interval with
 * rows and no target without one between two it has; each target the same
 * perf-group events in each of its intervals; no change decided on one of
 * them), and
 * what merging the due ones leaves: one interval from the first start to the last end,
 * per target and event the sums of the values, enabled and running times
 * (worked out here by hand from the numbers written), the costs summed or
 * NULL when one is not known, the metric values gone, hot samples moved,
 * nothing handed to an observer. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <stdbool.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tmp_dir.h"
#include "store/store.h"

static char dir[64], path[128];

static int setup(void **state)
{
	(void)state;
	if (tmp_dir_make(dir, sizeof(dir), "downsample"))
		return -1;
	snprintf(path, sizeof(path), "%s/t.db", dir);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	return tmp_dir_remove(dir);
}

static const struct td_session_info info = {
	.kind = "attach",
	.command = "watch",
	.target_pid = 42,
	.host = "h",
	.kernel = "k",
	.cpu_vendor = "v",
	.cpu_name = "n",
	.uarch = "Zen 4",
	.pmu_model = "",
	.rung = "software-only",
	.rung_reason = "why",
	.events_file = "",
	.interval_ms = 250,
	.kernel_counted = true,
};

/* One value of the database through a connection of its own (not the store's reading). */
static int64_t sql_int(const char *sql)
{
	sqlite3 *db;
	sqlite3_stmt *st;
	int64_t n = -1;

	assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
	assert_int_equal(sqlite3_prepare_v2(db, sql, -1, &st, NULL), SQLITE_OK);
	if (sqlite3_step(st) == SQLITE_ROW)
		n = sqlite3_column_type(st, 0) == SQLITE_NULL ? -2 : sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	sqlite3_close(db);
	return n;
}

static int observed;

static void observe(void *ctx, struct td_store *s, const struct td_committed_counts *c)
{
	(void)ctx;
	(void)s;
	(void)c;
	observed++;
}

/* The session: events 0 and 1 one perf group, event 2 /proc's (group -1);
 * threads A (from the start) and B (born in the second interval); 250 ns
 * intervals from 0, bucket width 1000:
 *   bucket 0 (seq 0-3): A: ev0 = 10*(k+1), ev1 = 100*(k+1), enabled 250,
 *     running 200; B from seq 1: ev0 = 1, ev1 = 2, enabled 250, running
 *     250; /proc's ev2 for A in seq 1 and 3 only (5 and 7); costs 1000+k,
 *     reads 3, calls 2;
 *   bucket 1 (seq 4-7): A: ev0 = 1, ev1 = 2, 250/250; seq 6's calls not known;
 *   bucket 2 (seq 8-9): seq 9's read of A lost ev1 (ev0 alone);
 *   bucket 3 (seq 12-15): a change decided on seq 13-14;
 *   bucket 4 (seq 16-17): not over. */
static int64_t sess, thr_a, thr_b, ev[3];

static void add(struct td_store *s, int seq, int64_t *iv)
{
	*iv = td_store_interval_add(s, sess, seq, (uint64_t)seq * 250, (uint64_t)seq * 250 + 250);
	assert_true(*iv > 0);
}

static void build(void)
{
	struct td_store *s;
	td_err err;
	int64_t iv, m;

	unlink(path);
	assert_int_equal(td_store_open(path, TD_STORE_WRITE, &s, &err), 0);
	assert_true((sess = td_store_session_begin(s, &info, &err)) > 0);
	assert_int_equal(td_store_begin(s), 0);
	ev[0] = td_store_event_add(s, sess, "E0", "perf::E0", 0, 1, 0, "counting", NULL, "software.td");
	ev[1] = td_store_event_add(s, sess, "E1", "perf::E1", 0, 1, 1, "counting", NULL, "software.td");
	ev[2] = td_store_event_add(s, sess, "VOL", "proc", -1, 1, 2, "counting", NULL, "proc");
	thr_a = td_store_thread_add(s, sess, 42, 42, "a", 0);
	thr_b = td_store_thread_add(s, sess, 42, 43, "b", 250);
	m = td_store_metric_id(s, "CPU_Time", "info");
	assert_true(ev[0] > 0 && ev[1] > 0 && ev[2] > 0 && thr_a > 0 && thr_b > 0 && m > 0);
	assert_int_equal(ev[1], ev[0] + 1);
	for (int k = 0; k < 4; k++) {
		struct td_store_count a[] = { { ev[0], 10 * (uint64_t)(k + 1), 250, 200 },
					      { ev[1], 100 * (uint64_t)(k + 1), 250, 200 } };
		struct td_store_count b[] = { { ev[0], 1, 250, 250 }, { ev[1], 2, 250, 250 } };
		add(s, k, &iv);
		assert_int_equal(td_store_counts_add(s, iv, thr_a, a, 2), 0);
		if (k)
			assert_int_equal(td_store_counts_add(s, iv, thr_b, b, 2), 0);
		if (k == 1 || k == 3)
			assert_int_equal(td_store_count_add(s, iv, thr_a, ev[2], (uint64_t)(k + 4), 500, 500), 0);
		assert_int_equal(td_store_interval_cost(s, iv, 1000 + (uint64_t)k, 3, 2), 0);
		assert_int_equal(td_store_metric_add(s, iv, thr_a, m, 0.5, NAN, false, false, false), 0);
		struct td_hot_row h = { .pid = 42, .tid = 42, .function = "f", .module = "m", .count = 1 };
		if (k == 2)
			assert_int_equal(td_store_hot_add(s, sess, iv, &h), 0);
	}
	for (int k = 4; k < 18; k++) {
		struct td_store_count a[] = { { ev[0], 1, 250, 250 }, { ev[1], 2, 250, 250 } };
		if (k == 10 || k == 11)
			continue; /* a gap: bucket 2 holds 8 and 9 only */
		add(s, k, &iv);
		assert_int_equal(td_store_counts_add(s, iv, thr_a, a, k == 9 ? 1 : 2), 0);
		assert_int_equal(td_store_interval_cost(s, iv, 1, 1, k == 6 ? -1 : 1), 0);
	}
	struct td_store_change c = { .session = sess,
				     .when_ns = 4000,
				     .workload = "w",
				     .node = "Retiring",
				     .before = 0.1,
				     .after = 0.5,
				     .p = 0.01,
				     .n_before = 1,
				     .n_after = 1,
				     .before_first = 13,
				     .before_last = 13,
				     .after_first = 14,
				     .after_last = 14 };
	assert_true(td_store_change_add(s, &c) > 0);
	assert_int_equal(td_store_commit(s), 0);
	td_store_close(s);
}

static void test_due(void **state)
{
	struct td_store *s;
	struct td_ds_bucket b[8];
	td_err err;

	(void)state;
	build();
	assert_int_equal(td_store_open(path, TD_STORE_WRITE, &s, &err), 0);
	/* at 5000 the buckets 0-3 are over (bucket 4's next one is not) */
	assert_int_equal(td_store_downsample_due(s, sess, 0, 5000, 1000, b, 8), 4);
	assert_int_equal(b[0].first_seq, 0);
	assert_int_equal(b[0].last_seq, 3);
	assert_int_equal(b[0].n, 4);
	assert_int_equal(b[0].start_ns, 0);
	assert_int_equal(b[0].end_ns, 1000);
	assert_int_equal(b[2].first_seq, 8);
	assert_int_equal(b[2].last_seq, 9);
	assert_int_equal(b[2].n, 2);
	assert_int_equal(b[3].first_seq, 12);
	/* at 4999 bucket 3 is not over; from seq 4 on; at most 1 */
	assert_int_equal(td_store_downsample_due(s, sess, 0, 4999, 1000, b, 8), 3);
	assert_int_equal(td_store_downsample_due(s, sess, 4, 5000, 1000, b, 8), 3);
	assert_int_equal(b[0].first_seq, 4);
	assert_int_equal(td_store_downsample_due(s, sess, 0, 5000, 1000, b, 1), 1);
	assert_int_equal(b[0].last_seq, 3);
	/* which can be merged: 0 (B born later, /proc's now and then) and 1;
	 * not 2 (A's ev1 missing in 9) nor 3 (the change) */
	assert_int_equal(td_store_downsample_due(s, sess, 0, 5000, 1000, b, 8), 4);
	assert_int_equal(td_store_downsample_mergeable(s, sess, &b[0]), 1);
	assert_int_equal(td_store_downsample_mergeable(s, sess, &b[1]), 1);
	assert_int_equal(td_store_downsample_mergeable(s, sess, &b[2]), 0);
	assert_int_equal(td_store_downsample_mergeable(s, sess, &b[3]), 0);
	td_store_close(s);
}

static void test_merge(void **state)
{
	struct td_store *s;
	struct td_ds_bucket b[8];
	bool merged[8];
	td_err err;
	char q[256];

	(void)state;
	build();
	assert_int_equal(td_store_open(path, TD_STORE_WRITE, &s, &err), 0);
	td_store_observe_counts(s, observe, NULL);
	observed = 0;
	assert_int_equal(td_store_downsample_due(s, sess, 0, 5000, 1000, b, 8), 4);
	assert_int_equal(td_store_begin(s), 0);
	assert_int_equal(td_store_downsample_merge(s, sess, b, 4, merged), 0);
	assert_int_equal(td_store_commit(s), 0);
	assert_int_equal(observed, 0);
	/* buckets 0 and 1 merged; 2 (a read short of ev1) and 3 (the change) kept */
	assert_true(merged[0] && merged[1] && !merged[2] && !merged[3]);
	assert_int_equal(sql_int("SELECT count(*) FROM intervals WHERE seq BETWEEN 8 AND 15"), 6);

	/* bucket 0: seq 0 from 0 to 1000, the others gone */
	assert_int_equal(sql_int("SELECT count(*) FROM intervals WHERE seq BETWEEN 0 AND 3"), 1);
	assert_int_equal(sql_int("SELECT start_ns FROM intervals WHERE seq = 0"), 0);
	assert_int_equal(sql_int("SELECT end_ns FROM intervals WHERE seq = 0"), 1000);
	/* A: 10+20+30+40, 100+200+300+400, enabled 4*250, running 4*200 */
#define A_SQL(col, e)                                                                                              \
	"SELECT " col " FROM counts c JOIN intervals i ON i.id = c.interval_id WHERE i.seq = 0 AND c.thread_id = " \
	"%lld AND c.event_id = %lld",                                                                              \
		(long long)thr_a, (long long)ev[e]
	snprintf(q, sizeof(q), A_SQL("value", 0));
	assert_int_equal(sql_int(q), 100);
	snprintf(q, sizeof(q), A_SQL("value", 1));
	assert_int_equal(sql_int(q), 1000);
	snprintf(q, sizeof(q), A_SQL("enabled", 1));
	assert_int_equal(sql_int(q), 1000);
	snprintf(q, sizeof(q), A_SQL("running", 1));
	assert_int_equal(sql_int(q), 800);
	/* /proc's: 5 + 7 over 500 + 500 */
	snprintf(q, sizeof(q), A_SQL("value", 2));
	assert_int_equal(sql_int(q), 12);
	snprintf(q, sizeof(q), A_SQL("enabled", 2));
	assert_int_equal(sql_int(q), 1000);
	/* B: three intervals of 1 and 2, 750/750 */
	snprintf(q, sizeof(q),
		 "SELECT sum(value) * 1000000 + min(enabled) * 1000 + min(running) FROM counts c JOIN intervals i"
		 " ON i.id = c.interval_id WHERE i.seq = 0 AND c.thread_id = %lld",
		 (long long)thr_b);
	assert_int_equal(sql_int(q), 9 * 1000000 + 750 * 1000 + 750);
	/* how many intervals as read each holds: 4, 4; the ones kept as read NULL */
	assert_int_equal(sql_int("SELECT merged FROM intervals WHERE seq = 0"), 4);
	assert_int_equal(sql_int("SELECT merged FROM intervals WHERE seq = 4"), 4);
	assert_int_equal(sql_int("SELECT merged FROM intervals WHERE seq = 8"), -2);
	/* costs: 1000+1001+1002+1003, 4*3 reads, 4*2 calls; bucket 1's calls not known */
	assert_int_equal(sql_int("SELECT collector_ns FROM intervals WHERE seq = 0"), 4006);
	assert_int_equal(sql_int("SELECT counter_reads FROM intervals WHERE seq = 0"), 12);
	assert_int_equal(sql_int("SELECT syscalls FROM intervals WHERE seq = 0"), 8);
	assert_int_equal(sql_int("SELECT syscalls FROM intervals WHERE seq = 4"), -2);
	assert_int_equal(sql_int("SELECT counter_reads FROM intervals WHERE seq = 4"), 4);
	/* bucket 1: 4 * (1, 2) */
	snprintf(q, sizeof(q),
		 "SELECT sum(value) FROM counts c JOIN intervals i ON i.id = c.interval_id WHERE i.seq = 4");
	assert_int_equal(sql_int(q), 12);
	/* the metric values of the merged intervals are gone, the hot sample moved to seq 0 */
	assert_int_equal(sql_int("SELECT count(*) FROM metrics"), 0);
	assert_int_equal(sql_int("SELECT count(*) FROM samples_hot h JOIN intervals i ON i.id = h.interval_id"
				 " WHERE i.seq = 0"),
			 1);
	/* every count of the session kept: the same totals as written */
	assert_int_equal(sql_int("SELECT sum(value) FROM counts"), 100 + 1000 + 12 + 9 + 11 * 3 + 1);

	/* merged buckets hold one interval: due, not mergeable again */
	assert_int_equal(td_store_downsample_due(s, sess, 0, 5000, 1000, b, 8), 4);
	assert_int_equal(b[0].n, 1);
	assert_int_equal(td_store_downsample_mergeable(s, sess, &b[0]), 0);
	td_store_close(s);
#undef A_SQL
}

/* Missing rows: thread A without rows in seq 2 (between 1 and 3), thread B
 * with rows in 5 and 6 only (born and gone inside bucket 1), nothing at
 * all in seq 9. Outside BPF counting a missing row is "not counted": bucket
 * 0 (A's gap) and bucket 2 (an interval without rows) are kept, bucket 1
 * merged; in a BPF counting session a missing row is 0: all three merged,
 * A's sum over bucket 0 that of its three rows. */
static void missing_rows(bool bpf)
{
	struct td_store *s;
	struct td_ds_bucket b[4];
	bool merged[4];
	td_err err;
	int64_t iv;

	unlink(path);
	assert_int_equal(td_store_open(path, TD_STORE_WRITE, &s, &err), 0);
	assert_true((sess = td_store_session_begin(s, &info, &err)) > 0);
	if (bpf)
		assert_int_equal(td_store_session_counting(s, sess, "bpf", NULL), 0);
	assert_int_equal(td_store_begin(s), 0);
	ev[0] = td_store_event_add(s, sess, "E0", "perf::E0", 0, 1, 0, "counting", NULL, "software.td");
	thr_a = td_store_thread_add(s, sess, 42, 42, "a", 0);
	thr_b = td_store_thread_add(s, sess, 42, 43, "b", 1250);
	for (int k = 0; k < 12; k++) {
		add(s, k, &iv);
		if (k != 2 && k != 9)
			assert_int_equal(td_store_count_add(s, iv, thr_a, ev[0], 10, 250, 250), 0);
		if (k == 5 || k == 6)
			assert_int_equal(td_store_count_add(s, iv, thr_b, ev[0], 1, 250, 250), 0);
	}
	assert_int_equal(td_store_commit(s), 0);
	assert_int_equal(td_store_downsample_due(s, sess, 0, 4000, 1000, b, 4), 3);
	assert_int_equal(td_store_begin(s), 0);
	assert_int_equal(td_store_downsample_merge(s, sess, b, 3, merged), 0);
	assert_int_equal(td_store_commit(s), 0);
	assert_true(merged[0] == bpf && merged[1] && merged[2] == bpf);
	td_store_close(s);
	/* bucket 0: A's three rows of 10 (30), enabled 750 when merged; four intervals as read otherwise */
	assert_int_equal(sql_int("SELECT count(*) FROM intervals WHERE seq BETWEEN 0 AND 3"), bpf ? 1 : 4);
	assert_int_equal(sql_int("SELECT sum(value) * 1000 + sum(enabled) FROM counts c JOIN intervals i"
				 " ON i.id = c.interval_id WHERE i.seq BETWEEN 0 AND 3"),
			 30 * 1000 + 750);
	/* bucket 1 merged either way: A 40, B 2 */
	assert_int_equal(sql_int("SELECT merged FROM intervals WHERE seq = 4"), 4);
	assert_int_equal(sql_int("SELECT sum(value) FROM counts c JOIN intervals i ON i.id = c.interval_id"
				 " WHERE i.seq = 4"),
			 42);
	assert_int_equal(sql_int("SELECT count(*) FROM intervals WHERE seq BETWEEN 8 AND 11"), bpf ? 1 : 4);
}

static void test_missing_rows(void **state)
{
	(void)state;
	missing_rows(false);
	missing_rows(true);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_due),
		cmocka_unit_test(test_merge),
		cmocka_unit_test(test_missing_rows),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}

/* Unit tests for store: creation and refusal of foreign, newer and non-SQLite
 * files; the session lifecycle; counts written and totals read back with
 * scaling; recovery of sessions whose writer died; the largest target id
 * a writer knows committed, through a rollback and another writer's rows. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tmp_dir.h"
#include "store/store.h"

static char dir[64], path[128];

static int setup(void **state)
{
	(void)state;
	if (tmp_dir_make(dir, sizeof(dir), "store"))
		return -1;
	snprintf(path, sizeof(path), "%s/t.db", dir);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	return tmp_dir_remove(dir);
}

static void raw_sql(const char *file, const char *sql)
{
	sqlite3 *db;
	assert_int_equal(sqlite3_open(file, &db), SQLITE_OK);
	assert_int_equal(sqlite3_exec(db, sql, NULL, NULL, NULL), SQLITE_OK);
	sqlite3_close(db);
}

static const struct td_session_info info = {
	.kind = "run",
	.command = "demo",
	.target_pid = 42,
	.host = "h",
	.kernel = "k",
	.cpu_vendor = "v",
	.cpu_name = "n",
	.uarch = "Zen 5",
	.pmu_model = "",
	.rung = "software-only",
	.rung_reason = "why",
	.events_file = "",
	.interval_ms = 100,
	.kernel_counted = true,
};

struct totals {
	int n;
	struct td_thread_total t[8];
	char names[8][32];
};

static int collect(const struct td_thread_total *t, void *ctx)
{
	struct totals *tt = ctx;
	tt->t[tt->n] = *t;
	snprintf(tt->names[tt->n], sizeof(tt->names[0]), "%s", t->event);
	tt->t[tt->n].event = tt->names[tt->n];
	tt->n++;
	return 0;
}

struct read_back {
	int n;
	struct td_count_row r[16];
};

static int keep_count(const struct td_count_row *c, void *ctx)
{
	struct read_back *b = ctx;

	assert_true(b->n < 16);
	b->r[b->n++] = *c;
	return 0;
}

static int64_t sql_count(const char *file, const char *sql)
{
	sqlite3 *db;
	sqlite3_stmt *st;
	int64_t n = -1;

	assert_int_equal(sqlite3_open(file, &db), SQLITE_OK);
	assert_int_equal(sqlite3_prepare_v2(db, sql, -1, &st, NULL), SQLITE_OK);
	if (sqlite3_step(st) == SQLITE_ROW)
		n = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	sqlite3_close(db);
	return n;
}

/* td_store_counts_add packs a run of consecutive event ids with one
 * enabled/running into one samples row; anything else starts a new row;
 * td_store_counts gives every value back in event order, the largest
 * signed values too; a damaged row is an error, not a guess. */
static void test_packing(void **state)
{
	struct td_store *s;
	td_err err;
	int64_t sess, ev[6], th, iv;
	struct read_back b = { 0 };
	const uint64_t big = (uint64_t)INT64_MAX;

	(void)state;
	unlink(path);
	assert_int_equal(td_store_open(path, TD_STORE_WRITE, &s, &err), 0);
	assert_true((sess = td_store_session_begin(s, &info, &err)) > 0);
	assert_int_equal(td_store_begin(s), 0);
	for (int i = 0; i < 6; i++)
		ev[i] = td_store_event_add(s, sess, "E", "perf::E", 0, 1, (uint64_t)i, "counting", NULL, "software.td");
	th = td_store_thread_add(s, sess, 1, 1, "t", 0);
	iv = td_store_interval_add(s, sess, 0, 0, 1000);
	/* ev0..ev2 one group; ev3 another running time; ev5 after a gap (ev4 not given) */
	struct td_store_count c[] = {
		{ ev[0], 0, 1000, 900 }, { ev[1], big, 1000, 900 }, { ev[2], 7, 1000, 900 },
		{ ev[3], 8, 1000, 500 }, { ev[5], 9, 1000, 500 },
	};
	assert_int_equal(td_store_counts_add(s, iv, th, c, 5), 0);
	assert_int_equal(td_store_commit(s), 0);
	assert_int_equal(td_store_counts(s, sess, keep_count, &b), 0);
	assert_int_equal(b.n, 5);
	for (int i = 0; i < 5; i++) {
		assert_int_equal(b.r[i].event, c[i].event);
		assert_true(b.r[i].value == c[i].value);
		assert_int_equal(b.r[i].enabled, c[i].enabled);
		assert_int_equal(b.r[i].running, c[i].running);
		assert_int_equal(b.r[i].target, th);
	}
	td_store_close(s);
	assert_int_equal(sql_count(path, "SELECT count(*) FROM samples"), 3);
	assert_int_equal(sql_count(path, "SELECT json_array_length(vals) FROM samples ORDER BY event_id"), 3);
	/* the counts view unpacks the same values */
	assert_int_equal(sql_count(path, "SELECT count(*) FROM counts"), 5);
	assert_true(sql_count(path, "SELECT value FROM counts WHERE event_id = (SELECT event_id FROM samples ORDER BY "
				    "event_id LIMIT 1) + 1") == INT64_MAX);

	raw_sql(path, "UPDATE samples SET vals = '[8,x]' WHERE running = 500 AND json_array_length(vals) = 1"
		      " AND event_id = (SELECT min(event_id) FROM samples WHERE running = 500)");
	assert_int_equal(td_store_open(path, TD_STORE_READ, &s, &err), 0);
	b.n = 0;
	assert_int_equal(td_store_counts(s, sess, keep_count, &b), -1);
	td_store_close(s);
}

static void test_roundtrip(void **state)
{
	struct td_store *s;
	td_err err;
	int64_t sess, ev1, ev2, th, idle, i1, i2, i3;
	struct totals tt = { 0 };
	struct td_session_row row;

	(void)state;
	unlink(path);
	assert_int_equal(td_store_open(path, TD_STORE_WRITE, &s, &err), 0);
	sess = td_store_session_begin(s, &info, &err);
	assert_true(sess > 0);
	assert_int_equal(td_store_begin(s), 0);
	ev1 = td_store_event_add(s, sess, "TASK_CLOCK", "perf::TASK-CLOCK", 0, 1, 1, "counting", NULL, "software.td");
	ev2 = td_store_event_add(s, sess, "CYCLES", "perf::CYCLES", 1, 0, 0, "failed", "no PMU", "generic.td");
	th = td_store_thread_add(s, sess, 42, 43, "worker", 1000);
	i1 = td_store_interval_add(s, sess, 0, 1000, 2000);
	i2 = td_store_interval_add(s, sess, 1, 2000, 3000);
	i3 = td_store_interval_add(s, sess, 2, 3000, 4000);
	idle = td_store_thread_add(s, sess, 42, 44, "sleeper", 1000);
	assert_true(ev1 > 0 && ev2 > 0 && th > 0 && idle > 0 && i1 > 0 && i2 > 0 && i3 > 0);
	/* interval 1: fully counted; interval 2: counted a quarter of the time */
	assert_int_equal(td_store_count_add(s, i1, th, ev1, 100, 1000, 1000), 0);
	assert_int_equal(td_store_count_add(s, i2, th, ev1, 100, 1000, 250), 0);
	assert_int_equal(td_store_count_add(s, i1, th, ev2, 0, 1000, 0), 0);
	/* interval 3: the worker did not run at all (the kernel reports enabled = running = 0);
	 * the sleeper never ran, then ran 10 of 10 */
	assert_int_equal(td_store_count_add(s, i3, th, ev1, 0, 0, 0), 0);
	assert_int_equal(td_store_count_add(s, i1, idle, ev1, 0, 0, 0), 0);
	assert_int_equal(td_store_count_add(s, i2, idle, ev1, 0, 0, 0), 0);
	assert_int_equal(td_store_count_add(s, i3, idle, ev1, 7, 10, 10), 0);
	assert_int_equal(td_store_count_add(s, i1, th, ev1, 1, 1, 1), -1); /* one row per key */
	assert_int_equal(td_store_thread_seen(s, th, "renamed", 2500, true), 0);
	assert_int_equal(td_store_commit(s), 0);
	assert_int_equal(td_store_session_end(s, sess, "completed", 0, "target exited"), 0);
	td_store_close(s);

	assert_int_equal(td_store_open(path, TD_STORE_READ, &s, &err), 0);
	assert_int_equal(td_store_latest_session(s), sess);
	assert_int_equal(td_store_thread_totals(s, sess, collect, &tt), 0);
	assert_int_equal(tt.n, 3);
	assert_string_equal(tt.names[0], "TASK_CLOCK");
	assert_int_equal(tt.t[0].value, 200);
	assert_int_equal(tt.t[0].enabled, 2000);
	assert_int_equal(tt.t[0].running, 1250);
	assert_true(tt.t[0].scaled == 100.0 + 400.0); /* each interval scaled by its own times */
	assert_int_equal(tt.t[0].intervals, 3);
	assert_int_equal(tt.t[0].not_counted, 0); /* an interval it did not run in counts zero */
	assert_string_equal(tt.t[0].comm, "renamed");
	assert_int_equal(tt.t[0].last_seen_ns, 2500);
	assert_string_equal(tt.names[1], "CYCLES");
	assert_true(isnan(tt.t[1].scaled)); /* never running: not counted, not zero */
	assert_int_equal(tt.t[1].not_counted, 1);
	assert_int_equal(tt.t[2].tid, 44);
	assert_string_equal(tt.names[2], "TASK_CLOCK");
	assert_true(tt.t[2].scaled == 7.0); /* idle intervals: zero, not "not counted" */
	assert_int_equal(tt.t[2].not_counted, 0);
	assert_int_equal(td_store_session(s, sess, &row), 0);
	assert_string_equal(row.status, "completed");
	assert_string_equal(row.message, "target exited");
	assert_int_equal(row.nthreads, 2);
	assert_int_equal(row.nintervals, 3);
	assert_true(row.has_exit_code);
	assert_true(row.kernel_counted);
	assert_true(row.ended_ns >= row.started_ns);
	td_store_close(s);
}

static void test_refusals(void **state)
{
	struct td_store *s = NULL;
	td_err err;
	char p[160];
	FILE *f;

	(void)state;
	snprintf(p, sizeof(p), "%s/text.db", dir);
	f = fopen(p, "w");
	fputs("hello, not a database at all, but long enough to be read as a header......\n", f);
	fclose(f);
	assert_int_equal(td_store_open(p, TD_STORE_WRITE, &s, &err), -1);
	assert_non_null(strstr(err.msg, "is not a readable topdown database"));
	assert_non_null(strstr(err.msg, ".recover"));

	snprintf(p, sizeof(p), "%s/foreign.db", dir);
	raw_sql(p, "CREATE TABLE t(x)");
	assert_int_equal(td_store_open(p, TD_STORE_WRITE, &s, &err), -1);
	assert_non_null(strstr(err.msg, "of another program"));

	snprintf(p, sizeof(p), "%s/newer.db", dir);
	raw_sql(p, "CREATE TABLE t(x); PRAGMA application_id=1413764942; PRAGMA user_version=99");
	assert_int_equal(td_store_open(p, TD_STORE_READ, &s, &err), -1);
	assert_non_null(strstr(err.msg, "schema version 99, newer than this tdctl understands (13)"));

	snprintf(p, sizeof(p), "%s/missing.db", dir);
	assert_int_equal(td_store_open(p, TD_STORE_READ, &s, &err), -1);
	assert_non_null(strstr(err.msg, "no database"));

	assert_int_equal(td_store_open("/nonexistent-dir/x.db", TD_STORE_WRITE, &s, &err), -1);
	assert_string_equal(err.msg,
			    "cannot create database '/nonexistent-dir/x.db': directory '/nonexistent-dir' does "
			    "not exist: create it or give another -d FILE");
	assert_null(s);
}

/* td_store_max_target_id: asked once, then what this handle committed; a
 * rolled-back insert is not in it, and another writer's rows never make it
 * wrong: every id this handle inserts after is above it. */
static void test_max_target_id(void **state)
{
	struct td_store *s, *other;
	td_err err;
	int64_t sess, a, b, c, max0;

	(void)state;
	assert_int_equal(td_store_open(path, TD_STORE_WRITE, &s, &err), 0);
	assert_true((sess = td_store_session_begin(s, &info, &err)) > 0);
	max0 = td_store_max_target_id(s);
	assert_true(max0 >= 0);
	assert_int_equal(td_store_begin(s), 0);
	assert_true((a = td_store_thread_add(s, sess, 42, 43, "a", 1)) > max0);
	assert_int_equal(td_store_commit(s), 0);
	assert_int_equal(td_store_max_target_id(s), a);
	/* rolled back: its row is gone, and so is its id from the answer */
	assert_int_equal(td_store_begin(s), 0);
	assert_true((b = td_store_thread_add(s, sess, 42, 44, "b", 2)) > a);
	td_store_rollback(s);
	assert_int_equal(td_store_max_target_id(s), a);
	/* another writer adds rows: this handle's next id is above what it says */
	assert_int_equal(td_store_open(path, TD_STORE_WRITE, &other, &err), 0);
	assert_int_equal(td_store_begin(other), 0);
	for (int i = 0; i < 3; i++)
		assert_true(td_store_thread_add(other, sess, 42, 50 + i, "o", 3) > a);
	assert_int_equal(td_store_commit(other), 0);
	td_store_close(other);
	assert_int_equal(td_store_max_target_id(s), a);
	assert_int_equal(td_store_begin(s), 0);
	assert_true((c = td_store_thread_add(s, sess, 42, 45, "c", 4)) > a + 3);
	assert_int_equal(td_store_commit(s), 0);
	assert_int_equal(td_store_max_target_id(s), c);
	td_store_close(s);
}

/* How many rows a query counts, read by a connection of its own (what
 * another process sees: committed rows only). */
static int count_rows(const char *sql)
{
	sqlite3 *db;
	sqlite3_stmt *st;
	int n = -1;

	assert_int_equal(sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, NULL), SQLITE_OK);
	assert_int_equal(sqlite3_prepare_v2(db, sql, -1, &st, NULL), SQLITE_OK);
	if (sqlite3_step(st) == SQLITE_ROW)
		n = sqlite3_column_int(st, 0);
	sqlite3_finalize(st);
	sqlite3_close(db);
	return n;
}

/* td_store_outer_begin: the transactions in it are committed together by
 * td_store_outer_end, none before; one rolled back leaves the others'. */
static void test_outer(void **state)
{
	struct td_store *s;
	td_err err;
	int64_t sess, a, b, c, max0;
	char sql[160];

	(void)state;
	assert_int_equal(td_store_open(path, TD_STORE_WRITE, &s, &err), 0);
	assert_true((sess = td_store_session_begin(s, &info, &err)) > 0);
	max0 = td_store_max_target_id(s);
	snprintf(sql, sizeof(sql), "SELECT count(*) FROM targets WHERE session_id = %lld", (long long)sess);
	assert_int_equal(count_rows(sql), 0);
	/* nothing begun: nothing to commit */
	td_store_outer_begin(s);
	assert_false(td_store_outer_open(s));
	assert_int_equal(td_store_outer_end(s, &err), 0);
	/* two writers' transactions and a third rolled back */
	td_store_outer_begin(s);
	assert_int_equal(td_store_begin(s), 0);
	assert_true(td_store_outer_open(s));
	assert_true((a = td_store_thread_add(s, sess, 42, 43, "a", 1)) > max0);
	assert_int_equal(td_store_commit(s), 0);
	assert_int_equal(td_store_begin(s), 0);
	assert_true((b = td_store_thread_add(s, sess, 42, 44, "b", 2)) > a);
	td_store_rollback(s);
	assert_int_equal(td_store_begin(s), 0);
	assert_true((c = td_store_thread_add(s, sess, 42, 45, "c", 3)) > a);
	assert_int_equal(td_store_commit(s), 0);
	/* committed with the outer transaction only */
	assert_int_equal(count_rows(sql), 0);
	assert_int_equal(td_store_max_target_id(s), max0);
	assert_int_equal(td_store_outer_end(s, &err), 0);
	assert_int_equal(count_rows(sql), 2);
	snprintf(sql, sizeof(sql), "SELECT count(*) FROM targets WHERE session_id = %lld AND tid IN (43, 45)",
		 (long long)sess);
	assert_int_equal(count_rows(sql), 2);
	assert_int_equal(td_store_max_target_id(s), c);
	/* after it, a transaction is its own again */
	assert_int_equal(td_store_begin(s), 0);
	assert_true(td_store_thread_add(s, sess, 42, 46, "d", 4) > c);
	assert_int_equal(td_store_commit(s), 0);
	snprintf(sql, sizeof(sql), "SELECT count(*) FROM targets WHERE session_id = %lld", (long long)sess);
	assert_int_equal(count_rows(sql), 3);
	(void)b;
	td_store_close(s);
}

static void test_recover(void **state)
{
	struct td_store *s;
	td_err err;
	int64_t live, dead;
	pid_t gone = fork();
	char sql[200];
	struct td_session_row row;

	(void)state;
	if (gone == 0)
		_exit(0);
	waitpid(gone, NULL, 0);
	unlink(path);
	assert_int_equal(td_store_open(path, TD_STORE_WRITE, &s, &err), 0);
	live = td_store_session_begin(s, &info, &err);
	dead = td_store_session_begin(s, &info, &err);
	td_store_close(s);
	snprintf(sql, sizeof(sql), "UPDATE sessions SET writer_pid=%d WHERE id=%lld", (int)gone, (long long)dead);
	raw_sql(path, sql);
	assert_int_equal(td_store_open(path, TD_STORE_WRITE, &s, &err), 0);
	assert_int_equal(td_store_recover(s), 1); /* only the one whose writer is gone */
	assert_int_equal(td_store_session(s, dead, &row), 0);
	assert_string_equal(row.status, "interrupted");
	assert_non_null(strstr(row.message, "stopped without closing"));
	assert_int_equal(td_store_session(s, live, &row), 0);
	assert_string_equal(row.status, "running"); /* this process still writes it */
	assert_int_equal(td_store_recover(s), 0);
	td_store_close(s);
}

/* What an observer of committed counts is handed: per call, the interval's
 * session, its rows' values summed, how many rows, and whether any was lost. */
struct seen {
	int calls, rows;
	uint64_t sum;
	int64_t session;
	bool lost;
	int64_t prev_target, prev_event; /* rows come in target, event order */
	bool ordered;
};

static void observe(void *ctx, struct td_store *s, const struct td_committed_counts *c)
{
	struct seen *w = ctx;

	(void)s;
	w->calls++;
	w->session = c->session;
	w->lost |= c->lost;
	for (size_t i = 0; i < c->n; i++) {
		const struct td_count_row *r = &c->rows[i];
		if (i && (r->target < w->prev_target || (r->target == w->prev_target && r->event < w->prev_event)))
			w->ordered = false;
		w->prev_target = r->target;
		w->prev_event = r->event;
		w->rows++;
		w->sum += r->value;
	}
}

/* The counts of a transaction reach the observer once it commits, never a
 * rolled-back one's; in an outer transaction, at its end, without the
 * savepoint that was rolled back; each interval's rows by target, event. */
static void test_observe(void **state)
{
	struct td_store *s;
	td_err err;
	int64_t sess, t1, t2, ev, ev2, iv;
	struct seen w = { .ordered = true };

	(void)state;
	assert_int_equal(td_store_open(path, TD_STORE_WRITE, &s, &err), 0);
	assert_true((sess = td_store_session_begin(s, &info, &err)) > 0);
	td_store_observe_counts(s, observe, &w);
	assert_int_equal(td_store_begin(s), 0);
	ev = td_store_event_add(s, sess, "A", "", 0, 1, 1, "counting", NULL, NULL);
	ev2 = td_store_event_add(s, sess, "B", "", 0, 1, 2, "counting", NULL, NULL);
	t1 = td_store_thread_add(s, sess, 5, 5, "a", 0);
	t2 = td_store_thread_add(s, sess, 5, 6, "b", 0);
	iv = td_store_interval_add(s, sess, 0, 0, 10);
	assert_int_equal(td_store_count_add(s, iv, t2, ev, 1, 10, 10), 0); /* written out of order */
	assert_int_equal(td_store_count_add(s, iv, t1, ev2, 2, 10, 10), 0);
	assert_int_equal(td_store_count_add(s, iv, t1, ev, 4, 10, 10), 0);
	assert_int_equal(w.calls, 0); /* not before the commit */
	assert_int_equal(td_store_commit(s), 0);
	assert_int_equal(w.calls, 1);
	assert_int_equal(w.rows, 3);
	assert_int_equal(w.sum, 7);
	assert_true(w.session == sess && w.ordered && !w.lost);
	/* rolled back: nothing */
	assert_int_equal(td_store_begin(s), 0);
	iv = td_store_interval_add(s, sess, 1, 10, 20);
	assert_int_equal(td_store_count_add(s, iv, t1, ev, 100, 10, 10), 0);
	td_store_rollback(s);
	assert_int_equal(td_store_begin(s), 0);
	assert_int_equal(td_store_commit(s), 0); /* a transaction with no interval: no call */
	assert_int_equal(w.calls, 1);
	/* outer: two savepoints committed, one rolled back between them; handed over at its end */
	td_store_outer_begin(s);
	assert_int_equal(td_store_begin(s), 0);
	iv = td_store_interval_add(s, sess, 1, 10, 20);
	assert_int_equal(td_store_count_add(s, iv, t1, ev, 8, 10, 10), 0);
	assert_int_equal(td_store_commit(s), 0);
	assert_int_equal(td_store_begin(s), 0);
	iv = td_store_interval_add(s, sess, 2, 20, 30);
	assert_int_equal(td_store_count_add(s, iv, t1, ev, 1000, 10, 10), 0);
	td_store_rollback(s);
	assert_int_equal(td_store_begin(s), 0);
	iv = td_store_interval_add(s, sess, 2, 20, 30);
	assert_int_equal(td_store_count_add(s, iv, t2, ev, 16, 10, 10), 0);
	assert_int_equal(td_store_commit(s), 0);
	assert_int_equal(w.calls, 1);
	assert_int_equal(td_store_outer_end(s, &err), 0);
	assert_int_equal(w.calls, 3);
	assert_int_equal(w.rows, 5);
	assert_int_equal(w.sum, 7 + 8 + 16);
	assert_false(w.lost);
	td_store_close(s);
	unlink(path);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_roundtrip),     cmocka_unit_test(test_packing), cmocka_unit_test(test_refusals),
		cmocka_unit_test(test_max_target_id), cmocka_unit_test(test_recover), cmocka_unit_test(test_outer),
		cmocka_unit_test(test_observe),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}

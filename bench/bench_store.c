/* bench_store: ingest rate of raw counts through the store API (prepared
 * statements, WAL, foreign keys on) against a bare prepared-insert loop into
 * the same tables of a plain SQLite file (one packed samples row per interval, as
 * the store writes a group), both in one transaction on this
 * machine, with the ratio (goal >= 0.5); then the time to aggregate (per
 * thread totals, as summaries do) a session of one million intervals.
 * Prints numbers; never passes or fails.
 * usage: bench_store [ROWS] [INTERVALS] [DIR] */
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "store/store.h"
#include "base/util.h"

#define EVENTS 8
#define GOAL_RATIO 0.5

static double secs_since(uint64_t t0)
{
	return (double)(td_now_ns() - t0) / 1e9;
}

static const struct td_session_info info = { .kind = "run", .command = "bench", .interval_ms = 1, .smt = -1 };

/* Write intervals x EVENTS counts of one thread through the store API in one
 * transaction; returns seconds, or -1. */
static double store_ingest(struct td_store *s, int64_t *session, long intervals)
{
	td_err err;
	int64_t ev[EVENTS], th, sess = td_store_session_begin(s, &info, &err);
	uint64_t t0;

	if (sess < 0 || td_store_begin(s))
		return -1;
	th = td_store_thread_add(s, sess, 1, 1, "bench", 0);
	for (int e = 0; e < EVENTS; e++)
		ev[e] = td_store_event_add(s, sess, "E", "perf::E", 0, 4, (uint64_t)e, "counting", NULL, NULL);
	t0 = td_now_ns();
	for (long i = 0; i < intervals; i++) {
		int64_t iv = td_store_interval_add(s, sess, (int)i, (uint64_t)i * 1000, (uint64_t)i * 1000 + 1000);
		struct td_store_count c[EVENTS];
		for (int e = 0; e < EVENTS; e++)
			c[e] = (struct td_store_count){ ev[e], (uint64_t)(i * e), 1000, 1000 };
		if (iv < 0 || td_store_counts_add(s, iv, th, c, EVENTS))
			return -1;
	}
	if (td_store_commit(s))
		return -1;
	*session = sess;
	return secs_since(t0);
}

/* The physical floor: the same rows into the same tables with bare
 * prepared inserts (no store, no foreign keys). */
static double bare_ingest(const char *path, long intervals)
{
	sqlite3 *db;
	sqlite3_stmt *iv_st, *c_st;
	uint64_t t0;
	struct td_store *s;
	td_err err;

	if (td_store_open(path, TD_STORE_WRITE, &s, &err)) /* the same schema */
		return -1;
	td_store_close(s);
	if (sqlite3_open(path, &db) != SQLITE_OK)
		return -1;
	sqlite3_exec(db,
		     "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;"
		     "INSERT INTO sessions(id,kind,started_ns,status) VALUES(1,'run',0,'completed');"
		     "INSERT INTO targets(id,session_id,kind,pid,tid) VALUES(1,1,'thread',1,1);",
		     NULL, NULL, NULL);
	for (int e = 1; e <= EVENTS; e++) {
		char sql[128];
		snprintf(sql, sizeof(sql), "INSERT INTO events(id,session_id,name,status) VALUES(%d,1,'E','counting')",
			 e);
		sqlite3_exec(db, sql, NULL, NULL, NULL);
	}
	sqlite3_prepare_v2(db, "INSERT INTO intervals(session_id,seq,start_ns,end_ns) VALUES(1,?,?,?)", -1, &iv_st,
			   NULL);
	sqlite3_prepare_v2(
		db,
		"INSERT INTO samples(interval_id,target_id,event_id,enabled,running,vals) VALUES(?,1,1,1000,1000,?)",
		-1, &c_st, NULL);
	t0 = td_now_ns();
	sqlite3_exec(db, "BEGIN", NULL, NULL, NULL);
	for (long i = 0; i < intervals; i++) {
		sqlite3_bind_int64(iv_st, 1, i);
		sqlite3_bind_int64(iv_st, 2, i * 1000);
		sqlite3_bind_int64(iv_st, 3, i * 1000 + 1000);
		sqlite3_step(iv_st);
		sqlite3_reset(iv_st);
		int64_t iv = sqlite3_last_insert_rowid(db);
		char vals[EVENTS * 21 + 3];
		int len = 0;
		for (int e = 0; e < EVENTS; e++)
			len += snprintf(vals + len, sizeof(vals) - (size_t)len, "%c%ld", e ? ',' : '[', i * e);
		len += snprintf(vals + len, sizeof(vals) - (size_t)len, "]");
		sqlite3_bind_int64(c_st, 1, iv);
		sqlite3_bind_text(c_st, 2, vals, len, SQLITE_STATIC);
		sqlite3_step(c_st);
		sqlite3_reset(c_st);
	}
	sqlite3_exec(db, "COMMIT", NULL, NULL, NULL);
	double t = secs_since(t0);
	sqlite3_finalize(iv_st);
	sqlite3_finalize(c_st);
	sqlite3_close(db);
	return t;
}

static int count_total(const struct td_thread_total *t, void *ctx)
{
	(void)t;
	(*(int *)ctx)++;
	return 0;
}

static void remove_db(const char *path)
{
	char p[600];

	unlink(path);
	snprintf(p, sizeof(p), "%s-wal", path);
	unlink(p);
	snprintf(p, sizeof(p), "%s-shm", path);
	unlink(p);
}

int main(int argc, char **argv)
{
	long rows = argc > 1 ? atol(argv[1]) : 2000000, big = argc > 2 ? atol(argv[2]) : 1000000;
	const char *dir = argc > 3 ? argv[3] : "/tmp";
	char a[512], b[512], c[512];
	struct td_store *s;
	td_err err;
	int64_t sess;
	int totals = 0;

	snprintf(a, sizeof(a), "%s/bench-store-api.db", dir);
	snprintf(b, sizeof(b), "%s/bench-store-bare.db", dir);
	snprintf(c, sizeof(c), "%s/bench-store-big.db", dir);
	remove_db(a);
	remove_db(b);
	remove_db(c);
	if (td_store_open(a, TD_STORE_WRITE, &s, &err)) {
		fprintf(stderr, "bench_store: %s\n", err.msg);
		return 1;
	}
	double t_api = store_ingest(s, &sess, rows / EVENTS);
	td_store_close(s);
	double t_bare = bare_ingest(b, rows / EVENTS);
	if (t_api <= 0 || t_bare <= 0) {
		fprintf(stderr, "bench_store: a write failed\n");
		return 1;
	}
	printf("ingest %ld count rows (%d events x %ld intervals, one transaction):\n", rows / EVENTS * EVENTS, EVENTS,
	       rows / EVENTS);
	printf("  store API     %10.0f rows/s\n", (double)rows / t_api);
	printf("  bare inserts  %10.0f rows/s\n", (double)rows / t_bare);
	printf("  ratio %.2f (goal >= %.1f)\n", t_bare / t_api, GOAL_RATIO);

	if (td_store_open(c, TD_STORE_WRITE, &s, &err))
		return 1;
	double t_write = store_ingest(s, &sess, big);
	uint64_t t0 = td_now_ns();
	if (t_write < 0 || td_store_thread_totals(s, sess, count_total, &totals))
		return 1;
	double t_agg = secs_since(t0);
	printf("session of %ld intervals x %d events: written in %.2f s, aggregated (per-thread totals, %d rows) in "
	       "%.2f s\n",
	       big, EVENTS, t_write, totals, t_agg);
	td_store_close(s);
	remove_db(a);
	remove_db(b);
	remove_db(c);
	return 0;
}

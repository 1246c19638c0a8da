/* Unit tests for store schema v2: what the writer writes is what the reader
 * returns, bit for bit (u64 counts near and above 2^63, doubles, NaN as
 * NULL); every kind of target; metric values; migration of a real v1 file
 * (tests/data/store/v1.db, written by tdctl run before v2 existed);
 * read-only queries; pruning by age. */
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
#include <unistd.h>

#include "store/store.h"

static char dir[64], path[128];

static int setup(void **state)
{
	(void)state;
	snprintf(dir, sizeof(dir), "/tmp/td-store2-XXXXXX");
	if (!mkdtemp(dir))
		return -1;
	snprintf(path, sizeof(path), "%s/t.db", dir);
	return 0;
}

static int teardown(void **state)
{
	char cmd[128];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	return system(cmd);
}

static const struct td_session_info info = {
	.kind = "import",
	.command = "import x.csv",
	.pmu_model = "skl",
	.events_file = "intel-skl.td",
	.interval_ms = 1000,
	.smt = 1,
	.num_cpus = 8,
	.source = "x.csv",
};

static int sql_int(const char *file, const char *sql);

static const uint64_t big[] = { 0, 1, (1ull << 63) - 1, 1ull << 63, (1ull << 63) + 1, UINT64_MAX };
#define NBIG (int)(sizeof(big) / sizeof(big[0]))

struct seen {
	int n;
	struct td_count_row c[16];
	char kinds[8][16], labels[8][64];
	int cpu[8], core[8], socket[8];
	double value[16], conf[16];
	char names[16][64];
	bool flagged[16], bneck[16], spans[16];
};

static int on_count(const struct td_count_row *c, void *ctx)
{
	struct seen *s = ctx;
	s->c[s->n++] = *c;
	return 0;
}

static int on_target(const struct td_target_info *t, void *ctx)
{
	struct seen *s = ctx;
	snprintf(s->kinds[s->n], sizeof(s->kinds[0]), "%s", t->kind);
	td_target_label(t, s->labels[s->n], sizeof(s->labels[0]));
	s->cpu[s->n] = t->cpu;
	s->core[s->n] = t->core;
	s->socket[s->n] = t->socket;
	s->n++;
	return 0;
}

static int on_metric(const struct td_metric_row *m, void *ctx)
{
	struct seen *s = ctx;
	s->value[s->n] = m->value;
	s->conf[s->n] = m->confidence;
	snprintf(s->names[s->n], sizeof(s->names[0]), "%s/%s", m->kind, m->name);
	s->flagged[s->n] = m->flagged;
	s->bneck[s->n] = m->bottleneck;
	s->spans[s->n] = m->spans;
	s->n++;
	return 0;
}

static void test_counts_bits(void **state)
{
	struct td_store *s;
	td_err err;
	struct seen seen = { 0 };
	int64_t sess, cpu, iv, ev[NBIG];

	(void)state;
	unlink(path);
	assert_int_equal(td_store_open(path, TD_STORE_WRITE, &s, &err), 0);
	assert_true((sess = td_store_session_begin(s, &info, &err)) > 0);
	assert_int_equal(td_store_begin(s), 0);
	cpu = td_store_cpu_add(s, sess, 3, 1, 0);
	iv = td_store_interval_add(s, sess, 0, UINT64_MAX - 5, UINT64_MAX);
	assert_true(cpu > 0 && iv > 0);
	for (int i = 0; i < NBIG; i++) {
		char name[16];
		struct td_event_row e = { .name = name,
					  .spec = name,
					  .group = i,
					  .type = 4,
					  .config = big[i],
					  .config1 = big[NBIG - 1 - i],
					  .status = "counting",
					  .alias = "X",
					  .file = i % 2 ? "t.td" : NULL };
		snprintf(name, sizeof(name), "e%d", i);
		assert_true((ev[i] = td_store_event_plan_add(s, sess, &e)) > 0);
		/* the CPU id is usable where a thread id is */
		assert_int_equal(td_store_count_add(s, iv, cpu, ev[i], big[i], big[NBIG - 1 - i], big[i]), 0);
	}
	assert_int_equal(td_store_commit(s), 0);
	td_store_close(s);

	assert_int_equal(td_store_open(path, TD_STORE_READ, &s, &err), 0);
	assert_int_equal(td_store_counts(s, sess, on_count, &seen), 0);
	assert_int_equal(seen.n, NBIG);
	for (int i = 0; i < NBIG; i++) {
		assert_true(seen.c[i].value == big[i]);
		assert_true(seen.c[i].enabled == big[NBIG - 1 - i]);
		assert_true(seen.c[i].running == big[i]);
		assert_true(seen.c[i].target == cpu && seen.c[i].event == ev[i] && seen.c[i].interval == iv);
		assert_true(seen.c[i].start_ns == UINT64_MAX - 5 && seen.c[i].end_ns == UINT64_MAX);
	}
	td_store_close(s);
}

/* Values of consecutive events with one enabled/running are packed in one
 * row as JSON integers (two's complement: a u64 above 2^63 is negative): the
 * text is what it must be, and reading it back gives the same bits. */
static void test_counts_packed(void **state)
{
	struct td_store *s;
	td_err err;
	struct seen seen = { 0 };
	struct td_store_count c[NBIG];
	int64_t sess, cpu, iv;

	(void)state;
	unlink(path);
	assert_int_equal(td_store_open(path, TD_STORE_WRITE, &s, &err), 0);
	assert_true((sess = td_store_session_begin(s, &info, &err)) > 0);
	assert_int_equal(td_store_begin(s), 0);
	cpu = td_store_cpu_add(s, sess, 0, 0, 0);
	iv = td_store_interval_add(s, sess, 0, 1, 2);
	for (int i = 0; i < NBIG; i++) {
		char name[16];
		snprintf(name, sizeof(name), "p%d", i);
		c[i] = (struct td_store_count){
			td_store_event_add(s, sess, name, name, 0, 1, 0, "counting", NULL, NULL), big[i], 7, 5
		};
		assert_true(c[i].event > 0 && (i == 0 || c[i].event == c[i - 1].event + 1));
	}
	assert_int_equal(td_store_counts_add(s, iv, cpu, c, NBIG), 0);
	assert_int_equal(td_store_commit(s), 0);
	td_store_close(s);

	assert_int_equal(sql_int(path, "SELECT count(*) FROM samples"), 1);
	assert_int_equal(sql_int(path, "SELECT vals = '[0,1,9223372036854775807,-9223372036854775808,"
				       "-9223372036854775807,-1]' FROM samples"),
			 1);
	assert_int_equal(td_store_open(path, TD_STORE_READ, &s, &err), 0);
	assert_int_equal(td_store_counts(s, sess, on_count, &seen), 0);
	assert_int_equal(seen.n, NBIG);
	for (int i = 0; i < NBIG; i++)
		assert_true(seen.c[i].value == big[i] && seen.c[i].enabled == 7 && seen.c[i].running == 5);
	td_store_close(s);
}

struct batched {
	const int64_t *tg;
	int n, rows;
};

/* Row k read back (in target order) is target k's: 1000 + k, 2k + 1, k. */
static int check_batched(const struct td_count_row *c, void *ctx)
{
	struct batched *b = ctx;
	uint64_t k = (uint64_t)b->rows;

	assert_true(b->rows < b->n);
	assert_true(c->target == b->tg[k] && c->value == 1000 + k && c->enabled == 2 * k + 1 && c->running == k);
	b->rows++;
	return 0;
}

/* Rows kept back in a batch (16 to an INSERT) are all written by the
 * commit, in full batches and the rest; a rollback forgets them; a row
 * that cannot be written (its key taken) fails the add that fills its
 * batch, or td_store_batch_end for the rest. 37 rows: each target t of
 * 0..36 has value 1000 + t, enabled 2t + 1, running t. */
static void test_counts_batched(void **state)
{
	enum {
		N = 37
	};
	struct td_store *s;
	td_err err;
	int64_t sess, iv, ev, tg[N];

	(void)state;
	unlink(path);
	assert_int_equal(td_store_open(path, TD_STORE_WRITE, &s, &err), 0);
	assert_true((sess = td_store_session_begin(s, &info, &err)) > 0);
	assert_int_equal(td_store_begin(s), 0);
	ev = td_store_event_add(s, sess, "e", "e", 0, 1, 0, "counting", NULL, NULL);
	iv = td_store_interval_add(s, sess, 0, 1, 2);
	for (int t = 0; t < N; t++)
		tg[t] = td_store_cpu_add(s, sess, t, t, 0);
	assert_int_equal(td_store_commit(s), 0);

	assert_int_equal(td_store_begin(s), 0);
	td_store_batch_begin(s);
	for (int t = 0; t < N; t++)
		assert_int_equal(
			td_store_count_add(s, iv, tg[t], ev, 1000 + (uint64_t)t, 2 * (uint64_t)t + 1, (uint64_t)t), 0);
	assert_int_equal(td_store_commit(s), 0); /* ends the batch: the last 5 rows too */
	assert_int_equal(sql_int(path, "SELECT count(*) FROM samples"), N);

	/* rolled back: nothing of it stays */
	assert_int_equal(td_store_begin(s), 0);
	td_store_batch_begin(s);
	for (int t = 0; t < 20; t++)
		assert_int_equal(td_store_count_add(s, iv, tg[t], ev + 1, 1, 1, 1), 0);
	td_store_rollback(s);
	/* a taken key in a full batch: the add that fills it fails */
	assert_int_equal(td_store_begin(s), 0);
	td_store_batch_begin(s);
	for (int t = 0; t < 15; t++)
		assert_int_equal(td_store_count_add(s, iv, tg[t], ev + 2, 1, 1, 1), 0);
	assert_int_equal(td_store_count_add(s, iv, tg[0], ev, 1, 1, 1), -1);
	td_store_rollback(s);
	/* ... and in the rest of one: td_store_batch_end fails */
	assert_int_equal(td_store_begin(s), 0);
	td_store_batch_begin(s);
	assert_int_equal(td_store_count_add(s, iv, tg[1], ev + 3, 1, 1, 1), 0);
	assert_int_equal(td_store_count_add(s, iv, tg[1], ev, 1, 1, 1), 0);
	assert_int_equal(td_store_batch_end(s), -1);
	td_store_rollback(s);
	td_store_close(s);

	assert_int_equal(sql_int(path, "SELECT count(*) FROM samples"), N);
	assert_int_equal(td_store_open(path, TD_STORE_READ, &s, &err), 0);
	struct batched b = { tg, N, 0 };
	assert_int_equal(td_store_counts(s, sess, check_batched, &b), 0);
	assert_int_equal(b.rows, N);
	td_store_close(s);
	assert_int_equal(sql_int(path, "SELECT count(*) FROM samples WHERE vals = '[' || (1000 + target_id - (SELECT "
				       "min(id) FROM targets WHERE kind = 'cpu')) || ']'"),
			 N);
}

static int check_event(const struct td_event_info *e, void *ctx)
{
	int *i = ctx;
	assert_true(e->config == big[*i] && e->config1 == big[NBIG - 1 - *i]);
	assert_int_equal(e->group, *i);
	assert_string_equal(e->alias, "X");
	if (*i % 2)
		assert_string_equal(e->file, "t.td");
	else
		assert_null(e->file);
	(*i)++;
	return 0;
}

static void test_events_bits(void **state)
{
	struct td_store *s;
	td_err err;
	int i = 0;

	(void)state;
	assert_int_equal(td_store_open(path, TD_STORE_READ, &s, &err), 0);
	assert_int_equal(td_store_events(s, 1, check_event, &i), 0);
	assert_int_equal(i, NBIG);
	td_store_close(s);
}

static void test_targets(void **state)
{
	struct td_store *s;
	td_err err;
	struct seen seen = { 0 };
	int64_t sess;
	struct td_session_meta meta;

	(void)state;
	unlink(path);
	assert_int_equal(td_store_open(path, TD_STORE_WRITE, &s, &err), 0);
	sess = td_store_session_begin(s, &info, &err);
	assert_true(td_store_thread_add(s, sess, 10, 11, "worker", 5) > 0);
	assert_true(td_store_cpu_add(s, sess, 7, 3, 1) > 0);
	assert_true(td_store_cpu_add(s, sess, 8, -1, -1) > 0);
	assert_true(td_store_target_add(s, sess, "process", 10, "demo", NULL) > 0);
	assert_true(td_store_target_add(s, sess, "cgroup", 0, NULL, "/system.slice/x.service") > 0);
	assert_true(td_store_target_add(s, sess, "whole", 0, NULL, NULL) > 0);
	assert_true(td_store_target_add(s, sess, "planet", 0, NULL, NULL) < 0); /* CHECK constraint */
	assert_int_equal(td_store_targets(s, sess, on_target, &seen), 0);
	assert_int_equal(seen.n, 6);
	assert_string_equal(seen.labels[0], "thread:worker-11");
	assert_string_equal(seen.labels[1], "cpu:7");
	assert_true(seen.core[1] == 3 && seen.socket[1] == 1);
	assert_true(seen.core[2] == -1 && seen.socket[2] == -1);
	assert_string_equal(seen.labels[3], "process:demo-10");
	assert_string_equal(seen.labels[4], "cgroup:/system.slice/x.service");
	assert_string_equal(seen.labels[5], "whole");
	assert_int_equal(td_store_session_meta(s, sess, &meta), 0);
	assert_true(meta.smt == 1 && meta.num_cpus == 8);
	assert_string_equal(meta.source, "x.csv");
	assert_string_equal(meta.kind, "import");
	td_store_close(s);
}

struct conf_seen {
	int n;
	char names[4][64];
	int64_t total[4], low[4];
	double least[4];
};

static int on_confidence(const struct td_metric_confidence *c, void *ctx)
{
	struct conf_seen *cs = ctx;

	if (cs->n >= 4)
		return -1;
	snprintf(cs->names[cs->n], sizeof(cs->names[0]), "%s", c->name);
	cs->total[cs->n] = c->total;
	cs->low[cs->n] = c->low;
	cs->least[cs->n++] = c->least;
	return 0;
}

static void test_metrics_bits(void **state)
{
	struct td_store *s;
	td_err err;
	struct seen seen = { 0 };
	int64_t sess, th, iv, m1, m2, m3;
	const double v1 = 0.1 + 0.2, v2 = 4.9406564584124654e-324;

	(void)state;
	unlink(path);
	assert_int_equal(td_store_open(path, TD_STORE_WRITE, &s, &err), 0);
	sess = td_store_session_begin(s, &info, &err);
	assert_int_equal(td_store_begin(s), 0);
	th = td_store_thread_add(s, sess, 1, 1, "a", 0);
	iv = td_store_interval_add(s, sess, 0, 0, 1);
	m1 = td_store_metric_id(s, "Backend_Bound.Memory_Bound", "node");
	m2 = td_store_metric_id(s, "IPC", "info");
	m3 = td_store_metric_id(s, "Other", "cpi");
	assert_true(m1 > 0 && m2 > 0 && m3 > 0 && m1 != m2 && m2 != m3);
	assert_int_equal(td_store_metric_id(s, "Backend_Bound.Memory_Bound", "node"), m1); /* stable */
	assert_true(td_store_metric_id(s, "x", "bogus") < 0);
	assert_int_equal(td_store_metric_add(s, iv, th, m1, v1, 0.75, true, true, true), 0);
	assert_int_equal(td_store_metric_add(s, iv, th, m2, NAN, NAN, false, false, false), 0);
	assert_int_equal(td_store_metric_add(s, iv, th, m3, v2, 1.0, false, false, true), 0);
	assert_int_equal(td_store_metric_add(s, iv, th, m3, -v2, 0.0, false, false, false), 0); /* replaces */
	assert_int_equal(td_store_metric_add(s, iv, th, m2, 1, 1.5, false, false, false), -1);	/* confidence > 1 */
	assert_int_equal(td_store_commit(s), 0);
	td_store_close(s);

	assert_int_equal(td_store_open(path, TD_STORE_READ, &s, &err), 0);
	assert_int_equal(td_store_metrics(s, sess, on_metric, &seen), 0);
	assert_int_equal(seen.n, 3);
	assert_string_equal(seen.names[0], "node/Backend_Bound.Memory_Bound");
	assert_memory_equal(&seen.value[0], &v1, sizeof(double));
	assert_true(seen.conf[0] == 0.75 && seen.flagged[0] && seen.bneck[0] && seen.spans[0]);
	assert_string_equal(seen.names[1], "info/IPC");
	assert_true(isnan(seen.value[1]) && isnan(seen.conf[1]));
	assert_true(seen.value[2] == -v2 && seen.conf[2] == 0.0 && !seen.spans[2] && !seen.spans[1]);
	/* per name: Memory_Bound one value at 0.75, IPC none with a confidence, Other one at 0 */
	struct conf_seen cs = { 0 };
	assert_int_equal(td_store_metric_confidence(s, sess, on_confidence, &cs), 0);
	assert_int_equal(cs.n, 3);
	assert_string_equal(cs.names[0], "Backend_Bound.Memory_Bound");
	assert_true(cs.total[0] == 1 && cs.low[0] == 1 && cs.least[0] == 0.75);
	assert_string_equal(cs.names[1], "IPC");
	assert_true(cs.total[1] == 0 && cs.low[1] == 0 && isnan(cs.least[1]));
	assert_string_equal(cs.names[2], "Other");
	assert_true(cs.total[2] == 1 && cs.low[2] == 1 && cs.least[2] == 0.0);
	td_store_close(s);

	assert_int_equal(td_store_open(path, TD_STORE_WRITE, &s, &err), 0);
	assert_int_equal(td_store_metrics_clear(s, sess), 0);
	seen.n = 0;
	assert_int_equal(td_store_metrics(s, sess, on_metric, &seen), 0);
	assert_int_equal(seen.n, 0);
	td_store_close(s);
}

static int sql_int(const char *file, const char *sql)
{
	sqlite3 *db;
	sqlite3_stmt *st;
	int v = -1;

	assert_int_equal(sqlite3_open_v2(file, &db, SQLITE_OPEN_READONLY, NULL), SQLITE_OK);
	assert_int_equal(sqlite3_prepare_v2(db, sql, -1, &st, NULL), SQLITE_OK);
	if (sqlite3_step(st) == SQLITE_ROW)
		v = sqlite3_column_int(st, 0);
	sqlite3_finalize(st);
	sqlite3_close(db);
	return v;
}

/* file's schema as text: each object's type, name, table and SQL, by name, with a
 * renamed table's quotes (SQLite writes ALTER TABLE x RENAME TO "y") left out; caller frees */
static char *schema_of(const char *file)
{
	sqlite3 *db;
	sqlite3_stmt *st;
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	assert_non_null(f);
	assert_int_equal(sqlite3_open_v2(file, &db, SQLITE_OPEN_READONLY, NULL), SQLITE_OK);
	assert_int_equal(sqlite3_prepare_v2(db,
					    "SELECT type, name, tbl_name, replace(sql, '\"', '') FROM sqlite_master "
					    "ORDER BY type, name",
					    -1, &st, NULL),
			 SQLITE_OK);
	while (sqlite3_step(st) == SQLITE_ROW)
		for (int c = 0; c < 4; c++)
			fprintf(f, "%s%c",
				sqlite3_column_text(st, c) ? (const char *)sqlite3_column_text(st, c) : "NULL",
				c == 3 ? '\n' : '|');
	sqlite3_finalize(st);
	sqlite3_close(db);
	fclose(f);
	return text;
}

struct totals {
	int n;
	long long task_clock[8];
};

static int on_total(const struct td_thread_total *t, void *ctx)
{
	struct totals *tt = ctx;
	if (!strcmp(t->event, "TASK_CLOCK"))
		tt->task_clock[tt->n++] = (long long)t->value;
	return 0;
}

static int on_session(const struct td_session_row *r, void *ctx)
{
	(*(int *)ctx)++;
	assert_string_equal(r->status, "completed");
	return 0;
}

/* td_store_metrics_add: an evaluation's rows by fours and the rest one by
 * one (6: a statement of 4, two of 1), each row as td_store_metric_add
 * would write it, NaN as NULL; a bad row fails the call. */
static void test_metrics_rows(void **state)
{
	const char *rows_db = "/tmp/td-test-store-v2-metric-rows.db";
	struct td_store *s;
	td_err err;
	int64_t sess, th, iv, m[6];
	struct td_store_metric r[6];

	(void)state;
	unlink(rows_db);
	assert_int_equal(td_store_open(rows_db, TD_STORE_WRITE, &s, &err), 0);
	sess = td_store_session_begin(s, &info, &err);
	assert_int_equal(td_store_begin(s), 0);
	th = td_store_thread_add(s, sess, 1, 1, "a", 0);
	iv = td_store_interval_add(s, sess, 0, 0, 1);
	for (int i = 0; i < 6; i++) {
		char name[8];
		snprintf(name, sizeof(name), "M%d", i);
		m[i] = td_store_metric_id(s, name, "info");
		/* row i: value i + 1 (row 2: NaN), confidence 0.5, flagged on even rows, spans on row 5 */
		r[i] = (struct td_store_metric){ m[i], i == 2 ? NAN : i + 1, 0.5, i % 2 == 0, false, i == 5 };
	}
	assert_int_equal(td_store_metrics_add(s, iv, th, r, 6), 0);
	r[1].confidence = 1.5; /* out of 0..1, in the statement of 4 */
	assert_int_equal(td_store_metrics_add(s, iv, th, r, 4), -1);
	assert_int_equal(td_store_commit(s), 0);
	td_store_close(s);
	assert_int_equal(sql_int(rows_db, "SELECT count(*) FROM metrics"), 6);
	assert_int_equal(sql_int(rows_db, "SELECT sum(value) FROM metrics"), 1 + 2 + 4 + 5 + 6);
	assert_int_equal(sql_int(rows_db, "SELECT count(*) FROM metrics WHERE value IS NULL"), 1);
	assert_int_equal(sql_int(rows_db, "SELECT sum(flagged) FROM metrics"), 3);
	assert_int_equal(sql_int(rows_db, "SELECT sum(spans) FROM metrics"), 1);
	assert_int_equal(sql_int(rows_db, "SELECT count(*) FROM metrics WHERE confidence = 0.5"), 6);
	unlink(rows_db);
}

static void test_migration_v1(void **state)
{
	static const long long want[5] = { 348885865, 311918922, 735228992, 431567046, 198653883 };
	const char *src = getenv("TD_SRCDIR");
	char cmd[512], p[160];
	struct td_store *s;
	td_err err;
	struct totals tt = { 0 };
	struct td_session_row row;
	int nsess = 0;

	(void)state;
	assert_non_null(src);
	snprintf(p, sizeof(p), "%s/v1.db", dir);
	snprintf(cmd, sizeof(cmd), "cp '%s/tests/data/store/v1.db' '%s' && chmod u+w '%s'", src, p, p);
	assert_int_equal(system(cmd), 0);
	assert_int_equal(sql_int(p, "PRAGMA user_version"), 1);

	/* a reader migrates through a short write connection */
	assert_int_equal(td_store_open(p, TD_STORE_READ, &s, &err), 0);
	assert_int_equal(sql_int(p, "PRAGMA user_version"), TD_SCHEMA_VERSION);
	assert_int_equal(td_store_sessions(s, on_session, &nsess), 0);
	assert_int_equal(nsess, 2);
	assert_int_equal(td_store_session(s, 1, &row), 0);
	assert_string_equal(row.kind, "run");
	assert_non_null(strstr(row.command, "td-demo"));
	assert_int_equal(row.nthreads, 5);
	assert_int_equal(row.nintervals, 11);
	assert_int_equal(td_store_thread_totals(s, 1, on_total, &tt), 0);
	assert_int_equal(tt.n, 5);
	for (int i = 0; i < 5; i++)
		assert_true(tt.task_clock[i] == want[i]);
	td_store_close(s);

	/* every count, thread and event came through the migration */
	assert_int_equal(sql_int(p, "SELECT count(*) FROM counts"), 328);
	assert_int_equal(sql_int(p, "SELECT sum(value) = 2026770379 FROM counts"), 1);
	assert_int_equal(sql_int(p, "SELECT count(*) FROM threads"), 6);
	assert_int_equal(sql_int(p, "SELECT count(*) FROM targets WHERE kind = 'thread'"), 6);
	assert_int_equal(sql_int(p, "SELECT count(*) FROM events"), 20);
	assert_int_equal(sql_int(p, "SELECT count(*) FROM pragma_foreign_key_check"), 0);
	assert_int_equal(sql_int(p, "SELECT count(*) FROM pragma_integrity_check WHERE integrity_check != 'ok'"), 0);
	/* a new file gets in one step the schema the migrations leave (every table, column,
	 * index, view and trigger, as SQLite keeps their text) */
	char fresh[160], *migrated_schema, *fresh_schema;
	snprintf(fresh, sizeof(fresh), "%s/fresh.db", dir);
	assert_int_equal(td_store_open(fresh, TD_STORE_WRITE, &s, &err), 0);
	td_store_close(s);
	assert_int_equal(sql_int(fresh, "PRAGMA user_version"), TD_SCHEMA_VERSION);
	assert_int_equal(sql_int(fresh, "PRAGMA application_id"), sql_int(p, "PRAGMA application_id"));
	migrated_schema = schema_of(p);
	fresh_schema = schema_of(fresh);
	assert_true(strlen(migrated_schema) > 1000);
	assert_string_equal(fresh_schema, migrated_schema);
	free(migrated_schema);
	free(fresh_schema);
	/* the migrated file takes v2 writes: a CPU target with counts */
	assert_int_equal(td_store_open(p, TD_STORE_WRITE, &s, &err), 0);
	int64_t cpu = td_store_cpu_add(s, 2, 0, 0, 0);
	assert_true(cpu > 0);
	assert_int_equal(td_store_count_add(s, sql_int(p, "SELECT id FROM intervals WHERE session_id = 2"), cpu,
					    sql_int(p, "SELECT min(id) FROM events WHERE session_id = 2"), 5, 5, 5),
			 0);
	td_store_close(s);
}

/* A version-2 file (tdctl run with --counters 2 --rotate 50 and an import,
 * written before metric values said whether they span groups) migrates to
 * the current version with its counts and metric values, none spanning. */
static void test_migration_v2(void **state)
{
	const char *src = getenv("TD_SRCDIR");
	char cmd[512], p[160];
	struct td_store *s;
	td_err err;

	(void)state;
	assert_non_null(src);
	snprintf(p, sizeof(p), "%s/v2.db", dir);
	snprintf(cmd, sizeof(cmd), "cp '%s/tests/data/store/v2.db' '%s' && chmod u+w '%s'", src, p, p);
	assert_int_equal(system(cmd), 0);
	assert_int_equal(sql_int(p, "PRAGMA user_version"), 2);
	assert_int_equal(td_store_open(p, TD_STORE_WRITE, &s, &err), 0);
	assert_int_equal(sql_int(p, "PRAGMA user_version"), TD_SCHEMA_VERSION);
	assert_int_equal(sql_int(p, "SELECT count(*) FROM metrics"), 240);
	assert_int_equal(sql_int(p, "SELECT count(*) FROM metrics WHERE confidence < 1"), 59);
	assert_int_equal(sql_int(p, "SELECT count(*) FROM metric_values WHERE spans = 0"), 240);
	assert_int_equal(sql_int(p, "SELECT count(*) FROM pragma_integrity_check WHERE integrity_check != 'ok'"), 0);
	/* and takes a value that spans groups */
	int64_t iv = sql_int(p, "SELECT min(id) FROM intervals"), tg = sql_int(p, "SELECT min(id) FROM targets");
	int64_t m = td_store_metric_id(s, "X", "info");
	assert_int_equal(td_store_metric_add(s, iv, tg, m, 1, 0.5, false, false, true), 0);
	td_store_close(s);
	assert_int_equal(sql_int(p, "SELECT count(*) FROM metric_values WHERE spans = 1 AND name = 'X'"), 1);
}

struct change_seen {
	int n;
	struct td_store_change c;
};

static int on_change(void *ctx, const struct td_store_change *c)
{
	struct change_seen *seen = ctx;

	seen->c = *c;
	seen->c.workload = seen->c.node = NULL; /* freed after the call */
	seen->n++;
	return 0;
}

/* A version-11 file's change (its changes table as version 11 made it,
 * written here from that version's text, with a row; its intervals without
 * version 13's column) migrates to the
 * current version: the row kept as a move, its medians and p-value as they
 * were, its intervals not known; and a change of kind threshold with what
 * is not known (its baseline's median, its p-value) goes in and comes back
 * not known, not 0. */
static void test_migration_v11_changes(void **state)
{
	char p[160];
	struct td_store *s;
	struct change_seen seen = { 0 };
	td_err err;
	sqlite3 *db;

	(void)state;
	snprintf(p, sizeof(p), "%s/v11.db", dir);
	assert_int_equal(td_store_open(p, TD_STORE_WRITE, &s, &err), 0);
	assert_true(td_store_session_begin(s, &(struct td_session_info){ .kind = "record", .command = "x" }, &err) > 0);
	td_store_close(s);
	assert_int_equal(sqlite3_open(p, &db), SQLITE_OK);
	assert_int_equal(
		sqlite3_exec(
			db,
			"ALTER TABLE intervals DROP COLUMN merged;" /* v13's */
			"DROP TABLE changes;"
			"CREATE TABLE changes( id INTEGER PRIMARY KEY,"
			" session_id INTEGER NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,"
			" detected_ns INTEGER NOT NULL, workload TEXT NOT NULL, node TEXT NOT NULL,"
			" before REAL NOT NULL, after REAL NOT NULL, n_before INTEGER NOT NULL, n_after INTEGER NOT "
			"NULL,"
			" p_value REAL NOT NULL, drill_session_id INTEGER REFERENCES sessions(id) ON DELETE SET NULL);"
			"INSERT INTO changes VALUES(7, 1, 123, '/g', 'Running', 0.25, 0.75, 30, 5, 0.001, NULL);"
			"PRAGMA user_version = 11;",
			NULL, NULL, NULL),
		SQLITE_OK);
	sqlite3_close(db);
	assert_int_equal(td_store_open(p, TD_STORE_WRITE, &s, &err), 0);
	assert_int_equal(sql_int(p, "PRAGMA user_version"), TD_SCHEMA_VERSION);
	assert_int_equal(td_store_changes(s, on_change, &seen), 0);
	assert_int_equal(seen.n, 1);
	assert_true(seen.c.id == 7 && seen.c.session == 1 && seen.c.when_ns == 123);
	assert_false(seen.c.threshold);
	assert_true(seen.c.before == 0.25 && seen.c.after == 0.75 && seen.c.p == 0.001);
	assert_int_equal(seen.c.n_before, 30);
	assert_int_equal(seen.c.n_after, 5);
	assert_int_equal(seen.c.before_first, -1);
	assert_int_equal(seen.c.after_last, -1);
	/* a threshold's change: its baseline not counted */
	struct td_store_change t = { .session = 1,
				     .when_ns = 456,
				     .workload = "/g",
				     .node = "Running",
				     .threshold = true,
				     .before = NAN,
				     .after = 0.9,
				     .p = NAN,
				     .n_before = 0,
				     .n_after = 4,
				     .before_first = 3,
				     .before_last = 14,
				     .after_first = 17,
				     .after_last = 20 };
	assert_true(td_store_change_add(s, &t) > 7);
	seen.n = 0;
	assert_int_equal(td_store_changes(s, on_change, &seen), 0);
	assert_int_equal(seen.n, 2);
	assert_true(seen.c.threshold);
	assert_true(isnan(seen.c.before) && isnan(seen.c.p) && seen.c.after == 0.9);
	assert_true(seen.c.before_first == 3 && seen.c.before_last == 14 && seen.c.after_first == 17 &&
		    seen.c.after_last == 20);
	td_store_close(s);
	assert_int_equal(sql_int(p, "SELECT count(*) FROM changes WHERE before IS NULL AND p_value IS NULL"), 1);
	assert_int_equal(sql_int(p, "SELECT count(*) FROM changes WHERE kind = 'moved' AND id = 7"), 1);
	assert_int_equal(sql_int(p, "SELECT count(*) FROM pragma_integrity_check WHERE integrity_check != 'ok'"), 0);
}

static void test_query_only(void **state)
{
	struct td_store *s;
	td_err err;

	(void)state;
	assert_int_equal(td_store_open(path, TD_STORE_QUERY, &s, &err), 0);
	assert_int_equal(td_store_query(s, "DELETE FROM sessions", NULL, NULL, &err), -1);
	assert_non_null(strstr(err.msg, "only reads"));
	assert_int_equal(td_store_query(s, "SELECT 1; DROP TABLE sessions", NULL, NULL, &err), -1);
	td_store_close(s);
	assert_int_equal(sql_int(path, "SELECT count(*) FROM sessions"), 1);
}

static void test_prune_age(void **state)
{
	struct td_store *s;
	td_err err;
	struct td_prune_result res;
	int64_t old, now;

	(void)state;
	unlink(path);
	assert_int_equal(td_store_open(path, TD_STORE_WRITE, &s, &err), 0);
	old = td_store_session_begin(s, &info, &err);
	now = td_store_session_begin(s, &info, &err);
	td_store_session_end(s, old, "completed", -1, NULL);
	td_store_session_end(s, now, "completed", -1, NULL);
	td_store_close(s);
	{
		sqlite3 *db;
		assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
		assert_int_equal(sqlite3_exec(db, "UPDATE sessions SET ended_ns = 1 WHERE id = 1", NULL, NULL, NULL),
				 0);
		sqlite3_close(db);
	}
	assert_int_equal(td_store_open(path, TD_STORE_WRITE, &s, &err), 0);
	assert_int_equal(td_store_prune(s, 3600ull * 1000000000ull, 0, &res, &err), 0);
	assert_int_equal(res.sessions_deleted, 1);
	assert_int_equal(td_store_latest_session(s), now);
	td_store_close(s);
	assert_int_equal(sql_int(path, "SELECT count(*) FROM sessions"), 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_counts_bits),   cmocka_unit_test(test_events_bits),
		cmocka_unit_test(test_counts_packed), cmocka_unit_test(test_counts_batched),
		cmocka_unit_test(test_targets),	      cmocka_unit_test(test_metrics_bits),
		cmocka_unit_test(test_metrics_rows),  cmocka_unit_test(test_migration_v1),
		cmocka_unit_test(test_migration_v2),  cmocka_unit_test(test_migration_v11_changes),
		cmocka_unit_test(test_query_only),    cmocka_unit_test(test_prune_age),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}

/* store_downsample: a session's old intervals made coarser. The intervals
 * whose start lies in one WIDTH-wide bucket of the wall clock become one
 * interval: the first of them, stretched to the last one's end, holding
 * per target and event the sums of their counts, enabled and running
 * times. A counter read at the bucket's first start and at its last end
 * would have given exactly these sums (each interval's counts are the
 * deltas between two reads), so the merged interval is what a session at
 * that interval would have recorded — nothing is estimated. Its metric
 * values are the caller's to write again (analysis/downsample.c).
 *
 * A bucket is left as it is when merging would lose something: when a
 * count is missing from it — outside BPF counting (where a missing row is
 * 0) an interval without rows, or a target without rows in an interval
 * between two it has rows in (a read failed: the sums would mix times) —
 * or a target's perf-group events differ between its intervals, or a
 * change (store_changes.c) was decided on one of its intervals (tdctl
 * report --change shows those intervals). */
#include <stdlib.h>
#include <string.h>

#include "store_impl.h"

int td_store_downsample_due(struct td_store *s, int64_t session, int from_seq, uint64_t before_ns, uint64_t width_ns,
			    struct td_ds_bucket *out, int max)
{
	sqlite3_stmt *st;
	int n = 0, step;

	if (width_ns == 0 || width_ns > INT64_MAX || before_ns > INT64_MAX || max <= 0)
		return 0;
	/* a bucket is due when the one after it has ended too: no interval that
	 * starts in it can still be written */
	if (sqlite3_prepare_v2(s->db,
			       "SELECT min(seq), max(seq), count(*), min(start_ns), max(end_ns) FROM intervals"
			       " WHERE session_id=?1 AND seq >= ?2 AND end_ns <= ?3"
			       " GROUP BY start_ns / ?4 HAVING (min(start_ns) / ?4 + 2) * ?4 <= ?3"
			       " ORDER BY 1 LIMIT ?5",
			       -1, &st, NULL) != SQLITE_OK)
		return -1;
	sqlite3_bind_int64(st, 1, session);
	sqlite3_bind_int(st, 2, from_seq);
	sqlite3_bind_int64(st, 3, (sqlite3_int64)before_ns);
	sqlite3_bind_int64(st, 4, (sqlite3_int64)width_ns);
	sqlite3_bind_int(st, 5, max);
	while ((step = sqlite3_step(st)) == SQLITE_ROW)
		out[n++] = (struct td_ds_bucket){
			.first_seq = sqlite3_column_int(st, 0),
			.last_seq = sqlite3_column_int(st, 1),
			.n = sqlite3_column_int(st, 2),
			.start_ns = (uint64_t)sqlite3_column_int64(st, 3),
			.end_ns = (uint64_t)sqlite3_column_int64(st, 4),
		};
	sqlite3_finalize(st);
	return step == SQLITE_DONE ? n : -1;
}

/* The ids of [?2, ?3] of session ?1. */
#define RANGE "(SELECT id FROM intervals WHERE session_id=?1 AND seq BETWEEN ?2 AND ?3)"
/* The first one's: the merged interval's. */
#define KEEP "(SELECT id FROM intervals WHERE session_id=?1 AND seq=?2)"
/* a total is known when every interval's is: NULL (not measured) otherwise */
#define TOTAL(c)                                                \
	"(SELECT CASE WHEN count(" c ") = count(*) THEN sum(" c \
	") END FROM intervals WHERE session_id=?1 AND seq BETWEEN ?2 AND ?3)"

/* The statements of a bucket, each bound to (session, first seq, last seq),
 * prepared once for all the buckets of a call. */
enum {
	Q_CHANGES,
	Q_BPF,
	Q_ROWS,
	Q_KINDS,
	Q_KEEP,
	Q_END,
	Q_METRICS,
	Q_SAMPLES,
	Q_HOT,
	Q_STACK,
	Q_INTERVALS,
	NQ
};
/* the events of perf groups (/proc's counts come when read) */
#define GROUPED "JOIN events e ON e.id = c.event_id WHERE e.group_idx >= 0"
static const char *const sqls[NQ] = {
	/* a change decided on one of its intervals */
	[Q_CHANGES] = "SELECT count(*) FROM changes WHERE session_id=?1 AND before_first_seq IS NOT NULL"
		      " AND before_first_seq <= ?3 AND after_last_seq >= ?2",
	/* counted by the BPF program: a target's missing row is 0 (docs/schema.md, samples) */
	[Q_BPF] = "SELECT coalesce(counting = 'bpf', 0) FROM sessions WHERE id=?1 AND ?2 = ?2 AND ?3 = ?3",
	/* elsewhere a missing row is "not counted": every interval has rows, and
	 * no target misses one between its first and its last in the bucket (one
	 * born or gone inside it counted what it lived) */
	[Q_ROWS] = "SELECT (SELECT count(DISTINCT interval_id) FROM samples WHERE interval_id IN " RANGE
		   ") = (SELECT count(*) FROM intervals WHERE session_id=?1 AND seq BETWEEN ?2 AND ?3)"
		   " AND NOT EXISTS (SELECT 1 FROM (SELECT c.thread_id, min(i.seq) lo, max(i.seq) hi,"
		   "  count(DISTINCT i.seq) n FROM counts c JOIN intervals i ON i.id = c.interval_id " GROUPED
		   "  AND i.session_id=?1 AND i.seq BETWEEN ?2 AND ?3 GROUP BY c.thread_id) t"
		   "  WHERE t.n != (SELECT count(*) FROM intervals WHERE session_id=?1 AND seq BETWEEN t.lo AND t.hi))",
	/* each target's events are the same in each interval it has rows in:
	 * their ids in order (each value's: a samples row holds a run of them),
	 * one name per target */
	[Q_KINDS] = "SELECT NOT EXISTS (SELECT 1 FROM (SELECT target_id, group_concat(event_id) AS sig"
		    "  FROM (SELECT c.interval_id, c.thread_id AS target_id, c.event_id FROM counts c " GROUPED
		    "   AND c.interval_id IN " RANGE " ORDER BY 1, 2, 3) GROUP BY interval_id, target_id)"
		    "  GROUP BY target_id HAVING count(DISTINCT sig) > 1)",
	[Q_KEEP] = "SELECT id FROM intervals WHERE session_id=?1 AND seq=?2 AND ?3 = ?3",
	[Q_END] =
		"UPDATE intervals SET"
		" end_ns = (SELECT max(end_ns) FROM intervals WHERE session_id=?1 AND seq BETWEEN ?2 AND ?3),"
		" collector_ns = " TOTAL("collector_ns") ", counter_reads = " TOTAL(
			"counter_reads") ","
					 " syscalls = " TOTAL(
						 "syscalls") ","
							     " merged = (SELECT sum(coalesce(merged, 1)) FROM "
							     "intervals WHERE session_id=?1 AND seq BETWEEN ?2 AND ?3)"
							     " WHERE session_id=?1 AND seq=?2",
	[Q_METRICS] = "DELETE FROM metrics WHERE interval_id IN " RANGE,
	[Q_SAMPLES] = "DELETE FROM samples WHERE interval_id IN " RANGE,
	[Q_HOT] = "UPDATE samples_hot SET interval_id = " KEEP " WHERE interval_id IN " RANGE,
	[Q_STACK] = "UPDATE samples_stack SET interval_id = " KEEP " WHERE interval_id IN " RANGE,
	[Q_INTERVALS] = "DELETE FROM intervals WHERE session_id=?1 AND seq > ?2 AND seq <= ?3",
};
#undef GROUPED
#undef TOTAL
#undef KEEP
#undef RANGE

struct stmts {
	sqlite3_stmt *q[NQ];
};

static void finish(struct stmts *t)
{
	for (int i = 0; i < NQ; i++)
		sqlite3_finalize(t->q[i]);
}

static int prepare(struct td_store *s, struct stmts *t)
{
	memset(t, 0, sizeof(*t));
	for (int i = 0; i < NQ; i++)
		if (sqlite3_prepare_v2(s->db, sqls[i], -1, &t->q[i], NULL) != SQLITE_OK) {
			finish(t);
			return -1;
		}
	return 0;
}

/* Run st over [first, last] of session: its first column's integer (0
 * when it gives no row), or -1 on error. */
static int64_t run(sqlite3_stmt *st, int64_t session, int first, int last)
{
	int64_t v = 0;
	int step;

	sqlite3_reset(st);
	sqlite3_bind_int64(st, 1, session);
	sqlite3_bind_int(st, 2, first);
	sqlite3_bind_int(st, 3, last);
	step = sqlite3_step(st);
	if (step == SQLITE_ROW)
		v = sqlite3_column_int64(st, 0);
	else if (step != SQLITE_DONE)
		v = -1;
	sqlite3_reset(st);
	return v;
}

static int mergeable(struct stmts *t, int64_t session, const struct td_ds_bucket *b)
{
	int64_t changes, bpf, rows, kinds;

	if (b->n < 2)
		return 0; /* nothing to merge (a bucket merged before has one) */
	changes = run(t->q[Q_CHANGES], session, b->first_seq, b->last_seq);
	bpf = run(t->q[Q_BPF], session, b->first_seq, b->last_seq);
	rows = bpf ? 1 : run(t->q[Q_ROWS], session, b->first_seq, b->last_seq);
	kinds = run(t->q[Q_KINDS], session, b->first_seq, b->last_seq);
	if (changes < 0 || bpf < 0 || rows < 0 || kinds < 0)
		return -1;
	return changes == 0 && rows == 1 && kinds == 1;
}

int td_store_downsample_mergeable(struct td_store *s, int64_t session, const struct td_ds_bucket *b)
{
	struct stmts t;
	int m;

	if (prepare(s, &t))
		return -1;
	m = mergeable(&t, session, b);
	finish(&t);
	return m;
}

/* The counts of the buckets, in seq order: per target and event, after
 * add_up, the sums of one bucket's. */
struct sums {
	struct sum {
		int seq;
		int64_t target, event;
		uint64_t value, enabled, running;
	} * v;
	int n, cap;
};

static int add_row(const struct td_count_row *r, void *ctx)
{
	struct sums *x = ctx;

	if (x->n == x->cap) {
		int cap = x->cap ? 2 * x->cap : 64;
		struct sum *nv = realloc(x->v, (size_t)cap * sizeof(*nv));
		if (!nv)
			return -1;
		x->v = nv;
		x->cap = cap;
	}
	x->v[x->n++] = (struct sum){ r->seq, r->target, r->event, r->value, r->enabled, r->running };
	return 0;
}

static int cmp_sum(const void *a, const void *b)
{
	const struct sum *x = a, *y = b;

	if (x->target != y->target)
		return (x->target > y->target) - (x->target < y->target);
	return (x->event > y->event) - (x->event < y->event);
}

/* Sort v[0..n), and add up the rows of one (target, event): the number of pairs. */
static int add_up(struct sum *v, int n)
{
	int k = 0;

	qsort(v, (size_t)n, sizeof(*v), cmp_sum);
	for (int i = 0; i < n; i++) {
		if (k && !cmp_sum(&v[k - 1], &v[i])) {
			v[k - 1].value += v[i].value;
			v[k - 1].enabled += v[i].enabled;
			v[k - 1].running += v[i].running;
		} else
			v[k++] = v[i];
	}
	return k;
}

/* Write the sums v[0..n) into interval, one target's events at a time (c: room for n). */
static int write_sums(struct td_store *s, int64_t interval, const struct sum *v, int n, struct td_store_count *c)
{
	for (int i = 0, j; i < n; i = j) {
		int k = 0;
		for (j = i; j < n && v[j].target == v[i].target; j++)
			c[k++] = (struct td_store_count){ v[j].event, v[j].value, v[j].enabled, v[j].running };
		if (td_store_samples_put(s, interval, v[i].target, c, k))
			return -1;
	}
	return 0;
}

/* Merge bucket b, whose counts are v[0..n). */
static int merge(struct td_store *s, struct stmts *t, int64_t session, const struct td_ds_bucket *b, struct sum *v,
		 int n)
{
	int64_t keep = run(t->q[Q_KEEP], session, b->first_seq, b->last_seq);
	struct td_store_count *c = malloc((size_t)(n + 1) * sizeof(*c));
	int rc = keep > 0 && c ? 0 : -1;

	n = add_up(v, n);
	for (int q = Q_END; rc == 0 && q < NQ; q++)
		rc = run(t->q[q], session, b->first_seq, b->last_seq) < 0 ? -1 : 0;
	if (rc == 0)
		rc = write_sums(s, keep, v, n, c);
	free(c);
	return rc;
}

int td_store_downsample_merge(struct td_store *s, int64_t session, const struct td_ds_bucket *b, int n, bool *merged)
{
	struct sums x = { 0 };
	struct stmts t;
	int rc, at = 0;

	if (n <= 0)
		return 0;
	if (prepare(s, &t))
		return -1;
	/* the counts first, of all of them in one read: the rows are about to go */
	rc = td_store_counts_range(s, session, b[0].first_seq, b[n - 1].last_seq, add_row, &x);
	for (int i = 0; rc == 0 && i < n; i++) {
		int m = mergeable(&t, session, &b[i]), end;
		while (at < x.n && x.v[at].seq < b[i].first_seq)
			at++;
		for (end = at; end < x.n && x.v[end].seq <= b[i].last_seq; end++)
			;
		merged[i] = m > 0;
		if (m < 0 || (m > 0 && merge(s, &t, session, &b[i], x.v + at, end - at)))
			rc = -1;
		at = end;
	}
	free(x.v);
	finish(&t);
	return rc;
}

int td_store_sessions_scheduled(struct td_store *s, const char *glob, int (*fn)(void *ctx, int64_t id), void *ctx)
{
	sqlite3_stmt *st;
	int rc = 0, step;

	if (sqlite3_prepare_v2(s->db, "SELECT id FROM sessions WHERE schedule GLOB ?1 ORDER BY id", -1, &st, NULL) !=
	    SQLITE_OK)
		return -1;
	td_store_bind_text(st, 1, glob);
	while (rc == 0 && (step = sqlite3_step(st)) == SQLITE_ROW)
		rc = fn(ctx, sqlite3_column_int64(st, 0));
	if (rc == 0 && step != SQLITE_DONE)
		rc = -1;
	sqlite3_finalize(st);
	return rc;
}

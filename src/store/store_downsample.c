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
 * A bucket is left as it is when merging would lose something: when one
 * of its intervals has no counts, or a target's perf-group events differ
 * between its intervals (a read failed: the sums would mix times), or when
 * a change (store_changes.c) was decided on one of its intervals (tdctl
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

/* One integer of a query over [first_seq, last_seq] of session; -1 on error. */
static int64_t range_int(struct td_store *s, const char *sql, int64_t session, int first_seq, int last_seq)
{
	sqlite3_stmt *st;
	int64_t v = -1;

	if (sqlite3_prepare_v2(s->db, sql, -1, &st, NULL) != SQLITE_OK)
		return -1;
	sqlite3_bind_int64(st, 1, session);
	sqlite3_bind_int(st, 2, first_seq);
	sqlite3_bind_int(st, 3, last_seq);
	if (sqlite3_step(st) == SQLITE_ROW)
		v = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return v;
}

int td_store_downsample_mergeable(struct td_store *s, int64_t session, const struct td_ds_bucket *b)
{
	int64_t changes, kinds;

	if (b->n < 2)
		return 0; /* nothing to merge (a bucket merged before has one) */
	changes = range_int(s,
			    "SELECT count(*) FROM changes WHERE session_id=?1 AND before_first_seq IS NOT NULL"
			    " AND before_first_seq <= ?3 AND after_last_seq >= ?2",
			    session, b->first_seq, b->last_seq);
	/* every interval has rows, and each target's events (those of perf
	 * groups: /proc's counts come when read) are the same in each interval
	 * it has rows in: their ids in order (each value's: a samples row
	 * holds a run of them), one name per target */
	kinds = range_int(
		s,
		"SELECT (SELECT count(DISTINCT interval_id) FROM samples WHERE interval_id IN " RANGE
		") = (SELECT count(*) FROM intervals WHERE session_id=?1 AND seq BETWEEN ?2 AND ?3)"
		" AND NOT EXISTS (SELECT 1 FROM (SELECT target_id, group_concat(event_id) AS sig"
		"  FROM (SELECT c.interval_id, c.thread_id AS target_id, c.event_id FROM counts c JOIN events e"
		"   ON e.id = c.event_id WHERE e.group_idx >= 0 AND c.interval_id IN " RANGE
		"   ORDER BY 1, 2, 3) GROUP BY interval_id, target_id)"
		"  GROUP BY target_id HAVING count(DISTINCT sig) > 1)",
		session, b->first_seq, b->last_seq);
	if (changes < 0 || kinds < 0)
		return -1;
	return changes == 0 && kinds == 1;
}

/* Per target and event, the sums of the bucket's counts. */
struct sums {
	struct sum {
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
	x->v[x->n++] = (struct sum){ r->target, r->event, r->value, r->enabled, r->running };
	return 0;
}

static int cmp_sum(const void *a, const void *b)
{
	const struct sum *x = a, *y = b;

	if (x->target != y->target)
		return (x->target > y->target) - (x->target < y->target);
	return (x->event > y->event) - (x->event < y->event);
}

/* Sort, and add up the rows of one (target, event): n afterwards is the number of pairs. */
static void add_up(struct sums *x)
{
	int k = 0;

	qsort(x->v, (size_t)x->n, sizeof(*x->v), cmp_sum);
	for (int i = 0; i < x->n; i++) {
		if (k && !cmp_sum(&x->v[k - 1], &x->v[i])) {
			x->v[k - 1].value += x->v[i].value;
			x->v[k - 1].enabled += x->v[i].enabled;
			x->v[k - 1].running += x->v[i].running;
		} else
			x->v[k++] = x->v[i];
	}
	x->n = k;
}

/* Write the sums into interval, one target's events at a time. */
static int write_sums(struct td_store *s, int64_t interval, const struct sums *x)
{
	struct td_store_count *c = malloc((size_t)(x->n + 1) * sizeof(*c));
	int rc = c ? 0 : -1;

	for (int i = 0, j; rc == 0 && i < x->n; i = j) {
		int k = 0;
		for (j = i; j < x->n && x->v[j].target == x->v[i].target; j++)
			c[k++] = (struct td_store_count){ x->v[j].event, x->v[j].value, x->v[j].enabled,
							  x->v[j].running };
		rc = td_store_samples_put(s, interval, x->v[i].target, c, k);
	}
	free(c);
	return rc;
}

int td_store_intervals_merge(struct td_store *s, int64_t session, int first_seq, int last_seq)
{
#define KEEP "(SELECT id FROM intervals WHERE session_id=?1 AND seq=?2)"
	/* a total is known when every interval's is: NULL (not measured) otherwise */
#define TOTAL(c)                                                \
	"(SELECT CASE WHEN count(" c ") = count(*) THEN sum(" c \
	") END FROM intervals WHERE session_id=?1 AND seq BETWEEN ?2 AND ?3)"
	static const char *const sqls[] = {
		"UPDATE intervals SET end_ns = (SELECT max(end_ns) FROM intervals WHERE session_id=?1 AND seq BETWEEN"
		" ?2 AND ?3), collector_ns = " TOTAL("collector_ns") ", counter_reads = " TOTAL(
			"counter_reads") ", syscalls = " TOTAL("syscalls") " WHERE session_id=?1 AND seq=?2",
		"DELETE FROM metrics WHERE interval_id IN " RANGE,
		"DELETE FROM samples WHERE interval_id IN " RANGE,
		"UPDATE samples_hot SET interval_id = " KEEP " WHERE interval_id IN " RANGE,
		"UPDATE samples_stack SET interval_id = " KEEP " WHERE interval_id IN " RANGE,
		"DELETE FROM intervals WHERE session_id=?1 AND seq > ?2 AND seq <= ?3",
	};
#undef TOTAL
#undef KEEP
	struct sums x = { 0 };
	int64_t keep =
		range_int(s, "SELECT id FROM intervals WHERE session_id=?1 AND seq=?2 AND ?3", session, first_seq, 1);
	int rc = keep > 0 ? 0 : -1;

	/* the counts first: the rows are about to go */
	if (rc == 0)
		rc = td_store_counts_range(s, session, first_seq, last_seq, add_row, &x);
	if (rc == 0)
		add_up(&x);
	for (size_t i = 0; rc == 0 && i < sizeof(sqls) / sizeof(sqls[0]); i++) {
		sqlite3_stmt *st;
		if (sqlite3_prepare_v2(s->db, sqls[i], -1, &st, NULL) != SQLITE_OK) {
			rc = -1;
			break;
		}
		sqlite3_bind_int64(st, 1, session);
		sqlite3_bind_int(st, 2, first_seq);
		sqlite3_bind_int(st, 3, last_seq);
		rc = sqlite3_step(st) == SQLITE_DONE ? 0 : -1;
		sqlite3_finalize(st);
	}
	if (rc == 0)
		rc = write_sums(s, keep, &x);
	free(x.v);
	return rc;
}

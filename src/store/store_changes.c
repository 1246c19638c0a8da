/* store_changes: the changes watch mode found (topdownd's [watch]) in the
 * database — when, which workload and node, the node's medians before and
 * after, the test's p-value, the watch session whose values moved and the
 * drill-down session started on it, the intervals it was decided on — written when found and read back, so a
 * change outlives the daemon that found it. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "store_impl.h"

/* v, or NULL for NaN (not known) */
static void bind_known(sqlite3_stmt *st, int i, double v)
{
	if (isnan(v))
		sqlite3_bind_null(st, i);
	else
		sqlite3_bind_double(st, i, v);
}

/* column col, NaN for NULL */
static double known_col(sqlite3_stmt *st, int col)
{
	return sqlite3_column_type(st, col) == SQLITE_NULL ? NAN : sqlite3_column_double(st, col);
}

int64_t td_store_change_add(struct td_store *s, const struct td_store_change *c)
{
	sqlite3_stmt *st;
	int64_t id = -1;

	if (sqlite3_prepare_v2(s->db,
			       "INSERT INTO changes(session_id, detected_ns, workload, node, before, after, n_before,"
			       " n_after, p_value, drill_session_id, before_first_seq, before_last_seq,"
			       " after_first_seq, after_last_seq, kind) VALUES(?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
			       -1, &st, NULL) != SQLITE_OK)
		return -1;
	sqlite3_bind_int64(st, 1, c->session);
	sqlite3_bind_int64(st, 2, (sqlite3_int64)c->when_ns);
	td_store_bind_text(st, 3, c->workload);
	td_store_bind_text(st, 4, c->node);
	bind_known(st, 5, c->before);
	sqlite3_bind_double(st, 6, c->after);
	sqlite3_bind_int(st, 7, c->n_before);
	sqlite3_bind_int(st, 8, c->n_after);
	bind_known(st, 9, c->p);
	if (c->drill > 0)
		sqlite3_bind_int64(st, 10, c->drill);
	else
		sqlite3_bind_null(st, 10);
	const int seqs[4] = { c->before_first, c->before_last, c->after_first, c->after_last };
	for (int k = 0; k < 4; k++)
		if (seqs[k] >= 0)
			sqlite3_bind_int(st, 11 + k, seqs[k]);
		else
			sqlite3_bind_null(st, 11 + k);
	sqlite3_bind_text(st, 15, c->threshold ? "threshold" : "moved", -1, SQLITE_STATIC);
	if (sqlite3_step(st) == SQLITE_DONE)
		id = sqlite3_last_insert_rowid(s->db);
	sqlite3_finalize(st);
	return id;
}

static char *dup_col(sqlite3_stmt *st, int col)
{
	const unsigned char *t = sqlite3_column_text(st, col);
	return strdup(t ? (const char *)t : "");
}

int td_store_changes(struct td_store *s, td_change_fn fn, void *ctx)
{
	sqlite3_stmt *st;
	int rc = 0, step;

	if (sqlite3_prepare_v2(
		    s->db,
		    "SELECT id, session_id, detected_ns, workload, node, before, after, n_before, n_after,"
		    " p_value, coalesce(drill_session_id, 0), coalesce(before_first_seq, -1),"
		    " coalesce(before_last_seq, -1), coalesce(after_first_seq, -1), coalesce(after_last_seq, -1),"
		    " kind = 'threshold' FROM changes ORDER BY id",
		    -1, &st, NULL) != SQLITE_OK)
		return -1;
	while (rc == 0 && (step = sqlite3_step(st)) == SQLITE_ROW) {
		struct td_store_change c = {
			.id = sqlite3_column_int64(st, 0),
			.session = sqlite3_column_int64(st, 1),
			.when_ns = (uint64_t)sqlite3_column_int64(st, 2),
			.workload = dup_col(st, 3),
			.node = dup_col(st, 4),
			.before = known_col(st, 5),
			.after = sqlite3_column_double(st, 6),
			.n_before = sqlite3_column_int(st, 7),
			.n_after = sqlite3_column_int(st, 8),
			.p = known_col(st, 9),
			.drill = sqlite3_column_int64(st, 10),
			.before_first = sqlite3_column_int(st, 11),
			.before_last = sqlite3_column_int(st, 12),
			.after_first = sqlite3_column_int(st, 13),
			.after_last = sqlite3_column_int(st, 14),
			.threshold = sqlite3_column_int(st, 15) != 0,
		};
		if (!c.workload || !c.node)
			rc = -1;
		else
			rc = fn(ctx, &c);
		free(c.workload);
		free(c.node);
	}
	if (rc == 0 && step != SQLITE_DONE)
		rc = -1;
	sqlite3_finalize(st);
	return rc;
}

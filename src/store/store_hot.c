/* store_hot: hotspots in the database — a session's sampling row (event,
 * node, period, samples and what was lost) and its samples per interval,
 * thread and code location (samples_hot) and its folded call stacks (samples_stack), written and read back. */
#include <stdio.h>

#include "store_impl.h"

/* The sampling row of session: inserted, or updated (exactly one row). */
static int sampling_write(struct td_store *s, const char *sql, bool update, int64_t session, const char *event,
			  const char *node, uint64_t period, const char *note)
{
	sqlite3_stmt *st;
	int rc;

	if (sqlite3_prepare_v2(s->db, sql, -1, &st, NULL) != SQLITE_OK)
		return -1;
	sqlite3_bind_int64(st, 1, session);
	td_store_bind_text(st, 2, event);
	td_store_bind_text(st, 3, node);
	sqlite3_bind_int64(st, 4, (sqlite3_int64)period);
	td_store_bind_text(st, 5, note);
	rc = sqlite3_step(st) == SQLITE_DONE && (!update || sqlite3_changes(s->db) == 1) ? 0 : -1;
	sqlite3_finalize(st);
	return rc;
}

int td_store_sampling_add(struct td_store *s, int64_t session, const char *event, const char *node, uint64_t period,
			  const char *note)
{
	return sampling_write(s, "INSERT INTO sampling(session_id, event, node, period, note) VALUES(?1,?2,?3,?4,?5)",
			      false, session, event, node, period, note);
}

int td_store_sampling_update(struct td_store *s, int64_t session, const char *event, const char *node, uint64_t period,
			     const char *note)
{
	return sampling_write(s, "UPDATE sampling SET event=?2, node=?3, period=?4, note=?5 WHERE session_id=?1", true,
			      session, event, node, period, note);
}

int td_store_sampling_totals(struct td_store *s, int64_t session, uint64_t samples, uint64_t lost, uint64_t throttled,
			     uint64_t unresolved)
{
	sqlite3_stmt *st;
	int rc;

	if (sqlite3_prepare_v2(
		    s->db, "UPDATE sampling SET samples=?2, lost=?3, throttled=?4, unresolved=?5 WHERE session_id=?1",
		    -1, &st, NULL) != SQLITE_OK)
		return -1;
	sqlite3_bind_int64(st, 1, session);
	sqlite3_bind_int64(st, 2, (sqlite3_int64)samples);
	sqlite3_bind_int64(st, 3, (sqlite3_int64)lost);
	sqlite3_bind_int64(st, 4, (sqlite3_int64)throttled);
	sqlite3_bind_int64(st, 5, (sqlite3_int64)unresolved);
	rc = sqlite3_step(st) == SQLITE_DONE ? 0 : -1;
	sqlite3_finalize(st);
	return rc;
}

int td_store_hot_add(struct td_store *s, int64_t session, int64_t interval, const struct td_hot_row *r)
{
	sqlite3_stmt *st = s->stmt[ST_HOT_ADD];

	sqlite3_bind_int64(st, 1, session);
	sqlite3_bind_int64(st, 2, interval);
	sqlite3_bind_int(st, 3, (int)r->pid);
	sqlite3_bind_int(st, 4, (int)r->tid);
	td_store_bind_text(st, 5, r->node);
	td_store_bind_text(st, 6, r->function);
	td_store_bind_text(st, 7, r->module);
	td_store_bind_text(st, 8, r->file);
	if (r->file)
		sqlite3_bind_int(st, 9, r->line);
	else
		sqlite3_bind_null(st, 9);
	sqlite3_bind_int64(st, 10, (sqlite3_int64)r->count);
	return td_store_step_insert(s, st) < 0 ? -1 : 0;
}

int td_store_sampling(struct td_store *s, int64_t session, struct td_sampling_row *out)
{
	sqlite3_stmt *st;
	int rc;

	if (sqlite3_prepare_v2(s->db,
			       "SELECT event, node, note, period, samples, lost, throttled, unresolved FROM sampling"
			       " WHERE session_id=?",
			       -1, &st, NULL) != SQLITE_OK)
		return -1;
	sqlite3_bind_int64(st, 1, session);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW) {
		snprintf(out->event, sizeof(out->event), "%s", td_store_col_text(st, 0));
		snprintf(out->node, sizeof(out->node), "%s", td_store_col_text(st, 1));
		snprintf(out->note, sizeof(out->note), "%s", td_store_col_text(st, 2));
		out->period = (uint64_t)sqlite3_column_int64(st, 3);
		out->samples = (uint64_t)sqlite3_column_int64(st, 4);
		out->lost = (uint64_t)sqlite3_column_int64(st, 5);
		out->throttled = (uint64_t)sqlite3_column_int64(st, 6);
		out->unresolved = (uint64_t)sqlite3_column_int64(st, 7);
		rc = 1;
	} else {
		rc = rc == SQLITE_DONE ? 0 : -1;
	}
	sqlite3_finalize(st);
	return rc;
}

int td_store_hot_rows(struct td_store *s, int64_t session, int first, int last, td_hot_fn fn, void *ctx)
{
	static const char sql[] =
		"SELECT h.pid, h.tid,"
		" coalesce((SELECT t.comm FROM targets t WHERE t.session_id = h.session_id AND t.kind = 'thread'"
		"  AND t.tid = h.tid ORDER BY t.id DESC LIMIT 1), ''),"
		" h.node, h.function, h.module, h.file, h.line, sum(h.count), min(i.seq), max(i.seq)"
		" FROM samples_hot h JOIN intervals i ON i.id = h.interval_id"
		" WHERE h.session_id = ?1 AND i.seq >= ?2 AND (?3 < 0 OR i.seq <= ?3)"
		" GROUP BY h.pid, h.tid, h.node, h.function, h.module, h.file, h.line"
		" ORDER BY sum(h.count) DESC, h.tid, h.function, h.line";
	sqlite3_stmt *st;
	int rc;

	if (sqlite3_prepare_v2(s->db, sql, -1, &st, NULL) != SQLITE_OK)
		return -1;
	sqlite3_bind_int64(st, 1, session);
	sqlite3_bind_int(st, 2, first);
	sqlite3_bind_int(st, 3, last);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct td_hot_row r = {
			.pid = (pid_t)sqlite3_column_int(st, 0),
			.tid = (pid_t)sqlite3_column_int(st, 1),
			.comm = td_store_col_text(st, 2),
			.node = sqlite3_column_type(st, 3) == SQLITE_NULL ? NULL : td_store_col_text(st, 3),
			.function = td_store_col_text(st, 4),
			.module = td_store_col_text(st, 5),
			.file = sqlite3_column_type(st, 6) == SQLITE_NULL ? NULL : td_store_col_text(st, 6),
			.line = sqlite3_column_int(st, 7),
			.count = (uint64_t)sqlite3_column_int64(st, 8),
			.first_seq = sqlite3_column_int(st, 9),
			.last_seq = sqlite3_column_int(st, 10),
		};
		if (fn(&r, ctx)) {
			sqlite3_finalize(st);
			return 1;
		}
	}
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? 0 : -1;
}

int td_store_hot_stack_add(struct td_store *s, int64_t session, int64_t interval, pid_t pid, pid_t tid,
			   const char *node, const char *stack, uint64_t count)
{
	sqlite3_stmt *st = s->stmt[ST_HOT_STACK_ADD];

	sqlite3_bind_int64(st, 1, session);
	sqlite3_bind_int64(st, 2, interval);
	sqlite3_bind_int(st, 3, (int)pid);
	sqlite3_bind_int(st, 4, (int)tid);
	td_store_bind_text(st, 5, node);
	td_store_bind_text(st, 6, stack);
	sqlite3_bind_int64(st, 7, (sqlite3_int64)count);
	return td_store_step_insert(s, st) < 0 ? -1 : 0;
}

int td_store_hot_stacks(struct td_store *s, int64_t session, int first, int last, bool per_thread, td_hot_stack_fn fn,
			void *ctx)
{
	static const char sql[] =
		"SELECT h.node, CASE WHEN ?2 THEN h.tid ELSE 0 END AS t,"
		" CASE WHEN ?2 THEN coalesce((SELECT c.comm FROM targets c WHERE c.session_id = h.session_id"
		"  AND c.kind = 'thread' AND c.tid = h.tid ORDER BY c.id DESC LIMIT 1), '') ELSE '' END,"
		" h.stack, sum(h.count) FROM samples_stack h JOIN intervals i ON i.id = h.interval_id"
		" WHERE h.session_id = ?1 AND i.seq >= ?3 AND (?4 < 0 OR i.seq <= ?4)"
		" GROUP BY h.node, t, h.stack ORDER BY sum(h.count) DESC, t, h.stack";
	sqlite3_stmt *st;
	int rc;

	if (sqlite3_prepare_v2(s->db, sql, -1, &st, NULL) != SQLITE_OK)
		return -1;
	sqlite3_bind_int64(st, 1, session);
	sqlite3_bind_int(st, 2, per_thread);
	sqlite3_bind_int(st, 3, first);
	sqlite3_bind_int(st, 4, last);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		if (fn(sqlite3_column_type(st, 0) == SQLITE_NULL ? NULL : td_store_col_text(st, 0),
		       (pid_t)sqlite3_column_int(st, 1), td_store_col_text(st, 2), td_store_col_text(st, 3),
		       (uint64_t)sqlite3_column_int64(st, 4), ctx)) {
			sqlite3_finalize(st);
			return 1;
		}
	}
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? 0 : -1;
}

/* store_prune: retention — deleting sessions older than an age, then, while
 * the data is over a size, the oldest sessions and then the oldest intervals
 * of the oldest remaining one, and vacuuming so the file shrinks. Sessions
 * still being written (status running, writer alive) are never deleted.
 * Children are deleted explicitly, samples and metrics first, by interval
 * (their key's prefix): samples name their target and event without a
 * foreign key, as a cascade from targets or events would scan them all. */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "store_impl.h"

static uint64_t file_bytes(const char *path)
{
	char wal[600];
	struct stat st;
	uint64_t n = 0;

	if (stat(path, &st) == 0)
		n += (uint64_t)st.st_size;
	snprintf(wal, sizeof(wal), "%s-wal", path);
	if (stat(wal, &st) == 0)
		n += (uint64_t)st.st_size;
	return n;
}

/* Bytes of pages holding data (the file's size after a vacuum). */
static uint64_t used_bytes(struct td_store *s)
{
	int pages = 0, free_pages = 0, page_size = 0;

	td_store_pragma_int(s, "PRAGMA page_count", &pages);
	td_store_pragma_int(s, "PRAGMA freelist_count", &free_pages);
	td_store_pragma_int(s, "PRAGMA page_size", &page_size);
	return (uint64_t)(pages - free_pages) * (uint64_t)page_size;
}

static int64_t query_id(struct td_store *s, const char *sql, int64_t arg)
{
	sqlite3_stmt *st;
	int64_t id = 0;

	if (sqlite3_prepare_v2(s->db, sql, -1, &st, NULL) != SQLITE_OK)
		return -1;
	sqlite3_bind_int64(st, 1, arg);
	if (sqlite3_step(st) == SQLITE_ROW)
		id = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return id;
}

/* Run statements (each using ?1 and maybe ?2) in one transaction, or in a
 * savepoint of the dry run's enclosing transaction. */
static int run_tx(struct td_store *s, const char *const *sqls, int n, int64_t a, int64_t b)
{
	bool nested = !sqlite3_get_autocommit(s->db);
	const char *rollback = nested ? "ROLLBACK TO prune_step; RELEASE prune_step" : "ROLLBACK";

	if (td_store_exec(s, nested ? "SAVEPOINT prune_step" : "BEGIN IMMEDIATE"))
		return -1;
	for (int i = 0; i < n; i++) {
		sqlite3_stmt *st;
		int ok;
		if (sqlite3_prepare_v2(s->db, sqls[i], -1, &st, NULL) != SQLITE_OK) {
			td_store_exec(s, rollback);
			return -1;
		}
		sqlite3_bind_int64(st, 1, a);
		if (sqlite3_bind_parameter_count(st) >= 2)
			sqlite3_bind_int64(st, 2, b);
		ok = sqlite3_step(st) == SQLITE_DONE;
		sqlite3_finalize(st);
		if (!ok) {
			td_store_exec(s, rollback);
			return -1;
		}
	}
	return td_store_exec(s, nested ? "RELEASE prune_step" : "COMMIT");
}

static int delete_session(struct td_store *s, int64_t id)
{
	static const char *const sqls[] = {
		"DELETE FROM metrics WHERE interval_id IN (SELECT id FROM intervals WHERE session_id=?1)",
		"DELETE FROM samples WHERE interval_id IN (SELECT id FROM intervals WHERE session_id=?1)",
		"DELETE FROM samples_hot WHERE session_id=?1",
		"DELETE FROM samples_stack WHERE session_id=?1",
		"DELETE FROM sampling WHERE session_id=?1",
		"DELETE FROM intervals WHERE session_id=?1",
		"DELETE FROM events WHERE session_id=?1",
		"DELETE FROM targets WHERE session_id=?1",
		"DELETE FROM top_processes WHERE session_id=?1",
		"DELETE FROM sessions WHERE id=?1",
	};
	return run_tx(s, sqls, (int)(sizeof(sqls) / sizeof(sqls[0])), id, 0);
}

/* Delete the n oldest intervals of a session. */
static int delete_intervals(struct td_store *s, int64_t session, int64_t n)
{
#define OLDEST "(SELECT id FROM intervals WHERE session_id=?1 ORDER BY seq LIMIT ?2)"
	static const char *const sqls[] = {
		"DELETE FROM metrics WHERE interval_id IN " OLDEST,
		"DELETE FROM samples WHERE interval_id IN " OLDEST,
		"DELETE FROM samples_hot WHERE interval_id IN " OLDEST,
		"DELETE FROM samples_stack WHERE interval_id IN " OLDEST,
		"DELETE FROM intervals WHERE id IN " OLDEST,
	};
#undef OLDEST
	return run_tx(s, sqls, (int)(sizeof(sqls) / sizeof(sqls[0])), session, n);
}

static int prune_age(struct td_store *s, uint64_t max_age_ns, struct td_prune_result *res)
{
	int64_t cutoff = (int64_t)(td_wall_ns() - max_age_ns), id;

	while ((id = query_id(s,
			      "SELECT id FROM sessions WHERE status != 'running' AND coalesce(ended_ns,"
			      " (SELECT max(end_ns) FROM intervals WHERE session_id = sessions.id), started_ns) < ?1"
			      " ORDER BY id LIMIT 1",
			      cutoff)) > 0) {
		if (delete_session(s, id))
			return -1;
		res->sessions_deleted++;
	}
	return id < 0 ? -1 : 0;
}

/* One step towards max_bytes: 1 if something was deleted, 0 if nothing can be, -1 on error. */
static int prune_size_step(struct td_store *s, struct td_prune_result *res)
{
	int64_t nsessions = query_id(s, "SELECT count(*) FROM sessions WHERE ?1", 1);
	int64_t victim = query_id(s, "SELECT id FROM sessions WHERE status != 'running' ORDER BY id LIMIT 1", 0);
	int64_t oldest, nint;

	if (nsessions > 1 && victim > 0) {
		res->sessions_deleted++;
		return delete_session(s, victim) ? -1 : 1;
	}
	oldest = query_id(s, "SELECT min(session_id) FROM intervals WHERE ?1", 1);
	if (oldest <= 0)
		return 0;
	nint = query_id(s, "SELECT count(*) FROM intervals WHERE session_id=?1", oldest);
	nint = nint / 8 > 0 ? nint / 8 : 1;
	res->intervals_deleted += nint;
	return delete_intervals(s, oldest, nint) ? -1 : 1;
}

/* Delete what is older than max_age_ns, then while the data exceeds max_bytes. */
static int delete_to_limits(struct td_store *s, uint64_t max_age_ns, uint64_t max_bytes, struct td_prune_result *res)
{
	int rc = max_age_ns ? prune_age(s, max_age_ns, res) : 0;

	while (rc == 0 && max_bytes && used_bytes(s) > max_bytes) {
		int step = prune_size_step(s, res);
		if (step <= 0)
			return step;
	}
	return rc;
}

static int prune(struct td_store *s, uint64_t max_age_ns, uint64_t max_bytes, bool dry_run, struct td_prune_result *res,
		 td_err *err)
{
	int rc;

	res->sessions_deleted = 0;
	res->intervals_deleted = 0;
	res->bytes_before = file_bytes(s->path);
	td_store_exec(s, "PRAGMA foreign_keys=OFF");
	if (dry_run) {
		/* every deletion in one transaction that is rolled back: the same choices, nothing removed */
		rc = td_store_exec(s, "BEGIN IMMEDIATE") ? -1 : delete_to_limits(s, max_age_ns, max_bytes, res);
		res->bytes_after = used_bytes(s); /* what the data would take after the vacuum */
		if (rc)
			td_err_set(err, "cannot look at database '%s': %s", s->path, sqlite3_errmsg(s->db));
		td_store_exec(s, "ROLLBACK");
		td_store_exec(s, "PRAGMA foreign_keys=ON");
		return rc;
	}
	td_store_recover(s);
	rc = delete_to_limits(s, max_age_ns, max_bytes, res);
	td_store_exec(s, "PRAGMA foreign_keys=ON");
	if (rc == 0 && (td_store_exec(s, "VACUUM") || td_store_exec(s, "PRAGMA wal_checkpoint(TRUNCATE)")))
		rc = -1;
	if (rc)
		td_err_set(err, "cannot prune database '%s': %s", s->path, sqlite3_errmsg(s->db));
	res->bytes_after = file_bytes(s->path);
	return rc;
}

/* One step on session id: its oldest intervals — as many as hold about
 * TD_RETAIN_STEP_ROWS rows, at most TD_RETAIN_STEP_INTERVALS — or, when no
 * more are left than that and the session is not running, the whole
 * session. 1 done, 0 nothing to do, -1 error. */
static int retain_session_step(struct td_store *s, int64_t id, bool may_delete_row, struct td_prune_result *res)
{
	int64_t n = query_id(s, "SELECT count(*) FROM intervals WHERE session_id=?1", id);
	int64_t oldest = query_id(s, "SELECT id FROM intervals WHERE session_id=?1 ORDER BY seq LIMIT 1", id);
	int64_t rows = oldest > 0 ? query_id(s,
					     "SELECT (SELECT count(*) FROM samples WHERE interval_id=?1) +"
					     " (SELECT count(*) FROM metrics WHERE interval_id=?1)",
					     oldest)
				  : 0;
	int64_t k = rows > 0 ? TD_RETAIN_STEP_ROWS / rows : TD_RETAIN_STEP_INTERVALS;

	if (n < 0 || oldest < 0 || rows < 0)
		return -1;
	k = k < 1 ? 1 : k > TD_RETAIN_STEP_INTERVALS ? TD_RETAIN_STEP_INTERVALS : k;
	if (n <= k) {
		if (!may_delete_row)
			k = n;
		else {
			res->sessions_deleted++;
			res->intervals_deleted += n;
			return delete_session(s, id) ? -1 : 1;
		}
	}
	if (k == 0)
		return 0;
	res->intervals_deleted += k;
	return delete_intervals(s, id, k) ? -1 : 1;
}

int td_store_retain_step(struct td_store *s, uint64_t max_age_ns, uint64_t max_bytes, struct td_prune_result *res,
			 td_err *err)
{
	int64_t id = 0;
	int rc = 0;

	memset(res, 0, sizeof(*res));
	td_store_exec(s, "PRAGMA foreign_keys=OFF");
	if (max_age_ns) {
		int64_t cutoff = (int64_t)(td_wall_ns() - max_age_ns);
		id = query_id(s,
			      "SELECT id FROM sessions WHERE status != 'running' AND coalesce(ended_ns,"
			      " (SELECT max(end_ns) FROM intervals WHERE session_id = sessions.id), started_ns) < ?1"
			      " ORDER BY id LIMIT 1",
			      cutoff);
		if (id > 0)
			rc = retain_session_step(s, id, true, res);
	}
	if (id == 0 && max_bytes && used_bytes(s) > max_bytes) {
		/* the oldest session that is not running, else the oldest intervals of any */
		if ((id = query_id(s, "SELECT id FROM sessions WHERE status != 'running' ORDER BY id LIMIT 1", 0)) > 0)
			rc = retain_session_step(s, id, true, res);
		else if ((id = query_id(s, "SELECT min(session_id) FROM intervals WHERE ?1", 1)) > 0)
			rc = retain_session_step(s, id, false, res);
	}
	td_store_exec(s, "PRAGMA foreign_keys=ON");
	if (id < 0 || rc < 0) {
		td_err_set(err, "cannot apply retention to database '%s': %s", s->path, sqlite3_errmsg(s->db));
		return -1;
	}
	return rc;
}

int td_store_prune(struct td_store *s, uint64_t max_age_ns, uint64_t max_bytes, struct td_prune_result *res,
		   td_err *err)
{
	return prune(s, max_age_ns, max_bytes, false, res, err);
}

int td_store_prune_dry_run(struct td_store *s, uint64_t max_age_ns, uint64_t max_bytes, struct td_prune_result *res,
			   td_err *err)
{
	return prune(s, max_age_ns, max_bytes, true, res, err);
}

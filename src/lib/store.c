/* store: SQLite schema v1, session lifecycle and crash recovery, batched
 * writes of raw interval counts, and the queries summaries need. */
#include "store.h"

#include <errno.h>
#include <math.h>
#include <signal.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "procfs.h"

/* 'TDWN': marks a SQLite file as a topdown database. */
#define TD_APPLICATION_ID 0x5444574e

enum stmt_id {
	ST_EVENT_ADD,
	ST_THREAD_ADD,
	ST_THREAD_SEEN,
	ST_INTERVAL_ADD,
	ST_COUNT_ADD,
	ST_COUNT
};

static const char *const stmt_sql[ST_COUNT] = {
	[ST_EVENT_ADD] = "INSERT INTO events(session_id,name,spec,group_idx,type,config,status,error) "
			 "VALUES(?,?,?,?,?,?,?,?)",
	[ST_THREAD_ADD] = "INSERT INTO threads(session_id,pid,tid,comm,first_seen_ns,last_seen_ns) VALUES(?,?,?,?,?,?)",
	[ST_THREAD_SEEN] = "UPDATE threads SET comm=coalesce(?,comm), last_seen_ns=?, exited=? WHERE id=?",
	[ST_INTERVAL_ADD] = "INSERT INTO intervals(session_id,seq,start_ns,end_ns) VALUES(?,?,?,?)",
	[ST_COUNT_ADD] = "INSERT INTO counts(interval_id,thread_id,event_id,value,enabled,running) VALUES(?,?,?,?,?,?)",
};

struct td_store {
	sqlite3 *db;
	sqlite3_stmt *stmt[ST_COUNT];
	char path[512];
};

static const char schema_v1[] =
	"CREATE TABLE sessions("
	" id INTEGER PRIMARY KEY,"
	" kind TEXT NOT NULL,"
	" command TEXT,"
	" target_pid INTEGER,"
	" host TEXT, kernel TEXT,"
	" cpu_vendor TEXT, cpu_family INTEGER, cpu_model INTEGER, cpu_name TEXT, uarch TEXT, pmu_model TEXT,"
	" rung TEXT, rung_reason TEXT, events_file TEXT,"
	" interval_ms INTEGER, kernel_counted INTEGER,"
	" started_ns INTEGER NOT NULL, ended_ns INTEGER,"
	" status TEXT NOT NULL CHECK(status IN ('running','completed','failed','interrupted')),"
	" exit_code INTEGER, message TEXT,"
	" writer_pid INTEGER, writer_boot TEXT, writer_start INTEGER);"
	"CREATE TABLE threads("
	" id INTEGER PRIMARY KEY,"
	" session_id INTEGER NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,"
	" pid INTEGER NOT NULL, tid INTEGER NOT NULL, comm TEXT,"
	" first_seen_ns INTEGER NOT NULL, last_seen_ns INTEGER,"
	" exited INTEGER NOT NULL DEFAULT 0);"
	"CREATE INDEX threads_by_session ON threads(session_id, tid);"
	"CREATE TABLE events("
	" id INTEGER PRIMARY KEY,"
	" session_id INTEGER NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,"
	" name TEXT NOT NULL, spec TEXT, group_idx INTEGER,"
	" type INTEGER, config INTEGER,"
	" status TEXT NOT NULL CHECK(status IN ('counting','failed')), error TEXT);"
	"CREATE INDEX events_by_session ON events(session_id);"
	"CREATE TABLE intervals("
	" id INTEGER PRIMARY KEY,"
	" session_id INTEGER NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,"
	" seq INTEGER NOT NULL, start_ns INTEGER NOT NULL, end_ns INTEGER NOT NULL,"
	" UNIQUE(session_id, seq));"
	"CREATE TABLE counts("
	" interval_id INTEGER NOT NULL REFERENCES intervals(id) ON DELETE CASCADE,"
	" thread_id INTEGER NOT NULL REFERENCES threads(id) ON DELETE CASCADE,"
	" event_id INTEGER NOT NULL REFERENCES events(id) ON DELETE CASCADE,"
	" value INTEGER NOT NULL, enabled INTEGER NOT NULL, running INTEGER NOT NULL,"
	" PRIMARY KEY(interval_id, thread_id, event_id)) WITHOUT ROWID;"
	"CREATE INDEX counts_by_thread ON counts(thread_id);";

const char *td_store_errmsg(struct td_store *s)
{
	return sqlite3_errmsg(s->db);
}

static int exec(struct td_store *s, const char *sql)
{
	return sqlite3_exec(s->db, sql, NULL, NULL, NULL) == SQLITE_OK ? 0 : -1;
}

static int pragma_int(struct td_store *s, const char *sql, int *out)
{
	sqlite3_stmt *st;
	int rc = sqlite3_prepare_v2(s->db, sql, -1, &st, NULL);

	if (rc != SQLITE_OK)
		return rc;
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW) {
		*out = sqlite3_column_int(st, 0);
		rc = SQLITE_OK;
	}
	sqlite3_finalize(st);
	return rc;
}

static void describe_open_error(td_err *err, const char *path, int rc, const char *what)
{
	if (rc == SQLITE_NOTADB)
		td_err_set(err, "'%s' is not a SQLite database: give another -d file, or move this one away", path);
	else if (rc == SQLITE_CANTOPEN || rc == SQLITE_READONLY || rc == SQLITE_PERM || rc == SQLITE_AUTH)
		td_err_set(err, "cannot %s database '%s' (%s): check that the directory exists and is writable, "
			    "or give another -d file", what, path, sqlite3_errstr(rc));
	else if (rc == SQLITE_CORRUPT)
		td_err_set(err, "database '%s' is corrupt (%s): move it away and start a new one, or try "
			    "'sqlite3 %s .recover'", path, sqlite3_errstr(rc), path);
	else if (rc == SQLITE_BUSY || rc == SQLITE_LOCKED)
		td_err_set(err, "database '%s' is locked by another program: wait for it or use another -d file", path);
	else
		td_err_set(err, "cannot %s database '%s': %s", what, path, sqlite3_errstr(rc));
}

static int check_or_create_schema(struct td_store *s, enum td_store_mode mode, td_err *err)
{
	int version = 0, appid = 0, ntables = 0, rc;

	if ((rc = pragma_int(s, "PRAGMA user_version", &version)) != SQLITE_OK ||
	    (rc = pragma_int(s, "PRAGMA application_id", &appid)) != SQLITE_OK ||
	    (rc = pragma_int(s, "SELECT count(*) FROM sqlite_master", &ntables)) != SQLITE_OK) {
		describe_open_error(err, s->path, rc, "read");
		return -1;
	}
	if (ntables == 0 && version == 0) {
		if (mode == TD_STORE_READ) {
			td_err_set(err, "'%s' holds no topdown data: record a session first (tdctl run -d %s -- CMD)",
				   s->path, s->path);
			return -1;
		}
		char sql[64];
		if (exec(s, "BEGIN IMMEDIATE") || exec(s, schema_v1)) {
			describe_open_error(err, s->path, sqlite3_errcode(s->db), "write");
			exec(s, "ROLLBACK");
			return -1;
		}
		snprintf(sql, sizeof(sql), "PRAGMA user_version=%d", TD_SCHEMA_VERSION);
		exec(s, sql);
		snprintf(sql, sizeof(sql), "PRAGMA application_id=%d", TD_APPLICATION_ID);
		exec(s, sql);
		if (exec(s, "COMMIT")) {
			describe_open_error(err, s->path, sqlite3_errcode(s->db), "write");
			return -1;
		}
		return 0;
	}
	if (appid != TD_APPLICATION_ID) {
		td_err_set(err, "'%s' is a SQLite database of another program, not topdown's: give another -d file",
			   s->path);
		return -1;
	}
	if (version > TD_SCHEMA_VERSION) {
		td_err_set(err, "database '%s' has schema version %d, newer than this tdctl understands (%d): "
			   "upgrade topdown", s->path, version, TD_SCHEMA_VERSION);
		return -1;
	}
	return 0;
}

int td_store_open(const char *path, enum td_store_mode mode, struct td_store **out, td_err *err)
{
	struct td_store *s = calloc(1, sizeof(*s));
	int flags = mode == TD_STORE_WRITE ? (SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE) : SQLITE_OPEN_READONLY;
	int rc;

	if (!s) {
		td_err_set(err, "out of memory");
		return -1;
	}
	snprintf(s->path, sizeof(s->path), "%s", path);
	if (mode == TD_STORE_READ && access(path, F_OK) != 0) {
		td_err_set(err, "no database '%s': record a session first (tdctl run -d %s -- CMD) or give -d", path,
			   path);
		free(s);
		return -1;
	}
	rc = sqlite3_open_v2(path, &s->db, flags | SQLITE_OPEN_NOMUTEX, NULL);
	if (rc != SQLITE_OK) {
		describe_open_error(err, path, rc, mode == TD_STORE_WRITE ? "create" : "open");
		td_store_close(s);
		return -1;
	}
	sqlite3_busy_timeout(s->db, 5000);
	if (check_or_create_schema(s, mode, err)) {
		td_store_close(s);
		return -1;
	}
	if (mode == TD_STORE_WRITE) {
		if (exec(s, "PRAGMA journal_mode=WAL") || exec(s, "PRAGMA synchronous=NORMAL")) {
			describe_open_error(err, path, sqlite3_errcode(s->db), "write");
			td_store_close(s);
			return -1;
		}
		for (int i = 0; i < ST_COUNT; i++)
			if (sqlite3_prepare_v3(s->db, stmt_sql[i], -1, SQLITE_PREPARE_PERSISTENT, &s->stmt[i], NULL)) {
				td_err_set(err, "database '%s': %s", path, sqlite3_errmsg(s->db));
				td_store_close(s);
				return -1;
			}
	}
	exec(s, "PRAGMA foreign_keys=ON");
	*out = s;
	return 0;
}

void td_store_close(struct td_store *s)
{
	if (!s)
		return;
	for (int i = 0; i < ST_COUNT; i++)
		sqlite3_finalize(s->stmt[i]);
	sqlite3_close(s->db);
	free(s);
}

int td_store_begin(struct td_store *s) { return exec(s, "BEGIN IMMEDIATE"); }
int td_store_commit(struct td_store *s) { return exec(s, "COMMIT"); }
void td_store_rollback(struct td_store *s) { exec(s, "ROLLBACK"); }

static int64_t step_insert(struct td_store *s, sqlite3_stmt *st)
{
	int rc = sqlite3_step(st);

	sqlite3_reset(st);
	sqlite3_clear_bindings(st);
	return rc == SQLITE_DONE ? sqlite3_last_insert_rowid(s->db) : -1;
}

static void bind_text(sqlite3_stmt *st, int i, const char *v)
{
	if (v)
		sqlite3_bind_text(st, i, v, -1, SQLITE_TRANSIENT);
	else
		sqlite3_bind_null(st, i);
}

/* Identity of this writer process, to tell later whether it still runs. */
static void writer_identity(char *boot, size_t len, long long *start)
{
	if (td_read_file("/proc/sys/kernel/random/boot_id", boot, len) < 0)
		boot[0] = '\0';
	if (td_proc_starttime(getpid(), start) != 0)
		*start = 0;
}

int64_t td_store_session_begin(struct td_store *s, const struct td_session_info *in, td_err *err)
{
	static const char sql[] =
		"INSERT INTO sessions(kind,command,target_pid,host,kernel,cpu_vendor,cpu_family,cpu_model,cpu_name,"
		"uarch,pmu_model,rung,rung_reason,events_file,interval_ms,kernel_counted,started_ns,status,"
		"writer_pid,writer_boot,writer_start) VALUES(?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,'running',?,?,?)";
	sqlite3_stmt *st;
	char boot[64];
	long long start;
	int64_t id;

	if (sqlite3_prepare_v2(s->db, sql, -1, &st, NULL) != SQLITE_OK) {
		td_err_set(err, "database '%s': %s", s->path, sqlite3_errmsg(s->db));
		return -1;
	}
	writer_identity(boot, sizeof(boot), &start);
	bind_text(st, 1, in->kind);
	bind_text(st, 2, in->command);
	sqlite3_bind_int(st, 3, in->target_pid);
	bind_text(st, 4, in->host);
	bind_text(st, 5, in->kernel);
	bind_text(st, 6, in->cpu_vendor);
	sqlite3_bind_int(st, 7, in->cpu_family);
	sqlite3_bind_int(st, 8, in->cpu_model);
	bind_text(st, 9, in->cpu_name);
	bind_text(st, 10, in->uarch);
	bind_text(st, 11, in->pmu_model);
	bind_text(st, 12, in->rung);
	bind_text(st, 13, in->rung_reason);
	bind_text(st, 14, in->events_file);
	sqlite3_bind_int(st, 15, in->interval_ms);
	sqlite3_bind_int(st, 16, in->kernel_counted);
	sqlite3_bind_int64(st, 17, (sqlite3_int64)td_wall_ns());
	sqlite3_bind_int(st, 18, (int)getpid());
	bind_text(st, 19, boot);
	sqlite3_bind_int64(st, 20, start);
	id = sqlite3_step(st) == SQLITE_DONE ? sqlite3_last_insert_rowid(s->db) : -1;
	if (id < 0)
		td_err_set(err, "cannot write to database '%s': %s", s->path, sqlite3_errmsg(s->db));
	sqlite3_finalize(st);
	return id;
}

int td_store_session_end(struct td_store *s, int64_t session, const char *status, int exit_code,
			 const char *message)
{
	sqlite3_stmt *st;
	int rc;

	if (sqlite3_prepare_v2(s->db,
			       "UPDATE sessions SET status=?, ended_ns=?, exit_code=?, message=? WHERE id=?", -1, &st,
			       NULL) != SQLITE_OK)
		return -1;
	bind_text(st, 1, status);
	sqlite3_bind_int64(st, 2, (sqlite3_int64)td_wall_ns());
	if (exit_code >= 0)
		sqlite3_bind_int(st, 3, exit_code);
	else
		sqlite3_bind_null(st, 3);
	bind_text(st, 4, message);
	sqlite3_bind_int64(st, 5, session);
	rc = sqlite3_step(st) == SQLITE_DONE ? 0 : -1;
	sqlite3_finalize(st);
	return rc;
}

/* Is the writer of a 'running' session still alive on this machine? */
static bool writer_alive(pid_t pid, const char *boot, long long start)
{
	char my_boot[64];
	long long their_start = 0;

	if (td_read_file("/proc/sys/kernel/random/boot_id", my_boot, sizeof(my_boot)) < 0 || !boot ||
	    strcmp(my_boot, boot))
		return false; /* written before a reboot (or elsewhere): nobody is writing it now */
	if (kill(pid, 0) != 0 && errno == ESRCH)
		return false;
	if (td_proc_starttime(pid, &their_start) == 0 && their_start != start)
		return false; /* the PID was reused */
	return true;
}

int td_store_recover(struct td_store *s)
{
	sqlite3_stmt *st;
	int64_t ids[256];
	int n = 0, marked = 0;

	if (sqlite3_prepare_v2(s->db,
			       "SELECT id, writer_pid, writer_boot, writer_start FROM sessions WHERE status='running'",
			       -1, &st, NULL) != SQLITE_OK)
		return -1;
	while (sqlite3_step(st) == SQLITE_ROW && n < 256) {
		if (!writer_alive((pid_t)sqlite3_column_int(st, 1), (const char *)sqlite3_column_text(st, 2),
				  sqlite3_column_int64(st, 3)))
			ids[n++] = sqlite3_column_int64(st, 0);
	}
	sqlite3_finalize(st);
	for (int i = 0; i < n; i++) {
		if (sqlite3_prepare_v2(s->db,
				       "UPDATE sessions SET status='interrupted', message='the collector stopped "
				       "without closing the session (killed or crashed); the intervals written before are kept', "
				       "ended_ns=(SELECT max(end_ns) FROM intervals WHERE session_id=?1) WHERE id=?1",
				       -1, &st, NULL) != SQLITE_OK)
			return -1;
		sqlite3_bind_int64(st, 1, ids[i]);
		if (sqlite3_step(st) == SQLITE_DONE)
			marked++;
		sqlite3_finalize(st);
	}
	return marked;
}

int64_t td_store_latest_session(struct td_store *s)
{
	sqlite3_stmt *st;
	int64_t id = 0;

	if (sqlite3_prepare_v2(s->db, "SELECT max(id) FROM sessions", -1, &st, NULL) != SQLITE_OK)
		return 0;
	if (sqlite3_step(st) == SQLITE_ROW)
		id = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return id;
}

int64_t td_store_event_add(struct td_store *s, int64_t session, const char *name, const char *spec, int group,
			   uint32_t type, uint64_t config, const char *status, const char *error)
{
	sqlite3_stmt *st = s->stmt[ST_EVENT_ADD];

	sqlite3_bind_int64(st, 1, session);
	bind_text(st, 2, name);
	bind_text(st, 3, spec);
	sqlite3_bind_int(st, 4, group);
	sqlite3_bind_int64(st, 5, type);
	sqlite3_bind_int64(st, 6, (sqlite3_int64)config);
	bind_text(st, 7, status);
	bind_text(st, 8, error);
	return step_insert(s, st);
}

int64_t td_store_thread_add(struct td_store *s, int64_t session, pid_t pid, pid_t tid, const char *comm,
			    uint64_t first_seen_ns)
{
	sqlite3_stmt *st = s->stmt[ST_THREAD_ADD];

	sqlite3_bind_int64(st, 1, session);
	sqlite3_bind_int(st, 2, pid);
	sqlite3_bind_int(st, 3, tid);
	bind_text(st, 4, comm);
	sqlite3_bind_int64(st, 5, (sqlite3_int64)first_seen_ns);
	sqlite3_bind_int64(st, 6, (sqlite3_int64)first_seen_ns);
	return step_insert(s, st);
}

int td_store_thread_seen(struct td_store *s, int64_t thread, const char *comm, uint64_t last_seen_ns, bool exited)
{
	sqlite3_stmt *st = s->stmt[ST_THREAD_SEEN];

	bind_text(st, 1, comm);
	sqlite3_bind_int64(st, 2, (sqlite3_int64)last_seen_ns);
	sqlite3_bind_int(st, 3, exited);
	sqlite3_bind_int64(st, 4, thread);
	return step_insert(s, st) < 0 ? -1 : 0;
}

int64_t td_store_interval_add(struct td_store *s, int64_t session, int seq, uint64_t start_ns, uint64_t end_ns)
{
	sqlite3_stmt *st = s->stmt[ST_INTERVAL_ADD];

	sqlite3_bind_int64(st, 1, session);
	sqlite3_bind_int(st, 2, seq);
	sqlite3_bind_int64(st, 3, (sqlite3_int64)start_ns);
	sqlite3_bind_int64(st, 4, (sqlite3_int64)end_ns);
	return step_insert(s, st);
}

int td_store_count_add(struct td_store *s, int64_t interval, int64_t thread, int64_t event, uint64_t value,
		       uint64_t enabled, uint64_t running)
{
	sqlite3_stmt *st = s->stmt[ST_COUNT_ADD];

	sqlite3_bind_int64(st, 1, interval);
	sqlite3_bind_int64(st, 2, thread);
	sqlite3_bind_int64(st, 3, event);
	sqlite3_bind_int64(st, 4, (sqlite3_int64)value);
	sqlite3_bind_int64(st, 5, (sqlite3_int64)enabled);
	sqlite3_bind_int64(st, 6, (sqlite3_int64)running);
	return step_insert(s, st) < 0 ? -1 : 0;
}

int td_store_thread_totals(struct td_store *s, int64_t session, td_thread_total_fn fn, void *ctx)
{
	static const char sql[] =
		"SELECT t.id, t.pid, t.tid, t.comm, t.first_seen_ns, t.last_seen_ns, e.name,"
		" sum(c.value), sum(c.enabled), sum(c.running),"
		" sum(CASE WHEN c.running = 0 THEN NULL WHEN c.running >= c.enabled THEN c.value"
		"     ELSE c.value * 1.0 * c.enabled / c.running END),"
		" count(*), sum(c.running = 0)"
		" FROM counts c JOIN threads t ON t.id = c.thread_id JOIN events e ON e.id = c.event_id"
		" WHERE t.session_id = ? GROUP BY t.id, e.id ORDER BY t.pid, t.tid, t.id, e.id";
	sqlite3_stmt *st;
	int rc = 0;

	if (sqlite3_prepare_v2(s->db, sql, -1, &st, NULL) != SQLITE_OK)
		return -1;
	sqlite3_bind_int64(st, 1, session);
	while (rc == 0 && sqlite3_step(st) == SQLITE_ROW) {
		struct td_thread_total t;
		memset(&t, 0, sizeof(t));
		t.thread = sqlite3_column_int64(st, 0);
		t.pid = sqlite3_column_int(st, 1);
		t.tid = sqlite3_column_int(st, 2);
		snprintf(t.comm, sizeof(t.comm), "%s", sqlite3_column_text(st, 3) ? (const char *)sqlite3_column_text(st, 3) : "");
		t.first_seen_ns = (uint64_t)sqlite3_column_int64(st, 4);
		t.last_seen_ns = (uint64_t)sqlite3_column_int64(st, 5);
		t.event = (const char *)sqlite3_column_text(st, 6);
		t.value = (uint64_t)sqlite3_column_int64(st, 7);
		t.enabled = (uint64_t)sqlite3_column_int64(st, 8);
		t.running = (uint64_t)sqlite3_column_int64(st, 9);
		t.scaled = sqlite3_column_type(st, 10) == SQLITE_NULL ? NAN : sqlite3_column_double(st, 10);
		t.intervals = sqlite3_column_int(st, 11);
		t.not_counted = sqlite3_column_int(st, 12);
		rc = fn(&t, ctx);
	}
	sqlite3_finalize(st);
	return rc;
}

int td_store_failed_events(struct td_store *s, int64_t session, td_failed_events_fn fn, void *ctx)
{
	sqlite3_stmt *st;
	int rc = 0;

	if (sqlite3_prepare_v2(s->db,
			       "SELECT group_concat(name, ' '), error FROM events WHERE session_id=? AND status='failed'"
			       " GROUP BY error ORDER BY min(id)", -1, &st, NULL) != SQLITE_OK)
		return -1;
	sqlite3_bind_int64(st, 1, session);
	while (rc == 0 && sqlite3_step(st) == SQLITE_ROW)
		rc = fn((const char *)sqlite3_column_text(st, 0),
			sqlite3_column_text(st, 1) ? (const char *)sqlite3_column_text(st, 1) : "", ctx);
	sqlite3_finalize(st);
	return rc;
}

static const char session_cols[] =
	"SELECT s.id, s.kind, s.status, s.command, s.host, s.rung, s.message, s.target_pid, s.started_ns,"
	" s.ended_ns, s.interval_ms, s.exit_code,"
	" (SELECT count(*) FROM threads t WHERE t.session_id = s.id),"
	" (SELECT count(*) FROM intervals i WHERE i.session_id = s.id), s.kernel_counted FROM sessions s";

static void fill_session(sqlite3_stmt *st, struct td_session_row *r)
{
#define TXT(i) (sqlite3_column_text(st, i) ? (const char *)sqlite3_column_text(st, i) : "")
	memset(r, 0, sizeof(*r));
	r->id = sqlite3_column_int64(st, 0);
	snprintf(r->kind, sizeof(r->kind), "%s", TXT(1));
	snprintf(r->status, sizeof(r->status), "%s", TXT(2));
	snprintf(r->command, sizeof(r->command), "%s", TXT(3));
	snprintf(r->host, sizeof(r->host), "%s", TXT(4));
	snprintf(r->rung, sizeof(r->rung), "%s", TXT(5));
	snprintf(r->message, sizeof(r->message), "%s", TXT(6));
#undef TXT
	r->target_pid = sqlite3_column_int(st, 7);
	r->started_ns = (uint64_t)sqlite3_column_int64(st, 8);
	r->ended_ns = (uint64_t)sqlite3_column_int64(st, 9);
	r->interval_ms = sqlite3_column_int(st, 10);
	r->has_exit_code = sqlite3_column_type(st, 11) != SQLITE_NULL;
	r->exit_code = sqlite3_column_int(st, 11);
	r->nthreads = sqlite3_column_int(st, 12);
	r->nintervals = sqlite3_column_int(st, 13);
	r->kernel_counted = sqlite3_column_int(st, 14) != 0;
}

int td_store_sessions(struct td_store *s, td_session_fn fn, void *ctx)
{
	char sql[sizeof(session_cols) + 32];
	sqlite3_stmt *st;
	int rc = 0;

	snprintf(sql, sizeof(sql), "%s ORDER BY s.id", session_cols);
	if (sqlite3_prepare_v2(s->db, sql, -1, &st, NULL) != SQLITE_OK)
		return -1;
	while (rc == 0 && sqlite3_step(st) == SQLITE_ROW) {
		struct td_session_row r;
		fill_session(st, &r);
		rc = fn(&r, ctx);
	}
	sqlite3_finalize(st);
	return rc;
}

int td_store_session(struct td_store *s, int64_t id, struct td_session_row *row)
{
	char sql[sizeof(session_cols) + 32];
	sqlite3_stmt *st;
	int rc = -1;

	snprintf(sql, sizeof(sql), "%s WHERE s.id = ?", session_cols);
	if (sqlite3_prepare_v2(s->db, sql, -1, &st, NULL) != SQLITE_OK)
		return -1;
	sqlite3_bind_int64(st, 1, id);
	if (sqlite3_step(st) == SQLITE_ROW) {
		fill_session(st, row);
		rc = 0;
	}
	sqlite3_finalize(st);
	return rc;
}

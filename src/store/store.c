/* store: opening (and migrating) the database, session lifecycle and crash
 * recovery, and the batched writes of targets, events, raw interval counts
 * and metric values. Reads are in store_read.c, retention in store_prune.c,
 * the schema in store_schema.c. */
#include "store.h"

#include <assert.h>
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "machine/procfs.h"
#include "store_impl.h"

static const char *const stmt_sql[ST_COUNT] = {
	[ST_EVENT_ADD] =
		"INSERT INTO events(session_id,name,spec,group_idx,type,config,status,error,config1,alias,file) "
		"VALUES(?,?,?,?,?,?,?,?,?,?,?)",
	[ST_THREAD_ADD] = "INSERT INTO targets(session_id,kind,pid,tid,comm,first_seen_ns,last_seen_ns) "
			  "VALUES(?,'thread',?,?,?,?,?)",
	[ST_THREAD_SEEN] = "UPDATE targets SET comm=coalesce(?,comm), last_seen_ns=?, exited=? WHERE id=?",
	[ST_INTERVAL_ADD] = "INSERT INTO intervals(session_id,seq,start_ns,end_ns) VALUES(?,?,?,?)",
	[ST_INTERVAL_COST] = "UPDATE intervals SET collector_ns=?, counter_reads=?, syscalls=? WHERE id=?",
	[ST_SAMPLE_ADD] =
		"INSERT INTO samples(interval_id,target_id,event_id,enabled,running,vals) VALUES(?,?,?,?,?,?)",
	[ST_TARGET_ADD] =
		"INSERT INTO targets(session_id,kind,pid,comm,cpu,core,socket,cgroup) VALUES(?,?,?,?,?,?,?,?)",
	[ST_METRIC_ADD] = "INSERT OR REPLACE INTO metrics(interval_id,target_id,metric_id,value,confidence,flagged,"
			  "bottleneck,spans) VALUES(?,?,?,?,?,?,?,?)",
#define METRIC_ROW "(?,?,?,?,?,?,?,?)"
	[ST_METRIC_ADD_4] = "INSERT OR REPLACE INTO metrics(interval_id,target_id,metric_id,value,confidence,flagged,"
			    "bottleneck,spans) VALUES" METRIC_ROW "," METRIC_ROW "," METRIC_ROW "," METRIC_ROW,
#undef METRIC_ROW
#define SAMPLE_ROW "(?,?,?,?,?,?)"
#define SAMPLE_ROWS4 SAMPLE_ROW "," SAMPLE_ROW "," SAMPLE_ROW "," SAMPLE_ROW
	[ST_SAMPLE_ADD_BATCH] =
		"INSERT INTO samples(interval_id,target_id,event_id,enabled,running,vals) VALUES" SAMPLE_ROWS4
		"," SAMPLE_ROWS4 "," SAMPLE_ROWS4 "," SAMPLE_ROWS4,
	[ST_SAMPLE_ADD_4] =
		"INSERT INTO samples(interval_id,target_id,event_id,enabled,running,vals) VALUES" SAMPLE_ROWS4,
#undef SAMPLE_ROWS4
#undef SAMPLE_ROW
	[ST_MAX_TARGET] = "SELECT coalesce(max(id), 0) FROM targets",
	[ST_BEGIN] = "BEGIN IMMEDIATE",
	[ST_COMMIT] = "COMMIT",
	[ST_SAVEPOINT] = "SAVEPOINT td_one",
	[ST_RELEASE] = "RELEASE td_one",
	[ST_HOT_ADD] = "INSERT INTO samples_hot VALUES(?,?,?,?,?,?,?,?,?,?)",
	[ST_HOT_STACK_ADD] = "INSERT INTO samples_stack VALUES(?,?,?,?,?,?,?)",
	[ST_METRIC_ID] = "SELECT id FROM metric_names WHERE name=? AND kind=?",
	[ST_METRIC_NAME_ADD] = "INSERT INTO metric_names(name, kind) VALUES(?,?)",
};
_Static_assert(TD_SAMPLE_BATCH == 16, "ST_SAMPLE_ADD_BATCH has 16 rows");

/* The system's errno behind the last error when it is the disk's (full, quota,
 * I/O), else 0. Only for errors SQLite gives a system errno for: a stale errno
 * from an earlier failure must not explain a later lock or constraint error. */
static int disk_errno(sqlite3 *db)
{
	int rc = sqlite3_errcode(db) & 0xff, e = sqlite3_system_errno(db);

	if (rc != SQLITE_IOERR && rc != SQLITE_CANTOPEN && rc != SQLITE_FULL)
		return 0;
	if (e == ENOSPC || e == EDQUOT || e == EIO)
		return e;
	return rc == SQLITE_FULL ? ENOSPC : rc == SQLITE_IOERR ? EIO : 0;
}

const char *td_store_errmsg(struct td_store *s)
{
	int rc = sqlite3_errcode(s->db) & 0xff, e = disk_errno(s->db);

	if (!e || rc == SQLITE_FULL || (rc == SQLITE_IOERR && e == EIO))
		return sqlite3_errmsg(s->db); /* says it already */
	snprintf(s->errmsg, sizeof(s->errmsg), "%s (%s)", sqlite3_errmsg(s->db), strerror(e));
	return s->errmsg;
}

const char *td_store_disk_advice(struct td_store *s)
{
	switch (disk_errno(s->db)) {
	case ENOSPC:
	case EDQUOT:
		return "free space on the database's disk";
	case EIO:
		return "check the database's disk (dmesg)";
	default:
		return NULL;
	}
}

static bool cannot_write(int rc)
{
	rc &= 0xff; /* primary code of an extended one */
	return rc == SQLITE_CANTOPEN || rc == SQLITE_READONLY || rc == SQLITE_PERM || rc == SQLITE_AUTH;
}

/* SQLite retries an open that failed read-write read-only, and the reason it
 * keeps is the retry's (ENOENT): do what it first did to learn the first one —
 * open the database and the files beside it that exist read-write (a reader
 * opens them so too, to write the -shm), and create a file
 * of our own beside them (removed at once; never one of SQLite's: another
 * process may be creating those now). The errno, or 0 if all of that works. */
static int probe_open(const char *path)
{
	static const char *const sides[] = { "", "-journal", "-wal", "-shm" };
	char name[PATH_MAX + 32];
	int fd;

	for (size_t i = 0; i < sizeof(sides) / sizeof(sides[0]); i++) {
		snprintf(name, sizeof(name), "%s%s", path, sides[i]);
		if (access(name, F_OK) != 0)
			continue;
		if ((fd = open(name, O_RDWR | O_CLOEXEC)) < 0)
			return errno;
		close(fd);
	}
	snprintf(name, sizeof(name), "%s.probe-%ld", path, (long)getpid());
	if ((fd = open(name, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600)) < 0)
		return errno;
	close(fd);
	unlink(name);
	return 0;
}

/* When the disk failed the last call (full, quota, I/O error) rather than a
 * permission or a path: err says so and what to do, and true is returned. */
static bool describe_disk_failure(td_err *err, struct td_store *s, const char *what)
{
	const char *advice = s->db ? td_store_disk_advice(s) : NULL;
	int e;

	if (advice) {
		td_err_set(err, "cannot %s database '%s': %s: %s or give another -d FILE", what, s->path,
			   td_store_errmsg(s), advice);
		return true;
	}
	if (!s->db || (sqlite3_errcode(s->db) & 0xff) != SQLITE_CANTOPEN)
		return false;
	e = probe_open(s->path);
	if (e != ENOSPC && e != EDQUOT && e != EIO)
		return false;
	td_err_set(err, "cannot %s database '%s': %s: %s or give another -d FILE", what, s->path, strerror(e),
		   e == EIO ? "check the database's disk (dmesg)" : "free space on the database's disk");
	return true;
}

void td_store_describe_write_error(struct td_store *s, const char *what, td_err *err)
{
	const char *advice = td_store_disk_advice(s);

	td_err_set(err, "cannot %s database '%s': %s%s%s", what, s->path, td_store_errmsg(s), advice ? ": " : "",
		   advice ? advice : "");
}

/* What keeps this user from writing path, and what to do about it: the file,
 * the -wal/-shm files SQLite keeps beside it, or the directory they are in. */
static void describe_unwritable(td_err *err, struct td_store *s, const char *what, int rc)
{
	const char *path = s->path;
	char dir[PATH_MAX], side[PATH_MAX + 8];
	const char *slash = strrchr(path, '/');

	if (describe_disk_failure(err, s, what))
		return;

	if (!slash)
		snprintf(dir, sizeof(dir), ".");
	else if (snprintf(dir, sizeof(dir), "%.*s", slash == path ? 1 : (int)(slash - path), path) >=
		 (int)sizeof(dir)) {
		td_err_set(err,
			   "cannot %s database '%s': the path is longer than this system allows (%d): give a "
			   "shorter -d FILE",
			   what, path, PATH_MAX);
		return;
	}
	if (access(dir, F_OK) != 0) {
		td_err_set(err,
			   "cannot %s database '%s': directory '%s' does not exist: create it or give another "
			   "-d FILE",
			   what, path, dir);
		return;
	}
	if (access(path, F_OK) == 0 && access(path, W_OK) != 0) {
		td_err_set(err,
			   "cannot %s database '%s': the file is not writable by this user: give a writable -d "
			   "FILE or fix its permissions",
			   what, path);
		return;
	}
	for (int i = 0; i < 2; i++) {
		snprintf(side, sizeof(side), "%s%s", path, i ? "-shm" : "-wal");
		if (access(side, F_OK) == 0 && access(side, W_OK) != 0) {
			td_err_set(err,
				   "cannot %s database '%s': '%s' beside it is not writable by this user: give a "
				   "writable -d FILE or fix that file's permissions",
				   what, path, side);
			return;
		}
	}
	if (access(dir, W_OK | X_OK) != 0) {
		td_err_set(err,
			   "cannot %s database '%s': directory '%s' is not writable by this user (SQLite keeps "
			   "FILE-wal and FILE-shm beside the database): give -d FILE in a writable directory or fix "
			   "the directory's permissions",
			   what, path, dir);
		return;
	}
	/* nothing we can see forbids it (a passing I/O error, a security module): */
	td_err_set(err,
		   "cannot %s database '%s' (%s), though this user may write it and its directory: try again, "
		   "or give another -d FILE",
		   what, path, sqlite3_errstr(rc));
}

static void describe_open_error(td_err *err, struct td_store *s, int rc, const char *what)
{
	const char *path = s->path;
	bool writing = !strcmp(what, "create") || !strcmp(what, "write");

	if (describe_disk_failure(err, s, what))
		return;

	if (rc == SQLITE_NOTADB || rc == SQLITE_CORRUPT)
		td_err_set(err,
			   "'%s' is not a readable topdown database (%s): try 'sqlite3 %s .recover' to save what "
			   "it holds, or give another -d file",
			   path, sqlite3_errstr(rc), path);
	else if (cannot_write(rc) && writing)
		describe_unwritable(err, s, what, rc);
	else if (cannot_write(rc))
		td_err_set(err,
			   "cannot %s database '%s' (%s): check that the directory exists and is writable, "
			   "or give another -d file",
			   what, path, sqlite3_errstr(rc));
	else if (rc == SQLITE_BUSY || rc == SQLITE_LOCKED)
		td_err_set(err, "database '%s' is locked by another program: wait for it or use another -d file", path);
	else
		td_err_set(err, "cannot %s database '%s': %s", what, path, sqlite3_errstr(rc));
}

/* Create or migrate the schema in one immediate transaction (foreign keys
 * off, as SQLite's table rebuilds require). */
static int upgrade(struct td_store *s, int version, td_err *err)
{
	if (td_store_exec(s, "BEGIN IMMEDIATE")) {
		describe_open_error(err, s, sqlite3_errcode(s->db), "write");
		return -1;
	}
	/* another process may have created or migrated the schema between our look and
	 * this write lock (several first runs on one new file): look again under the lock */
	if (td_store_pragma_int(s, "PRAGMA user_version", &version) != SQLITE_OK) {
		describe_open_error(err, s, sqlite3_errcode(s->db), "read");
		td_store_exec(s, "ROLLBACK");
		return -1;
	}
	if (version >= TD_SCHEMA_VERSION) {
		if (td_store_exec(s, "COMMIT") == 0)
			return 0;
		describe_open_error(err, s, sqlite3_errcode(s->db), "write");
		return -1;
	}
	if (td_store_schema_upgrade(s, version) || td_store_exec(s, "COMMIT")) {
		if (cannot_write(sqlite3_extended_errcode(s->db)))
			describe_unwritable(err, s, version ? "migrate" : "create", sqlite3_extended_errcode(s->db));
		else
			td_store_describe_write_error(s, version ? "migrate" : "create", err);
		td_store_exec(s, "ROLLBACK");
		return -1;
	}
	return 0;
}

/* Migrate an older file opened read-only through a short write connection. */
static int upgrade_from_reader(struct td_store *s, td_err *err)
{
	struct td_store *w;

	if (td_store_open(s->path, TD_STORE_WRITE, &w, err)) {
		char why[sizeof(err->msg)];
		snprintf(why, sizeof(why), "%s", err->msg);
		td_err_set(err,
			   "database '%s' has an older schema and cannot be migrated (%.300s): open it once with "
			   "write access",
			   s->path, why);
		return -1;
	}
	td_store_close(w);
	return 0;
}

static int check_or_create_schema(struct td_store *s, enum td_store_mode mode, td_err *err)
{
	int version = 0, appid = 0, ntables = 0, rc;

	/* one snapshot for the three: another process may be creating the schema now */
	td_store_exec(s, "BEGIN");
	if ((rc = td_store_pragma_int(s, "PRAGMA user_version", &version)) != SQLITE_OK ||
	    (rc = td_store_pragma_int(s, "PRAGMA application_id", &appid)) != SQLITE_OK ||
	    (rc = td_store_pragma_int(s, "SELECT count(*) FROM sqlite_master", &ntables)) != SQLITE_OK) {
		describe_open_error(err, s, rc, "read");
		td_store_exec(s, "ROLLBACK");
		return -1;
	}
	td_store_exec(s, "COMMIT");
	if (ntables == 0 && version == 0) {
		if (mode != TD_STORE_WRITE) {
			td_err_set(err, "'%s' holds no topdown data: record a session first (tdctl run -d %s -- CMD)",
				   s->path, s->path);
			return -1;
		}
		return upgrade(s, 0, err);
	}
	if (appid != TD_APPLICATION_ID) {
		td_err_set(err, "'%s' is a SQLite database of another program, not topdown's: give another -d file",
			   s->path);
		return -1;
	}
	if (version > TD_SCHEMA_VERSION) {
		td_err_set(err,
			   "database '%s' has schema version %d, newer than this tdctl understands (%d): "
			   "upgrade topdown",
			   s->path, version, TD_SCHEMA_VERSION);
		return -1;
	}
	if (version < 1) {
		td_err_set(err, "database '%s' has no schema version: it is damaged; move it away", s->path);
		return -1;
	}
	if (version < TD_SCHEMA_VERSION)
		return mode == TD_STORE_WRITE ? upgrade(s, version, err) : upgrade_from_reader(s, err);
	return 0;
}

/* Is the connection's database in WAL mode? A read first: a file another
 * process switched to WAL meanwhile is opened as one (lockBtree reads its
 * header's version bytes). */
static bool in_wal(struct td_store *s)
{
	sqlite3_stmt *st;
	int version;
	bool wal;

	if (td_store_pragma_int(s, "PRAGMA user_version", &version) != SQLITE_OK ||
	    sqlite3_prepare_v2(s->db, "PRAGMA journal_mode", -1, &st, NULL) != SQLITE_OK)
		return false;
	wal = sqlite3_step(st) == SQLITE_ROW && !sqlite3_stricmp((const char *)sqlite3_column_text(st, 0), "wal");
	sqlite3_finalize(st);
	return wal;
}

/* How long a statement waits for another connection's lock (SQLite's busy
 * timeout), the waits of a switch to WAL, and how long that is tried for. */
#define BUSY_MS 5000
#define SWITCH_WAIT_MS 50
#define SWITCH_TRIES_NS (5 * 1000000000ull)

/* WAL before the schema is looked at: a new database's schema is then written
 * once, into the log, instead of through a rollback journal and its syncs. A
 * file this call created holds nothing to lose: its switch to WAL (a rollback
 * journal's transaction) goes without syncs.
 * Several first opens of one new file race to switch it: the first to do so
 * keeps a shared lock on the file for as long as it is open (as every WAL
 * connection does), so another one's switch, begun in rollback mode, waits
 * for an exclusive lock it would never get before its busy timeout ended
 * ("database is locked", 8 first runs at once on a loaded host). So the
 * switch waits briefly, and after each refusal the header is read again:
 * once it says WAL, there is nothing to switch. */
static int set_journal(struct td_store *s, bool created, td_err *err)
{
	uint64_t until = td_now_ns() + SWITCH_TRIES_NS;
	int rc = SQLITE_OK;

	if (created && td_store_exec(s, "PRAGMA synchronous=OFF"))
		rc = sqlite3_errcode(s->db);
	sqlite3_busy_timeout(s->db, SWITCH_WAIT_MS);
	while (rc == SQLITE_OK && !in_wal(s) && td_store_exec(s, "PRAGMA journal_mode=WAL"))
		if ((rc = sqlite3_errcode(s->db)) == SQLITE_BUSY && td_now_ns() < until)
			rc = SQLITE_OK;
	sqlite3_busy_timeout(s->db, BUSY_MS);
	if (rc != SQLITE_OK || td_store_exec(s, "PRAGMA synchronous=NORMAL")) {
		describe_open_error(err, s, rc != SQLITE_OK ? rc : sqlite3_errcode(s->db), "write");
		return -1;
	}
	return 0;
}

static int prepare_writes(struct td_store *s, td_err *err)
{
	/* a WAL file whose -shm this user cannot write is read-only too: find out now, not at
	 * the first insert (a writer holding the lock is not an error) */
	if (td_store_exec(s, "BEGIN IMMEDIATE") == 0)
		td_store_exec(s, "ROLLBACK");
	else if (cannot_write(sqlite3_extended_errcode(s->db))) {
		describe_unwritable(err, s, "write", sqlite3_extended_errcode(s->db));
		return -1;
	}
	for (int i = 0; i < ST_COUNT; i++)
		if (sqlite3_prepare_v3(s->db, stmt_sql[i], -1, SQLITE_PREPARE_PERSISTENT, &s->stmt[i], NULL)) {
			td_err_set(err, "database '%s': %s", s->path, sqlite3_errmsg(s->db));
			return -1;
		}
	return 0;
}

/* May this user write the database file and create files beside it (-wal, -shm)? */
static bool can_write_beside(const char *path)
{
	char dir[PATH_MAX];
	const char *slash = strrchr(path, '/');

	if (access(path, W_OK) != 0)
		return false;
	if (!slash)
		return access(".", W_OK) == 0;
	snprintf(dir, sizeof(dir), "%.*s", (int)(slash - path) + (slash == path), path);
	return access(dir, W_OK) == 0;
}

/* A read-only connection to a WAL database needs its -shm file: where it
 * does not exist and cannot be created (a read-only file in a directory this
 * user cannot write: another user's database, read-only media) and no -wal
 * holds committed pages beyond the main file, the file alone is the whole
 * database: reopen it immutable. A writer that starts meanwhile appends to a
 * new WAL this reader does not see. 0, or -1 with err set. */
static int open_unwritable(struct td_store *s, const char *path, td_err *err)
{
	char wal[PATH_MAX + 8], uri[PATH_MAX * 3 + 32], *u = uri;
	int version, rc;

	if (td_store_pragma_int(s, "PRAGMA user_version", &version) == SQLITE_OK)
		return 0;
	snprintf(wal, sizeof(wal), "%s-wal", path);
	if (access(wal, F_OK) == 0) {
		td_err_set(err,
			   "cannot read database '%s': its write-ahead log '%s' holds data and this user cannot "
			   "create '%s-shm' to read it: read it as the user who writes it, or copy the files",
			   path, wal, path);
		return -1;
	}
	sqlite3_close(s->db);
	s->db = NULL;
	u += snprintf(u, 6, "file:");
	for (const unsigned char *p = (const unsigned char *)path; *p; p++) /* percent-encode for the URI */
		u += isalnum(*p) || strchr("/._-~", *p) ? snprintf(u, 2, "%c", *p) : snprintf(u, 4, "%%%02X", *p);
	snprintf(u, sizeof(uri) - (size_t)(u - uri), "?immutable=1");
	rc = sqlite3_open_v2(uri, &s->db, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI | SQLITE_OPEN_NOMUTEX, NULL);
	if (rc != SQLITE_OK) {
		describe_open_error(err, s, rc, "open");
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
	s->target_id_committed = s->target_id_pending = -1;
	s->mode = mode;
	if (!(s->path = strdup(path))) {
		td_err_set(err, "out of memory");
		free(s);
		return -1;
	}
	if (mode != TD_STORE_WRITE && access(path, F_OK) != 0) {
		td_err_set(err, "no database '%s': record a session first (tdctl run -d %s -- CMD) or give -d", path,
			   path);
		free(s->path);
		free(s);
		return -1;
	}
	bool existed = access(path, F_OK) == 0;
	if (mode != TD_STORE_WRITE && can_write_beside(path))
		/* a reader that may write opens read-write (and never writes: query_only below), so
		 * that closing it checkpoints and removes the -wal and -shm files as any last
		 * connection does; a read-only connection would leave them behind, owned by us */
		flags = SQLITE_OPEN_READWRITE;
	rc = sqlite3_open_v2(path, &s->db, flags | SQLITE_OPEN_NOMUTEX, NULL);
	if (rc != SQLITE_OK) {
		describe_open_error(err, s, rc, mode != TD_STORE_WRITE ? "open" : existed ? "write" : "create");
		td_store_close(s);
		return -1;
	}
	if (mode != TD_STORE_WRITE && flags == SQLITE_OPEN_READONLY && open_unwritable(s, path, err)) {
		td_store_close(s);
		return -1;
	}
	if (mode == TD_STORE_WRITE && sqlite3_db_readonly(s->db, "main") == 1) {
		/* SQLite quietly opens a file it cannot write read-only */
		describe_unwritable(err, s, "write", SQLITE_READONLY);
		td_store_close(s);
		return -1;
	}
	sqlite3_busy_timeout(s->db, BUSY_MS);
	if ((mode == TD_STORE_WRITE && set_journal(s, !existed, err)) || check_or_create_schema(s, mode, err)) {
		td_store_close(s);
		return -1;
	}
	/* before the writes are prepared: a flag pragma expires every statement
	 * prepared so far (SQLite's OP_Expire), each then parsed again at its first step */
	td_store_exec(s, mode == TD_STORE_WRITE ? "PRAGMA foreign_keys=ON" : "PRAGMA query_only=ON");
	if (mode == TD_STORE_WRITE && prepare_writes(s, err)) {
		td_store_close(s);
		return -1;
	}
	*out = s;
	return 0;
}

void td_store_no_checkpoint_on_close(struct td_store *s)
{
	sqlite3_db_config(s->db, SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, 1, NULL);
}

void td_store_describe_error(struct td_store *s, td_err *err)
{
	describe_open_error(err, s, sqlite3_errcode(s->db), "read");
}

void td_store_close(struct td_store *s)
{
	if (!s)
		return;
	/* No samples row waits in a batch: it would be lost without a word
	 * (every transaction ends in td_store_commit or td_store_rollback). */
	assert(s->nbatch == 0);
	for (int i = 0; i < ST_COUNT; i++)
		sqlite3_finalize(s->stmt[i]);
	sqlite3_close(s->db);
	observe_free(s);
	free(s->pack);
	free(s->path);
	free(s);
}

/* A writer's prepared statement, else sql run once (a reader's handle). */
static int exec_prepared(struct td_store *s, enum stmt_id id, const char *sql)
{
	int rc;

	if (!s->stmt[id])
		return td_store_exec(s, sql);
	rc = sqlite3_step(s->stmt[id]);
	sqlite3_reset(s->stmt[id]);
	return rc == SQLITE_DONE ? 0 : -1;
}

int td_store_begin(struct td_store *s)
{
	/* Nothing waits in a batch outside a transaction (batch_drop and
	 * td_store_commit empty it). */
	assert(!s->batching && s->nbatch == 0);
	if (s->outer_armed) {
		if (!s->outer_open) {
			assert(sqlite3_get_autocommit(s->db));
			if (exec_prepared(s, ST_BEGIN, "BEGIN IMMEDIATE"))
				return -1;
			s->outer_open = true;
		} else if (s->outer_lost || sqlite3_get_autocommit(s->db)) {
			/* SQLite rolled the outer transaction back after an error: what
			 * follows would be committed alone, before the rows it came after */
			s->outer_lost = true;
			return -1;
		}
		s->target_id_savepoint = s->target_id_pending;
		observe_begin(s);
		/* a group's intervals fail together: no savepoint (SQLite would copy
		 * each page a savepoint first changes into its sub-journal) */
		return s->outer_group ? 0 : exec_prepared(s, ST_SAVEPOINT, "SAVEPOINT td_one");
	}
	/* Transactions do not nest: a BEGIN inside one fails, and the caller's
	 * rollback of the inner one would undo the outer one's rows. Every
	 * caller ends a transaction with td_store_commit or td_store_rollback. */
	assert(sqlite3_get_autocommit(s->db));
	observe_rollback(s, false); /* nothing is kept from before */
	return exec_prepared(s, ST_BEGIN, "BEGIN IMMEDIATE");
}

/* A batch still open is written first: nothing added is left out. */
int td_store_commit(struct td_store *s)
{
	if (s->batching && td_store_batch_end(s))
		return -1;
	if (s->outer_open) {
		/* one savepoint of the outer transaction: committed with it */
		if (sqlite3_get_autocommit(s->db)) {
			s->outer_lost = true;
			return -1;
		}
		return s->outer_group ? 0 : exec_prepared(s, ST_RELEASE, "RELEASE td_one");
	}
	if (exec_prepared(s, ST_COMMIT, "COMMIT"))
		return -1;
	/* Committed: no samples row of the transaction still waits in a batch. */
	assert(!s->batching && s->nbatch == 0 && s->pack_len == 0);
	if (s->target_id_committed >= 0 && s->target_id_pending > s->target_id_committed)
		s->target_id_committed = s->target_id_pending;
	observe_committed(s);
	return 0;
}

void td_store_outer_begin(struct td_store *s)
{
	assert(!s->outer_armed && sqlite3_get_autocommit(s->db));
	s->outer_armed = true;
	s->outer_open = s->outer_lost = s->outer_group = false;
}

void td_store_group_begin(struct td_store *s)
{
	td_store_outer_begin(s);
	s->outer_group = true;
}

bool td_store_outer_open(const struct td_store *s)
{
	return s->outer_open;
}

/* The outer transaction's rows are gone: none of its savepoints is kept. */
static void outer_roll_back(struct td_store *s)
{
	observe_rollback(s, false);
	s->outer_lost = false;
	s->target_id_pending = s->target_id_committed; /* the rows inserted since are gone */
	if (!sqlite3_get_autocommit(s->db))
		td_store_exec(s, "ROLLBACK");
}

int td_store_outer_end(struct td_store *s, td_err *err)
{
	bool was_open = s->outer_open;

	s->outer_armed = s->outer_open = false;
	if (!was_open)
		return 0;
	if (!s->outer_lost && !sqlite3_get_autocommit(s->db) && exec_prepared(s, ST_COMMIT, "COMMIT") == 0) {
		if (s->target_id_committed >= 0 && s->target_id_pending > s->target_id_committed)
			s->target_id_committed = s->target_id_pending;
		observe_committed(s);
		return 0;
	}
	td_err_set(err, "%s", td_store_errmsg(s));
	outer_roll_back(s);
	return -1;
}

void td_store_outer_abort(struct td_store *s)
{
	bool was_open = s->outer_open;

	s->outer_armed = s->outer_open = false;
	if (was_open)
		outer_roll_back(s);
}

/* The batch's rows are forgotten with the transaction they were for. */
static void batch_drop(struct td_store *s)
{
	s->batching = false;
	s->nbatch = 0;
	s->pack_len = 0;
}

/* SQLite rolls a transaction back by itself after some errors (SQLITE_FULL,
 * SQLITE_IOERR in a commit): then there is nothing to roll back, and the
 * first error's message stays the one td_store_errmsg says. */
void td_store_rollback(struct td_store *s)
{
	batch_drop(s);
	if (s->outer_open && s->outer_group) {
		/* a group's transaction: nothing of it is kept (td_store_outer_abort) */
		observe_rollback(s, true);
		s->outer_lost = true;
		return;
	}
	if (s->outer_open) {
		/* this savepoint only: the others' rows stay for td_store_outer_end */
		observe_rollback(s, true);
		if (s->outer_lost || sqlite3_get_autocommit(s->db)) {
			s->outer_lost = true;
			return;
		}
		s->target_id_pending = s->target_id_savepoint;
		if (td_store_exec(s, "ROLLBACK TO td_one") || td_store_exec(s, "RELEASE td_one"))
			s->outer_lost = true;
		return;
	}
	s->target_id_pending = s->target_id_committed; /* the rows inserted since are gone */
	observe_rollback(s, false);
	if (!sqlite3_get_autocommit(s->db))
		td_store_exec(s, "ROLLBACK");
}

/* A target row inserted: the id td_store_max_target_id gives once committed. */
static int64_t target_inserted(struct td_store *s, int64_t id)
{
	if (id > s->target_id_pending)
		s->target_id_pending = id;
	return id;
}

int td_store_top_process_add(struct td_store *s, int64_t session, int rank, pid_t pid, const char *comm,
			     uint64_t cpu_ns, const char *source)
{
	sqlite3_stmt *st;
	int rc;

	if (sqlite3_prepare_v2(s->db, "INSERT INTO top_processes VALUES(?,?,?,?,?,?)", -1, &st, NULL) != SQLITE_OK)
		return -1;
	sqlite3_bind_int64(st, 1, session);
	sqlite3_bind_int(st, 2, rank);
	sqlite3_bind_int(st, 3, (int)pid);
	td_store_bind_text(st, 4, comm);
	sqlite3_bind_int64(st, 5, (sqlite3_int64)cpu_ns);
	td_store_bind_text(st, 6, source);
	rc = sqlite3_step(st) == SQLITE_DONE ? 0 : -1;
	sqlite3_finalize(st);
	return rc;
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
		"writer_pid,writer_boot,writer_start,smt,num_cpus,source,owner_uid,schedule) "
		"VALUES(?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,'running',?,?,?,?,?,?,?,?)";
	sqlite3_stmt *st;
	char boot[64];
	long long start;
	int64_t id;

	if (sqlite3_prepare_v2(s->db, sql, -1, &st, NULL) != SQLITE_OK) {
		td_err_set(err, "database '%s': %s", s->path, sqlite3_errmsg(s->db));
		return -1;
	}
	writer_identity(boot, sizeof(boot), &start);
	td_store_bind_text(st, 1, in->kind);
	td_store_bind_text(st, 2, in->command);
	sqlite3_bind_int(st, 3, in->target_pid);
	td_store_bind_text(st, 4, in->host);
	td_store_bind_text(st, 5, in->kernel);
	td_store_bind_text(st, 6, in->cpu_vendor);
	sqlite3_bind_int(st, 7, in->cpu_family);
	sqlite3_bind_int(st, 8, in->cpu_model);
	td_store_bind_text(st, 9, in->cpu_name);
	td_store_bind_text(st, 10, in->uarch);
	td_store_bind_text(st, 11, in->pmu_model);
	td_store_bind_text(st, 12, in->rung);
	td_store_bind_text(st, 13, in->rung_reason);
	td_store_bind_text(st, 14, in->events_file);
	sqlite3_bind_int(st, 15, in->interval_ms);
	sqlite3_bind_int(st, 16, in->kernel_counted);
	sqlite3_bind_int64(st, 17, (sqlite3_int64)td_wall_ns());
	sqlite3_bind_int(st, 18, (int)getpid());
	td_store_bind_text(st, 19, boot);
	sqlite3_bind_int64(st, 20, start);
	if (in->smt >= 0)
		sqlite3_bind_int(st, 21, in->smt);
	if (in->num_cpus > 0)
		sqlite3_bind_int(st, 22, in->num_cpus);
	td_store_bind_text(st, 23, in->source);
	if (in->owner_uid >= 0)
		sqlite3_bind_int64(st, 24, in->owner_uid);
	td_store_bind_text(st, 25, in->schedule);
	id = sqlite3_step(st) == SQLITE_DONE ? sqlite3_last_insert_rowid(s->db) : -1;
	if (id < 0)
		td_store_describe_write_error(s, "write to", err);
	sqlite3_finalize(st);
	return id;
}

int td_store_session_end(struct td_store *s, int64_t session, const char *status, int exit_code, const char *message)
{
	sqlite3_stmt *st;
	int rc;

	if (sqlite3_prepare_v2(s->db, "UPDATE sessions SET status=?, ended_ns=?, exit_code=?, message=? WHERE id=?", -1,
			       &st, NULL) != SQLITE_OK)
		return -1;
	td_store_bind_text(st, 1, status);
	sqlite3_bind_int64(st, 2, (sqlite3_int64)td_wall_ns());
	if (exit_code >= 0)
		sqlite3_bind_int(st, 3, exit_code);
	else
		sqlite3_bind_null(st, 3);
	td_store_bind_text(st, 4, message);
	sqlite3_bind_int64(st, 5, session);
	rc = sqlite3_step(st) == SQLITE_DONE ? 0 : -1;
	sqlite3_finalize(st);
	return rc;
}

static int run_stmt(struct td_store *s, const char *sql, int64_t a, const char *t2, const char *t3);

int td_store_session_counting(struct td_store *s, int64_t session, const char *mode, const char *note)
{
	return run_stmt(s, "UPDATE sessions SET counting=?2, counting_note=?3 WHERE id=?1", session, mode, note);
}

int td_store_session_switch_cost(struct td_store *s, int64_t session, double ns)
{
	sqlite3_stmt *st;
	int rc;

	if (sqlite3_prepare_v2(s->db, "UPDATE sessions SET switch_cost_ns=?2 WHERE id=?1", -1, &st, NULL) != SQLITE_OK)
		return -1;
	sqlite3_bind_int64(st, 1, session);
	sqlite3_bind_double(st, 2, ns);
	rc = sqlite3_step(st) == SQLITE_DONE ? 0 : -1;
	sqlite3_finalize(st);
	return rc;
}

int td_store_switch_cost_this_boot(struct td_store *s, int64_t session, double *ns)
{
	static const char q[] =
		"SELECT o.switch_cost_ns FROM sessions o, sessions me WHERE me.id = ?1 AND o.id != me.id"
		" AND o.switch_cost_ns IS NOT NULL AND coalesce(me.writer_boot, '') != ''"
		" AND o.writer_boot = me.writer_boot AND o.counting = me.counting"
		" AND (instr(coalesce(o.counting_note, ''), ?2) > 0) = (instr(coalesce(me.counting_note, ''), ?2) > 0)"
		" AND (instr(coalesce(o.counting_note, ''), ?3) > 0) = (instr(coalesce(me.counting_note, ''), ?3) > 0)"
		" AND (instr(coalesce(o.counting_note, ''), ?4) > 0) = (instr(coalesce(me.counting_note, ''), ?4) > 0)"
		/* the same switch program (its tag) where this session's note names one */
		" AND (instr(coalesce(me.counting_note, ''), ?5) = 0 OR instr(coalesce(o.counting_note, ''),"
		" substr(me.counting_note, instr(me.counting_note, ?5), length(?5) + 16)) > 0)"
		" AND (SELECT count(*) FROM events e WHERE e.session_id = o.id AND e.status = 'counting') ="
		" (SELECT count(*) FROM events e WHERE e.session_id = me.id AND e.status = 'counting')"
		" ORDER BY o.id DESC LIMIT 1";
	sqlite3_stmt *st;
	int rc;

	if (sqlite3_prepare_v2(s->db, q, -1, &st, NULL) != SQLITE_OK)
		return -1;
	sqlite3_bind_int64(st, 1, session);
	sqlite3_bind_text(st, 2, TD_UNLISTED_OFF_NOTE, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 3, TD_COUNTING_RAW_TP_NOTE, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 4, TD_COUNTING_SELF_NOTE, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 5, TD_COUNTING_TAG_NOTE, -1, SQLITE_STATIC);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW) {
		*ns = sqlite3_column_double(st, 0);
		rc = 1;
	} else {
		rc = rc == SQLITE_DONE ? 0 : -1;
	}
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
		if (sqlite3_prepare_v2(
			    s->db,
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

int64_t td_store_event_plan_add(struct td_store *s, int64_t session, const struct td_event_row *e)
{
	sqlite3_stmt *st = s->stmt[ST_EVENT_ADD];

	sqlite3_bind_int64(st, 1, session);
	td_store_bind_text(st, 2, e->name);
	td_store_bind_text(st, 3, e->spec);
	sqlite3_bind_int(st, 4, e->group);
	sqlite3_bind_int64(st, 5, e->type);
	sqlite3_bind_int64(st, 6, (sqlite3_int64)e->config);
	td_store_bind_text(st, 7, e->status);
	td_store_bind_text(st, 8, e->error);
	sqlite3_bind_int64(st, 9, (sqlite3_int64)e->config1);
	td_store_bind_text(st, 10, e->alias);
	td_store_bind_text(st, 11, e->file);
	return td_store_step_insert(s, st);
}

int64_t td_store_event_add(struct td_store *s, int64_t session, const char *name, const char *spec, int group,
			   uint32_t type, uint64_t config, const char *status, const char *error, const char *file)
{
	struct td_event_row e = { .name = name,
				  .spec = spec,
				  .group = group,
				  .type = type,
				  .config = config,
				  .status = status,
				  .error = error,
				  .file = file };

	return td_store_event_plan_add(s, session, &e);
}

/* Run a one-off statement: ?1 an integer, ?2 and ?3 texts (if present). */
static int run_stmt(struct td_store *s, const char *sql, int64_t a, const char *t2, const char *t3)
{
	sqlite3_stmt *st;
	int rc, n;

	if (sqlite3_prepare_v2(s->db, sql, -1, &st, NULL) != SQLITE_OK)
		return -1;
	n = sqlite3_bind_parameter_count(st);
	sqlite3_bind_int64(st, 1, a);
	if (n >= 2)
		td_store_bind_text(st, 2, t2);
	if (n >= 3)
		td_store_bind_text(st, 3, t3);
	rc = sqlite3_step(st) == SQLITE_DONE ? 0 : -1;
	sqlite3_finalize(st);
	return rc;
}

int td_store_event_set_alias(struct td_store *s, int64_t event, const char *alias)
{
	return run_stmt(s, "UPDATE events SET alias=?2 WHERE id=?1", event, alias, NULL);
}

int td_store_event_set_read_cost(struct td_store *s, int64_t event, double per_read)
{
	sqlite3_stmt *st;
	int rc;

	if (sqlite3_prepare_v2(s->db, "UPDATE events SET read_cost=?2 WHERE id=?1", -1, &st, NULL) != SQLITE_OK)
		return -1;
	sqlite3_bind_int64(st, 1, event);
	sqlite3_bind_double(st, 2, per_read);
	rc = sqlite3_step(st) == SQLITE_DONE ? 0 : -1;
	sqlite3_finalize(st);
	return rc;
}

int64_t td_store_thread_add(struct td_store *s, int64_t session, pid_t pid, pid_t tid, const char *comm,
			    uint64_t first_seen_ns)
{
	sqlite3_stmt *st = s->stmt[ST_THREAD_ADD];

	sqlite3_bind_int64(st, 1, session);
	if (pid > 0) /* 0: not known (perf stat --per-thread prints no PID) */
		sqlite3_bind_int(st, 2, pid);
	sqlite3_bind_int(st, 3, tid);
	td_store_bind_text(st, 4, comm);
	sqlite3_bind_int64(st, 5, (sqlite3_int64)first_seen_ns);
	sqlite3_bind_int64(st, 6, (sqlite3_int64)first_seen_ns);
	return target_inserted(s, td_store_step_insert(s, st));
}

int td_store_thread_seen(struct td_store *s, int64_t thread, const char *comm, uint64_t last_seen_ns, bool exited)
{
	sqlite3_stmt *st = s->stmt[ST_THREAD_SEEN];

	td_store_bind_text(st, 1, comm);
	sqlite3_bind_int64(st, 2, (sqlite3_int64)last_seen_ns);
	sqlite3_bind_int(st, 3, exited);
	sqlite3_bind_int64(st, 4, thread);
	return td_store_step_insert(s, st) < 0 ? -1 : 0;
}

static void bind_opt_int(sqlite3_stmt *st, int i, long v)
{
	if (v >= 0)
		sqlite3_bind_int64(st, i, v);
	else
		sqlite3_bind_null(st, i);
}

int64_t td_store_cpu_add(struct td_store *s, int64_t session, int cpu, int core, int socket)
{
	sqlite3_stmt *st = s->stmt[ST_TARGET_ADD];

	sqlite3_bind_int64(st, 1, session);
	sqlite3_bind_text(st, 2, "cpu", -1, SQLITE_STATIC);
	bind_opt_int(st, 5, cpu);
	bind_opt_int(st, 6, core);
	bind_opt_int(st, 7, socket);
	return target_inserted(s, td_store_step_insert(s, st));
}

int64_t td_store_target_add(struct td_store *s, int64_t session, const char *kind, pid_t pid, const char *comm,
			    const char *cgroup)
{
	sqlite3_stmt *st = s->stmt[ST_TARGET_ADD];

	sqlite3_bind_int64(st, 1, session);
	td_store_bind_text(st, 2, kind);
	bind_opt_int(st, 3, pid > 0 ? pid : -1);
	td_store_bind_text(st, 4, comm);
	td_store_bind_text(st, 8, cgroup);
	return target_inserted(s, td_store_step_insert(s, st));
}

int64_t td_store_interval_add(struct td_store *s, int64_t session, int seq, uint64_t start_ns, uint64_t end_ns)
{
	sqlite3_stmt *st = s->stmt[ST_INTERVAL_ADD];
	int64_t id;

	/* Only a writer's handle (TD_STORE_WRITE) has its statements prepared. */
	assert(s->mode == TD_STORE_WRITE && st);
	sqlite3_bind_int64(st, 1, session);
	sqlite3_bind_int(st, 2, seq);
	sqlite3_bind_int64(st, 3, (sqlite3_int64)start_ns);
	sqlite3_bind_int64(st, 4, (sqlite3_int64)end_ns);
	/* No order of ids is asserted: a rowid is the largest + 1, and another
	 * writer (tdctl prune beside a live run) may have deleted the largest,
	 * so a smaller id than this handle's last may come (store_cmds.sh). */
	id = td_store_step_insert(s, st);
	observe_interval(s, id, session, seq, start_ns, end_ns);
	return id;
}

int td_store_session_repeat(struct td_store *s, int64_t session, int64_t group, int index)
{
	sqlite3_stmt *st;
	int rc;

	if (sqlite3_prepare_v2(s->db, "UPDATE sessions SET repeat_group=?, repeat_index=? WHERE id=?", -1, &st, NULL))
		return -1;
	sqlite3_bind_int64(st, 1, group);
	sqlite3_bind_int(st, 2, index);
	sqlite3_bind_int64(st, 3, session);
	rc = sqlite3_step(st) == SQLITE_DONE ? 0 : -1;
	sqlite3_finalize(st);
	return rc;
}

int td_store_interval_cost(struct td_store *s, int64_t interval, uint64_t collector_ns, uint64_t counter_reads,
			   int64_t syscalls)
{
	sqlite3_stmt *st = s->stmt[ST_INTERVAL_COST];

	sqlite3_bind_int64(st, 1, (sqlite3_int64)collector_ns);
	sqlite3_bind_int64(st, 2, (sqlite3_int64)counter_reads);
	if (syscalls >= 0)
		sqlite3_bind_int64(st, 3, syscalls);
	else
		sqlite3_bind_null(st, 3);
	sqlite3_bind_int64(st, 4, interval);
	return td_store_step_insert(s, st) < 0 ? -1 : 0;
}

/* v in decimal at p (at most 20 characters, no terminator): what
 * snprintf's "%" PRId64 writes, without its cost on the interval path
 * (thousands of values an interval). Returns the characters written. */
static size_t format_int64(char *p, int64_t v)
{
	char digits[20];
	uint64_t u = v < 0 ? -(uint64_t)v : (uint64_t)v;
	size_t n = 0, len = 0;

	do {
		digits[n++] = (char)('0' + u % 10);
		u /= 10;
	} while (u);
	if (v < 0)
		p[len++] = '-';
	while (n)
		p[len++] = digits[--n];
	return len;
}

/* Bind the samples row r at parameter base + 1... of st. */
static void bind_sample(struct td_store *s, sqlite3_stmt *st, int base, const struct pending_sample *r)
{
	sqlite3_bind_int64(st, base + 1, r->interval);
	sqlite3_bind_int64(st, base + 2, r->target);
	sqlite3_bind_int64(st, base + 3, r->event);
	sqlite3_bind_int64(st, base + 4, (sqlite3_int64)r->enabled);
	sqlite3_bind_int64(st, base + 5, (sqlite3_int64)r->running);
	sqlite3_bind_text(st, base + 6, s->pack + r->off, (int)r->len, SQLITE_STATIC);
}

/* Write the batch's rows: one INSERT of TD_SAMPLE_BATCH rows when full,
 * else by fours and the last ones each (a statement stepped costs about
 * as much as the rows it writes: an interval of 13 threads, 27 rows, took
 * 12 steps, now 6). The batch is empty after, written or not. */
static int batch_write(struct td_store *s)
{
	int rc = 0, r = 0;

	if (s->nbatch == TD_SAMPLE_BATCH) {
		for (; r < s->nbatch; r++)
			bind_sample(s, s->stmt[ST_SAMPLE_ADD_BATCH], 6 * r, &s->batch[r]);
		rc = td_store_step_insert(s, s->stmt[ST_SAMPLE_ADD_BATCH]) < 0 ? -1 : 0;
	}
	for (; r + 4 <= s->nbatch && rc == 0; r += 4) {
		for (int k = 0; k < 4; k++)
			bind_sample(s, s->stmt[ST_SAMPLE_ADD_4], 6 * k, &s->batch[r + k]);
		rc = td_store_step_insert(s, s->stmt[ST_SAMPLE_ADD_4]) < 0 ? -1 : 0;
	}
	for (; r < s->nbatch && rc == 0; r++) {
		bind_sample(s, s->stmt[ST_SAMPLE_ADD], 0, &s->batch[r]);
		rc = td_store_step_insert(s, s->stmt[ST_SAMPLE_ADD]) < 0 ? -1 : 0;
	}
	s->nbatch = 0;
	s->pack_len = 0;
	return rc;
}

void td_store_batch_begin(struct td_store *s)
{
	/* A batch lives inside one transaction of a writer's handle and starts
	 * empty: its rows are written by the commit or dropped by the rollback. */
	assert(s->mode == TD_STORE_WRITE && !sqlite3_get_autocommit(s->db) && !s->batching && s->nbatch == 0);
	s->batching = true;
}

int td_store_batch_end(struct td_store *s)
{
	int rc;

	/* It ends the batch td_store_batch_begin began. */
	assert(s->batching);
	rc = batch_write(s);

	s->batching = false;
	return rc;
}

/* One samples row: values c[0..n) of events c[0].event, c[0].event + 1, ...
 * (one enabled/running), packed as a JSON array of integers; written now,
 * or in a batch (td_store_batch_begin). */
static int sample_add(struct td_store *s, int64_t interval, int64_t target, const struct td_store_count *c, int n)
{
	size_t need = s->pack_len + (size_t)n * 21 + 3, len = s->pack_len;
	struct pending_sample *r;

	if (need > s->pack_cap) {
		size_t cap = need > 2 * s->pack_cap ? need : 2 * s->pack_cap;
		char *p = realloc(s->pack, cap);
		if (!p)
			return -1;
		s->pack = p;
		s->pack_cap = cap;
	}
	s->pack[len++] = '[';
	for (int i = 0; i < n; i++) {
		if (i)
			s->pack[len++] = ',';
		len += format_int64(s->pack + len, (int64_t)c[i].value);
	}
	s->pack[len++] = ']';
	assert(len <= need);
	/* A full batch is written at once (below): there is always a free row. */
	assert(s->nbatch < TD_SAMPLE_BATCH);
	r = &s->batch[s->nbatch++];
	*r = (struct pending_sample){ interval,	    target,	 c[0].event,	   c[0].enabled,
				      c[0].running, s->pack_len, len - s->pack_len };
	s->pack_len = len;
	return !s->batching || s->nbatch == TD_SAMPLE_BATCH ? batch_write(s) : 0;
}

int td_store_counts_add(struct td_store *s, int64_t interval, int64_t target, const struct td_store_count *c, int n)
{
	if (td_store_samples_put(s, interval, target, c, n))
		return -1;
	observe_counts(s, interval, target, c, n);
	return 0;
}

int td_store_samples_put(struct td_store *s, int64_t interval, int64_t target, const struct td_store_count *c, int n)
{
	for (int i = 0, j; i < n; i = j) {
		for (j = i + 1; j < n && c[j].event == c[j - 1].event + 1 && c[j].enabled == c[i].enabled &&
				c[j].running == c[i].running;
		     j++)
			;
		if (sample_add(s, interval, target, c + i, j - i))
			return -1;
	}
	return 0;
}

int td_store_count_add(struct td_store *s, int64_t interval, int64_t thread, int64_t event, uint64_t value,
		       uint64_t enabled, uint64_t running)
{
	struct td_store_count c = { event, value, enabled, running };

	return td_store_counts_add(s, interval, thread, &c, 1);
}

int64_t td_store_metric_id(struct td_store *s, const char *name, const char *kind)
{
	sqlite3_stmt *get = s->stmt[ST_METRIC_ID], *add = s->stmt[ST_METRIC_NAME_ADD];
	int64_t id = -1;

	/* known names are the rule (every evaluation pass asks for all of its own) */
	sqlite3_reset(get);
	td_store_bind_text(get, 1, name);
	td_store_bind_text(get, 2, kind);
	if (sqlite3_step(get) == SQLITE_ROW)
		id = sqlite3_column_int64(get, 0);
	sqlite3_reset(get);
	if (id > 0)
		return id;
	td_store_bind_text(add, 1, name);
	td_store_bind_text(add, 2, kind);
	return td_store_step_insert(s, add);
}

/* Bind metrics row r at parameter base + 1... of st. */
static void bind_metric(sqlite3_stmt *st, int base, int64_t interval, int64_t target, const struct td_store_metric *r)
{
	sqlite3_bind_int64(st, base + 1, interval);
	sqlite3_bind_int64(st, base + 2, target);
	sqlite3_bind_int64(st, base + 3, r->metric);
	td_store_bind_real(st, base + 4, r->value);
	td_store_bind_real(st, base + 5, r->confidence);
	sqlite3_bind_int(st, base + 6, r->flagged);
	sqlite3_bind_int(st, base + 7, r->bottleneck);
	sqlite3_bind_int(st, base + 8, r->spans);
}

int td_store_metrics_add(struct td_store *s, int64_t interval, int64_t target, const struct td_store_metric *rows,
			 int n)
{
	int r = 0;

	for (; r + 4 <= n; r += 4) {
		for (int k = 0; k < 4; k++)
			bind_metric(s->stmt[ST_METRIC_ADD_4], 8 * k, interval, target, &rows[r + k]);
		if (td_store_step_insert(s, s->stmt[ST_METRIC_ADD_4]) < 0)
			return -1;
	}
	for (; r < n; r++) {
		bind_metric(s->stmt[ST_METRIC_ADD], 0, interval, target, &rows[r]);
		if (td_store_step_insert(s, s->stmt[ST_METRIC_ADD]) < 0)
			return -1;
	}
	return 0;
}

int td_store_metric_add(struct td_store *s, int64_t interval, int64_t target, int64_t metric, double value,
			double confidence, bool flagged, bool bottleneck, bool spans)
{
	const struct td_store_metric r = { metric, value, confidence, flagged, bottleneck, spans };

	return td_store_metrics_add(s, interval, target, &r, 1);
}

int td_store_event_aliases_clear(struct td_store *s, int64_t session)
{
	return run_stmt(s, "UPDATE events SET alias = NULL WHERE session_id=?1", session, NULL, NULL);
}

int td_store_metrics_clear(struct td_store *s, int64_t session)
{
	return run_stmt(s, "DELETE FROM metrics WHERE interval_id IN (SELECT id FROM intervals WHERE session_id=?1)",
			session, NULL, NULL);
}

int td_store_metrics_clear_range(struct td_store *s, int64_t session, int first_seq, int last_seq)
{
	sqlite3_stmt *st;
	int rc;

	if (sqlite3_prepare_v2(s->db,
			       "DELETE FROM metrics WHERE interval_id IN (SELECT id FROM intervals WHERE session_id=?1"
			       " AND seq BETWEEN ?2 AND ?3)",
			       -1, &st, NULL) != SQLITE_OK)
		return -1;
	sqlite3_bind_int64(st, 1, session);
	sqlite3_bind_int(st, 2, first_seq);
	sqlite3_bind_int(st, 3, last_seq);
	rc = sqlite3_step(st) == SQLITE_DONE ? 0 : -1;
	sqlite3_finalize(st);
	return rc;
}

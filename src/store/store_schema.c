/* store_schema: the database schema and its migrations. A new file gets the
 * current schema in one step (schema_current: what the migrations leave in
 * sqlite_master, written out; the migrations' ALTERs reparse the schema each
 * time and cost a new file ~9 ms); an older file is migrated step by step.
 * test_store_v2 checks that a migrated v1 file and a new one have the same
 * schema. Each step runs in the caller's transaction; foreign keys are off
 * while it runs (SQLite's table-rebuild procedure). Columns and meanings:
 * docs/schema.md. */
#include <stdio.h>

#include "store_impl.h"

/* Version 1 (a file of it: tests/data/store/v1.db) had sessions, threads,
 * events, intervals and counts (one row per value); its files are migrated. */

/* v1 -> v2: threads become targets (threads, processes, CPUs, cgroups, the
 * whole target), with a `threads` view for v1 queries; counts keep their
 * thread_id column, now pointing at targets; events get config1 and the
 * catalog alias; sessions get SMT, CPU count and source; metric values. */
static const char migrate_1_2[] =
	/* renaming first makes counts' foreign key follow the table */
	"ALTER TABLE threads RENAME TO targets;"
	"DROP INDEX threads_by_session;"
	"CREATE TABLE targets_v2("
	" id INTEGER PRIMARY KEY,"
	" session_id INTEGER NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,"
	" kind TEXT NOT NULL CHECK(kind IN ('thread','process','cpu','cgroup','whole')),"
	" pid INTEGER, tid INTEGER, comm TEXT,"
	" cpu INTEGER, core INTEGER, socket INTEGER,"
	" cgroup TEXT,"
	" first_seen_ns INTEGER, last_seen_ns INTEGER,"
	" exited INTEGER NOT NULL DEFAULT 0);"
	"INSERT INTO targets_v2(id,session_id,kind,pid,tid,comm,first_seen_ns,last_seen_ns,exited)"
	" SELECT id,session_id,'thread',pid,tid,comm,first_seen_ns,last_seen_ns,exited FROM targets;"
	"DROP TABLE targets;"
	"ALTER TABLE targets_v2 RENAME TO targets;"
	"CREATE INDEX targets_by_session ON targets(session_id, kind, tid);"
	"CREATE VIEW threads AS SELECT id, session_id, pid, tid, comm, first_seen_ns, last_seen_ns, exited"
	" FROM targets WHERE kind = 'thread';"
	"ALTER TABLE events ADD COLUMN config1 INTEGER NOT NULL DEFAULT 0;"
	"ALTER TABLE events ADD COLUMN alias TEXT;"
	"ALTER TABLE sessions ADD COLUMN smt INTEGER;"
	"ALTER TABLE sessions ADD COLUMN num_cpus INTEGER;"
	"ALTER TABLE sessions ADD COLUMN source TEXT;"
	"CREATE INDEX intervals_by_time ON intervals(end_ns);"
	"CREATE TABLE metric_names("
	" id INTEGER PRIMARY KEY,"
	" name TEXT NOT NULL,"
	" kind TEXT NOT NULL CHECK(kind IN ('node','info','cpi')),"
	" UNIQUE(name, kind));"
	"CREATE TABLE metrics("
	" interval_id INTEGER NOT NULL REFERENCES intervals(id) ON DELETE CASCADE,"
	" target_id INTEGER NOT NULL REFERENCES targets(id) ON DELETE CASCADE,"
	" metric_id INTEGER NOT NULL REFERENCES metric_names(id),"
	" value REAL,"
	" confidence REAL CHECK(confidence IS NULL OR (confidence >= 0 AND confidence <= 1)),"
	" flagged INTEGER NOT NULL DEFAULT 0,"
	" bottleneck INTEGER NOT NULL DEFAULT 0,"
	" PRIMARY KEY(interval_id, target_id, metric_id)) WITHOUT ROWID;"
	"CREATE VIEW metric_values AS"
	" SELECT i.session_id, i.id AS interval_id, i.seq, i.start_ns, i.end_ns,"
	"  t.id AS target_id, t.kind AS target_kind, t.pid, t.tid, t.comm, t.cpu, t.cgroup,"
	"  n.kind, n.name, m.value, m.confidence, m.flagged, m.bottleneck"
	" FROM metrics m JOIN intervals i ON i.id = m.interval_id JOIN targets t ON t.id = m.target_id"
	" JOIN metric_names n ON n.id = m.metric_id;";

/* v2 -> v3: a metric value says whether its formula read events of several
 * perf groups (different time windows), and the view shows it; a live
 * event says which events file planned it (recompute and reports read each
 * file's own rows: two files may count the same event). */
static const char migrate_2_3[] =
	"ALTER TABLE metrics ADD COLUMN spans INTEGER NOT NULL DEFAULT 0;"
	"ALTER TABLE events ADD COLUMN file TEXT;"
	/* enabled = running = 0 now means "never enabled" (a thread that did
	 * not run): an import's <not counted> says enabled > 0 */
	"UPDATE counts SET enabled = 1 WHERE running = 0 AND enabled = 0 AND interval_id IN"
	" (SELECT i.id FROM intervals i JOIN sessions s ON s.id = i.session_id WHERE s.kind = 'import');"
	"DROP VIEW metric_values;"
	"CREATE VIEW metric_values AS"
	" SELECT i.session_id, i.id AS interval_id, i.seq, i.start_ns, i.end_ns,"
	"  t.id AS target_id, t.kind AS target_kind, t.pid, t.tid, t.comm, t.cpu, t.cgroup,"
	"  n.kind, n.name, m.value, m.confidence, m.flagged, m.bottleneck, m.spans"
	" FROM metrics m JOIN intervals i ON i.id = m.interval_id JOIN targets t ON t.id = m.target_id"
	" JOIN metric_names n ON n.id = m.metric_id;";

/* v3 -> v4: raw counts packed, one row per interval, target and run of
 * values sharing enabled and running (a perf group's values, read at once)
 * instead of one row per value; `counts` becomes a view that unpacks them,
 * so SQL written against v3 still reads (and INSERTs one value at a time).
 * The thread index goes: every reader walks a session's intervals. Old
 * rows are moved one value per row (correct by construction; SQLite 3.40's
 * group_concat has no ORDER BY to pack them safely). */
static const char migrate_3_4[] =
	"CREATE TABLE samples("
	" interval_id INTEGER NOT NULL REFERENCES intervals(id) ON DELETE CASCADE,"
	" target_id INTEGER NOT NULL,"
	" event_id INTEGER NOT NULL,"
	" enabled INTEGER NOT NULL, running INTEGER NOT NULL,"
	" vals TEXT NOT NULL,"
	" PRIMARY KEY(interval_id, target_id, event_id)) WITHOUT ROWID;"
	"INSERT INTO samples SELECT interval_id, thread_id, event_id, enabled, running, '[' || value || ']' FROM "
	"counts;"
	"DROP TABLE counts;"
	"CREATE VIEW counts AS"
	" SELECT s.interval_id, s.target_id AS thread_id, s.event_id + v.key AS event_id, v.value AS value,"
	"  s.enabled, s.running"
	" FROM samples s, json_each(s.vals) v;"
	"CREATE TRIGGER counts_insert INSTEAD OF INSERT ON counts BEGIN"
	" INSERT INTO samples VALUES(NEW.interval_id, NEW.thread_id, NEW.event_id, NEW.enabled, NEW.running,"
	"  '[' || NEW.value || ']');"
	" END;";

/* v4 -> v5: what the collector cost, per interval: its CPU time (tdctl's
 * user + system over the interval, every thread), its counter reads and its
 * read/write system calls,
 * NULL where not measured (imports, older sessions); and the repeat group
 * a session belongs to (run -r), NULL for none. */
static const char migrate_4_5[] =
	"ALTER TABLE intervals ADD COLUMN collector_ns INTEGER;"
	"ALTER TABLE intervals ADD COLUMN counter_reads INTEGER;"
	"ALTER TABLE intervals ADD COLUMN syscalls INTEGER;"
	/* tdctl run -r N --warmup K: the group (its first session's id) and the index (< 0: warm-up) */
	"ALTER TABLE sessions ADD COLUMN repeat_group INTEGER;"
	"ALTER TABLE sessions ADD COLUMN repeat_index INTEGER;";

/* v5 -> v6: topdownd's sessions say whom they belong to (the client's uid:
 * a user sees and controls only their own) and which schedule entry started
 * them; both NULL for tdctl's own sessions. */
static const char migrate_5_6[] =
	"ALTER TABLE sessions ADD COLUMN owner_uid INTEGER;"
	"ALTER TABLE sessions ADD COLUMN schedule TEXT;"
	/* a scheduled system profile's processes that used most CPU time over it */
	"CREATE TABLE top_processes("
	" session_id INTEGER NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,"
	" rank INTEGER NOT NULL, pid INTEGER NOT NULL, comm TEXT,"
	" cpu_ns INTEGER NOT NULL," /* user + system over the session */
	" source TEXT NOT NULL,"    /* where cpu_ns came from: 'proc' (/proc/PID/stat) or 'bpf' */
	" PRIMARY KEY(session_id, rank)) WITHOUT ROWID;";

/* v6 -> v7: what one read of a group adds to a running target's count of
 * each event, measured at the session's start (collect/read_cost); NULL
 * where not measured (software events, user space only, imports). */
static const char migrate_6_7[] = "ALTER TABLE events ADD COLUMN read_cost REAL;";
/* v7 -> v8: how the threads of a session were counted — 'bpf' (summed by
 * a BPF program at each context switch) or 'per-thread' (perf groups per
 * thread) — and the line that says why (BPF did not load: ...); NULL for
 * older sessions, imports and CPU-wide ones. */
static const char migrate_7_8[] = "ALTER TABLE sessions ADD COLUMN counting TEXT;"
				  "ALTER TABLE sessions ADD COLUMN counting_note TEXT;";

/* v9 -> v10: hotspots (tdctl run/attach --hotspots). A session's sampling:
 * the event, the tree node it locates (NULL: time-based, no node), its
 * period, the note said about it, and the samples taken and lost so far;
 * and the samples of each interval per thread and code location (function,
 * module, source file and line: NULL where the binary has no line
 * information), counted; and the folded call stacks (samples_stack.stack:
 * outermost function first, ';' between). */
#define SQL_9_10                                                                         \
	"CREATE TABLE sampling("                                                         \
	" session_id INTEGER PRIMARY KEY REFERENCES sessions(id) ON DELETE CASCADE,"     \
	" event TEXT NOT NULL, node TEXT, period INTEGER NOT NULL, note TEXT,"           \
	" samples INTEGER NOT NULL DEFAULT 0, lost INTEGER NOT NULL DEFAULT 0,"          \
	" throttled INTEGER NOT NULL DEFAULT 0, unresolved INTEGER NOT NULL DEFAULT 0);" \
	"CREATE TABLE samples_hot("                                                      \
	" session_id INTEGER NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,"        \
	" interval_id INTEGER NOT NULL REFERENCES intervals(id) ON DELETE CASCADE,"      \
	" pid INTEGER NOT NULL, tid INTEGER NOT NULL, node TEXT,"                        \
	" function TEXT NOT NULL, module TEXT NOT NULL, file TEXT, line INTEGER,"        \
	" count INTEGER NOT NULL CHECK(count > 0));"                                     \
	"CREATE INDEX samples_hot_by_session ON samples_hot(session_id, interval_id);"   \
	"CREATE TABLE samples_stack("                                                    \
	" session_id INTEGER NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,"        \
	" interval_id INTEGER NOT NULL REFERENCES intervals(id) ON DELETE CASCADE,"      \
	" pid INTEGER NOT NULL, tid INTEGER NOT NULL, node TEXT,"                        \
	" stack TEXT NOT NULL,"                                                          \
	" count INTEGER NOT NULL CHECK(count > 0));"                                     \
	"CREATE INDEX samples_stack_by_session ON samples_stack(session_id, interval_id);"
static const char migrate_9_10[] = SQL_9_10;

/* v10 -> v11: the changes watch mode found (topdownd [watch]): when, the
 * workload (its cgroup) and node, the node's medians over the baseline and
 * the window with how many intervals each held, the Mann-Whitney p-value,
 * the watch session whose values moved and the drill-down session started
 * (NULL: none, or deleted since). */
#define SQL_10_11                                                                                          \
	"CREATE TABLE changes( id INTEGER PRIMARY KEY,"                                                    \
	" session_id INTEGER NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,"                          \
	" detected_ns INTEGER NOT NULL, workload TEXT NOT NULL, node TEXT NOT NULL,"                       \
	" before REAL NOT NULL, after REAL NOT NULL, n_before INTEGER NOT NULL, n_after INTEGER NOT NULL," \
	" p_value REAL NOT NULL, drill_session_id INTEGER REFERENCES sessions(id) ON DELETE SET NULL);"
static const char migrate_10_11[] = SQL_10_11;

/* v11 -> v12: a change's kind (moved: the rank test; threshold: a node over
 * its threshold for threshold_for), its p-value NULL where no test was
 * possible (a threshold held over a baseline not counted), and the
 * intervals of the watch session it was decided on (seq, first and last):
 * its baseline's and its latest window's (the held ones for a threshold);
 * NULL for a change stored before (tdctl report --change shows no trees for
 * it). SQLite cannot drop a NOT NULL: the table is made again. */
#define SQL_CHANGES_12(name)                                                                                    \
	"CREATE TABLE " name "( id INTEGER PRIMARY KEY,"                                                        \
	" session_id INTEGER NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,"                               \
	" detected_ns INTEGER NOT NULL, workload TEXT NOT NULL, node TEXT NOT NULL,"                            \
	" kind TEXT NOT NULL DEFAULT 'moved' CHECK(kind IN ('moved','threshold')),"                             \
	" before REAL, after REAL NOT NULL, n_before INTEGER NOT NULL, n_after INTEGER NOT NULL, p_value REAL," \
	" drill_session_id INTEGER REFERENCES sessions(id) ON DELETE SET NULL,"                                 \
	" before_first_seq INTEGER, before_last_seq INTEGER, after_first_seq INTEGER, after_last_seq INTEGER);"
static const char migrate_11_12[] = SQL_CHANGES_12(
	"changes_12") "INSERT INTO changes_12(id, session_id, detected_ns, workload, node, before, after,"
		      " n_before, n_after, p_value, drill_session_id) SELECT id, session_id, detected_ns,"
		      " workload, node, before, after, n_before, n_after, p_value, drill_session_id FROM"
		      " changes;"
		      "DROP TABLE changes;"
		      "ALTER TABLE changes_12 RENAME TO changes;";

/* v8 -> v9: what counting added to a context switch of the target, measured
 * at the session's start; NULL for every older session and when not measured. */
static const char migrate_8_9[] = "ALTER TABLE sessions ADD COLUMN switch_cost_ns REAL;";

/* v12 -> v13: how many intervals as read an interval holds once downsampling
 * merged them (store_downsample.c); NULL: as read. */
static const char migrate_12_13[] = "ALTER TABLE intervals ADD COLUMN merged INTEGER;";

/* The schema of version TD_SCHEMA_VERSION: sqlite_master's text of a file
 * migrated from version 1 (SQLite appends added columns to a table's text and
 * quotes a renamed table's name: "targets"). A change of schema adds a
 * migration and changes this text to what the migration leaves. */
static const char schema_current[] =
	"CREATE TABLE sessions( id INTEGER PRIMARY KEY, kind TEXT NOT NULL, command TEXT, "
	"target_pid INTEGER, host TEXT, kernel TEXT, cpu_vendor TEXT, cpu_family INTEGER, cpu_model INTEGER, "
	"cpu_name TEXT, uarch TEXT, pmu_model TEXT, rung TEXT, rung_reason TEXT, events_file TEXT, "
	"interval_ms INTEGER, kernel_counted INTEGER, started_ns INTEGER NOT NULL, ended_ns INTEGER, "
	"status TEXT NOT NULL CHECK(status IN ('running','completed','failed','interrupted')), "
	"exit_code INTEGER, message TEXT, writer_pid INTEGER, writer_boot TEXT, writer_start INTEGER, "
	"smt INTEGER, num_cpus INTEGER, source TEXT, repeat_group INTEGER, repeat_index INTEGER, "
	"owner_uid INTEGER, schedule TEXT, counting TEXT, counting_note TEXT, switch_cost_ns REAL);"
	"CREATE TABLE events( id INTEGER PRIMARY KEY, "
	"session_id INTEGER NOT NULL REFERENCES sessions(id) ON DELETE CASCADE, name TEXT NOT NULL, "
	"spec TEXT, group_idx INTEGER, type INTEGER, config INTEGER, "
	"status TEXT NOT NULL CHECK(status IN ('counting','failed')), error TEXT, "
	"config1 INTEGER NOT NULL DEFAULT 0, alias TEXT, file TEXT, read_cost REAL);"
	"CREATE TABLE intervals( id INTEGER PRIMARY KEY, "
	"session_id INTEGER NOT NULL REFERENCES sessions(id) ON DELETE CASCADE, seq INTEGER NOT NULL, "
	"start_ns INTEGER NOT NULL, end_ns INTEGER NOT NULL, collector_ns INTEGER, counter_reads INTEGER, "
	"syscalls INTEGER, merged INTEGER, UNIQUE(session_id, seq));"
	"CREATE TABLE targets( id INTEGER PRIMARY KEY, "
	"session_id INTEGER NOT NULL REFERENCES sessions(id) ON DELETE CASCADE, "
	"kind TEXT NOT NULL CHECK(kind IN ('thread','process','cpu','cgroup','whole')), pid INTEGER, "
	"tid INTEGER, comm TEXT, cpu INTEGER, core INTEGER, socket INTEGER, cgroup TEXT, "
	"first_seen_ns INTEGER, last_seen_ns INTEGER, exited INTEGER NOT NULL DEFAULT 0);"
	"CREATE TABLE metric_names( id INTEGER PRIMARY KEY, name TEXT NOT NULL, "
	"kind TEXT NOT NULL CHECK(kind IN ('node','info','cpi')), UNIQUE(name, kind));"
	"CREATE TABLE metrics( interval_id INTEGER NOT NULL REFERENCES intervals(id) ON DELETE CASCADE, "
	"target_id INTEGER NOT NULL REFERENCES targets(id) ON DELETE CASCADE, "
	"metric_id INTEGER NOT NULL REFERENCES metric_names(id), value REAL, "
	"confidence REAL CHECK(confidence IS NULL OR (confidence >= 0 AND confidence <= 1)), "
	"flagged INTEGER NOT NULL DEFAULT 0, bottleneck INTEGER NOT NULL DEFAULT 0, "
	"spans INTEGER NOT NULL DEFAULT 0, PRIMARY KEY(interval_id, target_id, metric_id)) WITHOUT ROWID;"
	"CREATE TABLE samples( interval_id INTEGER NOT NULL REFERENCES intervals(id) ON DELETE CASCADE, "
	"target_id INTEGER NOT NULL, event_id INTEGER NOT NULL, enabled INTEGER NOT NULL, "
	"running INTEGER NOT NULL, vals TEXT NOT NULL, PRIMARY KEY(interval_id, target_id, "
	"event_id)) WITHOUT ROWID;"
	"CREATE TABLE top_processes( session_id INTEGER NOT NULL REFERENCES sessions(id) ON DELETE CASCADE, "
	"rank INTEGER NOT NULL, pid INTEGER NOT NULL, comm TEXT, cpu_ns INTEGER NOT NULL, "
	"source TEXT NOT NULL, PRIMARY KEY(session_id, rank)) WITHOUT ROWID;"
	"CREATE INDEX events_by_session ON events(session_id);"
	"CREATE INDEX targets_by_session ON targets(session_id, kind, tid);"
	"CREATE INDEX intervals_by_time ON intervals(end_ns);"
	"CREATE VIEW threads AS SELECT id, session_id, pid, tid, comm, first_seen_ns, last_seen_ns, "
	"exited FROM targets WHERE kind = 'thread';"
	"CREATE VIEW metric_values AS SELECT i.session_id, i.id AS interval_id, i.seq, i.start_ns, i.end_ns, "
	" t.id AS target_id, t.kind AS target_kind, t.pid, t.tid, t.comm, t.cpu, t.cgroup,  n.kind, n.name, "
	"m.value, m.confidence, m.flagged, m.bottleneck, "
	"m.spans FROM metrics m JOIN intervals i ON i.id = m.interval_id JOIN targets t ON t.id = m.target_id JOIN "
	"metric_names n ON n.id = m.metric_id;"
	"CREATE VIEW counts AS SELECT s.interval_id, s.target_id AS thread_id, "
	"s.event_id + v.key AS event_id, v.value AS value,  s.enabled, s.running FROM samples s, "
	"json_each(s.vals) v;"
	"CREATE TRIGGER counts_insert INSTEAD OF INSERT ON counts BEGIN INSERT INTO samples VALUES(NEW.interval_id, "
	"NEW.thread_id, NEW.event_id, NEW.enabled, NEW.running,  '[' || NEW.value || ']'); END;" SQL_9_10
		SQL_CHANGES_12("changes");

static int set_version(struct td_store *s, int version)
{
	char sql[64];

	snprintf(sql, sizeof(sql), "PRAGMA user_version=%d", version);
	return td_store_exec(s, sql);
}

int td_store_schema_upgrade(struct td_store *s, int version)
{
	char sql[64];

	if (version == 0) {
		snprintf(sql, sizeof(sql), "PRAGMA application_id=%d", TD_APPLICATION_ID);
		if (td_store_exec(s, schema_current) || set_version(s, TD_SCHEMA_VERSION) || td_store_exec(s, sql))
			return -1;
		return 0;
	}
	if (version == 1) {
		if (td_store_exec(s, migrate_1_2) || set_version(s, 2))
			return -1;
		version = 2;
	}
	if (version == 2) {
		if (td_store_exec(s, migrate_2_3) || set_version(s, 3))
			return -1;
		version = 3;
	}
	if (version == 3) {
		if (td_store_exec(s, migrate_3_4) || set_version(s, 4))
			return -1;
		version = 4;
	}
	if (version == 4) {
		if (td_store_exec(s, migrate_4_5) || set_version(s, 5))
			return -1;
		version = 5;
	}
	if (version == 5) {
		if (td_store_exec(s, migrate_5_6) || set_version(s, 6))
			return -1;
		version = 6;
	}
	if (version == 6) {
		if (td_store_exec(s, migrate_6_7) || set_version(s, 7))
			return -1;
		version = 7;
	}
	if (version == 7) {
		if (td_store_exec(s, migrate_7_8) || set_version(s, 8))
			return -1;
		version = 8;
	}
	if (version == 8) {
		if (td_store_exec(s, migrate_8_9) || set_version(s, 9))
			return -1;
		version = 9;
	}
	if (version == 9) {
		if (td_store_exec(s, migrate_9_10) || set_version(s, 10))
			return -1;
		version = 10;
	}
	if (version == 10) {
		if (td_store_exec(s, migrate_10_11) || set_version(s, 11))
			return -1;
		version = 11;
	}
	if (version == 11) {
		if (td_store_exec(s, migrate_11_12) || set_version(s, 12))
			return -1;
		version = 12;
	}
	if (version == 12) {
		if (td_store_exec(s, migrate_12_13) || set_version(s, 13))
			return -1;
		version = 13;
	}
	return version == TD_SCHEMA_VERSION ? 0 : -1;
}

/* store_impl: what the store's source files (store.c, store_schema.c,
 * store_read.c, store_prune.c, store_sql.c, store_observe.c) share — the handle, its prepared statements
 * and small SQLite helpers. Not for use outside the store module. */
#ifndef TD_STORE_IMPL_H
#define TD_STORE_IMPL_H

#include <sqlite3.h>
#include <stdbool.h>
#include <stddef.h>

#include "store.h"

/* 'TDWN': marks a SQLite file as a topdown database. */
#define TD_APPLICATION_ID 0x5444574e

enum stmt_id {
	ST_EVENT_ADD,
	ST_THREAD_ADD,
	ST_THREAD_SEEN,
	ST_INTERVAL_ADD,
	ST_SAMPLE_ADD,
	ST_INTERVAL_COST,
	ST_TARGET_ADD,
	ST_METRIC_ADD,
	ST_SAMPLE_ADD_BATCH, /* TD_SAMPLE_BATCH rows in one INSERT */
	ST_SAMPLE_ADD_4,     /* 4 rows: a batch's remainder by fours */
	ST_METRIC_ADD_4,     /* 4 metrics rows: td_store_metrics_add by fours */
	ST_MAX_TARGET,	     /* td_store_max_target_id: every interval */
	ST_BEGIN,	     /* td_store_begin, td_store_commit: every interval (not parsed again each time) */
	ST_COMMIT,
	ST_SAVEPOINT, /* ... in the daemon's outer transaction: a savepoint each interval of a session */
	ST_RELEASE,
	ST_HOT_ADD, /* samples_hot and samples_stack rows: hundreds an interval with --hotspots */
	ST_HOT_STACK_ADD,
	ST_METRIC_ID, /* td_store_metric_id: each metric of each evaluation pass (recompute, downsampling) */
	ST_METRIC_NAME_ADD,
	ST_COUNT
};

/* samples rows one INSERT writes between td_store_batch_begin and _end */
#define TD_SAMPLE_BATCH 16

/* A samples row waiting for its batch: its text is pack[off, off + len). */
struct pending_sample {
	int64_t interval, target, event;
	uint64_t enabled, running;
	size_t off, len;
};

/* A counts value written in the open transaction, kept for the observer
 * (store_observe.c) until it commits or rolls back. */
struct observed_row {
	struct td_count_row r;
	size_t iv;  /* index of its interval in observed.ivs */
	size_t ord; /* order written (ties of target and event keep it) */
};
struct observed {
	td_committed_fn fn; /* NULL: nobody observes */
	void *ctx;
	struct observed_row *rows;
	size_t nrows, cap_rows, mark_rows; /* mark: where the current savepoint began */
	struct td_count_row *out;	   /* one interval's rows as handed over */
	size_t cap_out;
	struct {
		int64_t id, session;
		int seq;
		uint64_t start_ns, end_ns;
	} * ivs;
	size_t nivs, cap_ivs, mark_ivs;
	bool lost, mark_lost; /* a row could not be kept since the last hand-over */
};

struct td_store {
	sqlite3 *db;
	sqlite3_stmt *stmt[ST_COUNT];
	char *path;
	enum td_store_mode mode;
	char *pack; /* td_store_counts_add's JSON text (a batch's rows', one after another), grown as needed */
	size_t pack_cap, pack_len;
	bool batching; /* between td_store_batch_begin and _end: rows wait in batch */
	struct pending_sample batch[TD_SAMPLE_BATCH];
	int nbatch;
	char errmsg[256]; /* td_store_errmsg's text when it adds the system's reason */
	/* td_store_max_target_id without a query each interval: the largest
	 * target id known committed (-1: not asked yet) and the largest this
	 * handle inserted since (it becomes committed with the transaction) */
	int64_t target_id_committed, target_id_pending;
	/* td_store_outer_begin: the transactions that follow are savepoints of
	 * one (outer_open once the first began it) until td_store_outer_end;
	 * outer_lost: SQLite rolled it back by itself after an error; the
	 * target id pending when the current savepoint began */
	bool outer_armed, outer_open, outer_lost;
	bool outer_group; /* td_store_group_begin: no savepoints, all of it kept or none */
	int64_t target_id_savepoint;
	struct observed observed; /* td_store_observe_counts */
};

/* store_observe.c: the observer's rows, kept from write to commit */
void observe_interval(struct td_store *s, int64_t id, int64_t session, int seq, uint64_t start_ns, uint64_t end_ns);
void observe_counts(struct td_store *s, int64_t interval, int64_t target, const struct td_store_count *c, int n);
void observe_begin(struct td_store *s);			   /* a transaction or savepoint began */
void observe_rollback(struct td_store *s, bool savepoint); /* ... rolled back: its rows forgotten */
void observe_committed(struct td_store *s);		   /* all kept rows committed: handed over */
void observe_free(struct td_store *s);

/* store.c: td_store_counts_add's rows without handing them to the observer
 * (counts already handed over once, merged: store_downsample.c) */
int td_store_samples_put(struct td_store *s, int64_t interval, int64_t target, const struct td_store_count *c, int n);

/* store_sql.c: the SQLite helpers */
int td_store_exec(struct td_store *s, const char *sql);
int td_store_pragma_int(struct td_store *s, const char *sql, int *out);
int64_t td_store_step_insert(struct td_store *s, sqlite3_stmt *st);
void td_store_bind_text(sqlite3_stmt *st, int i, const char *v);
/* NULL for NaN, the value otherwise. */
void td_store_bind_real(sqlite3_stmt *st, int i, double v);
/* Text of a column, "" for NULL. */
const char *td_store_col_text(sqlite3_stmt *st, int i);

/* Schema: create a new file's schema, or migrate an older one, in one
 * transaction. version is the file's user_version (0 for an empty file). */
int td_store_schema_upgrade(struct td_store *s, int version);

#endif

/* store: the SQLite database — schema and its version, sessions with their
 * status, threads, the events opened, and raw interval counts (value,
 * enabled, running). Raw counts are the truth; metrics are recomputable.
 * WAL mode and one transaction per interval: a kill at any moment leaves a
 * readable file missing at most the interval in flight. Schema: docs/schema.md. */
#ifndef TD_STORE_H
#define TD_STORE_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "util.h"

#define TD_SCHEMA_VERSION 1

struct td_store;

enum td_store_mode { TD_STORE_READ, TD_STORE_WRITE };

struct td_session_info {
	const char *kind;       /* run, attach */
	const char *command;    /* command line or target description */
	pid_t target_pid;
	const char *host, *kernel;
	const char *cpu_vendor, *cpu_name, *uarch, *pmu_model;
	int cpu_family, cpu_model;
	const char *rung, *rung_reason, *events_file;
	int interval_ms;
	bool kernel_counted;
};

/* Open (and in WRITE mode create) the database at path. Refuses files that
 * are not SQLite, foreign SQLite files and newer schemas, each with a
 * one-line message in err. */
int td_store_open(const char *path, enum td_store_mode mode, struct td_store **out, td_err *err);
void td_store_close(struct td_store *s);

int td_store_begin(struct td_store *s);
int td_store_commit(struct td_store *s);
void td_store_rollback(struct td_store *s);

/* Sessions. status: running, completed, failed, interrupted. */
int64_t td_store_session_begin(struct td_store *s, const struct td_session_info *info, td_err *err);
int td_store_session_end(struct td_store *s, int64_t session, const char *status, int exit_code,
			 const char *message);
/* Mark sessions left 'running' by a writer that no longer exists as
 * 'interrupted'. Returns how many were marked, or -1. */
int td_store_recover(struct td_store *s);
/* Id of the latest session, or 0 when there is none. */
int64_t td_store_latest_session(struct td_store *s);

int64_t td_store_event_add(struct td_store *s, int64_t session, const char *name, const char *spec, int group,
			   uint32_t type, uint64_t config, const char *status, const char *error);
int64_t td_store_thread_add(struct td_store *s, int64_t session, pid_t pid, pid_t tid, const char *comm,
			    uint64_t first_seen_ns);
int td_store_thread_seen(struct td_store *s, int64_t thread, const char *comm, uint64_t last_seen_ns, bool exited);
int64_t td_store_interval_add(struct td_store *s, int64_t session, int seq, uint64_t start_ns, uint64_t end_ns);
int td_store_count_add(struct td_store *s, int64_t interval, int64_t thread, int64_t event, uint64_t value,
		       uint64_t enabled, uint64_t running);

/* Per-thread totals of one event over a session: raw sums and the sum of
 * per-interval scaled values (NaN when no interval was counted). */
struct td_thread_total {
	int64_t thread;
	pid_t pid, tid;
	char comm[32];
	uint64_t first_seen_ns, last_seen_ns;
	const char *event;
	uint64_t value, enabled, running;
	double scaled;
	int intervals, not_counted;
};
typedef int (*td_thread_total_fn)(const struct td_thread_total *t, void *ctx);
int td_store_thread_totals(struct td_store *s, int64_t session, td_thread_total_fn fn, void *ctx);

/* Events of a session that could not be counted, one callback per distinct
 * error: the names (space separated) and the error. */
typedef int (*td_failed_events_fn)(const char *names, const char *error, void *ctx);
int td_store_failed_events(struct td_store *s, int64_t session, td_failed_events_fn fn, void *ctx);

struct td_session_row {
	int64_t id;
	char kind[16], status[16], command[256], host[64], rung[32], message[256];
	pid_t target_pid;
	uint64_t started_ns, ended_ns;
	int interval_ms, exit_code, nthreads, nintervals;
	bool has_exit_code;
	bool kernel_counted;     /* kernel-mode activity was counted (root / CAP_PERFMON / paranoid <= 1) */
};
typedef int (*td_session_fn)(const struct td_session_row *r, void *ctx);
int td_store_sessions(struct td_store *s, td_session_fn fn, void *ctx);
int td_store_session(struct td_store *s, int64_t id, struct td_session_row *row);

const char *td_store_errmsg(struct td_store *s);

#endif

/* session: one monitoring session from start to end, shared by `tdctl run`,
 * `tdctl attach` and (later) the daemon — checks the target and the
 * database, builds the event groups from events/NAME.td, drives the collector
 * from one poll() loop (interval timer, thread scan timer, target exit,
 * signals), and writes everything to the store one interval per transaction. */
#ifndef TD_SESSION_H
#define TD_SESSION_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "util.h"

struct td_session_opts {
	const char *db_path;
	const char *events_dir;   /* NULL: td_events_dir() */
	int interval_ms;          /* reading period */
	int scan_ms;              /* thread discovery period */
	int duration_ms;          /* 0: until the target ends or a signal */
	pid_t attach_pid;         /* attach: the process; 0 for run */
	char *const *argv;        /* run: the command */
	bool quiet;               /* no notes on stderr */
	uint64_t max_age_ns;      /* retention while running (0: none): see td_store_prune */
	uint64_t max_bytes;
	int counters;             /* > 0: at most this many events per group (evpack.h) */
	int rotate_ms;            /* > 0: user-space rotation of the groups every MS (collector.h) */
	int level;                /* -l LEVEL: the model file's tree to this level (0: the deepest that fits one group) */
	const char *nodes;        /* --nodes LIST: these nodes and their ancestors instead, NULL none */
	const char *pmu_model;    /* --pmu MODEL: the events file serving MODEL, encoded for it; NULL: the host's */
	bool system;              /* record --system: every online CPU, no target process */
	const char *cgroup;       /* record --cgroup PATH: that cgroup's tasks on every online CPU */
};

struct td_session_result {
	int64_t session_id;
	int target_status;        /* run: exit status as a shell reports it (128+N for signal N) */
	char stop_reason[128];
	int error_exit;           /* on failure: what tdctl should exit with (127: no such command, 126: cannot execute) */
};

/* Run a whole session. Returns 0 when the session completed (whatever the
 * target's exit status), -1 with a one-line message in err otherwise. */
int td_session_execute(const struct td_session_opts *o, struct td_session_result *res, td_err *err);

#endif

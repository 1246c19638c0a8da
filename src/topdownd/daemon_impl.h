/* daemon_impl: what topdownd's files share — the daemon's state (struct
 * daemon), a running session as the daemon knows it (struct dsession), a
 * schedule entry's state, and the functions each file gives the others.
 * The files call one another one way only (a DAG):
 *   daemon.c (the loop) -> daemon_privsep.c (the front's and the exporter's
 *   messages, a request dispatched) -> req_*.c (one concern of requests
 *   each) -> daemon_reload.c -> daemon_schedule.c, daemon_auto.c, daemon_watch.c ->
 *   daemon_sessions.c -> daemon_state.c; daemon_privsep.c ->
 *   daemon_export.c (a scrape) -> daemon_sessions.c. Nothing calls back
 *   into daemon.c; daemon.c calls daemon_watch.c after each dispatch.
 * Not for use outside src/topdownd. */
#ifndef TD_DAEMON_IMPL_H
#define TD_DAEMON_IMPL_H

#include <jansson.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "auto_attach.h"
#include "base/util.h"
#include "clients.h"
#include "privsep.h"
#include "rclients.h"
#include "collect/exec_watch.h"
#include "control/protocol.h"
#include "daemon.h"
#include "daemon_config.h"
#include "exporter.h"
#include "openmetrics.h"
#include "report_job.h"
#include "session/session.h"
#include "snapshot.h"
#include "top_processes.h"
#include "watch_trigger.h"

/* A running session and what the daemon knows of it. */
struct dsession {
	struct daemon *d;
	struct td_session *s;
	int64_t id;
	uid_t owner;
	int entry;	     /* schedule entry index, -1: an attach */
	char *entry_name;    /* sessions.schedule: the schedule entry, or "auto:RULE" */
	char *rule;	     /* started by this [auto] rule, NULL: not */
	pid_t pid;	     /* attach: the process */
	uint64_t started_ns; /* wall */
	int last_seq, intervals;
	char *db_path, *events_dir, *nodes, *cgroup; /* the session's options point here */
	struct td_top_snapshot *top;		     /* schedule with top N: CPU time at the start */
	int top_n;
	struct td_snapshot snap; /* the latest interval's values, for the exporter */
	int interval_ms;
	char comm[64];
	char rung[32], model[64], events_file[64];
	/* watch mode: "watch" (a group's level 1) or "drill" (after a change), NULL: neither */
	const char *watch;
	char **wnames; /* "watch": the level-1 nodes, and their values of the latest interval */
	double *wvals;
	unsigned char *wflags; /* ... and their thresholds (enum td_watch_flag) */
	int nw, wseq;
	bool wfresh;		    /* wvals not yet seen by daemon_watch.c */
	bool shared_store;	    /* writes through d->store (watch mode's sessions) */
	struct td_symbolizer *symz; /* a drill-down's hotspots: its symbolizers (symbolizer.h), NULL none */
};

struct sched_state {
	uint64_t next_ns; /* monotonic */
	int64_t running;  /* session id of its run, 0 none */
	int runs, missed;
	/* the last run that ended, for the exporter */
	struct td_snapshot last;
	int64_t last_session;
	char rung[32], model[64], events_file[64];
};

/* A change watch mode found (daemon_watch.c): what `tdctl changes` lists. */
struct watch_change {
	int64_t id;	  /* 1, 2, ... in this daemon's life */
	uint64_t when_ns; /* wall */
	char *group, *node;
	bool threshold;		 /* over its threshold for threshold_for (else moved: the rank test) */
	double before, after, p; /* the node's medians, baseline and window; the test's p-value (NaN: none) */
	int n_before, n_after;
	/* the watch session's intervals (seq) of the baseline and of the latest
	 * window it was decided on, first and last; -1: not known */
	int before_first, before_last, after_first, after_last;
	int64_t session; /* the watch session whose values moved */
	int64_t drill;	 /* the drill-down session it started, 0: none (why in the log) */
};

/* A cgroup watch mode follows, or one of the busiest processes. */
struct watch_group {
	char *path;	 /* inside the cgroup mount, as /proc/PID/cgroup names it; a process: its program */
	pid_t pid;	 /* a process (0: a cgroup) */
	long long start; /* ... and its start time (a PID reused is another process) */
	int idle;	 /* ... listings since it was last among the busiest */
	int64_t session; /* its running watch session, 0: none */
	struct td_watch_series series;
	/* the interval (seq) of each row the series was given, the last baseline
	 * + 2 windows of them (a ring: the seq_n-th at seq_n % that): which
	 * intervals a change was decided on */
	int *seqs;
	long long seq_n;
	bool has_series;
	bool seen;	 /* found by the latest scan */
	bool start_said; /* why its session could not start is logged (once, not every scan) */
	/* a cgroup's cpu.stat usage_usec and cpu.pressure "some" total at cpu_ns (monotonic; 0: not read) */
	uint64_t cpu_ns, cpu_run_us, cpu_wait_us;
	int cpu_fd[2]; /* its cpu.stat and cpu.pressure, open once read (-1: not open) */
};

struct watch_state {
	struct td_watch_config conf; /* as configured (its root a copy): a reload that keeps it keeps the state */
	struct td_watch_params pr;
	struct td_watch_limits limits;
	char root[4096];       /* the root's full path */
	char root_rel[4096];   /* and inside the mount */
	struct watch_group *g; /* the cgroups, then the processes */
	int ng;
	struct td_top_snapshot *top;	 /* top_processes: every process's CPU time at the last listing */
	uint64_t next_scan_ns;		 /* monotonic */
	uint64_t scan_mono, scan_cpu_ns; /* the clock and the daemon's CPU time at the last scan */
	bool over_budget;
	int scans; /* the listings of the groups so far (the processes are listed every window-th) */
};

struct daemon {
	const struct td_daemon_opts *o;
	struct td_config cfg;
	struct sched_state *sched;
	int sigfd;
	struct td_rclients *clients; /* the front's, as the monitor knows them */
	struct td_child front, exporter;
	uid_t run_uid; /* the front's and the exporter's */
	gid_t run_gid;
	bool socket_ours; /* a front of ours bound the socket: removed at the end */
	struct dsession **s;
	int ns;
	uint64_t start_mono;
	long long intervals_written, sessions_started, missed_runs, intervals_lost, periods_missed;
	double scrape_seconds;	       /* the previous scrape's, < 0 none */
	struct td_exec_watch *watch;   /* with [auto] rules: every exec on the system */
	struct td_auto_rules autos;    /* d->cfg.autos, resolved */
	struct watch_state *watching;  /* [watch] enabled, NULL: not */
	struct ds_state *downsampling; /* watch sessions' retention (daemon_downsample.c), NULL: not begun */
	/* the database opened at the start (store_path), kept: watch mode's
	 * sessions write through it, each interval's in one transaction */
	struct td_store *store;
	char *store_path;
	struct watch_change *changes; /* what watch mode found, kept over reloads */
	int nchanges;
	long long changes_held;				/* changes the rate limits held back */
	long long auto_missed;				/* processes a rule matched but no session followed */
	struct td_report_job *jobs[TD_REPORT_JOBS_MAX]; /* reports being rendered by child processes */
	int njobs;
	bool stop;
};

/* daemon_state.c: the log, systemd's status line, replies */
void daemon_vlog(const struct daemon *d, int prio, const char *fmt, va_list ap) __attribute__((format(printf, 3, 0)));
void daemon_log(const struct daemon *d, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void daemon_notify_status(const struct daemon *d);
/* send o (taken) to c as one line */
void daemon_send_json(struct daemon *d, struct td_client *c, json_t *o);
void daemon_reply_error(struct daemon *d, struct td_client *c, int64_t id, const char *msg);
json_t *daemon_reply_ok(int64_t id);
/* The front's limits (at its start, after a reload); a front that cannot
 * take them is ended (and started again). */
void daemon_privsep_configure(struct daemon *d);

/* daemon_sessions.c: the running sessions */
int daemon_dup_opt(char **dst, const char *src);
void daemon_session_free(struct dsession *ds);
struct dsession *daemon_find_running(struct daemon *d, int64_t id);
/* Start a session for ds (its options filled but for the strings); on
 * success it joins the running set. 0, or -1 with err (ds still the caller's). */
int daemon_start_session(struct daemon *d, struct dsession *ds, struct td_session_opts *o, td_err *err);
/* Finish the i-th running session, which has ended, and free it. */
void daemon_reap(struct daemon *d, int i);

/* daemon_schedule.c */
int daemon_start_scheduled(struct daemon *d, int k, td_err *err);
void daemon_run_schedule(struct daemon *d);
int daemon_schedule_timeout_ms(const struct daemon *d);
int daemon_adopt_schedule(struct daemon *d, struct td_config *c, td_err *err);

/* daemon_auto.c */
int daemon_setup_auto(struct daemon *d, td_err *err);
void daemon_watch_execs(struct daemon *d);

/* daemon_watch.c: watch mode. Set up (or stopped) for d->cfg.watch, at the start and on a reload. */
int daemon_setup_watch(struct daemon *d, td_err *err);
/* After the sessions' dispatch: each group's new values against its baseline, the groups listed again when due. */
void daemon_watch_step(struct daemon *d);
int daemon_watch_timeout_ms(const struct daemon *d);
void daemon_watch_free(struct daemon *d);

/* daemon_downsample.c: watch sessions' intervals older than full_resolution merged per downsample bucket */
void daemon_downsample_step(struct daemon *d);
void daemon_downsample_free(struct daemon *d);
/* At the end: the changes too. */
void daemon_watch_changes_free(struct daemon *d);
/* At the start: the changes the database holds (found by earlier daemons). */
int daemon_watch_load_changes(struct daemon *d, struct td_store *st, td_err *err);

/* daemon_export.c: the exporter's td_export_fill_fn (ctx: the daemon) */
void daemon_fill_metrics(void *ctx, struct td_om *om);

/* daemon_privsep.c: the front and the exporter, from the monitor's side */
/* Start them and wait until they serve. 0, or -1 with err. */
int daemon_privsep_start(struct daemon *d, td_err *err);
void daemon_privsep_stop(struct daemon *d);
/* Their channels to poll (at most 2), what poll said, when one is due to
 * start again. */
int daemon_privsep_pollfds(const struct daemon *d, struct pollfd *p);
void daemon_privsep_dispatch(struct daemon *d, const struct pollfd *p, int n);
int daemon_privsep_timeout_ms(const struct daemon *d);

/* daemon_reload.c (td_daemon_read_config is in daemon.h) */
int daemon_reload(struct daemon *d, td_err *err);

/* req_*.c: one request each, answered to c */
void daemon_op_attach(struct daemon *d, struct td_client *c, const struct td_request *r);
void daemon_op_detach(struct daemon *d, struct td_client *c, const struct td_request *r);
void daemon_op_tail(struct daemon *d, struct td_client *c, const struct td_request *r);
void daemon_op_list(struct daemon *d, struct td_client *c, const struct td_request *r);
void daemon_op_status(struct daemon *d, struct td_client *c, const struct td_request *r);
void daemon_op_sessions(struct daemon *d, struct td_client *c, const struct td_request *r);
void daemon_op_report(struct daemon *d, struct td_client *c, const struct td_request *r);
/* a report job that finished: its reply to the client that asked, if still there */
void daemon_report_done(struct daemon *d, struct td_report_job *j);
void daemon_op_profile_now(struct daemon *d, struct td_client *c, const struct td_request *r);
void daemon_op_reload(struct daemon *d, struct td_client *c, const struct td_request *r);
void daemon_op_changes(struct daemon *d, struct td_client *c, const struct td_request *r);

#endif

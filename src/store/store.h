/* store: the SQLite database — schema and its version (migrating older
 * files), sessions with their status, targets (threads, processes, CPUs,
 * cgroups, the whole target), the event plan, raw interval counts (value,
 * enabled, running) and derived metric values; retention. Raw counts are
 * the truth; metrics are recomputable. WAL mode and one transaction per
 * interval: a kill at any moment leaves a readable file missing at most the
 * interval in flight. Schema: docs/schema.md. */
#ifndef TD_STORE_H
#define TD_STORE_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "base/util.h"

#define TD_SCHEMA_VERSION 13

struct td_store;

enum td_store_mode {
	TD_STORE_READ,
	TD_STORE_WRITE,
	TD_STORE_QUERY
};

struct td_session_info {
	const char *kind;    /* run, attach, import */
	const char *command; /* command line or target description */
	pid_t target_pid;
	const char *host, *kernel;
	const char *cpu_vendor, *cpu_name, *uarch, *pmu_model;
	int cpu_family, cpu_model;
	const char *rung, *rung_reason, *events_file;
	int interval_ms;
	bool kernel_counted;
	int smt;	      /* 1 on, 0 off, -1 unknown */
	int num_cpus;	      /* online CPUs of the measured host, 0 unknown */
	const char *source;   /* import: the file read; NULL otherwise */
	int64_t owner_uid;    /* topdownd: the client's uid; -1 none (tdctl's own) */
	const char *schedule; /* topdownd: the schedule entry that started it, NULL none */
};

/* Open (and in WRITE mode create) the database at path. An older schema is
 * migrated (in READ mode too, through a short write connection). Refuses
 * files that are not SQLite, foreign SQLite files and newer schemas, each
 * with a one-line message in err. TD_STORE_QUERY is READ with
 * `PRAGMA query_only`: nothing can write through it. */
int td_store_open(const char *path, enum td_store_mode mode, struct td_store **out, td_err *err);
void td_store_close(struct td_store *s);
/* Closing s will not checkpoint nor remove the -wal and -shm files (what a
 * last connection does): for a reader that cannot write, unlink or sync by
 * then (topdownd's confined report renderer); a later connection does it. */
void td_store_no_checkpoint_on_close(struct td_store *s);
/* One line for the last error of s's database (corrupt, locked, I/O ...). */
void td_store_describe_error(struct td_store *s, td_err *err);

int td_store_begin(struct td_store *s);
int td_store_commit(struct td_store *s);
void td_store_rollback(struct td_store *s);
/* Many writers' transactions as one (topdownd's watch sessions, each an
 * interval a second, share a handle; a session's group of intervals,
 * session_sink.c): after td_store_outer_begin, each
 * td_store_begin .. td_store_commit (or _rollback) is a savepoint of one
 * transaction, which the first td_store_begin opens and td_store_outer_end
 * commits. Nothing of it is committed before td_store_outer_end says 0
 * (also when no transaction began); -1 with err: all of it is rolled back. */
void td_store_outer_begin(struct td_store *s);
int td_store_outer_end(struct td_store *s, td_err *err);
/* Between td_store_outer_begin and _end, and a transaction began: a
 * td_store_commit's rows wait for td_store_outer_end. */
bool td_store_outer_open(const struct td_store *s);
/* An outer transaction whose transactions fail together (a session's
 * group of intervals): without savepoints; a td_store_rollback in it
 * leaves the whole of it to td_store_outer_abort. */
void td_store_group_begin(struct td_store *s);
/* Roll the outer transaction back, every transaction in it (a caller that
 * commits several of its own intervals together, one of which failed). */
void td_store_outer_abort(struct td_store *s);

/* Sessions. status: running, completed, failed, interrupted. */
int64_t td_store_session_begin(struct td_store *s, const struct td_session_info *info, td_err *err);
int td_store_session_end(struct td_store *s, int64_t session, const char *status, int exit_code, const char *message);
/* How the session's threads are counted: mode 'bpf' or 'per-thread', and
 * the line saying why. 0 or -1. */
int td_store_session_counting(struct td_store *s, int64_t session, const char *mode, const char *note);
/* What counting added to each context switch of a counted thread, ns,
 * measured at the session's start (collect/switch_cost). */
int td_store_session_switch_cost(struct td_store *s, int64_t session, double ns);
/* The switch cost of the latest other session of this database measured on
 * this boot (writer_boot) with session's counting mode and as many events
 * counting (the events rows): what a measure now would measure, the same
 * program or groups on the same kernel. 1 with *ns, 0 none, -1 on error. */
int td_store_switch_cost_this_boot(struct td_store *s, int64_t session, double *ns);
/* Mark sessions left 'running' by a writer that no longer exists as
 * 'interrupted'. Returns how many were marked, or -1. */
int td_store_recover(struct td_store *s);
/* A scheduled profile's rank-th process by CPU time over the session
 * (source: 'proc' or 'bpf'). */
int td_store_top_process_add(struct td_store *s, int64_t session, int rank, pid_t pid, const char *comm,
			     uint64_t cpu_ns, const char *source);
/* A change watch mode found (topdownd [watch]): the watch session whose
 * values moved, when (wall ns), the workload (its cgroup) and node, the
 * node's medians over the baseline and the window (fractions) and how many
 * intervals each held, the test's p-value, and the drill-down session
 * started (0: none). id is the database's. */
struct td_store_change {
	int64_t id, session, drill;
	uint64_t when_ns;
	char *workload, *node;
	bool threshold;		 /* kind: a node over its threshold for threshold_for, else moved */
	double before, after, p; /* before and p NaN: not known (stored as NULL) */
	int n_before, n_after;
	/* the watch session's intervals (seq) of the baseline and of the latest
	 * window, first and last; -1: not known (a change stored before v12) */
	int before_first, before_last, after_first, after_last;
};
/* Insert c (its id ignored): the new row's id, or -1. */
int64_t td_store_change_add(struct td_store *s, const struct td_store_change *c);
/* Each stored change in id order to fn (its strings are freed after the
 * call); fn returns non-zero to stop with that value. 0 or -1. */
typedef int (*td_change_fn)(void *ctx, const struct td_store_change *c);
int td_store_changes(struct td_store *s, td_change_fn fn, void *ctx);
/* Id of the latest session, or 0 when there is none. */
int64_t td_store_latest_session(struct td_store *s);

/* The event plan: one row per event opened (or imported). */
struct td_event_row {
	const char *name; /* alias, or the event as written in an imported file */
	const char *spec; /* event string */
	int group;	  /* group index (import: occurrence of the same event, 0, 1, ...) */
	uint32_t type;
	uint64_t config, config1;
	const char *status; /* counting, failed */
	const char *error;
	const char *alias; /* catalog alias its counts feed, NULL if none */
	const char *file;  /* live collection: the events file (or "proc") that planned it; NULL for imports */
};
int64_t td_store_event_plan_add(struct td_store *s, int64_t session, const struct td_event_row *e);
int64_t td_store_event_add(struct td_store *s, int64_t session, const char *name, const char *spec, int group,
			   uint32_t type, uint64_t config, const char *status, const char *error, const char *file);
int td_store_event_set_alias(struct td_store *s, int64_t event, const char *alias);
/* What one read adds to a running target's count of the event (collect/read_cost). */
int td_store_event_set_read_cost(struct td_store *s, int64_t event, double per_read);
/* Of a session's events with a measured read cost, the one the reads may
 * have added most to, relative to its count: every read of its group (one
 * per interval and thread or CPU) assumed to land. 1 with *out filled, 0
 * when no event has a read cost, -1 on error. */
struct td_read_cost_row {
	char event[64];
	double per_read; /* counts one read adds */
	int64_t reads;	 /* reads of its group (rows counted) */
	double counted;	 /* its count over the session */
};
int td_store_read_cost(struct td_store *s, int64_t session, struct td_read_cost_row *out);
/* Forget which aliases a session's events fed (before recomputing them). */
int td_store_event_aliases_clear(struct td_store *s, int64_t session);

/* Targets. Every add returns an id usable as the `thread` of
 * td_store_count_add and the `target` of td_store_metric_add. */
int64_t td_store_thread_add(struct td_store *s, int64_t session, pid_t pid, pid_t tid, const char *comm,
			    uint64_t first_seen_ns);
int td_store_thread_seen(struct td_store *s, int64_t thread, const char *comm, uint64_t last_seen_ns, bool exited);
/* A CPU of a system-wide session; core and socket -1 when unknown. cpu -1:
 * an aggregate of CPUs — a core (core given) or a socket (core -1). */
int64_t td_store_cpu_add(struct td_store *s, int64_t session, int cpu, int core, int socket);
/* Any other target: kind is process (pid, comm), cgroup (path) or whole
 * (everything the session measured; aggregates). */
int64_t td_store_target_add(struct td_store *s, int64_t session, const char *kind, pid_t pid, const char *comm,
			    const char *cgroup);

int64_t td_store_interval_add(struct td_store *s, int64_t session, int seq, uint64_t start_ns, uint64_t end_ns);
/* What collecting the interval cost: the collector's CPU time (ns), its
 * counter reads and its read/write system calls (-1: not known). */
int td_store_interval_cost(struct td_store *s, int64_t interval, uint64_t collector_ns, uint64_t counter_reads,
			   int64_t syscalls);
/* Raw counts of one target in one interval: c[0..n) in event-id order
 * (a perf group's values, read together). Values of consecutive event ids
 * with the same enabled and running share one stored row. */
struct td_store_count {
	int64_t event;
	uint64_t value, enabled, running;
};
int td_store_counts_add(struct td_store *s, int64_t interval, int64_t target, const struct td_store_count *c, int n);
/* Inside a transaction, td_store_counts_add may keep rows back and write
 * them TD_SAMPLE_BATCH (16) to an INSERT: between td_store_batch_begin and
 * td_store_batch_end (which writes what is left: 0, or -1 when a row
 * could not be written, then the transaction is to be rolled back). The
 * rows kept back are not visible to reads until then; td_store_commit
 * ends a batch left open, td_store_rollback forgets it. For a writer
 * of thousands of rows an interval (the session's sink). */
void td_store_batch_begin(struct td_store *s);
int td_store_batch_end(struct td_store *s);
/* One value (imports, tests): td_store_counts_add of one. */
int td_store_count_add(struct td_store *s, int64_t interval, int64_t thread, int64_t event, uint64_t value,
		       uint64_t enabled, uint64_t running);

/* Derived metric values, one row per interval, target and metric. kind:
 * node, info, cpi. td_store_metric_id returns the metric's id (creating it),
 * to be cached by the writer. value and confidence: NaN is stored as NULL
 * (not available / unknown); confidence is 0..1; spans: the value mixes
 * events counted in different perf groups (td_metrics_eval_groups). */
int64_t td_store_metric_id(struct td_store *s, const char *name, const char *kind);
/* td_store_metric_add of each of rows[0..n) (an evaluation's rows: by fours, one INSERT each). */
struct td_store_metric {
	int64_t metric;
	double value, confidence;
	bool flagged, bottleneck, spans;
};
int td_store_metrics_add(struct td_store *s, int64_t interval, int64_t target, const struct td_store_metric *rows,
			 int n);
int td_store_metric_add(struct td_store *s, int64_t interval, int64_t target, int64_t metric, double value,
			double confidence, bool flagged, bool bottleneck, bool spans);
/* Delete the metric values of a session (before recomputing them). */
int td_store_metrics_clear(struct td_store *s, int64_t session);
/* ... of its intervals whose seq is within [first_seq, last_seq]. */
int td_store_metrics_clear_range(struct td_store *s, int64_t session, int first_seq, int last_seq);

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
/* The threads td_store_thread_totals names (those with counts), in its order,
 * one callback each (event NULL, no sums): without reading their counts. */
int td_store_counted_threads(struct td_store *s, int64_t session, td_thread_total_fn fn, void *ctx);
/* Every thread of the session, counted or not, in the same order. */
int td_store_session_threads(struct td_store *s, int64_t session, td_thread_total_fn fn, void *ctx);

/* Events of a session that could not be counted, one callback per distinct
 * error: the names (space separated, each once, in plan order) and the error. */
typedef int (*td_failed_events_fn)(const char *names, const char *error, void *ctx);
int td_store_failed_events(struct td_store *s, int64_t session, td_failed_events_fn fn, void *ctx);

struct td_session_row {
	int64_t id;
	char kind[16], status[16], command[256], host[64], rung[32], message[256];
	pid_t target_pid;
	uint64_t started_ns, ended_ns;
	int interval_ms, exit_code, nthreads, nintervals;
	int ncpus; /* CPU targets (system-wide and per-CPU imports) */
	bool has_exit_code;
	bool kernel_counted;		 /* kernel-mode activity was counted (root / CAP_PERFMON / paranoid <= 1) */
	int64_t collector_ns;		 /* the collector's CPU time over the intervals that recorded it, -1 none did */
	int cost_intervals;		 /* intervals that recorded it */
	int64_t counter_reads, syscalls; /* summed over those intervals; syscalls -1 when not known */
	int syscall_intervals;		 /* the intervals syscalls covers: those up to the last that read them */
	int64_t owner_uid;		 /* topdownd's client, -1 none */
	char schedule[64];		 /* the schedule entry that started it, "" none */
};
typedef int (*td_session_fn)(const struct td_session_row *r, void *ctx);
int td_store_sessions(struct td_store *s, td_session_fn fn, void *ctx);
int td_store_session(struct td_store *s, int64_t id, struct td_session_row *row);

/* Mark a session as repeat index of group (tdctl run -r: group = the first
 * session's id; index < 0 for a warm-up). */
int td_store_session_repeat(struct td_store *s, int64_t session, int64_t group, int index);
/* The measured sessions (index >= 0, in index order) of the repeat group
 * session belongs to, into a malloc'd *ids; *warmups: the warm-ups left
 * out. Their number, 0 when session is in no group, -1 on error. */
int td_store_repeat_group(struct td_store *s, int64_t session, int64_t **ids, int *warmups);

/* ---- reading a session back -------------------------------------------- */

/* The counting note's tail of a session counted with --unlisted=off
 * (td_store_session_counting's note): read back as unlisted_off. */
#define TD_UNLISTED_OFF_NOTE "; the unlisted remainder not counted (--unlisted=off)"
/* ... and holds this exactly when the raw_tp switch program counted (collect/counting_sums.c's
 * "(%s sched_switch"): its cost a switch is not the tp_btf one's, and a switch cost measured with
 * one is never taken for the other */
#define TD_COUNTING_RAW_TP_NOTE "(raw_tp sched_switch"
/* ... and this when the program counted a CPU's clock and switches itself (collect/counting_sums.c's
 * note: counting.bpf.c's clocks and switches): two counter reads a switch fewer, a cost a switch
 * not that of a program that read them */
#define TD_COUNTING_SELF_NOTE "counted by the program itself"
/* ... and names the switch program by its tag (16 hex digits after this):
 * a figure measured under another program (an earlier build's) is not
 * taken for this one's */
#define TD_COUNTING_TAG_NOTE "the switch program's tag "

struct td_session_meta {
	char kind[16], pmu_model[64], events_file[64], source[512];
	char counting[16];     /* 'bpf', 'per-thread', "" unknown (older, imports, CPU-wide) */
	int smt, num_cpus;     /* -1 / 0: unknown */
	bool unlisted_off;     /* counted with --unlisted=off: threads too short to be listed not counted */
	double switch_cost_ns; /* what counting added to a switch of a counted thread; NAN: not measured */
	/* the session whose start measured it: the first of this boot with that very
	 * figure (a figure reused is copied whole: td_store_switch_cost_this_boot) */
	int64_t switch_cost_from;
};
int td_store_session_meta(struct td_store *s, int64_t id, struct td_session_meta *m);

/* Everything a report's header shows of a session. -1 when there is no
 * such session (or it cannot be read: td_store_errmsg says which). */
struct td_session_header {
	int64_t id;
	char kind[16], command[512], host[128], kernel[128], cpu_name[128], uarch[64], pmu_model[64];
	char rung[32], rung_reason[512], events_file[64], status[16];
	int interval_ms, smt, num_cpus;
	uint64_t started_ns, ended_ns;
	uint64_t first_ns, last_ns; /* start of the first interval, end of the last; 0: none */
	int merged, merged_from;    /* intervals downsampling merged, and how many as read they hold */
};
int td_store_session_header(struct td_store *s, int64_t id, struct td_session_header *h);

/* The largest target id so far (0: none; -1 on error): a writer notes it
 * before an interval's transaction, and after a rollback forgets every
 * handle above it. */
int64_t td_store_max_target_id(struct td_store *s);

/* The intervals of a session in time order: fn(start_ns, end_ns, ctx). */
typedef int (*td_interval_fn)(uint64_t start_ns, uint64_t end_ns, void *ctx);
int td_store_intervals(struct td_store *s, int64_t session, td_interval_fn fn, void *ctx);
/* The same with each interval's seq. */
typedef int (*td_interval_seq_fn)(int seq, uint64_t start_ns, uint64_t end_ns, void *ctx);
int td_store_interval_seqs(struct td_store *s, int64_t session, td_interval_seq_fn fn, void *ctx);

struct td_event_info {
	int64_t id;
	const char *name, *spec, *status, *alias; /* alias NULL if none */
	const char *error; /* why it failed, or (counting) a note on how it was counted — its group split; NULL none */
	const char *file;  /* the events file that planned it, NULL if not recorded (imports, schema < 3) */
	int group;
	uint32_t type;
	uint64_t config, config1;
};
typedef int (*td_event_fn)(const struct td_event_info *e, void *ctx);
int td_store_events(struct td_store *s, int64_t session, td_event_fn fn, void *ctx);

struct td_target_info {
	int64_t id;
	const char *kind, *comm, *cgroup;
	pid_t pid, tid;
	int cpu, core, socket; /* -1 when not a CPU / unknown */
};
typedef int (*td_target_fn)(const struct td_target_info *t, void *ctx);
int td_store_targets(struct td_store *s, int64_t session, td_target_fn fn, void *ctx);
/* A label for a target: thread:COMM-TID, process:COMM-PID, cpu:N, cgroup:PATH, whole. */
void td_target_label(const struct td_target_info *t, char *out, size_t len);

/* Raw counts of a session in interval, target, event order. */
struct td_count_row {
	int64_t interval, target, event;
	int seq;
	uint64_t start_ns, end_ns;
	uint64_t value, enabled, running;
};
typedef int (*td_count_fn)(const struct td_count_row *c, void *ctx);
int td_store_counts(struct td_store *s, int64_t session, td_count_fn fn, void *ctx);
/* The same, of the intervals whose seq is within [first_seq, last_seq]. */
int td_store_counts_range(struct td_store *s, int64_t session, int first_seq, int last_seq, td_count_fn fn, void *ctx);

/* The counts of one interval, handed to an observer once its transaction
 * committed (store_observe.c): rows in target, event order as
 * td_store_counts reads them back; lost: some rows of a committed interval
 * could not be kept (out of memory), so the observer's view is incomplete. */
struct td_committed_counts {
	int64_t session;
	const struct td_count_row *rows;
	size_t n;
	bool lost;
};
typedef void (*td_committed_fn)(void *ctx, struct td_store *s, const struct td_committed_counts *c);
/* From now on, hand every interval's counts written through s to fn once
 * they are committed (td_store_commit, or td_store_outer_end for the
 * savepoints of an outer transaction), never before; rows rolled back are
 * never handed over. fn may read through s (it runs outside any
 * transaction) but not write. fn NULL: stop. */
void td_store_observe_counts(struct td_store *s, td_committed_fn fn, void *ctx);

/* Metric values of a session in interval, target, metric order. */
struct td_metric_row {
	int64_t interval, target;
	int seq;
	uint64_t start_ns, end_ns;
	const char *name, *kind;
	double value, confidence; /* NaN: NULL */
	bool flagged, bottleneck, spans;
};
typedef int (*td_metric_fn)(const struct td_metric_row *m, void *ctx);
int td_store_metrics(struct td_store *s, int64_t session, td_metric_fn fn, void *ctx);

/* Per metric name of the session's stored values (in the order of the
 * names' ids): how many have a confidence, how many of those are below 1,
 * and the lowest (NaN when none has one). Summed by SQLite in one pass. */
struct td_metric_confidence {
	const char *name;
	int64_t total, low;
	double least;
};
typedef int (*td_confidence_fn)(const struct td_metric_confidence *c, void *ctx);
int td_store_metric_confidence(struct td_store *s, int64_t session, td_confidence_fn fn, void *ctx);

/* Run one SQL statement; fn gets each row's column names and values as
 * text (NULL for SQL NULL). On error -1 with the message in err. */
typedef int (*td_row_fn)(int ncols, const char *const *names, const char *const *values, void *ctx);
int td_store_query(struct td_store *s, const char *sql, td_row_fn fn, void *ctx, td_err *err);

/* ---- retention ------------------------------------------------------------ */

struct td_prune_result {
	int sessions_deleted;
	int64_t intervals_deleted;
	uint64_t bytes_before, bytes_after; /* file size (with its WAL) */
};
/* Delete sessions that ended more than max_age_ns ago (0: no age limit),
 * then, while the data exceeds max_bytes (0: no size limit), the oldest
 * sessions and then the oldest intervals of the oldest remaining session;
 * then vacuum so the file shrinks. A running session whose writer is alive
 * is never deleted (only its oldest intervals, for the size limit). */
int td_store_prune(struct td_store *s, uint64_t max_age_ns, uint64_t max_bytes, struct td_prune_result *res,
		   td_err *err);

/* Retention for a writer that must not stall (the sampling loop): at most
 * one bounded step — the oldest intervals of a session past max_age_ns (or,
 * over max_bytes, of the oldest session), as many as hold about
 * TD_RETAIN_STEP_ROWS counts and metric values and at most
 * TD_RETAIN_STEP_INTERVALS; the whole session when that is all it has left
 * and it is not running — in one short transaction, and no VACUUM: the pages freed are reused, so the file stops
 * growing at about max_bytes (`tdctl prune` shrinks it). Running sessions
 * lose only intervals, for the size limit. Returns 1 when it deleted
 * something (more may be due: call again at the next interval), 0 when
 * within the limits, -1 with err. */
#define TD_RETAIN_STEP_INTERVALS 16
#define TD_RETAIN_STEP_ROWS 5000
int td_store_retain_step(struct td_store *s, uint64_t max_age_ns, uint64_t max_bytes, struct td_prune_result *res,
			 td_err *err);

/* ---- downsampling (store_downsample.c) ------------------------------------ */

/* The intervals of a session whose start lies in one width-wide bucket of
 * the wall clock (start_ns / width). */
struct td_ds_bucket {
	int first_seq, last_seq, n;
	uint64_t start_ns, end_ns; /* the first one's start, the last one's end */
};
/* The buckets of session from the interval from_seq on that are over: the
 * bucket after each one ended before before_ns too (wall clock). At most
 * max, oldest first, into out; merged or not, mergeable or not. Their
 * number, or -1 on a store error. */
int td_store_downsample_due(struct td_store *s, int64_t session, int from_seq, uint64_t before_ns, uint64_t width_ns,
			    struct td_ds_bucket *out, int max);
/* 1 when bucket b can be merged: more than one interval; no count missing
 * (outside BPF counting, where a missing row is 0: each interval with
 * rows, no target without rows in an interval between two it has rows
 * in); each target counting the same perf-group events in each interval
 * it has counts in (/proc's come when read); none of them one a change was
 * decided on. 0 when not; -1 on a store error. */
int td_store_downsample_mergeable(struct td_store *s, int64_t session, const struct td_ds_bucket *b);
/* Inside a transaction: each of the buckets b[0..n) (in seq order, as
 * td_store_downsample_due lists them) that can be merged (merged[i] says
 * which) becomes the first of its intervals, ending where the last one
 * ended, its samples per target and event the sums of theirs (values,
 * enabled and running times), its collector time, reads and system calls
 * their sums (NULL when one is); their metric values are deleted (the
 * caller writes the merged interval's), hot samples and stacks move to it.
 * The counts are not handed to an observer again. 0, or -1 on a store
 * error or out of memory (the transaction is then to be rolled back). */
int td_store_downsample_merge(struct td_store *s, int64_t session, const struct td_ds_bucket *b, int n, bool *merged);
/* The ids of the sessions whose schedule matches glob (GLOB: "watch:*"),
 * oldest first, to fn; fn's non-zero stops with it. 0, or -1 on a store error. */
int td_store_sessions_scheduled(struct td_store *s, const char *glob, int (*fn)(void *ctx, int64_t id), void *ctx);

/* What td_store_prune would delete, deleting nothing: the counts, and in
 * bytes_after the size the data would take once vacuumed. */
int td_store_prune_dry_run(struct td_store *s, uint64_t max_age_ns, uint64_t max_bytes, struct td_prune_result *res,
			   td_err *err);

/* The last error of s's database, as SQLite says it; when it is a generic I/O or
 * open error that the system gave a reason for (ENOSPC, EIO, EDQUOT), with that
 * reason: "disk I/O error (No space left on device)". */
const char *td_store_errmsg(struct td_store *s);
/* What to do when the disk failed s's last call (full, quota, I/O error): "free
 * space on the database's disk" or "check the database's disk (dmesg)"; NULL
 * when the last error is not the disk's. A static string. */
const char *td_store_disk_advice(struct td_store *s);
/* err = "cannot WHAT database 'PATH': WHY[: what to do]" for the last error of
 * s's database (what: "write to", "create", ...). */
void td_store_describe_write_error(struct td_store *s, const char *what, td_err *err);

/* store_hot.c: hotspots (schema v9: docs/schema.md). A session's sampling
 * (node NULL: time-based), then its totals so far, written with each interval. */
int td_store_sampling_add(struct td_store *s, int64_t session, const char *event, const char *node, uint64_t period,
			  const char *note);
int td_store_sampling_totals(struct td_store *s, int64_t session, uint64_t samples, uint64_t lost, uint64_t throttled,
			     uint64_t unresolved);
/* The event sampled from now on (a default --hotspots switching from
 * cpu-clock to the bottleneck's locate event): event, node, period, note. */
int td_store_sampling_update(struct td_store *s, int64_t session, const char *event, const char *node, uint64_t period,
			     const char *note);
struct td_hot_row {
	pid_t pid, tid;
	const char *comm; /* reading: the thread's name as the session's targets have it, "" none */
	const char *node; /* NULL: time-based samples, no node */
	const char *function, *module;
	const char *file; /* NULL: no line information */
	int line;
	uint64_t count;
	int first_seq, last_seq; /* reading: the intervals the samples fell in */
};
/* One interval's samples at one location of one thread. */
int td_store_hot_add(struct td_store *s, int64_t session, int64_t interval, const struct td_hot_row *r);
struct td_sampling_row {
	char event[128], node[128], note[256]; /* node "": time-based */
	uint64_t period, samples, lost, throttled, unresolved;
};
/* 1 and *out when the session sampled, 0 when it did not, -1 on error. */
int td_store_sampling(struct td_store *s, int64_t session, struct td_sampling_row *out);
/* Every (thread, node, location) of a session with its samples summed
 * over the intervals with seq in [first, last] (last < 0: to the end),
 * most samples first. */
typedef int (*td_hot_fn)(const struct td_hot_row *r, void *ctx);
int td_store_hot_rows(struct td_store *s, int64_t session, int first, int last, td_hot_fn fn, void *ctx);
/* One interval's samples with one folded call stack of one thread (samples_stack). */
int td_store_hot_stack_add(struct td_store *s, int64_t session, int64_t interval, pid_t pid, pid_t tid,
			   const char *node, const char *stack, uint64_t count);
/* A session's stacks summed over its intervals with seq in [first, last]
 * (last < 0: to the end; per thread when per_thread; comm as in
 * td_hot_row), most samples first. */
typedef int (*td_hot_stack_fn)(const char *node, pid_t tid, const char *comm, const char *stack, uint64_t count,
			       void *ctx);
int td_store_hot_stacks(struct td_store *s, int64_t session, int first, int last, bool per_thread, td_hot_stack_fn fn,
			void *ctx);

#endif

/* session: one monitoring session from start to end, shared by `tdctl run`,
 * `tdctl attach`, `tdctl record` and (later) the daemon — checks the target
 * and the database, builds the event groups from events/NAME.td, writes
 * everything to the store, a group of intervals a transaction (session_sink.c). Any number of
 * sessions run from one poll() loop (td_session_loop); td_session_execute
 * is the one-session case. */
#ifndef TD_SESSION_H
#define TD_SESSION_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "base/util.h"
#include "collect/counting.h"
#include "collect/tracker.h"
#include "live_metrics.h"
#include "store/store.h"

struct td_resolver; /* symbols/symbols.h */

/* What a session tells its user while it runs: notes (what the plan
 * multiplexes, formulas spanning groups: a quiet run drops them) and
 * warnings (a thread that cannot be counted, a write that failed). */
enum td_say {
	TD_SAY_NOTE,
	TD_SAY_WARNING
};
/* One line, no trailing newline; the program decides where it goes. */
typedef void (*td_say_fn)(void *ctx, enum td_say kind, const char *line);

/* --hotspots' default rate: samples a second per CPU busy in the target
 * (cpu-clock counts CPU time, so a CPU idle or running others adds none):
 * 99, off the timer tick's multiples, as perf's default of 4000 is not.
 * docs/performance.md, "Hotspots", measures what it costs. */
#define TD_HOTSPOTS_HZ 99

struct td_session_opts {
	const char *db_path;
	const char *events_dir;		/* NULL: td_events_dir() */
	int interval_ms;		/* reading period */
	int scan_ms;			/* thread discovery period (0: the session's choice, session_loop.c) */
	enum td_tracker_mode tracker;	/* how threads are found (AUTO: BPF where it loads, else /proc) */
	enum td_counting_mode counting; /* how threads are counted (AUTO: BPF where it loads, else per-thread groups) */
	int bpf_map_entries;		/* threads the BPF counting map holds (0: TD_BPF_MAP_ENTRIES_DEFAULT) */
	int duration_ms;		/* 0: until the target ends or a signal */
	pid_t attach_pid;		/* attach: the process; 0 for run */
	bool attach_children;		/* attach --children: also the descendants it has now */
	int repeats, warmups;		/* run -r N --warmup K (tdctl runs the sessions; 0: one run) */
	td_live_print_fn print_fn;	/* each interval's values as evaluated (tdctl stat -I), NULL none */
	/* each committed interval's counts, handed over once its transaction committed
	 * (td_store_observe_counts on the session's own store; not with `store`): NULL none */
	td_committed_fn counts_observer;
	void *counts_observer_ctx;
	void *print_ctx;
	bool print_leaves; /* ... each thread's (CPU's) too */
	bool print_tree;   /* ... and every process summed (kind "tree", td_live_print_tree) */
	char *const *argv; /* run: the command */
	td_say_fn say;	   /* NULL: nothing is said */
	void *say_ctx;
	uint64_t max_age_ns; /* retention while running (0: none): see td_store_prune */
	uint64_t max_bytes;
	int counters;	       /* > 0: at most this many events per group (counter_packing.h) */
	bool unlisted_off;     /* --unlisted=off: no inherited remainder (collector.h td_collector_unlisted_off) */
	int rotate_ms;	       /* > 0: user-space rotation of the groups every MS (collector.h) */
	int level;	       /* -l LEVEL: the model file's tree to this level (0: the deepest that fits one group) */
	const char *nodes;     /* --nodes LIST: these nodes and their ancestors instead, NULL none */
	const char *pmu_model; /* --pmu MODEL: the events file serving MODEL, encoded for it; NULL: the host's */
	bool system;	       /* record --system: every online CPU, no target process */
	const char *cgroup;    /* record --cgroup PATH: that cgroup's tasks on every online CPU */
	const char *cpus;      /* record --cpus LIST ("0-3,6"): only these CPUs; NULL every online one */
	const char *extra_events; /* -e LIST: perf events counted beside the tree (raw, and each as a count) */
	bool has_owner;		  /* topdownd: the session belongs to owner_uid (the client's uid) */
	uid_t owner_uid;
	gid_t owner_gid;
	bool open_as_owner;   /* open every counter with owner_uid/owner_gid, so that the kernel decides
				   * what the owner may count (a client that is not an administrator) */
	const char *schedule; /* topdownd: the schedule entry that started it, NULL none */
	bool user_only;	      /* count user-space only, whatever this process may (a client's paranoid limit) */
	bool thread_metrics;  /* --thread-metrics: store each thread's and CPU's metric values every
				   * interval too (by default only their process's, core's, socket's) */
	bool no_priority;     /* --no-priority: the program leaves the scheduling priority of the thread
				   * that runs the loop as it is (by default it raises it where permitted:
				   * sampler_priority.h); the session itself only reports it */
	const char *hotspots; /* --hotspots[=EVENT]: sample beside the counting (NULL: no; "": the
				    * default event: session_hotspots.c) */
	int hotspots_hz;      /* samples a second per busy CPU (0: TD_HOTSPOTS_HZ) */
	const struct td_resolver *resolver; /* --hotspots: who names user-space addresses (symbols.h;
					     * topdownd's symbolizer), NULL: this process, libdwfl */
	const char *switch_cost_cache;	    /* a file keeping this boot's switch costs across processes
					* (session_cost_cache.c; tdctl), NULL none */
	const char *priority_said;	    /* what the program got (td_sampler_priority's said): a note at the end
				   * of a session that ran, NULL none */
	struct td_store *store;		    /* a writer handle on db_path the caller owns and shares (topdownd's
				    * watch sessions: their intervals written in one transaction,
				    * td_store_outer_begin), NULL: the session opens its own */
	bool aligned;			    /* its intervals end on multiples of interval_ms of the monotonic
				    * clock, so that sessions of one interval are read together */
};

struct td_session_result {
	int64_t session_id;
	int target_status; /* run: exit status as a shell reports it (128+N for signal N) */
	char stop_reason[128];
	int error_exit;	       /* on failure: what tdctl should exit with (127: no such command, 126: cannot execute) */
	uint64_t start_cpu_ns; /* the process's CPU time when sampling began (its set-up: the cost of a start),
				* its helper processes' included */
	uint64_t helper_cpu_ns;	    /* ... of which its helper processes' (the switch-cost pair, tdctl's children) */
	double switch_cost_kept_ns; /* > 0: the switch cost taken from opts.switch_cost_cache (not measured by
				     * this session, not stored with it) */
	char switch_cost_kept[512]; /* ... where and when it was measured */
};

struct td_session;

/* Block SIGINT, SIGTERM, SIGHUP and SIGQUIT (old mask into old) and return
 * a signalfd for them, for td_session_loop; -1 on failure. */
int td_session_block_signals(sigset_t *old);

/* Start a session: checks, counters open, the session row written, a
 * command released to run. The strings and argv of o must outlive the
 * session. -1 with a one-line message in err (res: error_exit, and
 * session_id when a row marked failed was written). */
int td_session_start(const struct td_session_opts *o, struct td_session **out, struct td_session_result *res,
		     td_err *err);
/* Drive sessions until each has ended (its target exited, its duration
 * passed, a signal stopped it). sigfd (-1: none): signals for all of them —
 * passed on to a running command, the end of an attach or a record. The
 * caller raises its thread's priority first where it may
 * (sampler_priority.h): an ordinary thread is starved on a saturated
 * machine and reads its intervals late. */
void td_session_loop(struct td_session *const *sessions, int n, int sigfd);
/* One step of a loop the caller owns (topdownd's: sessions beside its
 * sockets); td_session_loop is these for a fixed set. The session's
 * descriptors into p (at most TD_SESSION_POLLFDS) and their count: */
#define TD_SESSION_POLLFDS 4
struct pollfd;
struct signalfd_siginfo;
int td_session_pollfds(const struct td_session *s, struct pollfd *p);
/* How long poll() may sleep for it (-1: until a descriptor is ready). */
int td_session_timeout_ms(const struct td_session *s);
/* What poll() returned for the session's n descriptors at p: timers
 * read, an interval written, threads scanned, the target's exit seen. */
void td_session_dispatch(struct td_session *s, const struct pollfd *p, int n);
/* With a shared store (opts.store) in an outer transaction, an interval
 * td_session_dispatch wrote is committed or not with that transaction:
 * after td_store_outer_end, tell the session which (why: NULL committed,
 * else what failed; its counts then go into the next interval written).
 * False when no interval waited. */
bool td_session_settle(struct td_session *s, const char *why);
/* The sessions dispatched between these two (the daemon's, in one
 * wake-up) read together: the BPF counting program's sums once for all
 * the sessions that share it (td_bpf_counting_batch_begin), each session
 * handed its own; the process's costs (CPU time, reads, system calls: an
 * interval's cost columns) once for all. Not nested. */
void td_session_batch_begin(void);
void td_session_batch_end(void);
/* The database kept within the session's retention limits (max_age_ns,
 * max_bytes) for a while: a session with a shared store leaves it to its
 * caller, once a wake-up for all of them (the limits are the database's). */
void td_session_retain(struct td_session *s);
/* A signal meant for the session (see td_session_loop). */
void td_session_signal(struct td_session *s, const struct signalfd_siginfo *si);
/* End it at the next step (why: the stop reason stored, < 128 bytes). */
void td_session_stop(struct td_session *s, const char *why);
bool td_session_done(const struct td_session *s);
/* Its row in the store. */
int64_t td_session_id(const struct td_session *s);
/* What it measures with: the degradation rung ("full", "software-only" ...),
 * the PMU model the events are encoded for ("" none; on a hybrid host one per core PMU,
 * "adl_glc+adl_grt", as the session row records it) and the events file. */
const char *td_session_rung(const struct td_session *s);
const char *td_session_pmu_model(const struct td_session *s);
const char *td_session_events_file(const struct td_session *s);
/* Interval writes that failed so far (their counts went into later ones). */
int td_session_failed_writes(const struct td_session *s);
/* Interval periods the sampler read late so far (the intervals that
 * absorbed them are longer). */
uint64_t td_session_missed_periods(const struct td_session *s);
/* The final read, the command's status, the session row ended; frees s.
 * 0 when the session completed (whatever the target's exit status). */
int td_session_finish(struct td_session *s, struct td_session_result *res, td_err *err);

/* Run a whole session: block signals, start, loop, finish. Returns 0 when
 * the session completed (whatever the target's exit status), -1 with a
 * one-line message in err otherwise. */
int td_session_execute(const struct td_session_opts *o, struct td_session_result *res, td_err *err);

#endif

/* session_impl: what the session's files share — the state of one running
 * session (struct td_session) and the functions each file gives the others.
 * session.c starts and ends a session, session_plan.c turns events files
 * into perf group specs, session_sink.c writes what the collector reads,
 * session_loop.c runs any number of sessions from one poll() loop,
 * session_say.c says a line for any of them; session.c calls the others,
 * none calls session.c. Not for use outside the session module. */
#ifndef TD_SESSION_IMPL_H
#define TD_SESSION_IMPL_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#include "collect/collector.h"
#include "live_metrics.h"
#include "machine/pmu.h"
#include "session.h"
#include "session_written.h"
#include "store/store.h"
#include "collect/syswide.h"

/* A core (core >= 0) or a socket (core -1) of a system-wide session, and its target. */
struct cpu_aggregate {
	int core, socket;
	int64_t id;
};

struct td_session {
	struct td_session_opts o; /* a copy: the caller's may go */
	struct td_session_result res;
	struct td_caps caps;
	struct td_perf_group_spec specs[TD_MAX_SPECS];
	char spec_files[TD_MAX_SPECS][64];
	char *extra_td; /* -e: the events file text live evaluation reads */
	char spec_events[TD_MAX_SPECS][TD_GROUP_MAX][256];
	int nspecs;
	struct td_store *store;
	struct td_collector *col;
	struct td_sink sink;
	int64_t session;
	int64_t event_ids[TD_MAX_SPECS][TD_GROUP_MAX];
	struct td_live *live;			    /* metric values per interval */
	int spec_live[TD_MAX_SPECS];		    /* live file of a spec, -1 none */
	int spec_group[TD_MAX_SPECS];		    /* the spec's group among its file's groups */
	int spec_alias[TD_MAX_SPECS][TD_GROUP_MAX]; /* alias of each member in that file */
	/* The perf group each member was counted in: the spec's unless the
	 * kernel refused the spec whole and it is counted in parts (perf_group.h,
	 * td_perf_group_split), each part then a group of its own: in the store
	 * (events.group_idx: g for the first part, past every spec for the
	 * others) and among its file's groups for live evaluation. */
	int event_group[TD_MAX_SPECS][TD_GROUP_MAX];
	int live_group[TD_MAX_SPECS][TD_GROUP_MAX];
	int file_groups[TD_MAX_SPECS];	    /* the groups of spec g's file, its parts counted */
	char split_note[TD_MAX_SPECS][400]; /* "group 3 of FILE split: ..." ("": not split) */
	/* the events files the plan read (software.td, the model's or generic.td, a hybrid's second),
	 * parsed and, where the plan compiled it, compiled: live evaluation takes them over
	 * (session_setup_live) instead of reading them again */
	struct plan_file {
		char name[64];
		struct td_catalog *cat;
		struct td_model *model; /* NULL: not compiled */
	} plan_files[3];
	int nplan_files;
	char **plan_notes; /* what the plan multiplexes or leaves out, one line each */
	int nplan_notes;
	const char *encode_model; /* --pmu MODEL other than the host's, else NULL */
	/* a hybrid host (run, attach without --pmu/--nodes): the second core PMU's events file,
	 * its metric-name prefix ("cpu_atom:") and the session's model spec ("adl_glc+adl_grt") */
	char hybrid_file[64], hybrid_prefix[40], hybrid_spec[140];
	int64_t proc_event_ids[2];
	int64_t interval_id;
	int seq;
	/* CPU time of tdctl's helper processes (the switch-cost pair), its children */
	uint64_t helper_cpu_ns;
	uint64_t interval_start;
	uint64_t cost_cpu_ns, cost_reads, cost_syscalls; /* tdctl's CPU time, group reads and read/write
							  * system calls at the last commit */
	uint64_t syscalls_read_ns; /* when cost_syscalls was read (session_sink.c's SYSCALLS_EVERY_NS) */
	bool final_write;	   /* the interval being written is the last */
	/* Intervals are committed a group at a time (session_sink.c): up to
	 * group_max of them, about a second's, in one transaction, and the
	 * collector with them; group_n were written in the open group (0:
	 * none open), whose rows hold the differences `written` gives. The
	 * session's counters as the group began, for a group that fails: */
	int group_max, group_n;
	struct td_written written;
	struct {
		int seq;
		int64_t above;
		uint64_t start, cpu, reads, calls, calls_ns;
	} group_at;
	/* written in a shared store's outer transaction, committed with it
	 * (td_session_settle): the ids above group_at.above are the interval's */
	bool settle_pending;
	uint64_t settle_now, settle_cpu, settle_reads, settle_calls; /* the clock and the costs at the write */
	bool settle_have_calls;					     /* settle_calls was read */
	bool write_failed;					     /* the last interval could not be written */
	int failed_streak;					     /* attempts that failed since the last write */
	uint64_t missed_periods; /* interval periods the sampler was too late to read */
				 /* the intervals that absorbed them, as ranges (consecutive ones merged):
	 * the first TD_MISSED_RANGES_KEPT, which the end message names, and the
	 * latest, which the next late period may extend; nmissed counts them all.
	 * Bounded: a sampler late every few intervals for days adds a count, not memory. */
#define TD_MISSED_RANGES_KEPT 4
	struct missed_range {
		int first, last;
	} missed[TD_MISSED_RANGES_KEPT], missed_latest;
	int nmissed;
	char late_priority[48];	  /* the sampler's priority when it was first late */
	int failed_writes;	  /* in the whole session */
	char write_error[512];	  /* what the last failed write said */
	const char *write_advice; /* what to do about it (td_store_disk_advice), or NULL */
	pid_t child;
	int go_fd, exec_err_fd;
	bool reported_failures;
	FILE *raw_dump;
	struct td_syswide *sys;	    /* record --system */
	struct cpu_aggregate *aggs; /* aggregate targets of cores and sockets */
	int naggs;
	int cg_fd;   /* record --cgroup: the cgroup directory, else -1 */
	bool cg_bpf; /* ... summed by the BPF program (else perf's cgroup events) */
	char cg_path[512];
	int64_t cg_target;
	struct td_count cg_sum[TD_MAX_SPECS][TD_GROUP_MAX]; /* this interval, summed over CPUs */
	bool cg_have[TD_MAX_SPECS];
	/* the loop */
	int tick, scan, rot, pidfd; /* timerfds and the target's pidfd, -1 none */
	bool scan_on_tick;	    /* no scan timer: the scan comes with each tick (session_loop_arm) */
	uint64_t deadline;	    /* --duration, monotonic ns; 0 none */
	bool done;		    /* stop_reason says why */
	struct session_hot *hot;    /* --hotspots: session_hotspots.c's, NULL none */
};

/* session_say.c: say one line to the user (see td_say_fn) */
void session_say(const struct td_session *s, enum td_say kind, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* session_plan.c */
int session_choose_model(struct td_session *s, td_err *err);
int session_load_events(struct td_session *s, td_err *err);
const char *session_spec_disabled(const struct td_session *s, int g);
/* Free what plan_files still holds. */
void session_plan_files_free(struct td_session *s);
/* After the counters opened: which specs the kernel refused whole and are
 * counted in parts, into event_group, live_group, file_groups and
 * split_note, each split said as a note. */
void session_number_groups(struct td_session *s);
void session_print_plan_notes(const struct td_session *s);

/* session_sink.c */
void session_sink_init(struct td_session *s);
int session_register_events(struct td_session *s);
/* What a read adds to a running target's counts, per event of each group
 * that counts hardware events in kernel mode (collect/read_cost), into the
 * events rows; a measurement the kernel refuses is said as a note. */
void session_record_read_cost(struct td_session *s);
/* What counting adds to each context switch of the target, measured now
 * (collect/switch_cost) and stored with the session; a note when it is not. */
void session_record_switch_cost(struct td_session *s);

/* session_cost_cache.c: this boot's switch costs kept in file path across
 * processes (td_session_opts.switch_cost_cache). get: 1 with *ns and where
 * and when it was measured (said) when the file holds a figure of this boot,
 * kernel, mode and events, else 0. put: the figure measured now replaces the
 * key's line; the file is left as it was where it cannot be written. */
int session_cost_cache_get(const char *path, const char *mode, int events, double *ns, char *said, size_t len);
void session_cost_cache_put(const char *path, const char *mode, int events, double ns);
int session_setup_live(struct td_session *s, td_err *err);
int session_setup_rotation(struct td_session *s, td_err *err);
void session_enforce_retention(struct td_session *s);
/* How many intervals the session commits together (session_sink.c);
 * alone: the only session of its process, writing its own database. */
void session_group_init(struct td_session *rs, bool alone);
int session_write_interval(struct td_session *s, bool final);
/* td_session_batch_begin / _end: the process's costs read once for the
 * batch's intervals (they are the process's, whichever session reads them). */
void session_costs_batch(bool on);

/* session_hotspots.c: --hotspots. Open before the command runs (after the
 * session row); drain at each scan; write inside the interval's
 * transaction, then commit (the counts written are forgotten; after a
 * failed write they go into the next); say what was lost at the end. */
int session_hotspots_open(struct td_session *s, td_err *err);
void session_hotspots_drain(struct td_session *s);
int session_hotspots_write(struct td_session *s);
void session_hotspots_commit(struct td_session *s);
void session_hotspots_say_end(struct td_session *s);
void session_hotspots_free(struct td_session *s);

/* session_loop.c */
int session_loop_arm(struct td_session *s, td_err *err);
void session_loop_close(struct td_session *s);
/* Read the interval timer: the periods since it was last read; more than
 * one are recorded as missed (the sampler was late). */
uint64_t session_loop_take_periods(struct td_session *s);

#endif

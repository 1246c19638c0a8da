/* summary_data: what the end-of-run summary shows, read back and evaluated —
 * per process and per thread the info metrics of software.td (CPU time,
 * utilisation, switches, migrations and faults per second) and generic.td
 * (IPC), each evaluated by eval/evaluator on the counts summed over the
 * session (a thread over its life, a process over the session's wall time:
 * DURATION), plus the voluntary/involuntary switches /proc counted; the
 * metrics whose values were counted only part of the time; and the events
 * the kernel refused. Anything not counted is NaN ("n/c"), never 0. */
#ifndef TD_SUMMARY_DATA_H
#define TD_SUMMARY_DATA_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "base/util.h"
#include "report_data.h"
#include "store/store.h"

/* The summary's columns: an info metric of software.td or generic.td, or a
 * /proc rate. */
enum td_summary_col {
	TD_SUM_CPU_TIME,     /* software.td CPU_Time, s */
	TD_SUM_UTILIZATION,  /* software.td CPU_Utilization, CPUs */
	TD_SUM_SWITCHES,     /* software.td Switches_per_s (with kernel mode not counted: /proc's, see below) */
	TD_SUM_VOLUNTARY,    /* /proc voluntary switches per second */
	TD_SUM_INVOLUNTARY,  /* /proc involuntary switches per second */
	TD_SUM_MIGRATIONS,   /* software.td Migrations_per_s */
	TD_SUM_FAULTS,	     /* software.td Faults_per_s */
	TD_SUM_MAJOR_FAULTS, /* software.td Major_Faults_per_s */
	TD_SUM_IPC,	     /* generic.td IPC */
	TD_SUM_NCOLS
};

/* What a row is. A group's row (its total) comes before its members'. */
enum td_summary_kind {
	TD_SUM_PROCESS, /* group: a process; members: its threads */
	TD_SUM_THREAD,
	TD_SUM_SYSTEM, /* group: every CPU (record --system, per-CPU imports); members: the CPUs */
	TD_SUM_CPU,
	TD_SUM_OTHER, /* group of one: a cgroup, or `whole` (an import's totals) */
	TD_SUM_MEMBER /* the one member of an OTHER group (not printed) */
};

struct td_summary_row {
	enum td_summary_kind kind;
	int64_t thread; /* member: its target id; 0 for a group's total */
	pid_t pid, tid; /* threads; tid is the CPU number of a CPU */
	char comm[32];
	char *label;		/* OTHER: cgroup:PATH or whole (td_summary_free frees it); NULL otherwise */
	bool counted;		/* some count of it was read (rows never counted are not printed) */
	double seconds;		/* the wall time its values cover: the thread's life, the session's for a process */
	double v[TD_SUM_NCOLS]; /* NaN: not counted */
};

/* Per metric name: how many of its stored values had a confidence below 1. */
struct td_summary_conf {
	char *name;
	double least; /* lowest confidence seen (NaN: none below 1) */
	int low, total;
};

struct td_summary_failed {
	char *names, *error; /* the events refused with one error, space separated */
};

struct td_summary {
	struct td_session_row session;
	double duration;	     /* the session's wall time, s (0 unknown) */
	bool hw;		     /* generic.td's events were counted: IPC is a column */
	struct td_summary_row *rows; /* per process: its total (thread 0), then its threads; processes by PID */
	int nrows, nprocesses;
	int nthreads;  /* threads the rows show */
	bool filtered; /* a filter chose threads or intervals: nthreads may be fewer than the session's */
	struct td_summary_conf *conf;
	int nconf;
	struct td_summary_failed *failed;
	int nfailed;
	char why_not_evaluated[sizeof(((td_err *)0)->msg)]; /* "" or why software.td/generic.td could not be read */
	bool has_read_cost; /* read_cost: the event topdown's reads may have added most to */
	struct td_read_cost_row read_cost;
	char counting[16];	  /* how threads were counted: 'bpf', 'per-thread', "" unknown (older sessions) */
	bool unlisted_off;	  /* ... with --unlisted=off: what threads too short to be listed ran not counted */
	double switch_cost_ns;	  /* what counting added to a switch of the target, measured at start; NAN: not */
	int64_t switch_cost_from; /* ... at the start of this session (sum->session's) or an earlier one of this boot */
	const char *switch_cost_kept; /* not NULL: ... not measured by this session nor stored: tdctl's figure for this
				       * boot, and where and when it was measured (td_session_result's) */
	/* the end of `tdctl run`/`attach` only (0: not shown): the whole command's CPU
	 * time from its start to this summary read, of which its start (up to the first
	 * interval) and reading this summary back */
	uint64_t whole_ns, start_ns, summary_ns;
	uint64_t helper_ns; /* ... of which its helper processes' (in whole_ns and start_ns) */
	uint64_t types_ns; /* ... of which bpftool's, making this boot's kernel types file (in whole_ns and start_ns) */
};
/* The target's context switches as counted (its processes' totals: the
 * CONTEXT_SWITCHES event, or /proc's where kernel mode is not counted),
 * -1 when none was counted. */
double td_summary_switches(const struct td_summary *sum);

/* events_dir NULL: td_events_dir(). Rows: each process and its threads, then
 * every CPU (system-wide sessions, per-CPU imports), then a cgroup or the
 * `whole` target (an import of totals) — whatever holds counts. f (NULL:
 * everything) keeps, as a report does, the threads of --thread/--process,
 * the CPU of --cpu, and the intervals whose midpoint lies in --from/--to; then a
 * thread's values cover the kept intervals it was counted in, a process's
 * all the kept intervals. Without a window a thread's cover its life and a
 * process's the session (still running: up to its last interval). -1 with
 * err when the session cannot be read. */
int td_summary_load(struct td_store *s, int64_t session, const char *events_dir, const struct td_report_filter *f,
		    struct td_summary *sum, td_err *err);
/* The same summary built from totals summed as the session ran instead of
 * read back: a td_summary_live made before the session starts (it reads
 * software.td and generic.td then) is given each committed interval's
 * counts (td_summary_live_feed: a td_committed_fn for the session's store,
 * td_store_observe_counts), which it walks as td_summary_load would; at the
 * end td_summary_load_live builds the summary from them, reading back only
 * the session's rows of threads and targets (no counts). What it prints is
 * what td_summary_load gives for the same stored session; when the totals
 * cannot be trusted (out of memory, a row not kept, events added after the
 * first interval) it reads the session back instead. */
struct td_summary_live;
int td_summary_live_new(const char *events_dir, struct td_summary_live **out);
void td_summary_live_feed(void *ctx, struct td_store *s, const struct td_committed_counts *c);
int td_summary_load_live(struct td_summary_live *a, struct td_store *s, int64_t session, struct td_summary *sum,
			 td_err *err);
/* After td_summary_load_live: why it read the session back, NULL when it
 * built the summary from the totals. */
const char *td_summary_live_read_back(const struct td_summary_live *a);
void td_summary_live_free(struct td_summary_live *a);
/* The confidence section (sum->conf), which only the printed summary shows:
 * it reads every stored metric value of the session. */
int td_summary_load_confidence(struct td_store *s, int64_t session, struct td_summary *sum, td_err *err);
void td_summary_free(struct td_summary *sum);

#endif

/* watch_trigger: how watch mode decides that a workload changed (docs/watch.md)
 * — each workload's level-1 node values over its last baseline + 2 windows
 * of intervals, each of the two latest windows held against the baseline
 * before them with the Mann-Whitney rank test (base/stats.h, as `tdctl diff
 * --repeats`): a node moved when both moved it the same way; a move held
 * back when the workload's CPU time and its wait for a CPU traded against
 * each other over the same windows (its neighbours' doing); and the rate
 * limits per workload and over all of them. No I/O and no clock: the
 * caller gives each interval's time, so that the tests replay any history. */
#ifndef TD_WATCH_TRIGGER_H
#define TD_WATCH_TRIGGER_H

#include <stdbool.h>
#include <stdint.h>

struct td_watch_params {
	int baseline, window;	    /* intervals: the baseline, then two windows each held against it */
	double p_value;		    /* a node's two-sided p below this ... */
	double min_shift;	    /* ... and its medians this many percentage points apart (values are fractions) */
	uint64_t workload_every_ns; /* at most one change of a workload in this */
	int per_hour;		    /* at most this many changes of all workloads in any hour */
	int ncpus;		    /* the CPUs a workload's tasks can spread over (the contention test; 0: 1) */
	/* a node over its threshold in each of the last `hold` intervals, after
	 * an interval under it, is a change too (threshold_for; 0: no such
	 * rule): 1 to 2 x window, the rows the ring keeps after the baseline */
	int hold;
};

/* A node's threshold in an interval (the events file's, as the report's
 * flag: its own holds, and its ancestors'), per node of a row. */
enum td_watch_flag {
	TD_WATCH_UNDER, /* its threshold does not hold */
	TD_WATCH_OVER,	/* it holds */
	TD_WATCH_NA	/* the value not counted, or the node has no threshold */
};

/* One workload's recent values: a ring of (baseline + 2 window) rows of
 * nnodes, then its CPU time and its wait for a CPU (struct td_watch_cpu). */
struct td_watch_series {
	int nnodes;
	double *ring;	      /* rows of nnodes + 2, the oldest at (head - filled) */
	unsigned char *flags; /* rows of nnodes enum td_watch_flag, beside the ring's */
	int head, filled;
	uint64_t last_change_ns; /* 0: none yet */
};

/* The rate limit over all workloads: the times of the last per_hour changes. */
struct td_watch_limits {
	uint64_t *times; /* a ring of per_hour */
	int head, n;
};

enum td_watch_verdict {
	TD_WATCH_NONE,	   /* nothing moved (or too few intervals yet) */
	TD_WATCH_CHANGE,   /* a node moved: a change to record */
	TD_WATCH_HELD_ONE, /* a node moved, but the workload had a change within workload_every */
	TD_WATCH_HELD_ALL, /* a node moved, but per_hour changes happened in the last hour */
	TD_WATCH_HELD_CPU  /* a node moved, as did the workload's CPU time against its wait for a CPU */
};

/* A workload's CPU over an interval, as shares of the interval: run, the CPU
 * time of its tasks (cgroup v2 cpu.stat usage_usec; 1.0: one CPU); wait, the
 * time some task of it was runnable but waiting for a CPU (cpu.pressure's
 * "some" total). NaN: not read. */
struct td_watch_cpu {
	double run, wait;
};

/* A series' medians over the baseline and over a window, and the rank
 * test's two-sided p between them; NaN: not read, or too few values. */
struct td_watch_move {
	double before, after, p;
};

enum td_watch_kind {
	TD_WATCH_MOVED,	   /* moved against the baseline in both windows (the rank test) */
	TD_WATCH_THRESHOLD /* over its threshold for `hold` intervals after one under it */
};

struct td_watch_trigger {
	enum td_watch_kind kind;
	int node;	       /* the index of the node that moved most (of those significant) */
	double before, after;  /* its medians: the baseline's, the latest window's */
	double p;	       /* the larger of the two windows' two-sided p-values */
	int n_before, n_after; /* the values each median is of (NaNs, "not counted", left out) */
	/* the workload's CPU time and wait (td_watch_cpu) against the baseline
	 * in each window ([0] the first, [1] the latest), and what the
	 * neighbours' rule decided on them (a phrase for a log line) */
	struct td_watch_move run[2], wait[2];
	const char *why;
};

/* The rows a series keeps, and a verdict is decided on: baseline + 2 windows. */
int td_watch_rows(const struct td_watch_params *pr);
/* 0, or -1 out of memory. */
int td_watch_series_init(struct td_watch_series *s, const struct td_watch_params *pr, int nnodes);
void td_watch_series_free(struct td_watch_series *s);
int td_watch_limits_init(struct td_watch_limits *l, const struct td_watch_params *pr);
void td_watch_limits_free(struct td_watch_limits *l);

/* Row k (0: the oldest) of the last baseline + 2 windows the series
 * holds: nnodes values, then the CPU time and the wait (NaN: not read).
 * What a verdict other than TD_WATCH_NONE was decided on, until the next
 * interval is added. */
const double *td_watch_series_row(const struct td_watch_series *s, const struct td_watch_params *pr, int k);

/* One interval's values (nnodes; NaN: not counted) at now_ns. When the
 * window moved from the baseline, the verdict says whether it is a change
 * and t what moved; the series then starts again (its next baseline is
 * what follows), whether the change was kept or held back. A kept change
 * counts against both limits. As td_watch_add_cpu without the CPU shares. */
enum td_watch_verdict td_watch_add(struct td_watch_series *s, struct td_watch_limits *l,
				   const struct td_watch_params *pr, const double *values, uint64_t now_ns,
				   struct td_watch_trigger *t);

/* The same with the workload's CPU over the interval (cpu: NULL, or a
 * member NaN, when not read): a move is held back (TD_WATCH_HELD_CPU) when,
 * against the baseline, the wait moved in the latest window or in both
 * read together (p below 0.05, or p_value if larger) and its median not
 * the other way in the first, the CPU time not the same way in either, and
 * in the latest by at most 2 x ncpus times the wait's; or when the CPU time
 * moved while, on its lower side, the wait was 0.75 of the time or more
 * (starved; docs/watch.md, "Neighbours"). t->why names the part that
 * decided, either way. */
enum td_watch_verdict td_watch_add_cpu(struct td_watch_series *s, struct td_watch_limits *l,
				       const struct td_watch_params *pr, const double *values,
				       const struct td_watch_cpu *cpu, uint64_t now_ns, struct td_watch_trigger *t);

/* The same with each node's threshold in the interval (flags: nnodes enum
 * td_watch_flag; NULL: none known). With pr->hold, a node whose threshold
 * held in each of the latest hold intervals, and did not in the one before
 * them, is a change (t->kind TD_WATCH_THRESHOLD; before: the baseline's
 * median, after: the held intervals', p: the rank test's between them),
 * found before any move is tested and not held back as the neighbours':
 * the events file's threshold is the user's rule. The rate limits hold it
 * back as any change. Of several nodes, the one that moved most. */
enum td_watch_verdict td_watch_add_flags(struct td_watch_series *s, struct td_watch_limits *l,
					 const struct td_watch_params *pr, const double *values,
					 const unsigned char *flags, const struct td_watch_cpu *cpu, uint64_t now_ns,
					 struct td_watch_trigger *t);

#endif

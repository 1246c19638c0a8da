/* report_data: what a report shows, read back from the store and evaluated
 * once — the session header (host, CPU, kernel, command, rung and why), the
 * events file's model, and evaluations of it: the session aggregate, one per
 * interval, and one per target. The counts are read as session_counts
 * binds them and evaluated by eval/evaluator, as recompute and live
 * collection do. Aggregation sums counts, then evaluates
 * (never averages ratios): per interval and target the scaled counts of an
 * alias are averaged over its rows (perf counting one event in several
 * groups), then summed over the selected targets and over intervals; an
 * alias NA in any addend is NA in the sum (a thread that did not run in
 * an interval counted 0, not NA: td_scale). DURATION of an aggregate is the
 * wall time its intervals cover. Live sessions keep counts per perf group
 * (group_counts.h): each node reads one group's time window where it can,
 * and its confidence is the least running/enabled of the counted events its
 * formula reads there (td_metrics_eval_groups). A time window (--from/--to)
 * keeps only the intervals whose midpoint lies in it: every evaluation, the
 * raw counts and DURATION then cover those intervals only. */
#ifndef TD_REPORT_DATA_H
#define TD_REPORT_DATA_H

#include <stdbool.h>
#include <stdint.h>

#include "eval/evaluator.h"
#include "model/catalog.h"
#include "model/model.h"
#include "store/store.h"

struct td_hotspots;

enum td_report_filter_kind {
	TD_RF_ALL,
	TD_RF_THREAD,
	TD_RF_PROCESS,
	TD_RF_CPU
};

struct td_report_filter {
	enum td_report_filter_kind kind;
	long id; /* tid, pid or cpu */
	/* --from/--to: only the intervals whose midpoint lies in [from, to],
	 * seconds after the start of the session's first interval (to may be
	 * INFINITY); window false: every interval. */
	bool window;
	double from, to;
};

/* The filter's rules, for every reader that selects as a report does (the
 * summary too): does it keep this target (TD_RF_ALL keeps all), and this
 * interval (its midpoint in the window, in seconds after first_ns, the
 * start of the session's first interval)? */
bool td_report_filter_keeps(const struct td_report_filter *f, const struct td_target_info *t);
/* The window of session's intervals first..last (seq) as a filter of every
 * target: from the first one's start to the last one's end, in seconds after
 * the session's first interval (each interval's midpoint within); *n the
 * intervals stored in it. 0, or -1 with err (none of them stored). */
int td_report_seq_window(struct td_store *s, int64_t session, int first, int last, struct td_report_filter *f, int *n,
			 td_err *err);
bool td_report_filter_keeps_interval(const struct td_report_filter *f, uint64_t first_ns, uint64_t start_ns,
				     uint64_t end_ns);

/* One evaluation of the model (eval/evaluator.h), with what it covers. */
struct td_report_eval {
	char label[160]; /* "session", interval seq, or target label */
	int seq;	 /* interval seq; -1 for aggregates */
	uint64_t start_ns, end_ns;
	struct td_evaluation v; /* its values (without a model: only v.seconds) */
};

/* Raw totals of one event over the selected targets and intervals. */
struct td_report_count {
	char name[128], alias[64];
	uint64_t value, enabled, running;
	bool failed; /* the kernel refused the event: not counted, never 0 */
};

struct td_report_data {
	struct td_session_header h;
	struct td_report_filter window; /* the filter the data was loaded with (its time window for the header) */
	struct td_catalog *cat;		/* NULL: no events file serves the PMU model */
	struct td_model *model;
	char model_file[64];	 /* the events file it was loaded from */
	const char *name_prefix; /* before its node, info and CPI names in tables ("cpu_atom:" for a hybrid
				  * session's E-core tree, as recompute names them), NULL none */
	char why_no_model[sizeof(((td_err *)0)->msg)];
	struct td_report_eval whole;
	struct td_report_eval *ivs;
	int nivs;
	/* The HTML charts' columns: per_col consecutive intervals each, counts
	 * summed then evaluated, so that a long session has at most
	 * TD_REPORT_MAX_COLS columns (cols == ivs when per_col is 1). */
	struct td_report_eval *cols;
	int ncols, per_col;
	struct td_report_eval *targets;
	int ntargets;
	struct td_report_count *counts;
	int ncounts;
	int selected_targets; /* targets the filter kept */
	long *candidates;     /* the filter's kind: every TID, PID or CPU the session has (sorted, once each) */
	int ncandidates;
	/* How the counts were taken where it differs from the plan, one line
	 * each, once each (a counting event's error: "group 3 of intel-skl.td
	 * split: the kernel refused it: ..."), in event order. */
	char **notes;
	int nnotes;
	const struct td_hotspots *hot; /* the session's hotspots for the HTML report (hotspots_data.h), set
					* by its caller; NULL: none */
};

/* More columns than this would be thinner than a pixel of the charts and
 * make a one-hour report at 1 s intervals megabytes larger. */
#define TD_REPORT_MAX_COLS 300

/* The session's header, or -1 with a message naming what went wrong. */
int td_report_header_read(struct td_store *s, int64_t session, struct td_session_header *h, td_err *err);

/* Load everything for session; events_dir NULL: td_events_dir(). */
int td_report_data_load(struct td_store *s, int64_t session, const struct td_report_filter *f, const char *events_dir,
			struct td_report_data *d, td_err *err);
/* The same with the counts read by model's events file instead of the session's (a hybrid
 * session, PMU model adl_glc+adl_grt, is read once per core PMU's model); NULL: the session's. */
int td_report_data_load_model(struct td_store *s, int64_t session, const struct td_report_filter *f,
			      const char *events_dir, const char *model, struct td_report_data *d, td_err *err);
void td_report_data_free(struct td_report_data *d);

/* True when the tree is available: a model and at least one node value. */
bool td_report_has_tree(const struct td_report_data *d);

#endif
